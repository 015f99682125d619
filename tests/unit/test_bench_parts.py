"""The benchmark's own parts: the Ollama shim (real sockets, the real openai client), the
terminal-byte anatomy, the side-by-side table and README's summary block."""

from __future__ import annotations

import json
import urllib.request

import openai
import pytest

from bench import bytes_anatomy, readme, report
from bench.loop import Reply, Switchboard
from bench.ollama_shim import OllamaShim
from bench.stats import Results


def test_ollama_shim_streams_the_switchboards_reply_on_both_protocols_and_counts_chunks():
    with Switchboard() as board, OllamaShim(board) as shim:
        tags = json.load(urllib.request.urlopen(f"http://{shim.host}/api/tags", timeout=10))
        assert tags["models"][0]["name"] == "loop-model:latest"

        board.expect(Reply(chunks=["one ", "two ", "END"], chunk_delay=0.01))
        client = openai.OpenAI(base_url=f"http://{shim.host}/v1", api_key="x")
        stream = client.chat.completions.create(model="loop-model:latest", stream=True,
                                                messages=[{"role": "user", "content": "hi"}])
        text = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)
        assert text == "one two END"
        assert board.brain.chunks_sent == 3 and board.first_arrival() is not None

        board.expect(Reply(chunks=["a", "b"]))
        request = urllib.request.Request(f"http://{shim.host}/api/chat", method="POST",
                                         data=json.dumps({"model": "m", "messages": []}).encode())
        lines = [json.loads(line) for line in urllib.request.urlopen(request, timeout=10).read().splitlines()]
        assert [line["message"]["content"] for line in lines] == ["a", "b", ""]
        assert lines[-1]["done"] is True and board.brain.chunks_sent == 2


def test_byte_anatomy_splits_frames_and_kinds():
    full = b"\x1b[?2026h" + (b"\x1b[38;2;1;2;3mx" * 400) + b"\x1b[?2026l"
    small = b"\x1b[?2026h\x1b[5;1Hhello\x1b[?2026l"
    a = bytes_anatomy.anatomy(full + small * 3)
    assert a.frames == 4 and a.full_frames == 1
    assert a.sgr == len(b"\x1b[38;2;1;2;3m") * 400
    assert a.cursor == len(b"\x1b[5;1H") * 3
    assert "1 full repaints" in bytes_anatomy.describe(a, 100)


def _results() -> Results:
    r = Results()
    for key, value in [("ttff.floor", 0.2), ("ttff.keeltui.empty", 0.25), ("ttff.elia", 0.6),
                       ("stream.paced.lag", 0.05), ("stream.paced.lag@elia", 6.1), ("stream.paced.pinned", 1),
                       ("stream.paced.pinned@oterm", 0), ("ttff.oterm", 4.0)]:
        r.add(key, value)
    r.fail("stream.paced.lag@oterm", "TimeoutError: never")
    return r


def test_side_by_side_shows_every_subject_in_columns_and_failures_in_cells():
    info = {"date": "d", "runs": "1", "duration": "1 s", "uname": "u", "cpu": "c", "load": "0", "python": "3",
            "textual": "8", "rich": "1", "tmux": "tmux", "keeltui": "abc"}
    text = report.render(_results(), info, None)
    table = text.split("## Side by side", 1)[1].split("\n## ", 1)[0]
    assert "| Figure | floor | keeltui | elia | oterm |" in table
    row = next(line for line in table.splitlines() if line.startswith("| 2 000 chunks 5 ms apart"))
    assert "50 ms" in row and "6.10 s" in row and "failed: TimeoutError" in row
    pins = next(line for line in table.splitlines() if "pinned" in line)
    assert "1 of 1" in pins and "0 of 1" in pins


def test_readme_block_is_replaced_between_markers_and_stays_put_when_rewritten(tmp_path):
    path = tmp_path / "README.md"
    path.write_text("# x\n\n## Benchmarks\n\n<!-- bench-table -->\nold table\n\nold words\n\n## Next\nkept\n")
    markdown = "- **Date**: today\n\n## Targets (issue 14)\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n## Other\n"
    assert readme.update(path, markdown)
    once = path.read_text()
    assert "old table" not in once and "| 1 | 2 |" in once and "## Next\nkept" in once
    assert readme.update(path, markdown)
    assert path.read_text() == once


def test_byte_anatomy_tells_frames_apart_by_arrival_time_when_unmarked():
    data = b"x" * 5000 + b"y" * 300 + b"z" * 200
    pieces = [(1.000, 4000), (1.001, 1000), (1.100, 300), (1.200, 200)]
    a = bytes_anatomy.anatomy(data, pieces)
    assert a.frames == 3 and a.full_frames == 1 and a.full_bytes == 5000


def test_arrival_of_finds_the_piece_that_carried_the_marker():
    data = b"aaaa" + b"bbENDMARKcc" + b"dd"
    pieces = [(1.0, 4), (2.0, 11), (3.0, 2)]
    assert bytes_anatomy.arrival_of(data, pieces, b"ENDMARK") == 2.0
    assert bytes_anatomy.arrival_of(data, pieces, b"nothere") is None


def test_row_numbers_are_read_off_the_screen_top_to_bottom():
    from bench.screen_reading import rows_on_screen, top_row

    screen = ("  you\n  Turn 998: the plan for the week?\n  Chief\n  Reply 999. steady\n"
              "  - one point\n  Task  Nightly backup finished (1049). the plan\n  Turn 1050: and 12 more\n")
    assert rows_on_screen(screen) == [998, 999, 1049, 1050]
    assert top_row(screen) == 998
    assert top_row("Write to the Chief…") is None
    assert rows_on_screen("Turnover 12: no, Reply 3x no") == []


def test_pages_moved_counts_in_unhurried_presses():
    from bench.screen_reading import pages_moved

    assert pages_moved(99_000, 98_560, 11) == 40
    assert pages_moved(500, 500, 11) == 0
    with pytest.raises(ValueError):
        pages_moved(5, 1, 0)


def test_each_press_is_answered_by_the_next_write_after_it():
    from bench.screen_reading import answer_times

    presses = [1.000, 1.030, 1.060, 1.090]
    writes = [0.5, 1.004, 1.075, 1.076]  # the third press was folded into the second's frame
    assert answer_times(presses, writes) == pytest.approx([0.004, 0.045, 0.015, None])
    assert answer_times([], writes) == []


def test_percentiles_are_values_that_were_measured():
    from bench.stats import percentile

    samples = [float(v) for v in range(1, 101)]
    assert percentile(samples, 95) == 95.0 and percentile(samples, 99) == 99.0 and percentile(samples, 100) == 100.0
    assert percentile([0.2, 0.1], 50) == 0.1 and percentile([], 95) is None
    with pytest.raises(ValueError):
        percentile(samples, 0)


def test_code_lines_and_gc_pauses_are_parsed():
    from bench.screen_reading import gc_pauses, gc_pauses_ms, last_code_line

    assert last_code_line("│ line 00041 = 41\n│ line 00042 = 42\n│ line 0004") == 42
    assert last_code_line("nothing yet") is None
    assert gc_pauses_ms("0 0.120 3\n2 31.500 1200\n1 2.0") == [0.12, 31.5]
    assert gc_pauses("0 0.120 3 0.110\n2 31.500 1200 9.250\n2 3.0 5\n1 2.0") == [(0, 0.12, 0.11), (2, 31.5, 9.25), (2, 3.0, None)]


def test_issue_19_targets_pass_and_fail_on_their_figures():
    from bench import targets19

    r = Results()
    for key, value in (("ttff.floor", 0.160), ("ttff.keeltui.empty", 0.200), ("ttff.keeltui.1m", 0.260),
                       ("paging.home", 0.030), ("paging.held.pages", 39.0), ("paging.held.pages", 31.0),
                       ("paging.held.unanswered", 0.0), ("paging.memory.delta", 4.0),
                       ("paging.held.gc_over_20ms", 0.0), ("paging.held.gc_max_ms", 12.0),
                       ("status.python", 0.030), ("status.keeltui", 0.033), ("status.noconfig", 0.045)):
        r.add(key, value)
    for v in [0.010] * 95 + [0.030] * 4 + [0.060]:
        r.add("paging.held.answer", v)
    got = {v.key: v for v in targets19.verdicts(r)}
    assert got["ttff.keeltui.empty"].ok and not got["ttff.keeltui.1m"].ok  # 1.25× vs 1.63× the floor
    assert not got["room.1m"].ok and got["paging.home"].ok
    assert not got["paging.held"].ok and "31.0 of 40" in got["paging.held"].measured  # the worst run counts
    assert got["paging.p95"].ok and got["paging.p99"].ok
    assert got["paging.memory"].ok and got["paging.gc"].ok
    assert got["19.status.keeltui"].ok and not got["19.status.noconfig"].ok
    assert got["code.echo"].ok is None and got["idle.tmux_status"].ok is None  # not measured: no verdict
    lines: list[str] = []
    targets19.render(r, lines.append)
    assert any(line.startswith("| a held PageUp") and "**FAIL**" in line for line in lines)
    assert "## `keeltui status`, four cases" in lines


def test_readme_summary_carries_issue_19s_targets_too():
    markdown = "\n".join([
        "- **Date**: today", "## Targets (issue 14)", "| a | b | c |", "| old | 1 | **PASS** |",
        "## Targets (issue 19: the Chief room at any size)", "| a | b | c |", "| held PageUp | 20 of 40 | **FAIL** |",
        "## Side by side", "| x | y |",
    ])
    text = readme.block(markdown)
    assert "| old | 1 | **PASS** |" in text and "| held PageUp | 20 of 40 | **FAIL** |" in text
    assert text.index("Issue 19's targets") < text.index("| held PageUp") < text.index("Side by side")


def test_the_soak_section_says_what_a_visit_does_and_how_many_stumbled():
    from bench import soak_report

    r = Results()
    r.add("soak.start.rss_mb", 80.0)
    r.facts.update({"soak.batches": 40, "soak.visits": 5, "soak.visit_failures": 1})
    lines: list[str] = []
    soak_report.render(r, lines.append)
    text = "\n".join(lines)
    assert "types a question to the Chief" in text and "tutor turn" in text and "searches the room" in text
    assert "Visits: 5, of which 1 stumbled" in text


def test_the_moment_a_stream_had_written_texts_is_read_from_its_stamps():
    from bench.screen_reading import shown_text, written_at

    frame = (b"\x1b[?1049h\x1b]0;app\x07\x1b[1;1H\x1b[38;2;1;2;3mLAST\x1b[0mROW"
             b"\x1b[3;1H\x1b[7mW\x1b[27mrite to \xe2\x80\xa6")
    assert shown_text(frame) == "LASTROWWrite to \u2026"
    cut = frame.index(b"\x1b[3;1H") + 3  # the second piece starts inside an escape sequence
    times = f"10.0 5\n10.5 {cut - 5}\n10.9 {len(frame) - cut}\n"
    assert written_at(frame, times, "LASTROW") == 10.5
    assert written_at(frame, times, "LASTROW", "Write to") == 10.9
    assert written_at(frame, times, "never shown") is None
    assert written_at(frame, "10.0 5\n10.5 garb", "LASTROW") is None  # a line cut short


class _Machine:
    """A clock, a sleep and the machine's busy seconds, scripted: ``busy_per_window`` is the CPU
    the machine uses in each successive window."""

    def __init__(self, busy_per_window):
        self.now, self.total, self.windows = 0.0, 100.0, list(busy_per_window)

    def sleep(self, secs):
        self.now += secs
        self.total += self.windows.pop(0) if self.windows else 0.0

    def clock(self):
        return self.now

    def busy(self):
        return self.total


@pytest.mark.parametrize("windows, quiet, waited", [
    ([0.0], True, 0.2),  # quiet at once: one window
    ([0.5, 0.3, 0.01], True, 0.6),  # a start still ending, then quiet
    ([0.5] * 100, False, 5.0),  # never quiet: gives up after at_most
])
def test_a_start_waits_for_the_machine_to_be_quiet(windows, quiet, waited):
    from bench.procs import wait_until_quiet

    m = _Machine(windows)
    took, was_quiet = wait_until_quiet(5.0, busy=m.busy, clock=m.clock, sleep=m.sleep)
    assert was_quiet is quiet and took == pytest.approx(waited)


def test_the_machine_s_busy_seconds_grow_and_leave_out_idle():
    from bench.procs import machine_busy_seconds

    first = machine_busy_seconds()
    sum(i * i for i in range(2_000_000))  # some CPU of our own
    assert machine_busy_seconds() >= first > 0


def test_first_frame_lines_are_judged_on_each_rounds_own_ratio():
    from bench import targets19

    r = Results()
    # The machine's pace moves between rounds; keeltui's start is 1.2x the floor's in each of
    # the first four rounds, and its slow starts fell in fast rounds of the floor's: the
    # medians (0.21 s vs 0.36 s) would say 1.71x.
    rounds = [(0.20, 0.24), (0.20, 0.24), (0.30, 0.36), (0.30, 0.36), (0.21, 0.36)]
    for i, (floor, keel) in enumerate(rounds):
        r.add("ttff.floor", floor)
        r.add("ttff.keeltui.empty", keel)
        r.add_round("ttff", {"floor": floor, "keeltui.empty": keel} if i else {"keeltui.empty": keel})
    r.add_round("ttff", {"floor": 0.2})  # a round where keeltui's start failed: no pair
    assert r.paired_ratio("ttff", "keeltui.empty", "floor") == (1.2, 4)
    got = {v.key: v for v in targets19.verdicts(r)}
    assert not got["ttff.keeltui.empty"].ok and "1.71×" in got["ttff.keeltui.empty"].measured  # 4 pairs: medians
    r.facts["rounds.ttff"][0]["floor"] = 0.20
    got = {v.key: v for v in targets19.verdicts(r)}
    assert got["ttff.keeltui.empty"].ok, got["ttff.keeltui.empty"].measured
    assert "1.20×: median of 5 rounds" in got["ttff.keeltui.empty"].measured and "(1.71×)" in got["ttff.keeltui.empty"].measured


def test_first_frame_rounds_rotate_the_order():
    from bench.measures.first_frame import round_order

    subjects = ["floor", "empty", "100k", "1m"]
    orders = [round_order(subjects, i) for i in range(4)]
    assert [o[0] for o in orders] == subjects  # each subject first once in four rounds
    assert all(sorted(o) == sorted(subjects) for o in orders)
    assert all((o + o)[(o + o).index("floor") + 1] == "empty" for o in orders)  # neighbours, cyclically
    assert sum(o.index("empty") == o.index("floor") + 1 for o in orders) == 3  # in time, three rounds of four
    assert round_order(subjects, 5) == round_order(subjects, 1)


def test_first_frame_work_reads_callgrinds_count():
    from bench.measures.first_frame_work import counted

    log = "==41== Callgrind, a call-graph generating cache profiler\n==41== Events    : Ir\n==41== Collected : 1160254113\n"
    assert counted(log) == 1_160_254_113
    assert counted("==41== error: no such file") is None


def test_the_first_frame_section_says_its_notes_and_the_work_table_its_figures():
    info = {"date": "d", "runs": "1", "duration": "1 s", "uname": "u", "cpu": "c", "load": "0", "python": "3",
            "textual": "8", "rich": "1", "tmux": "tmux", "keeltui": "abc"}
    r = _results()
    r.note("first_frame", "14 of 15 recorded starts began with the machine quiet")
    for key, value in (("work.floor", 950e6), ("work.keeltui.empty", 1150e6), ("work.keeltui.1m", 1170e6)):
        r.add(key, value)
    text = report.render(r, info, None)
    section = text.split("## Time to first frame", 1)[1].split("\n## ", 1)[0]
    assert "14 of 15 recorded starts began with the machine quiet" in section
    work = text.split("## Work to the first frame", 1)[1].split("\n## ", 1)[0]
    assert "| keeltui, empty store | 1150 M  | 1.21× | — |" in work
    assert "1170 M  | 1.23× | 1.02× |" in work
