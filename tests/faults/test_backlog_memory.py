"""A turn after a long quiet stretch of reports: its memory does not grow with the backlog.

Seen in the week soak (bench/RESULTS.md): with typed Chief turns between batches of reports,
the app's RSS went from 87 MB after the first hour to 165 MB at the end. Each turn read
every row after the latest summary, once for the context and again for each of the fold's
steps (and each step's fitting tried the whole backlog's request several times), so a
turn after 50 000 reports held them all at once; glibc keeps such a high-water mark.
The context and each fold step now read pages of the backlog, oldest first for the fold,
the newest for the context: what a turn holds is bounded, however long the quiet was.
"""

from __future__ import annotations

import tracemalloc

from keeltui.chief import context as chief_context
from tests.faults.test_oversized import _turns, windowed

BACKLOG = 12_000


def _backlog(turns) -> None:
    turns.store.add_message(turns.room_id, "assistant", "[summary] so far: a first question.",
                            source="compaction", turn_kind="summary",
                            parts=chief_context.summary_parts(turns.store.tail(turns.room_id, 1)[0].id))
    with turns.store.transaction() as conn:
        conn.executemany(
            "INSERT INTO messages (conversation_id, role, content, status, turn_kind, source, created_at) "
            "VALUES (?, 'assistant', ?, 'complete', 'report', 'cron:backup', 0)",
            ((turns.room_id, f"report {i}: the nightly backup finished, 41 GB, no errors " * 3) for i in range(BACKLOG)),
        )


async def test_a_turn_after_a_long_backlog_holds_a_bounded_part_of_it(tmp_path, loopback):
    loopback.responder = windowed(100_000, answer="all quiet")
    turns = _turns(tmp_path, loopback, "[brain.context_windows]\nchief = 8192\n")
    # A first turn loads the brain's client (its own ~20 MB): the turn measured is a later one.
    assert (await turns.reply(turns.add_user_turn("the first question"))).error is None
    _backlog(turns)
    tracemalloc.start()
    try:
        result = await turns.reply(turns.add_user_turn("anything I should know?"))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.error is None, result.error
    # The whole backlog as rows is ~10 MB (and its summary requests more): a page is a fraction.
    assert peak < 4 * 1024 * 1024, f"a turn held {peak / 1024 / 1024:.1f} MB at its peak"
    # It still folds the oldest of the backlog first, in order, and answers.
    summaries = [r for r in loopback.requests if not r.get("stream")]
    assert summaries and "report 0:" in summaries[0]["messages"][-1]["content"]
    await turns.brain.aclose()
    turns.store.close()
