"""Toasts: tell the owner once, through whatever the machine offers.

Best effort by contract: ``notify`` never raises. It may block for a moment
(a subprocess with a short timeout, or a D-Bus call), so callers run it in a
thread (the sentinel uses ``asyncio.to_thread``). Failures are logged once per
distinct reason. Preference: notify2 over a session bus, else ``notify-send``,
else ``tmux display-message`` inside tmux, else nothing.
"""

from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Mapping
from pathlib import Path

from keeltui.status.render import tmux_escape  # "#(...)" in a message would run a command

from keeltui.text.textsafe import one_line
from keeltui.ambient.ports import APP_NAME, Notifier

from .complaint import Complaint
from .proc import CommandFailed, run_bounded

log = logging.getLogger("keeltui.adapters.notifier")

TITLE_LIMIT = 80
BODY_LIMIT = 300


def _clean(title: str, body: str) -> tuple[str, str]:
    return one_line(title, TITLE_LIMIT) or APP_NAME, one_line(body, BODY_LIMIT)


class NopNotifier:
    """Says nothing. The status line and banner still work."""

    name = "nop"

    def notify(self, title: str, body: str) -> None:
        return None


class Notify2Notifier:
    """Desktop notifications through notify2 (dbus-python, the ``desktop`` extra)."""

    name = "notify2"

    def __init__(self, notify2_module) -> None:
        self._notify2 = notify2_module
        self._complaint = Complaint(log, "notify2")

    @classmethod
    def create(cls) -> Notify2Notifier | None:
        """A ready notifier, or None when notify2 is missing or no bus answers."""
        try:
            import notify2  # optional: needs dbus-python

            notify2.init(APP_NAME)
        except Exception as exc:  # noqa: BLE001 - ImportError, DBusException, ...
            log.info("notify2 unavailable: %s", exc)
            return None
        return cls(notify2)

    def notify(self, title: str, body: str) -> None:
        title, body = _clean(title, body)
        try:
            self._notify2.Notification(title, body).show()
        except Exception as exc:  # noqa: BLE001 - best effort
            self._complaint.failed(str(exc)[:200])
        else:
            self._complaint.ok()


class NotifySendNotifier:
    """``notify-send -u normal TITLE BODY`` (libnotify-bin), over D-Bus."""

    name = "notify-send"

    def __init__(self, path: str, *, env: Mapping[str, str] | None = None, timeout: float = 3.0) -> None:
        self.path = path
        self._env = dict(env) if env is not None else None
        self._timeout = timeout
        self._complaint = Complaint(log, "notify-send")

    def notify(self, title: str, body: str) -> None:
        title, body = _clean(title, body)
        # "--" so that a message starting with "-" is never read as an option.
        argv = [self.path, "-u", "normal", "-a", APP_NAME, "--", title, body]
        try:
            run_bounded(argv, timeout=self._timeout, env=self._env)
        except CommandFailed as exc:
            self._complaint.failed(str(exc))
        else:
            self._complaint.ok()


class TmuxNotifier:
    """``tmux display-message TEXT`` on the owner's tmux (only inside tmux)."""

    name = "tmux"

    def __init__(self, path: str, *, env: Mapping[str, str] | None = None, timeout: float = 3.0) -> None:
        self.path = path
        self._env = dict(env) if env is not None else None
        self._timeout = timeout
        self._complaint = Complaint(log, "tmux display-message")

    def notify(self, title: str, body: str) -> None:
        title, body = _clean(title, body)
        text = tmux_escape(f"{title}: {body}" if body else title)
        try:
            run_bounded([self.path, "display-message", "--", text], timeout=self._timeout, env=self._env)
        except CommandFailed as exc:
            self._complaint.failed(str(exc))
        else:
            self._complaint.ok()


def has_session_bus(env: Mapping[str, str]) -> bool:
    """A session bus is reachable: an address is set, or the systemd user bus exists."""
    if env.get("DBUS_SESSION_BUS_ADDRESS"):
        return True
    runtime = env.get("XDG_RUNTIME_DIR")
    return bool(runtime) and Path(str(runtime), "bus").exists()


def make_notifier(env: Mapping[str, str] | None = None, *, try_notify2: bool = True) -> Notifier:
    """The best notifier this environment offers (see the module docstring).

    ``notify-send`` is only chosen when a session bus is reachable, so that over
    SSH inside tmux the tmux message wins instead of a notify-send that fails.
    Binaries are looked up on ``env["PATH"]``; the env is handed to the child.
    """
    env = os.environ if env is None else env
    path = env.get("PATH", os.defpath)
    if has_session_bus(env):
        if try_notify2 and env.get("DBUS_SESSION_BUS_ADDRESS"):
            found = Notify2Notifier.create()
            if found is not None:
                return found
        notify_send = shutil.which("notify-send", path=path)
        if notify_send:
            return NotifySendNotifier(notify_send, env=env)
    if env.get("TMUX"):
        tmux = shutil.which("tmux", path=path)
        if tmux:
            return TmuxNotifier(tmux, env=env)
    return NopNotifier()


def why_no_toasts(env: Mapping[str, str]) -> tuple[str, str]:
    """(the real problem, the fix) when :func:`make_notifier` found nothing to use."""
    path = env.get("PATH", os.defpath)
    notify_send = shutil.which("notify-send", path=path)
    if not has_session_bus(env):
        problem = "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS unset, no $XDG_RUNTIME_DIR/bus)"
        fix = "run keeltui inside a desktop session, or inside tmux for tmux messages"
        if not notify_send:
            fix += "; notify-send is missing too (Debian package libnotify-bin)"
        return problem, fix
    if not notify_send:
        return ("a session bus, but no notify-send and no notify2",
                "install libnotify-bin (notify-send) or the desktop extra (notify2)")
    return "no notifier chosen", "run `keeltui doctor` inside the session keeltui runs in"
