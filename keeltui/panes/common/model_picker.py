"""The model picker: a role, and a model the endpoint lists (or a typed name).

Handed what it shows (the roles, the models in use, what ``/v1/models`` listed, or why
it listed nothing); dismissed with ``(role, name)``, which the app saves. Escape cancels.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Select, Static

from keeltui.services.model_roles import CHAT, LABELS, check_model_name, offered
from keeltui.panes.ambient.modals import _MODAL_CSS
from keeltui.text.textsafe import one_line


class ModelPicker(ModalScreen[tuple[str, str] | None]):
    DEFAULT_CSS = _MODAL_CSS.format(name="ModelPicker") + """
    ModelPicker > Vertical { padding: 0 2; }
    ModelPicker Label { margin-top: 0; }
    ModelPicker OptionList { height: auto; max-height: 8; }
    ModelPicker .-error { margin-top: 0; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: dict[str, str], listed: list[str], problem: str | None, base_url: str) -> None:
        super().__init__()
        self._current = current
        self._listed = listed
        self._problem = problem
        self._base_url = base_url

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(one_line(f"Models at {self._base_url}", 68), classes="-title", markup=False)
            yield Label("Role")
            yield Select([(f"{label}: {self._current.get(role, '')}", role) for role, label in LABELS.items()],
                         value=CHAT, allow_blank=False, id="role")
            names = offered(self._listed, self._current.get(CHAT, ""))
            if self._listed:
                yield Label("Model (Enter uses it)")
                models = OptionList(*names, id="models")
                # Highlighted from the start: a key pressed as the dialog appears moves from here.
                current = self._current.get(CHAT, "")
                models.highlighted = names.index(current) if current in names else 0
                yield models
            yield Label("Or type a model's name")
            yield Input(placeholder="e.g. qwen3:8b", id="typed")
            yield Static("", id="error", classes="-error", markup=False)
            hint = ("↑↓ choose · Enter uses it · Tab moves · Escape cancels" if self._listed else
                    f"The endpoint lists no models ({self._problem or 'none listed'}): type the name, Enter uses it.")
            yield Static(one_line(hint, 200), id="hint", classes="-hint", markup=False)

    def on_mount(self) -> None:
        if self._listed:
            self.query_one("#models", OptionList).focus()
        else:
            self.query_one("#typed", Input).focus()

    @property
    def role(self) -> str:
        value = self.query_one("#role", Select).value
        return value if isinstance(value, str) else CHAT

    def _highlight_current(self, role: str) -> None:
        models = self.query("#models")
        if not models:
            return
        option_list = models.first(OptionList)
        names = [str(option_list.get_option_at_index(i).prompt) for i in range(option_list.option_count)]
        current = self._current.get(role, "")
        if current in names:
            option_list.highlighted = names.index(current)

    @on(Select.Changed, "#role")
    def _role_changed(self, event: Select.Changed) -> None:
        event.stop()
        self._highlight_current(self.role)

    @on(OptionList.OptionSelected, "#models")
    def _model_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss((self.role, str(event.option.prompt)))

    @on(Input.Submitted, "#typed")
    def _typed(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            name = check_model_name(event.value)
        except ValueError as exc:
            self.query_one("#error", Static).update(one_line(str(exc), 200))
            return
        self.dismiss((self.role, name))

    def action_cancel(self) -> None:
        self.dismiss(None)
