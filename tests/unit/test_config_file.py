"""Settings chosen in the app are written back into config.toml: comments, mode and links kept."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings, strategies as st

from keeltui.adapters.config_file import ConfigWriteError, write_settings
from keeltui.config import load_config

FILE = '''# mine: do not lose this
[brain]
base_url = "http://127.0.0.1:9/v1"  # the local box
model = "llama3.2"

[brain.models]
judge = "small"  # cheap judge

[ambient]
mode = "off"
'''


def test_a_key_is_set_and_every_comment_kept(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(FILE)
    os.chmod(path, 0o600)
    write_settings(path, {"brain.models.chief": "qwen3:8b", "brain.models.judge": "tiny"})
    text = path.read_text()
    for comment in ("# mine: do not lose this", "# the local box"):
        assert comment in text
    config = load_config(path, env={})
    assert (config.brain.models.chief, config.brain.models.judge, config.brain.model) == ("qwen3:8b", "tiny", "llama3.2")
    assert os.stat(path).st_mode & 0o777 == 0o600


def test_a_missing_table_or_file_is_created_owner_only(tmp_path):
    path = tmp_path / "new" / "config.toml"
    write_settings(path, {"chief.system_prompt": "Be brief."})
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert load_config(path, env={}).chief.system_prompt == "Be brief."


def test_a_symlinked_config_is_written_through_its_link(tmp_path):
    real = tmp_path / "dotfiles" / "keeltui.toml"
    real.parent.mkdir()
    real.write_text(FILE)
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    write_settings(link, {"brain.models.chief": "x"})
    assert link.is_symlink() and load_config(link, env={}).brain.models.chief == "x"


def test_a_file_it_cannot_parse_is_left_alone_with_one_line(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[brain\nbroken")
    with pytest.raises(ConfigWriteError) as caught:
        write_settings(path, {"brain.models.chief": "x"})
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)
    assert path.read_text() == "[brain\nbroken"


@settings(max_examples=60, deadline=None)
@given(prompt=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=80))
def test_any_persona_text_reads_back_exactly(tmp_path_factory, prompt):
    path = tmp_path_factory.mktemp("persona") / "config.toml"
    path.write_text(FILE)
    try:
        write_settings(path, {"chief.system_prompt": prompt})
    except ConfigWriteError:
        assert path.read_text() == FILE  # refused whole, never half written
        return
    assert load_config(path, env={}).chief.system_prompt == prompt
