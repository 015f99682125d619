"""Shared fixtures: a private environment per test, the loopback brain, a store."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from keeltui.config import Config, load_config
from keeltui.store import Store
from keeltui_dev.loopback import LoopbackBrain
from tests.support.need import need_binary
from tests.support.tmux import Tmux

# The suite's property tests draw the same examples every run: a run fails for the code, not
# for the draw (a new example once failed one run in twenty). `make fuzz` draws new ones:
# what it finds becomes an @example in the test, and the fix's proof.
settings.register_profile("suite", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", derandomize=False, database=None, print_blob=True)
settings.load_profile(os.environ.get("KEEL_HYPOTHESIS", "suite"))

_CLEARED = ("NO_COLOR", "KEEL_AMBIENT_MODE", "KEEL_AMBIENT_CADENCE_SECS", "KEEL_BRAIN_BASE_URL",
            "KEEL_BRAIN_MODEL", "OPENAI_API_KEY", "TMUX", "DISPLAY", "DBUS_SESSION_BUS_ADDRESS")


@pytest.fixture(autouse=True)
def private_env(tmp_path, monkeypatch):
    """Every test gets its own XDG dirs and none of the caller's keeltui settings."""
    for name in _CLEARED:
        monkeypatch.delenv(name, raising=False)
    # Pilot apps in the colours the real app meets in tmux (its e2e tests set the same):
    # Rich keeps a style's codes on the style, for the first colour system that drew it, and
    # styles are shared between apps in one process. A headless app left to detect its own
    # (16 colours here) drew with the codes a truecolor test had left on shared styles, and
    # tests/pilot/test_shown_cells.py failed whenever it ran after one in the same worker.
    monkeypatch.setenv("COLORTERM", "truecolor")
    for kind in ("CONFIG", "DATA", "STATE", "CACHE"):
        path = tmp_path / f"xdg-{kind.lower()}"
        path.mkdir()
        monkeypatch.setenv(f"XDG_{kind}_HOME", str(path))
    yield


@pytest.fixture
def loopback():
    with LoopbackBrain() as brain:
        yield brain


def write_config(path: Path, base_url: str, extra: str = "", timeout: float = 5.0) -> Path:
    path.write_text(
        f'[brain]\nbase_url = "{base_url}"\nmodel = "loop-model"\ntimeout_secs = {timeout}\n'
        f"[ambient]\nmode = \"off\"\n[evidence]\nsource = \"none\"\n{extra}",
        encoding="utf-8",
    )
    return path


@pytest.fixture
def config_file(tmp_path, loopback) -> Path:
    return write_config(tmp_path / "config.toml", loopback.url)


@pytest.fixture
def config(config_file) -> Config:
    return load_config(config_file, env={})


@pytest.fixture
def store(tmp_path) -> Store:
    db = Store(tmp_path / "keeltui.db")
    yield db
    db.close()


@pytest.fixture
def require_all() -> bool:
    return os.environ.get("KEEL_REQUIRE_ALL") == "1"


def app_for(config_path: Path, stores: list[Store], *, notifier=None):
    """A KeelApp over the config at ``config_path``; its store is added to ``stores`` to close.
    ``notifier`` receives the ambient toasts (the desktop's own when None)."""
    from keeltui.app import KeelApp
    from keeltui.wiring import wire

    config = load_config(config_path, env={})
    store = Store(config.database_path())
    stores.append(store)
    return KeelApp(config, store, services=wire(config, store, notifier=notifier))


@pytest.fixture
def make_app(tmp_path, loopback):
    """Build a KeelApp over a fresh store and the loopback brain (extra TOML appended)."""
    stores: list[Store] = []

    def build(extra: str = "", base_url: str | None = None, timeout: float = 5.0):
        path = write_config(tmp_path / "config.toml", base_url or loopback.url,
                            extra + f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n',
                            timeout=timeout)
        return app_for(path, stores)

    yield build
    for store in stores:
        store.close()


@pytest.fixture
def tmux():
    """A private tmux server for driving the real keeltui."""
    need_binary("tmux", "tmux")
    session = Tmux()
    yield session
    session.close()


@pytest.fixture
def e2e_env() -> dict[str, str]:
    """The environment the app runs with inside tmux (the test's private XDG dirs)."""
    env = {f"XDG_{k}_HOME": os.environ[f"XDG_{k}_HOME"] for k in ("CONFIG", "DATA", "STATE", "CACHE")}
    env["TERM"] = "tmux-256color"
    return env


def pytest_collection_modifyitems(config, items):
    """Every test that drives the real app in tmux carries the ``e2e`` marker, wherever it
    lives (``make quick`` leaves them out): every test under tests/e2e/ and every test that
    takes the ``tmux`` fixture, so a new tmux test cannot forget it."""
    for item in items:
        if item.nodeid.startswith("tests/e2e/") or "tmux" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.e2e)
