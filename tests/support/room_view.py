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


def row_region(app, row_id: int):
    """Where row ``row_id``'s box (its lines below the gap) stands on the screen now."""
    from textual.geometry import Region

    from keeltui.panes.chief.row_render import MARGIN

    log = app.room.log_view
    index = log.window.index_of(row_id)
    content = log.scrollable_content_region
    top = content.y + log.window.top(index) + 1 - round(log.scroll_y)
    height = log.window.heights[index] - 1
    return Region(content.x + MARGIN, top, content.width - 2 * MARGIN, height)
