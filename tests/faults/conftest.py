from __future__ import annotations

import os

import pytest

from tests.integration._need import need_binary
from tests.support.tmux import Tmux


@pytest.fixture
def tmux():
    need_binary("tmux", "tmux")
    session = Tmux()
    yield session
    session.close()


@pytest.fixture
def e2e_env(tmp_path) -> dict[str, str]:
    """The environment the app runs with inside tmux (private XDG dirs)."""
    env = {f"XDG_{k}_HOME": os.environ[f"XDG_{k}_HOME"] for k in ("CONFIG", "DATA", "STATE", "CACHE")}
    env["TERM"] = "tmux-256color"
    return env


from tests.pilot.conftest import make_app  # noqa: E402,F401  (the pilot fixture, for fault tests)
