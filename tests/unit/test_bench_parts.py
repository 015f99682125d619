"""The benchmark's own parts: the Ollama shim (real sockets, the real openai client), the
terminal-byte anatomy, the side-by-side table and README's summary block."""

from __future__ import annotations

import json
import urllib.request

import openai

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
