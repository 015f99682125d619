"""Background jobs in a tutor session: research, demo, visual. Pure.

The protocol (after the design's waves 3 and 4):

- the teacher calls ``research``, ``demo`` or ``visual``; the call answers at once
  ("started") and the teacher's turn goes on while the job runs with its own calls;
- the job's outcome comes back later as a *steer*: a user-role row whose text the
  teacher reads and whose ``job_steer`` part the pane draws as a card; a steer wakes
  the teacher like a learner's message does;
- an abort is a steer too ("aborted", with the usage so far) in the same id space as
  the result, so an abort and a racing result can never both be delivered: whichever
  is stored first wins, and the other is dropped (steers are delivered once, by id).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .transcript import USER, Message, MessageLike, arguments_of, iter_parts, parts_of, role_of, user

RESEARCH = "research"
DEMO = "demo"
VISUAL = "visual"
JOB_TOOLS = (RESEARCH, DEMO, VISUAL)
JOB_STEER = "job_steer"

DONE = "done"
FAILED = "failed"
ABORTED = "aborted"
RUNNING = "running"


def steer_id(job_id: str) -> str:
    """The one id a job's result and its abort share (so only one is ever delivered)."""
    return f"steer-{job_id}"


@dataclass(frozen=True)
class Job:
    """A started job: the teacher's call id is its id."""

    job_id: str
    kind: str
    title: str
    """The query (research) or the brief (demo, visual)."""
    svg: bool = False
    language: str = ""


def job_of(call: Mapping[str, Any]) -> Job | None:
    """The job a tool call part starts, or None when it is not a job call."""
    name = call.get("name")
    if name not in JOB_TOOLS or not isinstance(call.get("id"), str):
        return None
    args = arguments_of(call)
    title = args.get("query") if name == RESEARCH else args.get("brief")
    language = args.get("language")
    return Job(
        str(call["id"]), str(name), " ".join(str(title or "").split()),
        svg=args.get("svg") is True, language=language.strip().lower() if isinstance(language, str) else "",
    )


def steer(job: Job, status: str, text: str, *, files: Sequence[str] = (), usage: Mapping[str, Any] | None = None) -> Message:
    """The steer row for ``job``: ``text`` is what the teacher reads."""
    part: dict[str, Any] = {
        "type": JOB_STEER, "id": steer_id(job.job_id), "job_id": job.job_id, "kind": job.kind,
        "title": job.title, "status": status, "files": list(files),
    }
    if usage:
        part["usage"] = dict(usage)
    return user(text, part)


def result_text(job: Job, status: str, body: str, files: Sequence[str] = ()) -> str:
    """What the teacher reads when the job lands (or fails)."""
    if status == ABORTED:
        return (f"[{job.kind} job aborted by the learner: {job.title}] No result will come; "
                "do not wait for it.")
    head = f"[{job.kind} job {'finished' if status == DONE else 'failed'}: {job.title}]"
    where = "".join(f"\nWritten to {path}" for path in files)
    return f"{head}{where}\n\n{body}".rstrip()


def steer_part(message: MessageLike) -> Mapping[str, Any] | None:
    """The ``job_steer`` part of a row, if it is a steer."""
    if role_of(message) != USER:
        return None
    for part in parts_of(message):
        if part.get("type") == JOB_STEER:
            return part
    return None


def delivered(messages: Sequence[MessageLike], steer_key: str) -> bool:
    """True when a steer with this id is already in the transcript."""
    return any(part.get("id") == steer_key for _, _, part in iter_parts(messages, JOB_STEER))


def job_statuses(messages: Sequence[MessageLike]) -> dict[str, str]:
    """Each job's status by id: its steer's, else ``running`` (started, not landed)."""
    from .phases import ok_tool_calls

    statuses: dict[str, str] = {}
    for name in JOB_TOOLS:
        for _, call in ok_tool_calls(messages, name):
            statuses[str(call.get("id"))] = RUNNING
    for _, _, part in iter_parts(messages, JOB_STEER):
        job_id = part.get("job_id")
        if isinstance(job_id, str) and statuses.get(job_id) == RUNNING:
            statuses[job_id] = str(part.get("status") or DONE)
    return statuses




def aborted_since_learner(messages: Sequence[MessageLike], kind: str, title: str) -> bool:
    """True when the learner aborted this very job (kind and title) and has not spoken since.

    The abort wakes the teacher so that no promise hangs; a model often answers it by
    starting the same job again, which would undo the learner's F9. Only the learner's
    own words (asking again, or "Run again" on the card) lift it.
    """
    wanted = " ".join(title.split())
    for message in reversed(messages):
        if role_of(message) != USER:
            continue
        part = steer_part(message)
        if part is None:
            return False  # the learner spoke after any abort
        if part.get("status") == ABORTED and part.get("kind") == kind and part.get("title") == wanted:
            return True
    return False


def rerun_request(kind: str, title: str) -> str:
    """What the learner says when they run an aborted job again from its card."""
    return f"Please run the {kind} job again: {title}"
