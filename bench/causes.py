"""Why a target fails: the analysis behind the last full run, shown under the targets
table only for a target that fails. Keep it in step when keeltui changes.

The evidence was gathered with the bench's own tools: ``python -m bench.profile_start``
(cProfile or a phase clock up to the first frame), ``-X importtime``, and the pane's
output piped to a file. Keys are prefixes of the verdict keys in bench/report.py.
"""

CAUSES: dict[str, str] = {
    "ttff.keeltui.empty": (
        "Phase clock (`python -m bench.profile_start OUT --phases`, median of 5, after the tutor pane and "
        "Markdown moved off the start-up path): imports 184 ms against the floor's 130 ms, then imports → first "
        "frame 96 ms against 25 ms. Imports: keeltui's own modules, ~50 ms together under `-X importtime` — "
        "dataclass-heavy `config`, `brain` and `store` (dataclasses compiles their methods at import), "
        "`app`, `panes.composer`, `chief_view`, `messages`; `keeltui.brain` is imported only to construct a "
        "`Brain` that does nothing before the first frame. After the imports (cProfile to the first full "
        "write): 12 CSS sources parsed against the floor's 4, and ~44 widgets composed and styled "
        "(`Stylesheet.apply` is the largest item) against 11 — among them the composer's hidden verdict "
        "buttons, the hidden drift banner and the empty tutor tab. `cli.main` also builds the whole argparse "
        "tree (~7 ms) to start the app. Fix: compose the verdict buttons and the banner when first needed, "
        "import `keeltui.brain` lazily (the app only needs it after the first frame), and keep the start-up "
        "CSS to the widgets on screen."
    ),
    "ttff.keeltui.100k": (
        "Everything above, plus ~50 ms for the long room (cProfile): the 16 rows mounted before the first frame "
        "are `ChatMessage`s that build their `rich.markdown.Markdown` in the constructor (`ChatMessage.__init__` → "
        "`_renderable`): the first one pays the `rich.markdown`/`markdown_it`/`pygments` import (~30 ms) that "
        "the empty room now avoids, then each parses its Markdown; and `Store()` runs `_backfill_turn_kinds` on "
        "every open, a full `SCAN messages` (EXPLAIN QUERY PLAN) that costs 16.5 ms at 100 000 rows and grows "
        "linearly. Fix: draw the first screenful as plain `Text` and swap in Markdown after the first frame "
        "(or build the Markdown lazily in `render()` and import it in a worker right after the first frame); "
        "remember a backfill high-water mark (max id checked) in `app_state` and scan only newer rows, or run "
        "the backfill after the first frame."
    ),
    "rss": (
        "The brain client is most of it: `import openai` + an `AsyncOpenAI` with `chat.completions` touched "
        "adds 30 MB to a bare interpreter's VmHWM (textual.app adds 21 MB, rich.markdown 2.6 MB), so keeltui "
        "goes from ~44 MB at its first frame to ~73–75 MB once the client has loaded; the 100 000-row room adds "
        "~5 MB on top (rich.markdown and its parsers 2.6 MB, the mounted rows and their renderables, and "
        "SQLite's page cache — up to 2 MB by default — filled by the backfill scan), which lands right at 80 MB. Ways down: keep the backfill scan off the start (it reads "
        "every row), and give SQLite a smaller `cache_size`; the openai client's 30 MB is fixed cost as long as "
        "keeltui uses the SDK (a plain httpx2 + `json` client, as suggested for streaming, would avoid most of it)."
    ),
    "first_message": (
        "`Brain.stream()` (keeltui/brain.py) runs `import openai` on the event loop's thread. A message sent "
        "before the background `warm()` has finished importing openai (~0.43 s on this machine) blocks the whole "
        "UI on the import lock until that import ends: even the owner's own turn (written ahead to the store and "
        "mounted by `on_composer_submitted`) reaches the screen only ~0.6 s after Enter, in the same frame as the "
        "reply, because the reply worker starts on the same loop and blocks it before the next refresh. Typed "
        "2.5 s after the first frame, the first message answers in ~85 ms, so warming itself works. Fix: in "
        "`stream()`, `complete()` and the tool-call path, `await asyncio.to_thread(self.warm)` (or await one "
        "shared warm-up future) before the first `import openai` on the loop; guard `client()` with a lock so "
        "that the warm thread and a call cannot build two clients."
    ),
    "stream.paced.lag": (
        "Borderline: the reply's flush timer runs every 50 ms (`FLUSH_SECS` in panes/message.py) and the "
        "marker can land just after a tick, or in a tick that also repaints the whole room (a height jump, see "
        "the bytes row), so the last chunk reaches the screen 10–110 ms after it was sent."
    ),
    "stream.burst.lag": (
        "Parsing the stream is the bottleneck: the openai SDK turns each SSE event into pydantic models "
        "(`openai._models.construct_type`), ~110 µs a chunk on this machine — streaming the same 4 000 chunks "
        "from the loopback server takes 0.47 s of CPU through `AsyncOpenAI` and 0.05 s through `httpx2` + "
        "`json.loads` of each `data:` line. The app's own part (one `StreamBuffer` drained per 50 ms flush) is "
        "small. Fix: in `Brain.stream()` (keeltui/brain.py) read the SSE lines through the client's "
        "`with_streaming_response` (or httpx2 directly) and `json.loads` them, keeping the SDK for errors."
    ),
    "stream.paced.cpu": (
        "Borderline. cProfile of a paced stream (append-only `StreamingReply`): the openai SDK's per-chunk "
        "pydantic construction is now the largest single item (`Brain.stream` ≈ a third of the busy time, see the "
        "burst row), then the compositor repainting the whole room twice per height jump (see the bytes row), "
        "then the Markdown of the unsettled tail re-rendered each flush (`StreamingReply._rebuild`). Parsing SSE "
        "with `json.loads` and one repaint per jump give the margin back."
    ),
    "stream.paced.bytes": (
        "Most bytes are full repaints of the room when the reply's reserved height jumps (`RESERVE_STEP = 8` "
        "lines in panes/message.py): the pane output of one paced run holds ~79 frames that repaint more than "
        "10 rows (~10 KB each: ~33 rows × 120 columns with 24-bit SGR codes) = 86 % of the bytes, and ~400 "
        "tail-only frames of ~190 bytes = 14 %. The repaints come in pairs: `refresh(layout=True)` repaints the "
        "region with the taller widget, then the anchored scroll repaints it again on the next frame, so each "
        "jump costs two full repaints. Fix: scroll in the same refresh as the layout change (one repaint per "
        "jump, ~−43 %), and a larger step (e.g. a third of the room's height, 10–12 lines) halves the jumps "
        "again; together about 12–15×. Under 10× also needs fewer bytes per repainted row (one background for "
        "the whole room instead of per-segment SGR resets). Against elia's ~300× and oterm's ~50×."
    ),
    "stream.burst.bytes": (
        "See the 5 ms row: bytes scale with the number of full repaints while the view scrolls."
    ),
    "status": (
        "The fast path (`cli._fast_status`, used once the open app has stamped the status file) costs ~12 ms "
        "above `python -c pass` (~20 ms; `-X importtime` of `keeltui --config FILE status` with the app open): "
        "`tomllib` ~6 ms, imported by `paths.status_path_fast` because the config names `[paths] status_file` "
        "(the bench's config does, to stay in its temp dir); `keeltui.cli`'s own module body ~3 ms (every "
        "command's function is defined before the fast path runs); `keeltui.statusfile` ~2 ms (`typing` for "
        "one `NamedTuple`, `json`). Fix: move the fast path into a tiny module the console script imports "
        "first (no `keeltui.cli` until it declines), find `status_file` with a one-line scan of the `[paths]` "
        "table before falling back to `tomllib`, and drop `typing` from the status reader. A config no running "
        "app has opened yet takes the full path (argparse tree, typed config, ~60 ms): by design."
    ),
    "report": (
        "The app polls `PRAGMA data_version` every 0.5 s (`STORE_POLL_SECS` in app.py), so a report needs up "
        "to 0.5 s plus a refresh."
    ),
    "idle": (
        "The composer's blinking cursor: the focused `ComposerInput` (a `TextArea`) redraws its line twice a "
        "second — 435 bytes/s to the terminal forever, against 0 B/s for the floor — and that render + write is "
        "most of the idle CPU: 0.90 % of a core with the composer focused, 0.20 % after Escape (same app, 20 s "
        "each). The sentinel, evidence poll and store watcher add little (compare the ambient-off row). Fix: "
        "`ComposerInput(..., cursor_blink=False)` (or stop blinking after a few seconds without a key, or while "
        "the terminal reports focus lost)."
    ),
}
