"""A research job's whole process tree ends with it: F9, quitting, and its time limit.

The research command is a real script that spawns a child and waits on it, as a search
wrapper does; after each ending, ``ps`` must show neither the script nor its child.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from keeltui.tutor import jobs as tj
from keeltui_dev.loopback import Reply
from tests.pilot.test_tutor_live import _open_first_session, _teaching_session, type_into
from tests.pilot.test_tutor_pane import SIZE, idle
from tests.support.pilot import screen_text, wait_for

QUERY = "leucine per meal"
RESEARCH = {"name": "research", "arguments": {"query": QUERY}}

def _script(tmp_path: Path) -> Path:
    """A search command that spawns a long child and records both pids (one line per run)."""
    script = tmp_path / "search.sh"
    script.write_text(
        "#!/bin/sh\n"
        f'echo "$$" >> "{tmp_path}/leaders"\n'
        "sleep 300 &\n"
        f'echo "$!" >> "{tmp_path}/children"\n'
        "wait\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return script

def _pids(tmp_path: Path, name: str) -> list[int]:
    path = tmp_path / name
    return [int(line) for line in path.read_text().split()] if path.exists() else []

def _alive(pid: int) -> bool:
    """Running per ps (a zombie waiting for its reaper is not running)."""
    found = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True).stdout.strip()
    return bool(found) and not found.startswith("Z")

def _tree_running(tmp_path: Path, run: int) -> bool:
    leaders, children = _pids(tmp_path, "leaders"), _pids(tmp_path, "children")
    return len(leaders) > run and len(children) > run and _alive(leaders[run]) and _alive(children[run])

def _tree_gone(tmp_path: Path, run: int) -> bool:
    return not _alive(_pids(tmp_path, "leaders")[run]) and not _alive(_pids(tmp_path, "children")[run])

def _teacher(loopback, replies: list[Reply]) -> list[dict]:
    asked: list[dict] = []

    def responder(request: dict) -> Reply:
        asked.append(request)
        step = len(asked) - 1
        return replies[step] if step < len(replies) else Reply(status=500, error_message="unscripted")

    loopback.responder = responder
    return asked

async def test_f9_and_quitting_end_the_research_tree_and_f9_is_not_undone(make_app, loopback, tmp_path):
    asked = _teacher(loopback, [
        Reply(text="I will look that up.", tool_calls=[RESEARCH]),
        Reply(text="Meanwhile, on to basics."),
        Reply(text="Let me look it up after all.", tool_calls=[RESEARCH]),  # the abort's wake: refused
        Reply(text="Fine, no research then."),
        Reply(text="Running it again.", tool_calls=[RESEARCH]),  # the learner asked from the card
        Reply(text="While it runs, more basics."),
    ])
    app = make_app(f'[tutor]\nresearch_command = "{_script(tmp_path)}"\n')
    session = _teaching_session(app)
    async with app.run_test(size=SIZE) as pilot:
        await _open_first_session(pilot)
        await type_into(pilot, "how much leucine?")
        await wait_for(pilot, lambda: _tree_running(tmp_path, 0) and "Meanwhile, on to basics." in screen_text(app)
                       and idle(app), what="the script and its child running beside the turn")
        await pilot.press("f9")
        await wait_for(pilot, lambda: f"research job aborted: {QUERY}" in screen_text(app), what="the aborted mark")
        await wait_for(pilot, lambda: _tree_gone(tmp_path, 0), timeout=10, what="the tree ended by F9")
        await wait_for(pilot, lambda: "Fine, no research then." in screen_text(app) and idle(app),
                       what="the teacher told of the abort")
        # The teacher's attempt to start the same job again was refused: nothing new ran.
        refusal = asked[3]["messages"][-1]["content"]
        assert "the learner aborted this research job" in refusal
        assert len(_pids(tmp_path, "leaders")) == 1
        assert [r.parts[0]["status"] for r in app.store.messages(session)
                if r.parts and r.parts[0].get("type") == tj.JOB_STEER] == [tj.ABORTED]
        # "Run again" on the aborted mark: the learner asks, and the job runs anew.
        await pilot.click("#job-rerun")
        await wait_for(pilot, lambda: _tree_running(tmp_path, 1) and "While it runs, more basics." in screen_text(app),
                       what="the job run again from its card")
        assert asked[4]["messages"][-1]["content"] == tj.rerun_request("research", QUERY)
        await wait_for(pilot, lambda: "Abort job" in screen_text(app), what="F9 offered for the new run")
    # Quitting with the job still running ends its tree too.
    assert _tree_gone(tmp_path, 1)

async def test_the_time_limit_ends_the_whole_tree_and_the_card_says_so(make_app, loopback, tmp_path, monkeypatch):
    from keeltui.services import tutor_job_runner as tutor_jobs

    monkeypatch.setattr(tutor_jobs, "RESEARCH_TIMEOUT_SECS", 1.0)
    _teacher(loopback, [
        Reply(text="I will look that up.", tool_calls=[RESEARCH]),
        Reply(text="Meanwhile, on to basics."),
        Reply(text="The search failed; we go on."),  # woken by the failed job's steer
    ])
    app = make_app(f'[tutor]\nresearch_command = "{_script(tmp_path)}"\n')
    _teaching_session(app)
    async with app.run_test(size=SIZE) as pilot:
        await _open_first_session(pilot)
        await type_into(pilot, "how much leucine?")
        await wait_for(pilot, lambda: "The search failed; we go on." in screen_text(app) and idle(app),
                       what="the failed job's steer waking the teacher")
        assert _pids(tmp_path, "leaders") and _pids(tmp_path, "children")  # the tree had started
        assert _tree_gone(tmp_path, 0)
        # The result card is drawn a frame after the reply below it (its place is blank for that
        # frame: 2 runs in 50 caught it, alone on an idle machine).
        await wait_for(pilot, lambda: f"Research: {QUERY} — failed" in screen_text(app), what="the failed card")
        assert not app.query("Button#job-rerun")  # only an abort offers "Run again"
