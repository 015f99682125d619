"""What the Chief room's log holds and shows, for the pilot tests."""

from __future__ import annotations


def held(app, kind: str | None = None) -> list:
    """The system rows the room log holds (of turn kind ``kind``), oldest first."""
    return [row for row in app.room.log_view.window.rows if row.turn_kind and (kind is None or row.turn_kind == kind)]


def log_text(app) -> list[str]:
    """The room log's lines as drawn now (what is in view), as plain text."""
    log = app.room.log_view
    return [strip.text for strip in log.render_lines(log.scrollable_content_region.reset_offset)]


def cursor_row(app):
    """The row the log's cursor is on while the log has the keys (None otherwise)."""
    log = app.room.log_view
    if app.focused is not log or log.cursor is None:
        return None
    return log.row(log.cursor)
