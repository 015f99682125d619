"""Issue 24.6: a context-length retry folds what it drops into a summary first. When no summary
can be written, nothing is dropped silently: the turn fails saying so; and the window the
server really has is remembered, so the next turn does not pay a refused call first."""

from __future__ import annotations

from keeltui.chief.failure_words import failure_words
from keeltui_dev.loopback import Reply
from tests.faults.test_oversized import _tokens, _turns, windowed


def _seed(turns, count: int = 12) -> None:
    for i in range(count):
        turns.store.add_message(turns.room_id, "user", f"question {i} " + "q" * 600)
        turns.store.add_report("cron:nightly", f"report {i}: backups ok " + "r" * 300)
        turns.store.add_message(turns.room_id, "assistant", f"answer {i} " + "a" * 600)


async def test_a_retry_whose_summary_fails_drops_no_report_silently(tmp_path, loopback):
    def respond(request: dict) -> Reply:
        if not request.get("stream"):
            return Reply(status=500, error_message="summariser down")
        if _tokens(request) > 1500:
            return Reply(status=400, error_message="This model's maximum context length is 1500 tokens.")
        return Reply(text="should not be reached")

    loopback.responder = respond
    turns = _turns(tmp_path, loopback, "[brain.context_windows]\nchief = 100000\n")
    _seed(turns)
    result = await turns.reply(turns.add_user_turn("last question"))
    kinds = ["stream" if r.get("stream") else "summary" for r in loopback.requests]
    assert kinds == ["stream", "summary"], kinds  # no second call with rows cut away unsummarised
    row = turns.store.message(result.reply_id)
    assert row.status == "error"
    words = failure_words(row.status, row.parts)
    assert "did not fit the model's window" in words and "no summary could be written" in words
    await turns.brain.aclose()
    turns.store.close()


async def test_every_report_the_retry_leaves_out_is_in_the_summary_request(tmp_path, loopback):
    loopback.responder = windowed(2500, answer="here you go")
    turns = _turns(tmp_path, loopback, "[chief]\nkeep_recent = 4\n[brain.context_windows]\nchief = 100000\n")
    _seed(turns)
    result = await turns.reply(turns.add_user_turn("last question"))
    assert result.error is None, result.error
    folded = " ".join(r["messages"][-1]["content"] for r in loopback.requests if not r.get("stream"))
    assert "left out" not in folded  # each summary call took in all of its rows
    retry = loopback.requests[-1]["messages"]
    sent = " ".join(m["content"] for m in retry)
    for i in range(12):
        assert f"report {i}: backups ok" in folded or f"report {i}: backups ok" in sent, i
    # The next turn fits the window learned from the refusal: no refused call first.
    before = len(loopback.requests)
    again = await turns.reply(turns.add_user_turn("and another"))
    assert again.error is None and all(_tokens(r) <= 2500 for r in loopback.requests[before:])
    await turns.brain.aclose()
    turns.store.close()
