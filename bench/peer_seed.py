"""Seed a peer's own store, run with THAT peer's Python (its venv), so the schema is its own.

    PEER_PYTHON bench/peer_seed.py elia|oterm ROWS MARKER

elia: a chat of ROWS messages (none when ROWS is 0: elia starts chats from its home
screen). oterm: one chat on the loopback model (oterm opens saved chats as tabs at
start, so the bench lands straight on a prompt) with ROWS messages. The last message
carries MARKER. XDG_* in the environment point at the run's own directories.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3
import sys

WORDS = ("the plan for the week looks steady; review the notes from Monday and move the "
         "harder question to Thursday when there is more room to think it through").split()


def rows(count: int, marker: str):
    """(role, text) like the keeltui room the bench seeds: same words, same shape."""
    for i in range(count):
        text = " ".join(WORDS[(i * 7) % len(WORDS):] + WORDS[: (i * 7) % len(WORDS)])
        if i == count - 1:
            yield "assistant", f"The latest turn of a long chat: {marker}"
        elif i % 2 == 0:
            yield "user", f"Turn {i}: {text[:80]}?"
        else:
            yield "assistant", f"Reply {i}. {text}\n\n- one point\n- **another** point"


def seed_elia(count: int, marker: str) -> None:
    import elia_chat.database.models  # noqa: F401 - registers the tables create_database makes
    from elia_chat.database.database import create_database, sqlite_file_name

    asyncio.run(create_database())
    if not count:
        return
    conn = sqlite3.connect(sqlite_file_name)
    start = dt.datetime.now() - dt.timedelta(seconds=count * 30)
    cur = conn.execute("INSERT INTO chat (model, title, started_at, archived) VALUES (?, ?, ?, 0)",
                       ("bench-loop", "bench long chat", start))
    chat = cur.lastrowid
    conn.executemany(
        "INSERT INTO message (chat_id, role, content, timestamp, meta, model) VALUES (?, ?, ?, ?, '{}', ?)",
        ((chat, role, text, start + dt.timedelta(seconds=30 * i), "bench-loop")
         for i, (role, text) in enumerate(rows(count, marker))),
    )
    conn.commit()
    conn.close()


def seed_oterm(count: int, marker: str) -> None:
    from oterm.store.store import Store
    from oterm.types import ChatModel

    async def main() -> None:
        store = await Store.get_store()
        chat = await store.save_chat(ChatModel(name="bench", model="loop-model:latest", provider="ollama"))
        if count:
            conn = sqlite3.connect(store.db_path)
            conn.executemany("INSERT INTO message (chat_id, author, text) VALUES (?, ?, ?)",
                             ((chat, role, text) for role, text in rows(count, marker)))
            conn.commit()
            conn.close()

    asyncio.run(main())


if __name__ == "__main__":
    peer, count, marker = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    {"elia": seed_elia, "oterm": seed_oterm}[peer](count, marker)
