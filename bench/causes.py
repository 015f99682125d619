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
        "The reply's flush timer runs every 100 ms (`FLUSH_SECS` in panes/message.py), but the end of the "
        "stream does not wait for it: the finished row is drawn when the turn ends, plus one render (and the "
        "layout that drops the box's spare rows)."
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
        "The reply grows in place and the room follows its bottom (issue 9: no page-tall pager box, so the "
        "owner's message and the reply's first words are never scrolled off). The box holds the text plus room "
        "to grow (`reserved_rows` in chief/streaming.py: most of a screen, keeping 8 lines of context), so the "
        "room scrolls about once per screen of text; every such scroll repaints the whole view, and with the "
        "layout that grows the box the pane receives ~19 KB per step at 120x40 (`tmux pipe-pane` with "
        "timestamps: two ~9 KB writes 30–40 ms apart per growth), ~11 steps for the bench's reply. The rest "
        "is (b) ten flushes a second repainting the one or two lines that changed (~500 bytes each: Textual "
        "repaints a changed line across the widget's width, margin and scrollbar included). The old pager box "
        "turned its page without moving the room (9.4× on the same machine) but hid short replies and the "
        "owner's message; the room log no longer re-lays itself out when its virtual size changes (one full "
        "repaint less per step). Against elia's ~300× and oterm's ~50×."
    ),
    "first_chunk": (
        "A piece that lands in an empty buffer wakes the reply at once (`StreamBuffer.set_waker`) instead of "
        "waiting for the 0.1 s flush timer; what is left is the HTTP read, one layout (the box grows from the "
        "header to the text) and tmux. Over the limit only when the two cores are busy with other work."
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
