"""The background-job protocol against the loopback brain and a real store.

Start (the call answers at once), run (the job's own calls), the steer that wakes the
teacher, delivered once; abort (the in-flight call cancelled, usage so far kept, no
result after it), including an abort racing a result.
"""

from __future__ import annotations

import asyncio
import os
import stat
import sys
import threading
from pathlib import Path

import pytest

from keeltui.brain import Brain
from keeltui.config import load_config
from keeltui.services.tutor_job_runner import TutorJobs
from keeltui.services.tutor_turns import TutorTurns
from keeltui.store import Store
from keeltui.tutor import jobs as tj
from keeltui.tutor import session as ts
from keeltui.tutor.phases import pending_question
from tests.conftest import write_config
from tests.pilot.test_tutor_pane import taught_rows
from keeltui_dev.loopback import Reply


@pytest.fixture
def parts(tmp_path, loopback):
    def build(extra: str = ""):
        config = load_config(write_config(tmp_path / "config.toml", loopback.url, extra), env={})
        store = Store(tmp_path / "jobs.db")
        brain = Brain(config.brain)
        turns = TutorTurns(store, brain, config)
        jobs = TutorJobs(store, brain, config, jobs_dir=tmp_path / "jobs")
        built.append(store)
        return turns, jobs

    built: list[Store] = []
    yield build
    for store in built:
        store.close()


def teaching(turns: TutorTurns) -> int:
    session = turns.start_session("protein")
    for row in taught_rows():
        turns.add_learner(session, row)
    return session


def call(name: str, text: str = "", **arguments) -> Reply:
    return Reply(text=text, tool_calls=[{"name": name, "arguments": arguments}])


def script(loopback, replies: list[Reply]) -> None:
    def responder(request: dict) -> Reply:
        step = len(loopback.requests) - 1
        return replies[step] if step < len(replies) else Reply(status=500, error_message=f"unscripted {step}")

    loopback.responder = responder


async def test_a_job_answers_at_once_lands_as_a_steer_once_and_wakes_the_teacher(parts, loopback, tmp_path):
    turns, jobs = parts()
    session = teaching(turns)
    script(loopback, [
        call("research", "I will look that up.", query="How much leucine per meal?"),
        Reply(text="Meanwhile: protein matters because of net balance."),
        Reply(text="About 2-3 g of leucine per meal (two studies)."),  # the job's own call
        Reply(text="The research is in: aim for 2-3 g of leucine."),  # the wake
    ])
    started: list[tj.Job] = []
    outcome = await turns.respond(session, on_job=started.append)
    assert outcome.error is None and outcome.steps == 2  # the call did not end the turn
    (job,) = started
    assert job.kind == "research" and job.title == "How much leucine per meal?"
    result = [r for r in turns.transcript(session) if r.role == "tool"][-1]
    assert result.parts[0]["ok"] is True and result.parts[0]["result"]["status"] == "started"
    assert tj.job_statuses(turns.transcript(session)) == {job.job_id: tj.RUNNING}

    steer = await jobs.run(session, job)
    assert jobs.settle(session, steer, turn_running=False) is True
    assert jobs.settle(session, steer, turn_running=False) is False  # delivered once, by id
    rows = turns.transcript(session)
    steers = [r for r in rows if tj.steer_part(r) is not None]
    assert len(steers) == 1 and steers[0].parts[0]["status"] == "done"
    assert steers[0].parts[0]["usage"]["calls"] == 1
    assert tj.job_statuses(rows) == {job.job_id: tj.DONE}
    assert ts.needs_reply(rows)  # the steer wakes the teacher
    await turns.respond(session)
    woke = loopback.requests[3]["messages"][-1]
    assert woke["role"] == "user" and woke["content"].startswith("[research job finished: How much leucine")
    assert "About 2-3 g of leucine per meal" in woke["content"]
    items = ts.session_items(turns.transcript(session))
    assert [type(i).__name__ for i in items if "Job" in type(i).__name__] == ["JobItem", "JobResultItem"]


async def test_research_uses_the_configured_command(parts, loopback, tmp_path):
    search = tmp_path / "search"
    search.write_text(f"#!{sys.executable}\nimport sys\nprint('RESULT for', sys.argv[-1], '- example.org')\n")
    search.chmod(0o755)
    turns, jobs = parts(f'[tutor]\nresearch_command = "{search}"\n')
    session = teaching(turns)
    script(loopback, [Reply(text="Brief: see example.org.")])
    steer = await jobs.run(session, tj.Job("j1", "research", "leucine threshold"))
    assert tj.steer_part(steer)["status"] == "done"
    sent = loopback.requests[0]["messages"][-1]["content"]
    assert "RESULT for leucine threshold - example.org" in sent


async def test_a_missing_research_command_is_a_failed_job_naming_it(parts, loopback, tmp_path):
    turns, jobs = parts(f'[tutor]\nresearch_command = "{tmp_path / "nope"}"\n')
    session = teaching(turns)
    steer = await jobs.run(session, tj.Job("j1", "research", "anything"))
    assert tj.steer_part(steer)["status"] == "failed"
    assert "research_command" in steer.content and "nope" in steer.content
    assert loopback.requests == []


async def test_demo_and_visual_write_private_files_under_the_data_folder(parts, loopback, tmp_path):
    turns, jobs = parts()
    session = teaching(turns)
    script(loopback, [
        Reply(text="```python\nprint('leucine')\n```"),
        Reply(text="```\n[meal] --> [MPS]\n```"),
        Reply(text='Here: <svg xmlns="http://www.w3.org/2000/svg"><text>MPS</text></svg>'),
    ])
    demo = await jobs.run(session, tj.Job("d1", "demo", "print a word", language="python"))
    (path,) = tj.steer_part(demo)["files"]
    assert path.endswith(".py") and Path(path).read_text() == "print('leucine')\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    visual = await jobs.run(session, tj.Job("v1", "visual", "meal to MPS", svg=True))
    text_file, svg_file = tj.steer_part(visual)["files"]
    assert Path(text_file).read_text() == "[meal] --> [MPS]\n"
    assert Path(svg_file).read_text().startswith("<svg") and svg_file.endswith(".svg")
    assert str(tmp_path / "jobs") in text_file
    assert tj.steer_part(visual)["usage"]["calls"] == 2


async def test_abort_cancels_the_call_in_flight_keeps_the_usage_and_no_result_follows(parts, loopback):
    turns, jobs = parts()
    session = teaching(turns)
    gate = threading.Event()
    replies = [Reply(text="```\n[a] --> [b]\n```"), Reply(text="<svg></svg>")]

    def responder(request: dict) -> Reply:
        if len(loopback.requests) == 2:
            gate.wait(30)  # the SVG call is in flight when the learner aborts
        return replies[len(loopback.requests) - 1]

    loopback.responder = responder
    job = tj.Job("v1", "visual", "a to b", svg=True)
    task = asyncio.create_task(jobs.run(session, job))
    for _ in range(600):
        if len(loopback.requests) == 2:
            break
        await asyncio.sleep(0.05)
    assert len(loopback.requests) == 2
    task.cancel()  # the in-flight call goes with the task
    assert jobs.abort(session, job, turn_running=False) is True
    with pytest.raises(asyncio.CancelledError):
        await task
    gate.set()
    rows = turns.transcript(session)
    (steer,) = [tj.steer_part(r) for r in rows if tj.steer_part(r) is not None]
    assert steer["status"] == "aborted" and steer["usage"]["calls"] == 1  # the usage so far
    assert "do not wait for it" in rows[-1].content
    # A result that still came (the race) is never delivered after the abort.
    late = tj.steer(job, tj.DONE, "late result")
    assert jobs.settle(session, late, turn_running=False) is False
    assert [tj.steer_part(r)["status"] for r in turns.transcript(session) if tj.steer_part(r)] == ["aborted"]


async def test_a_result_held_during_a_turn_is_dropped_by_an_abort_and_the_abort_lands(parts, loopback):
    turns, jobs = parts()
    session = teaching(turns)
    job = tj.Job("r1", "research", "q")
    result = tj.steer(job, tj.DONE, "[research job finished: q] brief")
    assert jobs.settle(session, result, turn_running=True) is False  # a turn runs: held
    assert jobs.abort(session, job, turn_running=True) is True
    assert jobs.flush(session) is True
    statuses = [tj.steer_part(r)["status"] for r in turns.transcript(session) if tj.steer_part(r)]
    assert statuses == ["aborted"]
    assert jobs.abort(session, job, turn_running=False) is False  # already settled


async def test_an_abort_after_the_result_landed_changes_nothing(parts, loopback):
    turns, jobs = parts()
    session = teaching(turns)
    job = tj.Job("r1", "research", "q")
    assert jobs.settle(session, tj.steer(job, tj.DONE, "brief"), turn_running=False) is True
    assert jobs.abort(session, job, turn_running=False) is False
    statuses = [tj.steer_part(r)["status"] for r in turns.transcript(session) if tj.steer_part(r)]
    assert statuses == ["done"]


def test_a_steer_never_answers_an_open_ask() -> None:
    from keeltui.tutor import transcript as tx

    rows = [
        tx.user("topic"),
        tx.assistant("", tx.tool_call("a1", "ask", {"question": "What do you know?"})),
        tx.tool("a1", "ask", True, {"status": "asked"}),
        tj.steer(tj.Job("r1", "research", "q"), tj.DONE, "[research job finished: q] brief"),
    ]
    assert pending_question(rows) is not None


async def test_a_result_for_a_session_deleted_meanwhile_is_dropped_not_a_crash(parts, loopback):
    turns, jobs = parts()
    session = teaching(turns)
    script(loopback, [
        call("research", "I will look that up.", query="leucine per meal"),
        Reply(text="Meanwhile, basics."),
        Reply(text="Two to three grams."),  # the job's own call
    ])
    started: list[tj.Job] = []
    await turns.respond(session, on_job=started.append)
    steer = await jobs.run(session, started[0])
    turns.store.delete_conversation(session)
    assert jobs.settle(session, steer, turn_running=False) is False  # nobody to tell, no write
