"""A first open that fails on a full disk leaves no empty file behind (issue 10's rules).

The next start would otherwise find a 0-byte file and refuse it as "the user's store,
empty": the owner would have to delete a file keeltui made. The disk is filled for
real: the open runs in a child whose file-size limit (RLIMIT_FSIZE) is 0, so SQLite's
first write fails as it would on a full disk; no root or tmpfs needed.
"""

from __future__ import annotations

import subprocess
import sys

from keeltui.store import Store

_OPEN_ON_A_FULL_DISK = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of killing us
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
from keeltui.store import Store, StoreError
try:
    Store(sys.argv[1])
except StoreError as exc:
    print(exc)
    sys.exit(1)
"""


def _open_on_a_full_disk(path) -> subprocess.CompletedProcess:
    # Pipes, not files, for its output: the size limit applies to every file it writes.
    return subprocess.run([sys.executable, "-c", _OPEN_ON_A_FULL_DISK, str(path)],
                          capture_output=True, text=True, timeout=60)


def test_a_failed_first_open_leaves_no_empty_file_and_the_next_start_works(tmp_path):
    db = tmp_path / "data" / "k.db"
    failed = _open_on_a_full_disk(db)
    assert failed.returncode == 1, failed.stderr
    assert str(db) in failed.stdout and "Traceback" not in failed.stderr
    assert not db.exists()
    assert sorted(p.name for p in db.parent.iterdir()) == []  # no -wal or -shm either
    store = Store(db)  # the disk has room again: a new room, not "the file is empty"
    assert store.chief_id() == 1


def test_a_failed_open_of_an_existing_empty_file_leaves_it_alone(tmp_path):
    db = tmp_path / "k.db"
    db.write_bytes(b"")  # not made by this open: the owner's file, kept as it is
    failed = _open_on_a_full_disk(db)
    assert failed.returncode == 1 and "empty" in failed.stdout
    assert db.exists() and db.read_bytes() == b""
