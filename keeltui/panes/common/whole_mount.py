"""New widgets appear together and whole: no frame is drawn while a batch is still mounting.

Widgets mounted together are placed as each finishes mounting. A plain line (a reply) is
ready at once; a card that composes its parts (a tutor job's result: a Collapsible with its
title and body) is placed only after them. A frame drawn in between showed the reply below
with the card missing, and the card then pushed the reply down a frame later: the tutor's
log jumped when a job's result landed with the teacher's answer (1 run in 25 of
tests/pilot/test_tutor_job_tree.py, alone on an idle machine).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

from textual.app import App

LONGEST_HOLD_SECS = 0.5
"""Frames are held at most this long: a mount that never ends (its widgets removed before
they mounted) must not freeze the screen. On a machine that slow, the frames go on as before."""


def appear_whole(app: App, mounting: Awaitable[object]) -> None:
    """Hold ``app``'s frames until ``mounting`` (what ``mount``/``mount_all`` returned) is done.

    Called right after the mount, before the loop can draw a frame; the frames are let go
    however the wait ends (mounted, failed, cancelled at exit, or after LONGEST_HOLD_SECS)."""
    batch = app.batch_update()
    batch.__enter__()

    async def mounted() -> None:
        await asyncio.wait_for(_awaited(mounting), LONGEST_HOLD_SECS)

    def let_go(task: asyncio.Future) -> None:
        if not task.cancelled():
            task.exception()  # a failed or slow mount is not the loop's to report
        batch.__exit__(None, None, None)

    asyncio.ensure_future(mounted()).add_done_callback(let_go)


async def _awaited(mounting: Awaitable[object]) -> None:
    await mounting
