"""``python -m bench [--runs N] [--only a,b] [--quick] [--no-peers] [--render-only]``:
measure, then rewrite bench/RESULTS.md (a partial run writes bench/.work/RESULTS-partial.md).
A measure that fails is recorded in the table; the run goes on."""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # keeltui_dev.loopback, keeltui

from bench import machine, peers, readme, report, sentinel_day  # noqa: E402
from bench.context import Context, Subject, err  # noqa: E402
from bench.measures import code_stream, first_chunk_peers, long_chat, paging, profile, soak  # noqa: E402
from bench.ollama_shim import OllamaShim  # noqa: E402
from bench.env import Workspace, seed_room  # noqa: E402
from bench.loop import Switchboard  # noqa: E402
from bench.measures import first_chunk, first_frame, first_frame_work, first_message, idle, report_screen, status, streaming  # noqa: E402
from bench.stats import Results  # noqa: E402

LAST = REPO / "bench" / ".work" / "last-results.pickle"
MEASURES = {
    "first_frame": first_frame.run,
    "first_frame_work": first_frame_work.run,
    "first_message": first_message.run,
    "streaming": streaming.run,
    "stream_room": streaming.run_room,
    "first_chunk": first_chunk.run,
    "status": status.run,
    "first_chunk_peers": first_chunk_peers.run,
    "long_chat": long_chat.run,
    "paging": paging.run,
    "code_stream": code_stream.run,
    "report": report_screen.run,
    "idle": idle.run,
    "sentinel": sentinel_day.run,
    "profile": profile.run,
    "soak": soak.run,
}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    p.add_argument("--runs", type=int, default=5, help="runs per measure (default 5)")
    p.add_argument("--only", default="", help=f"comma-separated subset of: {', '.join(MEASURES)}")
    p.add_argument("--quick", action="store_true", help="shorter idle periods (20/10/10 s instead of 60/30/30 s)")
    p.add_argument("--no-peers", action="store_true", help="skip elia and oterm")
    p.add_argument("--peer-runs", type=int, default=2,
                   help="runs for elia and oterm where one run takes long: streaming, first message, first chunk, "
                        "long chat (default 2, at most --runs: their figures are one or two orders of magnitude "
                        "from keeltui's, and one full run must fit in about 15 minutes)")
    p.add_argument("--render-only", action="store_true",
                   help=f"measure nothing: rewrite the Markdown from the last run's saved figures ({LAST})")
    p.add_argument("--out", help="where to write the Markdown (default: bench/RESULTS.md for a full run, "
                                 "bench/.work/RESULTS-partial.md for --only or --quick, so a quick run never "
                                 "overwrites the full table)")
    args = p.parse_args(argv)
    args.only = [m.strip() for m in args.only.split(",") if m.strip()] or list(MEASURES)
    unknown = [m for m in args.only if m not in MEASURES]
    if unknown:
        p.error(f"unknown measure(s): {', '.join(unknown)}")
    if args.runs < 1:
        p.error("--runs must be at least 1")
    if args.out is None:
        full = args.only == list(MEASURES) and not args.quick
        args.out = str(REPO / "bench" / ("RESULTS.md" if full else ".work/RESULTS-partial.md"))
    return args


def add_peers(ctx: Context) -> None:
    for peer in peers.PEERS:
        exe, detail = peers.ensure(peer, ctx.say)
        if exe is None:
            ctx.say(f"peers: skipping {peer.package}: {detail}")
            ctx.results.note("peers", f"{peer.package}: {detail}")
            ctx.results.facts[f"peer.{peer.key}"] = f"not installed ({detail})"
            continue
        env = peers.prepare(peer, ctx.env, ctx.brain.url, ctx.shim_host)
        ctx.peer_kits.append((peer, exe, detail))
        ctx.peers.append(Subject(peer.key, f"{peer.key} {detail}", [str(exe)], peer.ready, env, timeout=40))
        ctx.results.facts[f"peer.{peer.key}"] = f"{peer.package} {detail}: first usable screen = {peer.note}"


def render_only(args: argparse.Namespace) -> int:
    try:
        with open(LAST, "rb") as f:
            results, info, saved_out = pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError) as exc:
        print(f"[bench] no saved figures to render ({LAST}): {exc}", file=sys.stderr)
        return 1
    out = args.out if "--out" in sys.argv else saved_out
    markdown = report.render(results, info, args)
    Path(out).write_text(markdown)
    print(f"[bench] rewrote {out} from the figures of {info['date']}", flush=True)
    if Path(out).resolve() == (REPO / "bench" / "RESULTS.md").resolve() and readme.update(REPO / "README.md", markdown):
        print("[bench] rewrote README.md's benchmark summary", flush=True)
    print(report.summary_text(results), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    os.chdir(REPO)
    if args.render_only:
        return render_only(args)
    results = Results()
    info = machine.describe()
    started = time.monotonic()
    workspace = Workspace()
    try:
        with Switchboard() as brain, OllamaShim(brain) as shim:
            ctx = Context(runs=args.runs, quick=args.quick, workspace=workspace, brain=brain, results=results,
                          shim_host=shim.host, peer_runs=min(args.peer_runs, args.runs))
            ctx.say(f"keeltui bench: {', '.join(args.only)}; {args.runs} runs; {info['cpu']}")
            if {"first_frame", "first_frame_work", "long_chat", "paging", "stream_room"} & set(args.only):
                ctx.room_db = workspace.root / "room-100k.db"
                try:
                    secs = seed_room(ctx.room_db)
                    ctx.say(f"seeded a 100 000-row Chief room in {secs:.1f}s")
                except Exception as exc:  # noqa: BLE001
                    ctx.room_db = None
                    results.fail("ttff.keeltui.100k", f"seeding the room: {err(exc)}")
            if {"first_frame", "first_frame_work", "paging"} & set(args.only):
                ctx.room_db_1m = workspace.root / "room-1m.db"
                try:
                    secs = seed_room(ctx.room_db_1m, rows=1_000_000)
                    ctx.say(f"seeded a 1 000 000-row Chief room in {secs:.1f}s")
                except Exception as exc:  # noqa: BLE001
                    ctx.room_db_1m = None
                    results.fail("ttff.keeltui.1m", f"seeding the room: {err(exc)}")
            if not args.no_peers:
                add_peers(ctx)
                results.facts["peer_runs"] = ctx.peer_runs
            for name in args.only:
                ctx.say(f"== {name}")
                results.facts[f"load.{name}"] = machine.load()  # other work on the machine skews every figure
                try:
                    MEASURES[name](ctx)
                except Exception as exc:  # noqa: BLE001 - one measure never sinks the run
                    results.fail(f"measure.{name}", err(exc))
                    ctx.say(f"{name} failed: {err(exc)}")
    finally:
        workspace.close()
    info["duration"] = f"{time.monotonic() - started:.0f} s"
    info["load"] = f"{info['load']} at the start, {machine.load()} at the end"
    info["pace"] = f"{info['pace']} at the start, {machine.pace()} at the end"
    info["wake"] = f"{info['wake']} at the start; {machine.wake()} at the end"
    info["runs"] = str(args.runs)
    info["only"] = ", ".join(args.only)
    try:
        LAST.parent.mkdir(parents=True, exist_ok=True)
        with open(LAST, "wb") as f:
            pickle.dump((results, info, args.out), f)
    except (OSError, pickle.PicklingError) as exc:
        print(f"[bench] could not save the figures for --render-only: {exc}", flush=True)
    markdown = report.render(results, info, args)
    Path(args.out).write_text(markdown)
    print(f"[bench] wrote {args.out}", flush=True)
    if Path(args.out).resolve() == (REPO / "bench" / "RESULTS.md").resolve() and readme.update(REPO / "README.md", markdown):
        print("[bench] rewrote README.md's benchmark summary", flush=True)
    print(report.summary_text(results), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
