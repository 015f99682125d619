"""Issue 10.3: any bytes in, no traceback; a broken stream is a protocol error."""

from __future__ import annotations

import os
import subprocess

import pytest

from keeltui.config import load_config
from keeltui.store import Store
from keeltui.text.textsafe import SOURCE_KEY_MAX
from tests.conftest import write_config
from keeltui_dev.loopback import Reply
from tests.support.pilot import screen_text, wait_for
from tests.support.tmux import VENV_BIN

INVALID = b"backup ok \xff\xfe\xc3( done \xed\xa0\x80 end"


def _cfg(tmp_path):
    return write_config(tmp_path / "c.toml", "http://127.0.0.1:9/v1",
                        f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')


def _run(cfg, *args: bytes | str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    argv = [str(VENV_BIN / "keeltui").encode(), b"--config", str(cfg).encode(),
            *(a if isinstance(a, bytes) else a.encode() for a in args)]
    return subprocess.run(argv, input=stdin, capture_output=True, timeout=60, env=dict(os.environ))


def test_readme_tail_pipe_with_invalid_utf8_lands_with_replacement_chars(tmp_path):
    cfg = _cfg(tmp_path)
    log = tmp_path / "backup.log"
    log.write_bytes(b"line one\n" + INVALID + b"\n")
    tail = subprocess.Popen(["tail", "-2", str(log)], stdout=subprocess.PIPE)
    out = subprocess.run([str(VENV_BIN / "keeltui"), "--config", str(cfg), "report", "--source", "cron:backup", "-"],
                         stdin=tail.stdout, capture_output=True, timeout=60)
    tail.wait()
    assert out.returncode == 0, out.stderr
    row = Store(tmp_path / "k.db").message(int(out.stdout))
    assert row.content.startswith("line one\nbackup ok \ufffd") and row.content.endswith(" end")
    assert "\ufffd" in row.content and row.turn_kind == "task"


def test_invalid_bytes_in_argv_text_and_source_are_stored_replaced(tmp_path):
    cfg = _cfg(tmp_path)
    out = _run(cfg, "report", "--source", b"cron:\xff-job", INVALID)
    assert out.returncode == 0, out.stderr
    row = Store(tmp_path / "k.db").message(int(out.stdout))
    assert row.source == "cron:\ufffd-job" and row.content.startswith("backup ok \ufffd")
    assert b"Traceback" not in out.stderr


@pytest.mark.parametrize("source, problem", [
    ("cron:a\ncron:b", "one line"),
    ("cron:\x1b[31mred", "control characters"),
    ("cron:" + "x" * SOURCE_KEY_MAX, "at most"),
    ("   ", "empty"),
])
def test_a_bad_source_key_is_refused_in_one_line(tmp_path, source, problem):
    out = _run(_cfg(tmp_path), "report", "--source", source, "text")
    assert out.returncode == 2
    lines = out.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and problem in lines[0]
    assert not (tmp_path / "k.db").exists() or Store(tmp_path / "k.db").count(1) == 0


@pytest.mark.parametrize("bad", [42, ["a", "list"], {"an": "object"}, 3.5, True])
async def test_a_chunk_whose_content_is_not_text_is_a_protocol_error(make_app, loopback, bad):
    loopback.queue(Reply(chunks=["partial answer ", bad, "never shown"]))
    loopback.default = Reply(text="a fine reply")
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.brain_online is True, what="brain check")
        app.room.composer.focus_input()
        app.room.composer.input.insert("tell me")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not app.room.composer.busy and "protocol" in app.status_line.message,
                       what="the protocol error")
        rows = app.store.messages(app.store.chief_id())
        assert [r.content for r in rows if r.role == "user"] == ["tell me"]
        reply = [r for r in rows if r.role == "assistant" and r.turn_kind is None][-1]
        assert reply.content == "partial answer " and reply.status == "partial"
        assert "cut off" in screen_text(app)
        assert app.is_running
        app.room.composer.input.insert("again")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "a fine reply" in screen_text(app), what="the next turn")


async def test_null_content_is_no_text_not_an_error(make_app, loopback):
    # Tool-call chunks carry "content": null by the protocol; it must not cut a reply.
    loopback.queue(Reply(chunks=["first ", None, "second"]))
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        app.room.composer.focus_input()
        app.room.composer.input.insert("hi")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "first second" in screen_text(app), what="the whole reply")


def test_owner_names_are_cleaned_like_any_other_text(tmp_path):
    cfg = write_config(tmp_path / "c.toml", "http://127.0.0.1:9/v1",
                       '[owner]\nname = "\\u001b[31mMallory\\u001b]0;pwned\\u0007\\nsecond line"\n'
                       'companion = "\\u001b[2J"\n')
    config = load_config(cfg, env={})
    assert config.owner.name == "Mallory second line"
    assert config.owner.companion == "Chief"  # nothing printable left: the default
    long = write_config(tmp_path / "d.toml", "http://127.0.0.1:9/v1", f'[owner]\nname = "{"n" * 500}"\n')
    assert len(load_config(long, env={}).owner.name) <= 40
