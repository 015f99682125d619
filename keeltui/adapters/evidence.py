"""Evidence: which window (or tmux pane) the owner is looking at.

A source's ``read()`` is synchronous and bounded by a timeout; the app calls it
from a thread worker every ``evidence.poll_secs``. Every failure -- no display,
a dead command, a hung X server -- reads as ``None`` and one log line, never as
an exception. Every title and class is cleaned (see :mod:`.clean`) the moment a
snapshot is built, so nothing downstream sees raw bytes from other programs.
"""

from __future__ import annotations

from contextlib import suppress

import logging
import os
import re
import shutil
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from typing import Protocol

from keeltui.ambient.window import (  # noqa: F401 - re-exported for the adapters' callers
    EXCLUDED, WindowSnapshot, apply_exclusions, compile_exclusions,
)


from .complaint import Complaint
from .proc import CommandFailed, run_bounded

log = logging.getLogger("keeltui.adapters.evidence")

SOURCE_KINDS = ("auto", "ewmh", "tmux", "command", "none")


class EvidenceSource(Protocol):
    """What the app polls. ``reason`` explains an unavailable source (for doctor)."""

    @property
    def name(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def available(self) -> bool: ...

    def read(self) -> WindowSnapshot | None: ...


Clock = Callable[[], float]


class NoneSource:
    """Reads nothing. The sentinel's ring stays empty and it stays silent."""

    name = "none"
    available = False

    def __init__(self, reason: str = "no evidence source configured") -> None:
        self.reason = reason

    def read(self) -> WindowSnapshot | None:
        return None


# --------------------------------------------------------------------- X11 / EWMH


def _decode(value: object) -> str:
    """X properties arrive as bytes (UTF8_STRING or Latin-1 STRING) or str."""
    if isinstance(value, (bytes, bytearray)):
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            return bytes(value).decode("latin-1")
    return "" if value is None else str(value)


class EwmhSource:
    """The active X11 window via EWMH (``_NET_ACTIVE_WINDOW``).

    Xlib calls block on the X socket, so each read runs on a daemon thread and
    is abandoned after ``timeout`` seconds; while an abandoned read is still
    stuck, further reads return ``None`` at once instead of piling up threads.
    """

    name = "ewmh"

    def __init__(self, display: str | None = None, *, timeout: float = 2.0, clock: Clock = time.time) -> None:
        self._display_name = display
        self._timeout = timeout
        self._clock = clock
        self._ewmh = None
        self._worker: threading.Thread | None = None
        self._complaint = Complaint(log, "ewmh evidence")
        self.reason = ""

    @property
    def available(self) -> bool:
        """Connected, or able to connect now (this may talk to the X server)."""
        return self._ewmh is not None or self.probe()

    def probe(self) -> bool:
        """Connect now; True when an X display with a window manager answers."""
        try:
            self._run(self._connect_and_check)
        except Exception as exc:  # noqa: BLE001 - any failure means "unavailable"
            self._fail(exc)
            return False
        return True

    def read(self) -> WindowSnapshot | None:
        try:
            snap = self._run(self._read_active)
        except Exception as exc:  # noqa: BLE001
            self._fail(exc)
            return None
        self._complaint.ok()
        self.reason = ""
        return snap

    def _fail(self, exc: BaseException) -> None:
        self.reason = _describe(exc)
        self._complaint.failed(self.reason)
        if not isinstance(exc, TimeoutError) and self._ewmh is not None:
            # A broken connection is rebuilt on the next read (the display may
            # come back, e.g. after an X server restart).
            with suppress(Exception):  # it is broken already
                self._ewmh.display.close()
            self._ewmh = None

    def _run(self, job: Callable[[], WindowSnapshot | None]) -> WindowSnapshot | None:
        if self._worker is not None and self._worker.is_alive():
            raise TimeoutError("an earlier X request is still stuck")
        if self._ewmh is None:
            # Imported here, not on the timed thread: an import never blocks on the X
            # socket, but on a loaded machine it can take longer than the timeout and
            # would be taken for a stuck X server (and the next read for a stuck request).
            import ewmh  # noqa: F401
            from Xlib import display  # noqa: F401

            if not (self._display_name or os.environ.get("DISPLAY")):
                # Nothing to connect to: say so at once rather than via a thread and a timeout.
                raise RuntimeError("no X display (DISPLAY is not set)")
        future: Future = Future()

        def work() -> None:
            try:
                future.set_result(job())
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                future.set_exception(exc)

        # A daemon thread: a hung X server must not keep the process alive at exit.
        self._worker = threading.Thread(target=work, name="keeltui-ewmh", daemon=True)
        self._worker.start()
        self._worker.join(self._timeout)
        if not future.done():
            raise TimeoutError(f"X request timed out after {self._timeout:g}s")
        return future.result()

    def _connect(self):
        if self._ewmh is None:
            # Imported lazily: python-xlib is only needed when X11 evidence is used.
            from Xlib import display as xdisplay
            from ewmh import EWMH

            self._ewmh = EWMH(_display=xdisplay.Display(self._display_name))
        return self._ewmh

    def _connect_and_check(self) -> None:
        ewmh = self._connect()
        if ewmh._getProperty("_NET_SUPPORTED") is None:
            raise RuntimeError("no EWMH window manager on the display")

    def _read_active(self) -> WindowSnapshot | None:
        from Xlib.error import XError

        ewmh = self._connect()
        win = ewmh.getActiveWindow()
        if win is None:
            return None
        try:
            title = ""
            for prop in ("_NET_WM_NAME", "_NET_WM_VISIBLE_NAME", "WM_VISIBLE_NAME", "WM_NAME"):
                title = _decode(ewmh._getProperty(prop, win))
                if title:
                    break
            klass = win.get_wm_class()
        except XError:
            # The window closed between the two requests: nothing to report.
            return None
        # WM_CLASS is (instance, class); the class ("XTerm", "firefox") is the
        # stable, human-readable half.
        wm_class = _decode(klass[-1]) if klass else ""
        return WindowSnapshot(wm_class=wm_class, title=title, at=self._clock(), idle_secs=self._idle(ewmh))

    def _idle(self, ewmh) -> float | None:
        """Seconds since the last keyboard or mouse input (MIT-SCREEN-SAVER); None if the
        server lacks the extension."""
        try:
            display = ewmh.display
            if not display.has_extension("MIT-SCREEN-SAVER"):
                return None
            return display.screen().root.screensaver_query_info().idle / 1000.0
        except Exception:  # noqa: BLE001 - idle time is a bonus, never a failed read
            return None


def _describe(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return str(exc) or "X request timed out"
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:160]}" if text else type(exc).__name__


# --------------------------------------------------------------------- tmux

_TAB = "\t"


def tmux_title(command: str, path: str, window: str, pane_title: str, hosts: tuple[str, ...] = ()) -> str:
    """What a tmux pane shows, as one title: ``less · /etc · services`` (+ the pane's
    own title unless it is just the host name, tmux's default)."""
    parts: list[str] = []
    for part in (command, path, window, pane_title if pane_title not in hosts else ""):
        if part and part not in parts:
            parts.append(part)
    return " · ".join(parts)


class TmuxSource:
    """The tmux pane the owner is looking at: its command, path, window name and title,
    and how long the client has been idle.

    Asks ``list-clients`` first (each attached client's current pane, the most
    recently active client wins: right even when the owner switched tmux
    windows); with no client attached, ``display-message -p`` (the session's
    active pane). Works over SSH. Needs ``$TMUX`` or an explicit ``socket``.
    """

    name = "tmux"

    def __init__(
        self,
        socket: str | None = None,
        *,
        env: Mapping[str, str] | None = None,
        timeout: float = 2.0,
        clock: Clock = time.time,
    ) -> None:
        self._env = dict(os.environ if env is None else env)
        self._socket = socket
        self._timeout = timeout
        self._clock = clock
        self._complaint = Complaint(log, "tmux evidence")
        self._tmux = shutil.which("tmux", path=self._env.get("PATH"))
        self.reason = ""

    @property
    def available(self) -> bool:
        return self._tmux is not None and bool(self._socket or self._env.get("TMUX"))

    def _argv(self, *args: str) -> list[str]:
        argv = [self._tmux or "tmux"]
        if self._socket:
            argv += ["-S" if "/" in self._socket else "-L", self._socket]
        return argv + list(args)

    def read(self) -> WindowSnapshot | None:
        if not self.available:
            self.reason = "not inside tmux (no $TMUX) and no tmux socket configured"
            if self._tmux is None:
                self.reason = "tmux is not installed (Debian package tmux)"
            self._complaint.failed(self.reason)
            return None
        try:
            fields = self._from_clients() or self._from_display()
        except CommandFailed as exc:
            self.reason = str(exc)
            self._complaint.failed(self.reason)
            return None
        self._complaint.ok()
        self.reason = ""
        activity, command, path, window, pane_title, host, host_short = (fields.split(_TAB) + [""] * 7)[:7]
        now = self._clock()
        idle = None
        if activity.isdigit():
            # tmux's client_activity: the client's last key press (epoch seconds).
            idle = max(0.0, now - int(activity))
        title = tmux_title(command, path, window, pane_title, (host, host_short))
        return WindowSnapshot(wm_class=command, title=title, at=now, idle_secs=idle)

    _PANE = ("#{pane_current_command}", "#{pane_current_path}", "#{window_name}", "#{pane_title}", "#{host}",
             "#{host_short}")

    def _from_clients(self) -> str:
        fmt = _TAB.join(("#{client_activity}", *self._PANE))
        out = run_bounded(self._argv("list-clients", "-F", fmt), timeout=self._timeout, env=self._env)
        best, best_at = "", -1
        for line in out.stdout.splitlines():
            activity = line.partition(_TAB)[0]
            try:
                at = int(activity)
            except ValueError:
                continue
            if at > best_at:
                best, best_at = line, at
        return best

    def _from_display(self) -> str:
        # No client attached: nobody is at this session's keyboard to time.
        fmt = _TAB.join(("", *self._PANE))
        out = run_bounded(self._argv("display-message", "-p", fmt), timeout=self._timeout, env=self._env)
        return out.stdout.splitlines()[0] if out.stdout.strip() else ""


# --------------------------------------------------------------------- command

_IDLE_FIELD = re.compile(r"\d+(?:\.\d+)?")


class CommandSource:
    """A shell command that prints ``class<TAB>title`` (Wayland, macOS, anything),
    optionally ``<TAB>idle seconds`` as a third field (away from the keyboard).

    Only the first non-empty line counts. A line without a tab is garbage: the
    contract is explicit so that an error message is never mistaken for a title.
    """

    name = "command"
    available = True  # configured; whether it works shows in ``reason``

    def __init__(self, command: str, *, timeout: float = 2.0, clock: Clock = time.time) -> None:
        self.command = command
        self._timeout = timeout
        self._clock = clock
        self._complaint = Complaint(log, f"evidence command {command!r}")
        self.reason = ""

    def read(self) -> WindowSnapshot | None:
        try:
            out = run_bounded(self.command, shell=True, timeout=self._timeout)
        except CommandFailed as exc:
            return self._fail(str(exc))
        line = next((ln for ln in out.stdout.splitlines() if ln.strip()), "")
        if _TAB not in line:
            return self._fail("output is not 'class<TAB>title'")
        wm_class, _, title = line.partition(_TAB)
        idle = None
        head, tab, last = title.rpartition(_TAB)
        if tab and _IDLE_FIELD.fullmatch(last.strip()):
            # A third field that is a number is the idle time; any other tab stays
            # part of the title, as it always did.
            title, idle = head, float(last.strip())
        snap = WindowSnapshot(wm_class=wm_class, title=title, at=self._clock(), idle_secs=idle)
        if not snap.wm_class and not snap.title:
            return self._fail("output held no printable class or title")
        self._complaint.ok()
        self.reason = ""
        return snap

    def _fail(self, reason: str) -> WindowSnapshot | None:  # always None: read() returns it
        self.reason = reason
        self._complaint.failed(reason)
        return None


# --------------------------------------------------------------------- choosing


def make_source(
    kind: str,
    command: str = "",
    *,
    tmux_socket: str | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 2.0,
    clock: Clock = time.time,
) -> EvidenceSource:
    """The evidence source for ``evidence.source``.

    An explicitly named source is returned even when it does not work yet (it
    reads ``None`` until it does, and ``reason`` says why) -- except ``command``
    with no command, which becomes a :class:`NoneSource`. ``auto`` picks the
    first that works: ewmh (a display and a window manager), tmux (inside
    tmux), the command (if configured), else none.
    """
    env = os.environ if env is None else env
    kind = (kind or "").strip().lower()
    if kind not in SOURCE_KINDS:
        raise ValueError(f"unknown evidence source {kind!r}: allowed values are {', '.join(SOURCE_KINDS)}")
    if kind == "none":
        return NoneSource()
    if kind == "ewmh":
        return EwmhSource(env.get("DISPLAY") or None, timeout=timeout, clock=clock)
    if kind == "tmux":
        return TmuxSource(tmux_socket, env=env, timeout=timeout, clock=clock)
    if kind == "command":
        if not command.strip():
            log.warning("evidence.source is 'command' but evidence.command is empty; reading nothing")
            return NoneSource("evidence.source is 'command' but evidence.command is empty")
        return CommandSource(command, timeout=timeout, clock=clock)
    # auto
    if env.get("DISPLAY"):
        ewmh = EwmhSource(env["DISPLAY"], timeout=timeout, clock=clock)
        if ewmh.probe():
            return ewmh
    tmux = TmuxSource(tmux_socket, env=env, timeout=timeout, clock=clock)
    if tmux.available and tmux.read() is not None:
        return tmux
    if command.strip():
        return CommandSource(command, timeout=timeout, clock=clock)
    return NoneSource("auto: no X display, not inside tmux, and no evidence.command")


def poll_source(source: EvidenceSource, patterns: Iterable[str | re.Pattern[str]] = ()) -> WindowSnapshot | None:
    """One read with exclusions applied: what the app's poll worker should call.

    Never raises: a source that breaks its own contract is logged and reads
    as ``None``.
    """
    try:
        snapshot = source.read()
    except Exception:
        log.exception("evidence source %s raised", getattr(source, "name", source))
        return None
    return None if snapshot is None else apply_exclusions(snapshot, patterns)
