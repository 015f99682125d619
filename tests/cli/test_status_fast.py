"""`keeltui status` as tmux runs it: the fast path prints what the full path prints, and
imports nothing but what reads the status file, with a config file and without one,
with the app running and not (issue 19)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from keeltui.status.file import write_status
from keeltui.infra.paths import config_stamp
from keeltui.status.render import StatusState, render_status

# Everything `keeltui status` may import on its fast path beyond what Python's start
# (site) has loaded: keeltui's status modules, the XDG folders, the process probe and the
# C half of json (the json package would bring re, enum and more: as much again as the
# rest of the call).
FAST_PATH_MODULES = {
    "keeltui", "keeltui.__main__", "keeltui.status", "keeltui.status.fast", "keeltui.status.line",
    "keeltui.infra", "keeltui.infra.xdg", "keeltui.adapters", "keeltui.adapters.process_probe", "_json",
}

# "fast": the console script's main(), as tmux runs it; "full": argparse and the typed config, always.
PROBE = """
import sys
before = set(sys.modules)
mode, argv = sys.argv[1], sys.argv[2:]
try:
    if mode == "fast":
        from keeltui.__main__ import main
        sys.argv = ["keeltui", *argv]
        code = main()
    else:
        from keeltui.cli import commands as cli
        args = cli.build_parser().parse_args(argv)
        code = cli._guarded(cli.COMMANDS[args.command], args)
except SystemExit as exc:  # a bad config: exit 2 after its one line
    code = exc.code
new = sorted(set(sys.modules) - before)
sys.stdout.flush()
print("\\x00" + repr(new))
sys.exit(code)
"""


class Run:
    def __init__(self, proc: subprocess.CompletedProcess) -> None:
        out, _, mods = proc.stdout.rpartition("\x00")
        self.code = proc.returncode
        self.stdout = out
        self.stderr = proc.stderr
        self.modules = set(ast.literal_eval(mods)) if mods.strip() else set()

    @property
    def fast(self) -> bool:
        return "keeltui.config" not in self.modules


@pytest.fixture
def home(tmp_path):
    """A newcomer's home: no config file, no state folder (the app never ran)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KEEL_")}
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_DATA_HOME=str(tmp_path / "data"))
    return env


def status(env: dict, *argv: str, mode: str = "fast", extra: dict | None = None) -> Run:
    proc = subprocess.run([sys.executable, "-c", PROBE, mode, *argv], capture_output=True, text=True, timeout=60,
                          env={**env, **(extra or {})})
    return Run(proc)


def both(env: dict, *argv: str, extra: dict | None = None) -> tuple[Run, Run]:
    """The same call through the fast path (which must take it) and the full path."""
    fast, full = status(env, *argv, extra=extra), status(env, *argv, mode="full", extra=extra)
    assert fast.fast, f"the fast path was not taken: {sorted(fast.modules)}"
    assert fast.modules <= FAST_PATH_MODULES, f"the fast path imported {sorted(fast.modules - FAST_PATH_MODULES)}"
    assert (fast.code, fast.stdout, fast.stderr) == (full.code, full.stdout, full.stderr)
    return fast, full


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def as_app(env: dict, status_file, line: str, config: str | None = None, pid: int | None = None) -> None:
    """Write the status file as the running app does (its stamp: the config it validated, in its environment)."""
    saved = dict(os.environ)
    try:
        os.environ.clear()
        os.environ.update(env)
        stamp = config_stamp(config)
        write_status(status_file, line, pid=pid if pid is not None else os.getpid(), config_stamp=stamp)
    finally:
        os.environ.clear()
        os.environ.update(saved)


def test_a_newcomer_with_no_config_file_takes_the_fast_path(home, tmp_path):
    fast, _ = both(home, "status")
    assert fast.stdout == "keeltui not running\n"
    assert not (tmp_path / "state").exists()  # a status call creates no folder of its own


def test_no_config_file_with_the_app_running_stale_and_quiet(home, tmp_path):
    status_file = tmp_path / "state" / "keeltui" / "status"
    as_app(home, status_file, "⚠ #3 on reddit")
    assert both(home, "status")[0].stdout == "⚠ #3 on reddit\n"
    assert both(home, "status", "--tmux")[0].stdout == "⚠ ##3 on reddit\n"
    as_app(home, status_file, render_status(StatusState(quiet=True, ambient_line="secret drift")))
    assert both(home, "status")[0].stdout == "◌ Quiet Mode\n"
    as_app(home, status_file, "⚠ left behind", pid=dead_pid())  # the app was killed: the file is stale
    assert both(home, "status", "--tmux")[0].stdout == "keeltui not running\n"


def test_a_config_file_the_running_app_validated(home, tmp_path):
    cfg = tmp_path / "c.toml"
    status_file = tmp_path / "elsewhere" / "status"
    cfg.write_text(f'[ambient]\nmode = "off"\n\n[paths]\nstatus_file = "{status_file}"  # for tmux\n')
    as_app(home, status_file, "focus: #1 the report (20m left)", config=str(cfg))
    fast, _ = both(home, "--config", str(cfg), "status", "--tmux")
    assert fast.stdout == "focus: ##1 the report (20m left)\n"
    cfg.write_text(cfg.read_text() + '[brain]\nmodel = "other"\n')  # edited since: validated once more, the full way
    assert not status(home, "--config", str(cfg), "status").fast


def test_an_environment_override_is_validated_before_it_is_trusted(home, tmp_path):
    bad = status(home, "status", extra={"KEEL_AMBIENT_MODE": "shouty"})
    assert bad.code == 2 and "KEEL_AMBIENT_MODE" in bad.stderr and not bad.fast
    # The app ran with a valid override: its stamp names it, so the same environment is trusted.
    status_file = tmp_path / "state" / "keeltui" / "status"
    as_app({**home, "KEEL_AMBIENT_MODE": "off"}, status_file, "ambient off")
    fast, _ = both(home, "status", extra={"KEEL_AMBIENT_MODE": "off"})
    assert fast.stdout == "ambient off\n"
    assert not status(home, "status", extra={"KEEL_AMBIENT_MODE": "status"}).fast  # another value: checked again


def test_an_explicit_config_file_that_is_missing_goes_the_full_way(home, tmp_path):
    run = status(home, "--config", str(tmp_path / "nowhere.toml"), "status")
    assert run.code == 2 and "nowhere.toml" in run.stderr and not run.fast


@pytest.mark.parametrize("text, expected", [
    ("", ""),
    ('[paths]\nstatus_file = "/x/s"\n', "/x/s"),
    ('[paths]\n  status_file="/x/s"   # tmux\n', "/x/s"),
    ('[paths]\nstatus_file = ""\n', ""),
    ("[paths]\nstatus_file = '/x/literal'\n", "/x/literal"),  # the TOML parser reads the rarer forms
    ('[paths]\nstatus_file = "/x/\\u0073"\n', "/x/s"),
    ('[paths]\nstatus_file = 3\n', None),  # a wrong type: the full path reports it
    ('[paths]\nstatus_file = "/x\n', None),  # a syntax error: likewise
])
def test_the_status_file_read_straight_from_the_toml(text, expected):
    from keeltui.status.fast import status_file_from

    assert status_file_from(text) == expected


def test_the_app_and_the_fast_path_agree_on_the_stamp(home, tmp_path, monkeypatch):
    """The stamp the app writes is the one the fast path compares: one definition."""
    from keeltui.infra import xdg

    monkeypatch.setenv("KEEL_BRAIN_MODEL", "m")
    assert config_stamp(None) == xdg.config_stamp(None)
    assert "KEEL_BRAIN_MODEL=m" in config_stamp(None)


def test_a_reader_that_left_gets_no_traceback(home):
    """tmux gave up on a slow call: the fast path exits 0 quietly, as the full path does."""
    read, write = os.pipe()
    os.close(read)  # nobody reads: the write fails with EPIPE
    try:
        proc = subprocess.run([sys.executable, "-c", "import sys; from keeltui.cli.commands import main; sys.exit(main(['status']))"],
                              stdout=write, stderr=subprocess.PIPE, text=True, timeout=60, env=home)
    finally:
        os.close(write)
    assert proc.returncode == 0 and proc.stderr == ""


@pytest.mark.parametrize("text", ["", '{"line": "half', "[1, 2]", "\\u0000"])
def test_a_status_file_that_is_not_the_apps_reads_as_not_running(tmp_path, text):
    from keeltui.status.fast import NOT_RUNNING, read_payload

    path = tmp_path / "status"
    assert read_payload(str(path)) == (NOT_RUNNING, "")  # no file at all
    path.write_text(text)
    assert read_payload(str(path)) == (NOT_RUNNING, "")


def imported_by(argv: list[str], env: dict) -> set[str]:
    """The modules ``python -X importtime`` names for a run of ``argv``."""
    proc = subprocess.run([sys.executable, "-X", "importtime", *argv], capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr[-500:]
    return {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")} - {
        "imported package"}


def test_tmuxs_call_of_the_console_script_loads_only_the_fast_path(home, tmp_path):
    """What tmux runs, the installed ``keeltui`` script, imports nothing more than the fast
    path (no module of all the commands, no json package) beyond Python's own start."""
    script = Path(sys.executable).with_name("keeltui")
    if not script.exists():
        pytest.skip(f"no console script beside {sys.executable} (keeltui is not installed in this Python)")
    startup = imported_by(["-c", "pass"], home)
    for app_ran in (False, True):  # no status file (never ran); the file a running app wrote
        if app_ran:
            as_app(home, tmp_path / "state" / "keeltui" / "status", "⚠ #3 on reddit")
        for argv in (["status", "--tmux"], ["status"]):
            extra = imported_by([str(script), *argv], home) - startup
            assert extra <= FAST_PATH_MODULES, f"keeltui {' '.join(argv)} imported {sorted(extra - FAST_PATH_MODULES)}"


def test_pythons_start_in_this_venv_runs_no_import_hook(home):
    """``make install`` puts the repo on sys.path with a plain line in a .pth file: every
    start of the venv's Python (each `keeltui status` tmux runs) pays no import hook, and so
    none of what one imports (pathlib, re, importlib.util, urllib.parse)."""
    proc = subprocess.run([sys.executable, "-c", "import sys; print(repr((sorted(sys.modules), sys.path)))"],
                          capture_output=True, text=True, timeout=60, env=home, cwd="/")
    modules, path = ast.literal_eval(proc.stdout)
    loaded = set(modules)
    assert not {name for name in loaded if name.startswith("__editable__")}, sorted(loaded)
    assert not loaded & {"pathlib", "re", "importlib.util", "urllib.parse"}, sorted(loaded)
    import keeltui

    assert str(Path(keeltui.__file__).resolve().parent.parent) in path  # the plain path line: the repo itself


def _json_both(text: str):
    """(json.loads's answer, the fast path's): a value, or ValueError for both."""
    import json

    from keeltui.status.fast import json_loads

    answers = []
    for loads in (json.loads, json_loads):
        try:
            answers.append(("value", loads(text)))
        except ValueError:
            answers.append(("error", None))
    return answers


@pytest.mark.parametrize("text", [
    '{"line": "⚠ #3 on reddit", "pid": 12, "config": "/c:1:2\\u0000KEEL_X=1", "at": 1.5e9}',
    '  \n{"line": "\\ud83d\\ude00 \\"quoted\\" \\\\ back"}\t\r\n', '{"at": NaN, "b": -Infinity}', "[1, 2]", '"x"',
    "", " ", "\ufeff{}", '{"a": 1} {"b": 2}', '{"a": 1}x', '{"line": "half', "{'a': 1}", '{"a": 1,}', "nul", "1e999",
])
def test_the_fast_path_reads_json_as_json_loads_does(text):
    json_answer, fast_answer = _json_both(text)
    assert repr(fast_answer) == repr(json_answer)  # repr: NaN is not equal to itself


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                    max_leaves=12))
def test_any_json_the_app_could_write_reads_back_the_same(value):
    import json

    for text in (json.dumps(value, ensure_ascii=False), json.dumps(value)):
        json_answer, fast_answer = _json_both(text)
        assert repr(fast_answer) == repr(json_answer)


@given(st.text(alphabet='{}[]":,. 0123456789eE+-tfnrulasNIaiy\\\\u\n\t\ufeff', max_size=30))
def test_any_text_reads_as_json_loads_reads_it(text):
    json_answer, fast_answer = _json_both(text)
    assert repr(fast_answer) == repr(json_answer)
