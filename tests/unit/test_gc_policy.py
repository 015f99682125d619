"""The collector's policy (keeltui/infra/gc_policy.py): what survives a full collection is frozen, so the
next full pass scans only what was made since; a thaw scans everything once."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import gc
from keeltui.infra import gc_policy
gc.collect()
gc_policy.freeze_survivors()
frozen = gc.get_freeze_count()
kept = [[i] for i in range(50_000)]  # long-lived objects made after start-up
gc.collect()                        # a full pass: they survive it
after_full = gc.get_freeze_count()
cycle = []
cycle.append(cycle)
del cycle                           # garbage made after the freeze is still collected
young = gc.collect(2)
gc_policy.thaw()
print(after_full - frozen >= 50_000, young >= 1, gc.get_freeze_count() >= 50_000, gc_policy.thaw_due() is False)
"""


def test_survivors_of_a_full_collection_are_frozen_and_later_garbage_is_still_collected():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True", "True", "True"]
