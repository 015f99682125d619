"""Snooze, focus and live settings as stored state, shared by the app and the CLI."""

from __future__ import annotations

import pytest

from keeltui.services import ambient_state as state
from keeltui.store import Store

T0 = 1_800_000_000.0


def test_one_session_at_a_time_across_connections(store, tmp_path):
    other = Store(tmp_path / "keeltui.db")
    session = state.start_focus(store, "  write   the report ", 40, T0)
    assert session["commitment"] == "write the report" and session["minutes"] == 40
    with pytest.raises(state.FocusBusy, match='"write the report"'):
        state.start_focus(other, "something else", None, T0 + 60)
    assert '"write the report"' in state.busy_refusal(other, T0 + 60)
    assert state.focus_status_line(state.current_focus(other), T0 + 600) == "◎ Focus: write the report · 30m left"
    other.close()


def test_stop_reports_a_notice_with_the_drift_count(store):
    assert state.stop_focus(store, T0) is None
    state.start_focus(store, "write the report", None, T0)
    state.update_focus(store, drifts=2)
    text = state.stop_focus(store, T0 + 30 * 60)
    assert text == 'Focus session ended: "write the report" — 30m, 2 drifts.'
    row = store.messages(store.chief_id())[-1]
    assert (row.turn_kind, row.content) == ("notice", text)
    assert state.current_focus(store) is None and state.busy_refusal(store, T0) == ""


def test_an_expired_session_is_reported_for_its_planned_length_and_never_blocks(store):
    state.start_focus(store, "tidy the inbox", 25, T0)
    state.start_focus(store, "write the report", None, T0 + 3 * 3600)  # the app was closed meanwhile
    row = store.messages(store.chief_id())[-1]
    assert row.turn_kind == "notice" and row.content.startswith('Focus session ended: "tidy the inbox" — 25m')
    assert state.current_focus(store)["commitment"] == "write the report"


def test_empty_commitment_and_unreadable_sessions(store):
    with pytest.raises(ValueError):
        state.start_focus(store, "   ", None, T0)
    store.set_state(state.FOCUS_KEY, {"commitment": 3})  # written by something else entirely
    assert state.current_focus(store) is None


@pytest.mark.parametrize("mode, cadence, expected", [("status", "60", ("status", 60)), (" Notify ", " 5 ", ("notify", 5))])
def test_parse_settings_accepts(mode, cadence, expected):
    assert state.parse_settings(mode, cadence) == expected


@pytest.mark.parametrize("mode, cadence, why", [
    ("loud", "60", "unknown ambient mode"), ("off", "soon", "whole number"),
    ("off", "0", "at least 1"), ("off", "1.5", "whole number"),
])
def test_parse_settings_refuses(mode, cadence, why):
    with pytest.raises(ValueError, match=why):
        state.parse_settings(mode, cadence)


def test_stored_settings_override_the_config_and_bad_ones_are_named(store):
    assert state.load_settings(store, "notify", 300) == ("notify", 300, "")
    state.save_settings(store, "status", 90)
    assert state.load_settings(store, "notify", 300) == ("status", 90, "")
    store.set_state(state.SETTINGS_MODE_KEY, "loud")
    store.set_state(state.SETTINGS_CADENCE_KEY, -4)
    mode, cadence, problem = state.load_settings(store, "notify", 300)
    assert (mode, cadence) == ("notify", 300)
    assert "'loud'" in problem and "-4" in problem
