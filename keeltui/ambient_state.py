"""Ambient and focus state shared through the store, so every process agrees.

``keeltui snooze`` and the banner write the same snooze; ``keeltui focus`` and the
app's focus key start and stop the same session. One session at a time, checked
inside one write transaction so two processes cannot both start one.
"""

from __future__ import annotations

import json
from typing import Any

from keeltui.chief.turn_kinds import FOCUS_SOURCE, TASK
from keeltui.durations import format_duration

SNOOZE_KEY = "ambient_snooze_until"
FOCUS_KEY = "focus_session"
SETTINGS_MODE_KEY = "settings.ambient_mode"
SETTINGS_CADENCE_KEY = "settings.ambient_cadence_secs"


class FocusBusy(Exception):
    """A focus session is already running; the message names it."""


def current_focus(store) -> dict | None:
    session = store.get_state(FOCUS_KEY)
    return session if isinstance(session, dict) and session.get("commitment") else None


def start_focus(store, commitment: str, minutes: int | None, now: float) -> dict:
    commitment = " ".join(commitment.split())
    if not commitment:
        raise ValueError("the commitment is empty")
    session = {"commitment": commitment, "started_at": now, "minutes": minutes, "drifts": 0}
    with store.transaction() as conn:
        row = conn.execute("SELECT value FROM app_state WHERE key = ?", (FOCUS_KEY,)).fetchone()
        running = json.loads(row[0]) if row else None
        if isinstance(running, dict) and running.get("commitment"):
            raise FocusBusy(f'a focus session is already running: "{running["commitment"]}" — stop it first')
        conn.execute(
            "INSERT INTO app_state (key, value, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            (FOCUS_KEY, json.dumps(session), now),
        )
    return session


def focus_report(session: dict, ended_at: float) -> str:
    length = format_duration(ended_at - float(session.get("started_at", ended_at)))
    drifts = int(session.get("drifts", 0))
    plural = "drift" if drifts == 1 else "drifts"
    return f'Focus session ended: "{session["commitment"]}" — {length}, {drifts} {plural}.'


def stop_focus(store, now: float) -> str | None:
    """End the running session and report it into the Chief room as a task line."""
    with store.transaction() as conn:
        row = conn.execute("SELECT value FROM app_state WHERE key = ?", (FOCUS_KEY,)).fetchone()
        session = json.loads(row[0]) if row else None
        if not (isinstance(session, dict) and session.get("commitment")):
            return None
        conn.execute("DELETE FROM app_state WHERE key = ?", (FOCUS_KEY,))
    text = focus_report(session, now)
    store.add_message(store.chief_id(), "assistant", text, source=FOCUS_SOURCE, turn_kind=TASK)
    return text


def update_focus(store, **changes: Any) -> None:
    with store.transaction() as conn:
        row = conn.execute("SELECT value FROM app_state WHERE key = ?", (FOCUS_KEY,)).fetchone()
        session = json.loads(row[0]) if row else None
        if isinstance(session, dict):
            session.update(changes)
            conn.execute("UPDATE app_state SET value = ? WHERE key = ?", (json.dumps(session), FOCUS_KEY))


def time_left(session: dict, now: float) -> float | None:
    minutes = session.get("minutes")
    if not minutes:
        return None
    return float(session["started_at"]) + minutes * 60 - now


def focus_status_line(session: dict, now: float, drift: str = "") -> str:
    line = f"◎ Focus: {session['commitment']}"
    left = time_left(session, now)
    if left is not None:
        line += f" · {format_duration(left)} left" if left > 0 else " · time is up"
    if drift:
        line += f" · ⚠ {drift}"
    return line
