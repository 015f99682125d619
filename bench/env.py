"""A throw-away home for one benchmark run: XDG dirs, config files, databases."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench"
WORK = BENCH / ".work"
VENV_BIN = REPO / ".venv" / "bin"
PYTHON = str(VENV_BIN / "python")
KEELTUI = str(VENV_BIN / "keeltui")
FLOOR_APP = str(BENCH / "floor_app.py")
LAST_ROW_MARK = "LASTROW-MARK-100000"


class Workspace:
    """Temp XDG dirs and the files each subject needs; removed on close."""

    def __init__(self) -> None:
        WORK.mkdir(parents=True, exist_ok=True)
        self.root = Path(tempfile.mkdtemp(prefix="run-", dir=WORK))
        self._n = 0
        self.env = self.base_env(self.root / "home")

    @staticmethod
    def base_env(home: Path) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TMUX", "KEEL_"))}
        env.pop("NO_COLOR", None)
        # As installed, Python caches compiled modules; with this set (some shells and CI do) every start of
        # keeltui recompiles its ~30 modules (~20 ms in cProfile: builtins.compile under the import system).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for name in ("CONFIG", "DATA", "STATE", "CACHE"):
            path = home / name.lower()
            path.mkdir(parents=True, exist_ok=True)
            env[f"XDG_{name}_HOME"] = str(path)
        env["HOME"] = str(home)
        env["COLORTERM"] = "truecolor"
        env["TERM"] = "tmux-256color"
        env["OPENAI_API_KEY"] = "bench-key"
        return env

    def fresh_dir(self, name: str) -> Path:
        self._n += 1
        path = self.root / f"{self._n:03d}-{name}"
        path.mkdir(parents=True)
        return path

    def keeltui_config(
        self, brain_url: str, database: Path | None = None, *, ambient: bool = False, name: str = "k"
    ) -> Path:
        """A config file; a fresh empty database unless ``database`` is given."""
        where = self.fresh_dir(name)
        database = database or where / "keeltui.db"
        lines = [
            "[brain]", f'base_url = "{brain_url}"', 'model = "loop-model"', "timeout_secs = 120.0", "",
        ]
        if ambient:
            lines += [
                "[ambient]", 'mode = "status"', "cadence_secs = 5", "",
                "[evidence]", 'source = "command"', "command = \"printf 'xterm\\\\tbench'\"", "poll_secs = 5", "",
            ]
        else:
            lines += ["[ambient]", 'mode = "off"', "", "[evidence]", 'source = "none"', ""]
        lines += ["[paths]", f'database = "{database}"', f'status_file = "{where / "status"}"', ""]
        path = where / "config.toml"
        path.write_text("\n".join(lines))
        return path

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def seed_room(path: Path, rows: int = 100_000) -> float:
    """A Chief room of ``rows`` rows (the last one carries LAST_ROW_MARK); returns seconds."""
    from keeltui.store import Store

    t0 = time.perf_counter()
    store = Store(path)
    chief = store.chief_id()
    now = time.time() - rows * 30
    words = (
        "the plan for the week looks steady; review the notes from Monday and move the "
        "harder question to Thursday when there is more room to think it through"
    ).split()

    def row(i: int):
        text = " ".join(words[(i * 7) % len(words):] + words[: (i * 7) % len(words)])
        created = now + i * 30
        if i == rows - 1:
            return (chief, "assistant", f"The latest turn of a long room: {LAST_ROW_MARK}", None, None, "complete", created)
        if i % 50 == 49:
            return (chief, "assistant", f"Nightly backup finished ({i}). {text[:60]}", "task", "cron:backup", "complete", created)
        if i % 2 == 0:
            return (chief, "user", f"Turn {i}: {text[:80]}?", None, None, "complete", created)
        return (chief, "assistant", f"Reply {i}. {text}\n\n- one point\n- **another** point", None, None, "complete", created)

    conn = store._conn  # one transaction with executemany: the fast path
    conn.execute("BEGIN IMMEDIATE")
    conn.executemany(
        "INSERT INTO messages (conversation_id, role, content, turn_kind, source, status, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (row(i) for i in range(rows)),
    )
    conn.execute("COMMIT")
    store.close()
    return time.perf_counter() - t0
