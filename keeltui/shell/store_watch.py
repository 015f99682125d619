"""The store watcher's wake-up: told when the database's files are written (inotify, from
keeltui/adapters/file_watch.py) instead of asking SQLite twice a second, so an idle app
wakes for its store only when something was written. The App keeps the check itself
(``_poll_store``) and the timer; this part swaps the half-second poll for the watch after
the first frame."""

from __future__ import annotations

import asyncio
from contextlib import suppress
from typing import TYPE_CHECKING

from textual.app import App

if TYPE_CHECKING:
    from textual.timer import Timer

    from keeltui.adapters.file_watch import FileWatch
    from keeltui.store import Store

STORE_WATCHED_POLL_SECS = 10.0
"""With a watch on the database's folder (keeltui/adapters/file_watch.py) the poll is only a
safety net, for writes inotify cannot see (a database on a network share written from
another machine): an idle app then wakes for its store once in ten seconds, not twice a second."""


class StoreWatch(App):
    """Mixed into KeelApp, which has the store, the timer and the check (``_poll_store``)."""

    _store_watch: FileWatch | None = None

    if TYPE_CHECKING:  # what KeelApp provides
        store: Store
        _store_timer: Timer | None

        @property
        def ui_alive(self) -> bool: ...

        def _poll_store(self) -> None: ...

    def _watch_store(self) -> None:
        """After the first frame: be told when the database's files are written, and poll
        only as a safety net (the 0.5 s poll stays where inotify is not there)."""
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
