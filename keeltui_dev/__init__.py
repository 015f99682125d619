"""Development helpers shared by the tests, the benchmarks and the docs scripts.

Not part of the installed package (pyproject includes only ``keeltui``): it is
imported from a checkout, where the repository root is on ``sys.path`` for pytest,
``python -m bench`` and ``docs/make_screenshots.py``. Nothing here imports ``tests``.
"""
