"""A streaming reply as the owner sees it while it happens (the real app in tmux)."""

from __future__ import annotations

import re
import threading

import pytest

from tests.conftest import write_config
from keeltui_dev.loopback import Reply
from tests.support.tmux import Tmux, keeltui_command

PLACEHOLDER = "Write to the Chief"
MARKER = "new text below"


def _config(tmp_path, loopback):
    return write_config(
        tmp_path / "config.toml", loopback.url,
        f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n',
    )


def _wheel_up(tmux: Tmux, times: int) -> None:
    """Mouse wheel up over the room (SGR mouse report, as a terminal sends it)."""
    for _ in range(times):
        tmux._tmux("send-keys", "-H", *[f"{b:02x}" for b in b"\x1b[<64;10;6M"])


def _open_and_send(tmux, tmp_path, loopback, e2e_env, reply: Reply, message: str) -> None:
    """The real app on a fresh room, ``reply`` queued, ``message`` typed and sent."""
    loopback.queue(reply)
    tmux.start(keeltui_command(_config(tmp_path, loopback)), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type(message)
    tmux.send("Enter")


def _reply_lines(screen: str) -> list[str]:
    """The reply's lines on screen: from the Chief's header down to the composer."""
    lines = screen.splitlines()
    end = next(i for i, line in enumerate(lines) if PLACEHOLDER in line)
    start = max(i for i, line in enumerate(lines[:end]) if line.strip(" █▌▎").startswith("Chief"))
    reply = [line.rstrip() for line in lines[start:end] if line.strip(" █▌▎")]
    assert len(reply) > 1, screen
    return reply


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
def test_first_chunk_is_on_screen_with_the_question_and_the_header(tmp_path, loopback, tmux, e2e_env, size):
    tmux.width, tmux.height = size
    # Each chunk after the first is held until the last one is on screen: a reply that
    # shows nothing until more text (or its end) arrives never gets past the first wait.
    gate = threading.Semaphore(0)
    _open_and_send(tmux, tmp_path, loopback, e2e_env,
                   Reply(chunks=["The tide ", "turns at ", "seven tonight."], gate=gate), "when is the tide?")
    screen = tmux.wait_text("The tide")
    assert loopback.chunks_sent == 1
    assert "when is the tide?" in screen and "Chief  …" in screen, screen
    gate.release()
    screen = tmux.wait_text("The tide turns at")
    assert loopback.chunks_sent == 2 and "when is the tide?" in screen, screen
    gate.release()
    screen = tmux.wait_for(lambda s: "seven tonight." in s and "Chief  …" not in s, what="the finished reply")
    assert "when is the tide?" in screen


@pytest.mark.parametrize("text", [
    "Plain prose\nwith soft line breaks\nand the last line with a break",
    ("First line\nsoft second line\n\n**Bold** start\nand a soft break\n\n- one\n- two\n\n"
     "```\ncode  kept\n\nas is\n```\n\nplain end\nwith a break"),
], ids=["plain", "markdown"])
def test_streamed_reply_looks_as_it_does_after_a_restart(tmp_path, loopback, tmux, e2e_env, text):
    loopback.queue(Reply(chunks=[text[i:i + 7] for i in range(0, len(text), 7)], chunk_delay=0.02))
    config = _config(tmp_path, loopback)
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("show me")
    tmux.send("Enter")
    streamed = _reply_lines(tmux.wait_for(lambda s: "with a break" in s and "Chief  …" not in s, what="the reply"))
    tmux.send("C-q")
    tmux.wait_for(lambda s: PLACEHOLDER not in s, what="the app to quit")
    again = Tmux(tmux.width, tmux.height)
    try:
        again.start(keeltui_command(config), e2e_env)
        # Markdown is formatted right after the first frame: wait for the same lines.
        again.wait_for(lambda s: PLACEHOLDER in s and "with a break" in s and _reply_lines(s) == streamed,
                       what=f"the restarted room to draw the reply as streamed: {streamed}")
    finally:
        again.close()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_view_follows_the_bottom_and_stays_put_when_scrolled_up(tmp_path, loopback, tmux, e2e_env, size):
    tmux.width, tmux.height = size
    loopback.queue(Reply(chunks=[f"para{i} words\n\n" for i in range(70)], chunk_delay=0.15))
    config = _config(tmp_path, loopback)
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    tmux.type("many paragraphs please")
    tmux.send("Enter")
    # Twenty paragraphs are more than a screen: seeing para20 means the view followed.
    screen = tmux.wait_text("para20")
    assert MARKER not in screen
    _wheel_up(tmux, 3)

    def rows(screen: str) -> list[str]:
        # The rows without the scrollbar's column: its thumb shrinks as the reply grows below.
        return [line[:tmux.width - 1].rstrip() for line in screen.splitlines() if "para" in line]

    def first_para(lines: list[str]) -> int:
        return int(lines[0].split("para")[1].split()[0])

    held_lines = rows(tmux.wait_text(MARKER))
    # The marker comes with the first wheel step; on a loaded machine the other two may be
    # read after it. Each of those moves the view up, never down: wait for them to land
    # (a chunk arriving with the view unchanged), then hold the view.
    for _ in range(3):
        sent = loopback.chunks_sent
        tmux.wait_for(lambda s: loopback.chunks_sent > sent, what="a chunk")
        now = rows(tmux.wait_text(MARKER))
        if now == held_lines:
            break
        assert first_para(now) < first_para(held_lines), f"the view moved down while scrolled up: {now[:2]}"
        held_lines = now
    sent = loopback.chunks_sent
    tmux.wait_for(lambda s: loopback.chunks_sent >= sent + 4, what="more chunks")
    screen = tmux.wait_text(MARKER)
    assert [line[:tmux.width - 1].rstrip() for line in screen.splitlines() if "para" in line] == held_lines, \
        "the view moved while scrolled up"
    tmux.send("End")  # in the empty composer: the end of the room
    screen = tmux.wait_for(lambda s: MARKER not in s, what="the marker to go")
    screen = tmux.wait_text("para69")
    assert MARKER not in screen


def test_a_tail_that_takes_fewer_lines_leaves_no_stale_text(tmp_path, loopback, tmux, e2e_env):
    """Plain lines that become Markdown (soft breaks join) take fewer rows: the rows they
    gave up are repainted, never left showing old text (the real terminal, in tmux)."""
    gate = threading.Semaphore(0)
    _open_and_send(tmux, tmp_path, loopback, e2e_env,
                   Reply(chunks=["line one\nline two\nline three", " and **bold**", " end."], gate=gate), "three lines")
    tmux.wait_for(lambda s: any(line.strip(" █▌▎") == "line two" for line in s.splitlines()),
                  what="the three plain lines")
    gate.release()
    screen = tmux.wait_text("line three and bold")
    gate.release()
    rows = [line.strip(" █▌▎") for line in screen.splitlines()]
    assert "line two" not in rows and "line three" not in rows, screen


def test_a_reply_never_repaints_the_whole_screen(tmp_path, loopback, tmux, e2e_env):
    """From the send to the reply's end only what changed reaches the terminal. Whole-screen
    repaints at the send, the first chunk and the end cost ~10 KB each over SSH (an App
    reactive's change repaints the whole screen)."""
    loopback.queue(Reply(chunks=[f"tide{i} " for i in range(40)], chunk_delay=0.02))
    config = _config(tmp_path, loopback)
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text(PLACEHOLDER)
    sent = tmp_path / "sent"
    tmux.type("when is the tide?")
    tmux._tmux("pipe-pane", "-o", f"cat > {sent}")
    tmux.send("Enter")
    tmux.wait_for(lambda s: "tide39" in s and "Chief  …" not in s, what="the finished reply")
    tmux.wait_for(lambda s: "thinking" not in s, what="the working line cleared")
    tmux._tmux("pipe-pane")
    data = sent.read_bytes()
    assert b"tide39" in data, "the pipe saw the reply"
    # The tab strip at the top (row 1) changes with none of this: each time it is sent,
    # the whole screen was. Four were sent before; one or two remain (around the send;
    # their cause is not found yet).
    whole = re.findall(rb"\x1b\[1;1H", data)
    assert len(whole) <= 2, f"the whole screen was sent {len(whole)} times"
