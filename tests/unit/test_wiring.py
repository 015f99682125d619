"""One composition root: only keeltui/wiring.py builds a Store, a Brain or a turns object."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.pilot import wait_for

PACKAGE = Path(__file__).resolve().parents[2] / "keeltui"
BUILT_ONCE = {"Store", "Brain", "ChiefTurns", "TutorTurns", "AmbientService"}
# The ambient service's own parts: built by it (services/ambient.py), never by a widget.
AMBIENT_PARTS = {"Sentinel", "FocusCoach", "LocalJudge", "make_task_provider"}


def constructions(path: Path, names: set[str] = BUILT_ONCE) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name in names:
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
        assert app.room.turns is app.services.chief and app.brain is app.services.brain and app.store is app.services.store


def test_only_the_ambient_service_builds_the_sentinel_and_its_parts():
    built = [hit for path in sorted(PACKAGE.rglob("*.py")) if path != PACKAGE / "services" / "ambient.py"
             for hit in constructions(path, AMBIENT_PARTS)]
    assert built == []


def test_wiring_builds_the_ambient_service_once_with_the_clock_and_notifier_it_is_given(config, store):
    from keeltui.wiring import wire

    sent: list[tuple[str, str]] = []

    class Recorder:
        def notify(self, title: str, body: str) -> None:
            sent.append((title, body))

    services = wire(config, store, clock=lambda: 1234.0, notifier=Recorder())
    ambient = services.ambient
    assert ambient is services.ambient
    assert ambient.store is store and ambient.brain is services.brain
    assert ambient.clock() == 1234.0 and ambient.sentinel.snooze_until == 0
    ambient.quiet = True  # a value, set from above; the sentinel holds it back from toasts
    assert ambient.sentinel.quiet is True


def test_the_chief_alone_loads_no_ambient_part(config_file):
    """`keeltui chat` and `doctor` take the chief from the same root: the sentinel, the
    evidence sources and the ambient service stay unloaded until asked for."""
    import subprocess
    import sys

    probe = ("import sys; from keeltui.config import load_config; from keeltui.store import Store; "
             "from keeltui.wiring import wire; config = load_config(sys.argv[1], env={}); "
             "services = wire(config, Store(sys.argv[2])); services.chief; "
             "print(sorted(m for m in ('keeltui.sentinel', 'keeltui.services.ambient', 'keeltui.adapters.evidence') "
             "if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", probe, str(config_file), str(config_file.parent / "k.db")],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "[]"


async def test_the_app_hands_the_ambient_controller_the_wired_service(make_app):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.ambient is not None and app.ambient.is_mounted, what="ambient mounted")
        assert app.ambient.service is app.services.ambient
        app.action_toggle_quiet()
        await wait_for(pilot, lambda: app.services.ambient.sentinel.quiet, what="Quiet Mode reaches the sentinel")
