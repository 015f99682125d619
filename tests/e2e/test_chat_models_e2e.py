"""The model picker and the persona, through the real app in tmux against the scripted
endpoint: listed by /v1/models, switched without a restart, saved to the config file."""

from __future__ import annotations

import os
import tomllib

from keeltui_dev.loopback import LoopbackBrain, Reply
from tests.support.tmux import keeltui_command

PLACEHOLDER = "Write to the Chief"
COMMENTED = '''# my endpoint, hand-tuned
[brain]
base_url = "{url}"  # the loopback
model = "loop-model"
timeout_secs = 5.0

[ambient]
mode = "off"  # quiet while testing
[evidence]
source = "none"
[paths]
database = "{db}"
status_file = "{status}"
'''


def _config(tmp_path, url: str):
    path = tmp_path / "config.toml"
    path.write_text(COMMENTED.format(url=url, db=tmp_path / "k.db", status=tmp_path / "status"), encoding="utf-8")
    os.chmod(path, 0o600)
    return path


HELP = {"Models": "Choose the model per role", "Persona": "See and edit the Chief's system prompt"}


def _palette(tmux, command: str) -> None:
    """Run a palette command, once the palette has narrowed its list to it (the help line
    shows, the commands listed before typing are gone): Enter picks the top match."""
    tmux.send("C-p")
    tmux.wait_text("Search for commands")
    tmux.type(command)
    tmux.wait_for(lambda s: HELP[command] in s and "Chief / Tutor" not in s and "Quiet Mode" not in s,
                  what=f"the palette narrowed to {command}")
    tmux.send("Enter")


def _send(tmux, text: str) -> None:
    """Type into the composer and send, once the words are seen there (the dialog that just
    closed hands the keys back to the composer)."""
    tmux.type(text)
    tmux.wait_text(text)
    tmux.send("Enter")


def _status_line(screen: str) -> str:
    """The status line: the one that names the chat model (nothing else on screen says "model: ")."""
    return "\n".join(line for line in screen.splitlines() if "model: " in line)


def test_the_picker_lists_the_endpoint_models_switches_live_and_saves(tmp_path, tmux, e2e_env):
    tmux.width, tmux.height = 80, 24  # the tightest pane the picker must fit
    with LoopbackBrain(models=["loop-model", "qwen3:8b", "llama3.2"], default=Reply(text="Hello there.")) as loopback:
        config = _config(tmp_path, loopback.url)
        tmux.start(keeltui_command(config), e2e_env)
        tmux.wait_text(PLACEHOLDER)
        tmux.wait_for(lambda s: "model: loop-model" in _status_line(s), what="the chat model in the status line")
        _palette(tmux, "Models")
        screen = tmux.wait_text("qwen3:8b")
        assert "llama3.2" in screen and "chat (the Chief room): loop-model" in screen, screen
        tmux.send("Down")  # loop-model is highlighted (in use): the next is qwen3:8b
        tmux.send("Enter")
        screen = tmux.wait_for(lambda s: "model: qwen3:8b" in _status_line(s), what="the status line's new model")
        # Saved, the owner's comments and the file's mode kept.
        text = config.read_text(encoding="utf-8")
        assert tomllib.loads(text)["brain"]["models"]["chief"] == "qwen3:8b"
        assert "# my endpoint, hand-tuned" in text and "# the loopback" in text and "# quiet while testing" in text
        assert os.stat(config).st_mode & 0o777 == 0o600
        # No restart: the next turn asks for the new model.
        _send(tmux, "ahoy matey")
        tmux.wait_text("Hello there.")
        assert loopback.requests[-1]["model"] == "qwen3:8b"


def test_an_endpoint_without_a_model_list_lets_the_name_be_typed(tmp_path, tmux, e2e_env):
    with LoopbackBrain(lists_models=False, default=Reply(text="Typed model here.")) as loopback:
        config = _config(tmp_path, loopback.url)
        tmux.start(keeltui_command(config), e2e_env)
        tmux.wait_text(PLACEHOLDER)
        _palette(tmux, "Models")
        screen = tmux.wait_text("lists no models")
        assert "HTTP 404" in screen, screen
        tmux.type("my-own:7b")
        tmux.send("Enter")
        tmux.wait_for(lambda s: "model: my-own:7b" in _status_line(s), what="the typed model in the status line")
        _send(tmux, "ahoy matey")
        tmux.wait_text("Typed model here.")
        assert loopback.requests[-1]["model"] == "my-own:7b"
        assert tomllib.loads(config.read_text())["brain"]["models"]["chief"] == "my-own:7b"


def test_the_persona_is_edited_in_the_app_saved_recorded_and_applied_from_the_next_turn(tmp_path, tmux, e2e_env):
    tmux.width, tmux.height = 80, 24
    with LoopbackBrain(default=Reply(text="Aye.")) as loopback:
        config = _config(tmp_path, loopback.url)
        tmux.start(keeltui_command(config), e2e_env)
        tmux.wait_text(PLACEHOLDER)
        _palette(tmux, "Persona")
        screen = tmux.wait_text("Ctrl+S saves")
        assert "calm, direct" in screen, "the persona in use is shown"
        tmux.send("C-a")  # the start of the line
        tmux.type("Speak like a ship's bosun. ")
        tmux.wait_text("Speak like a ship's bosun.")
        tmux.send("C-s")
        screen = tmux.wait_for(lambda s: "Persona " in s and "persona changed" in s and "Ctrl+S saves" not in s,
                               what="the room's persona line")
        saved = tomllib.loads(config.read_text(encoding="utf-8"))["chief"]["system_prompt"]
        assert saved.startswith("Speak like a ship's bosun. You are the owner's companion")
        assert "# my endpoint, hand-tuned" in config.read_text(encoding="utf-8")
        _send(tmux, "ahoy matey")
        tmux.wait_text("Aye.")
        messages = loopback.requests[-1]["messages"]
        assert messages[0] == {"role": "system", "content": saved}
        # The line is for the owner: the model sees the persona once, as its system prompt.
        assert not any("persona changed" in m["content"] for m in messages[1:]), messages
