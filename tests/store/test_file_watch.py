"""keeltui/adapters/file_watch.py: a commit by another connection is seen at once; writes to
other files in the folder are not (the app's status file often sits beside the database)."""

from __future__ import annotations

import select
import sqlite3
import sys

import pytest

from keeltui.adapters.file_watch import watch_files

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


def readable(watch, timeout: float) -> bool:
    return bool(select.select([watch], [], [], timeout)[0])


def test_a_commit_elsewhere_is_seen_and_other_files_are_not(tmp_path):
    ours = sqlite3.connect(tmp_path / "k.db", isolation_level=None)
    ours.execute("PRAGMA journal_mode=wal")
    ours.execute("CREATE TABLE t (x)")
    watch = watch_files(tmp_path, ("k.db", "k.db-wal", "k.db-journal"))
    assert watch is not None
    try:
        assert not readable(watch, 0.2) and not watch.changed()  # nothing written: nothing to wake for
        (tmp_path / "status").write_text("idle")  # a neighbour: it wakes the descriptor, but is not ours
        assert not watch.changed()
        other = sqlite3.connect(tmp_path / "k.db", isolation_level=None)
        other.execute("INSERT INTO t VALUES (1)")
        other.close()
        assert readable(watch, 5.0)  # the timeout only bounds a hang
        assert watch.changed()
        assert not watch.changed()  # drained
    finally:
        watch.close()
        ours.close()


def test_a_folder_that_cannot_be_watched_gives_none(tmp_path):
    assert watch_files(tmp_path / "missing", ("k.db",)) is None
