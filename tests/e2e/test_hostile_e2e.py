"""Hostile bytes and signals against the real keeltui in tmux (issue 10, points 7 and 8)."""

from __future__ import annotations

import base64

from tests.conftest import write_config
from keeltui_dev.loopback import Reply
from tests.support.tmux import keeltui_command

PLACEHOLDER = "Write to the Chief"
ESC = "\x1b"


def _config(tmp_path, loopback):
    return write_config(
        tmp_path / "config.toml", loopback.url,
        f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n',
    )


def _buffer(tmux) -> str:
    return tmux._tmux("show-buffer", check=False).stdout


# A reply that hides a bracketed-paste end, a nested clipboard write and a screen clear.
PAYLOAD = base64.b64encode(b"rm -rf ~\n").decode()
HIDDEN = (f"Run ls to list.{ESC}[201~{ESC}]52;c;{PAYLOAD}{ESC}\\{ESC}[2J then\x07 done\x00.")
VISIBLE = "Run ls to list. then done."


def test_copy_puts_only_the_visible_text_on_the_clipboard(tmp_path, loopback, tmux, e2e_env):
    loopback.queue(Reply(text=HIDDEN))
    config = _config(tmp_path, loopback)
    tmux.start(keeltui_command(config), e2e_env)
    tmux._tmux("set", "-s", "set-clipboard", "on", check=False)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("list files")
    tmux.send("Enter")
    screen = tmux.wait_text("then done.")
    assert "201~" not in screen and "52;c" not in screen
    tmux.send("Escape")  # onto the newest row: the reply; the footer then offers the row keys
    tmux.wait_text("i Write")
    tmux.send("c")
    tmux.wait_for(lambda _: "done" in _buffer(tmux), what="the copied text in tmux's buffer")
    copied = _buffer(tmux)
    assert ESC not in copied and "\x07" not in copied and "\x00" not in copied
    assert "[201~" not in copied and PAYLOAD not in copied
    assert copied == VISIBLE
    tmux.wait_text("Copied to the clipboard.")


# -- 10.7: the terminal is always given back ------------------------------------------------

import os  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402

import pytest  # noqa: E402

from keeltui.store import Store  # noqa: E402

AFTER = "echo EXITED $?; stty -a | tr ' ;' '\\n\\n' | grep -x -E -- '-?(icanon|echo)' | tr '\\n' ' '; echo; exec cat -v"


def _in_shell(command: str) -> str:
    """The app, then (whatever becomes of it) a shell line that shows the terminal's state."""
    return "sh -c " + _quote(f"{command}; {AFTER}")


def _quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def _app_pid(tmux) -> int:
    shell = tmux.pane_pid()
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(shell)], capture_output=True, text=True).stdout.split()
    assert out, "keeltui is not running under the pane's shell"
    return int(out[0])


def _modes(tmux) -> dict[str, str]:
    fmt = "#{alternate_on} #{mouse_any_flag} #{cursor_flag}"
    alt, mouse, cursor = tmux._tmux("display", "-p", fmt).stdout.split()
    return {"alternate_on": alt, "mouse_any_flag": mouse, "cursor_flag": cursor}


def _assert_terminal_given_back(tmux, traceback_allowed: bool = False) -> str:
    screen = tmux.wait_text("EXITED")
    tmux.wait_for(lambda text: "icanon" in text, what="stty's line")
    assert _modes(tmux) == {"alternate_on": "0", "mouse_any_flag": "0", "cursor_flag": "1"}
    screen = tmux.capture()
    assert "-icanon" not in screen and "-echo" not in screen, screen  # cooked mode is back
    tmux._tmux("set-buffer", "pasted-here")
    tmux._tmux("paste-buffer", "-p")  # bracketed only if the pane still asks for it
    screen = tmux.wait_text("pasted-here")
    assert "^[[200~" not in screen, "bracketed paste is still on"
    assert traceback_allowed or "Traceback" not in screen
    return screen


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_signal_mid_stream_gives_the_terminal_back(tmp_path, loopback, tmux, e2e_env, signum):
    loopback.queue(Reply(chunks=[f"word{i} " for i in range(2000)], chunk_delay=0.02))
    config = _config(tmp_path, loopback)
    tmux.start(_in_shell(keeltui_command(config)), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    assert _modes(tmux)["alternate_on"] == "1" and _modes(tmux)["mouse_any_flag"] == "1"
    tmux.type("tell me a long story")
    tmux.send("Enter")
    tmux.wait_text("word30")
    os.kill(_app_pid(tmux), signum)
    _assert_terminal_given_back(tmux)
    store = Store(tmp_path / "k.db")
    reply = [r for r in store.messages(store.chief_id()) if r.role == "assistant"][-1]
    store.close()
    assert reply.status == "partial", reply.status  # settled as cut off, not left "streaming"
    assert reply.content.startswith("word0 word1 word2")


# The real app with one fault injected: a bug that raises while a reply streams.
CRASHING = """
import sys
from keeltui.panes.chief import reply

started = reply.Replies.started

def on_chief_reply_started(self, message):
    started(self, message)
    self.room.set_timer(1.0, lambda: 1 / 0)  # an unexpected exception, mid-stream

reply.Replies.started = on_chief_reply_started
from keeltui.cli.commands import main
sys.exit(main(sys.argv[1:]))
"""


def test_an_unexpected_exception_mid_stream_gives_the_terminal_back(tmp_path, loopback, tmux, e2e_env):
    import shlex
    import sys

    loopback.queue(Reply(chunks=[f"word{i} " for i in range(2000)], chunk_delay=0.02))
    config = _config(tmp_path, loopback)
    launcher = tmp_path / "crashing.py"
    launcher.write_text(CRASHING)
    command = " ".join(shlex.quote(p) for p in (sys.executable, str(launcher), "--config", str(config)))
    tmux.start(_in_shell(command), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("tell me a long story")
    tmux.send("Enter")
    # What the crash prints (one line instead of Textual's traceback) is issue 10.1's;
    # here: the modes are back and the reply is settled.
    _assert_terminal_given_back(tmux, traceback_allowed=True)
    store = Store(tmp_path / "k.db")
    reply = [r for r in store.messages(store.chief_id()) if r.role == "assistant"][-1]
    store.close()
    assert reply.status in ("partial", "error"), reply.status  # cut off (with what had come), not "streaming"


# The real app whose orderly shutdown wedges, as Textual's can when its terminal is gone
# (its writer thread waits on a pty that no longer exists).
WEDGED = """
import sys, threading
from textual.drivers.linux_driver import LinuxDriver

def close(self):
    threading.Event().wait()  # never returns

LinuxDriver.close = close
from keeltui.cli.commands import main
sys.exit(main(sys.argv[1:]))
"""


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has exited; its parent reaps it later
        return stat.read().split(")")[-1].split()[0] == "Z"


def test_a_wedged_shutdown_after_a_signal_still_ends_the_app_and_gives_the_terminal_back(
        tmp_path, loopback, tmux, e2e_env):
    import shlex
    import sys
    import time

    config = _config(tmp_path, loopback)
    launcher = tmp_path / "wedged.py"
    launcher.write_text(WEDGED)
    command = " ".join(shlex.quote(p) for p in (sys.executable, str(launcher), "--config", str(config)))
    tmux.start(_in_shell(command), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    pid = _app_pid(tmux)
    os.kill(pid, signal.SIGHUP)
    deadline = time.monotonic() + 30
    while not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _gone(pid), f"keeltui (pid {pid}) still runs 30 s after SIGHUP: a process nobody sees"
    _assert_terminal_given_back(tmux)
    # The log says the watchdog acted (written without the logging module's locks).
    said = (tmp_path / "keeltui.log").read_text()
    assert f"the exit after signal {int(signal.SIGHUP)} did not finish within 5 s: left by hand" in said, said


def test_stopped_with_sigtstp_and_brought_back_with_fg_the_app_reads_keys_again(tmp_path, loopback, tmux, e2e_env):
    """Job control: `kill -TSTP` (or a shell's suspend key where no widget takes it) stops the
    app with the terminal given back; `fg` resumes it, redrawn, reading keys. keeltui lets
    only a driver that SIGTSTP suspended start again on SIGCONT (a hang-up's SIGCONT must not)."""
    config = _config(tmp_path, loopback)
    tmux.start("bash --norc --noprofile", e2e_env)
    tmux.type(f"PS1='ready$ '; {keeltui_command(config)}")
    tmux.send("Enter")
    tmux.wait_text(PLACEHOLDER)
    tmux.type("before ")
    tmux.wait_text("before")
    shell = tmux.pane_pid()
    pid = int(subprocess.run(["ps", "-o", "pid=", "--ppid", str(shell)], capture_output=True, text=True).stdout.split()[0])
    os.kill(pid, signal.SIGTSTP)
    tmux.wait_for(lambda text: "Stopped" in text and "ready$" in text, what="the shell, the app stopped")
    assert _modes(tmux)["alternate_on"] == "0"  # the terminal is the shell's while the app is stopped
    tmux.type("fg")
    tmux.send("Enter")
    tmux.wait_text("before")  # redrawn, the draft kept
    tmux.type("after")
    tmux.wait_text("before after")
    assert _modes(tmux)["alternate_on"] == "1"
