"""What the composition root hands the Chief room: its services, never built by a widget.

The turns, the model choice and the persona are built on first use (``Services`` caches
them), so they come as callables: the room's first frame builds none of them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from keeltui.infra.records import record
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from keeltui.services.chief_turns import ChiefTurns
    from keeltui.services.model_choice import ModelChoice
    from keeltui.services.persona import Persona
    from keeltui.services.room_rows import StoreRows


@record(frozen=True)
class ChiefParts:
    rows: StoreRows
    turns: Callable[[], ChiefTurns]
    models: Callable[[], ModelChoice]
    persona: Callable[[], Persona]
    base_url: str
    """The endpoint the model picker names."""
    clock: Callable[[], float] = time.time
    """Now, as the store and the services have it: the day lines' "Today" and "Yesterday"."""
