"""Idle cost: CPU and terminal bytes while nobody touches the app.

keeltui with the store watcher, the evidence poll (a `command` source) and the
sentinel (mode status, 5 s cadence) on; keeltui with ambient off; and the floor, for
reference. Each process is watched for a period cut into six windows (each a sample);
the whole period is a sample of its own. The pane's output is piped to a file to
count the bytes written while idle (a blinking cursor, a clock, a spinner all show).
"""

from __future__ import annotations

import importlib.util
import time

from bench.context import Context, Subject, err
from bench.env import KEELTUI
from bench.procs import cpu_seconds, thread_cpu, wait_until_quiet

WINDOWS = 6
SETTLE_SECS = 3.0
QUIET_SECS = 1.0
QUIET_CPU = 0.005  # seconds of CPU in QUIET_SECS: 0.5 % of a core
SETTLE_AT_MOST_SECS = 20.0


def settle(*pids: int) -> float:
    """Wait until the start-up is over: at least SETTLE_SECS, then until a QUIET_SECS stretch
    uses under QUIET_CPU (the brain client loading, the tutor mounting: work that takes
    longer on a slower machine, and that a fixed wait let into the idle window), at most
    SETTLE_AT_MOST_SECS. Returns the seconds waited."""
    time.sleep(SETTLE_SECS)
    waited, _ = wait_until_quiet(SETTLE_AT_MOST_SECS - SETTLE_SECS, busy=lambda: sum(cpu_seconds(pid) for pid in pids),
                                 window=QUIET_SECS, most_busy=QUIET_CPU)
    return SETTLE_SECS + waited


def watch(ctx: Context, key: str, subject: Subject, seconds: float) -> bool:
    """Returns False when the subject never showed its first frame (e.g. a rejected config)."""
    pipe = ctx.workspace.fresh_dir(f"idle-{key}") / "terminal.bytes"
    pipe.touch()
    with ctx.pane(subject) as pane:
        pane.launch(subject.argv)
        try:
            pane.wait_for(*subject.ready, timeout=15)
        except TimeoutError as exc:
            ctx.results.fail(f"idle.{key}.pct", err(exc))
            return False
        pid = pane.pane_pid()
        if subject.open_chat is not None:
            subject.open_chat(pane)
        settled = settle(pid)
        pane.pipe_to(str(pipe))
        ctx.say(f"idle: watching {subject.label} for {seconds:.0f} s (settled after {settled:.1f} s)")
        start = last = cpu_seconds(pid)
        threads_start = thread_cpu(pid)
        bytes_start = pipe.stat().st_size
        step = seconds / WINDOWS
        for _ in range(WINDOWS):
            time.sleep(step)
            now = cpu_seconds(pid)
            ctx.results.add(f"idle.{key}.window_pct", 100 * (now - last) / step)
            last = now
        written = pipe.stat().st_size - bytes_start
        threads_end = thread_cpu(pid)
        pane.stop_pipe()
    ctx.results.add(f"idle.{key}.pct", 100 * (last - start) / seconds)
    ctx.results.add(f"idle.{key}.bytes_per_s", written / seconds)
    ctx.results.facts[f"idle.{key}.secs"] = seconds
    by_thread = {name: 100 * (cpu - threads_start.get(name, 0.0)) / seconds for name, cpu in threads_end.items()}
    ctx.results.facts[f"idle.{key}.threads"] = sorted(by_thread.items(), key=lambda item: -item[1])[:5]
    ctx.say(f"idle: {subject.label}: {100 * (last - start) / seconds:.2f} % of a core, {written / seconds:.0f} B/s to the terminal")
    return True


STATUS_INTERVAL = 5


def watch_with_status(ctx: Context, seconds: float) -> None:
    """The whole idle cost as a tmux user has it: keeltui (ambient on) in a pane, and tmux's
    status line calling ``keeltui status --tmux`` every STATUS_INTERVAL s. tmux runs a
    status-right command only for an attached client: a second tmux attaches to the
    first as a terminal would. CPU of the app plus the first tmux server's, with the status
    calls it ran and reaped (the attached client is the terminal's, not counted)."""
    subject = ctx.keeltui("idle.tmux_status", "keeltui, ambient on, tmux status line", ambient=True)
    config = subject.argv[-1]
    with ctx.pane(subject) as pane, ctx.pane(subject) as terminal:
        pane.tmux("set", "-g", "status-interval", str(STATUS_INTERVAL))
        pane.tmux("set", "-g", "status-right", f"[#({KEELTUI} --config {config} status --tmux)]")
        pane.tmux("set", "-g", "status", "on")
        pane.launch(subject.argv)
        pane.wait_for(*subject.ready, timeout=15)
        terminal.launch(["tmux", "-L", pane.socket, "-f", "/dev/null", "attach", "-t", "bench"])
        terminal.wait_for("[idle", timeout=30)  # the status line ran `keeltui status` and shows its line
        app, server = pane.pane_pid(), int(pane.tmux("display", "-p", "#{pid}").strip())
        settled = settle(app)  # the server runs a status call every 5 s: never "quiet" by this rule
        ctx.say(f"idle: watching {subject.label} for {seconds:.0f} s (settled after {settled:.1f} s)")
        start_app, start_server = cpu_seconds(app), cpu_seconds(server)
        time.sleep(seconds)
        app_cpu, server_cpu = cpu_seconds(app) - start_app, cpu_seconds(server) - start_server
    total = 100 * (app_cpu + server_cpu) / seconds
    ctx.results.add("idle.tmux_status.pct", total)
    ctx.results.add("idle.tmux_status.app_pct", 100 * app_cpu / seconds)
    ctx.results.add("idle.tmux_status.tmux_pct", 100 * server_cpu / seconds)
    ctx.results.facts["idle.tmux_status.secs"] = seconds
    ctx.say(f"idle: app + tmux calling `keeltui status` every {STATUS_INTERVAL} s: {total:.2f} % of a core "
            f"(app {100 * app_cpu / seconds:.2f} %, tmux and the status calls {100 * server_cpu / seconds:.2f} %)")


def run(ctx: Context) -> None:
    long, short = (20.0, 10.0) if ctx.quick else (60.0, 30.0)
    try:
        watch_with_status(ctx, long)
    except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
        ctx.results.fail("idle.tmux_status.pct", err(exc))
        ctx.say(f"idle: keeltui with the tmux status line failed: {err(exc)}")
    if importlib.util.find_spec("keeltui.panes.ambient.controller") is None:
        ctx.results.note("idle", "keeltui.panes.ambient.controller does not exist: the app attaches no sentinel and no "
                                 "evidence poll, so the ambient row covers the store watcher and Textual alone.")
    plan = [
        ("ambient", ctx.keeltui("idle.ambient", "keeltui, ambient on", ambient=True), long),
        ("off", ctx.keeltui("idle.off", "keeltui, ambient off"), short),
        ("floor", ctx.floor(), short),
    ]
    peer_secs = 10.0 if ctx.quick else 20.0
    plan += [(subject.who, subject, peer_secs) for subject in ctx.chatters("idle")[1:]]  # the peers, on a chat screen
    for key, subject, seconds in plan:
        try:
            shown = watch(ctx, key, subject, seconds)
            if not shown and key == "ambient":
                ctx.results.note("idle", "the ambient config ([ambient] mode = \"status\", [evidence] source = "
                                         "\"command\") was rejected: the app showed no first frame with it.")
        except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
            ctx.results.fail(f"idle.{key}.pct", err(exc))
            ctx.say(f"idle: {subject.label} failed: {err(exc)}")
