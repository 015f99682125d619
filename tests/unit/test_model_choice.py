"""The model per role and the persona, through the services the app uses (real loopback, real file)."""

from __future__ import annotations

import pytest

from keeltui.chief.turn_kinds import PERSONA
from keeltui.config import load_config
from keeltui.services.model_roles import offered
from keeltui.services.model_choice import ChoiceError
from keeltui.wiring import wire
from keeltui_dev.loopback import LoopbackBrain, Reply
from tests.conftest import write_config
from tests.support.tmux import run_keeltui


def _services(tmp_path, loopback, store):
    path = write_config(tmp_path / "config.toml", loopback.url, f'[paths]\ndatabase = "{store.path}"\n')
    return wire(load_config(path, env={}), store), path


async def test_each_role_switches_without_a_restart(tmp_path, store):
    with LoopbackBrain(models=["b-model", "a-model"], default=Reply(text="ok")) as loopback:
        services, path = _services(tmp_path, loopback, store)
        listed, problem = await services.models.available()
        assert (sorted(listed), problem) == (["a-model", "b-model"], None)
        services.models.choose("judge", "a-model")
        await services.brain.complete("judge", [{"role": "user", "content": "x"}])
        await services.brain.complete("chief", [{"role": "user", "content": "x"}])
        assert [r["model"] for r in loopback.requests] == ["a-model", "loop-model"]
        assert load_config(path, env={}).brain.models.judge == "a-model"
        assert services.models.current()["judge"] == "a-model"


async def test_no_model_list_is_a_problem_to_show_and_bad_names_are_refused(tmp_path, store):
    with LoopbackBrain(lists_models=False) as loopback:
        services, _ = _services(tmp_path, loopback, store)
        listed, problem = await services.models.available()
        assert listed == [] and "404" in problem
        for bad in ("", "two words", "x" * 201):
            with pytest.raises(ChoiceError):
                services.models.choose("chief", bad)
        with pytest.raises(ChoiceError):
            services.models.choose("nobody", "m")


def test_the_picker_offers_the_current_model_even_when_unlisted():
    assert offered(["b", "a", "a", ""], "typed") == ["typed", "a", "b"]
    assert offered(["b", "a"], "a") == ["a", "b"]


def test_a_persona_change_is_saved_and_recorded_as_a_persona_line(tmp_path, store):
    with LoopbackBrain() as loopback:
        services, path = _services(tmp_path, loopback, store)
        assert services.persona.change("  Be a lighthouse keeper.  ") is not None
        assert services.persona.change("Be a lighthouse keeper.") is None  # nothing changed: no second line
        rows = store.messages(store.chief_id())
        assert [(r.turn_kind, r.content.splitlines()[-1]) for r in rows] == [(PERSONA, "Be a lighthouse keeper.")]
        assert services.chief.context()[0] == {"role": "system", "content": "Be a lighthouse keeper."}
        assert len(services.chief.context()) == 1  # the line is the owner's record, not the model's
        with pytest.raises(ChoiceError):
            services.persona.change("   ")
        out = run_keeltui(path, "log", "--kind", "persona").stdout
        assert "[Persona]" in out and "lighthouse keeper" in out



async def test_an_endpoint_that_hangs_on_its_list_opens_the_picker_to_a_typed_name(tmp_path, store, monkeypatch):
    from keeltui.services import model_choice

    monkeypatch.setattr(model_choice, "LIST_TIMEOUT_SECS", 0.3)
    with LoopbackBrain(models_delay=3.0) as loopback:
        services, _ = _services(tmp_path, loopback, store)
        listed, problem = await services.models.available()
        assert listed == [] and "within 0.3 s" in problem
