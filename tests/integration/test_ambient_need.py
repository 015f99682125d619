"""The skip-or-fail rule for missing system binaries."""

from __future__ import annotations

import pytest

from tests.support.need import need_binary

MISSING = "keeltui-no-such-binary"


def test_present_binary_returns_its_path():
    assert need_binary("sh", "dash").endswith("/sh")


def test_missing_binary_skips_naming_the_package(monkeypatch):
    monkeypatch.delenv("KEEL_REQUIRE_ALL", raising=False)
    with pytest.raises(pytest.skip.Exception, match="needs Debian package xvfb"):
        need_binary(MISSING, "xvfb")


def test_missing_binary_fails_in_ci(monkeypatch):
    monkeypatch.setenv("KEEL_REQUIRE_ALL", "1")
    with pytest.raises(pytest.fail.Exception, match="needs Debian package xvfb"):
        need_binary(MISSING, "xvfb")
