"""Packages whose ``__init__`` only re-exports names load each name on first use.

``import openai`` runs ``openai/types/__init__.py``, which imports every one of the SDK's
~470 type modules (a pydantic model class each: ~10 MB of memory and ~0.4 s), though one
chat-completions stream and a model list need about sixty of them. A package under a
prefix given to :func:`load_reexports_on_use` whose ``__init__`` is nothing but
``from .module import Name as Name`` lines (and ``from __future__``) gets a module
``__getattr__`` (PEP 562) instead: ``package.Name`` imports ``.module`` the first time it
is asked for and keeps the value, so each name is the very object an eager import binds.
A package whose ``__init__`` does anything else runs as it always did.

Only the package's own ``__init__`` changes; its submodules, and every import that names a
submodule directly, are Python's usual imports. ``tests/unit/test_lazy_packages.py`` compares
every name of every lazy ``openai.types`` package with an eager import of the pinned SDK.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import threading
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

_installed: set[str] = set()
_lock = threading.Lock()


def reexports(source: str) -> dict[str, tuple[str | None, str]] | None:
    """``{name: (submodule or None, name in it)}`` for an ``__init__`` that only re-exports
    from its own submodules; None for one that does anything else."""
    import ast  # only when a package under a prefix is first imported

    table: dict[str, tuple[str | None, str]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "__future__":
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue  # a docstring
        if not (isinstance(node, ast.ImportFrom) and node.level == 1) or any(a.name == "*" for a in node.names):
            return None
        for alias in node.names:
            table[alias.asname or alias.name] = (node.module, alias.name)
    return table


class _OnUseLoader:
    """Runs a re-export-only ``__init__`` as a table and a module ``__getattr__``."""

    def __init__(self, inner, origin: str) -> None:
        self.inner, self.origin = inner, origin

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module: ModuleType) -> None:
        with open(self.origin, encoding="utf-8") as f:
            table = reexports(f.read())
        if table is None:
            self.inner.exec_module(module)
            return
        # A submodule named like one of the names would be bound over it by the import
        # system when it loads; eager Python binds the name after the submodule, so do that.
        shadowed = [name for name, (sub, _) in table.items() if sub == name]
        package = module.__name__

        def __getattr__(name: str):
            if name not in table:
                # Eager imports bind each submodule they load as an attribute too.
                from importlib.util import find_spec

                if not name.startswith("__") and find_spec(f"{package}.{name}") is not None:
                    return importlib.import_module(f"{package}.{name}")
                raise AttributeError(f"module {package!r} has no attribute {name!r}")
            sub, original = table[name]
            if sub is None:
                value = importlib.import_module(f"{package}.{original}")
            else:
                value = getattr(importlib.import_module(f"{package}.{sub}"), original)
            setattr(module, name, value)
            return value

        def __dir__() -> list[str]:
            return sorted(set(table) | set(module.__dict__))

        module.__getattr__ = __getattr__  # type: ignore[method-assign]
        module.__dir__ = __dir__  # type: ignore[method-assign]
        module.__lazy_reexports__ = table  # type: ignore[attr-defined]  # what the test reads
        for name in shadowed:
            __getattr__(name)


class _Finder:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def find_spec(self, fullname, path, target=None):
        if fullname != self.prefix and not fullname.startswith(self.prefix + "."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if (spec is None or spec.loader is None or not spec.submodule_search_locations
                or not (spec.origin or "").endswith("__init__.py")):
            return spec
        spec.loader = cast("Loader", _OnUseLoader(spec.loader, str(spec.origin)))
        return spec


def load_reexports_on_use(prefix: str) -> None:
    """From now on, packages named ``prefix`` or under it load their re-exports on use.
    Call it before the package is first imported; a second call does nothing."""
    with _lock:
        if prefix in _installed:
            return
        _installed.add(prefix)
        sys.meta_path.insert(0, _Finder(prefix))
