"""The store watcher: another process's commit (``keeltui report``, ``keeltui quiet on``, a
second app) reaches the open app's room.

The check itself is cheap (SQLite's ``PRAGMA data_version``); what costs an idle app is
waking up to make it. So after the first frame the app is told when the database's files
are written (inotify, keeltui/adapters/file_watch.py) and polls only as a safety net, for
writes inotify cannot see (a database on a network share written from another machine).
Where inotify is not there, the half-second poll stays.
"""

from __future__ import annotations

import asyncio
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING

from textual.app import App

if TYPE_CHECKING:
    from collections.abc import Iterator

    from textual.timer import Timer

    from keeltui.adapters.file_watch import FileWatch
    from keeltui.store import Store

STORE_POLL_SECS = 0.5
"""The poll where the database's folder cannot be watched, and until the watch is set up."""
STORE_WATCHED_POLL_SECS = 10.0
"""The poll beside a watch: an idle app wakes for its store once in ten seconds, not twice a second."""


class StoreWatch(App):
    """Mixed into KeelApp, which has the store and what a change refreshes."""

    _store_watch: FileWatch | None = None
    _store_timer: Timer | None = None
    _data_version = -1
    """The store's change counter when the app last read it (a new value: someone wrote)."""

    if TYPE_CHECKING:  # what KeelApp provides
        store: Store

        @property
        def ui_alive(self) -> bool: ...

        @contextmanager
        def _store_guarded(self) -> Iterator[None]: ...

        def refresh_from_store(self) -> None: ...

    def _start_store_watch(self) -> None:
        """At mount: poll now, and swap the poll for the watch after the first frame."""
        self._store_timer = self.set_interval(STORE_POLL_SECS, self._poll_store)
        self.call_after_refresh(self._watch_store)

    def _poll_store(self) -> None:
        with self._store_guarded():  # a damaged page, a vanished file: say so, keep running
            version = self.store.data_version()
            if version != self._data_version:
                self._data_version = version
                self.refresh_from_store()

    def _watch_store(self) -> None:
        """Be told when the database's files are written, and poll only as a safety net."""
        if not self.ui_alive or self._store_watch is not None:
            return
        from keeltui.adapters.file_watch import watch_files

        name = self.store.path.name
        watch = watch_files(self.store.path.parent, (name, f"{name}-wal", f"{name}-journal"))
        if watch is None:
            return
        self._store_watch = watch
        asyncio.get_running_loop().add_reader(watch.fileno(), self._store_files_written)
        if self._store_timer is not None:
            self._store_timer.stop()
        self._store_timer = self.set_interval(STORE_WATCHED_POLL_SECS, self._poll_store)
        self._poll_store()  # a commit between the last poll and the watch

    def _store_files_written(self) -> None:
        """The event loop saw the watch readable: drain it; check the store if ours was written."""
        if self._store_watch is not None and self._store_watch.changed():
            self.call_later(self._poll_store)  # in the app's queue, like a timer's tick

    def _unwatch_store(self) -> None:
        watch, self._store_watch = self._store_watch, None
        if watch is not None:
            with suppress(Exception):  # the loop may be closing
                asyncio.get_running_loop().remove_reader(watch.fileno())
            watch.close()
