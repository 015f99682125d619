"""A reasoning model's thinking as the owner sees it: live, then folded above the answer
(the real app in tmux, the real openai client against the scripted loopback endpoint)."""

from __future__ import annotations

import threading

import pytest

from keeltui_dev.loopback import Reply
from tests.conftest import write_config
from tests.support.tmux import keeltui_command, run_keeltui

PLACEHOLDER = "Write to the Chief"


def _config(tmp_path, loopback):
    return write_config(
        tmp_path / "config.toml", loopback.url,
        f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n',
    )


def _send(tmux, text: str) -> None:
    tmux.type(text)
    tmux.wait_text(text)  # in the composer before Enter sends it
    tmux.send("Enter")


def test_reasoning_content_streams_live_then_folds_and_stays_out_of_text_context_and_log(tmp_path, loopback, tmux, e2e_env):
    tmux.width, tmux.height = 80, 24
    gate = threading.Semaphore(0)
    loopback.queue(Reply(reasoning=["Counting the apples ", "one by one."], chunks=["There are ", "three apples."], gate=gate))
    config = _config(tmp_path, loopback)
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    _send(tmux, "how many apples?")
    # Live: the thinking shows dim under its label while the model still thinks.
    screen = tmux.wait_for(lambda s: "thinking…" in s and "Counting the apples" in s, what="the live thinking")
    assert "There are" not in screen
    gate.release()
    tmux.wait_text("one by one.")
    gate.release()
    gate.release()
    screen = tmux.wait_for(lambda s: "three apples." in s and "Chief  …" not in s, what="the finished reply")
    # Afterwards: folded to one line above the answer, its text out of sight.
    assert "▸ thought for" in screen, screen
    assert "Counting the apples" not in screen, screen
    lines = screen.splitlines()
    label = next(i for i, line in enumerate(lines) if "thought for" in line)
    answer = next(i for i, line in enumerate(lines) if "There are three apples." in line)
    assert label < answer
    tmux.send("Escape")  # onto the newest row: the reply
    tmux.wait_text("t Thinking")  # the footer offers it on the reply (ESC then t at once would be Alt+t)
    tmux.send("t")
    screen = tmux.wait_text("Counting the apples one by one.")
    assert "▾ thought for" in screen
    # The next turn's context carries the answer, never the thinking.
    tmux.send("i")
    # Back in the composer once the footer no longer offers the row keys (typed at once,
    # the words would land on the row).
    tmux.wait_for(lambda s: "i Write" not in s, what="the composer to take the keys")
    loopback.queue(Reply(text="Still three."))
    _send(tmux, "and now?")
    tmux.wait_text("Still three.")
    sent = [m["content"] for m in loopback.requests[-1]["messages"]]
    assert "There are three apples." in sent and not any("Counting" in m for m in sent), sent
    # Review over SSH: out of `log` and `export` unless asked.
    plain = run_keeltui(config, "log").stdout
    assert "There are three apples." in plain and "Counting" not in plain
    asked = run_keeltui(config, "log", "--thinking").stdout
    assert "Counting the apples one by one." in asked and "thought for" in asked
    assert "Counting" not in run_keeltui(config, "export").stdout
    assert "<summary>thought for" in run_keeltui(config, "export", "--thinking").stdout


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_think_block_cut_across_chunks_never_shows_its_tags(tmp_path, loopback, tmux, e2e_env, size):
    tmux.width, tmux.height = size
    loopback.queue(Reply(chunks=["<th", "ink>\nWeighing ", "the tide tables.</th", "ink>\n\nHigh tide ", "is at seven."],
                         chunk_delay=0.05))
    tmux.start(keeltui_command(_config(tmp_path, loopback)), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    _send(tmux, "when is the tide?")
    seen: list[str] = []

    def done(screen: str) -> bool:
        seen.append(screen)
        return "High tide is at seven." in screen and "Chief  …" not in screen

    screen = tmux.wait_for(done, what="the finished reply")
    assert "▸ thought for" in screen and "Weighing" not in screen, screen
    assert not any("<th" in s or "ink>" in s for s in seen), "a tag reached the screen"
