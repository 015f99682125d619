"""No report can break the conversation (issue 10, point 4).

A loopback brain with a real, small window refuses an oversized prompt the way OpenAI,
vLLM and llama.cpp do (HTTP 400, "maximum context length"); the real openai client,
a real SQLite file and the real ChiefTurns run against it.
"""

from __future__ import annotations

import json
import subprocess
import sys

from keeltui.brain import Brain
from keeltui.chief import context as ctx
from keeltui.config import load_config
from keeltui.services.chief_turns import ChiefTurns
from keeltui.services.report_intake import OVERFLOW_EVENT
from keeltui.store import Store
from tests.conftest import write_config
from keeltui_dev.loopback import Reply

TWENTY_MB = 20 * 1024 * 1024


def _tokens(request: dict) -> int:
    return sum(len(m.get("content") or "") for m in request.get("messages", [])) // 4


def windowed(real_window: int, answer: str = "fine"):
    """A responder for a model whose window is ``real_window`` tokens."""

    def respond(request: dict) -> Reply:
        used = _tokens(request)
        if used > real_window:
            return Reply(status=400, error_message=(
                f"This model's maximum context length is {real_window} tokens. However, your "
                f"messages resulted in {used} tokens. Please reduce the length of the messages."))
        if not request.get("stream"):
            return Reply(text="[summary] the owner asked about backups and the weather.")
        return Reply(text=answer)

    return respond


def _turns(tmp_path, loopback, extra: str = "") -> ChiefTurns:
    path = write_config(tmp_path / "config.toml", loopback.url, extra + f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\n')
    config = load_config(path, env={})
    store = Store(config.database_path())
    return ChiefTurns(store, Brain(config.brain), config)


async def test_a_20mb_report_does_not_make_later_turns_fail(tmp_path, loopback):
    loopback.responder = windowed(4096)
    turns = _turns(tmp_path, loopback, "[brain.context_windows]\nchief = 4096\n")
    # Stored directly, as by an older keeltui without the cap: the context must still hold.
    turns.store.add_report("cron:backup", "backup log line\n" * (TWENTY_MB // 16))
    for question in ("did the backup run?", "and the one before?"):
        result = await turns.reply(turns.add_user_turn(question))
        assert result.error is None, result.error
        assert result.text == "fine"
    for request in loopback.requests:
        assert _tokens(request) <= 4096
    # Never dropped: cut with a marker in a turn's context, or folded into a summary (it
    # came before the first turn, which stays verbatim).
    sent = [m["content"] for r in loopback.requests for m in r["messages"]]
    assert any("backup log line" in c and "[cut here:" in c for c in sent)
    assert len(turns.store.messages(turns.room_id)[0].content) == TWENTY_MB  # the room keeps it whole
    await turns.brain.aclose()
    turns.store.close()


async def test_compaction_runs_before_a_call_that_would_overflow(tmp_path, loopback):
    loopback.responder = windowed(100_000)
    turns = _turns(tmp_path, loopback, "[chief]\ncompact_at = 0.75\nkeep_recent = 2\n[brain.context_windows]\nchief = 2000\n")
    for i in range(8):  # ~6400 characters of history: over 0.75 of a 2000-token window
        turns.store.add_message(turns.room_id, "user", f"question {i} " + "q" * 380)
        turns.store.add_message(turns.room_id, "assistant", f"answer {i} " + "a" * 380)
    result = await turns.reply(turns.add_user_turn("what now?"))
    assert result.error is None
    kinds = ["stream" if r.get("stream") else "summary" for r in loopback.requests]
    assert kinds == ["summary", "stream"], kinds
    stream = loopback.requests[-1]["messages"]
    assert any("[summary]" in m["content"] for m in stream if m["role"] == "system")
    assert "question 0" not in json.dumps(stream)
    assert any(r.turn_kind == "summary" for r in turns.store.messages(turns.room_id))
    await turns.brain.aclose()
    turns.store.close()


async def test_context_length_exceeded_compacts_and_retries_once(tmp_path, loopback):
    # The config believes in a big window; the server's real one is 1500 tokens.
    loopback.responder = windowed(1500, answer="here you go")
    turns = _turns(tmp_path, loopback, "[chief]\nkeep_recent = 4\n[brain.context_windows]\nchief = 100000\n")
    for i in range(12):
        turns.store.add_message(turns.room_id, "user", f"question {i} " + "q" * 600)
        turns.store.add_message(turns.room_id, "assistant", f"answer {i} " + "a" * 600)
    result = await turns.reply(turns.add_user_turn("last question"))
    assert result.error is None, result.error
    assert result.text == "here you go"
    statuses = [("stream" if r.get("stream") else "summary", _tokens(r) <= 1500) for r in loopback.requests]
    # Folded in as many summary calls as it takes for every row to reach a summary, each within the window.
    assert statuses[0] == ("stream", False) and statuses[-1] == ("stream", True), statuses
    assert statuses[1:-1] and set(statuses[1:-1]) == {("summary", True)}, statuses
    assert any(r.turn_kind == "summary" for r in turns.store.messages(turns.room_id))
    # The retry still asks the question: the turn being answered is kept, not folded away.
    retried = loopback.requests[-1]["messages"]
    assert retried[-1] == {"role": "user", "content": "last question"}, retried[-1]
    await turns.brain.aclose()
    turns.store.close()


async def test_a_second_refusal_is_reported_not_retried_forever(tmp_path, loopback):
    loopback.responder = lambda request: Reply(status=400, error_message="maximum context length is 10 tokens")
    turns = _turns(tmp_path, loopback)
    user_id = turns.add_user_turn("hello")
    result = await turns.reply(user_id)
    assert result.error and "HTTP 400" in result.error
    assert len([r for r in loopback.requests if r.get("stream")]) == 2  # the call and one retry
    assert turns.store.message(user_id).content == "hello"  # the turn is kept
    await turns.brain.aclose()
    turns.store.close()


def test_rows_are_cut_with_a_marker_and_the_context_fits_the_window():
    messages = [{"role": "system", "content": "SYS"}]
    messages += [{"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i} " + "x" * 3000}
                 for i in range(40)]
    messages.append({"role": "user", "content": "newest " + "y" * 50_000})
    fitted = ctx.fit_to_window(messages, 4096)
    assert sum(ctx.message_chars(m) for m in fitted) <= 4096 * 4 * ctx.FIT_SHARE
    assert fitted[0]["content"] == "SYS"
    assert fitted[-1]["content"].startswith("newest ") and "[cut here:" in fitted[-1]["content"]
    assert fitted[1]["role"] == "user"


def test_the_report_command_cuts_a_20mb_report_and_keeps_it_whole(tmp_path, loopback):
    path = write_config(tmp_path / "config.toml", loopback.url, f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\n')
    big = "x" * (TWENTY_MB - 4) + " end"
    done = subprocess.run([sys.executable, "-m", "keeltui", "--config", str(path), "report", "--source", "cron:big", "-"],
                          input=big, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "chief.report_max_chars" in lines[0] and str(tmp_path / "k.db") in lines[0]
    store = Store(tmp_path / "k.db")
    row = store.message(int(done.stdout.strip()))
    assert len(row.content) <= 20000 and "report cut at 20000 characters" in row.content
    kept = store.events(OVERFLOW_EVENT)
    assert kept and kept[-1]["data"]["text"] == big
    store.close()
