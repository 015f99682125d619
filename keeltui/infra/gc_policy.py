"""Short collector pauses at start-up, and a heap that stays flat for months.

Python's full collection scans every tracked object not frozen. Start-up makes a few
hundred thousand objects that live as long as the app (Textual, the room, the brain
client): they are frozen once, so full passes do not scan them again. What is made later
is not frozen: a room's rendered lines (a Textual ``Strip`` carries seven caches) come
and go, and a cycle among them must be freed by the next full pass. Freezing what
survived each full pass as well (tried: shorter pauses) kept such cycles until a thaw:
the week-long soak grew 23 MB instead of 5 MB (bench/RESULTS.md, "A week left open").
Nothing thaws them later either: a thaw re-freezes what lives then, the same leak slower.
"""

from __future__ import annotations

import gc

def freeze_start_up() -> None:
    """Freeze what start-up made and lives on (once the brain client is loaded)."""
    gc.freeze()


def hold_for_start() -> None:
    """No collection while start-up builds what lives as long as the app.

    Importing Textual and the room, composing and styling the first frame make a few hundred
    thousand objects, nearly all of them for good: the collector ran ~130 times over them
    before the first frame (one a full pass), all of it time before the room is on screen.
    :func:`start_done` turns it back on once the first frame is drawn.
    """
    gc.disable()


def start_done() -> None:
    """The first frame is on screen: collect again (see :func:`hold_for_start`).

    One pass now over what start-up made frees its garbage cycles before the brain client's
    arrival freezes the heap (:func:`freeze_start_up`): frozen, they would stay for good
    (~1.5 MB more at the peak after a long reply). One pass, not the ~130 it replaces.
    """
    gc.enable()
    gc.collect()
