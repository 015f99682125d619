"""A tiny script builder for tutor transcripts, shared by the tutor unit tests."""

from __future__ import annotations

from typing import Any

from keeltui.tutor import transcript as tx

PLAN = """graph TD
  mps_translation[MPS translation] --> net_balance[Net protein balance] --> per_meal[Protein per meal]
"""


class Script:
    """Builds a transcript turn by turn; every call appends and returns ``self``."""

    def __init__(self) -> None:
        self.messages: list[tx.Message] = []
        self._next = 0

    def _id(self) -> str:
        self._next += 1
        return f"call_{self._next}"

    def user(self, text: str = "hi", *parts: dict[str, Any]) -> Script:
        self.messages.append(tx.user(text, *parts))
        return self

    def say(self, text: str) -> Script:
        self.messages.append(tx.assistant(text))
        return self

    def call(self, name: str, arguments: dict[str, Any], ok: bool | None = True) -> str:
        """Append an assistant tool call and (unless ok is None) its result; return the id."""
        call_id = self._id()
        self.messages.append(tx.assistant("", tx.tool_call(call_id, name, arguments)))
        if ok is not None:
            self.messages.append(tx.tool(call_id, name, ok, {"status": "ok"} if ok else "refused"))
        return call_id

    # Convenience steps for a typical session.

    def quiz(self, node_id: str | None = None, ok: bool = True, answer: bool = True) -> Script:
        arguments: dict[str, Any] = {"question": "Q?", "choices": ["x", "y"], "correct": 0}
        if node_id is not None:
            arguments["node_id"] = node_id
        call_id = self.call("quiz", arguments, ok=ok)
        if ok and answer:
            self.user("", tx.quiz_answer(call_id, 0, True))
        return self

    def ask(self, answer: str | None = "my answer") -> Script:
        call_id = self.call("ask", {"question": "What do you know?"})
        if answer is not None:
            self.user(answer, tx.ask_answer(call_id))
        return self

    def probe_done(self, ok: bool = True) -> Script:
        self.call("probe_done", {"strands": ["knows protein"], "edge": "timing"}, ok=ok)
        return self

    def plan_init(self, mermaid: str = PLAN, ok: bool = True) -> Script:
        self.call("plan_init", {"mermaid": mermaid}, ok=ok)
        return self

    def accept(self, note: str = "Looks good") -> Script:
        return self.user(note, tx.plan_accepted(1))

    def decline(self, note: str = "Too long") -> Script:
        return self.user(note, tx.plan_declined())

    def taught(self) -> Script:
        """A session through probe, plan and acceptance, ready to teach."""
        return self.user("teach me protein").ask().probe_done().plan_init().accept()
