"""A long conversation: from start to its newest message on screen, keeltui beside the peers;
and keeltui's 100 000-row room paged back with PageUp, each press timed to the view moving.

Side by side: each program's own store seeded with the same LONG_ROWS messages (the
last one a unique marker); a fresh start per run; elia opens a chat from its home
screen's list (Down, Enter, pressed as soon as the home screen shows), keeltui and
oterm open on it. Paging: keeltui in the 100 000-row room; Escape leaves the composer
(the newest row takes the keys), then PAGEUPS presses, each from the key leaving tmux to
the first capture that differs (captures back to back, no sleep), then Home to the
room's first row.
"""

from __future__ import annotations

import time

from bench import peers
from bench.context import Context, Subject, err, tag
from bench.env import LAST_ROW_MARK, seed_room

LONG_ROWS = 1_000
PAGEUPS = 40
FIRST_ROW = "Turn 0:"
NEWEST_TIMEOUT = 90.0
SLOW_SECS = 15.0


def subjects(ctx: Context) -> list[Subject]:
    out = []
    try:
        db = ctx.workspace.fresh_dir("long-keeltui") / "long.db"
        seed_room(db, rows=LONG_ROWS)
        out.append(ctx.keeltui("long.keeltui", f"keeltui, {LONG_ROWS}-message room", db, ready_extra=(LAST_ROW_MARK,)))
    except Exception as exc:  # noqa: BLE001 - recorded, the others still run
        ctx.results.fail("long.newest", f"seeding: {err(exc)}")
    for peer, exe, version in ctx.peer_kits:
        ready = ("Enter your message",) if peer.key == "elia" else (LAST_ROW_MARK,)
        try:
            subject = peers.chat_subject(ctx, peer, exe, version, "long", rows=LONG_ROWS, marker=LAST_ROW_MARK,
                                         ready=ready)
        except Exception as exc:  # noqa: BLE001
            ctx.results.fail(tag("long.newest", peer.key), f"seeding: {err(exc)}")
            continue
        if peer.key == "elia":
            subject.open_chat = _elia_open_first_chat
        out.append(subject)
    return out


def _elia_open_first_chat(pane) -> None:
    """Down (from the prompt into the chat list, whose cursor is on the newest chat), Enter; again only while
    the home screen (its "History" list) is still there: elia drops keys at its first frame."""
    for _ in range(20):
        pane.send_keys("Down")
        time.sleep(0.05)
        pane.send_keys("Enter")
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            if "History (" not in pane.capture():
                return  # the chat screen replaced the home screen
            time.sleep(0.02)


def newest_once(ctx: Context, subject: Subject) -> None:
    with ctx.pane(subject) as pane:
        t0 = pane.launch(subject.argv)
        pane.wait_for(*subject.ready, timeout=subject.timeout)
        if subject.open_chat is not None:
            subject.open_chat(pane)
        seen = pane.wait_for(LAST_ROW_MARK, timeout=NEWEST_TIMEOUT)
    ctx.results.add(tag("long.newest", subject.who), seen - t0)


def _changed(pane, before: str, timeout: float = 10.0) -> float:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = pane.capture()
        if screen != before:
            return time.monotonic()
    raise TimeoutError("the view did not move")  # the caller says which press


def paging_once(ctx: Context) -> None:
    if ctx.room_db is None:
        raise RuntimeError("no 100 000-row room (seeding failed)")
    subject = ctx.keeltui("long.paging", "keeltui, 100 000-row room", ctx.room_db, ready_extra=(LAST_ROW_MARK,))
    with ctx.pane(subject) as pane:
        pane.launch(subject.argv)
        pane.wait_for(*subject.ready, timeout=subject.timeout)
        time.sleep(1.0)  # Markdown of the first rows is parsed right after the first frame
        pane.send_keys("Escape")
        time.sleep(0.5)
        for press in range(1, PAGEUPS + 1):
            before = pane.capture()
            t = time.monotonic()
            pane.send_keys("PageUp")
            try:
                ctx.results.add("long.pageup", _changed(pane, before) - t)
            except TimeoutError:
                raise TimeoutError(f"PageUp {press} of {PAGEUPS}: the view did not move in 10 s; "
                                   f"screen: {' | '.join(line.strip()[:60] for line in before.splitlines()[2:6])}") from None
            time.sleep(0.05)  # a person does not press faster than the screen answers
        t = time.monotonic()
        pane.send_keys("Home")
        ctx.results.add("long.home", pane.wait_for(FIRST_ROW, timeout=10, interval=0.005) - t)


def run(ctx: Context) -> None:
    chosen = subjects(ctx)
    for i in range(ctx.runs):
        for subject in chosen:
            if subject.who != "keeltui" and i >= ctx.peer_runs:
                continue
            done = ctx.results.get(tag("long.newest", subject.who))
            if i and (not done.samples or done.lo > SLOW_SECS):
                continue  # timed out, or so slow that one run tells: do not burn the run's budget
            try:
                newest_once(ctx, subject)
            except Exception as exc:  # noqa: BLE001
                ctx.results.fail(tag("long.newest", subject.who), err(exc))
                ctx.say(f"long chat: {subject.who} run {i + 1} failed: {err(exc)}")
        line = ", ".join(f"{s.who} {ctx.results.get(tag('long.newest', s.who)).samples[-1]:.2f}s"
                         for s in chosen if ctx.results.get(tag("long.newest", s.who)).samples)
        ctx.say(f"long chat run {i + 1}/{ctx.runs}: newest message on screen: {line}")
    for i in range(max(1, ctx.runs // 2)):
        try:
            paging_once(ctx)
        except Exception as exc:  # noqa: BLE001
            ctx.results.fail("long.pageup", err(exc))
            ctx.say(f"paging: run {i + 1} failed: {err(exc)}")
    s = ctx.results.get("long.pageup")
    if s.samples:
        ctx.say(f"paging: {len(s.samples)} PageUps, median {s.median * 1000:.0f} ms, slowest {s.hi * 1000:.0f} ms")
