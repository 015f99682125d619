"""Typed settings: defaults, then the TOML file, then the environment.

Every field carries a docstring; ``config.example.toml`` lists every key and a test
keeps the two in step. A bad file or value raises :class:`ConfigError`, which the CLI
turns into one line naming the file and the key, and exit code 2.

This module is imported by ``keeltui status``: it must stay light (no Textual, no
openai).
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import tomllib
import typing
from dataclasses import field

from keeltui.infra.records import record
from pathlib import Path

from keeltui.ambient.modes import AMBIENT_MODES, DEFAULT_CADENCE_SECS, parse_cadence, parse_mode
from keeltui.infra.paths import default_config_path, default_database_path, default_status_path
from keeltui.chief.landed import LANDED_SIGNALS
from keeltui.text.themes import SHIPPED_THEMES
from keeltui.keys.keymap import BINDING_IDS  # every id a [keys] entry may remap (the one registry)

EVIDENCE_SOURCES = ("auto", "ewmh", "tmux", "command", "none")
TASK_PROVIDERS = ("none", "markdown", "todotxt", "command")
ROLES = ("chief", "judge", "prober", "teacher")


class ConfigError(Exception):
    """A config file or value that keeltui cannot use."""

    def __init__(self, path: str, key: str, problem: str) -> None:
        self.path = path
        self.key = key
        self.problem = problem
        super().__init__(_error_line(path, key, problem))


# However long or hostile the value, the error is one printable line of about this size.
ERROR_LINE_CHARS = 200


def _error_line(path: str, key: str, problem: str) -> str:
    from keeltui.text.textsafe import one_line

    head = one_line(f"{path}: {key}: " if key else f"{path}: ", 120) + " "
    return head + one_line(problem, max(40, ERROR_LINE_CHARS - len(head)))


@record
class OwnerConfig:
    name: str = "Owner"
    """How the room names the owner (the person at the keyboard)."""
    companion: str = "Chief"
    """How the room names the companion on its own turns."""


@record
class RoleModels:
    chief: str = ""
    """Model for the Chief room; empty uses brain.model."""
    judge: str = ""
    """Model for the sentinel's and focus mode's drift judgements; empty uses brain.model."""
    prober: str = ""
    """Model for the tutor's prober agent; empty uses brain.model."""
    teacher: str = ""
    """Model for the tutor's teacher agent; empty uses brain.model."""


@record
class RoleWindows:
    chief: int = 0
    """Context window (tokens) of the chief model; 0 uses brain.context_window."""
    judge: int = 0
    """Context window (tokens) of the judge model; 0 uses brain.context_window."""
    prober: int = 0
    """Context window (tokens) of the prober model; 0 uses brain.context_window."""
    teacher: int = 0
    """Context window (tokens) of the teacher model; 0 uses brain.context_window."""


@record
class BrainConfig:
    base_url: str = "http://localhost:11434/v1"
    """OpenAI-compatible endpoint (Ollama by default). Env: KEEL_BRAIN_BASE_URL."""
    model: str = "llama3.2"
    """Default model for every role. Env: KEEL_BRAIN_MODEL."""
    api_key_env: str = ""
    """Name of the environment variable holding the API key, e.g. "OPENAI_API_KEY"; empty sends no key.
    The key goes only to the host of brain.base_url as set in the same file (never stored)."""
    timeout_secs: float = 60.0
    """Seconds before a request (or a stalled stream) is given up."""
    context_window: int = 8192
    """Context window in tokens, used for the context fraction of every call."""
    models: RoleModels = field(default_factory=RoleModels)
    """Per-role models."""
    context_windows: RoleWindows = field(default_factory=RoleWindows)
    """Per-role context windows."""

    def model_for(self, role: str) -> str:
        return getattr(self.models, role, "") or self.model

    def window_for(self, role: str) -> int:
        return getattr(self.context_windows, role, 0) or self.context_window


@record
class ChiefConfig:
    compact_at: float = 0.75
    """Context fraction at which older turns are summarised into a summary row."""
    keep_recent: int = 6
    """Conversation turns kept verbatim after a compaction summary."""
    window_rows: int = 120
    """Rows the room mounts at once; older rows page in when you scroll to the top."""
    report_max_chars: int = 20000
    """Longest report the room shows; a longer one is cut there and kept whole in the database."""
    system_prompt: str = (
        "You are the owner's companion, the Chief: a calm, direct partner in one endless "
        "conversation. Lines marked as reports come from background jobs, not from you."
    )
    """System prompt of the Chief room."""


@record
class LevelConfig:
    warning: float = 0.5
    """Context fraction that raises a warning."""
    emergency: float = 0.8
    """Context fraction that raises an emergency warning."""


@record
class ContextWarnings:
    prober: LevelConfig = field(default_factory=LevelConfig)
    """Thresholds for tutor sessions while the prober answers."""
    teacher: LevelConfig = field(default_factory=LevelConfig)
    """Thresholds for tutor sessions while the teacher answers."""


@record
class TutorConfig:
    research_command: str = ""
    """Command for the tutor's research jobs: run with the query as its last argument, its
    output (search results) is handed to the model; empty means the model alone."""


@record
class AmbientConfig:
    mode: str = "notify"
    """off | status | notify. Env: KEEL_AMBIENT_MODE."""
    cadence_secs: int = DEFAULT_CADENCE_SECS
    """Seconds between judgements; non-positive means 300. Env: KEEL_AMBIENT_CADENCE_SECS."""
    judge_timeout_secs: float = 30.0
    """Seconds a drift judgement may take before it counts as a brain error."""
    time_sinks: list[str] = field(
        default_factory=lambda: [
            "youtube", "reddit", "twitter", "x.com", "netflix", "hacker news",
            "instagram", "facebook", "tiktok", "twitch",
        ]
    )
    """Title words the local judge (used when no brain answers) treats as time sinks."""
    snooze_secs: int = 3600
    """How long F6 (or the banner) snoozes the drift coach, in seconds."""
    away_after_secs: int = 300
    """Seconds without keyboard or mouse after which you count as away (no judging,
    no drift, nothing stored); 0 turns it off. Read from X11, tmux or the command's
    third field."""


@record
class EvidenceConfig:
    source: str = "auto"
    """auto | ewmh | tmux | command | none."""
    poll_secs: float = 5.0
    """Seconds between reads of the active window."""
    command: str = ""
    """Shell command printing class<TAB>title, for source = command (Wayland, macOS, ...)."""
    exclude_titles: list[str] = field(default_factory=list)
    """Case-insensitive regexes; a matching title is replaced by 'excluded' before anything sees it."""


@record
class FrameConfig:
    dir: str = ""
    """Folder holding the goals file and life-domain files; empty means none."""
    goals_file: str = "goals.md"
    """Goals file, relative to frame.dir."""
    max_chars: int = 6000
    """Upper bound of the brief handed to the judge."""


@record
class TasksConfig:
    provider: str = "none"
    """none | markdown | todotxt | command: where today's tasks come from."""
    source: str = ""
    """The checklist or todo.txt path, or the command printing one task per line."""


@record
class FocusConfig:
    default_minutes: int = 25
    """Length offered when a focus session starts without one."""
    grace_secs: int = 90
    """Seconds off-task before the drift judge is asked."""
    nudge_debounce_secs: int = 300
    """Minimum seconds between two focus nudges."""


@record
class PathsConfig:
    database: str = ""
    """SQLite file; empty means keeltui.db in the platform data dir (XDG_DATA_HOME)."""
    status_file: str = ""
    """Status line file for tmux; empty means status in the platform state dir (XDG_STATE_HOME)."""


@record
class UIConfig:
    landed_signal: str = "bell"
    """How a long reply (or tutor turn) that lands while keeltui is not in front says so:
    bell (the terminal's bell), tmux (a tmux message; the bell outside tmux) or off.
    Never in Quiet Mode."""
    landed_after_secs: float = 5.0
    """Only a reply that took at least this many seconds gets that signal."""
    theme: str = "textual-dark"
    """The colours: one of keeltui.text.themes.SHIPPED_THEMES (textual-light is the light one).
    A theme chosen in the command palette (Ctrl+P, "Theme") is saved here."""


@record
class Config:
    owner: OwnerConfig = field(default_factory=OwnerConfig)
    """Names."""
    brain: BrainConfig = field(default_factory=BrainConfig)
    """The model endpoint."""
    chief: ChiefConfig = field(default_factory=ChiefConfig)
    """The Chief room."""
    context_warnings: ContextWarnings = field(default_factory=ContextWarnings)
    """Context warnings for tutor sessions (the Chief never warns)."""
    tutor: TutorConfig = field(default_factory=TutorConfig)
    """The tutor's background jobs."""
    ambient: AmbientConfig = field(default_factory=AmbientConfig)
    """The ambient drift sentinel."""
    evidence: EvidenceConfig = field(default_factory=EvidenceConfig)
    """Where the active window comes from."""
    frame: FrameConfig = field(default_factory=FrameConfig)
    """The goals and life domains the judge measures against."""
    tasks: TasksConfig = field(default_factory=TasksConfig)
    """Today's tasks."""
    focus: FocusConfig = field(default_factory=FocusConfig)
    """Focus mode."""
    paths: PathsConfig = field(default_factory=PathsConfig)
    """Where files live."""
    ui: UIConfig = field(default_factory=UIConfig)
    """How the app tells you things."""
    keys: dict[str, str] = field(default_factory=dict)
    """Key remaps by binding id, e.g. quiet = "ctrl+q" (see README for the ids)."""

    key_route: typing.Any = field(default=None, repr=False, compare=False, metadata={"internal": True})
    """Set by load_config: which variable's key goes to which host (a keyroute.KeyRoute)."""
    # Set by load_config, not by the file.
    source_path: str = field(default="", metadata={"internal": True})
    api_key: str | None = field(default=None, repr=False, metadata={"internal": True})
    setting_layers: dict = field(default_factory=dict, compare=False, metadata={"internal": True})
    """Per live-changeable setting, its default/file/environment values (see
    keeltui.ambient.settings_order); empty when the config was not loaded from disk."""

    def database_path(self) -> Path:
        if self.paths.database:
            return Path(os.path.expanduser(self.paths.database))
        return default_database_path()

    def status_file_path(self) -> Path:
        if self.paths.status_file:
            return Path(os.path.expanduser(self.paths.status_file))
        return default_status_path()


def _public_fields(cls) -> list[dataclasses.Field]:
    return [f for f in dataclasses.fields(cls) if not f.metadata.get("internal")]


def _describe(tp) -> str:
    return {str: "a string", int: "a whole number", float: "a number", bool: "true or false"}.get(
        tp, "a list of strings" if typing.get_origin(tp) is list else "a table of strings"
    )


def _coerce(path: str, key: str, tp, value):
    if tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if not math.isfinite(value):
                raise ConfigError(path, key, f"must be a finite number, got {value!r}")
            return float(value)
    elif tp is str:
        if isinstance(value, str):
            return value
    elif typing.get_origin(tp) is list:
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return list(value)
    elif typing.get_origin(tp) is dict and isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        return dict(value)
    raise ConfigError(path, key, f"expected {_describe(tp)}, got {value!r}")


def _fill(path: str, prefix: str, cls, data: dict):
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in _public_fields(cls)}
    for key in data:
        if key not in known:
            dotted = f"{prefix}{key}"
            allowed = ", ".join(sorted(known))
            raise ConfigError(path, dotted, f"unknown key (allowed here: {allowed})")
    instance = cls()
    for name in known:
        if name not in data:
            continue
        tp = hints[name]
        value = data[name]
        dotted = f"{prefix}{name}"
        if dataclasses.is_dataclass(tp):
            if not isinstance(value, dict):
                raise ConfigError(path, dotted, "expected a table")
            setattr(instance, name, _fill(path, f"{dotted}.", tp, value))
        else:
            setattr(instance, name, _coerce(path, dotted, tp, value))
    return instance


def _check_fraction(path: str, key: str, value: float) -> None:
    if not 0 < value <= 1:
        raise ConfigError(path, key, f"must be a fraction between 0 and 1, got {value}")


def _mode(path: str, key: str, value: str) -> str:
    try:
        return parse_mode(value)
    except ValueError:
        raise ConfigError(path, key, f"unknown mode {value!r} (allowed: {', '.join(AMBIENT_MODES)})") from None


def validate(config: Config, path: str) -> None:
    """Check values whose type is right but whose meaning is not."""
    config.ambient.mode = _mode(path, "ambient.mode", config.ambient.mode)
    config.ambient.cadence_secs = parse_cadence(config.ambient.cadence_secs)
    if config.evidence.source not in EVIDENCE_SOURCES:
        raise ConfigError(
            path, "evidence.source",
            f"unknown source {config.evidence.source!r} (allowed: {', '.join(EVIDENCE_SOURCES)})",
        )
    if config.evidence.source == "command" and not config.evidence.command.strip():
        raise ConfigError(path, "evidence.command", "required when evidence.source = \"command\"")
    for pattern in config.evidence.exclude_titles:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ConfigError(path, "evidence.exclude_titles", f"bad regex {pattern!r}: {exc}") from None
    for binding_id, _keys in config.keys.items():
        if binding_id not in BINDING_IDS:
            raise ConfigError(
                path, f"keys.{binding_id}", f"no binding has this id (ids: {', '.join(BINDING_IDS)})"
            )
    if config.tasks.provider not in TASK_PROVIDERS:
        raise ConfigError(
            path, "tasks.provider",
            f"unknown provider {config.tasks.provider!r} (allowed: {', '.join(TASK_PROVIDERS)})",
        )
    if config.ui.landed_signal not in LANDED_SIGNALS:
        raise ConfigError(
            path, "ui.landed_signal",
            f"unknown signal {config.ui.landed_signal!r} (allowed: {', '.join(LANDED_SIGNALS)})",
        )
    if config.ui.theme not in SHIPPED_THEMES:
        raise ConfigError(
            path, "ui.theme", f"unknown theme {config.ui.theme!r} (allowed: {', '.join(SHIPPED_THEMES)})",
        )
    _check_fraction(path, "chief.compact_at", config.chief.compact_at)
    for role in ("prober", "teacher"):
        levels: LevelConfig = getattr(config.context_warnings, role)
        _check_fraction(path, f"context_warnings.{role}.warning", levels.warning)
        _check_fraction(path, f"context_warnings.{role}.emergency", levels.emergency)
        if levels.warning >= levels.emergency:
            raise ConfigError(path, f"context_warnings.{role}.warning", "must be below emergency")
    # Numbers, the URL and the key specs: one rule each, in validate_more.
    validate_more(config, path)


# Up to the last "@": a password may hold "/", "?" or "#" unencoded, which would end a
# stricter match early and leave the rest of the password in the message.
_USERINFO = re.compile(r"(//).*@")


def redact_url(value: str) -> str:
    """``value`` with any ``user:password@`` replaced: what an error may print of a URL."""
    return _USERINFO.sub(r"\1***@", value)


def _check_url(path: str, key: str, value: str) -> str:
    """An http(s) URL with a host that urllib can parse (``http://[::1`` is refused here).

    A URL that carries a user or password is refused: the base URL is shown on screen,
    stored in notices and printed by doctor and chat, so a secret in it would leak
    everywhere. Every message here prints the URL with that part masked.
    """
    from urllib.parse import urlsplit

    shown = redact_url(value)
    if any(ch.isspace() or not ch.isprintable() for ch in value):
        raise ConfigError(path, key, f"a URL has no spaces or control characters: {shown!r}")
    if shown != value:
        # Before parsing: urlsplit reads "ada:12/pw@host" as host "ada", port 12 and a path,
        # and its error for "ada:pw/x@host" quotes the password as a bad port.
        raise ConfigError(path, key, f"no user or password in a URL ({shown}): name the key's variable in brain.api_key_env")
    try:
        parts = urlsplit(value)
        _ = parts.port  # raises ValueError for a bad port
    except ValueError as exc:
        raise ConfigError(path, key, f"not a URL ({redact_url(str(exc))}): {shown!r}") from None
    if parts.scheme not in ("http", "https"):
        raise ConfigError(path, key, f"must start with http:// or https://, got {shown!r}")
    if not parts.hostname:
        raise ConfigError(path, key, f"names no host: {shown!r}")
    return value


# (key, lowest, highest) for every number; seconds stay under a week so that no timer overflows.
_WEEK = 7 * 24 * 3600
NUMBER_RANGES: tuple[tuple[str, float, float], ...] = (
    ("brain.timeout_secs", 0.1, _WEEK),
    ("brain.context_window", 256, 100_000_000),
    ("ambient.judge_timeout_secs", 0.1, _WEEK),
    ("ambient.cadence_secs", 1, _WEEK),
    ("ambient.snooze_secs", 1, _WEEK),
    ("ambient.away_after_secs", 0, _WEEK),
    ("evidence.poll_secs", 0.1, _WEEK),
    ("chief.keep_recent", 1, 10_000),
    ("chief.window_rows", 10, 100_000),
    ("chief.report_max_chars", 1_000, 10_000_000),
    ("frame.max_chars", 200, 10_000_000),
    ("focus.default_minutes", 1, 24 * 60),
    ("focus.grace_secs", 0, _WEEK),
    ("focus.nudge_debounce_secs", 0, _WEEK),
    ("ui.landed_after_secs", 0, _WEEK),
    *((f"brain.context_windows.{role}", 0, 100_000_000) for role in ROLES),
)


def _get(config: Config, dotted: str):
    value = config
    for name in dotted.split("."):
        value = getattr(value, name)
    return value


def _check_range(path: str, key: str, value, low: float, high: float) -> None:
    # Not finite cannot reach here: _coerce refuses nan and inf as it reads the file.
    if not low <= value <= high:
        raise ConfigError(path, key, f"must be between {low:g} and {high:g}, got {value!r}")


def validate_more(config: Config, path: str) -> None:
    """Ranges, URLs, key specs and names: what a typed value can still get wrong."""
    from keeltui.keys.keyspec import KeySpecError, parse_keys

    for key, low, high in NUMBER_RANGES:
        value = _get(config, key)
        if key.startswith("brain.context_windows.") and value == 0:
            continue  # 0 means brain.context_window
        _check_range(path, key, value, low, high)
    _check_url(path, "brain.base_url", config.brain.base_url)
    _check_model(path, "brain.model", config.brain.model)
    for role in ROLES:
        if value := getattr(config.brain.models, role):  # empty means brain.model
            _check_model(path, f"brain.models.{role}", value)
    if config.brain.api_key_env and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,127}", config.brain.api_key_env):
        raise ConfigError(path, "brain.api_key_env", f"not an environment variable name: {config.brain.api_key_env!r}")
    for binding_id, keys in list(config.keys.items()):
        try:
            config.keys[binding_id] = parse_keys(keys)
        except KeySpecError as exc:
            raise ConfigError(path, f"keys.{binding_id}", str(exc)) from None
    from keeltui.keys.keymap import remap_problem

    if (problem := remap_problem(config.keys)) is not None:
        raise ConfigError(path, f"keys.{problem[0]}", problem[1])


NAME_MAX = 40


def _clean_names(config: Config) -> None:
    """owner.name and owner.companion are drawn everywhere: one line, no escapes, bounded."""
    from keeltui.text.textsafe import one_line

    defaults = OwnerConfig()
    config.owner.name = one_line(config.owner.name, NAME_MAX) or defaults.name
    config.owner.companion = one_line(config.owner.companion, NAME_MAX) or defaults.companion


def _apply_env(config: Config, env: typing.Mapping[str, str]) -> None:
    label = "environment"
    if "KEEL_AMBIENT_MODE" in env:
        config.ambient.mode = _mode(label, "KEEL_AMBIENT_MODE", env["KEEL_AMBIENT_MODE"])
    if "KEEL_AMBIENT_CADENCE_SECS" in env:
        try:
            int(env["KEEL_AMBIENT_CADENCE_SECS"])
        except ValueError:
            raise ConfigError(
                label, "KEEL_AMBIENT_CADENCE_SECS", "expected a whole number of seconds"
            ) from None
        config.ambient.cadence_secs = parse_cadence(env["KEEL_AMBIENT_CADENCE_SECS"])
        _check_range(label, "KEEL_AMBIENT_CADENCE_SECS", config.ambient.cadence_secs, 1, _WEEK)
    if env.get("KEEL_BRAIN_BASE_URL"):
        config.brain.base_url = _check_url(label, "KEEL_BRAIN_BASE_URL", env["KEEL_BRAIN_BASE_URL"])
    if env.get("KEEL_BRAIN_MODEL"):
        config.brain.model = _check_model(label, "KEEL_BRAIN_MODEL", env["KEEL_BRAIN_MODEL"])


def _check_model(path: str, key: str, value: str) -> str:
    """The one rule for a model name, from the file or the environment."""
    if not value or len(value) > 200 or any(ch.isspace() or not ch.isprintable() for ch in value):
        raise ConfigError(path, key, f"a model name is one word of at most 200 characters: {value!r}")
    return value


def load_config(
    path: str | os.PathLike | None = None,
    env: typing.Mapping[str, str] | None = None,
) -> Config:
    """Defaults, then the file (if any), then the environment; validated.

    ``path`` None means the platform config path, which may be absent: defaults then
    apply. An explicit path that does not exist is an error.
    """
    env = os.environ if env is None else env
    explicit = path is not None
    file_path = Path(path) if path is not None else default_config_path()
    data: dict = {}
    if file_path.exists():
        try:
            raw = file_path.read_bytes()
        except OSError as exc:
            raise ConfigError(str(file_path), "", f"cannot read: {exc.strerror}") from None
        try:
            data = tomllib.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise ConfigError(str(file_path), "", "not UTF-8 text") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(str(file_path), "", f"TOML syntax error: {exc}") from None
    elif explicit:
        raise ConfigError(str(file_path), "", "no such file")
    config = _fill(str(file_path), "", Config, data)
    config.source_path = str(file_path) if file_path.exists() else ""
    configured_url = config.brain.base_url  # the key's endpoint, before any env override
    validate(config, str(file_path))
    _clean_names(config)
    file_values = _file_ambient(config, data)
    _apply_env(config, env)
    config.setting_layers = _setting_layers(config, file_values, env)
    from keeltui.infra.api_keys import route_key

    config.key_route = route_key(config.brain.api_key_env, configured_url, config.brain.base_url, env)
    config.api_key = config.key_route.key
    return config


def _file_ambient(config: Config, data: dict) -> dict:
    """The ambient settings the file itself set (validated), before the environment."""
    found = data.get("ambient")
    table = found if isinstance(found, dict) else {}
    return {name: getattr(config.ambient, name) for name in ("mode", "cadence_secs") if name in table}


def _setting_layers(config: Config, file_values: dict, env: typing.Mapping[str, str]) -> dict:
    from keeltui.ambient.settings_order import ENV_NAMES, layers_from_config

    defaults = AmbientConfig()
    env_values = {name: getattr(config.ambient, name) for name, var in ENV_NAMES.items() if var in env}
    return layers_from_config(
        {"mode": defaults.mode, "cadence_secs": defaults.cadence_secs}, file_values, env_values,
    )


def iter_keys(cls=Config, prefix: str = ""):
    """Every dotted key a config file may set, in declaration order."""
    hints = typing.get_type_hints(cls)
    for f in _public_fields(cls):
        tp = hints[f.name]
        if dataclasses.is_dataclass(tp):
            yield from iter_keys(tp, f"{prefix}{f.name}.")
        else:
            yield f"{prefix}{f.name}"
