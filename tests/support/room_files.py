"""A room in a temp folder, for tests that run the real app: its config and what it stored."""

from __future__ import annotations

from pathlib import Path

from keeltui.store import Store
from tests.conftest import write_config


def room_config(tmp_path: Path, base_url: str, extra: str = "") -> Path:
    """A config whose database and status file live in ``tmp_path`` (k.db, status)."""
    return write_config(
        tmp_path / "config.toml", base_url,
        f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n{extra}',
    )


def sent_texts(tmp_path: Path) -> list[str]:
    """The owner's messages the room stored, oldest first (read from k.db in ``tmp_path``)."""
    store = Store(tmp_path / "k.db")
    try:
        return [r.content for r in store.messages(store.chief_id()) if r.role == "user"]
    finally:
        store.close()
