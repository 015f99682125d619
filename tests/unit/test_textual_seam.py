"""The one place keeltui leans on Textual's and Rich's private names (keeltui/terminal/textual_seam.py):
this fails on the pinned versions as soon as one of them changes shape, before the room does."""

from __future__ import annotations

import inspect

from rich.console import Console
from rich.style import Style
from textual._compositor import ChopsUpdate, Compositor, LayoutUpdate

from keeltui.terminal import textual_seam


def _params(function) -> list[str]:
    return list(inspect.signature(function).parameters)


def test_the_compositor_updates_keep_the_shape_the_seam_subclasses():
    assert _params(ChopsUpdate.__init__) == ["self", "chops", "spans", "chop_ends"]
    assert _params(LayoutUpdate.__init__) == ["self", "strips", "region"]
    assert _params(ChopsUpdate.render_segments) == ["self", "console"]
    assert _params(LayoutUpdate.render_segments) == ["self", "console"]
    assert _params(Compositor.render_partial_update) == ["self"]
    assert _params(Compositor.render_full_update) == ["self", "simplify"]
    assert _params(Compositor.__init__) == ["self"]
    # SpanCompositor._get_renders: the widgets overlapping a crop, front first, as (region, clip, lines).
    assert _params(Compositor._get_renders) == ["self", "crop"]
    assert isinstance(Compositor.visible_widgets, property)
    assert _params(Compositor._render_chops) == ["self", "crop", "is_rendered_line"]
    update = ChopsUpdate([{0: None}], [(0, 0, 1)], [[1]])
    assert (update.chops, update.spans, update.chop_ends) == ([{0: None}], [(0, 0, 1)], [[1]])


def test_rich_keeps_the_private_style_fields_the_seam_reads():
    style = Style.parse("bold #ff0000 on #00ff00 link https://example.com")
    for name in ("_color", "_bgcolor", "_attributes", "_set_attributes", "_link", "_ansi"):
        assert hasattr(style, name), name
    assert style._color == style.color and style._bgcolor == style.bgcolor and style._link == style.link
    assert style._attributes & style._set_attributes & 1  # bold is bit 0
    assert hasattr(Console(), "_color_system")


def test_textual_keeps_the_styles_cache_the_seam_empties():
    from textual._styles_cache import StylesCache

    assert callable(getattr(StylesCache.get_inner_outer, "cache_clear", None))
    textual_seam.release_render_caches()


def test_the_seam_is_the_only_module_that_imports_private_textual_modules_or_reads_ansi_codes():
    import pathlib
    import re

    root = pathlib.Path(textual_seam.__file__).parents[1]
    private = re.compile(r"from textual\._|import textual\._|\._ansi\b|\._color_system\b")
    users = sorted(str(path.relative_to(root)) for path in root.rglob("*.py") if private.search(path.read_text()))
    assert users == ["terminal/textual_seam.py"], users


def test_a_screen_keeps_the_compositor_attribute_the_seam_replaces():
    from textual.screen import Screen

    screen = Screen()
    assert isinstance(screen._compositor, Compositor)  # the attribute the seam sets
    textual_seam.paint_changed_cells_only(screen)
    assert isinstance(screen._compositor, textual_seam.SpanCompositor)


def test_textual_keeps_the_key_parser_the_alt_enter_seam_wraps():
    # keeltui/terminal/keyinput.py swaps the Linux driver's XTermParser for a subclass.
    from textual.drivers import linux_driver

    parser = linux_driver.XTermParser
    assert _params(parser.feed) == ["self", "data"]
    assert _params(parser.tick) == ["self"]
    # A lone Escape: the parser's wait is ESCDELAY, and the driver reads the file the parser
    # waits on (keyinput.py answers the Escape itself after that wait).
    from textual import constants

    assert isinstance(constants.ESCAPE_DELAY, float)
    assert "constants.ESCAPE_DELAY" in inspect.getsource(parser)
    assert "sys.__stdin__.fileno()" in inspect.getsource(linux_driver.LinuxDriver.__init__)


def test_textual_keeps_the_scroll_update_the_seam_calls_for_a_virtual_size():
    from textual.reactive import Reactive
    from textual.widget import Widget

    assert _params(Widget._scroll_update) == ["self", "virtual_size"]
    # The reactive the seam sets without a layout is the one that asks for one.
    assert isinstance(Widget.__dict__["virtual_size"], Reactive) and Widget.__dict__["virtual_size"]._layout


# -- keeltui/terminal/key_hooks.py ------------------------------------------------------


def test_textual_keeps_the_key_handlers_the_hooks_override():
    from textual.app import App
    from textual.widgets import Input, TextArea

    for cls in (App, TextArea, Input):
        assert _params(cls._on_key) == ["self", "event"], cls  # async def _on_key(self, event)
        assert inspect.iscoroutinefunction(cls._on_key), cls
    # App._check_bindings(key, priority=False) -> bool: runs the bindings of a key no widget took.
    assert _params(App._check_bindings) == ["self", "key", "priority"]
    assert inspect.iscoroutinefunction(App._check_bindings)


def test_a_key_event_keeps_its_stop_flag():
    from textual import events

    from keeltui.terminal.key_hooks import was_stopped

    event = events.Key("a", "a")
    assert event._stop_propagation is False and not was_stopped(event)
    event.stop()
    assert event._stop_propagation is True and was_stopped(event)


async def test_the_hooks_see_keys_before_and_after_the_text_area():
    from textual.app import App, ComposeResult

    from keeltui.terminal.key_hooks import KeyHookTextArea

    seen: list[str] = []

    class Area(KeyHookTextArea):
        async def key_first(self, event) -> bool:
            seen.append(f"first {event.key}")
            return event.key == "x"  # taken: never typed

        async def key_after(self, event) -> None:
            seen.append(f"after {event.key}")

    class Probe(App):
        def compose(self) -> ComposeResult:
            yield Area()

    app = Probe()
    async with app.run_test() as pilot:
        app.query_one(Area).focus()
        await pilot.press("x", "y")
        await pilot.pause()
        assert app.query_one(Area).text == "y"
    assert seen == ["first x", "first y", "after y"]


# -- keeltui/terminal/exit_hooks.py -----------------------------------------------------


def test_the_app_keeps_the_exit_names_the_crash_line_uses():
    from textual.app import App

    app = App()
    assert _params(App._fatal_error) == ["self"]
    assert callable(app._close_messages_no_wait)
    assert isinstance(app._exit_renderables, list)
    assert app._exception is None
    assert app._driver is None  # set when the app runs (terminal_guard reads it then)


def test_the_linux_driver_keeps_its_terminal_file():
    from textual.drivers.linux_driver import LinuxDriver

    # The driver writes the terminal through self._file, set in __init__ (hungup.py wraps it).
    assert "self._file = " in inspect.getsource(LinuxDriver.__init__)

    class Driver:
        _file = "the terminal"

    from keeltui.terminal.exit_hooks import wrap_terminal_file

    driver = Driver()
    wrap_terminal_file(driver, lambda file: f"wrapped {file}")
    assert driver._file == "wrapped the terminal"


def test_the_app_still_hands_keys_on_in_on_event_as_the_key_hold_expects():
    # keeltui/terminal/key_hooks.py keeps keys back by catching them in App.on_event before
    # Textual runs the priority bindings and hands them to the focused widget there.
    from textual.app import App

    assert _params(App.on_event) == ["self", "event"] and inspect.iscoroutinefunction(App.on_event)
    source = inspect.getsource(App.on_event)
    assert "isinstance(event, events.Key)" in source and "_check_bindings(event.key, priority=True)" in source
    assert "forward_target._forward_event(event)" in source
    from textual.message import Message

    assert isinstance(Message.__dict__["is_forwarded"], property)


def test_the_linux_driver_keeps_the_input_loop_the_quiet_thread_replaces():
    # keeltui/terminal/quiet_input.py overrides LinuxDriver.run_input_thread with the same
    # loop, waiting without a timeout: a change in Textual's loop must be copied there.
    from textual._parser import Parser
    from textual._xterm_parser import XTermParser
    from textual.drivers import linux_driver

    loop = inspect.getsource(linux_driver.LinuxDriver.run_input_thread)
    for piece in ("XTermParser(self._debug)", "while not self.exit_event.is_set():", "selector.select(0.1)",
                  "read(fileno, 1024 * 4)", "for event in feed(unicode_data):", "self.process_message(event)",
                  "for event in tick():", "final=True"):
        assert piece in loop, piece
    # exit_event is a threading.Event the driver sets before it joins the input thread.
    assert "self.exit_event = Event()" in inspect.getsource(linux_driver.LinuxDriver.__init__)
    stop = inspect.getsource(linux_driver.LinuxDriver.disable_input)
    assert stop.index("self.exit_event.set()") < stop.index("self._key_thread.join()")
    assert "self.run_input_thread()" in inspect.getsource(linux_driver.LinuxDriver._run_input_thread)
    # The parser's deadline: _timeout_time, on Textual's clock (time.monotonic on Linux), set when
    # it awaits a read with a timeout and cleared by the tick that passes it.
    from textual import _time

    assert _time.get_time is __import__("time").monotonic
    parser = XTermParser()
    assert isinstance(parser, Parser) and parser._timeout_time is None
    source = inspect.getsource(Parser)
    assert "self._timeout_time = get_time() + self._awaiting.timeout" in source
    assert "self._timeout_time = None" in inspect.getsource(Parser.tick)


def test_the_linux_driver_keeps_the_job_control_handlers_the_hangup_guard_narrows():
    # keeltui/terminal/hungup.py lets _sigcont_application through only for a driver that
    # _sigtstp_application suspended (it sets _must_signal_resume; starting again clears it).
    from textual.drivers.linux_driver import LinuxDriver

    stop = inspect.getsource(LinuxDriver._sigtstp_application)
    assert stop.index("self.suspend_application_mode()") < stop.index("self._must_signal_resume = True")
    assert "self.resume_application_mode()" in inspect.getsource(LinuxDriver._sigcont_application)
    start = inspect.getsource(LinuxDriver.start_application_mode)
    assert "self._must_signal_resume = False" in start
    init = inspect.getsource(LinuxDriver.__init__)
    assert "self._must_signal_resume = False" in init
    assert "signal.signal(signal.SIGCONT, self._sigcont_application)" in init


# -- keeltui/terminal/css_cache.py ------------------------------------------------------


def test_the_stylesheet_keeps_the_parse_cache_the_css_cache_fills(monkeypatch):
    from textual.cache import LRUCache
    from textual.css import stylesheet as stylesheet_module
    from textual.css.stylesheet import Stylesheet

    sheet = Stylesheet(variables={"primary": "#123456"})
    assert sheet._variables == {"primary": "#123456"}  # what names the kept file
    assert isinstance(sheet._parse_cache, LRUCache)
    css, origin = "Widget { height: 3; }", ("a.py", "A.DEFAULT_CSS")
    sheet.add_source(css, read_from=origin, is_default_css=True)
    sheet.parse()
    # Stylesheet._parse_rules's key: the CSS, its origin, defaults or not, tie-breaker, scope.
    key = (css, origin, True, 0, "")
    assert list(sheet._parse_cache.keys()) == [key]
    rules = sheet._parse_cache.get(key)
    assert isinstance(rules, list) and rules

    # Rule sets put under that key are what a later stylesheet uses: it does not parse.
    def no_parse(*args, **kwargs):
        raise AssertionError("parsed although the cache had the rules")

    monkeypatch.setattr(stylesheet_module, "parse", no_parse)
    other = Stylesheet(variables={"primary": "#123456"})
    other._parse_cache[key] = rules
    other.add_source(css, read_from=origin, is_default_css=True)
    assert other.rules == rules
    # A change of theme variables empties it (the kept rules hold the old variables' values).
    other.set_variables({"primary": "#654321"})
    assert len(other._parse_cache) == 0
