"""importlib.metadata loads on first real use (keeltui/infra/metadata_on_use.py)."""

from __future__ import annotations

import importlib.metadata as real
import subprocess
import sys
import textwrap
import zipfile

import pytest

from keeltui.infra import metadata_on_use as on_use


def _installed() -> list[str]:
    names, seen = [], set()
    for dist in real.distributions():
        name = dist.metadata["Name"]
        if name and on_use._normalize(name) not in seen:
            seen.add(on_use._normalize(name))
            names.append(name)
    return names


def test_every_installed_version_read_plainly_is_the_real_module_s():
    names = _installed()
    assert len(names) > 20
    plain = {name: on_use.plain_version(name, sys.path) for name in names}
    for name, version in plain.items():
        assert version is None or version == real.version(name), name
    # The ones the brain client's load asks for are read plainly, in any spelling of the name.
    for name in ("httpx2", "httpcore2", "pydantic", "openai", "Pydantic-Core", "typing.extensions"):
        assert on_use.plain_version(name, sys.path) == real.version(name), name


def test_a_group_of_entry_points_is_found_where_the_real_module_finds_one():
    groups = real.entry_points().groups
    assert groups  # pytest's own plugins, console scripts
    for group in groups:
        assert on_use.declares_group(group, sys.path) is True, group
    assert on_use.declares_group("pydantic", sys.path) is False  # no pydantic plugin installed
    assert tuple(real.entry_points(group="pydantic")) == on_use.entry_points(group="pydantic") == ()
    # Asked for a group someone declares, the answer is the real module's very objects.
    assert list(on_use.entry_points(group="console_scripts")) == list(real.entry_points(group="console_scripts"))


@pytest.mark.parametrize("layout, expected", [
    ({"Foo.Bar-1.2.dist-info/METADATA": "Metadata-Version: 2.1\nName: Foo.Bar\nVersion: 1.2\n\nbody\n"}, "1.2"),
    ({"foo_bar-1.2.dist-info/METADATA": "Name: foo-bar\n\nVersion: 9\n"}, None),  # not in the header
    ({"foo_bar-1.2.dist-info/RECORD": ""}, None),  # no METADATA
    ({"foo_bar-1.2.egg-info/PKG-INFO": "Version: 1.2\n"}, None),  # an egg: the real module reads it
    ({"foo_bar-1.2-py3.11.egg/EGG-INFO/PKG-INFO": "Version: 1.2\n"}, None),
    ({"other-1.0.dist-info/METADATA": "Version: 1.0\n"}, None),  # not installed
])
def test_a_version_is_read_plainly_only_from_a_plain_dist_info(tmp_path, layout, expected):
    for relative, text in layout.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    assert on_use.plain_version("foo-bar", [str(tmp_path / "missing"), str(tmp_path)]) == expected


def test_a_zip_on_the_path_leaves_the_answer_to_the_real_module(tmp_path):
    archive = tmp_path / "bundle.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("foo_bar-1.0.dist-info/METADATA", "Version: 1.0\n")
        z.writestr("foo_bar-1.0.dist-info/entry_points.txt", "[things]\na = b:c\n")
    later = tmp_path / "later"
    (later / "foo_bar-2.0.dist-info").mkdir(parents=True)
    (later / "foo_bar-2.0.dist-info" / "METADATA").write_text("Version: 2.0\n")
    assert on_use.plain_version("foo-bar", [str(archive), str(later)]) is None
    assert on_use.declares_group("things", [str(archive), str(later)]) is None
    assert on_use.plain_version("foo-bar", [str(later)]) == "2.0"


def test_an_egg_before_a_dist_info_leaves_the_answer_to_the_real_module(tmp_path):
    eggs, later = tmp_path / "eggs", tmp_path / "later"
    (eggs / "foo_bar-1.0-py3.11.egg" / "EGG-INFO").mkdir(parents=True)
    (later / "foo_bar-2.0.dist-info").mkdir(parents=True)
    (later / "foo_bar-2.0.dist-info" / "METADATA").write_text("Version: 2.0\n")
    assert on_use.plain_version("foo-bar", [str(eggs), str(later)]) is None  # the real one reads the egg's
    assert on_use.declares_group("things", [str(eggs), str(later)]) is None


def test_the_first_distribution_of_a_name_is_the_one_counted(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    (first / "foo-1.0.dist-info").mkdir(parents=True)
    (first / "foo-1.0.dist-info" / "METADATA").write_text("Version: 1.0\n")
    (second / "foo-2.0.dist-info").mkdir(parents=True)
    (second / "foo-2.0.dist-info" / "METADATA").write_text("Version: 2.0\n")
    (second / "foo-2.0.dist-info" / "entry_points.txt").write_text("[things]\nx = y:z\n")
    assert on_use.plain_version("foo", [str(first), str(second)]) == "1.0"
    assert on_use.declares_group("things", [str(first), str(second)]) is False  # shadowed, as the real counts
    assert on_use.declares_group("things", [str(second)]) is True


LOAD_THE_BRAIN_CLIENT = textwrap.dedent("""
    import sys
    from keeltui.infra import metadata_on_use
    assert "importlib.metadata" not in sys.modules
    assert metadata_on_use.install()
    from keeltui.brain import Brain
    from keeltui.config import BrainConfig
    Brain(BrainConfig(base_url="http://127.0.0.1:9/v1", model="m")).warm()
    import httpx2, httpcore2, pydantic.plugin._loader as plugins
    loaded_for_the_client = metadata_on_use.real_loaded()
    versions = (httpx2.__version__, httpcore2.__version__)
    plugins_seen = list(plugins.get_plugins())
    import importlib.metadata
    standin_answers = importlib.metadata.version("httpx2")
    importlib.metadata.distributions  # any other use loads the real module
    import importlib
    print(loaded_for_the_client, versions, plugins_seen, standin_answers,
          metadata_on_use.real_loaded(), sys.modules["importlib.metadata"] is importlib.metadata,
          importlib.metadata.version("httpx2"))
""")


def test_the_brain_client_loads_without_the_real_module_and_any_other_use_loads_it():
    done = subprocess.run([sys.executable, "-c", LOAD_THE_BRAIN_CLIENT], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    version = real.version("httpx2")
    assert done.stdout.split() == ["False", f"('{version}',", f"'{real.version('httpcore2')}')", "[]", version,
                                   "True", "True", version]
