"""The teacher's background jobs (research, demo, visual) in the tutor pane: each runs
in a worker of its own; F9 aborts the newest in the open session; "Run again" asks for
an aborted one. What a job does is the ``TutorJobs`` service's (keeltui/services/tutor_job_runner.py).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from keeltui.text.textsafe import clean_text, one_line
from keeltui.tutor import jobs as tj
from keeltui.tutor import transcript as tx

if TYPE_CHECKING:
    from textual.worker import Worker

    from keeltui.tutor_view import TutorPane

log = logging.getLogger("keeltui.tutor")


class JobRunner:
    def __init__(self, pane: TutorPane) -> None:
        self.pane = pane
        self.running: dict[str, tuple[int, tj.Job, Worker]] = {}  # running jobs by id

    def working_sessions(self) -> set[int]:
        return set(self.pane.turn_runner.busy) | {session_id for session_id, _, _ in self.running.values()}

    def in_open_session(self) -> bool:
        return any(sid == self.pane.session_id for sid, _, _ in self.running.values())

    def held(self) -> dict[str, str]:
        pane = self.pane
        return pane.jobs.held(pane.session_id) if pane.session_id is not None else {}

    def start(self, session_id: int, job: tj.Job) -> None:
        worker = self.pane.run_worker(self._job(session_id, job), name="tutor-job", group="tutor-jobs", exit_on_error=False)
        self.running[job.job_id] = (session_id, job, worker)
        self.pane.job_changed(session_id, job)

    async def _job(self, session_id: int, job: tj.Job) -> None:
        pane = self.pane
        try:
            steer = await pane.jobs.run(session_id, job)
        except asyncio.CancelledError:
            raise  # aborted: the abort has said so already
        except Exception as exc:  # a bug, not a brain error: the job fails, the pane lives
            log.exception("tutor job failed")
            text = tj.result_text(job, tj.FAILED, f"The job failed: {type(exc).__name__}: {exc}")
            steer = tj.steer(job, tj.FAILED, text)
        pane.post_message(pane.JobLanded(session_id, job, steer))

    def landed(self, session_id: int, job: tj.Job, steer) -> None:
        pane = self.pane
        self.running.pop(job.job_id, None)
        if session_id != pane.session_id or not pane.in_session:
            self._say_landed_elsewhere(session_id, job, steer)
        if pane.jobs.settle(session_id, steer, turn_running=session_id in pane.turn_runner.busy):
            pane.turn_runner.run(session_id)  # the steer wakes the teacher
        pane.job_changed(session_id, job)

    def _say_landed_elsewhere(self, session_id: int, job: tj.Job, steer) -> None:
        """One quiet line for a job that finished in a session not on screen."""
        part = tj.steer_part(steer) or {}
        outcome = "failed" if part.get("status") == tj.FAILED else "finished"
        title = one_line(clean_text(self.pane.records.title(session_id)), 40)
        self.pane.app.notify(f"{job.kind.capitalize()} job {outcome} in “{title}”.", timeout=4, markup=False)

    def abort(self) -> None:
        """F9: abort the newest job running in the open session (the usage so far is kept)."""
        pane = self.pane
        running = [(job, worker) for sid, job, worker in self.running.values() if sid == pane.session_id]
        if not running or pane.session_id is None:
            return
        job, worker = running[-1]
        session_id = pane.session_id
        worker.cancel()  # the in-flight call is cancelled with it
        self.running.pop(job.job_id, None)
        busy = session_id in pane.turn_runner.busy
        if pane.jobs.abort(session_id, job, turn_running=busy) and not busy:
            pane.turn_runner.run(session_id)  # the teacher hears of it, so no promise hangs
        pane.job_changed(session_id, job)

    def rerun(self, kind: str, title: str) -> None:
        """"Run again" on an aborted job: the learner asks for it, so the teacher may start it."""
        pane = self.pane
        if pane.session_id is None or pane.session_id in pane.turn_runner.busy:
            pane.app.bell()
            return
        pane.turn_runner.learner_acts(tx.user(tj.rerun_request(kind, title)))
