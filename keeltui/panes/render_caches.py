"""Textual's caches that outlive the widgets they drew, emptied now and then.

``StylesCache.get_inner_outer`` (textual/_styles_cache.py) is an ``lru_cache`` of 1 024
entries on a method, so its keys hold the ``StylesCache`` of every widget that drew
recently, with all the lines it cached: rows paged out of the room, the footer's keys of
every rebuild. Bounded, but at a thousand dead widgets' lines (~10 MB) the bound is far
above what an app open for days should carry. Its values are two ``Style``s made from
two colours, so emptying it costs a few microseconds of recomputation.
"""

from __future__ import annotations


def release_render_caches() -> None:
    try:
        from textual._styles_cache import StylesCache
    except ImportError:  # a Textual without the private module: nothing of its kind to empty
        return
    clear = getattr(StylesCache.get_inner_outer, "cache_clear", None)
    if clear is not None:
        clear()
