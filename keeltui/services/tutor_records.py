"""The learner's records: sessions listed, exported, renamed and deleted; mastery carried over.

Textual-free, shared by the tutor pane and ``keeltui tutor …``: it reads the store and
hands the transcripts to the pure core (:mod:`keeltui.tutor.mastery`, ``phases``,
``session``), and words the result as list rows or Markdown.
"""

from __future__ import annotations

import time

from keeltui.store import Conversation, Store
from keeltui.textsafe import clean_text
from keeltui.tutor import mastery
from keeltui.tutor.phases import latest_plan, ok_tool_calls, phase_of
from keeltui.tutor.session import choices_of, correct_index
from keeltui.tutor.session_rows import SessionRow, stamp
from keeltui.tutor.transcript import PLAN_INIT, QUIZ, QUIZ_ANSWER, USER, arguments_of, iter_parts, role_of

KIND = "tutor"
STATUS_WORDS = {"current": "current step", "mastered": "mastered", "review": "to review",
                "visited": "seen, not answered", "pending": "not yet"}


def sessions(store: Store, now: float | None = None) -> list[SessionRow]:
    """Tutor sessions, most recently active first, with phase and progress."""
    now = time.time() if now is None else now
    out = []
    for conversation in store.conversations(KIND):
        rows = store.messages(conversation.id)
        plan = latest_plan(rows)
        out.append(
            SessionRow(
                conversation.id, conversation.title or f"Session {conversation.id}",
                conversation.created_at, conversation.updated_at, phase_of(rows),
                mastery.progress_text(plan, rows, now),
            )
        )
    return out


def list_line(row: SessionRow) -> str:
    """``12  2026-11-30 21:04  teach  1/3 mastered  muscle protein``, for the terminal."""
    progress = row.progress or "—"
    return f"{row.id:>4}  {stamp(row.updated_at)}  {row.phase:<5}  {progress:<28}  {clean_text(row.title)}"


def earlier_sessions(store: Store, session_id: int) -> list[Conversation]:
    """Other tutor sessions on the same topic, started before this one."""
    this = store.conversation(session_id)
    if this is None:
        return []
    key = mastery.topic_key(this.title)
    return [
        conversation
        for conversation in store.conversations(KIND)
        if conversation.id != session_id
        and conversation.created_at <= this.created_at
        and mastery.topic_key(conversation.title) == key
    ]


def prior_for(store: Store, session_id: int) -> tuple[dict[str, mastery.NodeMastery], dict[str, str]]:
    """Mastery carried over from earlier sessions on the topic, and their node titles."""
    transcripts = [store.messages(conversation.id) for conversation in earlier_sessions(store, session_id)]
    return mastery.prior_mastery(transcripts), mastery.node_titles(transcripts)


def prior_note(store: Store, session_id: int, now: float | None = None) -> str:
    """The agents' context note on what earlier sessions established ('' when nothing)."""
    prior, titles = prior_for(store, session_id)
    return mastery.prior_knowledge_note(prior, titles, time.time() if now is None else now)


def review_offer(store: Store, session_id: int, now: float | None = None) -> str:
    """One line for a new session on a studied topic ('' when nothing carries over)."""
    prior, titles = prior_for(store, session_id)
    now = time.time() if now is None else now
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


def summary_lines(store: Store, session_id: int, now: float | None = None) -> list[str]:
    """The session summary (mastered, to review), counting earlier sessions on the topic."""
    rows = store.messages(session_id)
    prior, _ = prior_for(store, session_id)
    now = time.time() if now is None else now
    return mastery.summary_lines(mastery.summarize(latest_plan(rows), rows, now, prior))


def find_session(store: Store, ref: str) -> Conversation | None:
    """A tutor session by id, or by a title that names exactly one session."""
    ref = ref.strip()
    if ref.isdigit():
        found = store.conversation(int(ref))
        return found if found is not None and found.kind == KIND else None
    key = mastery.topic_key(ref)
    matches = [c for c in store.conversations(KIND) if mastery.topic_key(c.title) == key]
    return matches[0] if len(matches) == 1 else None


def _cell(text: object) -> str:
    """Text safe inside a Markdown table cell."""
    return " ".join(clean_text(text).split()).replace("|", "\\|")


def export_markdown(store: Store, session_id: int, now: float | None = None) -> str:
    """The session as Markdown: topic, plan, quiz record, mastery."""
    now = time.time() if now is None else now
    conversation = store.conversation(session_id)
    if conversation is None:
        raise KeyError(session_id)
    rows = store.messages(session_id)
    plan = latest_plan(rows)
    title = clean_text(conversation.title) or f"Session {session_id}"
    out = [
        f"# Tutor session: {title}",
        "",
        f"- Started: {stamp(conversation.created_at)}",
        f"- Last active: {stamp(conversation.updated_at)}",
        f"- Phase: {phase_of(rows)}",
    ]
    progress = mastery.progress_text(plan, rows, now)
    if progress:
        out.append(f"- Progress: {progress}")
    out += ["", "## Plan", ""]
    plans = ok_tool_calls(rows, PLAN_INIT)
    if plan is None or not plans:
        out.append("No plan yet.")
    else:
        statuses = mastery.map_statuses(plan, rows, now, prior_for(store, session_id)[0])
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
        picked = choices[choice] if isinstance(choice, int) and 0 <= choice < len(choices) else "?"
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
    for line in summary_lines(store, session_id, now):
        if line.startswith("  "):
            out.append(f"- {line.strip()}")
        else:
            out += [line, ""] if out[-1] == "" else ["", line, ""]
    return "\n".join(out) + "\n"
