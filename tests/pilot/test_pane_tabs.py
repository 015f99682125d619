"""The Chief/Tutor tab strip (keeltui/panes/common/pane_tabs.py), read off the screen: the
label in front is bright, the bar under it lit; Ctrl+T, a click on a label and a focus
that still stands in the pane behind bring a pane forward, a stale focus does not."""

from __future__ import annotations

from rich.segment import Segment
from textual.app import App
from textual.widgets import Input

from keeltui.panes.common.pane_tabs import Pane, PaneTabs, label_spans
from tests.support.layout_app import LayoutOnly
from tests.support.pilot import screen_text, wait_for


def layout_with_field() -> LayoutOnly:
    """The layout, with a field to focus in the tutor's tab."""
    return LayoutOnly(tutor=lambda: Input(placeholder="the tutor's field", id="tutor-field"))


def screen_cells(app, y: int) -> list[tuple[str, object]]:
    """Line ``y`` of the screen as (character, foreground colour) cells."""
    update = app.screen._compositor.render_full_update()
    app.screen.refresh()
    cells: list[tuple[str, object]] = []
    for strip in update.strips[y]:
        for text, style, _ in Segment.filter_control(strip):
            cells += [(character, style.color if style else None) for character in text]
    return cells


def lit_under(app) -> str:
    """The label over the bar's lit stretch (the bar is the strip's second line)."""
    labels, bar = screen_cells(app, 0), screen_cells(app, 1)
    colours = [colour for _, colour in bar]
    lit = max(set(colours), key=lambda c: (colours.count(c) < len(colours) / 2, -colours.count(c)))
    return "".join(labels[x][0] for x, (_, colour) in enumerate(bar) if colour == lit).strip()


def bright_label(app) -> str:
    """The label drawn brighter than the other."""
    labels = screen_cells(app, 0)
    words: dict[object, str] = {}
    for character, colour in labels:
        if character.strip():
            words[colour] = words.get(colour, "") + character
    brightest = max(words, key=lambda colour: sum(colour.get_truecolor()) if colour else 0)
    return words[brightest]


async def started(pilot, app) -> PaneTabs:
    await wait_for(pilot, lambda: "Chief" in screen_text(app) and app.query("#tutor-field"), what="the layout")
    return app.main.panes


def test_labels_sit_one_cell_in_with_a_cell_between():
    assert label_spans(["Chief", "Tutor"]) == [(1, 6), (8, 13)]


async def test_the_strip_shows_which_pane_is_in_front_and_ctrl_t_style_switching_moves_it():
    app = layout_with_field()
    async with app.run_test(size=(80, 24)) as pilot:
        panes = await started(pilot, app)
        assert lit_under(app) == "Chief" and bright_label(app) == "Chief"
        panes.active = "tutor-tab"
        await wait_for(pilot, lambda: lit_under(app) == "Tutor" and "the tutor's field" in screen_text(app),
                       what="the bar lit under Tutor, over the tutor's pane")
        assert bright_label(app) == "Tutor" and "Write to the Chief" not in screen_text(app)
        assert app.main.query_one("#chief-tab", Pane).display is False


async def test_a_click_on_a_label_brings_its_pane_forward_and_says_so():
    app = layout_with_field()
    switched: list[str] = []
    async with app.run_test(size=(120, 40)) as pilot:
        panes = await started(pilot, app)
        panes.watch(panes, "active", lambda active: switched.append(active), init=False)
        await pilot.click("PaneStrip", offset=(10, 0))  # on "Tutor" (cells 8-12)
        await wait_for(pilot, lambda: panes.active == "tutor-tab" and lit_under(app) == "Tutor", what="Tutor in front")
        await pilot.click("PaneStrip", offset=(3, 0))  # on "Chief"
        await wait_for(pilot, lambda: panes.active == "chief-tab" and lit_under(app) == "Chief", what="Chief in front")
        await pilot.click("PaneStrip", offset=(40, 0))  # past the labels: nothing changes
        await pilot.pause(0.1)
        assert panes.active == "chief-tab" and switched == ["tutor-tab", "chief-tab"]


async def test_the_label_under_the_mouse_is_drawn_bright_until_the_mouse_leaves():
    app = layout_with_field()
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)

        def label_colours() -> dict[str, object]:
            cells = screen_cells(app, 0)
            return {word: cells[start][1] for word, (start, _) in zip(("Chief", "Tutor"), label_spans(["Chief", "Tutor"]), strict=True)}

        assert label_colours()["Tutor"] != label_colours()["Chief"]
        await pilot.hover("PaneStrip", offset=(10, 0))
        await wait_for(pilot, lambda: label_colours()["Tutor"] == label_colours()["Chief"], what="Tutor bright")
        await pilot.hover("PaneStrip", offset=(40, 0))  # past the labels
        await wait_for(pilot, lambda: label_colours()["Tutor"] != label_colours()["Chief"], what="Tutor dim again")
        assert app.main.panes.active == "chief-tab"  # hovering chose nothing


class ReportsFocusBehind(LayoutOnly):
    def __init__(self) -> None:
        super().__init__(tutor=lambda: Input(placeholder="the tutor's field", id="tutor-field"))
        self.behind: list[str] = []

    def on_pane_tabs_focused_behind(self, message: PaneTabs.FocusedBehind) -> None:
        self.behind.append(message.pane.id or "")


async def test_a_focus_in_the_pane_behind_never_brings_it_forward_and_is_reported():
    app = ReportsFocusBehind()
    async with app.run_test(size=(80, 24)) as pilot:
        panes = await started(pilot, app)
        field = app.query_one("#tutor-field", Input)
        panes.active = "tutor-tab"
        await wait_for(pilot, lambda: field.display and field.region.height > 0, what="the tutor's field shown")
        app.set_focus(field)
        # Ctrl+T's way back, before the field's focus news (a message) arrives: the focus
        # leaves first, then the Chief comes forward.
        app.set_focus(None)
        panes.active = "chief-tab"
        await pilot.pause(0.2)
        assert panes.active == "chief-tab" and lit_under(app) == "Chief"
        # A focus that stands in the pane behind (asked for before a switch, landed after it):
        # the pane stays behind, and the tabs say so for the app to hand the keys back.
        app.set_focus(field)
        await wait_for(pilot, lambda: app.behind == ["tutor-tab"], what="the focus behind reported")
        await pilot.pause(0.1)
        assert panes.active == "chief-tab" and lit_under(app) == "Chief"


async def test_the_tabs_take_panes_only():
    app = App()
    async with app.run_test(size=(40, 10)):
        tabs = PaneTabs(id="t", initial="a")
        tabs.compose_add_child(Pane("A", id="a"))
        try:
            tabs.compose_add_child(Input())
        except TypeError as error:
            assert "panes" in str(error)
        else:
            raise AssertionError("an Input was taken as a pane")


def styled_screen(app) -> list[list[tuple[str, object]]]:
    update = app.screen._compositor.render_full_update()
    app.screen.refresh()
    return [[(text, style) for strip in line for text, style, _ in Segment.filter_control(strip)] for line in update.strips]


async def test_the_first_frame_is_styled_as_a_full_restyle_would_style_it():
    # MainScreen skips the restyle of every widget on its first resume (they were styled
    # as they mounted): the screen must look exactly as after a full restyle.
    app = layout_with_field()
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        first = styled_screen(app)
        app.stylesheet.update(app.screen)
        await pilot.pause(0.1)
        assert styled_screen(app) == first


async def test_a_strip_narrower_than_its_labels_is_cut_at_its_edge():
    app = layout_with_field()
    async with app.run_test(size=(9, 12)) as pilot:
        await wait_for(pilot, lambda: app.query("PaneStrip") and app.query_one("PaneStrip").size.width == 9,
                       what="the strip laid out")
        strip = app.query_one("PaneStrip")
        app.main.panes.active = "tutor-tab"  # its label (cells 8-12) runs past the edge
        await wait_for(pilot, lambda: strip.active == 1, what="Tutor in front")
        for y in (0, 1):
            line = strip.render_line(y)
            assert line.cell_length == 9 and len(line.text) == 9, repr(line.text)


async def test_a_theme_change_redraws_the_strip_in_the_new_colours():
    app = layout_with_field()
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        before = screen_cells(app, 0)[3][1], screen_cells(app, 1)[3][1]
        app.theme = "textual-light"
        await wait_for(pilot, lambda: (screen_cells(app, 0)[3][1], screen_cells(app, 1)[3][1]) != before
                       and screen_cells(app, 0)[3][1] != before[0], what="the strip in the light theme")
        assert lit_under(app) == "Chief"
