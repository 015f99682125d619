"""One composition root: only keeltui/wiring.py builds a Store, a Brain or a turns object."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.pilot import wait_for

PACKAGE = Path(__file__).resolve().parents[2] / "keeltui"
BUILT_ONCE = {"Store", "Brain", "ChiefTurns", "TutorTurns"}


def constructions(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name in BUILT_ONCE:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {name}(…)")
    return found


def test_nothing_but_the_wiring_builds_the_shared_parts():
    built = [hit for path in sorted(PACKAGE.rglob("*.py")) if path.name != "wiring.py" for hit in constructions(path)]
    assert built == []


def test_wiring_builds_each_part_once_and_shares_it(config, store):
    from keeltui.wiring import wire

    services = wire(config, store)
    assert services.store is store
    assert services.chief is services.chief and services.tutor is services.tutor
    assert services.chief.store is store and services.tutor.store is store
    assert services.chief.brain is services.brain is services.tutor.brain


async def test_the_app_hands_the_tutor_pane_the_wired_turns(make_app):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.tutor is not None and app.tutor.is_mounted, what="tutor pane mounted")
        assert app.tutor.turns is app.services.tutor
        assert app.chief is app.services.chief and app.brain is app.services.brain and app.store is app.services.store
