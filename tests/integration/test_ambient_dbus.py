"""A real toast over a real (private) D-Bus session bus.

A private ``dbus-daemon`` plus a tiny ``org.freedesktop.Notifications`` service
written with jeepney (pure Python) that records each ``Notify`` call. The
notifier under test is :class:`NotifySendNotifier`, chosen by ``make_notifier``
from an env that points at the private bus -- notify2/dbus-python is an
optional extra and not needed here.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from tests.support.need import need_binary

from keeltui.adapters.notifier import NotifySendNotifier, make_notifier

pytestmark = pytest.mark.dbus

# jeepney is a declared test dependency (pyproject's `test` extra), so a missing
# one is a broken environment and fails loudly rather than skipping.
from jeepney import HeaderFields, MessageType, new_error, new_method_return  # noqa: E402
from jeepney.bus_messages import message_bus  # noqa: E402
from jeepney.io.blocking import open_dbus_connection  # noqa: E402

NAME = "org.freedesktop.Notifications"


class NotificationServer(threading.Thread):
    """Owns org.freedesktop.Notifications on a bus and records Notify calls."""

    def __init__(self, address: str) -> None:
        super().__init__(name="fake-notifications", daemon=True)
        self.conn = open_dbus_connection(bus=address)
        reply = self.conn.send_and_get_reply(message_bus.RequestName(NAME, 4), timeout=10)  # 4: do not queue
        assert reply.body == (1,), f"could not own {NAME}: {reply.body}"
        self.calls: list[dict] = []
        self.arrived = threading.Condition()
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                msg = self.conn.receive(timeout=0.1)
            except TimeoutError:
                continue
            except OSError:
                return
            if msg.header.message_type is not MessageType.method_call:
                continue
            member = msg.header.fields.get(HeaderFields.member)
            if member == "Notify":
                app, _replaces, _icon, summary, body, _actions, hints, _timeout = msg.body
                with self.arrived:
                    self.calls.append({"app": app, "summary": summary, "body": body, "hints": hints})
                    self.arrived.notify_all()
                self.conn.send(new_method_return(msg, "u", (len(self.calls),)))
            elif member == "GetServerInformation":
                self.conn.send(new_method_return(msg, "ssss", ("fake", "keeltui-tests", "1.0", "1.2")))
            elif member == "GetCapabilities":
                self.conn.send(new_method_return(msg, "as", (["body"],)))
            else:
                self.conn.send(new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod"))

    def wait_for_calls(self, count: int) -> list[dict]:
        with self.arrived:
            if not self.arrived.wait_for(lambda: len(self.calls) >= count, timeout=20):
                pytest.fail(f"expected {count} Notify call(s), got {len(self.calls)}")
            return list(self.calls)

    def close(self) -> None:
        self.stopping.set()
        self.join(timeout=5)
        self.conn.close()


@pytest.fixture
def session_bus():
    need_binary("dbus-daemon", "dbus")
    daemon = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        address = daemon.stdout.readline().strip()
        if not address:
            pytest.fail("dbus-daemon did not print an address")
        server = NotificationServer(address)
        server.start()
        try:
            yield address, server
        finally:
            server.close()
    finally:
        daemon.terminate()
        daemon.wait(timeout=5)


def _env(address: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "DISPLAY")}
    env["DBUS_SESSION_BUS_ADDRESS"] = address
    return env


def test_notify_send_delivers_over_the_private_bus(session_bus, monkeypatch):
    address, server = session_bus
    need_binary("notify-send", "libnotify-bin")
    monkeypatch.setitem(sys.modules, "notify2", None)  # the notify-send path, even if notify2 is installed
    notifier = make_notifier(_env(address))
    assert isinstance(notifier, NotifySendNotifier)
    notifier.notify("keeltui", "Reddit again; the report waits.")
    [call] = server.wait_for_calls(1)
    assert call["summary"] == "keeltui"
    assert call["body"] == "Reddit again; the report waits."
    assert call["app"] == "keeltui"


def test_hostile_text_arrives_clean(session_bus, monkeypatch):
    address, server = session_bus
    need_binary("notify-send", "libnotify-bin")
    monkeypatch.setitem(sys.modules, "notify2", None)
    notifier = make_notifier(_env(address))
    notifier.notify("-u critical\x1b[31m", "--help \x00\x07line\nbreak")
    [call] = server.wait_for_calls(1)
    assert call["summary"] == "-u critical"
    assert call["body"] == "--help line break"
