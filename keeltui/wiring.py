"""The composition root: Config → Store → Brain → the services, built once.

The app, the line-mode chat (``keeltui chat``) and ``keeltui doctor`` take their parts
from here; no widget and no command builds its own Store, Brain or turns object.
The heavy parts are imported when first asked for, so light commands (``status``,
``report``) that only need the store never load the model client or the tutor.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

from keeltui.config import Config

if TYPE_CHECKING:
    from keeltui.ambient.ports import Notifier
    from keeltui.brain import Brain
    from keeltui.services.ambient import AmbientService
    from keeltui.services.chief_turns import ChiefTurns
    from keeltui.services.model_choice import ModelChoice
    from keeltui.services.persona import Persona
    from keeltui.services.tutor_job_runner import TutorJobs
    from keeltui.services.tutor_records import TutorRecords
    from keeltui.services.tutor_turns import TutorTurns
    from keeltui.store import Store


def open_store(config: Config, *, readonly: bool = False) -> Store:
    """The store named by the config (raises ``StoreError`` with one line naming the file);
    ``readonly`` for commands that only read (they never change the file)."""
    from keeltui.store import Store

    return Store(config.database_path(), readonly=readonly)


def make_brain(config: Config) -> Brain:
    from keeltui.brain import Brain

    return Brain(config.brain, config.api_key)


class Services:
    """Everything a front end needs, sharing one store and one brain."""

    def __init__(
        self, config: Config, store: Store, brain: Brain | None = None, *,
        clock: Callable[[], float] = time.time, notifier: Notifier | None = None,
    ) -> None:
        self.config = config
        self.store = store
        if brain is not None:
            self.brain = brain
        self.clock = clock
        self.notifier = notifier  # None: the desktop's own, found on the first toast

    @cached_property
    def chief(self) -> ChiefTurns:
        from keeltui.services.chief_turns import ChiefTurns

        return ChiefTurns(self.store, self.brain, self.config)

    @cached_property
    def tutor(self) -> TutorTurns:
        # Built on first use: the tutor's modules are not needed for the room's first frame.
        from keeltui.services.tutor_turns import TutorTurns

        return TutorTurns(self.store, self.brain, self.config, records=self.tutor_records)

    @cached_property
    def tutor_records(self) -> TutorRecords:
        """The learner's records (list, summary, rename, delete), read once per change."""
        from keeltui.services.tutor_records import TutorRecords

        return TutorRecords(self.store, clock=self.clock)

    @cached_property
    def tutor_jobs(self) -> TutorJobs:
        """The teacher's background jobs (research, demo, visual), with their own model calls."""
        from keeltui.services.tutor_job_runner import TutorJobs

        return TutorJobs(self.store, self.brain, self.config)

    @cached_property
    def ambient(self) -> AmbientService:
        """The drift sentinel and focus coach with what feeds them (the app only)."""
        from keeltui.services.ambient import AmbientService

        return AmbientService(self.config, self.store, self.brain, clock=self.clock, notifier=self.notifier)

    @cached_property
    def models(self) -> ModelChoice:
        """The model per role, listed by the endpoint, switched live and saved (the app's picker)."""
        from keeltui.services.model_choice import ModelChoice

        return ModelChoice(self.config, self.brain)

    @cached_property
    def brain(self) -> Brain:
        """Built on first use: the app's first frame needs neither it nor its module."""
        return make_brain(self.config)

    @cached_property
    def persona(self) -> Persona:
        """The Chief's system prompt, changed from the app: saved, recorded in the room."""
        from keeltui.services.persona import Persona

        return Persona(self.config, self.store)

    async def aclose(self) -> None:
        await self.brain.aclose()


def wire(
    config: Config, store: Store | None = None, brain: Brain | None = None, *,
    clock: Callable[[], float] = time.time, notifier: Notifier | None = None,
) -> Services:
    """Build the services once; a caller that already holds a store or brain passes it in
    (tests pass a clock and a notifier that records the ambient toasts)."""
    return Services(config, store if store is not None else open_store(config), brain, clock=clock, notifier=notifier)
