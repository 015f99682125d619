"""Plain value types that cross layers: the brain makes them, services and widgets read them.

Pure (no model client, no store): a widget may name them without reaching the brain.
"""

from __future__ import annotations

from keeltui.infra.records import record


@record(frozen=True)
class Usage:
    prompt_tokens: int
    completion_tokens: int
    context_window: int
    estimated: bool = False

    @property
    def total(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def fraction(self) -> float:
        return self.total / self.context_window if self.context_window else 0.0

    def as_dict(self) -> dict:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "context_window": self.context_window,
            "fraction": round(self.fraction, 4),
            "estimated": self.estimated,
        }


class StoreError(Exception):
    """The database cannot be used; the message names the file.

    Raised by keeltui/store.py (which re-exports it); defined here so a widget handed a
    service can catch it without importing the store."""


class StoreWriteError(StoreError):
    """A write failed (disk full, read-only, locked past the busy timeout); nothing was written."""


class StoreDamaged(StoreError):
    """The file is partly corrupt; the message says how to recover it."""


class ChoiceError(Exception):
    """A choice that was refused or could not be saved; ``str()`` is one line."""
