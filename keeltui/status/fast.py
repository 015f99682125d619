"""``keeltui status`` without argparse, pathlib, json or the typed config: tmux runs it on
every status tick, so it costs what reading the status file costs and nothing more.

The console script (keeltui/__main__.py) calls it before anything else; it imports only
os, sys (both loaded by Python's start), the status line's words (keeltui/status/line.py),
the XDG folders (keeltui/infra/xdg.py) and the process probe, and reads the app's JSON with
the C scanner the json package itself uses (the package would import re, enum and more:
a third of what Python's own start costs). It prints only when it is sure the full path would print the same: the config it reads was
validated (by the running app or an earlier full ``keeltui status``), or there is no
config file and no environment override, so the defaults apply and they are valid.
Anything else returns None and the caller takes the full path, which validates and
reports (exit 2 for a bad config).
"""

# No `from __future__ import annotations`: that is one more module to import, and the
# annotations here are valid at run time.
import os
import sys

from keeltui.infra.xdg import config_stamp, default_config_file, xdg_dir
from keeltui.status.line import IDLE, NOT_RUNNING, tmux_escape


def status_file_from(text: str) -> str | None:
    """``[paths] status_file`` read straight from the TOML text ("" when unset, None when
    the text needs the TOML parser to tell). The usual one-line form is read by hand; a
    wrong guess is harmless: the file found is trusted only if its writer validated
    this very config."""
    if "status_file" not in text:
        return ""  # no TOML parser needed for the common case
    found = [line for line in text.splitlines() if line.lstrip(" \t").startswith("status_file")]
    if len(found) == 1 and text.count("status_file") == 1:
        key, sep, value = found[0].partition("=")
        value = value.strip(" \t")
        if sep and key.strip(" \t") == "status_file" and value.startswith('"'):
            closing = value.find('"', 1)
            inside, after = value[1:closing], value[closing + 1:].strip(" \t")
            if closing > 0 and "\\" not in inside and (not after or after.startswith("#")):
                return inside
    import tomllib  # a rarer form: the parser decides (still no typed config)

    try:
        data = tomllib.loads(text)
    except ValueError:
        return None
    paths = data.get("paths", {})
    named = paths.get("status_file", "") if isinstance(paths, dict) else None
    return named if isinstance(named, str) else None


def status_path(config_path: str | None) -> str | None:
    """The status file this config names; None when only the full path can tell."""
    file = config_path or default_config_file()
    try:
        with open(file, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        if config_path:
            return None  # an explicit file that is missing: the full path says so (exit 2)
        text = ""
    except (OSError, ValueError):
        return None
    named = status_file_from(text)
    if named is None:
        return None
    return os.path.expanduser(named) if named else os.path.join(xdg_dir("user_state_dir"), "status")


STALE_AFTER_SECS = 180.0
"""A running app rewrites its line at least once a minute (``adapters.status_file.HEARTBEAT_SECS``):
one older than three of those was not refreshed, so the app cannot write the file."""


def read_payload(path: str) -> tuple[str, str]:
    """(the line to print, the config stamp its writer validated) from the status file."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, ValueError):
        return NOT_RUNNING, ""  # no file (the app never ran here)
    try:
        payload = json_loads(text)
        line = str(payload.get("line", IDLE))
        pid = payload.get("pid")
        stamp = str(payload.get("config", ""))
        at = payload.get("at")
    except (ValueError, AttributeError):  # half a file or not ours: as if the app were not running
        return NOT_RUNNING, ""
    from keeltui.adapters.process_probe import pid_alive

    if isinstance(pid, int) and not pid_alive(pid):
        return NOT_RUNNING, stamp
    if isinstance(at, (int, float)):
        import time

        if time.time() - at > STALE_AFTER_SECS:
            # The app runs but has not refreshed its line (a full disk, a folder gone read-only).
            since = time.strftime("%H:%M", time.localtime(at))
            return f"{line} (stale: not updated since {since})", stamp
    return line, stamp


class _JsonContext:
    """What the C scanner reads from a ``json.JSONDecoder``: the defaults of ``json.loads``
    (NaN and Infinity are read as floats, as json's own ``parse_constant`` does)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = float


_JSON_SPACE = " \t\n\r"


def json_loads(text: str):
    """``json.loads(text)`` for a str, through ``_json.make_scanner`` (the scanner json.loads
    runs) when CPython has it. Raises ValueError, as json.loads does, for text that is not
    one JSON value."""
    try:
        from _json import make_scanner
    except ImportError:  # another Python: the package, slower to import, same answer
        import json

        return json.loads(text)
    if text.startswith("\ufeff"):
        raise ValueError("Unexpected UTF-8 BOM")  # json.loads refuses it too
    start = len(text) - len(text.lstrip(_JSON_SPACE))
    try:
        # typeshed types the context as the scanner itself; the C code reads only the six attributes.
        value, end = make_scanner(_JsonContext)(text, start)  # type: ignore[arg-type]
    except StopIteration as exc:  # no value where one should start
        raise ValueError(f"Expecting value: char {exc.value}") from None
    if text[end:].strip(_JSON_SPACE):
        raise ValueError(f"Extra data: char {end}")
    return value


def validated_path(path: str) -> str:
    """Beside the status file: the stamp of the config ``keeltui status`` last validated
    itself (a file of its own: the status file is the running app's to write)."""
    folder, name = os.path.split(path)
    return os.path.join(folder, f".{name}.validated")


def validated_stamp(path: str) -> str:
    try:
        with open(validated_path(path), encoding="utf-8") as handle:
            return handle.read()
    except (OSError, ValueError):
        return ""


def fast_status(argv: list[str]) -> int | None:
    """``keeltui [--config P] status [--tmux]``: prints the line and returns 0, or returns
    None (another command or flag, or a config that must be validated first)."""
    config_path = None
    rest = argv
    if rest[:1] == ["--config"] and len(rest) >= 2:
        config_path, rest = rest[1], rest[2:]
    if rest not in (["status"], ["status", "--tmux"]) or not sys.platform.startswith("linux"):
        return None  # elsewhere platformdirs decides the folders: the full path asks it
    path = status_path(config_path)
    if path is None:
        return None
    line, stamp = read_payload(path)
    current = config_stamp(config_path)
    # No file and no override: the defaults, which are valid by construction (a test holds it).
    defaults = current == f"{default_config_file()}:absent" and not config_path
    if not defaults and stamp != current and validated_stamp(path) != current:
        return None  # a config neither the app nor `status` has validated: check it (bad → exit 2)
    try:
        sys.stdout.write((tmux_escape(line) if rest[-1] == "--tmux" else line) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader left (as on the full path: exit 0, no traceback)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nor one from the flush at exit
    return 0
