"""Whether the brain answers and the database is whole.

The brain is checked after the first frame, asked again every ``BRAIN_REPROBE_SECS``
while it is offline, and said offline once in the room and on the status line. The
database file is checked once (quick_check); a problem stays on the status line.

A part of KeelApp (its base). A Chief reply (``BrainAnswered``) and the drift judge
(``JudgeFailed``) report what they found; the ambient controller is handed the result.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING
from collections.abc import Iterator

from textual.app import App
from textual.message import Message

from keeltui.infra import gc_policy
from keeltui.panes.common.events import BrainAnswered, BrainChecked, JudgeFailed
from keeltui.store import Store
from keeltui.values import StoreError

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.timer import Timer

    from keeltui.brain import Brain
    from keeltui.chief_view import ChiefRoom
    from keeltui.config import Config
    from keeltui.panes.ambient.controller import AmbientController
    from keeltui.panes.common.status_line import StatusLine

BRAIN_NOTICE_KEY = "brain_offline_notice"
BRAIN_REPROBE_SECS = 30
BRAIN_OFFLINE = "brain offline"


def offline_notice(base_url: str, problem: str) -> str:
    return (
        f"The brain is offline: {problem}. keeltui keeps working — reports land, the "
        f"sentinel uses its local judge. To connect, start a server at {base_url} (e.g. "
        "`ollama serve`) or set brain.base_url and brain.model in config.toml "
        "(or KEEL_BRAIN_BASE_URL / KEEL_BRAIN_MODEL); `keeltui doctor` checks it."
    )


class Health(App):
    brain_online: bool | None = None
    _reprobe: Timer | None = None
    database_problem = ""
    """A damaged file (quick_check) or a write that failed: held on the status line,
    which other lines give way to, until a write succeeds again."""

    if TYPE_CHECKING:  # what KeelApp provides
        config: Config
        store: Store
        ambient: AmbientController | None

        @property
        def brain(self) -> Brain: ...

        @property
        def ui_alive(self) -> bool: ...

        @property
        def status_line(self) -> StatusLine: ...

        @property
        def room(self) -> ChiefRoom: ...

    def crash_renderable(self, error: BaseException | None) -> RenderableType:
        """An unexpected error ends the app with one line: Textual's own traceback
        shows local variables, which hold the owner's text."""
        from rich.text import Text

        from keeltui.infra.crash import crash_line

        return Text(crash_line(error))

    def _database_check(self) -> None:
        problem = Store.quick_check_file(self.store.path)
        if problem:
            self.post_message(self.DatabaseDamaged(problem))

    class DatabaseDamaged(Message):
        """quick_check failed: the line stays until the app ends (other lines give way to it)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def on_health_database_damaged(self, message: Health.DatabaseDamaged) -> None:
        self.database_problem = self.status_line.message = message.text

    def _check_brain(self) -> None:
        self.run_worker(self._brain_check_worker(), name="brain-check", group="brain", exclusive=True, exit_on_error=False)

    async def _brain_check_worker(self) -> None:
        import asyncio

        from keeltui.brain import BrainError, BrainHTTPError

        # What start-up built (Textual, the room, the brain client) lives as long as the
        # app: frozen once the client is there, out of the collector's full passes, which
        # scanned it all (0.1 s and more, a PageUp's frame late); later objects are not (see
        # gc_policy). (No gc.collect() first: a full pass here held a first message ~0.3 s
        # in the bench.)
        with gc_policy.brain_client_loading():
            await asyncio.to_thread(self.brain.warm)
        problem = None
        try:
            await self.brain.list_models()
        except BrainHTTPError as exc:
            # Some servers have no /models; an HTTP answer still means something listens.
            if exc.status >= 500 or exc.status in (401, 403):
                problem = str(exc)
        except BrainError as exc:
            problem = str(exc)
        self.post_message(BrainChecked(problem))

    def on_brain_checked(self, message: BrainChecked) -> None:
        if not self.ui_alive:
            return
        self.set_brain_online(message.problem is None, message.problem)
        # Clear only the brain's own notice: a check that ends late (a loaded machine)
        # must not wipe an unrelated failure reported meanwhile.
        if message.problem is None and self.status_line.message.startswith(BRAIN_OFFLINE):
                self.status_line.message = self.database_problem

    def on_brain_answered(self, message: BrainAnswered) -> None:
        """A Chief reply ended: a brain that is gone is offline; one that answered, online."""
        if not self.ui_alive:
            return
        if message.problem is not None:
            if self.brain_online is not False:
                self.set_brain_online(False, message.problem)
        elif self.brain_online is not True:
            self.set_brain_online(True)
            self.status_line.message = self.database_problem

    def on_judge_failed(self, message: JudgeFailed) -> None:
        if self.ui_alive and self.brain_online is not False:
            # No room notice: a judge model that answers badly while the chat works
            # would otherwise add one every re-probe cycle. The status line says it.
            self.set_brain_online(False, f"drift judge: {message.problem}", notice=False)

    def set_brain_online(self, online: bool, problem: str | None = None, *, notice: bool = True) -> None:
        """Say once, as a notice, that the brain is offline; forget it once it answers."""
        with self._store_guarded():  # the notice could not be stored: the status line says why
            self._set_brain_online(online, problem, notice=notice)

    def _set_brain_online(self, online: bool, problem: str | None, *, notice: bool) -> None:
        self.brain_online = online
        if self.ambient is not None:
            self.ambient.brain_online = online  # attributes down: it follows brain ↔ local judge
        if not online and self._reprobe is None:
            # However it was found offline (start-up, a failed Chief turn, the drift
            # judge), it is asked again on the same schedule until it answers.
            self._reprobe = self.set_interval(BRAIN_REPROBE_SECS, self._check_brain)
        if online:
            if self._reprobe is not None:
                self._reprobe.stop()
                self._reprobe = None
            if self.store.get_state(BRAIN_NOTICE_KEY):
                self.store.delete_state(BRAIN_NOTICE_KEY)
            return
        if notice and self.store.get_state(BRAIN_NOTICE_KEY) != self.config.brain.base_url:
            self.store.set_state(BRAIN_NOTICE_KEY, self.config.brain.base_url)
            self.store.add_notice(offline_notice(self.config.brain.base_url, problem or "no answer"))
            self.room.refresh_from_store()
        self.status_line.message = self.database_problem or (f"{BRAIN_OFFLINE}: {problem}" if problem else BRAIN_OFFLINE)

    def _store_failed(self, exc: StoreError) -> None:
        """A store read or write failed: its one line (naming the file) goes on the status
        line, unless a database problem is already held there (other lines give way)."""
        self.status_line.message = self.database_problem or str(exc)

    @contextmanager
    def _store_guarded(self) -> Iterator[None]:
        """Run a block that reads or writes the store; a failure ends the block and says
        why on the status line. What is on screen stays; the app keeps running."""
        try:
            yield
        except StoreError as exc:
            self._store_failed(exc)
