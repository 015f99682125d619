"""The collector's policy (keeltui/infra/gc_policy.py): start-up is frozen once; what is made
later is not, so a cycle among long-lived rows that die later is freed by an ordinary full
pass (freezing each pass's survivors kept such cycles until a thaw: the soak grew 23 MB)."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import gc, weakref
from keeltui.infra import gc_policy
gc.collect()
gc_policy.freeze_start_up()
frozen = gc.get_freeze_count()

class Node:
    pass

rows = []
for _ in range(1000):  # rows drawn after start-up that live a while, each in a cycle
    node = Node()
    node.me = node
    rows.append(node)
gc.collect()  # a full pass while they live: they survive it
probe = weakref.ref(rows[0])
del rows, node  # the rows leave the cache: only their cycles hold them now
gc.collect()  # an ordinary full pass frees them
freed = probe() is None
print(freed, gc.get_freeze_count() == frozen)
"""


def test_a_cycle_among_rows_made_after_start_up_is_freed_by_an_ordinary_full_pass():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]


HOLDS = """
import gc
from keeltui.infra import gc_policy
seen = []
gc_policy.hold_for_start()
with gc_policy.brain_client_loading():  # the client loads while start-up still holds
    seen.append((gc.isenabled(), gc.get_freeze_count() > 0))
    gc_policy.start_done()  # the first frame: one pass, but the load still holds
    seen.append((gc.isenabled(), gc.get_freeze_count() > 0))
seen.append((gc.isenabled(), gc.get_freeze_count() > 0))  # let go: on, the heap frozen
frozen = gc.get_freeze_count()
with gc_policy.brain_client_loading():  # a second check of the brain: nothing held, nothing frozen again
    seen.append((gc.isenabled(), gc.get_freeze_count() == frozen))
seen.append((gc.isenabled(), gc.get_freeze_count() == frozen))
print(seen)
"""


def test_the_collector_is_held_until_the_last_hold_is_let_go_and_the_heap_frozen_once():
    out = subprocess.run([sys.executable, "-c", HOLDS], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str([(False, False), (False, False), (True, True), (True, True), (True, True)])


GARBAGE = """
import gc, weakref
from keeltui.infra import gc_policy

class Line:
    pass

gc_policy.hold_for_start()
gc_policy.start_done()
with gc_policy.brain_client_loading():
    line = Line()
    line.me = line  # a drawn line the room let go of while the client loaded: a cycle
    probe = weakref.ref(line)
    del line
print(probe() is None, gc.get_freeze_count() > 0, gc.isenabled())
"""


def test_a_cycle_let_go_while_the_brain_client_loads_is_freed_not_frozen():
    out = subprocess.run([sys.executable, "-c", GARBAGE], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True", "True"]
