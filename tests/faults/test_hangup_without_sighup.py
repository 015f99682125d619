"""A terminal that goes away without a SIGHUP: the app leaves, its rows kept.

When the app is not its terminal's controlling process (started with ``setsid``, a pty
whose owner died), closing the other end of the pty sends no signal. Textual's input
thread then read an empty string in a loop for good: a process nobody could see spun a
core until someone found it with ``top`` (seen at 63 % of a core, days later).
"""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import termios
import time

from keeltui.store import Store
from tests.support.tmux import VENV_BIN

SIGHUP_EXIT = 129  # 128 + SIGHUP: it left as on the signal


def _drain(fd: int, seconds: float) -> None:
    """Read what the app draws (a pty whose reader stops would block its writer)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if select.select([fd], [], [], 0.05)[0]:
            try:
                os.read(fd, 65536)
            except OSError:
                return


def test_the_app_leaves_when_its_terminal_closes_without_a_sighup(tmp_path):
    db = tmp_path / "k.db"
    store = Store(db)
    store.add_message(store.chief_id(), "user", "a row written before the terminal went")
    store.close()
    config = tmp_path / "config.toml"
    config.write_text(
        '[brain]\nbase_url = "http://127.0.0.1:9"\nmodel = "loop-model"\n[ambient]\nmode = "off"\n'
        f'[evidence]\nsource = "none"\n[paths]\ndatabase = "{db}"\nstatus_file = "{tmp_path / "status"}"\n',
        encoding="utf-8")
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    # A new session and no TIOCSCTTY: the pty is not the app's controlling terminal, so
    # closing its other end sends no SIGHUP.
    app = subprocess.Popen([str(VENV_BIN / "keeltui"), "--config", str(config)],
                           stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                           env={**os.environ, "TERM": "xterm-256color"})
    os.close(slave)
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "status").exists():  # written once the app is up
            assert app.poll() is None, f"keeltui exited at start ({app.returncode})"
            assert time.monotonic() < deadline, "keeltui did not start within 60 s"
            _drain(master, 0.2)
        _drain(master, 1.0)
        os.close(master)
        master = -1
        try:
            code = app.wait(timeout=60)
        except subprocess.TimeoutExpired:
            raise AssertionError("keeltui still runs 60 s after its terminal closed: a process nobody sees") from None
        assert code == SIGHUP_EXIT
    finally:
        if master >= 0:
            os.close(master)
        if app.poll() is None:
            app.kill()
            app.wait()
    store = Store(db, readonly=True)
    try:
        owner_rows = [m.content for m in store.messages(store.chief_id()) if m.role == "user"]
        assert owner_rows == ["a row written before the terminal went"]
    finally:
        store.close()
    logs = list(tmp_path.rglob("keeltui.log"))  # the test's private XDG dirs
    assert any("the terminal hung up" in path.read_text() for path in logs), logs
