"""The Chief's persona (its system prompt), seen and changed from the app.

Textual-free. A change applies from the next turn (the context is built from
``config.chief.system_prompt`` at every turn), is saved to config.toml as
``chief.system_prompt``, and the room records it as a ``persona`` system line, so a
change of tone later in the room has its reason in plain sight.
"""

from __future__ import annotations

from keeltui.chief.persona import check_persona, persona_line
from keeltui.chief.turn_kinds import PERSONA, PERSONA_SOURCE
from keeltui.config import Config
from keeltui.services.model_choice import ChoiceError, save
from keeltui.store import Store


class Persona:
    def __init__(self, config: Config, store: Store) -> None:
        self.config = config
        self.store = store

    @property
    def text(self) -> str:
        return self.config.chief.system_prompt

    def change(self, text: str) -> str | None:
        """Save ``text`` as the persona and record the change in the room.

        Returns the line that says so; None when nothing changed. Raises
        :class:`ChoiceError` (one line) for an empty or oversized text or a file that
        cannot be written (then nothing changed).
        """
        try:
            text = check_persona(text)
        except ValueError as exc:
            raise ChoiceError(str(exc)) from None
        if text == self.text:
            return None
        written = save(self.config, {"chief.system_prompt": text})
        self.config.chief.system_prompt = text
        self.store.add_message(self.store.chief_id(), "assistant", persona_line(text),
                               source=PERSONA_SOURCE, turn_kind=PERSONA)
        return f"Persona saved in {written}; it applies from the next turn."
