"""The CLI as a user runs it: real processes, real files, exit codes."""

from __future__ import annotations


import pytest

from keeltui.status.file import write_status
from keeltui.store import Store
from tests.conftest import write_config
from keeltui_dev.loopback import Reply, free_port
from tests.support.tmux import run_keeltui


@pytest.fixture
def cfg(tmp_path, loopback):
    return write_config(tmp_path / "config.toml", loopback.url,
                        f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')


def test_malformed_config_exits_2_naming_file_and_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[ambient]\nmode = "sometimes"\n')
    out = run_keeltui(bad, "status")
    assert out.returncode == 2
    assert out.stderr.strip() == f"keeltui: {bad}: ambient.mode: unknown mode 'sometimes' (allowed: off, status, notify)"
    assert "Traceback" not in out.stderr


def test_toml_syntax_error_exits_2_with_the_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[brain]\nmodel = "x\n')
    out = run_keeltui(bad, "log")
    assert out.returncode == 2 and str(bad) in out.stderr and "line 2" in out.stderr


def test_bad_env_mode_exits_2(cfg):
    out = run_keeltui(cfg, "status", env={"KEEL_AMBIENT_MODE": "shouty"})
    assert out.returncode == 2 and "KEEL_AMBIENT_MODE" in out.stderr


def test_usage_error_exits_2(cfg):
    assert run_keeltui(cfg, "quiet", "maybe").returncode == 2
    assert run_keeltui(cfg, "log", "--limit", "0").returncode == 2
    assert run_keeltui(cfg, "log", "--since", "later").returncode == 2


def test_report_prints_the_row_id_and_reads_stdin(cfg, tmp_path):
    first = run_keeltui(cfg, "report", "--source", "cron:backup", "backup ok")
    second = run_keeltui(cfg, "report", "--source", "coop-notify:x", "-", input="from stdin\n")
    assert first.returncode == 0 and second.returncode == 0
    store = Store(tmp_path / "k.db")
    row = store.message(int(second.stdout))
    assert row.content == "from stdin" and row.turn_kind == "coop"
    assert store.message(int(first.stdout)).turn_kind == "task"
    assert run_keeltui(cfg, "report", "--source", "x", "   ").returncode == 2


def test_log_filters_and_plain_text(cfg, tmp_path):
    store = Store(tmp_path / "k.db")
    room = store.chief_id()
    store.add_message(room, "user", "question one")
    store.add_message(room, "assistant", "answer \x1b[31mred\x1b[0m")
    store.add_report("followup:a", "follow this up")
    store.add_report("cron:b", "cron ran")
    out = run_keeltui(cfg, "log")
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert lines[0].endswith("Owner: question one")
    assert lines[1].endswith("Chief: answer red")
    assert lines[2].endswith("[Follow-up] follow this up")
    assert lines[3].endswith("[Scheduled task] cron ran")
    assert "\x1b" not in out.stdout  # not a TTY: no colour, and never the content's escapes
    assert run_keeltui(cfg, "log", "--kind", "followup").stdout.count("\n") == 1
    assert run_keeltui(cfg, "log", "--limit", "2").stdout.splitlines()[0].endswith("[Follow-up] follow this up")
    assert run_keeltui(cfg, "log", "--since", "1h").stdout.count("\n") == 4
    assert run_keeltui(cfg, "log", "--kind", "conversation").stdout.count("\n") == 2


def test_export_writes_markdown(cfg, tmp_path):
    Store(tmp_path / "k.db").add_report("cron:x", "nightly ok")
    out = run_keeltui(cfg, "export", "--out", str(tmp_path / "room.md"))
    assert out.returncode == 0
    text = (tmp_path / "room.md").read_text()
    assert text.startswith("# The Chief room") and "[Scheduled task]" in text


def test_chat_one_turn_prints_the_reply(cfg, loopback, tmp_path):
    loopback.queue(Reply(text="Yes, it is Tuesday."))
    out = run_keeltui(cfg, "chat", "is", "it", "tuesday?")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "Yes, it is Tuesday."
    rows = Store(tmp_path / "k.db").messages(1)
    assert [r.content for r in rows] == ["is it tuesday?", "Yes, it is Tuesday."]


def test_chat_with_a_dead_brain_keeps_the_turn_and_fails(tmp_path):
    cfg = write_config(tmp_path / "c.toml", f"http://127.0.0.1:{free_port()}/v1",
                       f'[paths]\ndatabase = "{tmp_path / "k.db"}"\n')
    out = run_keeltui(cfg, "chat", "hello?")
    assert out.returncode == 1
    assert "no model server answers at" in out.stderr and "saved" in out.stderr
    assert Store(tmp_path / "k.db").messages(1)[0].content == "hello?"


def test_quiet_commands(cfg):
    assert run_keeltui(cfg, "quiet", "status").stdout.strip() == "off"
    assert run_keeltui(cfg, "quiet", "on").returncode == 0
    assert run_keeltui(cfg, "quiet", "status").stdout.strip() == "on"
    assert run_keeltui(cfg, "report", "--source", "cron:x", "still lands").returncode == 0
    assert run_keeltui(cfg, "log").returncode == 3


def test_status_reads_the_file_the_app_writes(cfg, tmp_path):
    assert run_keeltui(cfg, "status").stdout.strip() == "keeltui not running"
    write_status(tmp_path / "status", "⚠ #3 on reddit", pid=__import__("os").getpid())
    assert run_keeltui(cfg, "status").stdout.strip() == "⚠ #3 on reddit"
    assert run_keeltui(cfg, "status", "--tmux").stdout.strip() == "⚠ ##3 on reddit"


def test_corrupt_database_is_one_clear_line(cfg, tmp_path):
    (tmp_path / "k.db").write_bytes(b"garbage" * 1000)
    out = run_keeltui(cfg, "log")
    assert out.returncode == 1
    assert str(tmp_path / "k.db") in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert (tmp_path / "k.db").read_bytes() == b"garbage" * 1000


def test_doctor_reports_each_part(cfg):
    out = run_keeltui(cfg, "doctor")
    text = out.stdout
    for part in ("config:", "database:", "brain:", "evidence:", "notifier:"):
        assert part in text
    assert "[ok  ] brain:" in text and "schema version" in text


def test_doctor_with_no_brain_says_what_to_do(tmp_path):
    cfg = write_config(tmp_path / "c.toml", f"http://127.0.0.1:{free_port()}/v1",
                       f'[paths]\ndatabase = "{tmp_path / "k.db"}"\n')
    out = run_keeltui(cfg, "doctor")
    assert out.returncode == 1
    assert "[FAIL] brain:" in out.stdout and "ollama serve" in out.stdout


def test_secrets_never_reach_database_status_or_output(tmp_path, loopback):
    cfg = write_config(tmp_path / "c.toml", loopback.url,
                       f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
    secret = "sk-test-" + "z" * 24
    env = {"OPENAI_API_KEY": secret}
    outputs = [run_keeltui(cfg, *args, env=env) for args in (["chat", "hi"], ["doctor"], ["log"], ["status"])]
    assert all(secret not in o.stdout + o.stderr for o in outputs)
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path
    assert any("authorization" in {k.lower() for k in h} for h in loopback.headers)


def test_help_lists_the_commands(cfg):
    out = run_keeltui(cfg, "--help")
    for name in ("status", "report", "log", "export", "chat", "quiet", "snooze", "focus", "plan", "doctor"):
        assert name in out.stdout


def test_snooze_and_focus_share_state_with_the_app(cfg, tmp_path):
    out = run_keeltui(cfg, "snooze", "30m")
    assert out.returncode == 0 and "30m" in out.stdout
    store = Store(tmp_path / "k.db")
    import time

    until = store.get_state("ambient_snooze_until")
    assert 29 * 60 < until - time.time() <= 30 * 60
    assert run_keeltui(cfg, "snooze", "soonish").returncode == 2
    assert run_keeltui(cfg, "focus", "start", "write", "the", "report", "--minutes", "40").returncode == 0
    busy = run_keeltui(cfg, "focus", "start", "something else")
    assert busy.returncode == 1 and '"write the report"' in busy.stderr
    assert "write the report" in run_keeltui(cfg, "focus", "status").stdout
    stopped = run_keeltui(cfg, "focus", "stop")
    assert stopped.returncode == 0 and "write the report" in stopped.stdout
    rows = store.messages(store.chief_id())
    assert rows[-1].turn_kind == "notice" and "write the report" in rows[-1].content
    assert run_keeltui(cfg, "focus", "stop").returncode == 1


def test_plan_check(cfg, tmp_path):
    good = tmp_path / "plan.mmd"
    good.write_text("graph TD\n  mps_translation[MPS] --> net_balance[Balance] --> per_meal[Per meal]\n")
    out = run_keeltui(cfg, "plan", "check", str(good))
    assert out.returncode == 0 and "per_meal" in out.stdout
    bad = run_keeltui(cfg, "plan", "check", "-", input="graph TD\n  MPS[x] --> b[y]\n")
    assert bad.returncode == 1
    assert bad.stderr.strip().startswith("line 2: node id \"MPS\" is not a slug")


def test_status_fast_path_trusts_only_a_config_the_app_validated(tmp_path):
    import os
    import subprocess
    import sys

    from keeltui.infra.paths import config_stamp

    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[paths]\nstatus_file = "{tmp_path / "status"}"\n')
    write_status(tmp_path / "status", "⚠ on reddit", pid=os.getpid(), config_stamp=config_stamp(str(cfg)))
    probe = ("import sys; from keeltui.cli.commands import main; code = main(['--config', sys.argv[1], 'status']); "
             "print(sorted(m for m in ('argparse', 'dataclasses', 'keeltui.config', 'textual') if m in sys.modules)); "
             "sys.exit(code)")
    fast = subprocess.run([sys.executable, "-c", probe, str(cfg)], capture_output=True, text=True)
    assert fast.stdout.splitlines() == ["⚠ on reddit", "[]"]
    # Edited since the app validated it, and now broken: the full path catches it.
    cfg.write_text(f'[paths]\nstatus_file = "{tmp_path / "status"}"\n[ambient]\nmode = "loud"\n')
    slow = subprocess.run([sys.executable, "-c", probe, str(cfg)], capture_output=True, text=True)
    assert slow.returncode == 2 and "ambient.mode" in slow.stderr


def test_status_validates_a_config_once_until_it_changes(tmp_path):
    """No app has run with this config: the first `status` validates it the full way and
    stamps it; later calls take the fast path until the file changes. A broken config
    is never stamped: every call says its one line and exits 2."""
    import subprocess
    import sys

    cfg = tmp_path / "c.toml"
    status = tmp_path / "state" / "status"
    good = f'[paths]\nstatus_file = "{status}"\n'
    probe = ("import sys; from keeltui.cli.commands import main; code = main(['--config', sys.argv[1], 'status']); "
             "print('full' if 'keeltui.config' in sys.modules else 'fast'); sys.exit(code)")

    def status_call():
        return subprocess.run([sys.executable, "-c", probe, str(cfg)], capture_output=True, text=True, timeout=60)

    cfg.write_text(good)
    assert [status_call().stdout.splitlines()[-1] for _ in range(2)] == ["full", "full"]
    assert not status.parent.exists()  # a status call creates no folder of its own
    status.parent.mkdir()  # as any run of the app leaves it
    first, second = status_call(), status_call()
    assert first.returncode == 0 and first.stdout.splitlines() == ["keeltui not running", "full"], first.stderr
    assert second.returncode == 0 and second.stdout.splitlines() == ["keeltui not running", "fast"], second.stderr
    assert [p.name for p in status.parent.iterdir()] == [".status.validated"]  # the status file stays the app's
    assert (status.parent / ".status.validated").stat().st_mode & 0o777 == 0o600
    cfg.write_text(good + '[ambient]\nmode = "loud"\n')  # changed, and broken
    for _ in range(2):
        broken = status_call()
        assert broken.returncode == 2, broken.stdout
        lines = broken.stderr.strip().splitlines()
        assert len(lines) == 1 and str(cfg) in lines[0] and "ambient.mode" in lines[0], broken.stderr
    cfg.write_text(good + "# mended\n")
    assert [status_call().stdout.splitlines()[-1] for _ in range(2)] == ["full", "fast"]


def test_status_on_a_config_no_app_has_run_loads_no_store_textual_or_openai(tmp_path):
    """The full (validating) path of `keeltui status` stays light too: it runs on every
    tmux status-interval, and a store import costs more than the rest of it."""
    import subprocess
    import sys

    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[paths]\nstatus_file = "{tmp_path / "status"}"\n')
    probe = ("import sys; from keeltui.cli.commands import main; code = main(['--config', sys.argv[1], 'status']); "
             "print(sorted(m for m in ('keeltui.store', 'sqlite3', 'textual', 'openai') if m in sys.modules)); "
             "sys.exit(code)")
    run = subprocess.run([sys.executable, "-c", probe, str(cfg)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "[]"
