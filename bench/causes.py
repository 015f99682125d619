"""Why a target fails: the analysis behind the last full run, shown under the targets
table only for a target that fails. Keep it in step when keeltui changes.

The evidence was gathered with the bench's own tools: ``python -m bench.profile_start``
(cProfile or a phase clock up to the first frame), ``-X importtime``, and the pane's
output piped to a file. Keys are prefixes of the verdict keys in bench/report.py.
"""

CAUSES: dict[str, str] = {
    "ttff.keeltui.empty": (
        "Both halves of the start cost more than the floor's. Phase clock (`bench.profile_start --phases`, median "
        "of 5): imports 280–310 ms against the floor's 160 ms, then imports → first frame 180 ms against 32 ms. "
        "Imports not needed for the first frame: `keeltui.tutor_view` (tutor session, mermaid parser, assessment "
        "card: ~34 ms under `-X importtime`) for a tab that is hidden at start, `rich.markdown` + `markdown_it` + "
        "`pygments` (~28 ms, via `panes/message.py`) even for an empty room, `keeltui.brain` (~20 ms although "
        "openai stays lazy), and dataclass-heavy `config`/`store` (~10 ms each). After the imports, "
        "`TabbedContent` composes *both* panes, so ~70 widgets mount and 16 CSS sources are parsed and applied "
        "(cProfile: `Stylesheet.apply` is the largest single item) against the floor's 11 widgets. Fix: mount the "
        "tutor pane lazily on its first activation (a placeholder `TabPane` until then) and import its modules "
        "there, and import `rich.markdown` only when a row has Markdown to draw."
    ),
    "ttff.keeltui.100k": (
        "Everything above, plus ~55 ms for the long room: `Store()` runs `_backfill_turn_kinds` on every open, a "
        "full `SCAN messages` (EXPLAIN QUERY PLAN) that costs 16.5 ms at 100 000 rows and grows linearly; and "
        "`on_mount` mounts `INITIAL_ROWS = 40` rows although ~8 fit on a 40-line screen, each a `ChatMessage` "
        "whose constructor parses its Markdown eagerly (`ChatMessage.__init__` → `_renderable`, ~1 ms each), and "
        "all 40 are rendered once more by the layout to measure their auto height. Fix: remember a backfill "
        "high-water mark (max id checked) in `app_state` and scan only newer rows (or run the backfill after the "
        "first frame); mount about one screenful first and page the rest in after the first frame; build the "
        "`Markdown` renderable lazily in `render()`."
    ),
    "rss": (
        "Borderline at 100 000 rows. The brain client (openai 3.x and its `types` package, pydantic models) adds "
        "~32 MB once it loads after the first frame (42 → 75 MB on an empty room); the long room adds ~5 MB "
        "(40 mounted rows with their Markdown renderables). Mounting one screenful of rows at start gives the "
        "margin back."
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
        "`keeltui status` spends ~50 ms above bare `python -c pass` (22–26 ms): the console script imports "
        "`keeltui.cli`, which builds the *whole* argparse tree (all 14 subcommands, ~9 ms), then "
        "`keeltui.config` (15 dataclasses whose methods `dataclasses` compiles at import, ~9 ms; `tomllib` ~6 ms; "
        "`typing`, `pathlib`) and `keeltui.statusfile` (`tempfile`, `shutil`, `textsafe`). Textual and openai "
        "are correctly absent. Fix: a fast path before argparse — `keeltui/__main__`/`cli.main` recognises "
        "`status [--tmux] [--config PATH]` from `sys.argv`, finds the status file from `KEEL_*`/`XDG_STATE_HOME` "
        "(reading only `[paths] status_file` from the TOML when a config file exists), prints it, and exits; "
        "`statusfile.read_status` must not pull in the writer's imports (`tempfile`, `shutil`)."
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
