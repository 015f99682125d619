"""Every private Textual or Rich name keeltui uses lives in keeltui/terminal/ (issue 23):
this reads keeltui's source and fails on one found anywhere else, and on a touch-point
listed in keeltui/terminal/README.md that tests/unit/test_textual_seam.py does not check."""

from __future__ import annotations

import ast
import inspect
import re
from functools import cache
from importlib import import_module
from pathlib import Path
import contextlib

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "keeltui"
SEAM = PACKAGE / "terminal"
PRIVATE_IMPORT = re.compile(r"^\s*(from\s+(textual|rich)[\w.]*\s+import\s+[^#\n]*\b_\w|from\s+(textual|rich)\._|"
                            r"from\s+(textual|rich)\.\w[\w.]*\._|import\s+(textual|rich)\.[\w.]*_)", re.M)


# The Textual and Rich classes keeltui subclasses or handles: their private names are the
# ones a keeltui module could lean on.
HANDLED = [
    "textual.app:App", "textual.screen:Screen", "textual.widget:Widget", "textual.scroll_view:ScrollView",
    "textual.containers:Vertical", "textual.containers:Horizontal", "textual.containers:VerticalScroll",
    "textual.widgets:TextArea", "textual.widgets:Input", "textual.widgets:Static", "textual.widgets:OptionList",
    "textual.widgets:TabbedContent", "textual.widgets:Button", "textual.widgets:Markdown",
    "textual.driver:Driver", "textual.drivers.linux_driver:LinuxDriver",
]
"""The classes keeltui subclasses: a method of the same private name overrides theirs."""
VALUES = ["textual.events:Key", "textual.message:Message", "textual.strip:Strip", "textual.worker:Worker",
          "textual.timer:Timer", "textual.css.stylesheet:Stylesheet",
          "rich.style:Style", "rich.console:Console", "rich.text:Text", "rich.segment:Segment"]
"""Objects keeltui is handed: their private names are read, never overridden."""
PUBLIC = {"_replace", "_asdict", "_fields", "_make",  # a named tuple's API, underscored to avoid field names
          "_exit"}  # os._exit


@cache
def private_names(specs: tuple[str, ...]) -> frozenset[str]:
    """Every single-underscore name those classes (and their bases) define or set on ``self``."""
    names: set[str] = set()
    for spec in specs:
        module, _, name = spec.partition(":")
        for cls in getattr(import_module(module), name).__mro__:
            if cls.__module__.split(".")[0] not in ("textual", "rich"):
                continue
            names.update(vars(cls))
            names.update(getattr(cls, "__slots__", ()) or ())
            with contextlib.suppress(OSError, TypeError):
                names.update(re.findall(r"self\.(_[a-z]\w*)\s*(?::[^=\n]*)?=", inspect.getsource(cls)))
    return frozenset(n for n in names if n.startswith("_") and not n.startswith("__") and n not in PUBLIC)


def own_names(source: str) -> set[str]:
    """Private names a keeltui module defines itself: set on self, annotated, or a helper
    of a class that is not a Textual one (a plain ``def _x`` at module level counts too)."""
    own = set(re.findall(r"self\.(_\w+)\s*(?::[^=\n]*)?=", source))
    own |= set(re.findall(r"^\s*(_\w+)\s*[:=]", source, re.M))
    own |= set(re.findall(r"^\s*(?:async\s+)?def (_\w+)", source, re.M))
    return own


def findings(path: Path) -> list[str]:
    source = path.read_text()
    found = [f"imports {m.group(0).strip()}" for m in PRIVATE_IMPORT.finditer(source)]
    own = own_names(source)
    private = private_names(tuple(HANDLED)) | private_names(tuple(VALUES))
    for number, line in enumerate(source.splitlines(), 1):
        code = line.split("#", 1)[0]
        for name in re.findall(r"super\(\)\.(_[a-z]\w*)", code):
            found.append(f"{number}: calls Textual's {name}")
        for name in re.findall(r"\.(_[a-z]\w*)\b", code):
            if name in private and name not in own:
                found.append(f"{number}: reads {name}")
        for name in re.findall(r"[\"'](_[a-z]\w*)[\"']", code):
            if name in private and name not in own:
                found.append(f"{number}: names {name}")
    return found + overrides(source)


def overrides(source: str) -> list[str]:
    """Methods of a class that subclasses a Textual class and share a private name of it."""
    by_name = {spec.rpartition(":")[2]: spec for spec in HANDLED}
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef):
            continue
        bases = [b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases]
        inherited = frozenset().union(*(private_names((by_name[b],)) for b in bases if b in by_name))
        for item in node.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name in inherited:
                found.append(f"{item.lineno}: overrides {item.name}")
    return found


def test_no_private_textual_or_rich_name_outside_the_seam():
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in sorted(PACKAGE.rglob("*.py"))
        if SEAM not in path.parents and (found := findings(path))
    }
    assert offenders == {}, offenders


def test_the_check_finds_what_it_looks_for(tmp_path):
    """The check itself: each kind of use it must catch, in a module outside the seam."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from textual._compositor import Compositor\n"
        "from textual.widgets import TextArea\n"
        "class A(TextArea):\n"
        "    async def _on_key(self, event):\n"
        "        await super()._on_key(event)\n"
        "        return event._stop_propagation\n"
        "x = getattr(driver, '_file', None)\n"
    )
    kinds = {entry.split(": ", 1)[-1].split()[0] for entry in findings(sample)}
    assert kinds == {"imports", "overrides", "calls", "reads", "names"}, findings(sample)


def test_every_touch_point_in_the_readme_has_a_shape_test():
    readme = (SEAM / "README.md").read_text()
    shape_tests = (ROOT / "tests" / "unit" / "test_textual_seam.py").read_text()
    points = re.findall(r"^\|\s*`([\w.]+)`\s*\|", readme, re.M)
    assert points, "keeltui/terminal/README.md lists no touch-points"
    missing = [point for point in points if point.rsplit(".", 1)[-1] not in shape_tests]
    assert missing == [], f"no shape test names {missing}"
