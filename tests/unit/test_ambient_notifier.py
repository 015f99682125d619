"""Notifier selection (env dicts and PATH), sanitising, and never raising."""

from __future__ import annotations

import logging
import stat
import sys
import types
from pathlib import Path

import pytest

from keeltui.adapters.notifier import (
    NopNotifier,
    Notify2Notifier,
    NotifySendNotifier,
    TmuxNotifier,
    has_session_bus,
    make_notifier,
    tmux_escape,
)


def fake_bin(bindir: Path, name: str, body: str = "") -> Path:
    """An executable that appends its arguments (one per line) to NAME.log."""
    bindir.mkdir(exist_ok=True)
    log = bindir / f"{name}.log"
    path = bindir / name
    path.write_text(f'#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done >> {log}\n{body}\n', encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return log


@pytest.fixture
def no_notify2(monkeypatch):
    """Make sure a notify2 installed on the dev machine does not change selection."""
    monkeypatch.setitem(sys.modules, "notify2", None)


# ---------------------------------------------------------------- selection


def test_nothing_available_is_nop(tmp_path, no_notify2):
    notifier = make_notifier({"PATH": str(tmp_path)})
    assert isinstance(notifier, NopNotifier) and notifier.name == "nop"


def test_notify_send_needs_a_session_bus(tmp_path, no_notify2):
    bindir = tmp_path / "bin"
    fake_bin(bindir, "notify-send")
    assert isinstance(make_notifier({"PATH": str(bindir)}), NopNotifier)
    chosen = make_notifier({"PATH": str(bindir), "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"})
    assert isinstance(chosen, NotifySendNotifier) and chosen.name == "notify-send"


def test_systemd_user_bus_counts_as_a_session_bus(tmp_path):
    (tmp_path / "bus").touch()
    assert has_session_bus({"XDG_RUNTIME_DIR": str(tmp_path)})
    assert not has_session_bus({"XDG_RUNTIME_DIR": str(tmp_path / "nope")})
    assert not has_session_bus({})


def test_tmux_when_inside_tmux_and_no_bus(tmp_path, no_notify2):
    bindir = tmp_path / "bin"
    fake_bin(bindir, "tmux")
    fake_bin(bindir, "notify-send")
    chosen = make_notifier({"PATH": str(bindir), "TMUX": "/tmp/tmux-1/default,1,0"})
    assert isinstance(chosen, TmuxNotifier) and chosen.name == "tmux"
    # Outside tmux the tmux binary alone is not enough.
    assert isinstance(make_notifier({"PATH": str(bindir)}), NopNotifier)
    # With a bus, notify-send wins over tmux.
    both = {"PATH": str(bindir), "TMUX": "/x,1,0", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"}
    assert isinstance(make_notifier(both), NotifySendNotifier)


def test_notify2_preferred_when_it_initialises(tmp_path, monkeypatch):
    shown: list[tuple[str, str]] = []

    class Notification:
        def __init__(self, title, body):
            self.args = (title, body)

        def show(self):
            shown.append(self.args)

    fake = types.SimpleNamespace(init=lambda name: True, Notification=Notification)
    monkeypatch.setitem(sys.modules, "notify2", fake)
    fake_bin(tmp_path, "notify-send")
    chosen = make_notifier({"PATH": str(tmp_path), "DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"})
    assert isinstance(chosen, Notify2Notifier) and chosen.name == "notify2"
    chosen.notify("keel\x1b[1m", "body\nline")
    assert shown == [("keel", "body line")]
    # No bus address: notify2 is not even tried.
    assert isinstance(make_notifier({"PATH": str(tmp_path)}), NopNotifier)


def test_notify2_init_failure_falls_back(tmp_path, monkeypatch):
    def init(name):
        raise RuntimeError("org.freedesktop.DBus.Error.NoReply")

    monkeypatch.setitem(sys.modules, "notify2", types.SimpleNamespace(init=init))
    fake_bin(tmp_path, "notify-send")
    chosen = make_notifier({"PATH": str(tmp_path), "DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"})
    assert isinstance(chosen, NotifySendNotifier)


def test_notify2_show_failure_never_raises(caplog):
    class Notification:
        def __init__(self, *args):
            pass

        def show(self):
            raise RuntimeError("bus went away")

    notifier = Notify2Notifier(types.SimpleNamespace(Notification=Notification))
    with caplog.at_level(logging.WARNING):
        notifier.notify("t", "b")
        notifier.notify("t", "b")
    assert len(caplog.records) == 1


# ---------------------------------------------------------------- delivery


def test_notify_send_arguments_and_sanitising(tmp_path):
    log = fake_bin(tmp_path, "notify-send")
    notifier = NotifySendNotifier(str(tmp_path / "notify-send"))
    notifier.notify("keel\x07tui", "-u critical \x1b[31mnow\x1b[0m\nplease")
    assert log.read_text().splitlines() == ["-u", "normal", "-a", "keeltui", "--", "keeltui", "-u critical now please"]


def test_notify_send_failures_never_raise(tmp_path, caplog):
    fake_bin(tmp_path, "notify-send", "echo 'cannot connect' >&2; exit 1")
    notifier = NotifySendNotifier(str(tmp_path / "notify-send"))
    with caplog.at_level(logging.WARNING):
        notifier.notify("t", "b")
        notifier.notify("t", "b")
    assert len(caplog.records) == 1 and "cannot connect" in caplog.records[0].getMessage()
    NotifySendNotifier(str(tmp_path / "missing")).notify("t", "b")
    fake_bin(tmp_path, "slow", "sleep 30")
    NotifySendNotifier(str(tmp_path / "slow"), timeout=0.2).notify("t", "b")


def test_tmux_notifier_escapes_formats(tmp_path):
    log = fake_bin(tmp_path, "tmux")
    TmuxNotifier(str(tmp_path / "tmux")).notify("keeltui", "see #(rm -rf ~) and #{pane_title}")
    assert log.read_text().splitlines() == ["display-message", "--", "keeltui: see ##(rm -rf ~) and ##{pane_title}"]
    assert tmux_escape("100#") == "100##"


def test_tmux_notifier_failure_never_raises(tmp_path):
    fake_bin(tmp_path, "tmux", "exit 1")
    TmuxNotifier(str(tmp_path / "tmux")).notify("t", "b")
    TmuxNotifier(str(tmp_path / "gone")).notify("t", "b")


@pytest.mark.parametrize("args", [("t", "b"), ("", ""), ("\x00" * 10, "x" * 10_000), (None, None)])
def test_nop_never_raises(args):
    assert NopNotifier().notify(*args) is None
