"""The core decides from values: no core module probes processes or reads /proc.

import-linter cannot say this (``os`` is fine for paths and the environment in
config.py), so the core's source is read instead. The probe lives
in keeltui/adapters/process_probe.py: handed to the core, used by the status file's reader.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from tests.unit.test_core_purity import core_modules

PROBING = re.compile(r"\bos\.(kill|getpid|getppid|waitpid|killpg)\b|[\"']/proc\b")


def test_no_core_module_probes_a_process():
    probing = []
    for name in core_modules():
        source = Path(importlib.import_module(name).__file__ or "").read_text()
        probing += [f"{name}: {m.group(0)}" for m in PROBING.finditer(source)]
    assert not probing, probing
