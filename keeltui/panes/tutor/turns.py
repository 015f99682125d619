"""The tutor's turns: what the learner does is stored first, then the agents' turn runs
in a worker on the pane (one per session) and its progress comes back as messages.

The pane (keeltui/tutor_view.py) owns one :class:`TurnRunner` and draws what it holds:
which sessions are busy, what streamed, why a turn failed, the last context warning.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from keeltui.chief.streaming import StreamBuffer
from keeltui.panes.common.events import ContextChanged
from keeltui.panes.common.landed_signal import TurnLanded
from keeltui.tutor import session as ts
from keeltui.tutor.outcome import TurnOutcome
from keeltui.values import Usage

if TYPE_CHECKING:
    from textual.worker import Worker

    from keeltui.tutor import jobs as tj
    from keeltui.tutor_view import TutorPane

log = logging.getLogger("keeltui.tutor")

STOPPED = "You stopped the turn."


class TurnRunner:
    def __init__(self, pane: TutorPane) -> None:
        self.pane = pane
        self.busy: set[int] = set()
        self._started: dict[int, float] = {}  # monotonic, per session: for the landed signal
        self._workers: dict[int, Worker] = {}
        self.buffers: dict[int, StreamBuffer] = {}  # the streaming step's text, per session
        self.errors: dict[int, str] = {}  # why a session's last turn failed (this run)
        self._warnings: dict[int, str] = {}  # the latest context warning, per session

    def rows(self) -> list:
        pane = self.pane
        return pane.turns.transcript(pane.session_id) if pane.session_id is not None else []

    def learner_acts(self, message) -> None:
        """Store what the learner did (an answer, a verdict, a pick), then run the agents."""
        pane = self.pane
        session_id = pane.session_id
        if session_id is None:
            return
        pane.turns.add_learner(session_id, message)
        pane.draw(self.rows())
        self.run(session_id)

    def retry(self) -> None:
        """F5: let the agent finish a turn that a brain error or a crash cut short."""
        session_id = self.pane.session_id
        if session_id is None or session_id in self.busy:
            return
        if ts.needs_reply(self.rows()):
            self.run(session_id)
        else:
            self.pane.app.notify("The tutor is waiting for you, not the other way round.", timeout=2)

    def stop(self) -> None:
        """Stop the open session's turn: the in-flight call is cancelled, what streamed is kept."""
        session_id = self.pane.session_id
        worker = self._workers.get(session_id) if session_id is not None else None
        if worker is not None:
            worker.cancel()

    def run(self, session_id: int) -> None:
        pane = self.pane
        self.busy.add(session_id)
        self._started.setdefault(session_id, time.monotonic())  # a turn a job wakes keeps its start
        self.errors.pop(session_id, None)
        self.buffers[session_id] = StreamBuffer()
        pane.turn_started(session_id)
        self._workers[session_id] = pane.run_worker(self._turn(session_id), name="tutor-turn", group="tutor",
                                                    exit_on_error=False)

    async def _turn(self, session_id: int) -> None:
        pane = self.pane

        def on_text(agent: str, piece: str) -> None:
            self.buffers[session_id].append(piece)

        def on_job(job: tj.Job) -> None:
            pane.post_message(pane.JobStarted(session_id, job))

        def on_step(agent: str, usage: Usage) -> None:
            # The step is stored: its streamed text is drawn from the store from now on.
            self.buffers[session_id] = StreamBuffer()
            pane.post_message(pane.TurnProgress(session_id, agent, usage))

        try:
            outcome = await pane.turns.respond(session_id, on_step, on_text, on_job)
        except asyncio.CancelledError:
            pane.post_message(pane.TurnFinished(session_id, TurnOutcome("tutor", stopped=True)))
            raise
        except Exception as exc:  # a bug, not a brain error: say so, keep the pane usable
            log.exception("tutor turn failed")
            outcome = TurnOutcome("tutor", error=f"tutor turn failed: {type(exc).__name__}: {exc}")
        pane.post_message(pane.TurnFinished(session_id, outcome))

    def finished(self, session_id: int, outcome: TurnOutcome) -> bool:
        """The turn ended; False when a job's result woke the teacher again (another turn runs)."""
        pane = self.pane
        self.busy.discard(session_id)
        self._workers.pop(session_id, None)
        if outcome.error:
            self.errors[session_id] = outcome.error
        elif outcome.stopped:
            self.errors[session_id] = STOPPED
        if outcome.warnings:
            self._warnings[session_id] = outcome.warnings[-1]
        # Results that landed while the turn ran are delivered however it ended; after a
        # clean end their steer wakes the teacher, else the Retry card offers the turn.
        if pane.jobs.flush(session_id) and not outcome.error and not outcome.stopped:
            self.run(session_id)
            return False
        started = self._started.pop(session_id, None)
        if started is not None and not outcome.stopped:  # stopped: the learner was there
            pane.post_message(TurnLanded("the tutor's turn", time.monotonic() - started))
        return True

    def post_context(self, session_id: int | None, usage: Usage | dict | None = None) -> None:
        """Tell the app this session's context percentage and warning (both "" clear)."""
        text = ""
        if usage is not None:
            fraction = usage.fraction if isinstance(usage, Usage) else usage.get("fraction")
            if isinstance(fraction, (int, float)):
                text = f"tutor context {round(fraction * 100)}%"
        warning = self._warnings.get(session_id, "") if session_id is not None else ""
        self.pane.post_message(ContextChanged(session_id, text, warning))
