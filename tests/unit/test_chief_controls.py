"""The room's conversation controls decided on rows (keeltui/chief/controls.py), and the
context leaving earlier versions out."""

from __future__ import annotations

from dataclasses import dataclass

from keeltui.chief import context as ctx
from keeltui.chief.controls import can_edit, can_regenerate, can_retry, last_exchange


@dataclass
class R:
    id: int
    role: str
    content: str
    turn_kind: str | None = None
    status: str = "complete"
    reply_to: int | None = None
    parts: list = None


def test_last_exchange_skips_system_lines_and_earlier_versions():
    rows = [R(1, "user", "q"), R(2, "assistant", "old", status="superseded", reply_to=1),
            R(3, "assistant", "cron ok", "task"), R(4, "assistant", "new", reply_to=1),
            R(5, "assistant", "a notice", "notice")]
    user, reply = last_exchange(rows)
    assert (user.id, reply.id) == (1, 4)


def test_last_exchange_of_an_unanswered_turn_and_an_empty_room():
    assert last_exchange([R(1, "user", "q"), R(2, "assistant", "r", reply_to=1), R(3, "user", "q2")])[1] is None
    assert last_exchange([R(1, "assistant", "report", "task")]) == (None, None)


def test_what_each_control_allows():
    user = R(1, "user", "q")
    for status, retry in (("error", True), ("partial", True), ("stopped", True), ("complete", False)):
        reply = R(2, "assistant", "r", status=status)
        assert can_retry(user, reply) is retry
        assert can_regenerate(user, reply) and can_edit(user, reply)
    streaming = R(2, "assistant", "", status="streaming")
    assert not can_regenerate(user, streaming) and not can_edit(user, streaming) and not can_retry(user, streaming)
    assert can_retry(user, None) and not can_regenerate(user, None) and not can_retry(None, None)


def test_earlier_versions_are_never_sent_to_the_model():
    rows = [R(1, "user", "helo"), R(2, "assistant", "typo answer", status="superseded"),
            R(3, "user", "hello", status="complete"), R(4, "assistant", "stopped half", status="stopped")]
    rows[0].status = "superseded"
    messages = ctx.build_context("sys", rows, None).messages
    assert [m["content"] for m in messages] == ["sys", "hello", "stopped half"]


def test_store_search_over_the_whole_room(store):
    room = store.chief_id()
    ids = [store.add_message(room, "user", text) for text in ("a Heron", "b", "HERON c", "d heron")]
    assert store.search(room, "heron").id == ids[3]
    assert store.search(room, "heron", before_id=ids[3]).id == ids[2]
    assert store.search(room, "heron", before_id=ids[0]) is None
    assert store.search(room, "heron", after_id=ids[0]).id == ids[2]
    assert store.count_matches(room, "heron") == (3, 3) and store.count_matches(room, "heron", from_id=ids[2]) == (2, 3)
    assert store.search(room, "100%") is None  # instr, not LIKE: no wildcards


def test_log_and_export_say_which_turns_were_stopped_or_replaced():
    from keeltui.chief.review import format_log, format_markdown

    @dataclass
    class Row:
        role: str
        content: str
        turn_kind: str | None = None
        status: str = "complete"
        created_at: float = 0.0

    rows = [Row("user", "helo", status="superseded"), Row("assistant", "half", status="stopped"),
            Row("assistant", "whole")]
    lines = format_log(rows, "Ada", "Chief")
    assert lines[0].endswith("Ada: helo [earlier version]") and lines[1].endswith("Chief: half [stopped]")
    assert lines[2].endswith("Chief: whole")
    text = format_markdown(rows, "Ada", "Chief")
    assert "· *earlier version*" in text and "· *stopped*" in text
