"""A reply streaming a 5 000-line code block at 500 lines/s, while the owner types (issue 19).

A fresh keeltui per stream (empty store, brain loaded). The loopback server streams the
block a line per chunk, 2 ms apart. Keystroke echo: while it streams, a letter is typed
into the composer every ~0.3 s and timed from the key leaving tmux to the composer
showing it (``capture-pane`` back to back), from the block's first line to its last.
Escape: in other streams, Escape is pressed once the block passed 5 %, 50 % and 95 % of
its lines; timed from the key to the last new code line on screen (the stream stopped).
"""

from __future__ import annotations

import string
import time

from keeltui_dev.loopback import Reply

from bench.context import Context, Subject, err
from bench.screen_reading import last_code_line
from bench.stats import percentile

LINES = 5_000
LINE_DELAY = 0.002  # 500 lines/s
BRAIN_LOAD_SECS = 2.5
TYPE_EVERY = 0.3
ECHO_TIMEOUT = 10.0
STOP_POINTS = (0.05, 0.5, 0.95)
QUIET_SECS = 1.0
STOPPED = "Reply stopped"
LETTERS = string.ascii_lowercase + string.ascii_uppercase
PREFIX = "QXJ"


def code_chunks() -> list[str]:
    return (["Here is the file:\n\n```python\n"] + [f"line {i:05d} = {i}\n" for i in range(LINES)]
            + ["```\n", "Done."])


def _start(ctx: Context, pane, name: str) -> Subject:
    subject = ctx.keeltui(name, f"keeltui ({name})")
    pane.launch(subject.argv)
    pane.wait_for(*subject.ready, timeout=subject.timeout)
    time.sleep(BRAIN_LOAD_SECS)  # the brain client loads after the first frame
    ctx.brain.expect(Reply(chunks=code_chunks(), chunk_delay=LINE_DELAY))
    pane.type_and_send("Stream the code please")
    if _until(pane, lambda s: last_code_line(s) is not None, 60) is None:
        raise TimeoutError("no line of the code block on screen 60 s after the message was sent")
    return subject


def echo_once(ctx: Context) -> None:
    r = ctx.results
    typed = ""
    samples: list[tuple[int, float]] = []
    with ctx.pane() as pane:
        _start(ctx, pane, "code.echo")
        pane.send_keys(PREFIX, literal=True)  # a mark no screen has otherwise, untimed
        if _until(pane, lambda s: PREFIX in s, ECHO_TIMEOUT) is None:
            raise TimeoutError(f"what was typed while the block streamed did not show in {ECHO_TIMEOUT:.0f} s")
        deadline = time.monotonic() + LINES * LINE_DELAY * 2 + 20
        while len(typed) < len(LETTERS) and time.monotonic() < deadline:
            screen = pane.capture()
            line = last_code_line(screen) or 0
            if line >= LINES - 1 or "Done." in screen:
                break
            typed += LETTERS[len(typed)]
            pane.send_keys(typed[-1], literal=True)
            sent = time.monotonic()
            seen = _until(pane, lambda s: PREFIX + typed in s, ECHO_TIMEOUT)
            if seen is None:  # counted at the bound (a figure that fails the target) and typing stops
                samples.append((line, ECHO_TIMEOUT))
                r.note("code_stream", f"a letter typed at code line {line} did not show within {ECHO_TIMEOUT:.0f} s "
                                      f"(counted as {ECHO_TIMEOUT:.0f} s; no more letters typed in that stream)")
                break
            samples.append((line, seen - sent))
            time.sleep(max(0.0, TYPE_EVERY - (time.monotonic() - sent)))
    if not samples:
        raise RuntimeError("the block ended before a letter could be typed")
    for _, echo in samples:
        r.add("code.echo", echo)
    r.facts.setdefault("code.echo.lines", []).append((samples[0][0], samples[-1][0]))
    echoes = [e for _, e in samples]
    ctx.say(f"code stream: {len(samples)} letters typed between code lines {samples[0][0]} and {samples[-1][0]}: "
            f"echo median {sorted(echoes)[len(echoes) // 2] * 1000:.0f} ms, p95 {percentile(echoes, 95) * 1000:.0f} ms")


def _until(pane, predicate, timeout: float) -> float | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate(pane.capture()):
            return time.monotonic()
    return None


def stop_once(ctx: Context, fraction: float) -> None:
    target = int(LINES * fraction)
    with ctx.pane() as pane:
        _start(ctx, pane, f"code.stop{int(fraction * 100)}")
        reached = _until(pane, lambda s: (last_code_line(s) or 0) >= target, LINES * LINE_DELAY * 2 + 20)
        if reached is None:
            raise TimeoutError(f"the block never reached line {target}")
        pane.send_keys("Escape")
        pressed = time.monotonic()
        last, changed, said = last_code_line(pane.capture()), pressed, None
        # Stopped: the status line says so and no new code line has come for QUIET_SECS (a
        # busy app may show nothing for a while and then catch up: the line proves it read the key).
        while time.monotonic() - pressed < 30 and (said is None or time.monotonic() - changed < QUIET_SECS):
            screen = pane.capture()
            now = last_code_line(screen)
            if now != last:
                last, changed = now, time.monotonic()
            if said is None and STOPPED in screen:
                said = time.monotonic()
        if said is None:  # counted at the bound: a figure that fails the target, not a lost run
            said = time.monotonic()
            ctx.results.note("code_stream", f"Escape at code line {target}: no \"{STOPPED}\" within 30 s "
                                            "(counted as 30 s)")
        if last is not None and last >= LINES - 1:  # not stopped: timed to the end it ran to, and said
            ctx.results.note("code_stream", f"Escape at code line {target} did not stop the block: it ran to its end")
        took = max(said, changed) - pressed
    ctx.results.add("code.stop", took)
    ctx.say(f"code stream: Escape at line {target}: stopped after {took * 1000:.0f} ms (last line {last})")


def run(ctx: Context) -> None:
    # One typing stream (~30 keys) and one stream per stopping point: each is 10 s or more,
    # and a slow app makes it much more; the whole bench must stay near 20 minutes.
    try:
        echo_once(ctx)
    except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
        ctx.results.fail("code.echo", err(exc))
        ctx.say(f"code stream echo failed: {err(exc)}")
    for fraction in STOP_POINTS:
        try:
            stop_once(ctx, fraction)
        except Exception as exc:  # noqa: BLE001
            ctx.results.fail("code.stop", err(exc))
            ctx.say(f"code stream Escape at {fraction:.0%} failed: {err(exc)}")
