"""The CSS the first frame parsed is kept for the next start (keeltui/terminal/css_cache.py):
the next start parses none of it and looks exactly the same; a file that is damaged, open to
others or for other theme variables is passed over; CSS that changed is parsed again."""

from __future__ import annotations

import os
import stat

import pytest
from textual.css import stylesheet as stylesheet_module
from textual.css.stylesheet import Stylesheet

from keeltui.terminal import css_cache
from tests.support.pilot import screen_text, wait_for


@pytest.fixture
def parsed(monkeypatch) -> list[str]:
    """The CSS texts Textual parses (its parser, as the stylesheet calls it), in order."""
    texts: list[str] = []
    real = stylesheet_module.parse

    def counting(scope, css, *args, **kwargs):
        texts.append(css)
        return real(scope, css, *args, **kwargs)

    monkeypatch.setattr(stylesheet_module, "parse", counting)
    return texts


@pytest.fixture
def keep_soon(monkeypatch):
    monkeypatch.setattr(css_cache, "KEEP_AFTER_SECS", 0.2)


def cache_files() -> list:
    return sorted(css_cache.default_folder().glob("css-*.pickle"))


def looks(app) -> list[tuple]:
    """What every widget of the first frame looks like and where it is (not the tutor's tab:
    mounted after it, its lines change with its own late state, e.g. "reviews due")."""
    tutor = app.screen.query_one("#tutor-tab")
    return [
        (type(node).__name__, node.id, tuple(node.region), str(node.rich_style), str(node.styles.background),
         str(node.styles.border), node.styles.display, str(node.styles.padding))
        for node in app.screen.walk_children(with_self=True)
        if node is not tutor and tutor not in node.ancestors
    ]


async def start(app, pilot) -> None:
    await wait_for(pilot, lambda: "Write to the Chief" in screen_text(app), what="the room")


async def first_start_writes_the_file(make_app) -> list[tuple]:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(app, pilot)
        await wait_for(pilot, lambda: len(cache_files()) == 1, what="the parsed CSS kept")
        await pilot.pause(0.3)  # the tutor pane mounted after the first frame
        return looks(app)


async def test_the_next_start_parses_none_of_the_first_frames_css_and_looks_the_same(make_app, parsed, keep_soon):
    before = await first_start_writes_the_file(make_app)
    first_frame_css = set(parsed)
    assert first_frame_css, "the first start parsed its CSS"
    (path,) = cache_files()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    written = path.stat().st_mtime_ns

    parsed.clear()
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(app, pilot)
        at_first_frame = list(parsed)
        await pilot.pause(0.3)
        after = looks(app)
        await pilot.pause(0.4)  # past the time it would be written again
    assert not set(at_first_frame) & first_frame_css, "the kept CSS was parsed again"
    assert after == before
    assert path.stat().st_mtime_ns == written, "nothing new: the file is not written again"


@pytest.mark.parametrize("spoil", ["damaged", "open to others"])
async def test_a_spoiled_file_is_passed_over_and_written_again(make_app, parsed, keep_soon, spoil):
    before = await first_start_writes_the_file(make_app)
    (path,) = cache_files()
    if spoil == "damaged":
        path.write_bytes(path.read_bytes()[:500])
    else:
        os.chmod(path, 0o666)
    parsed.clear()
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await start(app, pilot)
        assert parsed, "the CSS was parsed as usual"
        await wait_for(pilot, lambda: stat.S_IMODE(path.stat().st_mode) == 0o600 and path.stat().st_size > 500,
                       what="the file written again")
        await pilot.pause(0.3)
        assert looks(app) == before


A, B = ("a.py", "A.DEFAULT_CSS"), ("b.py", "B.DEFAULT_CSS")


def a_start(folder, variables: dict, *sources: tuple) -> tuple:
    """A stylesheet as a start makes it: the kept CSS read, the sources added and parsed, the
    first frame noted. ``sources``: (css, origin) pairs."""
    sheet = Stylesheet(variables=variables)
    kept = css_cache.preload(sheet, folder)
    for css, origin in sources:
        sheet.add_source(css, read_from=origin, is_default_css=True)
    sheet.parse()
    css_cache.first_frame_drawn(sheet, kept)
    return sheet, kept


def test_only_the_css_the_file_does_not_have_is_parsed(tmp_path, parsed):
    variables = {"primary": "#004578", "background": "#1e1e1e"}
    one, edited, again = "Widget { height: 1; }", "Widget { height: 2; }", "Widget { height: 3; }"
    assert css_cache.save_if_new(*a_start(tmp_path, variables, (one, A)))
    assert parsed == [one]

    parsed.clear()
    sheet, kept = a_start(tmp_path, variables, (one, A), (edited, B))
    assert parsed == [edited]  # the kept one came from the file
    assert css_cache.save_if_new(sheet, kept)  # the new one is kept for the next start

    # An edited source: parsed, and its old rules leave the file (the other source's stay).
    parsed.clear()
    assert css_cache.save_if_new(*a_start(tmp_path, variables, (again, A), (edited, B)))
    assert parsed == [again]
    assert {key[0] for key in css_cache.preload(Stylesheet(variables=variables), tmp_path).keys} == {again, edited}

    # Other theme variables: another file, nothing read from this one.
    parsed.clear()
    other = {**variables, "primary": "#ff0000"}
    a_start(tmp_path, other, (one, A))
    assert parsed == [one]
    assert css_cache.cache_file(tmp_path, variables) != css_cache.cache_file(tmp_path, other)


def test_a_folder_that_cannot_be_written_leaves_the_start_as_it_was(tmp_path, parsed):
    folder = tmp_path / "file-not-folder"
    folder.write_text("in the way")
    sheet = Stylesheet(variables={})
    kept = css_cache.preload(sheet, folder)
    sheet.add_source("Widget { height: 1; }", read_from=("a.py", "A.DEFAULT_CSS"), is_default_css=True)
    sheet.parse()
    css_cache.first_frame_drawn(sheet, kept)
    assert css_cache.save_if_new(sheet, kept) is False
