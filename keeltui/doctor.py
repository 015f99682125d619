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
        store = open_store(config)
        print(_line(True, f"database: {store.path} (schema version {store.schema_version}, "
                          f"{store.count(store.chief_id())} rows in the Chief room)"))
    except StoreError as exc:
        failures += 1
        print(_line(False, f"database: {exc}", "move the file aside or set paths.database"))

    from keeltui.brain import BrainError

    key_note = f"API key from ${config.brain.api_key_env}: {'set' if config.api_key else 'not set'}"
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
        print(_line(False, f"brain: {problem} ({key_note})",
                    f"start a server at {config.brain.base_url} (e.g. `ollama serve`) or set brain.base_url "
                    "/ KEEL_BRAIN_BASE_URL"))
    else:
        wanted = {config.brain.model_for(role) for role in ROLES}
        missing = sorted(m for m in wanted if models and m not in models)
        print(_line(True, f"brain: {config.brain.base_url} answers ({len(models or [])} models; {key_note})"))
        if missing:
            print(_line(None, f"brain: model(s) not listed by the server: {', '.join(missing)}",
                        "pull them (e.g. `ollama pull NAME`) or set brain.model / brain.models.*"))

    try:
        from keeltui.ambient.evidence import make_source

        source = make_source(config.evidence.source, config.evidence.command)
        snapshot = source.read()
        if source.name == "none":
            print(_line(None, "evidence: none — the sentinel has nothing to watch",
                        "set evidence.source (ewmh under X11, tmux inside tmux, or a command)"))
        else:
            seen = f"sees {snapshot.wm_class!r}" if snapshot else "nothing read yet"
            print(_line(True, f"evidence: {source.name} ({seen})"))
    except Exception as exc:  # a broken source is reported, never fatal here
        print(_line(False, f"evidence: {exc}", "check evidence.source and evidence.command"))

    try:
        from keeltui.ambient.notifier import make_notifier

        notifier = make_notifier(os.environ)
        if notifier.name == "nop":
            print(_line(None, "notifier: none — toasts are off",
                        "install libnotify-bin (notify-send) or run inside tmux"))
        else:
            print(_line(True, f"notifier: {notifier.name}"))
    except Exception as exc:
        print(_line(False, f"notifier: {exc}"))
    return 1 if failures else 0
