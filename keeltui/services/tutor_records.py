"""The learner's records: sessions listed, exported, renamed and deleted; mastery carried over.

Textual-free, shared by the tutor pane and ``keeltui tutor …``: :class:`TutorRecords`
reads the store and hands the transcripts to the pure core (:mod:`keeltui.tutor.mastery`,
``phases``, ``session``), and words the result as list rows or Markdown. It is built
once by :mod:`keeltui.wiring` and handed to the pane, which never sees the store.

A transcript is read once per change: it is kept under its session's key (last
activity, row count, title), so a list refill or a turn's prior-knowledge note reads
only the sessions written since; mastery carried over is memoised per session under
the keys of the earlier sessions it comes from.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from keeltui.store import Conversation, Row, Store
from keeltui.text.textsafe import clean_text
from keeltui.tutor import mastery
from keeltui.tutor.mistakes import mistake_lines, mistakes
from keeltui.tutor.phases import PHASE_WORDS, latest_plan, ok_tool_calls, phase_of
from keeltui.tutor.session import choices_of, correct_index
from keeltui.tutor.session_rows import SessionRow, stamp
from keeltui.tutor.transcript import DONT_KNOW, PLAN_INIT, QUIZ, QUIZ_ANSWER, USER, arguments_of, iter_parts, role_of

KIND = "tutor"
LAST_SESSION_KEY = "tutor_last_session"
STATUS_WORDS = {"current": "current step", "current-review": "current step, to review", "mastered": "mastered", "review": "to review",
                "visited": "seen, not answered", "pending": "not yet"}

PHASE_WIDTH = max(map(len, PHASE_WORDS.values()))  # the list's columns line up

Prior = tuple[dict[str, mastery.NodeMastery], dict[str, str]]


def list_line(row: SessionRow) -> str:
    """``12  2026-11-30 21:04  learning         1/3 mastered  muscle protein``, for the terminal:
    the phase in the words the tutor pane shows, not its code."""
    progress = row.progress or "—"
    phase = PHASE_WORDS.get(row.phase, row.phase)
    return f"{row.id:>4}  {stamp(row.updated_at)}  {phase:<{PHASE_WIDTH}}  {progress:<28}  {clean_text(row.title)}"


class TutorRecords:
    """The learner's records over one store (one per front end, built by keeltui.wiring)."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock  # "now" for what is due (tests step it a day ahead)
        self._transcripts: dict[int, tuple[tuple, list[Row]]] = {}  # session id -> (key, rows)
        self._priors: dict[int, tuple[tuple, Prior]] = {}  # session id -> (earlier keys, prior)

    # -- reading, once per change ----------------------------------------------------------

    def _key(self, conversation: Conversation) -> tuple:
        # updated_at moves with every row; the count too (a store clock can stand still).
        return (conversation.updated_at, self.store.count(conversation.id))

    def transcript(self, conversation: Conversation) -> list[Row]:
        """The session's rows, read from the store only when it changed since last asked."""
        key = self._key(conversation)
        cached = self._transcripts.get(conversation.id)
        if cached is not None and cached[0] == key:
            return cached[1]
        rows = self.store.messages(conversation.id)
        self._transcripts[conversation.id] = (key, rows)
        return rows

    def conversation(self, session_id: int) -> Conversation | None:
        found = self.store.conversation(session_id)
        return found if found is not None and found.kind == KIND else None

    def title(self, session_id: int) -> str:
        found = self.conversation(session_id)
        return found.title if found is not None else ""

    def rename(self, session_id: int, title: str) -> bool:
        return self.store.rename_conversation(session_id, title)

    def delete(self, session_id: int) -> bool:
        self._transcripts.pop(session_id, None)
        self._priors.pop(session_id, None)
        return self.store.delete_conversation(session_id)

    # -- lists --------------------------------------------------------------------------------

    def sessions(self, now: float | None = None) -> list[SessionRow]:
        """Tutor sessions, most recently active first, with phase and progress (earlier
        sessions on the topic counted, as on the plan map)."""
        now = self.clock() if now is None else now
        conversations = self.store.conversations(KIND)
        out = []
        for conversation in conversations:
            rows = self.transcript(conversation)
            prior = self._prior(conversation, conversations)[0]
            out.append(
                SessionRow(
                    conversation.id, conversation.title or f"Session {conversation.id}",
                    conversation.created_at, conversation.updated_at, phase_of(rows),
                    mastery.progress_text(latest_plan(rows), rows, now, prior),
                )
            )
        return out

    def review_due(self, now: float | None = None) -> list[tuple[str, list[str]]]:
        """Steps due for review today, per topic: ``(topic, [step titles])``, the topics in
        the order of their latest session. A topic counts once, through its latest session
        (which carries the earlier ones' answers)."""
        now = self.clock() if now is None else now
        conversations = self.store.conversations(KIND)
        due: list[tuple[str, list[str]]] = []
        seen: set[str] = set()
        for conversation in conversations:  # most recently active first
            key = mastery.topic_key(conversation.title)
            if key in seen:
                continue
            seen.add(key)
            rows = self.transcript(conversation)
            prior = self._prior(conversation, conversations)[0]
            summary = mastery.summarize(latest_plan(rows), rows, now, prior)
            if summary.review:
                due.append((conversation.title or f"Session {conversation.id}", [title for _, title in summary.review]))
        return due

    def progress(self, session_id: int) -> str:
        """``"2/4 mastered · 1 to review"`` for the session header ('' before a plan)."""
        conversation = self.conversation(session_id)
        if conversation is None:
            return ""
        rows = self.transcript(conversation)
        prior = self._prior(conversation, self.store.conversations(KIND))[0]
        return mastery.progress_text(latest_plan(rows), rows, self.clock(), prior)

    def remember_open(self, session_id: int | None) -> None:
        """The session the learner has open (None: the list), so the Tutor tab reopens it."""
        if session_id is None:
            self.store.delete_state(LAST_SESSION_KEY)
        elif self.store.get_state(LAST_SESSION_KEY) != session_id:
            self.store.set_state(LAST_SESSION_KEY, session_id)

    def last_open(self) -> int | None:
        """The session the learner last had open, if it still exists."""
        session_id = self.store.get_state(LAST_SESSION_KEY)
        return session_id if isinstance(session_id, int) and self.conversation(session_id) is not None else None

    def find_session(self, ref: str) -> Conversation | None:
        """A tutor session by id, or by a title that names exactly one session."""
        ref = ref.strip()
        if ref.isdigit():
            return self.conversation(int(ref))
        key = mastery.topic_key(ref)
        matches = [c for c in self.store.conversations(KIND) if mastery.topic_key(c.title) == key]
        return matches[0] if len(matches) == 1 else None

    # -- mastery carried over from earlier sessions on the topic ---------------------------

    def _prior(self, this: Conversation, conversations: Sequence[Conversation]) -> Prior:
        key = mastery.topic_key(this.title)
        earlier = [
            conversation for conversation in conversations
            if conversation.id != this.id and conversation.created_at <= this.created_at
            and mastery.topic_key(conversation.title) == key
        ]
        keys = tuple((conversation.id, self._key(conversation)) for conversation in earlier)
        cached = self._priors.get(this.id)
        if cached is not None and cached[0] == keys:
            return cached[1]
        transcripts = [self.transcript(conversation) for conversation in earlier]
        prior = mastery.prior_mastery(transcripts), mastery.node_titles(transcripts)
        self._priors[this.id] = (keys, prior)
        return prior

    def prior_for(self, session_id: int) -> Prior:
        """Mastery carried over from earlier sessions on the topic, and their node titles."""
        this = self.store.conversation(session_id)
        if this is None:
            return {}, {}
        return self._prior(this, self.store.conversations(KIND))

    def prior_note(self, session_id: int, now: float | None = None) -> str:
        """The agents' context note on what earlier sessions established ('' when nothing)."""
        prior, titles = self.prior_for(session_id)
        return mastery.prior_knowledge_note(prior, titles, self.clock() if now is None else now)

    def review_offer(self, session_id: int, now: float | None = None) -> str:
        """One line for a new session on a studied topic ('' when nothing carries over)."""
        prior, titles = self.prior_for(session_id)
        now = self.clock() if now is None else now
        states = {node_id: mastery.mastery_state(record, now) for node_id, record in prior.items()}
        due = [titles.get(node_id, node_id) for node_id, state in states.items() if state == "review"]
        known = sum(1 for state in states.values() if state == "mastered")
        if not due and not known:
            return ""
        text = f"{known} step{'s' if known != 1 else ''} mastered carry over."
        if due:
            text += f" Due for review: {', '.join(clean_text(title) for title in due[:5])}"
            text += f" and {len(due) - 5} more." if len(due) > 5 else "."
        return text

    def summary_lines(self, session_id: int, now: float | None = None) -> list[str]:
        """The session summary (mastered, to review), counting earlier sessions on the topic."""
        rows = self.store.messages(session_id)
        prior, _ = self.prior_for(session_id)
        now = self.clock() if now is None else now
        return mastery.summary_lines(mastery.summarize(latest_plan(rows), rows, now, prior))

    def mistake_lines(self, session_id: int) -> list[str]:
        """Every quiz of the session answered wrong, "I don't know" or skipped, with the right answer."""
        return mistake_lines(mistakes(self.store.messages(session_id)))

    def export_markdown(self, session_id: int, now: float | None = None) -> str:
        """The session as Markdown: topic, plan, quiz record, mastery."""
        now = self.clock() if now is None else now
        conversation = self.store.conversation(session_id)
        if conversation is None:
            raise KeyError(session_id)
        rows = self.store.messages(session_id)
        plan = latest_plan(rows)
        prior = self.prior_for(session_id)[0]
        title = clean_text(conversation.title) or f"Session {session_id}"
        out = [
            f"# Tutor session: {title}",
            "",
            f"- Started: {stamp(conversation.created_at)}",
            f"- Last active: {stamp(conversation.updated_at)}",
            f"- Phase: {PHASE_WORDS[phase_of(rows)]}",
        ]
        progress = mastery.progress_text(plan, rows, now, prior)
        if progress:
            out.append(f"- Progress: {progress}")
        out += ["", "## Plan", ""]
        plans = ok_tool_calls(rows, PLAN_INIT)
        if plan is None or not plans:
            out.append("No plan yet.")
        else:
            statuses = mastery.map_statuses(plan, rows, now, prior)
            out.append(f"Version {len(plans)}, in teaching order:")
            out.append("")
            for number, node_id in enumerate(plan.topological_order(), start=1):
                node = plan.node(node_id)
                state = STATUS_WORDS.get(statuses[node_id], statuses[node_id])
                out.append(f"{number}. {clean_text(node.title if node else node_id)} (`{node_id}`) — {state}")
            source = arguments_of(plans[-1][1]).get("mermaid")
            if isinstance(source, str):
                out += ["", "```mermaid", clean_text(source).replace("```", "'''").strip(), "```"]
        out += ["", "## Quiz record", ""]
        answers: dict[str, tuple[dict, float]] = {}
        for _, message, part in iter_parts(rows, QUIZ_ANSWER):
            call_id = part.get("call_id")
            if role_of(message) == USER and isinstance(call_id, str):
                answers.setdefault(call_id, (dict(part), getattr(message, "created_at", 0.0)))
        titles = {node.id: node.title for node in plan.nodes} if plan is not None else {}
        record = []
        for _, call in ok_tool_calls(rows, QUIZ):
            found = answers.get(str(call.get("id")))
            if found is None:
                continue
            part, at = found
            args = arguments_of(call)
            choices = choices_of(call)
            choice = part.get("choice")
            picked = choices[choice] if isinstance(choice, int) and 0 <= choice < len(choices) else (
                "I don't know" if choice == DONT_KNOW else "?")
            right = correct_index(call)
            answer = f"{picked}" if part.get("correct") is True else (
                f"{picked} (right: {choices[right]})" if right is not None and 0 <= right < len(choices) else picked
            )
            quiz_node = args.get("node_id")
            step = titles.get(quiz_node, quiz_node) if isinstance(quiz_node, str) else "(assessment)"
            record.append(
                f"| {stamp(at)} | {_cell(step)} | {_cell(args.get('question', ''))} | {_cell(answer)} | "
                f"{'right' if part.get('correct') is True else 'wrong'} |"
            )
        if record:
            out += ["| When | Step | Question | Answer | Result |", "| --- | --- | --- | --- | --- |", *record]
        else:
            out.append("No quiz answered yet.")
        out += ["", "## Mastery", ""]
        for line in self.summary_lines(session_id, now):
            if line.startswith("  "):
                out.append(f"- {line.strip()}")
            else:
                out += [line, ""] if out[-1] == "" else ["", line, ""]
        return "\n".join(out) + "\n"


def _cell(text: object) -> str:
    """Text safe inside a Markdown table cell."""
    return " ".join(clean_text(text).split()).replace("|", "\\|")
