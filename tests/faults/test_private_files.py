"""Issue 10.6: keeltui's folders are 0700 and every file it writes 0600, whatever the umask."""

from __future__ import annotations

import os
import stat
import subprocess

import pytest

from keeltui.brain import Brain
from keeltui.config import load_config
from keeltui.services.tutor_job_runner import TutorJobs
from keeltui.status.file import write_status
from keeltui.store import Store
from keeltui.tutor import jobs as tj
from keeltui_dev.loopback import Reply
from tests.conftest import write_config
from tests.support.need import need_binary
from tests.support.tmux import VENV_BIN, Tmux, keeltui_command, run_keeltui


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def open_umask():
    old = os.umask(0)
    yield
    os.umask(old)


def test_database_folder_and_files_are_private_under_an_open_umask(tmp_path, open_umask):
    folder = tmp_path / "share" / "keeltui"
    store = Store(folder / "keeltui.db")
    store.add_report("cron:x", "private words")
    # While it is open: the database, its WAL and its shared-memory index.
    for name in ("keeltui.db", "keeltui.db-wal", "keeltui.db-shm"):
        assert _mode(folder / name) == 0o600, name
    assert _mode(folder) == 0o700 and _mode(tmp_path / "share") == 0o700
    store.close()


def test_status_file_and_its_folder_are_private(tmp_path, open_umask):
    path = tmp_path / "state" / "keeltui" / "status"
    write_status(path, "idle")
    assert _mode(path) == 0o600 and _mode(path.parent) == 0o700


def test_export_file_is_private_under_an_open_umask(tmp_path):
    cfg = write_config(tmp_path / "c.toml", "http://127.0.0.1:9/v1", f'[paths]\ndatabase = "{tmp_path / "k.db"}"\n')
    Store(tmp_path / "k.db").add_report("cron:x", "private words")
    out = subprocess.run([str(VENV_BIN / "keeltui"), "--config", str(cfg), "export", "--out", str(tmp_path / "room.md")],
                         capture_output=True, text=True, timeout=60, umask=0)
    assert out.returncode == 0, out.stderr
    assert _mode(tmp_path / "room.md") == 0o600


def test_tutor_export_file_is_private_under_an_open_umask_and_an_old_one_is_narrowed(tmp_path):
    cfg = write_config(tmp_path / "c.toml", "http://127.0.0.1:9/v1", f'[paths]\ndatabase = "{tmp_path / "k.db"}"\n')
    store = Store(tmp_path / "k.db")
    session = store.create_conversation("tutor", "protein")
    store.add_message(session, "user", "protein")
    store.close()
    wide = tmp_path / "old.md"
    wide.write_text("an earlier export")
    os.chmod(wide, 0o644)
    for target in (tmp_path / "new.md", wide):
        out = subprocess.run([str(VENV_BIN / "keeltui"), "--config", str(cfg), "tutor", "export", str(session),
                              "--out", str(target)], capture_output=True, text=True, timeout=60, umask=0)
        assert out.returncode == 0, out.stderr
        assert _mode(target) == 0o600, target
        assert target.read_text().startswith("# Tutor session: protein")


async def test_tutor_job_files_and_their_folders_are_private_under_an_open_umask(tmp_path, loopback, open_umask):
    config = load_config(write_config(tmp_path / "c.toml", loopback.url), env={})
    store = Store(tmp_path / "k.db")
    brain = Brain(config.brain)
    jobs_dir = tmp_path / "data" / "tutor-jobs"
    jobs = TutorJobs(store, brain, config, jobs_dir=jobs_dir)
    session = store.create_conversation("tutor", "protein")
    loopback.responder = lambda request: Reply(text="```python\nprint('leucine')\n```")
    try:
        steer = await jobs.run(session, tj.Job("d1", "demo", "print a word", language="python"))
    finally:
        await brain.aclose()
        store.close()
    (path,) = tj.steer_part(steer)["files"]
    assert _mode(path) == 0o600
    for folder in (os.path.dirname(path), jobs_dir, tmp_path / "data"):
        assert _mode(folder) == 0o700, folder


def test_files_from_an_earlier_version_are_tightened_with_one_line(tmp_path):
    db = tmp_path / "k.db"
    Store(db).add_report("cron:x", "written by an earlier version")
    os.chmod(db, 0o644)
    cfg = write_config(tmp_path / "c.toml", "http://127.0.0.1:9/v1", f'[paths]\ndatabase = "{db}"\n')
    out = run_keeltui(cfg, "report", "--source", "cron:y", "a new report")
    assert out.returncode == 0, out.stderr
    assert _mode(db) == 0o600
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and str(db) in lines[0] and "0644" in lines[0] and "0600" in lines[0]
    again = run_keeltui(cfg, "report", "--source", "cron:y", "another")
    assert again.stderr.strip() == ""  # said once: the file is private now


def test_line_mode_chat_history_is_private(tmp_path, e2e_env):
    need_binary("tmux", "tmux")
    session = Tmux(80, 24)
    state = tmp_path / "st"
    cfg = write_config(tmp_path / "c.toml", "http://127.0.0.1:9/v1",
                       f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{state / "status"}"\n')
    try:
        session.start(f"sh -c 'umask 000; exec {keeltui_command(cfg, 'chat')}'", e2e_env)
        session.wait_text("Ctrl-D to leave")
        session.type("a private line")
        session.send("Enter")
        session.wait_for(lambda _: (state / "chat_history").exists()
                         and b"a private line" in (state / "chat_history").read_bytes(), what="history written")
        session.send("C-d")
    finally:
        session.close()
    assert _mode(state / "chat_history") == 0o600 and _mode(state) == 0o700
