"""Other packages' functions and classes load without their docstrings: ~3 MB less held.

What keeltui holds is mostly the code it imports (Textual, Rich, the openai SDK, pydantic,
httpx2, the standard library: ~16 000 functions, ~1 900 classes), and their docstrings are
~2.5 MB of it (a class's twice: Python keeps a copy for the type): text for ``help()``,
which a terminal app never shows. ``python -OO`` drops them, but
it drops ``assert`` statements as well, and a console script cannot ask for it anyway.

:func:`install` puts a finder before Python's own: a module from outside keeltui loads from
a compiled form without its functions' and classes' docstrings (a module keeps its own, as
does a dataclass, which would otherwise work one out at import), kept beside Python's own as
``__pycache__/NAME.cpython-311.opt-nodoc2.pyc`` and checked against the source's mtime and
size as Python checks its own. Nothing else changes: the same source, the same line numbers
in tracebacks, the same asserts.

The forms are written without column positions as well (``-X no_debug_ranges``: ~0.5 MB
less held in a 100 000-row room). A traceback through another package's code still names
the file and line; it loses only the ``^^^^`` under the failing part of the line, and
tracebacks go to keeltui's log, never to the screen.

A module without that form yet loads the usual way (a start never waits for a compiler) and
is remembered: :func:`compile_later` hands the list to a separate, low-priority process once
the app has ended, so the next start is lean. Where the ``__pycache__`` folder cannot be
written (a system-wide install), nothing is remembered and Python's own form is used.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import marshal
import os
import sys

TAG = "nodoc3"
"""The compiled forms' tag (Python's ``optimization`` part of the file name): a new one
whenever :func:`strip_docstrings` strips something else (or the forms change otherwise:
"nodoc3" dropped column positions), so no older form is read."""
OWN = ("keeltui", "keeltui_dev", "tests", "bench")
"""Packages that load as they are: their docstrings are theirs to read (and few)."""

_missed: list[tuple[str, str]] = []


def _header(source_stat: os.stat_result) -> bytes:
    """A timestamp-checked compiled file's 16-byte header (PEP 552, flags 0), as Python writes it."""
    return (importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little")
            + (int(source_stat.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
            + (source_stat.st_size & 0xFFFFFFFF).to_bytes(4, "little"))


class _DoclessLoader(importlib.machinery.SourceFileLoader):
    def get_code(self, fullname):
        source = self.get_filename(fullname)
        compiled = importlib.util.cache_from_source(source, optimization=TAG)
        try:
            stat = os.stat(source)
            with open(compiled, "rb") as f:
                data = f.read()
            if data[:16] == _header(stat):
                return marshal.loads(memoryview(data)[16:])
        except (OSError, ValueError, EOFError, TypeError):
            pass  # none yet, stale or unreadable: the usual way, and written for next time
        folder = os.path.dirname(compiled)
        if os.access(folder if os.path.isdir(folder) else os.path.dirname(folder), os.W_OK):
            _missed.append((source, compiled))
        return super().get_code(fullname)


class _Finder:
    """Python's path finder, with :class:`_DoclessLoader` for other packages' source files."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if fullname.partition(".")[0] in OWN:
            return None  # Python's own finder, next in line
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and type(spec.loader) is importlib.machinery.SourceFileLoader:
            spec.loader = _DoclessLoader(spec.loader.name, spec.loader.path)
        return spec

    @staticmethod
    def invalidate_caches() -> None:
        pass  # PathFinder's own are invalidated by itself (it stays on sys.meta_path)


def install() -> None:
    """From now on, other packages' modules load without their functions' and classes' docstrings."""
    if any(isinstance(f, _Finder) for f in sys.meta_path):
        return
    at = next((i for i, f in enumerate(sys.meta_path) if f is importlib.machinery.PathFinder), len(sys.meta_path))
    sys.meta_path.insert(at, _Finder())


def missed() -> list[tuple[str, str]]:
    """(source, compiled form) of the modules loaded without a docless form this run."""
    return list(_missed)


def compile_later() -> None:
    """Write the missed modules' forms in a separate process at the lowest priority; the
    caller does not wait (called once the app has ended and given the terminal back)."""
    if not _missed:
        return
    import subprocess

    try:
        child = subprocess.Popen(
            # Compiled there without column positions: the flag is the interpreter's, not compile()'s.
            [sys.executable, "-X", "no_debug_ranges", "-m", "keeltui.infra.docless_imports"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,  # a Ctrl+C in the shell afterwards is not for it
        )
        assert child.stdin is not None
        child.stdin.write("".join(f"{s}\0{c}\n" for s, c in _missed).encode("utf-8", "surrogateescape"))
        child.stdin.close()
    except OSError:
        pass  # next time: the app ran as it always does
    _missed.clear()


def _dataclass(node) -> bool:
    """A class decorated with ``dataclass`` (any spelling): without a docstring of its own,
    dataclasses would work one out from the signature at import, a slow path."""
    import ast

    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if "dataclass" in name:
            return True
    return False


def strip_docstrings(tree):
    """``tree`` (an ``ast.Module``) without its functions', methods' and classes' docstrings
    (a dataclass keeps its own; see :func:`_dataclass`). The module keeps its docstring."""
    import ast

    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or (
                isinstance(node, ast.ClassDef) and not _dataclass(node)):
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                if len(node.body) > 1:
                    del node.body[0]
                else:
                    node.body[0] = ast.copy_location(ast.Pass(), first)
    return tree


def write_docless(source: str, compiled: str) -> None:
    """Compile ``source`` without its docstrings (:func:`strip_docstrings`) into ``compiled``, atomically."""
    import ast

    with open(source, "rb") as f:
        stat = os.fstat(f.fileno())
        text = f.read()
    code = compile(strip_docstrings(ast.parse(text, source)), source, "exec", dont_inherit=True)
    os.makedirs(os.path.dirname(compiled), exist_ok=True)
    partial = f"{compiled}.{os.getpid()}.tmp"
    try:
        with open(partial, "wb") as f:
            f.write(_header(stat) + marshal.dumps(code))
        os.replace(partial, compiled)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)


def _main() -> int:
    """The low-priority writer: one ``source NUL compiled`` a line on standard input."""
    import contextlib
    import fcntl
    import tempfile

    with contextlib.suppress(OSError):
        os.nice(19)
    # One writer at a time (apps ended together, as a test suite's do): the others leave
    # their lists to it, or to the next start, which finds what is still missing.
    lock = os.open(os.path.join(tempfile.gettempdir(), f"keeltui-docless-{os.getuid()}.lock"),
                   os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return 0
    for line in sys.stdin.buffer.read().decode("utf-8", "surrogateescape").splitlines():
        source, _, compiled = line.partition("\0")
        try:
            write_docless(source, compiled)
        except (OSError, SyntaxError, ValueError):
            continue  # left to Python's own form; the next start will try again
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
