"""Textual's parsed CSS, kept between starts, as Python keeps compiled modules.

Textual parses the CSS of every widget class it mounts, at every start: ~10 ms of keeltui's
first frame (the composer's TextArea and the room's rows bring a good deal of it), a third of
what that frame costs beyond a bare Textual app's. The parse depends only on the CSS text,
where it came from, and the theme's variables; its result is plain data (rule sets, selectors,
styles). So the first start writes what it parsed to a file in keeltui's cache folder, and
each later start hands those rule sets to the stylesheet before anything is mounted: Textual
looks its parse cache up first and parses only what is not there (a widget class added or
changed since, CSS mounted later).

The file is named by everything the parse depends on beyond the CSS text (Textual's files,
Python's version, the theme's variables); each entry inside is keyed as Textual keys its own cache (the
CSS text, its origin, its scope), so an edited or new CSS source simply is not found and is
parsed. After the first frame, a start that parsed anything new writes the file again with
what this start used. A file that cannot be read, or was written by another user or is open
to others, is passed over: Textual parses as it always does.

Private names (the seam, keeltui/terminal/README.md): ``Stylesheet._parse_cache``, an
``LRUCache`` keyed like ``Stylesheet._parse_rules``'s key. tests/unit/test_textual_seam.py
fails on the pinned version if either changes shape.

Why pickle: the parsed rules hold Textual's own objects (a selector keeps bound methods of
itself); no plain format carries them. The file is read only from the owner's private cache
folder, as owner-only, like the ``.pyc`` files Python runs from its own cache folders.
"""

from __future__ import annotations

import logging
import os
import pickle
import stat
import sys
import zlib
from collections.abc import Mapping
from pathlib import Path

import textual
from textual.app import App
from textual.css.stylesheet import Stylesheet

from keeltui.infra.private_files import NOFOLLOW, replace_private

log = logging.getLogger(__name__)

FORMAT = 1
"""Bumped when what the file holds changes."""
FILES_KEPT = 3
"""Files for other themes kept in the folder (a theme switched back and forth)."""
PREFIX = "css-"
KEEP_AFTER_SECS = 3.0
"""When a start that parsed new CSS writes it for the next: after the first frame and the
brain client's load, not competing with them."""


def default_folder() -> Path:
    from keeltui.infra.paths import platform_dir

    return platform_dir("user_cache_dir")


TEXTUAL_PARTS = ("__init__.py", "css/model.py", "css/styles.py", "css/parse.py", "css/stylesheet.py")
"""The Textual files whose change would change what a parse makes: an upgrade rewrites them.
(Not ``textual.__version__``: Textual reads it through importlib.metadata, ~13 ms of imports.)"""


def _textual_stamp() -> list:
    folder = os.path.dirname(textual.__file__ or "")
    stamp: list = [folder]
    for part in TEXTUAL_PARTS:
        try:
            info = os.stat(os.path.join(folder, part))
            stamp.append((part, info.st_mtime_ns, info.st_size))
        except OSError:
            stamp.append((part, None))
    return stamp


def cache_file(folder: Path, variables: Mapping[str, str]) -> Path:
    """The file for this Textual, this Python and these theme variables."""
    named = repr((FORMAT, _textual_stamp(), sys.version, pickle.HIGHEST_PROTOCOL, sorted(variables.items()))).encode()
    # zlib's checksums, not hashlib (whose import loads OpenSSL's, ~2 ms of the first frame):
    # a name, not a defence; 64 bits among a handful of themes.
    return folder / f"{PREFIX}{zlib.crc32(named):08x}{zlib.adler32(named):08x}.pickle"


class Kept:
    """What one start read from the file (the keys it held, the file's name), and the keys
    the first frame parsed (:func:`first_frame_drawn`)."""

    def __init__(self, path: Path, keys: frozenset) -> None:
        self.path, self.keys = path, keys
        self.first_frame: list = []


def preload(stylesheet: Stylesheet, folder: Path | None = None) -> Kept:
    """Put the rule sets a previous start parsed into ``stylesheet``'s parse cache (call it
    before the first widget mounts: from the app's Load event)."""
    path = cache_file(folder or default_folder(), stylesheet._variables)
    entries = _read(path)
    cache = stylesheet._parse_cache
    for key, rules in entries:
        cache[key] = rules
    return Kept(path, frozenset(key for key, _ in entries))


def first_frame_drawn(stylesheet: Stylesheet, kept: Kept) -> None:
    """Note what the first frame parsed: the file holds that, no more (CSS parsed later, for
    the tutor pane or a dialog, would be read before every first frame without helping it)."""
    kept.first_frame = list(stylesheet._parse_cache.keys())


def save_if_new(stylesheet: Stylesheet, kept: Kept) -> bool:
    """Write what the first frame parsed when the file did not have all of it (the first
    start; a widget's CSS changed). True when it wrote."""
    cache = stylesheet._parse_cache
    parsed = [key for key in kept.first_frame if key not in kept.keys]
    if not parsed:
        return False
    # What the file had (in the cache since the Load) stays, unless this start parsed the
    # same source anew: its CSS was edited, and the old rules would only take room.
    origins = {_origin(key) for key in parsed}
    keys = [*parsed, *(key for key in kept.first_frame if key in kept.keys and _origin(key) not in origins)]
    # The theme may have changed since the file was read: name the file by what the rules now hold.
    path = cache_file(kept.path.parent, stylesheet._variables)
    entries = [(key, rules) for key in keys if (rules := cache.get(key)) is not None]
    if not entries:
        return False  # the theme changed since the first frame: its CSS was parsed anew
    try:
        replace_private(path, pickle.dumps((FORMAT, entries), protocol=pickle.HIGHEST_PROTOCOL), prefix=".css-")
    except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError) as exc:
        log.info("parsed CSS not kept in %s: %s", path, exc)
        return False
    _prune(path)
    kept.path, kept.keys = path, frozenset(key for key, _ in entries)
    return True


def _origin(key: tuple) -> tuple:
    """Where a source came from: Textual's key is (css, read_from, defaults?, tie-breaker, scope)."""
    return key[1], key[4]


def _read(path: Path) -> list:
    try:
        fd = os.open(path, os.O_RDONLY | NOFOLLOW)
    except OSError:
        return []  # none yet (the first start), or not ours to read
    try:
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            if info.st_uid != os.getuid() or stat.S_IMODE(info.st_mode) & 0o022:
                log.info("parsed CSS in %s passed over: not the owner's private file", path)
                return []
            form, entries = pickle.loads(f.read())
    except Exception as exc:  # noqa: BLE001 - a damaged cache file is only a slower start
        log.info("parsed CSS in %s passed over: %s", path, exc)
        return []
    if form != FORMAT or not isinstance(entries, list):
        return []
    return [entry for entry in entries if isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], list)]


def _prune(path: Path) -> None:
    """Keep the newest few files (other themes); older ones go."""
    try:
        others = sorted(
            (p for p in path.parent.glob(f"{PREFIX}*.pickle") if p != path),
            key=lambda p: p.stat().st_mtime, reverse=True,
        )
        for old in others[FILES_KEPT - 1:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


class CssKeepingApp(App):
    """An app whose first frame reads the CSS its last start parsed, and keeps what it parsed."""

    def on_load(self) -> None:
        # Textual's Load: the app's own CSS is added, nothing is mounted or parsed yet.
        self._css_kept = preload(self.stylesheet)

    def on_mount(self) -> None:
        self.call_after_refresh(first_frame_drawn, self.stylesheet, self._css_kept)
        self.set_timer(KEEP_AFTER_SECS, self._keep_parsed_css)

    def _keep_parsed_css(self) -> None:
        save_if_new(self.stylesheet, self._css_kept)
