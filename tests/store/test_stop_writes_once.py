"""A stopped Chief reply is settled by one write: ``stopped``, never ``partial`` first.

Real parts: the loopback server, the real client, a real SQLite file. A trigger in the
file records every update of the reply row, so the test sees what the store saw.
"""

from __future__ import annotations

import asyncio
import sqlite3

from keeltui.brain import Brain
from keeltui.services.chief_turns import ChiefTurns
from keeltui.store import Store
from keeltui_dev.loopback import Reply

AUDIT = """
CREATE TABLE IF NOT EXISTS update_audit (row_id INTEGER, status TEXT);
CREATE TRIGGER IF NOT EXISTS audit_updates AFTER UPDATE ON messages
BEGIN INSERT INTO update_audit VALUES (new.id, new.status); END;
"""


async def test_a_stop_writes_the_stopped_row_once(tmp_path, loopback, config):
    path = tmp_path / "k.db"
    store = Store(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(AUDIT)
    brain = Brain(config.brain)
    turns = ChiefTurns(store, brain, config)
    loopback.queue(Reply(chunks=[f"word{i} " for i in range(300)], chunk_delay=0.05))
    user = turns.add_user_turn("tell me everything")
    stop = asyncio.Event()
    shown: list[str] = []

    def on_delta(piece: str) -> None:
        shown.append(piece)
        if len(shown) == 3:
            stop.set()

    result = await asyncio.wait_for(turns.reply(user, on_delta, stop=stop), 30)
    await brain.aclose()
    assert result.stopped and result.text.startswith("word0 word1 word2 ")
    row = store.message(result.reply_id)
    assert row.status == "stopped" and row.content == result.text
    with sqlite3.connect(path) as conn:
        statuses = [s for (s,) in conn.execute(
            "SELECT status FROM update_audit WHERE row_id = ? ORDER BY rowid", (result.reply_id,))]
    store.close()
    assert [s for s in statuses if s != "streaming"] == ["stopped"], statuses
