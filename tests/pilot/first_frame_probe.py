"""``python -m tests.pilot.first_frame_probe CONFIG``: start keeltui as the command line
does (``keeltui --config CONFIG``), headless at 120x40, and at its first frame (the first
layout that shows the composer) print, as one JSON line, what had been imported by then
and what was mounted, which widgets had taken the focus, and how many collector passes ran
since `keeltui` started; then leave once the collector is on again with the heap frozen
(the brain client loaded), saying how many passes over older generations
(the costly ones: a young pass looks at a few hundred objects) ran between the two. Its own process: a test's sys.modules is everyone's."""

from __future__ import annotations

import gc
import json
import sys

PLACEHOLDER = "Write to the Chief"
COLLECTIONS = [0]  # collector passes from `keeltui` starting to the app's first-frame pass
FRAMES = [0]  # frames drawn
START: dict[str, int] = {}
UNFROZEN_PASSES = [0]  # older-generation passes after the first frame, before the heap is frozen (the brain client loads)


def count(phase: str, info: dict) -> None:
    if phase == "start" and not START:
        COLLECTIONS[0] += 1
    elif phase == "start" and not gc.get_freeze_count() and info["generation"]:
        UNFROZEN_PASSES[0] += 1


def main(config: str) -> int:
    # Textual is first imported by keeltui itself, as on the command line (it imports it
    # with its own settings in force: the configured theme as Textual's default); the
    # probe's hooks go in right after that import.
    from keeltui.cli import commands

    seen: dict[str, object] = {}
    import_run_app = commands.import_run_app

    def importing(*args, **kwargs):
        run_app = import_run_app(*args, **kwargs)
        install(seen)
        return run_app

    commands.import_run_app = importing  # type: ignore[assignment]
    gc.callbacks.append(count)
    from keeltui.cli.commands import main as keeltui

    code = keeltui(["--config", config])
    print(json.dumps(seen))
    return code


def compiled_dataclasses() -> list[str]:
    """keeltui's classes loaded so far whose dataclass methods were compiled for them
    (``@dataclass``: ~0.4 ms a frozen one at import), not shared (``@record``)."""
    import dataclasses

    found = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("keeltui"):
            continue
        for value in list(vars(module).values()):
            init = getattr(value, "__init__", None) if isinstance(value, type) else None
            if (init is not None and value.__module__ == name and dataclasses.is_dataclass(value)
                    and getattr(getattr(init, "__code__", None), "co_filename", "") == "<string>"):
                found.append(f"{name}.{value.__qualname__}")
    return sorted(found)


def install(seen: dict[str, object]) -> None:
    from textual.app import App
    from textual.css.stylesheet import Stylesheet
    from textual.screen import Screen

    from keeltui.shell.main_screen import MainScreen  # the app imports it before its first frame anyway
    from tests.support.pilot import screen_text

    lay_out = MainScreen._refresh_layout

    def recording(screen, *args, **kwargs):
        lay_out(screen, *args, **kwargs)
        if not seen and PLACEHOLDER in screen_text(screen.app):
            app = screen.app
            from keeltui.infra import metadata_on_use

            # importlib.metadata's stand-in is a name, not the module loaded.
            seen["modules"] = sorted(name for name in sys.modules
                                     if name != "importlib.metadata" or metadata_on_use.real_loaded())
            seen["screens"] = [type(s).__name__ for s in app.screen_stack]
            seen["tutor_tab"] = [type(w).__name__ for w in screen.query_one("#tutor-tab").children]
            seen["focused"] = focused
            seen["theme"] = app.theme
            seen["compiled_dataclasses"] = compiled_dataclasses()
            seen["docless"] = any(type(f).__name__ == "_Finder" and f.__module__.endswith("docless_imports")
                                  for f in sys.meta_path)
            app.set_interval(0.02, lambda: collector_back(app), name="probe-collector")

    def collector_back(app) -> None:
        # The app turns the collector back on after its first frame: wait for it (the
        # test's timeout bounds the wait), then leave.
        if gc.isenabled() and gc.get_freeze_count() and "collector_on_after" not in seen:
            seen["collector_on_after"] = True
            seen["passes_before_freeze"] = unfrozen_passes[0]
            app.exit()

    MainScreen._refresh_layout = recording
    focused: list[str] = []  # every widget given the focus before the first frame, in order
    set_focus = Screen.set_focus

    def focusing(screen, widget, *args, **kwargs):
        if widget is not None and not seen:
            focused.append(type(widget).__name__)
        return set_focus(screen, widget, *args, **kwargs)

    Screen.set_focus = focusing  # type: ignore[method-assign]
    run = App.run
    App.run = lambda self, **kwargs: run(self, headless=True, size=(120, 40))  # type: ignore[method-assign]
    collections, frames, start, unfrozen_passes = COLLECTIONS, FRAMES, START, UNFROZEN_PASSES

    from keeltui.infra import gc_policy

    start_done = gc_policy.start_done

    def starting_done() -> None:
        # The app lets the collector go after its first frame: how many passes ran before,
        # and how many frames had been drawn (by the app's own hook, not a guess at a layout).
        start.setdefault("passes", collections[0])
        start.setdefault("frames", frames[0])
        start.setdefault("reparses", reparses[0])
        seen.setdefault("start_done", start)
        start_done()

    gc_policy.start_done = starting_done  # type: ignore[assignment]

    freeze = gc_policy.freeze_start_up

    def freezing() -> None:
        seen.setdefault("client_loaded_at_freeze", "openai" in sys.modules)
        from keeltui.infra import metadata_on_use

        seen.setdefault("metadata_module_at_freeze", metadata_on_use.real_loaded())
        freeze()

    gc_policy.freeze_start_up = freezing  # type: ignore[assignment]
    display = App._display

    def displaying(self, *args, **kwargs):
        frames[0] += 1
        return display(self, *args, **kwargs)

    App._display = displaying  # type: ignore[method-assign]
    reparse = Stylesheet.reparse
    reparses = [0]  # the whole CSS parsed again (a theme set after mount did it, before the first frame)

    def reparsing(self, *args, **kwargs):
        reparses[0] += 1
        return reparse(self, *args, **kwargs)

    Stylesheet.reparse = reparsing  # type: ignore[method-assign]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
