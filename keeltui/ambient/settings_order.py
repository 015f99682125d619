"""One order for the ambient settings, lowest to highest:

    defaults  <  the config file  <  live settings (F2, stored)  <  the environment

A live setting beats the file (that is what F2 is for, and it survives a restart);
an environment variable beats everything, because it is set for one run on purpose
(``KEEL_AMBIENT_MODE=off keeltui`` for a screencast). F2 shows where each value
comes from and can return to the file's values (it forgets the live ones).

Pure: values in, values out.
"""

from __future__ import annotations

from keeltui.infra.records import record

DEFAULT = "default"
FILE = "file"
LIVE = "live"
ENVIRONMENT = "environment"
ORDER = (DEFAULT, FILE, LIVE, ENVIRONMENT)

ENV_NAMES = {"mode": "KEEL_AMBIENT_MODE", "cadence_secs": "KEEL_AMBIENT_CADENCE_SECS"}


@record(frozen=True)  # a record: built before the first frame (keeltui/infra/records.py)
class Setting:
    """One resolved setting: its value, the layer it came from, and every layer's value."""

    name: str
    value: object
    source: str
    layers: tuple[tuple[str, object], ...]  # (layer, value) for the layers that set it

    def describe(self) -> str:
        """``mode off, from KEEL_AMBIENT_MODE; beats live notify, file status`` (short: F2 shows it)."""
        if self.source == ENVIRONMENT:
            where = f"from {ENV_NAMES.get(self.name, 'the environment')}"
        elif self.source == LIVE:
            where = "from live settings (F2)"
        elif self.source == FILE:
            where = "from the config file"
        else:
            where = "the default"
        shadowed = [f"{layer} {value}" for layer, value in reversed(self.layers) if layer not in (self.source, DEFAULT)]
        beats = f"; beats {', '.join(shadowed)}" if shadowed else ""
        return f"{self.name} {self.value}, {where}{beats}"


def resolve(name: str, layers: dict[str, object]) -> Setting:
    """The highest layer that sets ``name`` (None means "not set here") wins."""
    present = tuple((layer, layers[layer]) for layer in ORDER if layers.get(layer) is not None)
    if not present:
        raise ValueError(f"{name}: no layer sets it, not even the default")
    source, value = present[-1]
    return Setting(name, value, source, present)


def layers_from_config(default: dict, file_values: dict, env_values: dict) -> dict[str, dict[str, object]]:
    """Per setting name, the default/file/environment layers (live is added from the store)."""
    return {
        name: {DEFAULT: default.get(name), FILE: file_values.get(name), ENVIRONMENT: env_values.get(name)}
        for name in ENV_NAMES
    }
