"""The status line's fixed words and its tmux escaping: what ``keeltui status`` needs to
print a line, with no import at all (keeltui/status/fast.py runs on every tmux status
tick; keeltui/status/render.py builds the line from the app's state and re-exports these)."""

IDLE = "idle"
QUIET = "◌ Quiet Mode"
AMBIENT_OFF = "ambient off"
SNOOZED = "◌ snoozed"
AWAY = "away"
NO_EVIDENCE = "ambient: no evidence — see keeltui doctor"
NOT_RUNNING = "keeltui not running"


def tmux_escape(line: str) -> str:
    """tmux expands #(...) and #[...] in status-right: double every '#'."""
    return line.replace("#", "##")
