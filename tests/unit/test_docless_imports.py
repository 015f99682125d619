"""Other packages' functions and classes load without their docstrings (keeltui/infra/docless_imports.py)."""

from __future__ import annotations

import importlib
import os
import sys
import time
import traceback

import pytest

from keeltui.infra import docless_imports

SOURCE = '''"""The module's docstring."""

import dataclasses


def documented(x):
    """A function's docstring."""
    return x + 1


def only_a_docstring():
    """Nothing but this."""


class Thing:
    """A class's docstring."""

    def method(self):
        """A method's docstring."""
        return "method"

    async def later(self):
        """An async method's docstring."""
        return 2


@dataclasses.dataclass
class Point:
    """A dataclass's docstring."""

    x: int


def checks(x):
    """Asserts stay."""
    assert x > 0, "x must be positive"
    return x


def fails():
    """The traceback's line numbers stay."""
    raise RuntimeError("from its own line")
'''


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A package ``doclesspkg`` outside keeltui, imported with the finder installed."""
    root = tmp_path / "doclesspkg"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "mod.py").write_text(SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    monkeypatch.setattr(docless_imports, "_missed", [])
    docless_imports.install()
    yield root
    for name in [m for m in sys.modules if m.startswith("doclesspkg")]:
        del sys.modules[name]


def _fresh_import():
    for name in [m for m in sys.modules if m.startswith("doclesspkg")]:
        del sys.modules[name]
    importlib.invalidate_caches()
    return importlib.import_module("doclesspkg.mod")


def _write_missed() -> None:
    for source, compiled in docless_imports.missed():
        docless_imports.write_docless(source, compiled)


def test_a_module_loads_without_its_functions_docstrings_once_written(package):
    first = _fresh_import()
    assert first.documented.__doc__ == "A function's docstring."  # no docless form yet: as always
    assert str(package / "mod.py") in {s for s, _ in docless_imports.missed()}
    _write_missed()
    docless_imports._missed.clear()
    mod = _fresh_import()
    assert docless_imports.missed() == []  # read from its docless form
    assert mod.documented.__doc__ is None
    assert mod.Thing.method.__doc__ is None and mod.Thing.later.__doc__ is None and mod.Thing.__doc__ is None
    assert mod.only_a_docstring.__doc__ is None and mod.only_a_docstring() is None
    # What the code does, and what reads a module's or a class's docstring, is unchanged.
    assert mod.documented(1) == 2 and mod.Thing().method() == "method"
    assert mod.__doc__ == "The module's docstring." and mod.Point.__doc__ == "A dataclass's docstring."
    assert mod.Point(3).x == 3
    with pytest.raises(AssertionError, match="x must be positive"):
        mod.checks(0)
    with pytest.raises(RuntimeError) as caught:
        mod.fails()
    raised_at = SOURCE.splitlines().index('    raise RuntimeError("from its own line")') + 1
    assert traceback.extract_tb(caught.value.__traceback__)[-1].lineno == raised_at


def test_an_edited_source_is_not_read_from_its_old_form(package):
    _fresh_import()
    _write_missed()
    assert _fresh_import().documented(1) == 2
    docless_imports._missed.clear()
    source = package / "mod.py"
    source.write_text(SOURCE.replace("return x + 1", "return x + 100"))
    later = time.time() + 5  # a new mtime even on a coarse clock
    os.utime(source, (later, later))
    mod = _fresh_import()
    assert mod.documented(1) == 101
    assert [s for s, _ in docless_imports.missed()] == [str(source)]


def test_keeltui_s_own_modules_load_as_they_are():
    finder = docless_imports._Finder()
    assert finder.find_spec("keeltui.app") is None  # left to Python's own finder
    assert finder.find_spec("tests.unit") is None
    spec = finder.find_spec("textwrap")  # a standard-library source module
    assert spec is not None and isinstance(spec.loader, docless_imports._DoclessLoader)


def test_the_forms_missed_are_written_by_a_process_of_their_own(package):
    _fresh_import()
    (_, compiled), = [m for m in docless_imports.missed() if m[0] == str(package / "mod.py")]
    assert not os.path.exists(compiled)
    docless_imports.compile_later()
    deadline = time.monotonic() + 60
    while not os.path.exists(compiled) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert os.path.exists(compiled)
    assert docless_imports.missed() == []
    mod = _fresh_import()
    assert mod.documented.__doc__ is None
    # Written without column positions (less held), with every line number kept.
    code = mod.documented.__code__
    assert [p[2:] for p in code.co_positions()] and all(p[2:] == (None, None) for p in code.co_positions())
    with pytest.raises(RuntimeError) as caught:
        mod.fails()
    raised_at = SOURCE.splitlines().index('    raise RuntimeError("from its own line")') + 1
    assert traceback.extract_tb(caught.value.__traceback__)[-1].lineno == raised_at


def test_functions_and_classes_lose_their_docstrings_and_nothing_else():
    import ast

    tree = docless_imports.strip_docstrings(ast.parse(SOURCE))
    kept = [node.value.value for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)]
    assert kept == ["The module's docstring.", "A dataclass's docstring."]
