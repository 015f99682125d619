"""The judge label tells the truth and holds still (issue 25): a judge answering garbage is
"bad answers (model X)", and an endpoint check that brings a still-failing brain back does
not make the label flap."""

from __future__ import annotations

from keeltui.text.jsonextract import NoJSONError
from tests.unit.test_ambient_sentinel import DRIFT, Harness, ScriptedJudge


class Labels:
    def __init__(self, h: Harness) -> None:
        self.seen = [h.sentinel.judge_label]
        h.sentinel.add_on_change(lambda: self.seen.append(h.sentinel.judge_label))


async def test_garbage_is_bad_answers_and_the_fallback_answers_the_same_tick():
    fallback = ScriptedJudge(DRIFT, DRIFT)
    h = Harness(NoJSONError("no JSON object"), NoJSONError("no JSON object"), "",
                fallback=fallback, judge_model=lambda: "judge-model")
    labels = Labels(h)
    await h.tick()
    assert h.sentinel.judge_label == "bad answers (model judge-model)" and h.sentinel.line == DRIFT
    await h.tick()  # the brain is asked again (it is reachable), garbage again: nothing moves
    assert h.judge.count == 2 and fallback.count == 2
    assert set(labels.seen) == {"brain", "bad answers (model judge-model)"}
    await h.tick()  # a good answer: back to the brain
    assert h.sentinel.judge_label == "brain" and h.sentinel.judge_name == "brain"


async def test_an_endpoint_check_does_not_flap_the_label_while_the_judge_still_fails():
    fallback = ScriptedJudge("", "", "")
    h = Harness(TimeoutError(), TimeoutError(), "", fallback=fallback)
    await h.tick()
    assert h.sentinel.judge_label == "local · brain unreachable"
    labels = Labels(h)
    # The app's endpoint check passes: the brain is tried again, the label waits for its answer.
    h.sentinel.set_judge(h.judge, "brain", until_it_answers=True)
    assert h.sentinel.judge_label == "local · brain unreachable"
    await h.tick()  # it still fails: the fallback again, the same label
    assert set(labels.seen) == {"local · brain unreachable"} and h.sentinel.fallbacks == 2
    h.sentinel.set_judge(h.judge, "brain", until_it_answers=True)
    await h.tick()  # now it answers
    assert h.sentinel.judge_label == "brain"
