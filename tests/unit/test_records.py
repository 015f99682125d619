"""A record (keeltui/infra/records.py) behaves as the same class under ``@dataclass``: the
same construction, defaults, errors, repr, equality, hashing and freezing, and the
dataclasses module's functions see it alike."""

from __future__ import annotations

import dataclasses
from dataclasses import FrozenInstanceError, dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from keeltui.config import Config, load_config
from keeltui.infra.records import record


def twins(frozen: bool):
    """The same class body under @dataclass and under @record."""

    def body():
        class Section:
            """A section."""

            name: str
            count: int = 3
            tags: list[str] = field(default_factory=list)
            secret: str = field(default="", repr=False)
            note: str = field(default="", compare=False)
            made: int = field(default=7, init=False)

        return Section

    return dataclass(frozen=frozen)(body()), record(frozen=frozen)(body())


CALLS = [
    ((), {}),                                    # the required field missing
    (("a",), {}),
    (("a", 4), {"tags": ["x"]}),
    (("a",), {"count": 5, "secret": "s", "note": "n"}),
    (("a", 1, ["t"], "s", "n"), {}),
    (("a", 1, ["t"], "s", "n", "extra"), {}),   # one positional too many
    (("a",), {"name": "b"}),                     # a field given twice
    (("a",), {"nope": 1}),                       # no such field
    (("a",), {"made": 1}),                       # not an __init__ field
]


def outcome(cls, args, kwargs):
    try:
        made = cls(*args, **kwargs)
    except TypeError:
        return "TypeError"
    return (repr(made).replace(cls.__qualname__, "X"), dataclasses.asdict(made), made.made)


@pytest.mark.parametrize("frozen", [False, True])
@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_a_record_is_built_as_its_dataclass_twin_is(frozen, args, kwargs):
    plain, fast = twins(frozen)
    assert outcome(fast, args, kwargs) == outcome(plain, args, kwargs)


@given(name=st.text(max_size=5), count=st.integers(), other=st.integers(), note=st.text(max_size=3))
def test_equality_and_hashing_follow_the_compared_fields(name, count, other, note):
    for frozen in (False, True):
        plain, fast = twins(frozen)
        for cls in (plain, fast):
            a, b = cls(name, count, (), note=note), cls(name, other, (), note=note + "!")  # () : hashable tags
            assert (a == b) == (count == other)  # `note` is not compared
            assert a != (plain if cls is fast else fast)(name, count, ())  # another class: never equal
            if frozen:
                assert (hash(a) == hash(b)) or count != other
        if frozen:
            assert hash(plain(name, count, ())) == hash(fast(name, count, ()))
        else:
            with pytest.raises(TypeError):
                hash(fast(name, count))  # mutable with eq, as a dataclass: unhashable


def test_a_frozen_record_refuses_changes_and_replace_makes_a_new_one():
    _, fast = twins(True)
    made = fast("a")
    with pytest.raises(FrozenInstanceError):
        made.count = 4  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del made.count  # type: ignore[misc]
    changed = dataclasses.replace(made, count=9)
    assert (changed.count, made.count, changed.name) == (9, 3, "a")
    assert dataclasses.is_dataclass(made) and [f.name for f in dataclasses.fields(made)][:2] == ["name", "count"]


def test_each_record_gets_its_own_default_list():
    _, fast = twins(False)
    first, second = fast("a"), fast("b")
    first.tags.append("x")
    assert second.tags == []


def test_post_init_runs_and_a_class_of_its_own_methods_keeps_them():
    @record
    class Checked:
        value: int = 0

        def __post_init__(self) -> None:
            if self.value < 0:
                raise ValueError("negative")

        def __repr__(self) -> str:
            return "mine"

    assert repr(Checked(1)) == "mine"
    with pytest.raises(ValueError):
        Checked(-1)


def test_the_config_built_from_records_reads_and_compares_as_before(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[owner]\nname = "Ada"\n[brain]\nmodel = "m"\n[chief]\nkeep_recent = 4\n')
    config = load_config(path, env={})
    assert (config.owner.name, config.brain.model, config.chief.keep_recent) == ("Ada", "m", 4)
    assert config == load_config(path, env={}) and config != Config()
    assert "OwnerConfig(name='Ada', companion='Chief')" in repr(config)
