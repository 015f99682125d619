"""Choose the model per role from the app: listed by the endpoint, switched live, saved.

Textual-free. The brain reads ``config.brain`` at every call, so a choice applies from
the next call without a restart; it is saved to config.toml under ``[brain.models]``
(keeltui/adapters/config_file.py keeps the file's comments and mode).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from keeltui.adapters.config_file import ConfigWriteError, write_settings
from keeltui.brain import Brain, BrainError
from keeltui.config import Config
from keeltui.services.model_roles import LABELS, check_model_name, config_key
from keeltui.infra.paths import default_config_path
from keeltui.values import ChoiceError  # re-exported: the services raise it, widgets catch it


LIST_TIMEOUT_SECS = 10.0
"""The picker waits this long for the list, then opens to a typed name: an endpoint that
hangs must not hold the dialog for ``brain.timeout_secs``."""




def config_path(config: Config) -> Path:
    """The file the app saves into: the one it read, else the platform's default path."""
    return Path(config.source_path) if config.source_path else default_config_path()


def save(config: Config, values: dict[str, object]) -> Path:
    """Write ``values`` to the config file; the file it read from then is that file."""
    try:
        written = write_settings(config_path(config), values)
    except ConfigWriteError as exc:
        raise ChoiceError(str(exc)) from None
    config.source_path = config.source_path or str(written)
    return written


class ModelChoice:
    def __init__(self, config: Config, brain: Brain) -> None:
        self.config = config
        self.brain = brain

    def current(self) -> dict[str, str]:
        """The model each role uses now (an empty role shows brain.model)."""
        return {role: self.config.brain.model_for(role) for role in LABELS}

    async def available(self) -> tuple[list[str], str | None]:
        """The endpoint's models, or ``([], problem)`` when it lists none (the name is typed then)."""
        # The client is built (openai imported) first, off the event loop: the time limit is
        # for the endpoint's answer, not for an import on a loaded machine.
        await asyncio.to_thread(self.brain.warm)
        try:
            return await asyncio.wait_for(self.brain.list_models(), LIST_TIMEOUT_SECS), None
        except BrainError as exc:
            return [], str(exc)
        except TimeoutError:
            return [], f"no list from {self.brain.base_url} within {LIST_TIMEOUT_SECS:g} s"

    def choose(self, role: str, name: str) -> str:
        """Use ``name`` for ``role`` from the next call and save it; the line that says so."""
        try:
            key = config_key(role)
            name = check_model_name(name)
        except ValueError as exc:
            raise ChoiceError(str(exc)) from None
        written = save(self.config, {key: name})
        setattr(self.config.brain.models, role, name)
        return f"{LABELS[role].capitalize()} model: {name} (saved in {written})"
