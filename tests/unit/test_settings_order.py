"""The one order of the ambient settings: defaults < file < live (F2) < environment."""

from __future__ import annotations

import pytest

from keeltui.ambient.settings_order import DEFAULT, ENVIRONMENT, FILE, LIVE, resolve


@pytest.mark.parametrize(
    "layers, value, source",
    [
        ({DEFAULT: "notify"}, "notify", DEFAULT),
        ({DEFAULT: "notify", FILE: "status"}, "status", FILE),
        ({DEFAULT: "notify", FILE: "status", LIVE: "notify"}, "notify", LIVE),
        ({DEFAULT: "notify", FILE: "status", LIVE: "notify", ENVIRONMENT: "off"}, "off", ENVIRONMENT),
        ({DEFAULT: "notify", LIVE: None, ENVIRONMENT: "off"}, "off", ENVIRONMENT),
    ],
)
def test_the_highest_layer_wins(layers, value, source):
    setting = resolve("mode", layers)
    assert (setting.value, setting.source) == (value, source)


def test_describe_names_the_winner_and_what_it_beats():
    setting = resolve("mode", {DEFAULT: "notify", FILE: "status", LIVE: "notify", ENVIRONMENT: "off"})
    assert setting.describe() == "mode off, from KEEL_AMBIENT_MODE; beats live notify, file status"
    assert resolve("cadence_secs", {DEFAULT: 300}).describe() == "cadence_secs 300, the default"


def test_the_config_records_each_layer():
    import os
    import tempfile

    from keeltui.config import load_config

    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as handle:
        handle.write('[ambient]\nmode = "status"\n')
    try:
        config = load_config(handle.name, env={"KEEL_AMBIENT_CADENCE_SECS": "60"})
    finally:
        os.unlink(handle.name)
    assert config.setting_layers["mode"] == {DEFAULT: "notify", FILE: "status", ENVIRONMENT: None}
    assert config.setting_layers["cadence_secs"] == {DEFAULT: 300, FILE: None, ENVIRONMENT: 60}
