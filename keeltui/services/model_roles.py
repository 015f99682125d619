"""The roles a model can be chosen for in the app, and how the picker names them. Pure.

The roles are those of ``[brain.models]`` (keeltui/config.py): the Chief room's chat,
the drift judge and the tutor's two agents. A role left empty uses ``brain.model``.
"""

from __future__ import annotations

from keeltui.config import ROLES

LABELS = {
    "chief": "chat (the Chief room)",
    "judge": "drift judge",
    "prober": "tutor: prober",
    "teacher": "tutor: teacher",
}
assert tuple(LABELS) == ROLES

CHAT = "chief"


def config_key(role: str) -> str:
    """The dotted key a role's model is saved under."""
    if role not in LABELS:
        raise ValueError(f"no such role: {role!r} (roles: {', '.join(LABELS)})")
    return f"brain.models.{role}"


def check_model_name(name: str) -> str:
    """A model name as the config accepts it (the config's one rule), or ValueError."""
    from keeltui.config import ConfigError, _check_model

    try:
        return _check_model("", "", name.strip())
    except ConfigError as exc:
        raise ValueError(exc.problem) from None


def offered(listed: list[str], current: str) -> list[str]:
    """What the picker lists: the endpoint's models (sorted, once each), the current one first
    if the endpoint does not list it (a name typed earlier stays choosable)."""
    names = sorted({n for n in listed if isinstance(n, str) and n.strip()})
    if current and current not in names:
        names.insert(0, current)
    return names
