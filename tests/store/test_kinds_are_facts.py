"""Issue 9.5: a row's kind is a fact from its birth, never guessed from its text later."""

from __future__ import annotations

import sqlite3

from keeltui.brain import Brain
from keeltui.services.chief_turns import ChiefTurns
from keeltui.store import Store
from keeltui_dev.loopback import Reply

SUMMARY_LOOKALIKE = "Summary of the conversation so far: you asked me to plan the week."


async def test_a_reply_that_begins_like_a_summary_stays_a_reply_after_restart(tmp_path, loopback, config):
    path = tmp_path / "k.db"
    store = Store(path)
    brain = Brain(config.brain)
    turns = ChiefTurns(store, brain, config)
    loopback.default = Reply(text=SUMMARY_LOOKALIKE)
    earlier = turns.add_user_turn("first question")
    await turns.reply(earlier)
    user = turns.add_user_turn("summarise please")
    result = await turns.reply(user)
    await brain.aclose()
    assert result.error is None
    store.close()

    for _ in range(2):  # the next start, and the one after
        reopened = Store(path)
        reply = reopened.message(result.reply_id)
        assert reply.content == SUMMARY_LOOKALIKE
        assert reply.turn_kind is None
        assert reopened.latest_summary(reopened.chief_id()) is None
        # Everything before it still reaches the model.
        context = ChiefTurns(reopened, Brain(config.brain), config).context()
        assert any(m["content"] == "first question" for m in context)
        reopened.close()


def test_a_row_added_with_summary_text_but_no_kind_is_a_conversation_turn(store):
    row = store.add_message(store.chief_id(), "assistant", SUMMARY_LOOKALIKE)
    assert store.message(row).turn_kind is None


def test_the_text_backfill_runs_once_for_a_file_from_before_kinds(tmp_path):
    path = tmp_path / "old.db"
    Store(path).close()
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM app_state")  # as a build from before kinds left it
    conn.execute("INSERT INTO messages (conversation_id, role, content, created_at) "
                 "VALUES (1, 'assistant', 'Summary of the conversation so far: old', 0)")
    conn.commit()
    conn.close()
    store = Store(path)
    assert store.messages(1)[-1].turn_kind == "summary"  # the one-time migration
    store.close()
    conn = sqlite3.connect(path)  # a later reply written as this version writes it
    conn.execute("INSERT INTO messages (conversation_id, role, content, created_at) "
                 "VALUES (1, 'assistant', 'Summary of the conversation so far: new', 0)")
    conn.commit()
    conn.close()
    store = Store(path)
    assert [r.turn_kind for r in store.messages(1)] == ["summary", None]
    store.close()


def test_the_migration_is_remembered_by_the_backfill_mark_alone(tmp_path):
    """Whether the text pass ran is the high-water mark's presence: no second key says it."""
    fresh, old = tmp_path / "new.db", tmp_path / "old.db"
    Store(fresh).close()
    Store(old).close()
    conn = sqlite3.connect(old)
    conn.execute("DELETE FROM app_state")
    conn.commit()
    conn.close()
    Store(old).close()
    for path in (fresh, old):
        keys = {k for (k,) in sqlite3.connect(path).execute("SELECT key FROM app_state")}
        assert keys == {"backfill_checked_to"}, (path.name, keys)


def test_a_room_marked_by_the_previous_build_is_never_guessed_at_again(tmp_path):
    """The build before this one remembered the text pass with its own key
    (``turn_kinds_migrated``), and a room it made may have no high-water mark yet. A
    reply that begins like a summary (here left without a kind, as an older process
    writing to the same file leaves it) must stay a reply, or every turn before it drops
    out of the model's context."""
    path = tmp_path / "k.db"
    store = Store(path)
    chief = store.chief_id()
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM app_state")
    conn.execute("INSERT INTO app_state (key, value, updated_at) VALUES ('turn_kinds_migrated', 'true', 0)")
    conn.execute("INSERT INTO messages (conversation_id, role, content, status, created_at) "
                 "VALUES (?, 'assistant', 'Summary of the conversation so far: it was all about tides.', 'complete', 0)",
                 (chief,))
    conn.commit()
    conn.close()
    store = Store(path)
    (row,) = store.messages(chief)
    assert row.turn_kind != "summary"
    store.close()
    keys = {k for (k,) in sqlite3.connect(path).execute("SELECT key FROM app_state")}
    assert keys == {"backfill_checked_to"}  # the old key is read once, then the mark says it
