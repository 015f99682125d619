"""keeltui benchmarks: ``make bench`` (``python -m bench``) rewrites bench/RESULTS.md.

Every measure drives the real programs the way a user would: in tmux (120x40), typing
with ``send-keys`` and reading the screen with ``capture-pane`` every 20 ms. The floor
(a minimal Textual app), keeltui and, where they install, the peers (elia, oterm) are
measured side by side in the same run.
"""
