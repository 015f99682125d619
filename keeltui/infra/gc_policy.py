"""Short collector pauses at start-up, and a heap that stays flat for months.

Python's full collection scans every tracked object not frozen. Start-up makes a few
hundred thousand objects that live as long as the app (Textual, the room, the brain
client): they are frozen once, so full passes do not scan them again. What is made later
is not frozen: a room's rendered lines (a Textual ``Strip`` carries seven caches) come
and go, and a cycle among them must be freed by the next full pass. Freezing what
survived each full pass as well (tried: shorter pauses) kept such cycles until a thaw:
the week-long soak grew 23 MB instead of 5 MB (bench/RESULTS.md, "A week left open").
Nothing thaws them later either: a thaw re-freezes what lives then, the same leak slower.

The collector is held (off) while start-up builds: from ``keeltui`` starting to the first
frame, and while the brain client loads after it. Holds nest; it is on again when the
last one is let go.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_holds = 0


def _hold() -> None:
    global _holds
    _holds += 1
    gc.disable()


def _let_go() -> None:
    global _holds
    _holds = max(0, _holds - 1)
    if not _holds:
        gc.enable()


def freeze_start_up() -> None:
    """Freeze what start-up made and lives on (once the brain client is loaded)."""
    gc.freeze()


def hold_for_start() -> None:
    """No collection while start-up builds what lives as long as the app.

    Importing Textual and the room, composing and styling the first frame make a few hundred
    thousand objects, nearly all of them for good: the collector ran ~130 times over them
    before the first frame (one a full pass), all of it time before the room is on screen.
    :func:`start_done` lets go of it once the first frame is drawn.
    """
    _hold()


def start_done() -> None:
    """The first frame is on screen: collect again (see :func:`hold_for_start`).

    One pass now over what start-up made frees its garbage cycles before the brain client's
    arrival freezes the heap (:func:`freeze_start_up`): frozen, they would stay for good
    (~1.5 MB more at the peak after a long reply). One pass, not the ~130 it replaces.
    """
    gc.collect()
    _let_go()


@contextmanager
def brain_client_loading() -> Iterator[None]:
    """No collection while the brain client loads, then freeze the heap (once).

    Importing ``openai`` makes ~95 000 objects that live for good. Collected as they came,
    the full passes among them scanned the whole unfrozen heap: 30-45 ms each, several,
    every one a frame the room could not draw (the client loads on a thread, the passes
    hold the interpreter), while the owner may already be typing or paging. Held, they are
    looked at once, by one pass over what was made since the first frame's (~20-25 ms): the
    import and the room's work meanwhile (Markdown drawn, the tutor mounted) leave cycles
    (~700 objects at a start), which a freeze without it would keep for good.

    Once the heap is frozen the client is loaded: a later check (an offline brain is asked
    again every 30 s) holds nothing. Held, it kept the collector off across an await: the
    loop went on with the keys (paging, typing) and all they made stayed uncollected until
    the check's thread answered."""
    if gc.get_freeze_count():
        yield
        return
    _hold()
    try:
        yield
    finally:
        if not gc.get_freeze_count():
            gc.collect(0)  # all made since the first frame's pass: nothing was collected meanwhile
            freeze_start_up()
        _let_go()
