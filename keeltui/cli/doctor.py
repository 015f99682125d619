"""``keeltui doctor``: what works, and what to do about what does not."""

from __future__ import annotations

import asyncio
import os


def _line(ok: bool | None, what: str, advice: str = "") -> str:
    mark = {True: "ok  ", False: "FAIL", None: "note"}[ok]
    return f"[{mark}] {what}" + (f"\n       → {advice}" if advice else "")


def run_doctor(config_path: str | None) -> int:
    from keeltui.config import ROLES, ConfigError, default_config_path, load_config

    failures = 0
    path = config_path or str(default_config_path())
    try:
        config = load_config(config_path)
    except ConfigError as exc:
        print(_line(False, f"config: {exc}", "fix the key named above (config.example.toml documents every key)"))
        return 2
    if config.source_path:
        print(_line(True, f"config: {config.source_path} is valid"))
    else:
        print(_line(None, f"config: no file at {path}; defaults in use", "copy config.example.toml there to change them"))

    from keeltui.store import StoreError
    from keeltui.wiring import make_brain, open_store

    try:
        store = open_store(config, readonly=True)  # a check never changes the file
        damage = store.quick_check()
        if damage:
            failures += 1
            print(_line(False, f"database: {damage}", "move the damaged file aside after recovering it"))
        else:
            print(_line(True, f"database: {store.path} (schema version {store.schema_version}, "
                              f"{store.count(store.chief_id())} rows in the Chief room, quick_check ok)"))
        store.close()
    except StoreError as exc:
        failures += 1
        print(_line(False, f"database: {exc}", "move the file aside or set paths.database"))

    from keeltui.brain import BrainError

    key_note = config.key_route.describe()
    print(_line(None if config.api_key is None else True, f"key: {key_note}"))
    brain = make_brain(config)

    async def probe():
        try:
            return await brain.list_models(), None
        except BrainError as exc:
            return None, str(exc)
        finally:
            await brain.aclose()

    models, problem = asyncio.run(probe())
    if problem:
        failures += 1
        print(_line(False, f"brain: {problem}",
                    f"start a server at {config.brain.base_url} (e.g. `ollama serve`) or set brain.base_url "
                    "/ KEEL_BRAIN_BASE_URL"))
    else:
        wanted = {config.brain.model_for(role) for role in ROLES}
        missing = sorted(m for m in wanted if models and m not in models)
        print(_line(True, f"brain: {config.brain.base_url} answers ({len(models or [])} models)"))
        if missing:
            print(_line(None, f"brain: model(s) not listed by the server: {', '.join(missing)}",
                        "pull them (e.g. `ollama pull NAME`) or set brain.model / brain.models.*"))

    failures += _check_evidence(config)
    _check_notifier()
    _show_last_errors(config)
    return 1 if failures else 0


def _check_evidence(config) -> int:
    """One read of the configured source; a source that cannot read is a failure with a fix."""
    from keeltui.adapters.evidence import make_source

    try:
        source = make_source(config.evidence.source, config.evidence.command)
        snapshot = source.read()
    except Exception as exc:  # noqa: BLE001 - a broken source is reported, never fatal here
        print(_line(False, f"evidence: {exc}", "check evidence.source and evidence.command"))
        return 1
    if source.name == "none":
        print(_line(None, f"evidence: none — the sentinel has nothing to watch ({source.reason})",
                    "set evidence.source (ewmh under X11, tmux inside tmux, or a command)"))
        return 0
    if snapshot is None:
        reason = source.reason or "read nothing"
        print(_line(False, f"evidence: {source.name} cannot be read: {reason}", evidence_fix(source.name, reason)))
        return 1
    idle = "" if snapshot.idle_secs is None else f", idle {snapshot.idle_secs:.0f}s"
    print(_line(True, f"evidence: {source.name} (sees {snapshot.wm_class!r}{idle})"))
    return 0


def evidence_fix(kind: str, reason: str) -> str:
    """What to do about an evidence source that cannot be read."""
    if kind == "tmux":
        if "not installed" in reason:
            return "install tmux, or set evidence.source = \"ewmh\" (X11) or \"command\""
        return "run keeltui inside tmux, or set evidence.source = \"ewmh\" (X11) or \"command\""
    if kind == "ewmh":
        return ("run under X11 with a window manager (DISPLAY set), or set evidence.source = \"tmux\" "
                "or \"command\"")
    if "exit status 127" in reason:
        return "the shell could not find the command: fix evidence.command (it must print class<TAB>title)"
    return "fix evidence.command: it must exit 0 and print class<TAB>title (optionally <TAB>idle seconds)"


def _check_notifier() -> None:
    try:
        from keeltui.adapters.notifier import make_notifier, why_no_toasts

        notifier = make_notifier(os.environ)
        if notifier.name == "nop":
            problem, fix = why_no_toasts(os.environ)
            print(_line(None, f"notifier: none — toasts are off: {problem}", fix))
        else:
            print(_line(True, f"notifier: {notifier.name}"))
    except Exception as exc:  # noqa: BLE001 - a broken notifier is reported, never fatal here
        print(_line(False, f"notifier: {exc}"))


def _show_last_errors(config) -> None:
    from keeltui.infra.logfile import last_errors, log_path

    path = log_path(config)
    if path.is_symlink():
        print(_line(False, f"log: {path} is a symbolic link; keeltui never writes through one, so it keeps no log",
                    "remove the link"))
        return
    errors = last_errors(path)
    if not errors:
        print(_line(True, f"log: no recent warnings in {path}"))
        return
    print(_line(None, f"log: the last {len(errors)} warnings in {path}:"))
    for line in errors:
        print(f"       {line}")
