"""Issue 24.8: a hostile model's escape sequences never leave keeltui raw through the CLI:
``tutor export`` (stdout and file), ``plan check`` and ``chat`` (its reply and its errors)."""

from __future__ import annotations

from keeltui.store import Store
from keeltui_dev.loopback import Reply
from tests.conftest import write_config
from tests.support.tmux import run_keeltui
from tests.support.tutor_seed import seed_session

OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"
CLEAR = "\x1b[2J"
TITLE = "\x1b]0;pwned\x07"


def _config(tmp_path, url="http://127.0.0.1:9/v1"):
    return write_config(tmp_path / "c.toml", url, f'[paths]\ndatabase = "{tmp_path / "k.db"}"\n')


def test_tutor_export_writes_no_escape_sequence(tmp_path):
    config = _config(tmp_path)
    store = Store(tmp_path / "k.db")
    plan = f'graph TD\n  a["Cells{OSC52}"] --> b["Tissues{CLEAR}"]\n  b --> c["Organs{TITLE}\x9b2J"]'
    session = seed_session(store, "biology", plan, [("a", True)])
    store.close()
    out = run_keeltui(config, "tutor", "export", str(session))
    assert out.returncode == 0, out.stderr
    assert "Cells" in out.stdout and "Tissues" in out.stdout
    assert "\x1b" not in out.stdout and "\x07" not in out.stdout
    written = run_keeltui(config, "tutor", "export", str(session), "--out", str(tmp_path / "t.md"))
    assert written.returncode == 0, written.stderr
    text = (tmp_path / "t.md").read_text()
    assert "Organs" in text and "\x1b" not in text and "\x07" not in text


def test_plan_check_prints_no_escape_sequence(tmp_path):
    config = _config(tmp_path)
    good = tmp_path / "good.mmd"
    good.write_text(f'graph TD\n  a["Start{OSC52}"] --> b["End{CLEAR}\x9b2J"]\n')
    bad = tmp_path / "bad.mmd"
    bad.write_text(f'graph TD\n  a["Start"] --> {TITLE}((\n')
    for path in (good, bad):
        out = run_keeltui(config, "plan", "check", str(path))
        said = out.stdout + out.stderr
        assert said.strip(), path
        assert "\x1b" not in said and "\x07" not in said, repr(said)


def test_chat_prints_neither_a_replys_nor_an_errors_escape_sequences(tmp_path, loopback):
    config = _config(tmp_path, loopback.url)
    loopback.queue(Reply(chunks=["Sure", OSC52[:3], OSC52[3:], f" done{CLEAR}"]))
    out = run_keeltui(config, "chat", "hello")
    assert out.returncode == 0, out.stderr
    assert "Sure" in out.stdout and "\x1b" not in out.stdout + out.stderr
    loopback.queue(Reply(status=500, error_message=f"boom{OSC52}{TITLE}"))
    failed = run_keeltui(config, "chat", "again")
    assert failed.returncode == 1
    assert "boom" in failed.stderr and "\x1b" not in failed.stderr and "\x07" not in failed.stderr, repr(failed.stderr)
