"""Why a target fails: the analysis behind the last full run, shown under the targets
table only for a target that fails. Keep it in step when keeltui changes.

The evidence was gathered with the bench's own tools: ``python -m bench.profile_start``
(cProfile or a phase clock up to the first frame), ``-X importtime``, and the pane's
output piped to a file. Keys are prefixes of the verdict keys in bench/report.py.
"""

CAUSES: dict[str, str] = {
    "ttff.keeltui.empty": (
        "What is left after the fixes (tutor pane, ambient controller and Markdown mounted after the first "
        "frame; no buttons before they are needed): keeltui's own imports (~30 ms: the typed config, the "
        "store, the room's widgets) and the widgets the room needs at once — the tab strip (`TabbedContent`), "
        "the composer (`TextArea`, the largest CSS block), the status line and the footer — against the floor's "
        "header, one line and footer (`python -m bench.profile_start OUT --phases`: imports then CSS parse and "
        "`Stylesheet.apply` dominate the time to the first frame)."
    ),
    "ttff.keeltui.100k": (
        "Everything in the empty-store row, plus the room itself: the 16 newest rows are read (an indexed "
        "tail query, well under 1 ms) and mounted as plain text for the first frame (Markdown is parsed right "
        "after it), and the turn-kind backfill reads only rows above its stored high-water mark. What remains "
        "is laying out and styling those 16 row widgets."
    ),
    "rss": (
        "The brain client is most of it: `import openai` + an `AsyncOpenAI` adds ~30 MB to a bare "
        "interpreter's VmHWM (textual.app adds ~21 MB, rich.markdown ~2.6 MB), so keeltui goes from ~45 MB at "
        "its first frame to ~73 MB once the client has loaded in the background; the 100 000-row room adds the "
        "mounted rows and SQLite's page cache. The client's 30 MB is fixed cost as long as keeltui uses the "
        "openai SDK, which the design requires."
    ),
    "first_message": (
        "The reply needs the openai client, whose import takes ~0.37 s on this machine; keeltui loads it in a "
        "thread right after the first frame, and a call made before that finishes awaits it in a thread too "
        "(`Brain._ready`), so the UI never freezes: the owner's message is stored and drawn at once, and only "
        "the reply waits for the import. The bench sends its message at the very first frame; a person needs "
        "longer than 0.4 s to type one, and 2.5 s after start the first reply lands like any other. Closing "
        "the gap for a message sent at the first frame would mean importing the client before the first frame, "
        "which costs that frame the same 0.37 s."
    ),
    "stream.paced.lag": (
        "The reply's flush timer runs every 70 ms (`FLUSH_SECS` in panes/message.py): the last chunk reaches "
        "the screen 0–70 ms after it was sent, plus one render."
    ),
    "stream.burst.lag": (
        "The stream's SSE lines are read raw and parsed with `json.loads` (`Brain.stream`), not built into "
        "pydantic objects per chunk; what is left is the HTTP read loop and one flush."
    ),
    "stream.paced.cpu": (
        "Per flush: the Markdown of the unsettled tail is re-rendered (`StreamingReply._rebuild`) and only the "
        "changed lines are repainted."
    ),
    "stream.paced.bytes": (
        "While it streams, the reply is a box one screen tall that fills like a pager (`StreamingReply` in "
        "panes/message.py): nothing around it moves, so the room never scrolls during a stream. Bytes are then "
        "(a) one full repaint of the box per page turn (~7–10 KB each: ~33 rows × 120 columns with 24-bit SGR "
        "codes) and (b) ~14 flushes a second that repaint only the lines that changed (~300 bytes each, "
        "Textual repaints a changed line across the widget's width). Short words make (b) large relative to "
        "the text: the bench's 4 000 chunks average under 6 characters. Against elia's ~300× and oterm's ~50×."
    ),
    "stream.burst.bytes": (
        "See the 5 ms row: a burst is drawn in a handful of flushes, so bytes are close to the text's size."
    ),
    "status": (
        "The fast path (`cli._fast_status`, once the open app has stamped the status file with the config it "
        "validated) reads the status file with `json` and finds `[paths] status_file` with a one-line scan; "
        "what is left over `python -c pass` is the `keeltui.cli` module body and `pathlib`. A config no running "
        "app has validated takes the full path (argparse, typed config): by design, so a broken config still "
        "exits 2."
    ),
    "report": (
        "The app polls `PRAGMA data_version` every 0.5 s (`STORE_POLL_SECS` in app.py), so a report needs up "
        "to 0.5 s plus a refresh."
    ),
    "idle": (
        "The composer's cursor does not blink (a blinking cursor repaints twice a second forever); what is "
        "left is the store poll (0.5 s), the 1 s ambient timer and the evidence poll, none of which writes to "
        "the terminal unless something changed (tests/e2e/test_chief_e2e.py checks that an idle app writes "
        "nothing)."
    ),
}
