"""Config: defaults, file, environment; every bad input is a ConfigError naming file and key."""

from __future__ import annotations

import ast
import inspect
import re
import tomllib
from pathlib import Path

import pytest

from keeltui import config as config_module
from keeltui.config import Config, ConfigError, iter_keys, load_config

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_without_any_file():
    config = load_config(env={})
    assert config.brain.base_url == "http://localhost:11434/v1"
    assert config.ambient.mode == "notify"
    assert config.ambient.cadence_secs == 300
    assert config.source_path == ""


def test_platform_config_path_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "keeltui").mkdir()
    (tmp_path / "keeltui" / "config.toml").write_text('[owner]\nname = "Ada"\n')
    assert load_config(env={}).owner.name == "Ada"


def test_data_and_state_paths_follow_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    config = load_config(env={})
    assert config.database_path() == tmp_path / "data" / "keeltui" / "keeltui.db"
    assert config.status_file_path() == tmp_path / "state" / "keeltui" / "status"


@pytest.mark.parametrize(
    "body, key, fragment",
    [
        ("[brain]\nmodle = 'x'\n", "brain.modle", "unknown key"),
        ("[brain]\ntimeout_secs = 'slow'\n", "brain.timeout_secs", "expected a number"),
        ("[ambient]\nmode = 'loud'\n", "ambient.mode", "allowed: off, status, notify"),
        ("[evidence]\nsource = 'x11'\n", "evidence.source", "unknown source"),
        ("[evidence]\nsource = 'command'\n", "evidence.command", "required"),
        ("[evidence]\nexclude_titles = ['(']\n", "evidence.exclude_titles", "bad regex"),
        ("[chief]\ncompact_at = 1.5\n", "chief.compact_at", "fraction"),
        ("[context_warnings.prober]\nwarning = 0.9\nemergency = 0.8\n", "context_warnings.prober.warning", "below"),
        ("[tasks]\nprovider = 'jira'\n", "tasks.provider", "unknown provider"),
        ("[brain]\nbase_url = 'localhost:11434'\n", "brain.base_url", "http://"),
        ("brain = 3\n", "brain", "expected a table"),
        ("[keys]\nquiet = 3\n", "keys", "table of strings"),
        ("[ambient]\ntime_sinks = 'youtube'\n", "ambient.time_sinks", "list of strings"),
        ("[keys]\nquiett = 'ctrl+k'\n", "keys.quiett", "no binding has this id"),
        ("[keys]\nquiet = ' '\n", "keys.quiet", "empty key"),
        ("[brain]\ntimeout_secs = nan\n", "brain.timeout_secs", "finite"),
        ("[brain]\ntimeout_secs = inf\n", "brain.timeout_secs", "finite"),
        ("[evidence]\npoll_secs = nan\n", "evidence.poll_secs", "finite"),
        ("[evidence]\npoll_secs = -inf\n", "evidence.poll_secs", "finite"),
        ("[evidence]\npoll_secs = 0.000001\n", "evidence.poll_secs", "between 0.1 and"),
        ("[ambient]\njudge_timeout_secs = inf\n", "ambient.judge_timeout_secs", "finite"),
        ("[chief]\ncompact_at = nan\n", "chief.compact_at", "finite"),
        ("[brain]\ntimeout_secs = 1e300\n", "brain.timeout_secs", "between"),
        ("[focus]\ndefault_minutes = 0\n", "focus.default_minutes", "between 1 and"),
        ("[focus]\ngrace_secs = -1\n", "focus.grace_secs", "between 0 and"),
        ("[ambient]\ncadence_secs = 99999999999\n", "ambient.cadence_secs", "between"),
        ("[brain.context_windows]\njudge = -5\n", "brain.context_windows.judge", "between"),
        ("[keys]\nquit = 'not a key!!'\n", "keys.quit", "not a key name"),
        ("[keys]\nquiet = 'ctrl+kk'\n", "keys.quiet", "not a key name"),
        ("[keys]\nquiet = 'control+k'\n", "keys.quiet", "not a modifier"),
        ("[keys]\nquiet = 'f3,'\n", "keys.quiet", "empty key"),
        ("[brain]\nbase_url = 'http://[::1'\n", "brain.base_url", "not a URL"),
        ("[brain]\nbase_url = 'http://'\n", "brain.base_url", "names no host"),
        ("[brain]\nbase_url = 'http://h:99999/v1'\n", "brain.base_url", "not a URL"),
        ("[brain]\nbase_url = 'http://h /v1'\n", "brain.base_url", "no spaces"),
        ("[brain]\napi_key_env = 'MY KEY'\n", "brain.api_key_env", "variable name"),
        # The file's models are checked by the rule the environment's KEEL_BRAIN_MODEL meets.
        ("[brain]\nmodel = 'two words'\n", "brain.model", "one word"),
        ("[brain]\nmodel = ''\n", "brain.model", "one word"),
        ("[brain]\nmodel = \"a\\u001b[2J\"\n", "brain.model", "one word"),
        ("[brain.models]\njudge = 'small model'\n", "brain.models.judge", "one word"),
        ("[brain.models]\nteacher = '" + "m" * 201 + "'\n", "brain.models.teacher", "at most 200"),
        # One rule per number (NUMBER_RANGES), none checked twice with other words.
        ("[ambient]\nsnooze_secs = 0\n", "ambient.snooze_secs", "between 1 and"),
        ("[ambient]\naway_after_secs = -1\n", "ambient.away_after_secs", "between 0 and"),
        ("[brain]\ncontext_window = 0\n", "brain.context_window", "between 256 and"),
        ("[chief]\nkeep_recent = 0\n", "chief.keep_recent", "between 1 and"),
        ("[chief]\nwindow_rows = 5\n", "chief.window_rows", "between 10 and"),
        ("[frame]\nmax_chars = 10\n", "frame.max_chars", "between 200 and"),
        ("[brain]\nbase_url = 'ftp://h/v1'\n", "brain.base_url", "http://"),
    ],
)
def test_bad_values_name_file_and_key(tmp_path, body, key, fragment):
    path = tmp_path / "config.toml"
    path.write_text(body)
    with pytest.raises(ConfigError) as caught:
        load_config(path, env={})
    assert caught.value.key == key
    assert caught.value.path == str(path)
    assert fragment in str(caught.value)
    assert str(caught.value).startswith(f"{path}: {key}: ")


def test_toml_syntax_error_names_the_line(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[owner]\nname = 'x'\ncompanion = \n")
    with pytest.raises(ConfigError) as caught:
        load_config(path, env={})
    assert str(path) in str(caught.value)
    assert "line 3" in str(caught.value)


def test_explicit_missing_file_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "nope.toml", env={})


@pytest.mark.parametrize(
    "env, mode, cadence",
    [
        ({"KEEL_AMBIENT_MODE": "status"}, "status", 300),
        ({"KEEL_AMBIENT_MODE": "OFF"}, "off", 300),
        ({"KEEL_AMBIENT_CADENCE_SECS": "60"}, "notify", 60),
        ({"KEEL_AMBIENT_CADENCE_SECS": "0"}, "notify", 300),
        ({"KEEL_AMBIENT_CADENCE_SECS": "-5"}, "notify", 300),
    ],
)
def test_env_overrides(env, mode, cadence):
    config = load_config(env=env)
    assert (config.ambient.mode, config.ambient.cadence_secs) == (mode, cadence)


def test_env_bad_mode_is_an_error():
    with pytest.raises(ConfigError) as caught:
        load_config(env={"KEEL_AMBIENT_MODE": "loud"})
    assert caught.value.key == "KEEL_AMBIENT_MODE"


def test_non_positive_cadence_in_file_means_default(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[ambient]\ncadence_secs = 0\n")
    assert load_config(path, env={}).ambient.cadence_secs == 300


def test_brain_env_and_api_key(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[brain]\nbase_url = 'https://api.example.com/v1'\napi_key_env = 'MY_KEY'\n")
    config = load_config(path, env={"MY_KEY": "sk-secret", "KEEL_BRAIN_MODEL": "qwen"})
    assert config.api_key == "sk-secret"
    assert config.brain.model == "qwen"
    assert "sk-secret" not in repr(config)
    assert config.key_route.describe() == "API key from $MY_KEY goes to api.example.com"


def test_the_key_does_not_follow_an_env_base_url_elsewhere(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[brain]\nbase_url = 'https://api.example.com/v1'\napi_key_env = 'MY_KEY'\n")
    config = load_config(path, env={"MY_KEY": "sk-secret", "KEEL_BRAIN_BASE_URL": "http://h:1/v1"})
    assert config.brain.base_url == "http://h:1/v1"
    assert config.api_key is None
    assert "h:1" in config.key_route.describe() and "api.example.com" in config.key_route.describe()


def test_an_exported_openai_key_is_not_used_without_config():
    config = load_config(env={"OPENAI_API_KEY": "sk-secret"})
    assert config.api_key is None
    line = config.key_route.describe()
    assert line.startswith("no API key is sent to localhost:11434") and "$OPENAI_API_KEY" in line
    assert "sk-secret" not in line


def test_per_role_models_fall_back():
    config = Config()
    config.brain.models.judge = "small"
    assert config.brain.model_for("judge") == "small"
    assert config.brain.model_for("teacher") == config.brain.model
    assert config.brain.window_for("chief") == config.brain.context_window


def _example_keys() -> set[str]:
    data = tomllib.loads((ROOT / "config.example.toml").read_text())
    keys: set[str] = set()

    def walk(prefix: str, table: dict) -> None:
        for name, value in table.items():
            if isinstance(value, dict) and f"{prefix}{name}" != "keys":
                walk(f"{prefix}{name}.", value)
            else:
                keys.add(f"{prefix}{name}")

    walk("", data)
    keys.add("keys")  # an empty table in the example documents the remaps
    return keys


def test_example_lists_every_key_and_only_real_keys():
    assert _example_keys() == set(iter_keys())


def test_example_file_loads_and_equals_the_defaults():
    loaded = load_config(ROOT / "config.example.toml", env={})
    loaded.source_path = ""
    assert loaded == Config()


def test_every_field_has_a_docstring():
    tree = ast.parse(inspect.getsource(config_module))
    missing = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or not any(
            isinstance(d, ast.Name) and d.id == "dataclass" for d in node.decorator_list
        ):
            continue
        body = node.body
        for index, item in enumerate(body):
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                name = item.target.id
                if name in ("source_path", "api_key"):
                    continue
                following = body[index + 1] if index + 1 < len(body) else None
                if not (isinstance(following, ast.Expr) and isinstance(getattr(following, "value", None), ast.Constant)
                        and isinstance(following.value.value, str)):
                    missing.append(f"{node.name}.{name}")
    assert missing == []


def test_the_status_fast_path_knows_every_environment_override():
    from keeltui.infra.xdg import ENV_OVERRIDES

    source = inspect.getsource(config_module._apply_env)
    assert set(re.findall(r'"(KEEL_[A-Z_]+)"', source)) == set(ENV_OVERRIDES)


@pytest.mark.parametrize(
    "env, key, fragment",
    [
        ({"KEEL_BRAIN_BASE_URL": "http://[::1"}, "KEEL_BRAIN_BASE_URL", "not a URL"),
        ({"KEEL_BRAIN_BASE_URL": "ftp://h/v1"}, "KEEL_BRAIN_BASE_URL", "http://"),
        ({"KEEL_BRAIN_MODEL": "two words"}, "KEEL_BRAIN_MODEL", "one word"),
        ({"KEEL_AMBIENT_CADENCE_SECS": "99999999999"}, "KEEL_AMBIENT_CADENCE_SECS", "between"),
    ],
)
def test_environment_overrides_are_checked_by_the_same_rules(env, key, fragment):
    with pytest.raises(ConfigError) as caught:
        load_config(env=env)
    assert caught.value.key == key
    assert fragment in str(caught.value)


@pytest.mark.parametrize(
    "spec, normal",
    [("ctrl+k", "ctrl+k"), ("f12, ctrl+k", "f12,ctrl+k"), ("!", "exclamation_mark"), ("F", "F"),
     ("ctrl+shift+up", "ctrl+shift+up"), ("comma", "comma"), ("ctrl++", "ctrl+plus")],
)
def test_key_specs_are_normalised_like_textual(tmp_path, spec, normal):
    path = tmp_path / "c.toml"
    # A session-list key: single characters are fine there (no text field has the focus).
    path.write_text(f"[keys]\ntutor_rename_session = {spec!r}\n")
    assert load_config(path, env={}).keys["tutor_rename_session"] == normal


def test_key_spec_parser_accepts_every_textual_key_name():
    from textual.keys import Keys, _normalize_key_list

    from keeltui.keys.keyspec import parse_key, parse_keys

    for key in Keys:
        if not key.value.startswith("<"):
            assert parse_key(key.value) == key.value
    for spec in ("a", "!", "/", "-", "+", "@", "_", "f3,x", "ctrl+a, ?", "[", "."):
        assert parse_keys(spec) == _normalize_key_list(spec)


def test_an_error_line_is_short_and_printable_however_long_the_value(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[brain]\nbase_url = 'http://h/" + "\\u001b[2J" + "x" * 5000 + "'\nmodel = 'm'\n"
                    "[evidence]\nexclude_titles = ['(" + "y" * 5000 + "']\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path, env={})
    line = str(caught.value)
    assert len(line) <= 200 and "\n" not in line and "\x1b" not in line
    assert line.startswith(f"{path}: evidence.exclude_titles: ")
    with pytest.raises(ConfigError) as caught:
        load_config(env={"KEEL_BRAIN_BASE_URL": "http://[::1" + "\x1b]52;c;AAAA\x07" + "z" * 5000})
    line = str(caught.value)
    assert len(line) <= 200 and "\x1b" not in line and "\x07" not in line


def test_the_cli_and_doctor_say_one_clean_line_for_a_broken_url(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "c.toml"
    path.write_text("[brain]\nbase_url = 'http://[::1'\n")
    for args in (["chat", "hi"], ["doctor"]):
        done = subprocess.run([sys.executable, "-m", "keeltui", "--config", str(path), *args],
                              capture_output=True, text=True, timeout=60)
        output = done.stdout + done.stderr
        assert done.returncode == 2, output
        assert "Traceback" not in output
        assert "brain.base_url" in output and "not a URL" in output
