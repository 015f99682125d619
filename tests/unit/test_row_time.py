"""Day separators and row times, table-driven (local time; "now" is handed in)."""

from __future__ import annotations

from datetime import datetime

import pytest

from keeltui.chief.row_time import clock, day_label, report_source, starts_day


def ts(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%d %H:%M").timestamp()


NOW = ts("2026-12-02 14:30")


@pytest.mark.parametrize("when, label", [
    ("2026-12-02 00:01", "Today"),
    ("2026-12-02 14:29", "Today"),
    ("2026-12-01 23:59", "Yesterday"),
    ("2026-11-30 09:00", "Mon 30 Nov"),
    ("2025-12-02 09:00", "Tue 2 Dec 2025"),
])
def test_day_labels(when, label):
    assert day_label(ts(when), NOW) == label


@pytest.mark.parametrize("previous, when, starts", [
    (None, "2026-12-02 09:00", True),                 # the room's first row
    ("2026-12-02 08:00", "2026-12-02 09:00", False),  # same day
    ("2026-12-01 23:59", "2026-12-02 00:00", True),   # past midnight
    ("2026-11-30 10:00", "2026-12-02 10:00", True),
])
def test_a_separator_stands_between_rows_of_different_days(previous, when, starts):
    assert starts_day(ts(previous) if previous else None, ts(when)) is starts


def test_a_row_without_a_time_starts_nothing_and_shows_no_clock():
    assert not starts_day(None, 0.0)
    assert clock(0.0) == ""
    assert clock(ts("2026-12-02 07:05")) == "07:05"


@pytest.mark.parametrize("kind, source, shown", [
    ("task", "cron:backup", "cron:backup"),
    ("task", "chief-report:cron:backup", "cron:backup"),
    ("coop", "coop-notify:ci", "coop-notify:ci"),
    ("notice", "app:notice", ""),
    (None, None, ""),
])
def test_a_report_shows_its_source(kind, source, shown):
    assert report_source(kind, source) == shown
