"""The plan graph in the real keeltui in tmux: it follows the learner at 120 columns and moves
above the transcript in a 70-column split, where the note box stays usable."""

from __future__ import annotations

from keeltui.store import Store
from tests.conftest import write_config
from keeltui_dev.loopback import Reply
from tests.support.tmux import Tmux, keeltui_command
from tests.support.tutor_seed import big_plan, seed_session


def sized(env: dict[str, str], session: Tmux) -> dict[str, str]:
    """The pane's size, said explicitly: under pytest the tmux server hands its panes
    COLUMNS=80 and LINES=24, which the app would take over the real pane size."""
    return {**env, "COLUMNS": str(session.width), "LINES": str(session.height)}


def _line_with(screen: str, *needles: str) -> int | None:
    for number, line in enumerate(screen.splitlines()):
        if all(needle in line for needle in needles):
            return number
    return None


def test_the_plan_graph_follows_the_learner_and_fits_a_70_column_split(tmp_path, loopback, tmux, e2e_env):
    loopback.responder = lambda request: Reply(tool_calls=[{"name": "quiz", "arguments": {
        "question": "And step 23?", "choices": ["Right", "Wrong"], "correct": 0, "node_id": "n23"}}])
    config = write_config(tmp_path / "config.toml", loopback.url,
                          f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
    store = Store(tmp_path / "k.db")
    seed_session(store, "graph theory", big_plan(), [(f"n{i}", i != 1) for i in range(22)], waiting="n22")
    store.close()

    tmux.start(keeltui_command(config), sized(e2e_env, tmux))
    tmux.wait_text("Write to the Chief")
    tmux.send("C-t")
    tmux.wait_text("graph theory")
    tmux.send("Down")
    tmux.send("Enter")
    # 120x40: the map beside the transcript, scrolled so the current node shows
    screen = tmux.wait_for(lambda s: _line_with(s, "▶", "Step 22 of the long") is not None, what="the current node")
    assert "Quiz  · Step 22 of the long plan" in screen
    assert any(glyph in screen for glyph in ("├─╯", "┼", "├─╮"))
    assert "Step 0 of the long plan" not in screen
    tmux.send("1")
    screen = tmux.wait_for(lambda s: _line_with(s, "▶", "Step 23 of the long") is not None, what="the map following")
    assert _line_with(screen, "✓", "Step 22 of the long") is not None

    # quit, and resume in a 70-column split: the map sits above the transcript
    tmux.send("C-q")
    tmux.wait_for(lambda s: tmux.pane_dead(), what="the app to quit")
    narrow = Tmux(width=70, height=40)
    try:
        narrow.start(keeltui_command(config), sized(e2e_env, narrow))
        narrow.wait_text("Write to the Chief")
        narrow.send("C-t")  # the tab reopens the session left open: no list to pick from

        def settled(s: str) -> bool:
            plan, header = _line_with(s, "╭─ Plan"), _line_with(s, "graph theory  ·  learning")
            quiz = _line_with(s, "Quiz  · Step 23 of the long plan")
            return (plan is not None and header is not None and quiz is not None and plan < header
                    and s.splitlines()[quiz].rstrip().endswith("│") and "Send" in s
                    and "▸ 1. Right" in s  # the open quiz has the keys
                    and _line_with(s, "▶", "Step 23 of the long") is not None)  # the map followed

        screen = narrow.wait_for(settled, what="the map above the transcript")
        _narrow_checks(narrow, screen)
    finally:
        narrow.close()


def _narrow_checks(narrow: Tmux, screen: str) -> None:
    assert _line_with(screen, "▶", "Step 23 of the long") is not None
    assert all(len(line) <= 70 for line in screen.splitlines())
    narrow.send("Tab")  # from the quiz to the note box
    narrow.wait_for(lambda s: "▸ 1. Right" not in s and "⏎ Answer" not in s, what="the keys to leave the quiz")
    narrow.type("a note in the narrow pane")
    screen = narrow.wait_text("a note in the narrow pane")
    line = screen.splitlines()[_line_with(screen, "a note in the narrow pane")]
    assert line.index("a note") < 6  # the note box starts at the left edge, full width
    # a new session on the same topic says what carries over and what is due
    narrow.send("C-l")
    narrow.wait_text("New session")
    narrow.send("Up")  # the list opens on the current session; "+ New session" is above it
    narrow.send("Enter")
    narrow.wait_text("What do you want to learn?")
    narrow.type("Graph theory")
    narrow.send("Enter")
    screen = narrow.wait_text("From your earlier sessions")
    # the toast's rows, without the box and scrollbar glyphs drawn beside them
    toast = [line.split("▌", 1)[1].rstrip(" ╯▔▁│").strip() for line in screen.splitlines() if "▌" in line]
    assert "22 steps mastered carry over. Due for review: Step 1 of the long plan." in " ".join(toast), toast
