"""The learner's records read each transcript once per change (a real store, a real brain call).

A store-level spy on ``Store.messages`` (where a transcript is read and its parts
parsed) counts the reads made through the real code paths: the session list's refill
and a turn's prior-knowledge note.
"""

from __future__ import annotations

import pytest

from keeltui.brain import Brain
from keeltui.config import load_config
from keeltui.services.tutor_records import TutorRecords
from keeltui.services.tutor_turns import TutorTurns
from keeltui.store import Store
from keeltui.tutor import transcript as tx
from keeltui_dev.loopback import Reply
from tests.conftest import write_config
from tests.support.tutor_seed import seed_session

PROTEIN = """graph TD
  basics[Why protein matters] --> leucine[Leucine threshold] & per_meal[Protein per meal]
  leucine --> timing[Timing around training]
  per_meal --> timing
"""


@pytest.fixture
def store(tmp_path):
    opened = Store(tmp_path / "k.db")
    yield opened
    opened.close()


def spy_reads(store: Store) -> list[int]:
    """Every transcript read from now on, by session id."""
    reads: list[int] = []
    real = store.messages

    def messages(conversation_id: int):
        reads.append(conversation_id)
        return real(conversation_id)

    store.messages = messages  # type: ignore[method-assign]
    return reads


def answer(store: Store, session: int, node: str, right: bool) -> None:
    call_id = f"late-{node}"
    for message in (
        tx.assistant("", tx.tool_call(call_id, "quiz", {
            "question": f"Again: {node}?", "choices": ["Right", "Wrong"], "correct": 0, "node_id": node})),
        tx.tool(call_id, "quiz", True, {"status": "shown"}),
        tx.user("I chose 1.", tx.quiz_answer(call_id, 0 if right else 1, right)),
    ):
        store.add_message(session, message.role, message.content, parts=[dict(p) for p in message.parts])


def test_a_list_refill_reads_only_the_sessions_written_since(store):
    first = seed_session(store, "muscle protein", PROTEIN, [("basics", True)])
    second = seed_session(store, "muscle protein", PROTEIN, [("per_meal", True)], waiting="leucine")
    other = seed_session(store, "secant lines", PROTEIN, [])
    records = TutorRecords(store)
    reads = spy_reads(store)
    listed = {row.id: row.progress for row in records.sessions()}
    assert sorted(reads) == sorted([first, second, other])  # each once, the prior reuses the first
    assert listed[second] == "2/4 mastered"
    reads.clear()
    records.sessions()
    assert reads == []  # nothing changed: nothing read
    answer(store, other, "basics", True)
    records.sessions()
    assert reads == [other]
    reads.clear()
    answer(store, first, "leucine", True)  # the earlier session changes: the later one's prior follows
    listed = {row.id: row.progress for row in records.sessions()}
    assert reads == [first]
    assert listed[second] == "3/4 mastered"
    reads.clear()
    records.rename(first, "Muscle Protein, again")  # a rename reads nothing, and the topic still matches
    assert [row.title for row in records.sessions() if row.id == first] == ["Muscle Protein, again"]
    assert reads == []


async def test_each_turn_reuses_the_prior_mastery_until_an_earlier_session_changes(tmp_path, store, loopback):
    config = load_config(write_config(tmp_path / "c.toml", loopback.url), env={})
    earlier = seed_session(store, "muscle protein", PROTEIN, [("basics", True)])
    turns = TutorTurns(store, Brain(config.brain), config)
    session = turns.start_session("muscle protein")
    reads = spy_reads(store)
    loopback.queue(Reply(text="What do you know?"), Reply(text="Good."), Reply(text="And now?"))
    for line in ("I know a bit", "tell me more"):
        await turns.respond(session)
        turns.add_learner(session, tx.user(line))
    assert reads.count(earlier) == 1  # read for the first turn's note, then memoised
    answer(store, earlier, "leucine", True)
    await turns.respond(session)
    assert reads.count(earlier) == 2  # a row was written there: read once more
    notes = [request["messages"][0]["content"] for request in loopback.requests]
    assert all("What the learner already showed" in note for note in notes)
    assert "Leucine threshold" in notes[-1] and "Leucine threshold" not in notes[0]
    await turns.brain.aclose()
