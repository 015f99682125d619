"""Issue 24.3 and issue 20's trap 5: every failed reply says what happened, in its own words,
on the row in the room, in ``keeltui log`` and in ``export`` (never "the brain stopped answering")."""

from __future__ import annotations

from keeltui.store import Store
from keeltui_dev.loopback import Reply, free_port
from tests.conftest import write_config
from tests.support.tmux import Tmux, keeltui_command, run_keeltui

PLACEHOLDER = "Write to the Chief"


def _flat(screen: str) -> str:
    """The screen's words in one line: a row's header may wrap, under the row's bar."""
    return " ".join(screen.replace("█", " ").split())
OVERFLOW = "This model's maximum context length is 64 tokens"

# (what the owner asks, what the server answers, words the row must show)
KINDS = [
    ("one", [Reply(status=401, error_message="invalid api key")],
     "refused the API key (HTTP 401): check $LOOP_KEY"),
    ("two", [Reply(status=404, error_message="model 'loop-model' not found")],
     "has no model 'loop-model' (HTTP 404); it offers loop-a, loop-b"),
    ("three", [Reply(status=429, error_message="slow down", headers={"Retry-After": "30"})],
     "rate-limiting (HTTP 429): F5 after 30s"),
    ("four", [Reply(status=500, error_message="the GPU caught fire")],
     "failed (HTTP 500): the GPU caught fire"),
    # A context overflow folds the earlier turns into a summary first, then tries once more.
    ("five", [Reply(status=400, error_message=OVERFLOW, error_code="context_length_exceeded"),
              Reply(text="Earlier: four failed questions."),
              Reply(status=400, error_message=OVERFLOW, error_code="context_length_exceeded")],
     "did not fit the model's window (HTTP 400), even after folding 8 older rows into a summary"),
]


def _config(tmp_path, url: str):
    return write_config(
        tmp_path / "config.toml", url,
        f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n',
    ).read_text()


def test_every_failure_kind_says_its_own_words_on_screen_in_log_and_export(tmp_path, loopback, tmux, e2e_env):
    loopback.models = ["loop-a", "loop-b"]
    config = tmp_path / "config.toml"
    config.write_text(_config(tmp_path, loopback.url).replace('timeout_secs', 'api_key_env = "LOOP_KEY"\ntimeout_secs'))
    tmux.start(keeltui_command(config), {**e2e_env, "LOOP_KEY": "k-123"})
    tmux.wait_text(PLACEHOLDER)
    for asked, replies, words in KINDS:
        loopback.queue(*replies)
        tmux.type(f"question {asked}")
        tmux.send("Enter")
        # One line on the row: its header names the failure (tmux at 120 columns keeps it whole).
        screen = tmux.wait_for(lambda text: words in _flat(text), what=words)
        assert "brain stopped answering" not in screen
        if asked == "one":  # a refused key is not a missing server
            assert "ollama serve" not in screen and "brain unreachable" not in screen
    log = run_keeltui(config, "log").stdout
    export = run_keeltui(config, "export").stdout
    for _, _, words in KINDS:
        assert words in log and words in export, words
    store = Store(tmp_path / "k.db", readonly=True)
    kinds = [p.get("kind") for r in store.messages(store.chief_id()) for p in r.parts if p.get("type") == "error"]
    store.close()
    assert kinds == ["bad_key", "unknown_model", "rate_limited", "server_error", "context_too_long"]


def test_first_message_of_a_fresh_install_with_no_server_says_where_and_what_to_do(tmp_path, e2e_env):
    """Issue 20's trap 5: nothing ever answered, so nothing was "cut off" by the brain."""
    url = f"http://127.0.0.1:{free_port()}/v1"
    config = tmp_path / "config.toml"
    config.write_text(_config(tmp_path, url))
    for width, height in ((80, 24), (120, 40)):
        tmux = Tmux(width, height)
        try:
            tmux.start(keeltui_command(config), e2e_env)
            tmux.wait_text(PLACEHOLDER)
            tmux.type(f"hello at {width}")
            tmux.send("Enter")
            screen = tmux.wait_for(lambda text: "no model server answers at" in text, what="the row's words")
            flat = _flat(screen)
            assert f"no reply: no model server answers at {url}" in flat
            assert "brain stopped answering" not in screen
        finally:
            tmux.close()
    log = run_keeltui(config, "log").stdout
    assert f"[no reply: no model server answers at {url}: start it (e.g. `ollama serve`)" in log
