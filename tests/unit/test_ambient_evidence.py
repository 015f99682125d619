"""Evidence sources (command, tmux selection, ewmh without a display),
snapshot cleaning, and privacy exclusions."""

from __future__ import annotations

import logging
import os
import stat
import time
from pathlib import Path

import pytest

from keeltui.text.textsafe import one_line
from keeltui.adapters.evidence import (
    EXCLUDED,
    CommandSource,
    EwmhSource,
    NoneSource,
    TmuxSource,
    WindowSnapshot,
    apply_exclusions,
    compile_exclusions,
    make_source,
)

LOGGER = "keeltui.adapters.evidence"


def script(tmp_path: Path, body: str, name: str = "active-window") -> str:
    """Write an executable shell script and return a command that runs it."""
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def clock() -> float:
    return 42.0


# ---------------------------------------------------------------- cleaning


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("plain title", "plain title"),
        ("\x1b[31mred\x1b[0m text", "red text"),
        ("\x1b]0;set the title\x07after", "after"),
        ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"),
        ("nul\x00byte", "nulbyte"),
        ("bell\x07 and del\x7f", "bell and del"),
        ("c1 \x9b31m csi and \x85 nel", "c1 csi and nel"),
        ("tab\tnew\nline\r\n", "tab new line"),
        ("bidi \u202eevil\u202c", "bidi evil"),
        ("lone ESC \x1b", "lone ESC"),
        ("  many    spaces  ", "many spaces"),
        (b"bytes \xff here", "bytes \ufffd here"),
        (None, ""),
        ("surrogate \ud800 here", "surrogate ? here"),
    ],
)
def test_clean_text(raw, clean):
    assert one_line(raw, 300) == clean


def test_snapshot_cleans_and_clips_on_construction():
    snap = WindowSnapshot("\x1b[1mFire\x00fox", "t" * 1000 + "\x1b[2J", 1.0)
    assert snap.wm_class == "Firefox"
    assert len(snap.title) == 300 and snap.title.endswith("…")
    with pytest.raises(AttributeError):
        snap.title = "mutated"  # frozen


# ---------------------------------------------------------------- command source


def test_command_source_good_output(tmp_path):
    cmd = script(tmp_path, "printf 'firefox\\tPull request #12 - GitHub\\n'")
    snap = CommandSource(cmd, clock=clock).read()
    assert snap == WindowSnapshot("firefox", "Pull request #12 - GitHub", 42.0)


def test_command_source_first_non_empty_line_and_tabs_in_title(tmp_path):
    cmd = script(tmp_path, "printf '\\n\\nkitty\\tvim\\tmain.py\\nsecond\\tline\\n'")
    snap = CommandSource(cmd, clock=clock).read()
    assert (snap.wm_class, snap.title) == ("kitty", "vim main.py")


def test_command_source_third_field_is_idle_seconds(tmp_path):
    cmd = script(tmp_path, "printf 'firefox\\tYouTube\\t615.5\\n'")
    snap = CommandSource(cmd, clock=clock).read()
    assert (snap.wm_class, snap.title, snap.idle_secs) == ("firefox", "YouTube", 615.5)
    plain = CommandSource(script(tmp_path, "printf 'firefox\\tYouTube\\n'", "plain"), clock=clock).read()
    assert plain.idle_secs is None


def test_command_source_strips_control_bytes(tmp_path):
    cmd = script(tmp_path, "printf 'Xterm\\033[31m\\tevil \\033]0;pwn\\007title\\000\\n'")
    snap = CommandSource(cmd, clock=clock).read()
    assert (snap.wm_class, snap.title) == ("Xterm", "evil title")


@pytest.mark.parametrize(
    "body",
    [
        "echo 'no tab here, just noise'",
        "head -c 64 /dev/zero",
        "true",  # prints nothing
        "printf '\\t\\n'",  # a tab but nothing printable around it
        "printf '\\033[2J\\t\\033[H\\n'",
    ],
)
def test_command_source_garbage_is_none_with_one_log_line(tmp_path, caplog, body):
    source = CommandSource(script(tmp_path, body))
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert source.read() is None
        assert source.read() is None  # the same failure is not logged again
    assert len(caplog.records) == 1
    assert source.reason


def test_command_source_dead_command(tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert CommandSource(str(tmp_path / "does-not-exist")).read() is None
    assert len(caplog.records) == 1


def test_command_source_non_zero_exit(tmp_path, caplog):
    cmd = script(tmp_path, "printf 'a\\tb\\n'; echo 'compositor not running' >&2; exit 4")
    source = CommandSource(cmd)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert source.read() is None
    assert "exit status 4" in source.reason and "compositor not running" in source.reason
    assert len(caplog.records) == 1


def _live_members(pgid: int) -> list[int]:
    """Non-zombie processes in a process group (Linux /proc)."""
    members = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_file.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(stat_file.parent.name))
    return members


def test_command_source_timeout_kills_the_whole_group(tmp_path, caplog):
    pidfile = tmp_path / "pid"
    # A shell with a grandchild: both must go when the limit passes.
    # Field 5 of /proc/self/stat is the process group (the shell that runs us).
    cmd = script(tmp_path, f"cut -d' ' -f5 /proc/$$/stat > {pidfile}; sleep 30 & sleep 30")
    source = CommandSource(cmd, timeout=0.5)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert source.read() is None
    assert "timed out" in source.reason
    assert len(caplog.records) == 1
    pgid = int(pidfile.read_text())
    deadline = time.monotonic() + 10  # SIGKILL is asynchronous; give it a moment
    while _live_members(pgid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _live_members(pgid) == []


def test_command_source_recovers_and_says_so(tmp_path, caplog):
    flag = tmp_path / "ok"
    cmd = script(tmp_path, f"[ -e {flag} ] && printf 'a\\tb\\n' || exit 1")
    source = CommandSource(cmd)
    with caplog.at_level(logging.INFO, logger=LOGGER):
        assert source.read() is None
        flag.touch()
        assert source.read() is not None
    assert [r.levelno for r in caplog.records] == [logging.WARNING, logging.INFO]
    assert source.reason == ""


def test_command_source_stdin_is_closed(tmp_path):
    # A command that waits for input must fail fast, not hang the poll.
    cmd = script(tmp_path, "read line; printf 'a\\t%s\\n' \"$line\"")
    snap = CommandSource(cmd, timeout=5).read()
    assert snap is not None and snap.title == ""


# ---------------------------------------------------------------- other sources


def test_none_source():
    assert NoneSource().read() is None and NoneSource().name == "none"


def test_ewmh_without_display_is_unavailable(caplog):
    source = EwmhSource(None)
    env_display = os.environ.pop("DISPLAY", None)
    try:
        with caplog.at_level(logging.WARNING, logger=LOGGER):
            assert source.probe() is False
            assert source.read() is None
            assert source.read() is None
    finally:
        if env_display is not None:
            os.environ["DISPLAY"] = env_display
    assert source.reason
    assert len(caplog.records) == 1


def test_ewmh_without_display_says_so_at_once_however_slow_the_machine(monkeypatch, caplog):
    # Under load the first read's lazy imports outlasted the 2 s X timeout and the missing
    # DISPLAY was reported as a stuck X server, then "an earlier X request is still stuck".
    monkeypatch.delenv("DISPLAY", raising=False)
    source = EwmhSource(None, timeout=0.0)  # no thread could finish in time
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert source.probe() is False
        assert source.read() is None
    assert "DISPLAY" in source.reason
    assert len(caplog.records) == 1


def test_ewmh_with_a_dead_display_is_unavailable():
    source = EwmhSource(":987", timeout=5)
    assert source.read() is None
    assert source.reason


def test_tmux_source_needs_tmux_or_a_socket():
    source = TmuxSource(env={"PATH": os.environ.get("PATH", "")})
    assert not source.available
    assert source.read() is None
    assert "tmux" in source.reason


def test_tmux_source_with_a_fake_tmux(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    script(bindir, 'case "$*" in *list-clients*) printf \'10\\tzsh\\t/\\tzsh\\told\\thost\\thost\\n'
                   '30\\tvim\\t/src\\tedit\\tnotes.md\\thost\\thost\\n\';; esac', "tmux")
    source = TmuxSource(env={"PATH": str(bindir), "TMUX": "/tmp/fake,1,0"}, clock=clock)
    # The most recent client wins; its last key press was 12 s before now (42).
    assert source.read() == WindowSnapshot("vim", "vim · /src · edit · notes.md", 42.0, idle_secs=12.0)


def test_tmux_source_falls_back_to_display_message(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    script(bindir, 'case "$*" in *display-message*) printf \'\\thtop\\t/root\\tmonitor\\tvm\\tvm\\tvm\\n\';; esac', "tmux")
    source = TmuxSource("mysock", env={"PATH": str(bindir)}, clock=clock)
    assert source.available
    # The pane title is tmux's default (the host name): it says nothing, so it is left out.
    assert source.read() == WindowSnapshot("htop", "htop · /root · monitor", 42.0)


def test_make_source_kinds(tmp_path):
    empty = {"PATH": str(tmp_path)}
    assert isinstance(make_source("none", env=empty), NoneSource)
    assert isinstance(make_source("ewmh", env=empty), EwmhSource)
    assert isinstance(make_source("tmux", env=empty), TmuxSource)
    assert isinstance(make_source("command", "echo", env=empty), CommandSource)
    assert isinstance(make_source("command", "  ", env=empty), NoneSource)
    with pytest.raises(ValueError, match="auto, ewmh, tmux, command, none"):
        make_source("wayland", env=empty)


def test_make_source_auto_picks_the_first_that_works(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    # No display, no tmux: the command if configured, else none.
    env = {"PATH": str(bindir)}
    assert isinstance(make_source("auto", "my-script", env=env), CommandSource)
    assert isinstance(make_source("auto", "", env=env), NoneSource)
    # A dead display is skipped.
    assert isinstance(make_source("auto", "my-script", env={**env, "DISPLAY": ":987"}), CommandSource)
    # Inside tmux (a working fake tmux): tmux wins over the command.
    script(bindir, "printf '1\\tzsh\\tshell\\n'", "tmux")
    assert isinstance(make_source("auto", "my-script", env={**env, "TMUX": "/x,1,0"}), TmuxSource)
    # Inside tmux but tmux fails: on to the command.
    script(bindir, "exit 1", "tmux")
    assert isinstance(make_source("auto", "my-script", env={**env, "TMUX": "/x,1,0"}), CommandSource)


# ---------------------------------------------------------------- exclusions


def test_exclusions_replace_the_title_exactly():
    snap = WindowSnapshot("firefox", "Chase Bank - Statements", 1.0)
    out = apply_exclusions(snap, ["bank", r"^private"])
    assert out.title == EXCLUDED == "excluded"
    assert out.wm_class == "firefox" and out.at == 1.0


def test_exclusions_are_case_insensitive_regexes_and_match_the_class():
    assert apply_exclusions(WindowSnapshot("x", "My DOCTOR appointment", 0), ["doctor"]).title == EXCLUDED
    assert apply_exclusions(WindowSnapshot("KeePassXC", "Passwords.kdbx", 0), ["keepass"]).title == EXCLUDED
    untouched = WindowSnapshot("code", "main.py", 0)
    assert apply_exclusions(untouched, ["bank", r"\bdoctor\b"]) is untouched
    assert apply_exclusions(untouched, []) is untouched


def test_exclusions_accept_compiled_patterns():
    patterns = compile_exclusions(["secret"])
    assert apply_exclusions(WindowSnapshot("x", "Top SECRET", 0), patterns).title == EXCLUDED


def test_compile_exclusions_names_the_bad_pattern():
    with pytest.raises(ValueError, match=r"'\(unclosed'"):
        compile_exclusions(["fine", "(unclosed"])


def test_a_bad_pattern_fails_closed(caplog):
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        out = apply_exclusions(WindowSnapshot("code", "main.py", 0), ["[bad"])
    assert out.title == EXCLUDED


# ---------------------------------------------------------------- polling


def test_poll_source_applies_exclusions_and_never_raises(tmp_path, caplog):
    from keeltui.adapters.evidence import poll_source

    good = CommandSource(script(tmp_path, "printf 'firefox\\tMy Bank\\n'"))
    assert poll_source(good, ["bank"]).title == EXCLUDED
    assert poll_source(good).title == "My Bank"
    assert poll_source(NoneSource(), ["bank"]) is None

    class Rogue:
        name = "rogue"

        def read(self):
            raise RuntimeError("broke the contract")

    with caplog.at_level(logging.ERROR, logger=LOGGER):
        assert poll_source(Rogue()) is None
    assert caplog.records


def test_availability_flags():
    assert NoneSource().available is False
    assert CommandSource("true").available is True
    assert EwmhSource(":987", timeout=5).available is False
