"""Issue 24.8: a running app that cannot refresh its status file leaves a line that says it is stale."""

from __future__ import annotations

import json
import os
import time

from tests.conftest import write_config
from tests.support.tmux import run_keeltui


def _status(tmp_path, age_secs: float) -> str:
    status = tmp_path / "status"
    status.write_text(json.dumps({"line": "⚠ drifting: reddit", "pid": os.getpid(), "config": "", "at": time.time() - age_secs}))
    config = write_config(tmp_path / "c.toml", "http://127.0.0.1:9/v1", f'[paths]\nstatus_file = "{status}"\n')
    out = run_keeltui(config, "status")
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_a_line_the_running_app_could_not_refresh_says_it_is_stale(tmp_path):
    line = _status(tmp_path, 3600)
    assert line.startswith("⚠ drifting: reddit (stale: not updated since ")


def test_a_fresh_line_is_printed_as_written(tmp_path):
    assert _status(tmp_path, 5) == "⚠ drifting: reddit"
