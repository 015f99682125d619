"""keeltui/infra/private_files.py ``replace_private``: a file written in one rename, owner-only,
and no temporary file left behind when the rename fails (the status file, the kept CSS)."""

from __future__ import annotations

import stat

import pytest

from keeltui.infra.private_files import replace_private


def test_the_file_is_written_whole_and_private(tmp_path):
    target = tmp_path / "new" / "file"
    replace_private(target, b"one")
    replace_private(target, b"two")
    assert target.read_bytes() == b"two"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert stat.S_IMODE(target.parent.stat().st_mode) == 0o700
    assert sorted(p.name for p in target.parent.iterdir()) == ["file"]


def test_a_failed_rename_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "taken"
    target.mkdir()
    (target / "inside").write_text("keeps the folder from being replaced")
    with pytest.raises(OSError):
        replace_private(target, b"data", prefix=".css-")
    assert not list(tmp_path.glob(".css-*"))
