"""Nothing the first frame does not need is imported or mounted before it (issue 19): the
command palette, Markdown, the tutor's side of the tab strip, the brain's client, the
argument parser and the later parts of the app come after it. Not timed: a regression
that pulls one of them forward fails here by name (bench/ measures the time)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


from keeltui.store import Store
from tests.conftest import write_config

REPO = Path(__file__).resolve().parents[2]
AFTER_THE_FIRST_FRAME = [
    "rich.markdown", "markdown_it", "textual.widgets._markdown",  # replies are drawn plain first
    "keeltui.tutor_view", "keeltui.tutor", "keeltui.services.tutor_turns", "keeltui.services.tutor_job_runner",
    "keeltui.services.ambient", "keeltui.panes.ambient.controller", "keeltui.panes.chief.search_bar",
    "openai", "httpx", "httpx2",  # the brain's client: loaded off the UI thread after the frame
    "keeltui.brain",  # the brain itself is built when first asked for (its check, after the frame)
    "argparse",  # plain `keeltui` goes straight to the app
    "keeltui.cli.doctor", "keeltui.cli.doorway", "keeltui.chief.review",
    "keeltui.services.chief_turns",  # the first frame sends nothing: the turns are built on first use
    # A package's version read through its metadata (textual.__version__, ~13 ms of imports:
    # email, zipfile, csv) and OpenSSL's hashes: nothing before the first frame needs them.
    "importlib.metadata", "email", "hashlib",
]


def first_frame(tmp_path, url: str) -> dict:
    config = write_config(tmp_path / "config.toml", url,
                          f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
    run = subprocess.run([sys.executable, "-m", "tests.pilot.first_frame_probe", str(config)], cwd=REPO,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_the_first_frame_of_a_room_imports_and_mounts_only_what_it_shows(tmp_path, loopback):
    store = Store(tmp_path / "k.db")
    room = store.chief_id()
    for i in range(40):  # Markdown replies among the newest rows: drawn plain for the first frame
        store.add_message(room, "user", f"Question {i}?")
        store.add_message(room, "assistant", f"Answer {i}:\n\n- **one** point\n- `code` here\n\n```python\nx = {i}\n```")
    store.close()
    seen = first_frame(tmp_path, loopback.url)
    loaded = set(seen["modules"])
    early = [name for name in AFTER_THE_FIRST_FRAME if name in loaded]
    assert not early, f"imported before the first frame: {early}"
    assert seen["screens"] == ["MainScreen"]  # no command palette (or any dialog) built for it
    # The tutor's pane is mounted right after the first frame; its tab holds one waiting line.
    assert seen["tutor_tab"] == ["Static"]


def test_the_first_frame_of_an_empty_room_too(tmp_path, loopback):
    seen = first_frame(tmp_path, loopback.url)
    assert seen["docless"]  # the app's start loads other packages without their docstrings
    early = [name for name in AFTER_THE_FIRST_FRAME if name in set(seen["modules"])]
    assert not early, f"imported before the first frame: {early}"
    assert seen["tutor_tab"] == ["Static"]


def test_no_class_before_the_first_frame_compiles_dataclass_methods_of_its_own(tmp_path, loopback):
    # @dataclass writes and compiles a class's methods at import (~0.4 ms a frozen one on a
    # slow machine); keeltui's classes before the first frame are records
    # (keeltui/infra/records.py), but for the two built in a hot loop, whose compiled
    # __init__ and __hash__ are the faster ones.
    seen = first_frame(tmp_path, loopback.url)
    assert seen["compiled_dataclasses"] == ["keeltui.panes.chief.row_render.RowShape", "keeltui.store.Row"]


def test_the_composer_is_the_first_and_only_widget_focused_before_the_first_frame(tmp_path, loopback):
    # Textual's default focused the first focusable widget (the tab strip) and the app then
    # moved the focus to the composer: two more restyles of both before the first frame.
    seen = first_frame(tmp_path, loopback.url)
    assert seen["focused"] == ["ComposerInput"]


def test_a_markdown_report_among_the_newest_rows_is_drawn_plain_first(tmp_path, loopback):
    store = Store(tmp_path / "k.db")
    room = store.chief_id()
    store.add_message(room, "user", "How did the night go?")
    store.add_message(room, "assistant", "Nightly backup:\n\n- **3** files\n- `rsync` ok", source="cron:backup")
    store.close()
    seen = first_frame(tmp_path, loopback.url)
    assert "rich.markdown" not in set(seen["modules"])


def test_no_collector_pass_runs_before_the_first_frame_and_it_runs_again_after(tmp_path, loopback):
    # Start-up's objects live as long as the app: scanning them ~130 times (once in full)
    # before the room is on screen was start-up time. After the frame the collector is on.
    store = Store(tmp_path / "k.db")
    room = store.chief_id()
    for i in range(40):
        store.add_message(room, "user", f"Question {i}?")
    store.close()
    seen = first_frame(tmp_path, loopback.url)
    # Counted up to the app's own pass at its first frame (gc_policy.start_done), which must
    # come after a frame was drawn: the probe's look for the composer's placeholder may see
    # it a layout later than that frame.
    assert seen["start_done"]["passes"] == 0
    assert seen["start_done"]["frames"] >= 1
    assert seen["collector_on_after"] is True


def test_no_collector_pass_runs_while_the_brain_client_loads_after_the_first_frame(tmp_path, loopback):
    # The openai import makes ~95 000 objects for good. With the collector on, its full passes
    # scanned the growing heap (30-45 ms each, several, the room unable to draw meanwhile)
    # while the owner could already be paging. One full pass (the first frame's own), then
    # the freeze.
    seen = first_frame(tmp_path, loopback.url)
    assert seen["collector_on_after"] is True
    assert seen["passes_before_freeze"] == 1
    assert seen["client_loaded_at_freeze"] is True  # the heap frozen with the client in it, not before


def test_the_brain_client_loads_without_importlib_metadata(tmp_path, loopback):
    # Its HTTP client reads two version strings at import: read plainly (~0.7 MB less held).
    seen = first_frame(tmp_path, loopback.url)
    assert seen["client_loaded_at_freeze"] is True
    assert seen["metadata_module_at_freeze"] is False


def test_a_configured_theme_is_there_from_the_start_and_the_css_is_parsed_once(tmp_path, loopback):
    # [ui] theme set once the app had mounted made Textual parse all the CSS again for the
    # new colours and restyle the screen before the first frame (~28 ms of it).
    config = write_config(tmp_path / "config.toml", loopback.url,
                          f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n'
                          '[ui]\ntheme = "textual-light"\n')
    run = subprocess.run([sys.executable, "-m", "tests.pilot.first_frame_probe", str(config)], cwd=REPO,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["theme"] == "textual-light"
    assert seen["start_done"]["reparses"] == 0
