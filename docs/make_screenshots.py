"""Screenshots for the README, taken from the app itself (``make screenshots``).

Each shot runs the real KeelApp headless over a demo store and saves Textual's SVG
screenshot into docs/screenshots/.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from keeltui.app import KeelApp  # noqa: E402
from keeltui.config import Config  # noqa: E402
from keeltui.services.tutor_turns import TutorTurns  # noqa: E402
from keeltui.store import Store  # noqa: E402
from keeltui.tutor_view import TutorPane  # noqa: E402
from keeltui_dev.tutor_demo import verdict_session  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SIZE = (110, 34)


def demo_config(folder: Path) -> Config:
    config = Config()
    config.owner.name = "Ada"
    config.brain.base_url = "http://127.0.0.1:9/v1"  # offline on purpose: nothing is called
    config.ambient.mode = "off"
    config.evidence.source = "none"
    config.paths.database = str(folder / "demo.db")
    config.paths.status_file = str(folder / "status")
    return config


def demo_room(store: Store) -> None:
    room = store.chief_id()
    store.add_message(room, "user", "Morning. Anything land overnight?")
    store.add_message(room, "assistant",
                      "Three things. The **nightly build** is blocked, the plumber wrote back, and "
                      "the backups ran clean. The build needs you first.")
    store.add_report("coop-notify:ci", "Nightly build blocked: migration test `test_0042` fails on Postgres 16.")
    store.add_report("followup:plumber", "The plumber confirmed Tuesday 9:00 for the kitchen tap.")
    store.add_report("cron:backup", "Backups verified: 3 snapshots, 41 GB, all checksums match.")
    store.add_message(room, "assistant",
                      "Summary of the conversation so far: we agreed to finish the grant report by Friday, "
                      "move the dentist to next week, and try a smaller model for the tutor.",
                      source="app:summary", turn_kind="summary")
    store.add_message(room, "user", "Let's fix the migration first.")
    store.add_message(room, "assistant", "Good call. Open `migrations/0042.py`; the column default is the "
                                         "likely culprit. Want me to walk through it?")


async def shoot(app: KeelApp, name: str, before=None) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.6)
        if before is not None:
            await before(pilot)
            await pilot.pause(0.6)
        app.save_screenshot(filename=f"{name}.svg", path=str(OUT))
    print(f"wrote {OUT / (name + '.svg')}")


async def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config = demo_config(folder)
        store = Store(config.database_path())
        demo_room(store)
        await shoot(KeelApp(config, store), "chief-room")

        async def drift(pilot):
            from keeltui.panes.common.events import AmbientChanged

            # What the ambient controller posts when the sentinel names a drift.
            line = "Forty minutes on Hacker News while the grant report waits for its budget table."
            await pilot.pause(0.3)  # after the controller's first report of its state
            pilot.app.post_message(AmbientChanged(line, "", "brain"))

        await shoot(KeelApp(config, store), "drift-banner", drift)

        turns = TutorTurns(store, KeelApp(config, store).brain, config)
        session_id = turns.start_session("muscle protein")
        for message in verdict_session():
            turns.add_learner(session_id, message)

        async def verdict(pilot):
            await pilot.press("ctrl+t")
            await pilot.pause(0.3)
            pilot.app.query_one(TutorPane).open_session(session_id)
            await pilot.pause(0.3)
            composer = pilot.app.query_one("#tutor-composer")
            composer.focus_input()
            composer.input.insert("Looks good; skip timing if we run short.")

        await shoot(KeelApp(config, store), "tutor-verdict", verdict)
        store.close()


if __name__ == "__main__":
    asyncio.run(main())
