"""Issue 24.4: a [keys] remap that would fire on plain typing, or that collides with another
binding in the same place, is refused (exit 2, naming the key and the other binding);
doctor says the same."""

from __future__ import annotations

import pytest

from tests.conftest import write_config
from tests.support.tmux import run_keeltui

BAD = [
    ('quit = "enter"', "keys.quit", "'enter' is typed as text"),
    ('quit = "space"', "keys.quit", "'space' is typed as text"),
    ('chief_retry = "backspace"', "keys.chief_retry", "'backspace' is typed as text"),
    ('quiet = "x"', "keys.quiet", "'x' is typed as text"),
    ('quiet = "ctrl+q"', "keys.quiet", "'ctrl+q' is also the key of 'quit' (quit, app)"),
    ('copy_message = "i"', "keys.copy_message", "'i' is also the key of 'compose' (back to the composer, row)"),
]


@pytest.mark.parametrize("remap, key, words", BAD)
def test_a_remap_that_eats_typing_or_collides_exits_2_and_doctor_says_so(tmp_path, remap, key, words):
    config = write_config(tmp_path / "c.toml", "http://127.0.0.1:9/v1",
                          f'[paths]\ndatabase = "{tmp_path / "k.db"}"\n[keys]\n{remap}\n')
    for command in ([], ["status"], ["doctor"]):
        out = run_keeltui(config, *command)
        assert out.returncode == 2, (command, out.stdout, out.stderr)
        said = out.stderr + out.stdout
        assert f"{config}: {key}: {words}" in said, (command, said)
        assert "Traceback" not in said


def test_safe_remaps_and_the_default_escape_sharing_are_accepted(tmp_path):
    config = write_config(tmp_path / "c.toml", "http://127.0.0.1:9/v1",
                          f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "s"}"\n'
                          '[keys]\nquit = "ctrl+x"\nstop_reply = "escape,f10"\nrow_up = "k"\n')
    out = run_keeltui(config, "status")
    assert out.returncode == 0, out.stderr
