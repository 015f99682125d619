"""No pause on the first message. Recorded: Enter to the reply's marker on screen, for
(cold) a message typed at the very first frame, while the brain client still loads in
the background; (after_load) the first message of a fresh app typed 2.5 s after its
first frame; (warm) a second message in the same app. The peers (elia, oterm) the same
way, from their first usable screen.
"""

from __future__ import annotations

import time
import uuid

from keeltui_dev.loopback import Reply

from bench.context import Context, Subject, err, tag

WARM_WAIT_SECS = 2.5


OWNER = "Owner"  # the speaker's name over the owner's own turn (config default)


def _ask(ctx: Context, pane, text: str, key: str, who: str = "keeltui", send_key: str = "Enter") -> None:
    """Send ``text``; record Enter → the reply (and, for keeltui, → the owner's own turn on screen)."""
    marker = f"PONG{uuid.uuid4().hex[:8].upper()}"
    ctx.brain.expect(Reply(chunks=["Here ", "it ", "is: ", marker]))
    owners = pane.capture().count(OWNER)
    sent = _type_then_send(ctx, pane, text, send_key, f"{key}@{who}")
    echo = None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        screen = pane.capture()
        now = time.monotonic()
        if echo is None and screen.count(OWNER) > owners:
            echo = now - sent
        if marker in screen:
            ctx.results.add(tag(key, who), now - sent)
            if who == "keeltui":  # peers label turns differently: no echo figure for them
                ctx.results.add(f"{key}_echo", echo if echo is not None else now - sent)
            return
        time.sleep(0.02)
    pane.wait_for(marker, timeout=0.1)  # raises with the screen in the message


def _type_then_send(ctx: Context, pane, text: str, send_key: str, what: str) -> float:
    """Type ``text``; once it shows in the input, send it; returns when the send key left.

    A program may drop keys typed at its first frame (elia does: its prompt takes focus
    later); then the text is typed again, as a person would, and the drop is noted.
    """
    for attempt in range(10):
        pane.send_keys(text, literal=True)
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            if text in pane.capture():
                if attempt:
                    ctx.results.note("dropped_keys", f"{what}: the keys typed at the first frame were dropped; "
                                                     f"typed again {attempt} time(s), 1 s apart")
                t = time.monotonic()
                pane.send_keys(send_key)
                return t
            time.sleep(0.02)
    raise RuntimeError(f"the typed text never showed in the input: {text!r}")


def once(ctx: Context, subject: Subject) -> None:
    with ctx.pane(subject) as pane:
        pane.launch(subject.argv)
        pane.wait_for(*subject.ready, timeout=subject.timeout)
        if subject.open_chat is not None:
            subject.open_chat(pane)
        _ask(ctx, pane, "hello at the first frame", "first_message.cold", subject.who, subject.send_key)
        time.sleep(WARM_WAIT_SECS)
        _ask(ctx, pane, "hello once warm", "first_message.warm", subject.who, subject.send_key)


def after_load(ctx: Context, subject: Subject) -> None:
    with ctx.pane(subject) as pane:
        pane.launch(subject.argv)
        pane.wait_for(*subject.ready, timeout=subject.timeout)
        time.sleep(WARM_WAIT_SECS)
        if subject.open_chat is not None:
            subject.open_chat(pane)
        _ask(ctx, pane, "hello after the load", "first_message.after_load", subject.who, subject.send_key)


def run(ctx: Context) -> None:
    for i in range(ctx.runs):
        for key, measure in (("first_message.cold", once), ("first_message.after_load", after_load)):
            # keeltui and the peers alternate, so they share the machine's weather.
            for subject in ctx.chatters("first_message", with_peers=i < ctx.peer_runs):
                try:
                    measure(ctx, subject)
                except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
                    ctx.results.fail(tag(key, subject.who), err(exc))
                    ctx.say(f"first message: {key} {subject.who} run {i + 1} failed: {err(exc)}")
    for who in ["keeltui", *(peer.key for peer, _, _ in ctx.peer_kits)]:
        cold, warm = ctx.results.get(tag("first_message.cold", who)), ctx.results.get(tag("first_message.warm", who))
        if cold.samples and warm.samples:
            late = ctx.results.get(tag("first_message.after_load", who))
            ctx.say(f"first message {who}: at the first frame {cold.median:.3f}s, first after load "
                    f"{late.median if late.samples else float('nan'):.3f}s, second {warm.median:.3f}s (medians)")
