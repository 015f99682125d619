"""Log a recurring failure once, not once per poll.

Sources are polled every few seconds; a dead command would otherwise write the
same line to the log forever. A :class:`Complaint` logs when a problem appears
or changes, stays quiet while it repeats, and logs once more when it clears.
"""

from __future__ import annotations

import logging


class Complaint:
    """Per-component memory of the last problem that was logged."""

    def __init__(self, logger: logging.Logger, what: str) -> None:
        self._logger = logger
        self._what = what
        self.last: str = ""

    def failed(self, reason: str) -> None:
        """Record a failure; log it only if it differs from the last one."""
        if reason != self.last:
            self._logger.warning("%s: %s", self._what, reason)
            self.last = reason

    def ok(self) -> None:
        """Record a success; log a recovery if there had been a failure."""
        if self.last:
            self._logger.info("%s: working again", self._what)
            self.last = ""
