"""Fuzzing keeps it that way (issue 10, point 10).

Hypothesis over the shapes of streamed chunks (any JSON value in any field, through
the real openai client and the loopback server into a real SQLite room), report
bytes, and config values. Asserted every time: no exception escapes, the owner's turn
is kept, nothing unsanitised reaches the screen. Example counts stay modest: the
suite must stay quick on a shared 2-core machine.
"""

from __future__ import annotations

import asyncio
import io
import json
import math
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st
from rich.console import Console

from keeltui.brain import Brain
from keeltui.config import Config, ConfigError, iter_keys, load_config
from rich.console import Group

from keeltui.panes.chief.row_render import row_renderables
from keeltui.services.chief_turns import ChiefTurns
from keeltui.store import Store
from tests.conftest import write_config
from keeltui_dev.loopback import LoopbackBrain, Reply

CONTROL = {chr(c) for c in range(0x20) if chr(c) not in "\n"} | {chr(0x7f)} | {chr(c) for c in range(0x80, 0xa0)}
FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
TEXTISH = st.text(max_size=20) | st.sampled_from(["\x1b[2J", "\x1b]52;c;cm0=\x07", "\x1b[201~", "\ud800", "\x9b31m"])
# Shaped like the protocol first (so the fields themselves get the odd values), anything else second.
DELTA = st.fixed_dictionaries({}, optional={
    "content": TEXTISH | JSON, "role": JSON, "tool_calls": st.lists(
        st.fixed_dictionaries({}, optional={"index": JSON, "id": JSON, "function": JSON}), max_size=2) | JSON,
}) | JSON
CHOICE = st.fixed_dictionaries({"delta": DELTA}, optional={"finish_reason": JSON, "index": JSON}) | JSON
USAGE = st.fixed_dictionaries({"prompt_tokens": JSON, "completion_tokens": JSON}) | JSON
CHUNK = st.fixed_dictionaries({}, optional={
    "choices": st.lists(CHOICE, min_size=1, max_size=2) | JSON, "usage": USAGE, "model": JSON,
}) | st.fixed_dictionaries({"error": JSON})  # an error chunk ends the stream: kept apart, or it hides the rest


def _rendered(renderable) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=80, force_terminal=True, color_system=None, legacy_windows=False).print(renderable)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def server():
    with LoopbackBrain() as brain:
        yield brain


@pytest.fixture(scope="module")
def room(server, tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz-room")
    path = write_config(folder / "config.toml", server.url, f'\n[paths]\ndatabase = "{folder / "k.db"}"\n', timeout=5)
    config = load_config(path, env={})
    store = Store(config.database_path())
    yield config, store
    store.close()


@FUZZ
@given(chunks=st.lists(CHUNK, min_size=1, max_size=4), good_first=st.booleans())
@example(chunks=[{"choices": [{"delta": {"content": 5}}]}], good_first=True)
@example(chunks=[{"choices": [{"delta": {"content": ["a"]}}]}], good_first=False)
@example(chunks=[{"choices": [{"delta": {"content": "\ud800 lone"}}]}], good_first=True)
@example(chunks=[{"usage": {"prompt_tokens": "many", "completion_tokens": [1]}}], good_first=True)
@example(chunks=[{"choices": {"0": {"delta": {"content": "x"}}}}], good_first=True)
def test_any_chunk_shape_keeps_the_turn_and_the_app(server, room, chunks, good_first):
    config, store = room
    lines = [{"choices": [{"delta": {"content": "Hello "}}]}] if good_first else []
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in lines + chunks) + "data: [DONE]\n\n"
    server.queue(Reply(raw_body=body))
    turns = ChiefTurns(store, Brain(config.brain), config)

    async def turn():
        try:
            user_id = turns.add_user_turn("fuzzed question")
            return user_id, await turns.reply(user_id)
        finally:
            await turns.brain.aclose()

    user_id, result = asyncio.run(turn())  # never raises: a broken stream is a one-line error
    assert store.message(user_id).content == "fuzzed question"
    row = store.message(result.reply_id)
    assert row.status in ("complete", "partial", "error")
    assert result.error is None or "\n" not in result.error
    row.content.encode("utf-8")  # valid text: SQLite and the terminal can take it
    shown = _rendered(Group(*row_renderables(row, "Chief")))  # as the room draws it
    assert not (set(shown) & CONTROL), repr(shown[:200])


# -- report bytes -----------------------------------------------------------------------------


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=300) | st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_any_report_bytes_land_clean(data):
    import subprocess
    import sys

    with tempfile.TemporaryDirectory() as folder:
        path = write_config(Path(folder) / "c.toml", "http://127.0.0.1:9/v1", f'\n[paths]\ndatabase = "{folder}/k.db"\n')
        done = subprocess.run([sys.executable, "-m", "keeltui", "--config", str(path), "report", "--source", "cron:fuzz", "-"],
                              input=data, capture_output=True, timeout=60)
        assert b"Traceback" not in done.stderr
        assert done.returncode in (0, 2), done.stderr  # stored, or refused (empty) with one line
        assert len(done.stderr.decode("utf-8", "replace").strip().splitlines()) <= 1
        if done.returncode == 0:
            store = Store(Path(folder) / "k.db")
            row = store.message(int(done.stdout))
            store.close()
            shown = _rendered(Group(*row_renderables(row, "Chief")))
            assert not (set(shown) & CONTROL)


# -- config values ----------------------------------------------------------------------------


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"


SCALAR = (st.booleans() | st.integers(min_value=-2**63, max_value=2**63 - 1) | st.floats()
          | st.text(max_size=40).map(lambda t: t.encode("utf-8", "replace").decode()))
VALUE = SCALAR | st.lists(SCALAR, max_size=3) | st.dictionaries(st.text("abcz_", min_size=1, max_size=6), SCALAR, max_size=2)
KEYS = list(iter_keys())


def _check_outcome(make) -> None:
    try:
        config = make()
    except ConfigError as exc:
        line = str(exc)
        assert len(line) <= 200 and "\n" not in line and not (set(line) & CONTROL), repr(line)
        return
    assert isinstance(config, Config)
    for key in ("brain.timeout_secs", "evidence.poll_secs", "ambient.judge_timeout_secs", "chief.compact_at"):
        value = config
        for name in key.split("."):
            value = getattr(value, name)
        assert math.isfinite(value) and value > 0, (key, value)
    from keeltui.keys.keyspec import parse_keys

    for spec in config.keys.values():
        assert parse_keys(spec) == spec  # only specs a key press can match
    from urllib.parse import urlsplit

    url = urlsplit(config.brain.base_url)  # what chat and doctor will do with it: no ValueError
    assert url.scheme in ("http", "https") and url.hostname and (url.port or 0) >= 0


@settings(max_examples=150, deadline=None, derandomize=True)
@given(key=st.sampled_from([*KEYS, "keys.quit", "keys.quiet"]), value=VALUE)
@example(key="brain.timeout_secs", value=math.nan)
@example(key="evidence.poll_secs", value=math.inf)
@example(key="keys.quit", value="not a key!!")
@example(key="brain.base_url", value="http://[::1")
@example(key="evidence.exclude_titles", value=["(" + "\x1b[2J" * 200])
def test_any_config_value_loads_or_says_one_short_line(key, value):
    *tables, name = key.split(".")
    text = (f"[{'.'.join(tables)}]\n" if tables else "") + f"{json.dumps(name)} = {_toml(value)}\n"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "c.toml"
        path.write_text(text, encoding="utf-8")
        _check_outcome(lambda: load_config(path, env={}))


@settings(max_examples=100, deadline=None, derandomize=True)
@given(env=st.dictionaries(
    st.sampled_from(["KEEL_AMBIENT_MODE", "KEEL_AMBIENT_CADENCE_SECS", "KEEL_BRAIN_BASE_URL", "KEEL_BRAIN_MODEL"]),
    st.text(max_size=60) | st.sampled_from(["nan", "inf", "1e999", "http://[::1", "http://h:99999", "-5", "0"]),
    max_size=4))
@example(env={"KEEL_BRAIN_BASE_URL": "http://[::1"})
@example(env={"KEEL_BRAIN_BASE_URL": "http://h:99999/v1"})
def test_any_environment_override_loads_or_says_one_short_line(env):
    _check_outcome(lambda: load_config(env=env))
