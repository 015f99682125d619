"""The whole app's screens, as the person sees them: the real KeelApp through the
composition root over a seeded SQLite file (tests/support/whole_app.py), every screen
at 80x24 and 120x40, in the dark and the light theme, with the footer in each.

Regenerate after an intended change of look (then look at every changed picture):
    .venv/bin/python -m pytest tests/snapshots/test_whole_app_snapshots.py --snapshot-update
"""

from __future__ import annotations

import pytest

from keeltui.services import ambient_state
from keeltui.chief.quiet import QUIET_MODE_REFUSAL, QUIET_STATE_KEY
from keeltui.tutor import transcript as tx
from keeltui.wiring import Services
from keeltui_dev.tutor_demo import PLAN, verdict_session
from tests.support.tutor_seed import seed_session
from tests.support.whole_app import DAY, HOUR, NOW, FixedClock, Scene, build_app, run_scene, utc

MARKDOWN_REPLY = """\
## Three things for today

1. Finish the **grant report** draft.
2. Call the plumber about the kitchen tap.
3. Walk with Ada at five.

> The report is due Friday; the rest can wait a day.

```python
def due(day: str) -> bool:
    return day == "friday"
```

| Task | When |
| --- | --- |
| Report | Friday |
| Plumber | today |
"""

SUMMARY = ("We planned the week: the grant report is due Friday, the kitchen tap needs a plumber, "
           "and Ada wants a walk on Sunday.")


def _chief_rows(services: Services, clock: FixedClock, rows: list[tuple[float, str, str, str | None]]) -> None:
    """``(when, role, text, source)`` rows in the Chief room; a source makes a report."""
    store = services.store
    chief = store.chief_id()
    for when, role, text, source in rows:
        clock.now = when
        store.add_message(chief, role, text, source=source)


def _yesterday_and_today(services: Services, clock: FixedClock) -> None:
    _chief_rows(services, clock, [
        (NOW - DAY - 2 * HOUR, "user", "Remind me what is due this week.", None),
        (NOW - DAY - 2 * HOUR + 30, "assistant", "The grant report, on Friday.", None),
    ])


def markdown_room(services: Services, clock: FixedClock) -> None:
    _yesterday_and_today(services, clock)
    _chief_rows(services, clock, [
        (NOW - 600, "user", "What should I do today?", None),
        (NOW - 590, "assistant", MARKDOWN_REPLY, None),
    ])


def system_lines_room(services: Services, clock: FixedClock) -> None:
    _yesterday_and_today(services, clock)
    clock.now = NOW - DAY - HOUR
    services.store.add_message(services.store.chief_id(), "assistant", SUMMARY, turn_kind="summary")
    _chief_rows(services, clock, [
        (NOW - 3 * HOUR, "assistant", "Coop: the nightly build is blocked on a failing migration test.",
         "coop-notify:build"),
        (NOW - 2 * HOUR, "assistant", "Follow up: call the plumber about the kitchen tap.", "followup:plumber"),
        (NOW - HOUR, "assistant", "Backups verified: 3 snapshots, 41 GB, all checksums match.", "backup-nightly"),
        (NOW - 600, "user", "Anything from the night?", None),
        (NOW - 590, "assistant", "Two things landed overnight; the **build** needs you first.", None),
    ])
    clock.now = NOW - 60
    services.store.add_notice("Persona changed: the Chief now answers in short paragraphs.")


def empty_room(services: Services, clock: FixedClock) -> None:
    pass


def quiet_room(services: Services, clock: FixedClock) -> None:
    markdown_room(services, clock)
    services.store.set_state(QUIET_STATE_KEY, True)


def focus_running(services: Services, clock: FixedClock) -> None:
    markdown_room(services, clock)
    ambient_state.start_focus(services.store, "write the grant report", 50, NOW - 20 * 60)


def a_day(services: Services, clock: FixedClock) -> None:
    """A morning of window ticks from 08:00 to 10:00 (UTC), with one drift episode."""
    store = services.store
    start = NOW - 2 * HOUR
    for minute in range(0, 120):
        wm_class = "firefox" if 40 <= minute < 55 else "xterm"
        store.add_event("ambient_tick", {"at": start + minute * 60, "span": 90, "class": wm_class})
    store.add_event("ambient_episode", {"start": start + 40 * 60, "end": start + 55 * 60,
                                        "titles": ["news - The Daily"], "message": "The news can wait."})
    store.add_event("focus_session", {"start": start + 60 * 60, "end": start + 90 * 60,
                                      "commitment": "write the grant report"})


def searchable_room(services: Services, clock: FixedClock) -> None:
    _yesterday_and_today(services, clock)
    _chief_rows(services, clock, [
        (NOW - 900, "user", "Who fixes the kitchen tap?", None),
        (NOW - 890, "assistant", "A plumber: Jo, who came last spring.", None),
        (NOW - 600, "user", "And the number?", None),
        (NOW - 590, "assistant", "The plumber's number is in your contacts under Jo.", None),
        (NOW - 300, "user", "Thanks.", None),
    ])


def _tutor_session(services: Services, clock: FixedClock, topic: str, when: float, **kwargs) -> int:
    clock.now = when
    return seed_session(services.store, topic, PLAN, **kwargs)


def tutor_quiz(services: Services, clock: FixedClock) -> None:
    session = _tutor_session(services, clock, "muscle protein", NOW - HOUR,
                             answers=[("basics", True), ("leucine", False)], waiting="per_meal")
    services.tutor_records.remember_open(session)


def tutor_plan(services: Services, clock: FixedClock) -> None:
    clock.now = NOW - HOUR
    session = services.store.create_conversation("tutor", "muscle protein")
    for message in verdict_session():
        services.store.add_message(session, message.role, message.content,
                                   parts=[dict(p) for p in message.parts] or None)
    services.tutor_records.remember_open(session)


def tutor_sessions(services: Services, clock: FixedClock) -> None:
    _tutor_session(services, clock, "muscle protein", NOW - 3 * DAY, answers=[("basics", True)], waiting="leucine")
    _tutor_session(services, clock, "sourdough starters", NOW - DAY, answers=[], waiting="basics")
    clock.now = NOW - HOUR
    fresh = services.store.create_conversation("tutor", "the French subjunctive")
    services.store.add_message(fresh, "user", tx.user("the French subjunctive").content)


SCENES = {
    "room-markdown": Scene(markdown_room, ready="Plumber"),
    "room-system-lines": Scene(system_lines_room, ready="Persona changed"),
    "room-empty": Scene(empty_room, ready="Write to the Chief"),
    "quiet-mode": Scene(quiet_room, ready=QUIET_MODE_REFUSAL),
    "settings": Scene(markdown_room, keys=("f2",), ready="Order: default"),
    "help": Scene(markdown_room, keys=("f1",), ready="every key"),
    "focus": Scene(focus_running, ready="write the grant report"),
    "day": Scene(a_day, keys=("f3",), ready="Your day"),
    "search": Scene(searchable_room, keys=("ctrl+f", *"plumber", "enter"), ready="plumber's number", also=("1 of 2",)),
    "tutor-quiz": Scene(tutor_quiz, keys=("ctrl+t",), ready="Now: per_meal?"),
    "tutor-plan": Scene(tutor_plan, keys=("ctrl+t",), ready="Accept plan"),
    "tutor-sessions": Scene(tutor_sessions, keys=("ctrl+t",), ready="sourdough starters"),
}


@pytest.fixture
def stores():
    opened = []
    yield opened
    for store in opened:
        store.close()


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("name", list(SCENES))
def test_whole_app(snap_compare, tmp_path, loopback, stores, name, size, theme):
    scene = SCENES[name]
    with utc():
        app = build_app(tmp_path, loopback.url, scene, stores)
        assert snap_compare(app, terminal_size=size, run_before=run_scene(scene, theme))
