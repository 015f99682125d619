"""EwmhSource against a real X server: Xvfb + openbox + two xterms.

Waits poll for a condition with a generous deadline; nothing asserts how long
anything took.
"""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from tests.support.need import need_binary

from keeltui.adapters.evidence import EwmhSource, make_source

pytestmark = pytest.mark.x11

DEADLINE = 20.0


def wait_for(predicate, what: str):
    """Poll ``predicate`` until it returns something truthy, or fail naming ``what``."""
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"gave up waiting for {what}")


def ok(argv: list[str], env: dict) -> bool:
    return subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def x_display():
    """A private X display with a window manager; yields its env."""
    need_binary("Xvfb", "xvfb")
    need_binary("openbox", "openbox")
    need_binary("wmctrl", "wmctrl")
    need_binary("xterm", "xterm")
    read_fd, write_fd = os.pipe()
    # -displayfd: Xvfb picks a free display number itself and writes it to us,
    # so parallel runs and a developer's own X server never collide.
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-noreset", "-nolisten", "tcp", "-screen", "0", "1024x768x24"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    procs = [xvfb]
    try:
        with os.fdopen(read_fd) as pipe:
            number = pipe.readline().strip()
        if not number:
            pytest.fail("Xvfb did not report a display number")
        env = {**os.environ, "DISPLAY": f":{number}"}
        env.pop("TMUX", None)
        procs.append(subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        # `wmctrl -l` succeeds only once the window manager has set up EWMH.
        wait_for(lambda: ok(["wmctrl", "-l"], env), "openbox to manage the display")
        yield env, procs
    finally:
        for proc in reversed(procs):
            stop(proc)


def open_xterm(env: dict, procs: list, title: str) -> None:
    # `sleep` instead of a shell: nothing in the terminal retitles the window.
    procs.append(
        subprocess.Popen(
            ["xterm", "-T", title, "-e", "sleep", "600"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
    )
    wait_for(lambda: title in subprocess.run(["wmctrl", "-l"], env=env, capture_output=True, text=True).stdout, title)


def test_ewmh_source_reads_the_active_window(x_display):
    env, procs = x_display
    open_xterm(env, procs, "keel-first-window")
    open_xterm(env, procs, "keel-second-window")
    source = EwmhSource(env["DISPLAY"])
    assert source.probe()
    for title in ("keel-first-window", "keel-second-window", "keel-first-window"):
        assert ok(["wmctrl", "-a", title], env)

        def active_is(title=title):
            snap = source.read()
            return snap if snap is not None and snap.title == title else None

        snap = wait_for(active_is, f"{title} to become active")
        assert snap.wm_class == "XTerm"
        assert snap.at > 0
    assert source.reason == ""


def test_auto_picks_ewmh_on_a_working_display(x_display):
    env, _ = x_display
    source = make_source("auto", "", env=env)
    assert source.name == "ewmh"


def test_ewmh_source_reads_the_idle_time_from_the_screensaver_extension(x_display):
    env, procs = x_display
    open_xterm(env, procs, "keel-idle-window")
    assert ok(["wmctrl", "-a", "keel-idle-window"], env)
    source = EwmhSource(env["DISPLAY"])
    first = wait_for(lambda: source.read(), "a read")
    assert first.idle_secs is not None and first.idle_secs >= 0
    # Nobody types on Xvfb: the idle time only grows.
    later = wait_for(lambda: (s := source.read()) is not None and s.idle_secs > first.idle_secs and s, "idle to grow")
    assert later.idle_secs > first.idle_secs
