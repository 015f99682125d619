"""Skip (locally) or fail (in CI) when a test needs a missing system binary."""

from __future__ import annotations

import os
import shutil

import pytest


def need_binary(name: str, package: str) -> str:
    """The path of ``name``; otherwise skip naming the Debian package.

    With ``KEEL_REQUIRE_ALL=1`` (CI) a missing binary fails the test instead,
    so a broken CI image cannot hide behind skips.
    """
    path = shutil.which(name)
    if path:
        return path
    message = f"needs Debian package {package} (no {name!r} on PATH)"
    if os.environ.get("KEEL_REQUIRE_ALL") == "1":
        pytest.fail(message)
    pytest.skip(message)
