"""``keeltui`` and its subcommands.

Imports stay light at module level: ``keeltui status`` must load neither Textual nor
openai. Each command imports what it needs when it runs.

Exit codes: 0 ok, 1 failed, 2 bad usage or config, 3 refused (Quiet Mode).
"""

from __future__ import annotations

import sys
import time

from keeltui.status.fast import fast_status

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_REFUSED = 0, 1, 2, 3


def _err(text: str) -> None:
    print(f"keeltui: {text}", file=sys.stderr)


def build_parser():
    import argparse

    from keeltui.chief.turn_kinds import FILTER_KINDS

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str):  # one line and the usage, exit 2
            self.print_usage(sys.stderr)
            self.exit(EXIT_USAGE, f"keeltui: {message}\n")

    parser = _Parser(
        prog="keeltui",
        description="A terminal-first companion: the Chief room, a tutor, and an ambient drift sentinel.",
    )
    parser.add_argument("--config", metavar="PATH", help="config file (default: the platform config dir's keeltui/config.toml)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("status", help="print the status line (for tmux's status-right)")
    p.add_argument("--tmux", action="store_true", help="escape for tmux's status-right")

    p = sub.add_parser("report", help="append a report to the Chief room as the owner")
    p.add_argument("--source", required=True, metavar="KEY",
                   help="source key: coop-notify:… → Coop, followup:… → Follow-up, anything else → Scheduled task")
    p.add_argument("text", help="the report's text, or - to read standard input")

    p = sub.add_parser("log", help="print the Chief room as plain text")
    p.add_argument("--since", metavar="DURATION", help="only rows newer than this (30m, 2h, 1d)")
    p.add_argument("--kind", choices=[*FILTER_KINDS, "ambient"],
                   help="only rows of this kind (ambient: drift episodes, away periods, focus sessions)")
    p.add_argument("--limit", type=int, metavar="N", help="only the newest N rows")
    p.add_argument("--thinking", action="store_true", help="also print each reply's thinking (reasoning models)")

    p = sub.add_parser("export", help="write the Chief room as Markdown")
    p.add_argument("--out", metavar="FILE", help="file to write (default: standard output)")
    p.add_argument("--thinking", action="store_true", help="also write each reply's thinking (reasoning models)")

    p = sub.add_parser("chat", help="one turn through the doorway, or a line-mode chat with no text")
    p.add_argument("text", nargs="*", help="what to say (omit for the line-mode chat)")

    p = sub.add_parser("quiet", help="Quiet Mode: hide the Chief room on a shared screen")
    p.add_argument("state", choices=["on", "off", "status"])

    p = sub.add_parser("snooze", help="snooze the ambient sentinel (default 1h)")
    p.add_argument("duration", nargs="?", default="1h", help="30m, 1h, 2h30m … or 'off' to end a snooze")

    p = sub.add_parser("focus", help="focus mode: one declared commitment")
    fsub = p.add_subparsers(dest="focus_command", metavar="ACTION", parser_class=_Parser, required=True)
    fs = fsub.add_parser("start", help="start a focus session")
    fs.add_argument("text", nargs="+", help="the commitment")
    fs.add_argument("--minutes", type=int, help="length in minutes (default: focus.default_minutes)")
    fsub.add_parser("stop", help="end the running focus session")
    fsub.add_parser("status", help="show the running focus session")

    p = sub.add_parser("plan", help="tutor plans")
    psub = p.add_subparsers(dest="plan_command", metavar="ACTION", parser_class=_Parser, required=True)
    pc = psub.add_parser("check", help="check a mermaid plan with the tutor's parser")
    pc.add_argument("file", help="a file, or - for standard input")

    from keeltui.cli.tutor import add_parser as add_tutor_parser

    add_tutor_parser(sub, _Parser)

    sub.add_parser("doctor", help="check config, database, brain, evidence and notifier")

    p = sub.add_parser("day", help="your day: time on task, drifting and away per hour; episodes and focus sessions")
    p.add_argument("--date", metavar="YYYY-MM-DD", help="which day (default: today)")
    p.add_argument("--week", action="store_true", help="the seven days ending on that day, a line each")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="the timeline as JSON (seconds, epoch times)")
    form.add_argument("--csv", action="store_true", help="the timeline as CSV (the segments; --week: a row per day)")
    return parser


def _load_config(args):
    from keeltui.config import ConfigError, load_config

    try:
        return load_config(args.config)
    except ConfigError as exc:
        _err(str(exc))
        raise SystemExit(EXIT_USAGE) from None


def _open_store(config, *, readonly: bool = False, say_notices: bool = True):
    """The store; ``readonly`` for commands that only read (they never change the file)."""
    from keeltui.store import StoreError
    from keeltui.wiring import open_store

    try:
        store = open_store(config, readonly=readonly)
    except StoreError as exc:
        _err(str(exc))
        raise SystemExit(EXIT_FAILED) from None
    if say_notices:
        for line in store.notices:
            _err(line)
    return store


def _settled(rows):
    """Rows as a reader sees them: a reply whose writer died reads as cut off."""
    import os

    from keeltui.adapters.process_probe import pid_alive
    from keeltui.chief.interrupted import as_settled

    return [as_settled(row, os.getpid(), pid_alive) for row in rows]


def _refuse_if_quiet(store) -> None:
    """Doorways resolve the room as a viewer: refused, by name, in Quiet Mode."""
    from keeltui.chief.quiet import Access, QuietModeRefusal, check_access, quiet_mode_on

    try:
        check_access(Access.VIEWER, quiet_mode_on(store))
    except QuietModeRefusal as refusal:
        print(refusal, file=sys.stderr)
        raise SystemExit(EXIT_REFUSED) from None


# -- commands ------------------------------------------------------------------------


def cmd_run(args) -> int:
    import os

    from keeltui.infra import gc_policy

    gc_policy.hold_for_start()  # the app turns the collector back on after its first frame
    from keeltui.infra import docless_imports

    docless_imports.install()  # ~3 MB less held for good (keeltui/infra/docless_imports.py)
    from keeltui.infra import metadata_on_use

    metadata_on_use.install()  # ~0.7 MB and ~10 ms less in the brain client's load (its docstring)

    if os.environ.get("KEEL_BENCH_GC_LOG"):  # the bench's collection-pause recorder; off: not even imported
        from keeltui.infra.gc_pauses import record_if_asked

        record_if_asked()
    config = _load_config(args)
    store = _open_store(config, say_notices=False)
    import contextlib

    from keeltui.store import StoreDamaged

    # A partly damaged room still opens (StoreDamaged is passed over here); the app
    # says so on its status line once quick_check has run.
    with contextlib.suppress(StoreDamaged):
        for line in store.notices:  # files made private: said once, in the room
            store.add_notice(line)
    with contextlib.suppress(StoreDamaged):
        # Replies a killed process left streaming are settled as cut off, not shown as empty boxes.
        store.settle_interrupted()
    try:
        return import_run_app(config.ui.theme)(config, store)
    finally:
        docless_imports.compile_later()  # the terminal is given back: the next start is leaner


def import_run_app(theme: str | None = None):
    """``keeltui.app.run_app``, imported with keeltui's settings for Textual in force (Escape's
    short delay, the frame rate, ``theme`` as the default: Textual reads them once, when it is
    imported; keeltui/infra/textual_env.py says why)."""
    import os

    from keeltui.infra.textual_env import textual_settings

    with textual_settings(os.environ, theme):
        from keeltui.app import run_app
    return run_app


def cmd_status(args) -> int:
    from keeltui.status.file import read_status, remember_validated
    from keeltui.infra.paths import config_stamp
    from keeltui.status.line import tmux_escape

    stamp = config_stamp(args.config)
    config = _load_config(args)
    # Valid: the next call takes the fast path until the file changes (only the first pays).
    remember_validated(config.status_file_path(), stamp)
    line = read_status(config.status_file_path())
    print(tmux_escape(line) if args.tmux else line)
    return EXIT_OK


def cmd_report(args) -> int:
    from keeltui.text.textsafe import check_source_key, from_outside

    # Any bytes in: invalid UTF-8 is kept as replacement characters, never a traceback.
    text = from_outside(sys.stdin.buffer.read() if args.text == "-" else args.text)
    text = text.rstrip("\n")
    if not text.strip():
        _err("report: the text is empty")
        return EXIT_USAGE
    try:
        source = check_source_key(args.source)
    except ValueError as exc:
        _err(f"report: {exc}")
        return EXIT_USAGE
    config = _load_config(args)
    # Checked through a read-only open first, so a damaged file is refused unchanged:
    # writing into it could lose more of it.
    checker = _open_store(config, readonly=True, say_notices=False)
    problem = checker.quick_check()
    checker.close()  # before the writable open: one process, one set of POSIX locks on the file
    if problem:
        _err(f"report not written: {problem}")
        return EXIT_FAILED
    store = _open_store(config)
    from keeltui.chief.quiet import Access, check_access, quiet_mode_on

    # A report is the owner's own delivery: it lands whatever the screen shows.
    check_access(Access.OWNER, quiet_mode_on(store))
    from keeltui.services.report_intake import deliver_report

    delivered = deliver_report(store, source, text, config.chief.report_max_chars)
    if delivered.note:
        _err(delivered.note)
    row_id = delivered.row_id
    print(row_id)
    return EXIT_OK


def cmd_log(args) -> int:
    from keeltui.text.durations import parse_duration
    from keeltui.chief.review import format_log

    since = None
    if args.since:
        try:
            since = time.time() - parse_duration(args.since)
        except ValueError as exc:
            _err(f"log: --since: {exc}")
            return EXIT_USAGE
    if args.limit is not None and args.limit <= 0:
        _err("log: --limit must be a positive number")
        return EXIT_USAGE
    config = _load_config(args)
    store = _open_store(config, readonly=True)
    _refuse_if_quiet(store)
    if args.kind == "ambient":
        from keeltui.ambient.day import DAY_KINDS, render_log

        for line in render_log(store.events_between(DAY_KINDS, since or 0.0, float("inf")), args.limit):
            print(line)
        return EXIT_OK
    rows = _settled(store.query(store.chief_id(), since=since, kind=args.kind, limit=args.limit))
    color = sys.stdout.isatty()
    for line in format_log(rows, config.owner.name, config.owner.companion, color=color, thinking=args.thinking):
        print(line)
    return EXIT_OK


def cmd_export(args) -> int:
    from pathlib import Path

    from keeltui.chief.review import format_markdown

    config = _load_config(args)
    store = _open_store(config, readonly=True)
    _refuse_if_quiet(store)
    rows = _settled(store.messages(store.chief_id()))
    text = format_markdown(rows, config.owner.name, config.owner.companion, thinking=args.thinking)
    if args.out:
        try:
            from keeltui.infra.dbfiles import open_private

            with open_private(Path(args.out)) as handle:  # the room is private: owner-only
                handle.write(text)
        except OSError as exc:
            _err(f"export: cannot write {args.out}: {exc.strerror}")
            return EXIT_FAILED
        print(f"wrote {len(rows)} rows to {args.out}")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_chat(args) -> int:
    config = _load_config(args)
    store = _open_store(config)
    _refuse_if_quiet(store)
    store.settle_interrupted()
    from keeltui.cli.doorway import line_chat, one_turn
    from keeltui.text.textsafe import from_outside

    text = from_outside(" ".join(args.text)).strip()
    if text == "-":
        text = from_outside(sys.stdin.buffer.read()).strip()
    if text:
        return one_turn(config, store, text)
    return line_chat(config, store)


def cmd_quiet(args) -> int:
    from keeltui.chief.quiet import QUIET_STATE_KEY, quiet_mode_on

    config = _load_config(args)
    store = _open_store(config)
    if args.state == "status":
        print("on" if quiet_mode_on(store) else "off")
        return EXIT_OK
    store.set_state(QUIET_STATE_KEY, args.state == "on")
    print(f"Quiet Mode {args.state}")
    return EXIT_OK


def cmd_snooze(args) -> int:
    from keeltui.services.ambient_state import SNOOZE_KEY
    from keeltui.text.durations import format_duration, parse_duration

    config = _load_config(args)
    if args.duration.strip().lower() in ("off", "0", "none"):
        store = _open_store(config)
        store.delete_state(SNOOZE_KEY)
        print("snooze ended")
        return EXIT_OK
    try:
        seconds = parse_duration(args.duration)
    except ValueError as exc:
        _err(f"snooze: {exc}")
        return EXIT_USAGE
    store = _open_store(config)
    until = time.time() + seconds
    store.set_state(SNOOZE_KEY, until)
    print(f"snoozed for {format_duration(seconds)} (until {time.strftime('%H:%M', time.localtime(until))})")
    return EXIT_OK


def cmd_focus(args) -> int:
    from keeltui.services.ambient_state import FocusBusy, focus_status_line, start_focus, stop_focus, current_focus

    config = _load_config(args)
    store = _open_store(config)
    if args.focus_command == "start":
        minutes = args.minutes if args.minutes is not None else config.focus.default_minutes
        if minutes <= 0:
            _err("focus start: --minutes must be positive")
            return EXIT_USAGE
        try:
            session = start_focus(store, " ".join(args.text).strip(), minutes, time.time())
        except FocusBusy as exc:
            _err(str(exc))
            return EXIT_FAILED
        except ValueError as exc:
            _err(f"focus start: {exc}")
            return EXIT_USAGE
        print(f"focus started: {session['commitment']} ({minutes}m)")
        return EXIT_OK
    if args.focus_command == "stop":
        ended = stop_focus(store, time.time())
        if ended is None:
            _err("no focus session is running")
            return EXIT_FAILED
        print(ended)
        return EXIT_OK
    running = current_focus(store)
    print(focus_status_line(running, time.time()) if running else "no focus session")
    return EXIT_OK


def cmd_plan(args) -> int:
    from pathlib import Path

    from keeltui.tutor.mermaid import check_plan_command

    if args.file == "-":
        source = sys.stdin.read()
    else:
        try:
            source = Path(args.file).read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            _err(f"plan check: cannot read {args.file}: {exc.strerror}")
            return EXIT_USAGE
    from keeltui.text.textsafe import clean_text

    code, output = check_plan_command(source)
    # The plan is a model's text: its labels and the parser's quotes of them are cleaned.
    print(clean_text(output), file=sys.stdout if code == 0 else sys.stderr)
    return code


def cmd_tutor(args) -> int:
    from keeltui.cli.tutor import run

    return run(args, _open_store(_load_config(args)))


def cmd_day(args) -> int:
    import csv
    import json

    from keeltui.ambient import day as days
    from keeltui.ambient.timeline import Live
    from keeltui.services.day import day_timeline

    now = time.time()
    try:
        start, end = days.day_bounds(args.date, now)
    except ValueError as exc:
        _err(f"day: --date: {exc}")
        return EXIT_USAGE
    config = _load_config(args)
    store = _open_store(config, readonly=True)
    _refuse_if_quiet(store)  # the day names drift windows and focus commitments
    live = Live(now=now)  # the running focus session comes from the store
    if args.week:
        week = []
        for back in range(6, -1, -1):
            d0, d1 = days.day_bounds(time.strftime("%Y-%m-%d", time.localtime(start - back * 86400 + 43200)), now)
            week.append((d0, day_timeline(store, d0, d1, live)))
        if args.json:
            print(json.dumps([days.day_json(t, d0) for d0, t in week], indent=1))
        elif args.csv:
            csv.writer(sys.stdout, lineterminator="\n").writerows(days.week_csv_rows(week))
        else:
            print("\n".join(days.render_week(week)))
        return EXIT_OK
    timeline = day_timeline(store, start, end, live)
    if args.json:
        print(json.dumps(days.day_json(timeline, start), indent=1))
    elif args.csv:
        csv.writer(sys.stdout, lineterminator="\n").writerows(days.day_csv_rows(timeline, start))
    else:
        print("\n".join(days.render_day(timeline, start, running=start <= now < end)))
    return EXIT_OK


def cmd_doctor(args) -> int:
    from keeltui.cli.doctor import run_doctor

    return run_doctor(args.config)


COMMANDS = {
    None: cmd_run, "status": cmd_status, "report": cmd_report, "log": cmd_log,
    "export": cmd_export, "chat": cmd_chat, "quiet": cmd_quiet, "snooze": cmd_snooze,
    "focus": cmd_focus, "plan": cmd_plan, "doctor": cmd_doctor,
}
COMMANDS["tutor"] = cmd_tutor
COMMANDS["day"] = cmd_day


def main(argv: list[str] | None = None) -> int:
    """Any command; the console script (keeltui/__main__.py) does the same without loading
    this module for ``keeltui status``."""
    argv = sys.argv[1:] if argv is None else argv
    fast = fast_status(argv)  # tmux's status tick: keeltui/status/fast.py, or None for the full path
    if fast is not None:
        return fast
    return full_main(argv)


def full_main(argv: list[str]) -> int:
    """Every command the full way (``keeltui status`` included: it validates the config)."""
    if not argv or (len(argv) == 2 and argv[0] == "--config"):
        # Plain `keeltui`: straight to the app; the parser is not on the first frame's path.
        import types

        return _guarded(cmd_run, types.SimpleNamespace(config=argv[1] if argv else None))
    args = build_parser().parse_args(argv)
    return _guarded(COMMANDS[args.command], args)


def _guarded(command, args) -> int:
    try:
        return command(args)
    except KeyboardInterrupt:
        return EXIT_FAILED
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - never a traceback (it would print the owner's text)
        # A StoreError can only come from a command that loaded the store: asked this
        # way, `keeltui status` never imports it (sqlite3 and all) just to be ready.
        store = sys.modules.get("keeltui.store")
        if store is not None and isinstance(exc, store.StoreError):
            _err(str(exc))  # a write or read failed: already one line naming the file
            return EXIT_FAILED
        from keeltui.infra.crash import crash_line

        _err(crash_line(exc).removeprefix("keeltui "))
        return EXIT_FAILED


if __name__ == "__main__":
    raise SystemExit(main())
