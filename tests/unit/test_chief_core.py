"""The Chief's pure core: turn kinds, turn_warning, context and compaction, Quiet Mode."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from keeltui.chief import context as ctx
from keeltui.chief.quiet import QUIET_MODE_REFUSAL, Access, QuietModeRefusal, check_access, screen_safe
from keeltui.chief.turn_kinds import badge, classify, report_kind
from keeltui.chief.turn_warning import Levels, TurnWarner


@pytest.mark.parametrize("source, kind", [
    ("coop-notify:build", "coop"),
    ("chief-report:coop-notify:build", "coop"),
    ("followup:dentist", "followup"),
    ("chief-report:followup:dentist", "followup"),
    ("cron:backup", "task"),
    ("chief-report:cron:backup", "task"),
    ("", "task"),
    ("coop-notifyx", "task"),
    ("FOLLOWUP:x", "task"),
])
def test_report_kind(source, kind):
    assert report_kind(source) == kind


@pytest.mark.parametrize("role, content, source, kind", [
    ("assistant", "hello", None, None),
    ("user", "Summary of the conversation so far: x", None, None),
    ("user", "x", "coop-notify:a", None),
    ("assistant", "x", "coop-notify:a", "coop"),
    ("assistant", "x", "app:notice", "notice"),
    ("assistant", "x", "app:summary", "summary"),
    ("assistant", "x", "app:focus", "task"),
    ("assistant", "Summary of the conversation so far: we met", None, "summary"),
    ("assistant", "[summary] we met", None, "summary"),
    ("assistant", "A summary of nothing", None, None),
])
def test_classify(role, content, source, kind):
    assert classify(role, content, source) == kind


def test_badges():
    assert [badge(k) for k in ("coop", "followup", "task", "summary", "notice")] == [
        "Coop", "Follow-up", "Scheduled task", "Summary", "Notice"]
    assert badge(None) == ""


LEVELS = Levels(0.5, 0.8)


@pytest.mark.parametrize("fractions, expected", [
    # (fraction per turn) -> which turns warn
    ([0.1, 0.2, 0.3], [None, None, None]),
    ([0.4, 0.55, 0.6, 0.7], [None, "warning", None, None]),
    ([0.55, 0.85, 0.9], ["warning", "emergency", None]),
    ([0.85, 0.9], ["emergency", None]),
    ([0.55, 0.3, 0.6], ["warning", None, "warning"]),          # dropping below re-arms
    ([0.85, 0.6, 0.9], ["emergency", None, None]),             # still above warning: not re-armed
    ([0.85, 0.2, 0.9], ["emergency", None, "emergency"]),
])
def test_turn_warning_fires_on_first_crossing(fractions, expected):
    warner = TurnWarner()
    got = []
    for fraction in fractions:
        text = warner.turn_warning(7, fraction, LEVELS, [])
        got.append(None if text is None else ("emergency" if "emergency" in text else "warning"))
    assert got == expected


def test_turn_warning_at_most_once_per_turn():
    warner = TurnWarner()
    turn: list[str] = []
    assert warner.turn_warning(1, 0.6, LEVELS, turn) is not None
    # a tool call later in the same turn crosses emergency: still one warning this turn
    assert warner.turn_warning(1, 0.9, LEVELS, turn) is None
    assert len(turn) == 1
    # next turn: the emergency is new
    assert "emergency" in warner.turn_warning(1, 0.9, LEVELS, [])


def test_turn_warning_never_for_the_chief():
    warner = TurnWarner()
    assert warner.turn_warning(1, 0.99, LEVELS, [], is_chief=True) is None
    assert warner.warned == {}


def test_turn_warning_is_per_conversation():
    warner = TurnWarner()
    assert warner.turn_warning(1, 0.6, LEVELS, []) is not None
    assert warner.turn_warning(2, 0.6, LEVELS, []) is not None
    assert warner.turn_warning(1, 0.6, LEVELS, []) is None


def test_turn_warning_live_percentage_in_text():
    assert "62%" in TurnWarner().turn_warning(1, 0.62, LEVELS, [])


@dataclass
class R:
    id: int
    role: str
    content: str
    turn_kind: str | None = None
    status: str = "complete"
    parts: list = field(default_factory=list)


def test_reply_to_skips_system_lines():
    rows = [R(1, "user", "q"), R(2, "assistant", "report", "coop"), R(3, "assistant", "answer")]
    assert ctx.reply_to(rows, 1).id == 3
    assert ctx.reply_to([R(1, "user", "q"), R(2, "assistant", "r", "task")], 1) is None
    assert ctx.reply_to([R(1, "user", "q"), R(2, "user", "again")], 1) is None


def test_context_marks_reports_and_never_as_the_companion():
    rows = [R(1, "user", "hi"), R(2, "assistant", "build failed", "coop"), R(3, "assistant", "hello"),
            R(4, "assistant", "brain offline", "notice")]
    messages = ctx.build_context("SYS", rows, None).messages
    assert messages[0] == {"role": "system", "content": "SYS"}
    assert {"role": "assistant", "content": "build failed"} not in messages
    report = next(m for m in messages if "build failed" in m["content"])
    assert report["role"] == "user" and report["content"].startswith("[background report — Coop")
    assert not any("brain offline" in m["content"] for m in messages)
    assert messages[-1] == {"role": "assistant", "content": "hello"}


def test_context_after_summary_is_prompt_summary_and_later_rows():
    rows = [R(i, "user" if i % 2 else "assistant", f"m{i}") for i in range(1, 11)]
    summary = R(11, "assistant", "we talked", "summary", parts=ctx.summary_parts(6))
    messages = ctx.build_context("SYS", [*rows, summary], summary).messages
    assert messages[1]["role"] == "system" and "we talked" in messages[1]["content"]
    assert [m["content"] for m in messages[2:]] == ["m7", "m8", "m9", "m10"]


def test_compaction_cut_keeps_recent_turns():
    rows = [R(i, "user" if i % 2 else "assistant", f"m{i}") for i in range(1, 11)]
    assert ctx.compaction_cut(rows, None, 4) == 6
    assert ctx.compaction_cut(rows, 6, 4) is None
    assert ctx.compaction_cut(rows[:3], None, 4) is None


def _shaped(shape: str) -> list[R]:
    """Rows from letters, ids from 1: u owner, a companion, r a report, s a reply still streaming."""
    kinds = {"u": ("user", None, "complete"), "a": ("assistant", None, "complete"),
             "r": ("assistant", "coop", "complete"), "s": ("assistant", None, "streaming")}
    return [R(i, kinds[c][0], f"{c}{i}", kinds[c][1], kinds[c][2]) for i, c in enumerate(shape, 1)]


@pytest.mark.parametrize("shape, covers_to, keep, cut", [
    # more turns than kept: fold up to the first kept turn, reports in between included
    ("uauauaua", None, 4, 4),
    ("uraurauaua", None, 4, 6),
    # no more turns than kept: the turns stay, the reports before the first are folded
    ("rrrrrua", None, 4, 5),
    ("rrrrrua", 2, 4, 5),
    ("rrrrr", None, 4, None),          # nothing to keep a summary beside: no turn yet
    ("uarrr", None, 4, None),          # reports after the turns are the newest: they stay
    ("rrus", None, 4, 2),              # a streaming reply is not a turn
    ("us", None, 1, None),
    ("uauarrr", 7, 2, None),           # everything already covered
])
def test_compaction_cut_table(shape, covers_to, keep, cut):
    assert ctx.compaction_cut(_shaped(shape), covers_to, keep) == cut


def test_summary_request_covers_only_up_to_the_cut():
    rows = [R(1, "user", "alpha"), R(2, "assistant", "beta"), R(3, "assistant", "cron ok", "task"), R(4, "user", "gamma")]
    request = ctx.summary_request(rows, None, 3)
    body = request[1]["content"]
    assert "alpha" in body and "beta" in body and "cron ok" in body and "gamma" not in body


@pytest.mark.parametrize("fraction, at, expected", [(0.74, 0.75, False), (0.75, 0.75, True), (0.9, 0.75, True)])
def test_needs_compaction(fraction, at, expected):
    assert ctx.needs_compaction(fraction, at) is expected


def test_quiet_mode_viewer_and_owner_are_separate_questions():
    check_access(Access.OWNER, True)
    check_access(Access.VIEWER, False)
    with pytest.raises(QuietModeRefusal) as caught:
        check_access(Access.VIEWER, True)
    assert str(caught.value) == QUIET_MODE_REFUSAL
    assert QUIET_MODE_REFUSAL == "Quiet Mode is on: Master Chief stays hidden until it is turned off."
    assert screen_safe("drifting on reddit", True) == ""
    assert screen_safe("drifting on reddit", False) == "drifting on reddit"


from keeltui.chief.streaming import split_settled  # noqa: E402


@pytest.mark.parametrize("text, settled, tail", [
    ("", [], ""),
    ("partial line", [], "partial line"),
    ("one\n\ntwo", ["one"], "two"),
    ("one\n\ntwo\n\n", ["one", "two"], ""),
    ("a\nb\n\n\n\nc", ["a\nb"], "c"),
    ("```\ncode\n\nmore\n```\n\nafter", ["```\ncode\n\nmore\n```"], "after"),
    ("```\ncode\n\nstill open", [], "```\ncode\n\nstill open"),
    ("# Title\n\n- item\n- item\n\nnext", ["# Title", "- item\n- item"], "next"),
])
def test_split_settled(text, settled, tail):
    assert split_settled(text) == (settled, tail)


def test_split_settled_joins_back_to_the_text():
    text = "a\n\nb\nc\n\n```\nx\n\ny\n```\n\ntail"
    blocks, tail = split_settled(text)
    assert "\n\n".join([*blocks, tail]) == text


def test_a_growing_text_split_as_it_grows_is_split_as_the_whole():
    from keeltui.chief.streaming import SettledSplit

    text = "intro\n\n```python\nx = 1\n\ny = 2\n```\n\n~~~\n\n~~~\npara\nline\n\n\nend \n\n```\nopen"
    split = SettledSplit()
    for end in range(len(text) + 1):  # every cut, mid-line and mid-fence included
        assert split.split(text[:end]) == split_settled(text[:end]), end
    assert split.split("other\n\ntext") == (["other"], "text")  # not grown from the last: read anew


def test_a_growing_text_is_read_once(monkeypatch):
    from keeltui.chief.streaming import SettledSplit

    read: list[str] = []
    add = SettledSplit._add
    monkeypatch.setattr(SettledSplit, "_add", lambda self, line: (read.append(line), add(self, line)))
    split, text = SettledSplit(), "```python\n"
    for i in range(300):
        text += f"line {i}\n"
        split.split(text)
    assert len(read) == 301  # each line once (the opening line and 300 code lines), not once a call
