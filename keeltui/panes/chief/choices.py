"""The model per role and the Chief's persona, chosen from the app (services/model_choice.py,
services/persona.py): the model picker and the persona editor, opened over the room."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from keeltui.panes.common.events import ModelChanged, StatusMessage
from keeltui.values import ChoiceError, StoreError

if TYPE_CHECKING:
    from keeltui.chief_view import ChiefRoom


class ModelsListed(Message):
    """What the endpoint's /v1/models listed (or why nothing): the picker opens with it."""

    def __init__(self, listed: list[str], problem: str | None) -> None:
        super().__init__()
        self.listed, self.problem = listed, problem


class Choices:
    def __init__(self, room: ChiefRoom) -> None:
        self.room = room

    def list_models(self) -> None:
        """The model picker: listed off the UI thread first, then shown."""
        self.room.run_worker(self._list(), name="list-models", group="models", exclusive=True, exit_on_error=False)

    async def _list(self) -> None:
        listed, problem = await self.room.needed_parts.models().available()
        self.room.post_message(ModelsListed(listed, problem))

    def listed(self, message: ModelsListed) -> None:
        from keeltui.panes.common.model_picker import ModelPicker

        app, parts = self.room.app, self.room.needed_parts
        if isinstance(app.screen, ModelPicker):
            return
        picker = ModelPicker(parts.models().current(), message.listed, message.problem, parts.base_url)
        app.push_screen(picker, self._model_chosen)

    def _model_chosen(self, choice: tuple[str, str] | None) -> None:
        if choice is None:
            return
        try:
            self.room.app.notify(self.room.needed_parts.models().choose(*choice), timeout=4)
        except ChoiceError as exc:
            self.room.post_message(StatusMessage(str(exc)))
        self.room.post_message(ModelChanged())

    def edit_persona(self) -> None:
        from keeltui.panes.chief.persona_editor import PersonaEditor

        app = self.room.app
        if isinstance(app.screen, PersonaEditor):
            return
        if self.room.quiet:
            app.notify("Quiet Mode is on: the Chief's persona stays hidden until it is turned off.", timeout=3)
            return
        app.push_screen(PersonaEditor(self.room.needed_parts.persona().text), self._persona_chosen)

    def _persona_chosen(self, text: str | None) -> None:
        if text is None:
            return
        try:
            line = self.room.needed_parts.persona().change(text)
        except ChoiceError as exc:
            self.room.post_message(StatusMessage(str(exc)))
            return
        except StoreError as exc:  # saved and applied, but the room's line could not be written: said
            self.room.post_message(StatusMessage(str(exc)))
            return
        if line:
            self.room.app.notify(line, timeout=4)
            self.room.refresh_from_store()
