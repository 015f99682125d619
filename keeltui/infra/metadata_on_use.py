"""``importlib.metadata`` loads on first real use; a distribution's version is read without it.

The openai SDK's HTTP client asks for its own version at import (``httpx2/__version__.py``
and ``httpcore2/__init__.py`` call ``importlib.metadata.version``), and pydantic's plugin
loader imports ``entry_points`` at import and asks for its group at its first model. For
two version strings and a group nobody declares, the brain client's load imported
importlib.metadata with what it brings (csv, zipfile, its own modules) and read the
distributions through it: ~0.7 MB held for good and ~10 ms of the load.

:func:`install` puts a stand-in under that name. Its :func:`version` reads the
``Version:`` line of the distribution's METADATA itself, found as the real module finds it
(the first ``NAME-*.dist-info`` folder, name normalized, in ``sys.path`` order); anything
else it is asked (``distributions``, a group of entry points some distribution declares, a
version it cannot read plainly: an egg, a zip, a name not installed) loads the real module,
which then replaces the stand-in in ``sys.modules``, and answers. ``tests/unit/test_metadata_on_use.py`` compares every
installed distribution's version, and each group's entry points, with the real module's.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from importlib.machinery import ModuleSpec
from types import ModuleType

NAME = "importlib.metadata"
_lock = threading.Lock()


def _normalize(name: str) -> str:
    """The name as the real module compares it (``Prepared.normalize``: PEP 503, then ``_``)."""
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _folders(path: list[str]):
    """(folder, child) for each distribution folder on ``path``, in the real module's order;
    raises _Unsure at an entry that is a file (a zip can hold distributions: the real reads it)."""
    for entry in path:
        where = entry or "."
        try:
            children = os.listdir(where)
        except NotADirectoryError:
            raise _Unsure(entry) from None
        except (OSError, TypeError, ValueError):
            continue  # a missing folder: the real module finds nothing there either
        for child in children:
            if child.lower().endswith((".dist-info", ".egg-info", ".egg")):
                yield where, child


class _Unsure(Exception):
    """Only the real module can tell."""


def _dist_name(child: str) -> str:
    return _normalize(child.lower().rpartition(".")[0].partition("-")[0])


def plain_version(name: str, path: list[str]) -> str | None:
    """The ``Version:`` of ``name``'s first distribution on ``path``, when it is a
    ``.dist-info`` folder with a plain METADATA header; None for anything else (the real
    module decides: an egg, no such distribution, an unusual file)."""
    wanted = _normalize(name)
    try:
        for where, child in _folders(path):
            if _dist_name(child) == wanted:
                if not child.lower().endswith(".dist-info"):
                    return None  # an egg: the real module reads it
                return _header_version(os.path.join(where, child, "METADATA"))
    except _Unsure:
        return None
    return None


def declares_group(group: str, path: list[str]) -> bool | None:
    """Whether any distribution on ``path`` (the first of each name, as the real module counts
    them) declares entry points in ``group``; None when only the real module can tell."""
    seen: set[str] = set()
    try:
        for where, child in _folders(path):
            name = _dist_name(child)
            if child.lower().endswith(".egg"):
                return None  # an egg's entry points are the real module's to read
            if name in seen:
                continue
            seen.add(name)
            try:
                with open(os.path.join(where, child, "entry_points.txt"), encoding="utf-8") as f:
                    text = f.read()
            except FileNotFoundError:
                continue
            except (OSError, UnicodeDecodeError):
                return None
            for line in text.splitlines():
                line = line.strip()
                if line.startswith("[") and line.endswith("]") and line.strip("[]") == group:
                    return True
    except _Unsure:
        return None
    return False


def _header_version(metadata: str) -> str | None:
    try:
        with open(metadata, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    return None  # the header ended without one
                key, sep, value = line.partition(":")
                if sep and key == "Version":
                    value = value.strip()
                    return value or None
    except (OSError, UnicodeDecodeError):
        return None
    return None


def _real() -> ModuleType:
    """The real module, loaded once; from then on it, not the stand-in, is in ``sys.modules``."""
    with _lock:
        current = sys.modules.get(NAME)
        if current is not None and current is not _stand_in:
            return current
        sys.modules.pop(NAME, None)
        import importlib

        real = importlib.import_module(NAME)
        vars(importlib)["metadata"] = real  # the package's attribute too
        return real


def version(distribution_name: str) -> str:
    """``importlib.metadata.version``: read plainly where it can be, else by the real module."""
    found = plain_version(distribution_name, sys.path)
    return found if found is not None else _real().version(distribution_name)


def entry_points(**params):
    """``importlib.metadata.entry_points``. Asked for one group that no distribution declares
    (pydantic's plugins, asked at its first model: none here), the answer is an empty tuple
    read plainly; anything else is the real module's."""
    if list(params) == ["group"] and declares_group(params["group"], sys.path) is False:
        return ()
    return _real().entry_points(**params)


def _getattr(name: str):
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)  # import machinery and copy probes: not a use
    return getattr(_real(), name)


_stand_in = ModuleType(NAME, __doc__)
vars(_stand_in).update(version=version, entry_points=entry_points, __getattr__=_getattr,
                       __spec__=ModuleSpec(NAME, None))  # find_spec() on a module without one raises


def install() -> bool:
    """Put the stand-in under ``importlib.metadata`` unless the real module is loaded already.
    True when the stand-in is (now) in place."""
    with _lock:
        current = sys.modules.get(NAME)
        if current is not None:
            return current is _stand_in
        sys.modules[NAME] = _stand_in
        import importlib

        vars(importlib)["metadata"] = _stand_in  # `importlib.metadata.version(...)` too
        return True


def real_loaded() -> bool:
    """Whether the real module has been loaded (by this process, for any reason)."""
    current = sys.modules.get(NAME)
    return current is not None and current is not _stand_in
