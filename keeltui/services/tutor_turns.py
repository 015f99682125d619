"""A tutor turn end to end: write-ahead, the agent loop, the teacher's wake, warnings.

Textual-free (like :mod:`keeltui.services.chief_turns`) so the pane's worker and tests
run the same code. One session is one store conversation of kind ``tutor``; every step
is written there before anything else happens, and the model always reads the session
rebuilt from the store (:func:`keeltui.tutor.replay.model_messages`).

One turn of an agent is a loop of at most ``max_steps`` model calls:

1. the agent is chosen from the transcript (prober until a concluded ``probe_done``,
   then the teacher) with its own prompt and tools;
2. the reply is stored as an assistant row whose tool calls are parts;
3. each call is judged by :func:`keeltui.tutor.tools.validate_tool_call` and its result
   stored as a ``tool`` row — a refused call goes back to the model as a tool error and
   the loop calls the model again, so the learner never sees a refused call;
4. the turn ends at a reply without calls or at a call that waits for the learner
   (``ask``, ``quiz``, a plan presented for the verdict). A concluded ``probe_done``
   ends the prober's turn and at once runs a teacher turn: the wake.

Every call's usage feeds the context warnings of the agent's role. Brain failures stop
the turn and come back as one line; what the learner wrote is already stored.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any
from collections.abc import Callable

from keeltui.brain import Brain, BrainError, Completion, StreamDone, TextDelta, ToolCall, Usage
from keeltui.chief.turn_warning import Levels, TurnWarner
from keeltui.config import Config
from keeltui.services.tutor_records import TutorRecords
from keeltui.store import Conversation, Row, Store
from keeltui.tutor import jobs as tj
from keeltui.tutor import transcript as tx
from keeltui.tutor.phases import active_agent
from keeltui.tutor.prompts import compose_prompt
from keeltui.tutor.outcome import TurnOutcome, failure_text  # the pane reads it without the service
from keeltui.tutor.replay import model_messages
from keeltui.tutor.tools import ToolOutcome, tools_for, validate_tool_call

KIND = "tutor"
MAX_STEPS = 6


StepCallback = Callable[[str, Usage], None]
TextCallback = Callable[[str, str], None]
"""``on_text(agent, piece)``: a piece of the reply as it streams."""
JobCallback = Callable[[tj.Job], None]
"""``on_job(job)``: the teacher started a background job (its call was accepted)."""


class TutorTurns:
    """Runs tutor sessions over the store and the brain."""

    def __init__(
        self,
        store: Store,
        brain: Brain,
        config: Config,
        *,
        warner: TurnWarner | None = None,
        prompts_dir: Path | None = None,
        max_steps: int = MAX_STEPS,
        records: TutorRecords | None = None,
    ) -> None:
        self.store = store
        self.brain = brain
        self.config = config
        # The warned levels live in memory for the app's lifetime (DESIGN §3).
        self.warner = warner or TurnWarner()
        self.prompts_dir = prompts_dir
        self.max_steps = max_steps
        # Mastery carried over, memoised per session (keeltui.wiring shares the pane's).
        self.records = records if records is not None else TutorRecords(store)

    # -- sessions and the learner's rows (write-ahead) -----------------------------------

    def sessions(self) -> list[Conversation]:
        """Tutor sessions, most recently active first."""
        return self.store.conversations(KIND)

    def transcript(self, session_id: int) -> list[Row]:
        return self.store.messages(session_id)

    def start_session(self, topic: str) -> int:
        """A new session titled by the topic; the topic is the learner's first line."""
        topic = " ".join(topic.split())
        session_id = self.store.create_conversation(KIND, topic)
        self.store.add_message(session_id, tx.USER, topic)
        return session_id

    def add_learner(self, session_id: int, message: tx.Message) -> int:
        """Store a learner row (before any brain call: write-ahead)."""
        return self._add(session_id, message)

    def _add(self, session_id: int, message: tx.Message, usage: Usage | None = None) -> int:
        return self.store.add_message(
            session_id, message.role, message.content,
            parts=[dict(part) for part in message.parts] or None,
            usage=usage.as_dict() if usage is not None else None,
        )

    # -- turns ------------------------------------------------------------------------

    async def respond(
        self, session_id: int, on_step: StepCallback | None = None, on_text: TextCallback | None = None,
        on_job: JobCallback | None = None,
    ) -> TurnOutcome:
        """Run the active agent's turn, and the teacher's wake if the probe concluded.

        ``on_step(agent, usage)`` is called after each stored step, so a view can show
        the assessment before the teacher's first call returns. Never raises for brain
        failures.
        """
        agent = active_agent(self.transcript(session_id))
        outcome = await self._agent_turn(session_id, agent, on_step, on_text, on_job)
        if not outcome.woke_teacher or outcome.error:
            return outcome
        wake = await self._agent_turn(session_id, active_agent(self.transcript(session_id)), on_step, on_text,
                                      on_job)
        return replace(
            wake,
            steps=outcome.steps + wake.steps,
            woke_teacher=True,
            warnings=outcome.warnings + wake.warnings,
            usage=wake.usage or outcome.usage,
        )

    def _levels(self, agent: str) -> Levels:
        config = getattr(self.config.context_warnings, agent)
        return Levels(warning=config.warning, emergency=config.emergency)

    async def _agent_turn(
        self, session_id: int, agent: str, on_step: StepCallback | None, on_text: TextCallback | None = None,
        on_job: JobCallback | None = None,
    ) -> TurnOutcome:
        system = compose_prompt(agent, self.prompts_dir)
        system = _with_prior_knowledge(system, self.records, session_id)
        tools = tools_for(agent)
        levels = self._levels(agent)
        turn_warnings: list[str] = []
        usage: Usage | None = None
        refusal = ""  # the latest refused call's reason, for the failure card
        for step in range(1, self.max_steps + 1):
            rows = self.transcript(session_id)
            try:
                completion = await self._streamed(session_id, agent, model_messages(system, rows), tools, on_text)
            except BrainError as exc:
                return TurnOutcome(agent, step - 1, error=failure_text(agent, str(exc), step, refusal),
                                   warnings=tuple(turn_warnings), usage=usage)
            usage = completion.usage
            self.warner.turn_warning(session_id, usage.fraction, levels, turn_warnings)
            if not completion.text.strip() and not completion.tool_calls:
                return TurnOutcome(agent, step, error=failure_text(agent, "the model sent an empty reply", step, refusal),
                                   warnings=tuple(turn_warnings), usage=usage)
            calls = _unique_ids(rows, completion.tool_calls)
            self._add(session_id, tx.assistant(completion.text, *(_call_part(c) for c in calls)), usage)
            ended, woke, refused = self._run_calls(session_id, agent, calls, on_job)
            refusal = refused or refusal
            if on_step is not None:
                on_step(agent, usage)
            if not calls or ended:
                return TurnOutcome(agent, step, woke_teacher=woke,
                                   warnings=tuple(turn_warnings), usage=usage)
        return TurnOutcome(
            agent, self.max_steps,
            error=failure_text(agent, "no finished turn: every try ended in a refused call", self.max_steps, refusal),
            warnings=tuple(turn_warnings), usage=usage,
        )

    async def _streamed(
        self, session_id: int, agent: str, messages: list[dict], tools: list[dict], on_text: TextCallback | None
    ) -> Completion:
        """One model call, streamed: text pieces go to ``on_text``, tool calls are
        assembled from the stream. Cancelled (the learner stopped it), the text so far
        is stored, marked stopped, and the cancellation goes on."""
        pieces: list[str] = []
        try:
            async for event in self.brain.stream(agent, messages, tools=tools):
                if isinstance(event, TextDelta):
                    pieces.append(event.text)
                    if on_text is not None:
                        on_text(agent, event.text)
                elif isinstance(event, StreamDone):
                    return event.completion
        except asyncio.CancelledError:
            text = "".join(pieces)
            if text.strip():
                self.store.add_message(session_id, tx.ASSISTANT, text, parts=[{"type": tx.TURN_STOPPED}])
            raise
        raise BrainError(f"the brain at {self.brain.base_url} ended the stream without finishing")

    def _run_calls(
        self, session_id: int, agent: str, calls: list[ToolCall], on_job: JobCallback | None = None
    ) -> tuple[bool, bool, str]:
        """Judge and store each call's result in order; return (turn ended, wake teacher,
        the last refusal's reason or '')."""
        ended_by: str | None = None
        woke = False
        refused = ""
        for call in calls:
            if ended_by is not None:
                # One question at a time: once a call has handed the turn to the learner,
                # later calls in the same reply are not run (the model sees why next time).
                outcome = ToolOutcome(
                    ok=False,
                    result=f"{call.name} not run: your turn ended at the {ended_by} call "
                           "before it — one question at a time",
                )
            else:
                # Judged against the transcript so far, including this reply's earlier
                # results, so a probe_done beside a quiz sees the quiz as open.
                outcome = validate_tool_call(agent, call.name, call.arguments, self.transcript(session_id))
            self._add(session_id, tx.tool(call.id, call.name, outcome.ok, outcome.result))
            if not outcome.ok and ended_by is None:
                refused = str(outcome.result)
            if outcome.ok and call.name in tj.JOB_TOOLS and on_job is not None:
                # Started once its acceptance is stored; it answers later, as a steer.
                job = tj.job_of(_call_part(call))
                if job is not None:
                    on_job(job)
            if outcome.ok and outcome.ends_turn:
                ended_by = call.name
            woke = woke or (outcome.ok and outcome.wake_teacher)
        return ended_by is not None, woke, refused


def _with_prior_knowledge(system: str, records: TutorRecords, session_id: int) -> str:
    """The prompt plus what earlier sessions on this topic established, if anything."""
    note = records.prior_note(session_id)
    return f"{system}\n\n{note}" if note else system


def _call_part(call: ToolCall) -> dict[str, Any]:
    """The stored part: parsed arguments, or the raw text when it is not a JSON object."""
    try:
        arguments: Any = call.parsed()
    except ValueError:
        arguments = call.arguments
    return {"type": tx.TOOL_CALL, "id": call.id, "name": call.name, "arguments": arguments}


def _unique_ids(rows: list[Row], calls: tuple[ToolCall, ...]) -> list[ToolCall]:
    """The calls with ids unique in the session.

    Phases, answers and results are matched by call id, and some servers number calls
    per reply (``call_0`` every time) or send none: a repeated id would make a new quiz
    look answered by an old pick.
    """
    used = {
        part.get("id") for _, _, part in tx.iter_parts(rows, tx.TOOL_CALL)
    }
    unique: list[ToolCall] = []
    for call in calls:
        base = call.id or "call"
        call_id, number = base, 1
        while call_id in used:
            number += 1
            call_id = f"{base}-{number}"
        used.add(call_id)
        unique.append(ToolCall(call_id, call.name, call.arguments) if call_id != call.id else call)
    return unique
