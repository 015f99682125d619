"""Background jobs of the tutor: run them, deliver their steers once, abort them.

Textual-free, like :mod:`keeltui.services.tutor_turns`: the pane runs :meth:`TutorJobs.run`
in a worker per job and hands the result back to :meth:`TutorJobs.settle`. The
protocol (what a steer is, the shared id of a result and its abort) is the pure
:mod:`keeltui.tutor.jobs`.

- A result that lands while a turn runs in its session waits (a steer stored under
  a turn in flight would be read by nobody) and is delivered when the turn ends.
- An abort cancels the job's task (the in-flight model call with it), drops a waiting
  result, and stores the quiet "aborted" steer with the usage so far. A result and its
  abort share one steer id, so whichever is stored first is the only one delivered.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

from keeltui.adapters.proc import CommandFailed, run_group_async
from keeltui.brain import Brain, BrainError, Usage
from keeltui.config import Config
from keeltui.infra.private_files import make_private_dir, open_private
from keeltui.store import Store
from keeltui.tutor import jobs as tj
from keeltui.tutor import transcript as tx

ROLE = "teacher"  # jobs run on the teacher's model
RESEARCH_TIMEOUT_SECS = 30.0
RESEARCH_OUTPUT_CHARS = 20_000
_FENCE = re.compile(r"```[^\n`]*\n(.*?)```", re.S)
_SVG = re.compile(r"<svg\b.*?</svg>", re.S | re.I)
_EXTENSIONS = {"python": "py", "py": "py", "javascript": "js", "js": "js", "typescript": "ts", "bash": "sh",
               "sh": "sh", "shell": "sh", "ruby": "rb", "go": "go", "rust": "rs", "c": "c", "lua": "lua"}

PROMPTS = {
    tj.RESEARCH: (
        "You are a research assistant for a tutor. Answer the question in a short brief "
        "(at most 200 words) the tutor can teach from. When search results are given, use "
        "them and name the sources you kept; never invent a source."
    ),
    tj.DEMO: (
        "Write one small, self-contained, runnable example program that shows what is "
        "asked. Reply with only the program, in one fenced code block."
    ),
    tj.VISUAL: (
        "Draw a clear diagram of what is asked using plain text and box-drawing "
        "characters, at most 70 columns wide. Reply with only the diagram in one fenced block."
    ),
}
SVG_PROMPT = "Draw the same diagram as one standalone SVG document. Reply with only the <svg>…</svg>."


class JobUsage:
    """Usage summed over a job's calls (kept when the job is aborted)."""

    def __init__(self) -> None:
        self.calls = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0

    def add(self, usage: Usage) -> None:
        self.calls += 1
        self.prompt_tokens += usage.prompt_tokens
        self.completion_tokens += usage.completion_tokens

    def as_dict(self) -> dict[str, int]:
        return {"calls": self.calls, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens}


class TutorJobs:
    def __init__(self, store: Store, brain: Brain, config: Config, *, jobs_dir: Path | None = None) -> None:
        self.store = store
        self.brain = brain
        self.config = config
        self.jobs_dir = jobs_dir or config.database_path().parent / "tutor-jobs"
        self.usage: dict[str, JobUsage] = {}
        self._waiting: dict[int, list[tx.Message]] = {}  # results held while a turn runs
        self.aborted: set[str] = set()

    # -- running -------------------------------------------------------------------------

    async def run(self, session_id: int, job: tj.Job) -> tx.Message:
        """Do the job (its own model calls) and return its steer; never raises for a
        brain or command failure (a failed job is a steer too)."""
        usage = self.usage.setdefault(job.job_id, JobUsage())
        try:
            text, files = await self._work(session_id, job, usage)
        except (BrainError, OSError, ValueError) as exc:
            body = f"The job failed: {exc}"
            return tj.steer(job, tj.FAILED, tj.result_text(job, tj.FAILED, body), usage=usage.as_dict())
        return tj.steer(job, tj.DONE, tj.result_text(job, tj.DONE, text, files), files=files,
                        usage=usage.as_dict())

    async def _ask(self, usage: JobUsage, system: str, prompt: str) -> str:
        completion = await self.brain.complete(
            ROLE, [{"role": "system", "content": system}, {"role": "user", "content": prompt}]
        )
        usage.add(completion.usage)
        if not completion.text.strip():
            raise ValueError("the model sent an empty reply")
        return completion.text.strip()

    async def _work(self, session_id: int, job: tj.Job, usage: JobUsage) -> tuple[str, list[str]]:
        if job.kind == tj.RESEARCH:
            found = await self._search(job.title)
            prompt = job.title + (f"\n\nSearch results:\n{found}" if found else "")
            return await self._ask(usage, PROMPTS[tj.RESEARCH], prompt), []
        if job.kind == tj.DEMO:
            code = _fenced(await self._ask(usage, PROMPTS[tj.DEMO], f"{job.title}\nLanguage: {job.language or 'python'}"))
            path = self._write(session_id, job, _EXTENSIONS.get(job.language or "python", "txt"), code)
            return f"```{job.language or 'python'}\n{code}\n```", [str(path)]
        diagram = _fenced(await self._ask(usage, PROMPTS[tj.VISUAL], job.title))
        files = [str(self._write(session_id, job, "txt", diagram))]
        if job.svg:
            answer = await self._ask(usage, PROMPTS[tj.VISUAL], f"{job.title}\n\n{SVG_PROMPT}")
            match = _SVG.search(answer)
            if match is None:
                raise ValueError("the model sent no <svg> document")
            files.append(str(self._write(session_id, job, "svg", match.group(0))))
        return f"```\n{diagram}\n```", files

    async def _search(self, query: str) -> str:
        """The configured search command's output for ``query`` ('' when none is set)."""
        command = self.config.tutor.research_command.strip()
        if not command:
            return ""
        argv = [*shlex.split(command), query]
        try:
            out = await run_group_async(argv, timeout=RESEARCH_TIMEOUT_SECS, limit=RESEARCH_OUTPUT_CHARS)
        except CommandFailed as exc:
            raise OSError(f"tutor.research_command {argv[0]!r}: {exc}") from None
        return out.strip()

    def _write(self, session_id: int, job: tj.Job, extension: str, text: str) -> Path:
        folder = self.jobs_dir / f"session-{session_id}"
        make_private_dir(folder)  # every missing parent too, whatever the umask
        name = re.sub(r"[^A-Za-z0-9_-]", "_", job.job_id)
        path = folder / f"{job.kind}-{name}.{extension}"
        # Private (0600): a learner's notes are nobody else's business.
        with open_private(path) as handle:
            handle.write(text.rstrip("\n") + "\n")
        return path

    # -- delivery (steers once, by id) ----------------------------------------------------

    def settle(self, session_id: int, steer: tx.Message, *, turn_running: bool) -> bool:
        """Deliver a job's steer now, or hold it while a turn runs. True when stored."""
        if _steer_job(steer) in self.aborted:
            return False
        if turn_running:
            self._waiting.setdefault(session_id, []).append(steer)
            return False
        return self._deliver(session_id, steer)

    def held(self, session_id: int) -> dict[str, str]:
        """The jobs whose outcome waits for the session's turn to end: job id → its status."""
        held = {}
        for steer in self._waiting.get(session_id, []):
            part = tj.steer_part(steer) or {}
            held[str(part.get("job_id"))] = str(part.get("status"))
        return held

    def flush(self, session_id: int) -> bool:
        """Deliver the steers held while a turn ran (however it ended); True when any was stored."""
        waiting = self._waiting.pop(session_id, [])
        stored = [self._deliver(session_id, steer) for steer in waiting]
        return any(stored)

    def abort(self, session_id: int, job: tj.Job, *, turn_running: bool) -> bool:
        """The learner aborted ``job``: its waiting result is dropped, the aborted steer
        (with the usage so far) delivered or held. False when it had already landed."""
        if tj.delivered(self.store.messages(session_id), tj.steer_id(job.job_id)):
            return False
        self.aborted.add(job.job_id)
        self._waiting[session_id] = [
            s for s in self._waiting.get(session_id, []) if _steer_job(s) != job.job_id
        ]
        usage = self.usage.get(job.job_id, JobUsage()).as_dict()
        steer = tj.steer(job, tj.ABORTED, tj.result_text(job, tj.ABORTED, ""), usage=usage)
        if turn_running:
            self._waiting[session_id].append(steer)
            return True
        return self._deliver(session_id, steer)

    def _deliver(self, session_id: int, steer: tx.Message) -> bool:
        part = tj.steer_part(steer)
        key = part.get("id") if part is not None else None
        if not isinstance(key, str) or self.store.conversation(session_id) is None:
            return False  # the session was deleted meanwhile: nobody is left to tell
        if tj.delivered(self.store.messages(session_id), key):
            return False
        self.store.add_message(session_id, steer.role, steer.content, parts=[dict(p) for p in steer.parts])
        return True


def _steer_job(steer: tx.Message) -> Any:
    part = tj.steer_part(steer)
    return part.get("job_id") if part is not None else None


def _fenced(text: str) -> str:
    """The body of the first fenced block, or the whole text when there is none."""
    match = _FENCE.search(text)
    return (match.group(1) if match else text).strip("\n")
