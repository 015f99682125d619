"""``tmux pipe-pane`` target: append the pane's bytes to FILE and "<monotonic> <length>" per read to FILE.times.

Run by tmux with the bench's Python; the timestamps let bench/bytes_anatomy.py tell one frame
(one burst of writes) from the next when the program does not mark its frames.
"""

import os
import sys
import time

path = sys.argv[1]
with open(path, "ab", buffering=0) as data, open(path + ".times", "a", buffering=1) as times:
    while True:
        chunk = os.read(0, 65536)
        if not chunk:
            break
        data.write(chunk)
        times.write(f"{time.monotonic():.6f} {len(chunk)}\n")
