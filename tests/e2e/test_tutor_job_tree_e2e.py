"""The real keeltui in tmux: quitting (Ctrl+Q) with a research job running leaves no
process behind — neither the search script nor the child it spawned (checked with ps)."""

from __future__ import annotations

import time

from keeltui.store import Store
from keeltui_dev.loopback import Reply
from tests.e2e.test_chief_e2e import _config
from tests.pilot.test_tutor_job_tree import RESEARCH, _pids, _script, _tree_gone, _tree_running
from tests.pilot.test_tutor_pane import taught_rows
from tests.support.tmux import Tmux, keeltui_command


def test_quitting_with_a_research_job_running_ends_its_whole_tree(tmp_path, loopback, tmux: Tmux, e2e_env):
    tmux.width, tmux.height = 80, 24
    config = _config(tmp_path, loopback, f'[tutor]\nresearch_command = "{_script(tmp_path)}"\n')
    store = Store(tmp_path / "k.db")
    session = store.create_conversation("tutor", "protein")
    store.add_message(session, "user", "protein")
    for row in taught_rows():
        store.add_message(session, row.role, row.content, parts=[dict(p) for p in row.parts] or None)
    store.close()
    replies = [Reply(text="I will look that up.", tool_calls=[RESEARCH]), Reply(text="Meanwhile, basics.")]
    loopback.responder = lambda request: replies.pop(0) if replies else Reply(status=500, error_message="unscripted")
    tmux.start(keeltui_command(config), e2e_env)
    tmux.wait_text("Write to the Chief")
    tmux.send("C-t", "Down", "Enter")  # one burst: the list has the keys as it shows
    screen = tmux.wait_for(lambda text: "Answer, ask, or note" in text or "What do you want" in text,
                           what="the session (or, wrongly, the topic prompt) to open")
    assert "Answer, ask, or note" in screen, screen
    tmux.type("how much leucine?")
    tmux.send("Enter")
    tmux.wait_for(lambda text: "Meanwhile, basics." in text and _tree_running(tmp_path, 0),
                  what="the job's script and its child running")
    tmux.send("C-q")
    tmux.wait_for(lambda _: tmux.pane_dead(), what="keeltui to exit")
    deadline = time.monotonic() + 10
    while not _tree_gone(tmp_path, 0) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _pids(tmp_path, "leaders") and _tree_gone(tmp_path, 0)
