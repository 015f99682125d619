"""At home over SSH and in tmux: OSC 52 copy, the line-mode chat, key remaps, no stray network."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from keeltui.store import Store
from tests.conftest import write_config
from keeltui_dev.loopback import Reply
from tests.support.tmux import keeltui_command

PLACEHOLDER = "Write to the Chief"


def _config(tmp_path, loopback, extra=""):
    return write_config(tmp_path / "config.toml", loopback.url,
                        extra + f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')


def test_copy_a_message_reaches_tmux_through_osc52(tmp_path, loopback, tmux, e2e_env):
    Store(tmp_path / "k.db").add_report("cron:x", "copy me: 42 is the answer")
    config = _config(tmp_path, loopback)
    tmux.start(keeltui_command(config), e2e_env)
    tmux._tmux("set", "-g", "set-clipboard", "on")
    tmux.wait_text("copy me")
    tmux.send("Escape")          # leave the composer: the newest row takes the focus
    tmux.wait_text("Snooze")     # the footer shows the room's keys once the composer is left
    tmux.send("c")
    def copied(_):
        out = tmux._tmux("show-buffer", check=False)
        return out.returncode == 0 and "42 is the answer" in out.stdout
    tmux.wait_for(copied, what="tmux paste buffer")


def test_line_mode_chat_on_the_same_room(tmp_path, loopback, tmux, e2e_env):
    loopback.queue(Reply(text="First answer."), Reply(text="Second answer."))
    config = _config(tmp_path, loopback)
    Store(tmp_path / "k.db").add_report("followup:x", "an earlier follow-up")
    tmux.start(keeltui_command(config, "chat"), e2e_env)
    tmux.wait_text("Ctrl-D to leave")
    tmux.wait_text("an earlier follow-up")  # printed after the header: wait, do not race it
    # Keys typed before the prompt is up meet the terminal in cooked mode (CR becomes LF
    # and Escape is echoed), as they would for a person: type once the prompt shows.
    tmux.wait_for(lambda s: s.rstrip().endswith("Owner>"), what="the prompt")

    def prompt_after(answer: str) -> None:
        """The prompt back, below ``answer``: keys sent before it meet the cooked terminal."""
        tmux.wait_for(lambda s: answer in s and s.rstrip().endswith("Owner>")
                      and s.rstrip().rindex("Owner>") > s.rindex(answer), what=f"the prompt after {answer!r}")

    tmux.type("first line")
    tmux.send("Escape", "Enter")  # Alt+Enter: a new line, not a send
    tmux.type("second line")
    tmux.send("Enter")
    tmux.wait_text("First answer.")
    prompt_after("Chief: First answer.")
    tmux.send("Up")  # history recalls the last message
    tmux.wait_text("second line")
    tmux.send("C-u", "C-u")
    tmux.type("again")
    tmux.send("Enter")
    tmux.wait_text("Second answer.")
    prompt_after("Chief: Second answer.")  # Ctrl-D before it is read in cooked mode, as EOF of nothing
    tmux.send("C-d")
    tmux.wait_for(lambda _: tmux.pane_dead(), what="chat to exit")
    rows = Store(tmp_path / "k.db").messages(1)
    assert next(r.content for r in rows if r.role == "user") == "first line\nsecond line"


def test_keys_are_remapped_by_binding_id(tmp_path, loopback, tmux, e2e_env):
    config = _config(tmp_path, loopback, '[keys]\nquiet = "ctrl+k"\n')
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.send("C-g")  # the default chord no longer toggles Quiet Mode
    tmux.send("C-k")
    tmux.wait_text("Quiet Mode is on")
    assert Store(tmp_path / "k.db").get_state("quiet_mode") is True


_AUDIT = textwrap.dedent(
    """
    import asyncio, json, socket, sys
    connects = []
    def hook(event, args):
        if event == "socket.connect":
            address = args[1]
            if isinstance(address, tuple):
                connects.append([str(address[0]), int(address[1])])
    sys.addaudithook(hook)
    from keeltui.app import KeelApp
    from keeltui.config import load_config
    from keeltui.store import Store
    config = load_config(sys.argv[1], env={})
    async def main():
        app = KeelApp(config, Store(config.database_path()))
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(60):
                await pilot.pause(0.05)
                if app.brain_online is not None:
                    break
            await pilot.pause(0.5)
    asyncio.run(main())
    print(json.dumps(connects))
    """
)


def test_no_network_call_at_start_up_but_the_configured_endpoint(tmp_path, loopback):
    config = _config(tmp_path, loopback)
    out = subprocess.run([sys.executable, "-c", _AUDIT, str(config)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    import json

    connects = json.loads(out.stdout.strip().splitlines()[-1])
    assert connects, "the brain check never connected"
    assert {tuple(c) for c in connects} == {("127.0.0.1", loopback.port)}
