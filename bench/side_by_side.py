"""One table: every figure, the floor, keeltui and the peers in columns, from the same run.

Series keys: keeltui's keep their historical names; a peer's are ``base@peer``
(bench.context.tag); first frame and RSS are keyed by subject (``ttff.elia``).
"""

from __future__ import annotations

from collections.abc import Callable

from bench.stats import Results, Series

WHO = ("floor", "keeltui", "elia", "oterm")


def _base(base: str) -> Callable[[str], str | None]:
    """A chat figure: nothing for the floor, ``base`` for keeltui, ``base@peer`` for a peer."""
    return lambda who: None if who == "floor" else (base if who == "keeltui" else f"{base}@{who}")


def _start(prefix: str, keeltui: str) -> Callable[[str], str | None]:
    return lambda who: f"{prefix}.{keeltui if who == 'keeltui' else who}"


def rows(fmt) -> list[tuple[str, Callable[[str], str | None], Callable, str]]:
    """(label, who → series key, formatter, how to summarise: "median" or "pins")."""
    secs, mb, pct, times = fmt.secs, fmt.mb, fmt.pct, fmt.times
    return [
        ("first frame (empty store)", _start("ttff", "keeltui.empty"), secs, "median"),
        ("first frame, 100 000-row room (newest row on screen)",
         lambda w: "ttff.keeltui.100k" if w == "keeltui" else None, secs, "median"),
        ("first frame, 1 000 000-row room (newest row on screen)",
         lambda w: "ttff.keeltui.1m" if w == "keeltui" else None, secs, "median"),
        ("peak RSS at the first frame", _start("rss", "keeltui.empty"), mb, "median"),
        ("peak RSS 3 s later (keeltui: brain client loaded)",
         lambda w: "rss_brain.keeltui.empty" if w == "keeltui" else None, mb, "median"),
        ("peak RSS, 100 000-row room, brain client loaded",
         lambda w: "rss_brain.keeltui.100k" if w == "keeltui" else None, mb, "median"),
        ("reply typed at the first frame: Enter → reply on screen", _base("first_message.cold"), secs, "median"),
        ("reply typed 2.5 s after the first frame", _base("first_message.after_load"), secs, "median"),
        ("warm reply (second message)", _base("first_message.warm"), secs, "median"),
        ("short reply (0.2 s between chunks): first chunk sent → on screen", _base("first_chunk.lag"), secs, "median"),
        ("2 000 chunks 5 ms apart: last chunk sent → on screen", _base("stream.paced.lag"), secs, "median"),
        ("… CPU, % of a core", _base("stream.paced.cpu_pct"), pct, "median"),
        ("… terminal bytes × the reply's text", _base("stream.paced.bytes_ratio"), times, "median"),
        ("… pinned to the bottom 1 s after the end", _base("stream.paced.pinned"), None, "pins"),
        ("… peak RSS after the reply", _base("stream.paced.rss"), mb, "median"),
        ("2 000 chunks, burst: last chunk sent → on screen", _base("stream.burst.lag"), secs, "median"),
        ("… CPU, % of a core", _base("stream.burst.cpu_pct"), pct, "median"),
        ("… terminal bytes × the reply's text", _base("stream.burst.bytes_ratio"), times, "median"),
        ("… pinned to the bottom 1 s after the end", _base("stream.burst.pinned"), None, "pins"),
        ("idle, % of a core (keeltui: sentinel, evidence and store watcher on)",
         lambda w: f"idle.{'ambient' if w == 'keeltui' else w}.pct", pct, "median"),
        ("long conversation (1 000 messages): start → newest message on screen", _base("long.newest"), secs, "median"),
        ("100 000-row room: PageUp → the view moves (every press)",
         lambda w: "long.pageup" if w == "keeltui" else None, secs, "median"),
        ("1 000 000-row room, a held PageUp (40 presses 30 ms apart): press → the app's next write",
         lambda w: "paging.held.answer" if w == "keeltui" else None, secs, "median"),
        ("a 5 000-line code block streaming at 500 lines/s: keystroke → echo",
         lambda w: "code.echo" if w == "keeltui" else None, secs, "median"),
    ]


def _cell(s: Series, fmt, how: str) -> str:
    if how == "pins":
        return f"{int(sum(s.samples))} of {len(s.samples)}" if s.samples else _why(s)
    if not s.samples:
        return _why(s)
    if len(s.samples) == 1:
        return fmt(s.median)
    return f"{fmt(s.median)} ({fmt(s.lo)} – {fmt(s.hi)})"


def _why(s: Series) -> str:
    return f"failed: {s.errors[-1][:80]}" if s.errors else "—"


def render(r: Results, add) -> None:
    from bench import report as fmt  # its number formats; report imports this module at the top
    present = [w for w in WHO if w in ("floor", "keeltui") or any(k.endswith(f"@{w}") or k == f"ttff.{w}"
                                                                    for k in r.series)]
    add("## Side by side")
    add("")
    add("Every figure from the same run, median (min – max); the peers in their own venvs, talking to the same")
    add("loopback server (oterm through the Ollama shim, bench/ollama_shim.py) with the same chunk schedule.")
    add("Load averages while each measure ran: " + ", ".join(
        f"{k.split('.', 1)[1]} {v}" for k, v in r.facts.items() if k.startswith("load.")) + ".")
    add("")
    add("| Figure | " + " | ".join(present) + " |")
    add("| --- |" + " --- |" * len(present))
    for label, key_of, f, how in rows(fmt):
        cells = []
        for who in present:
            key = key_of(who)
            cells.append("" if key is None else _cell(r.get(key), f, how))
        if any(c not in ("", "—") for c in cells):
            add(f"| {label} | " + " | ".join(cells) + " |")
    add("")
