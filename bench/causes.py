"""Why a target fails: the analysis behind the last full run, shown under the targets
table only for a target that fails. Keep it in step when keeltui changes.

The evidence was gathered with the bench's own tools: ``python -m bench.profile_start``
(cProfile or a phase clock up to the first frame), ``-X importtime``, and the pane's
output piped to a file. Keys are prefixes of the verdict keys in bench/report.py.
"""

CAUSES: dict[str, str] = {
    "ttff.keeltui.empty": (
        "Where the time goes (the measured line above): keeltui's own modules before the first frame (about 90: "
        "the typed config, the store, the Chief room's log and composer, the App's parts; ~25 ms with Textual "
        "already loaded) and Textual's `TextArea` for the composer (~6 ms), then the room's dozen widgets and "
        "their CSS against the floor's header, one line and footer. Already cut: the Chief/Tutor tabs are two "
        "widgets of keeltui's (panes/common/pane_tabs.py, not TabbedContent's ten), the config's sections are "
        "records (infra/records.py: no per-class compiled methods), the first resume does not restyle every "
        "widget again (MainScreen.on_screen_resume), the CSS the first frame parses is kept between starts "
        "(terminal/css_cache.py: ~10 ms of parsing, ~2 ms to read back), and a configured theme is Textual's "
        "default from the import (no second parse and restyle at mount, ~25 ms for a theme other than "
        "textual-dark; the bench's is the default). Left: keeltui's own imports, the composer's TextArea, "
        "applying the CSS to the room's widgets (~10 ms against the floor's ~3). Textual's own import is the "
        "floor's too and cannot be cut. Counted in instructions (the work table; valgrind, exit points in the "
        "empty room, on a7afc46): to `App.run` keeltui executes ~156 M more than the floor (its ~100 modules, "
        "~25 of them Textual widget or App subclasses at ~0.2 ms each, the config, the store, tomllib and "
        "sqlite3, less ~60 M that the docless forms save on Textual's own import); from `App.run` to the frame "
        "~68 M more, of which ~41 M in drawing the first frame (the room log and its colours, the TextArea, the "
        "footer's bindings) against the floor's header, line and footer."
    ),
    "ttff.keeltui.100k": (
        "Everything in the empty-store row, plus the room itself: the newest rows are read by an indexed tail "
        "query (well under 1 ms) before the room composes and drawn as plain text by the room's line-API log "
        "(RoomLog, no widget per row; Markdown right after the first frame); the turn-kind backfill reads only "
        "rows above its stored high-water mark."
    ),
    "rss": (
        "The brain client is most of it (the import steps above: the openai SDK with pydantic and its HTTP "
        "client is the largest step after Textual's). keeltui already loads the SDK's type modules only as the "
        "client uses them (infra/lazy_packages.py: about sixty of ~470, ~9 MB less), loads the client in the "
        "background after the first frame, reads completions raw (no pydantic validators built), opens the "
        "brain's connections on asyncio's own transports (infra/http_transport.py: no anyio socket streams, "
        "and a plain-http endpoint never loads the TLS trust store, ~1 MB), and other packages' functions and "
        "classes load without their docstrings (infra/docless_imports.py, ~2.5 MB, from the second start on). "
        "In the 100 000-row room the Markdown renderer (markdown-it, Rich's Markdown, Pygments: ~4 MB with the "
        "first render) and the first turn's compaction come on top. What is left of the SDK is pydantic (~8 MB) "
        "and its HTTP client, which every request needs; a smaller client for the one streaming call instead of "
        "the openai SDK would close the rest, and the design names the openai client."
    ),
    "first_message": (
        "The reply needs the openai client, whose import is measured above; keeltui loads it on a thread right "
        "after the first frame, and a call made before that finishes waits for it (`Brain._ready`), so the UI "
        "never freezes: the owner's message is stored and drawn at once, and only the reply waits. The bench "
        "sends at the very first frame; 2.5 s after start the first reply lands like any other. What would close "
        "it: a client that imports in well under 0.2 s (the SDK with its types loaded on use takes ~0.25 s; see "
        "the RSS row: the same smaller HTTP client), since importing it before the first frame would cost the "
        "first frame the same time."
    ),
    "cold_status": (
        "With a config no running app has stamped as validated, the first `keeltui status` takes the full path "
        "(argparse, the typed config: the imports the measured line above names) and, the config valid, stamps "
        "it beside the status file (`status_file.remember_validated`, the `xdg.config_stamp` the app writes); "
        "every later call takes the fast path until the file changes, and a broken config is never stamped, so "
        "it exits 2 on every call. What is left over `python -c pass` is the fast path's (the row above)."
    ),
    "room.same": (
        "The newest rows are read before the room composes (the app hands them to `ChiefRoom` as `first_rows`) "
        "and drawn by its line-API log (RoomLog: only the visible lines, no widget per row) as plain text in the "
        "first frame with the composer (Markdown right after it); the older rows are read by keyset pages as "
        "the owner pages, and the tutor pane is mounted after the first frame."
    ),
    "long.pageup": (
        "Each PageUp moves the view of the room's line-API log (RoomLog); older rows are read by keyset pages of "
        "`PAGE_ROWS` (panes/chief/room_log.py) while the view is within `AHEAD_PAGES` screen of the window's "
        "edge, before the key moves the view, and only the visible lines are rendered (lines already drawn come "
        "from a bounded cache). Start-up's objects are frozen out of the collector's full passes (`gc.freeze` "
        "once the brain client is loaded). A slow press is a key that arrived while a page was read and its "
        "rows measured, a collection ran, or the machine was loaded (the load average of this measure is under "
        "the Side by side table)."
    ),
    "stream.paced.lag": (
        "The reply's flush timer runs every 100 ms (`FLUSH_SECS` in panes/chief/log_stream.py), but the end of the "
        "stream does not wait for it: the finished row is drawn when the turn ends, plus one render (and the "
        "layout that drops the box's spare rows)."
    ),
    "stream.burst.lag": (
        "The stream's SSE lines are read raw and parsed with `json.loads` (`Brain.stream`), not built into "
        "pydantic objects per chunk; what is left is the HTTP read loop and one flush."
    ),
    "stream.paced.cpu": (
        "Per flush: the Markdown of the unsettled tail is re-rendered (`StreamLines.update` in panes/chief/room_stream.py) and only the "
        "changed cells are repainted. Per chunk: the HTTP read (httpcore2 on asyncio's own transports, "
        "infra/http_transport.py: ~180 µs of CPU a chunk where the SDK's anyio streams took ~240-310 µs), the SSE "
        "line parsed with `json.loads`, and the event loop's wake-up, whose price moves with the machine (the "
        "wake-up figure in the header)."
    ),
    "stream.paced.bytes": (
        "The reply grows in place and the room follows its bottom (issue 9: the owner's message and the reply's "
        "first words are never scrolled off). The box holds exactly its text (issue 21: rows held to grow into "
        "moved the room down when a short reply ended), one line before the first words so they land in place; "
        "once the room is full it scrolls once per new line of text; "
        "Textual has no terminal scroll, so each scroll repaints the room. What the terminal shows is remembered "
        "(`Shown` in terminal/textual_seam.py): every update, a scroll's included, is cropped to the cells that differ "
        "from it, so a scroll no longer resends the scrollbar, the rows' bars or the blank ends of lines "
        "(~3 KB at 120x40 where it was ~6 KB), and a flush sends only the new words, each style set once per change "
        "(only the colours that changed). The working indicator's line is always there (blank when idle): its "
        "coming and going no longer resizes the room. One layout per growth step (the "
        "box's and the log's virtual sizes ask for no second layout). What is left: a repaint per screen of text "
        "(a terminal scroll region would spare the text rows that move), the send and the end of the reply (the "
        "box sheds its spare rows and the room moves down to its new bottom)."
    ),
    "first_chunk": (
        "A piece that lands in an empty buffer wakes the reply at once (`StreamBuffer.set_waker`) instead of "
        "waiting for the 0.1 s flush timer; what is left is the HTTP read, the first words drawn in place (the box "
        "took its rows when it appeared: no layout) and tmux. Over the limit only when the two cores are busy with other work."
    ),
    "stream.burst.bytes": (
        "See the 5 ms row: a burst is drawn in a handful of flushes, so bytes are close to the text's size."
    ),
    "status": (
        "The fast path (`keeltui/status/fast.py`: once the open app, or an earlier `keeltui status`, has stamped "
        "the config and `KEEL_*` overrides it validated, or with no config file and no override) reads the status "
        "file with json's C scanner (not the `json` package, which imports re and enum) and finds `[paths] status_file` "
        "with a one-line scan; the console script (`keeltui/__main__.py`) answers before `keeltui.cli.commands` loads. "
        "What is left over `python -c pass` is ten small modules and the files read (no pathlib, re, argparse or "
        "dataclasses). `make install` puts the repo on sys.path with a plain .pth line, so Python's own start imports "
        "no setuptools finder (pathlib, re, urllib.parse): the floor got cheaper too. A config nothing has "
        "validated takes the full path once (argparse, typed config): by design, so a broken config still exits 2."
    ),
    "report": (
        "The app watches the database's folder (inotify, `keeltui/adapters/file_watch.py`) and checks `PRAGMA "
        "data_version` when its files are written, so a report needs a refresh and no poll's wait (where inotify "
        "is not there: a poll every 0.5 s, `STORE_POLL_SECS` in keeltui/shell/store_watch.py)."
    ),
    "idle": (
        "The composer's cursor does not blink (a blinking cursor repaints twice a second forever); what is "
        "left is the 1 s ambient timer, the evidence poll, the judge each cadence while the brain gives bad answers "
        "(the loopback brain answers the judge with prose) and the store's 10 s safety poll (the store itself is "
        "watched by inotify), none of which writes to "
        "the terminal unless something changed (tests/e2e/test_chief_e2e.py checks that an idle app writes "
        "nothing)."
    ),
}


# -- measured in the same run (bench/measures/profile.py, the streaming measure's byte anatomy) --------

def _ms(v: float) -> str:
    return f"{v * 1000:.0f} ms"


def _imports(r) -> str:
    steps = r.facts.get("profile.imports") or []
    return "; ".join(f"{name} +{_ms(secs)} → VmHWM {hwm:.1f} MB" for name, secs, hwm in steps)


def _phases(r) -> str:
    p = r.facts.get("profile.phases") or {}
    k, f = p.get("keeltui"), p.get("floor")
    if not (k and f):
        return ""
    big = p.get("keeltui.100k")
    return (f"`bench.profile_start --phases`: keeltui imports {_ms(k['imports'])} then {_ms(k['to_frame'])} to its "
            f"first full frame; the floor {_ms(f['imports'])} then {_ms(f['to_frame'])}"
            + (f"; keeltui with the 100 000-row room {_ms(big['imports'])} then {_ms(big['to_frame'])}" if big else ""))


def _tottime(r) -> str:
    rows = r.facts.get("profile.tottime") or []
    return ("cProfile up to keeltui's first frame, most own time: "
            + ", ".join(f"{name} {_ms(secs)}" for name, secs in rows[:6])) if rows else ""


def _breakdown(r) -> str:
    rows = r.facts.get("profile.breakdown") or []
    return ("cProfile of keeltui's start up to its first frame (cumulative, cProfile's clock): "
            + ", ".join(f"{label} {_ms(secs)} ({calls} calls)" for label, secs, calls in rows)) if rows else ""


def _first_frame(r) -> str:
    return ". ".join(x for x in (_phases(r), _breakdown(r), _tottime(r),
                                 "import steps in a fresh interpreter: " + _imports(r) if _imports(r) else "") if x)


def _room_gap(r) -> str:
    """How much of the 100k room's extra time comes before its first full frame, and how much after."""
    big, empty = r.median("ttff.keeltui.100k"), r.median("ttff.keeltui.empty")
    p = r.facts.get("profile.phases") or {}
    k, b = p.get("keeltui"), p.get("keeltui.100k")
    if big is None or empty is None or not (k and b):
        return ""
    before = (b["imports"] + b["to_frame"]) - (k["imports"] + k["to_frame"])
    return (f"the 100 000-row room's newest row shows {_ms(big - empty)} after an empty room's composer; up to "
            f"the first full frame the two starts differ by {_ms(before)} (`profile_start --phases`), so the rest "
            f"comes after that frame")


def _rss(r) -> str:
    return ("VmHWM after each import step in a fresh interpreter: " + _imports(r)) if _imports(r) else ""


def _first_message(r) -> str:
    steps = {name: secs for name, secs, _ in r.facts.get("profile.imports") or []}
    client = next((secs for name, secs in steps.items() if name.startswith("openai")), None)
    return f"importing openai and building an AsyncOpenAI takes {_ms(client)} in a fresh interpreter" if client else ""


def _bytes(r) -> str:
    text = r.facts.get("stream.paced.anatomy")
    return f"the last 5 ms-apart run's terminal stream: {text}" if text else ""


def _bytes_burst(r) -> str:
    text = r.facts.get("stream.burst.anatomy")
    return f"the last burst run's terminal stream: {text}" if text else ""


def _lag_split(variant: str):
    def measured_lag(r) -> str:
        lag, write = r.get(f"stream.{variant}.lag"), r.get(f"stream.{variant}.write_lag")
        if not (lag.samples and write.samples):
            return ""
        return (f"of the median {_ms(lag.median)} from the last chunk sent to it on screen, keeltui took "
                f"{_ms(write.median)} (min {_ms(write.lo)}, max {_ms(write.hi)}) to write it to the terminal (the "
                f"pane's bytes with arrival times); the rest is tmux and the 20 ms capture poll")
    return measured_lag


def _pageup(r) -> str:
    from bench.measures.long_chat import PAGEUPS

    samples = r.get("long.pageup").samples
    slow = [(i % PAGEUPS + 1, v) for i, v in enumerate(samples) if v > 0.05]
    if not samples:
        return ""
    return (f"{len(slow)} of {len(samples)} presses took over 50 ms; which press of each run of {PAGEUPS} (time): "
            + ", ".join(f"#{n} ({_ms(v)})" for n, v in slow[:12]))


def _status_cold(r) -> str:
    rows = r.facts.get("profile.status_cold") or []
    return ("`python -X importtime keeltui status` with a config no app has opened, costliest top-level imports "
            "(cumulative): " + ", ".join(f"{name} {_ms(secs)}" for name, secs in rows)) if rows else ""


def _status_warm(r) -> str:
    rows = r.facts.get("profile.status_warm") or []
    return ("`python -X importtime keeltui status` on the fast path (the open app stamped the config), costliest "
            "top-level imports (cumulative): " + ", ".join(f"{name} {_ms(secs)}" for name, secs in rows)) if rows else ""


def _idle(r) -> str:
    threads = r.facts.get("idle.ambient.threads") or []
    return ("CPU by thread over the idle period (/proc/PID/task): "
            + ", ".join(f"{name} {pct:.2f} %" for name, pct in threads)) if threads else ""


MEASURED = {
    "ttff.keeltui": _first_frame,
    "room.same": lambda r: ". ".join(x for x in (_room_gap(r), _phases(r)) if x),
    "rss": _rss,
    "first_message": _first_message,
    "stream.paced.bytes": _bytes,
    "stream.burst.bytes": _bytes_burst,
    "cold_status": _status_cold,
    "long.pageup": _pageup,
    "stream.paced.lag": _lag_split("paced"),
    "stream.burst.lag": _lag_split("burst"),
    "status": _status_warm,
    "idle": _idle,
}


def measured(key: str, r) -> str:
    """What this run's profilers found for the target ``key`` ("" when nothing was recorded)."""
    fn = next((fn for prefix, fn in MEASURED.items() if key.startswith(prefix)), None)
    return fn(r) if fn else ""
