"""``record``: a dataclass whose methods are shared by every record, not compiled per class.

Python 3.11's ``@dataclass`` writes each class its own ``__init__``, ``__repr__`` and
``__eq__`` (a frozen one also ``__setattr__``, ``__delattr__`` and ``__hash__``) as source
text and compiles each: 0.3 ms a class, 0.5 ms a frozen one. keeltui defines ~25 of them
before its first frame (the typed config alone 16), ~8 ms of a start held to 1.3x a bare
Textual app's. A record is a dataclass in every other way (``dataclasses.fields``,
``replace``, ``asdict``, ``is_dataclass``, field defaults, ``repr=False``/``compare=False``);
its methods read the fields when called. A class built in a hot loop (the store's ``Row``,
one per row read) stays a plain dataclass: its compiled ``__init__`` is the faster one.

Pure: no Textual.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError, Field
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")


def _init_fields(cls: type) -> tuple[tuple[Field, ...], tuple[Field, ...]]:
    """(the fields ``__init__`` takes, in order; the others with a default), kept on the class."""
    kept = cls.__dict__.get("__record_fields__")
    if kept is None:
        every = dataclasses.fields(cls)
        kept = (tuple(f for f in every if f.init), tuple(f for f in every if not f.init))
        cls.__record_fields__ = kept  # type: ignore[attr-defined]
    return kept


def _default(cls: type, f: Field) -> Any:
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    raise TypeError(f"{cls.__qualname__}.__init__() missing 1 required argument: {f.name!r}")


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    taken, others = _init_fields(cls)
    if len(args) > len(taken):
        raise TypeError(f"{cls.__qualname__}.__init__() takes {len(taken)} positional arguments but {len(args)} were given")
    put = object.__setattr__  # as a frozen dataclass's own __init__ does
    for f, value in zip(taken, args, strict=False):  # fewer args than fields: defaults follow
        if f.name in kwargs:
            raise TypeError(f"{cls.__qualname__}.__init__() got multiple values for argument {f.name!r}")
        put(self, f.name, value)
    for f in taken[len(args):]:
        put(self, f.name, kwargs.pop(f.name) if f.name in kwargs else _default(cls, f))
    if kwargs:
        raise TypeError(f"{cls.__qualname__}.__init__() got an unexpected keyword argument {next(iter(kwargs))!r}")
    for f in others:
        if f.default is not MISSING or f.default_factory is not MISSING:
            put(self, f.name, _default(cls, f))
    post_init = getattr(self, "__post_init__", None)
    if post_init is not None:
        post_init()


def _repr(self: Any) -> str:
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self) if f.repr)
    return f"{type(self).__qualname__}({shown})"


def _compared(self: Any) -> tuple:
    return tuple(getattr(self, f.name) for f in dataclasses.fields(self) if f.compare)


def _eq(self: Any, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _compared(self) == _compared(other)


def _hash(self: Any) -> int:
    return hash(_compared(self))


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, frozen: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(dataclasses.field, Field))
def record(cls: type[T] | None = None, /, *, frozen: bool = False) -> Any:
    """``@record`` or ``@record(frozen=True)``: as ``@dataclass``, with shared methods."""

    def make(cls: type[T]) -> type[T]:
        if not cls.__dict__.get("__doc__"):
            cls.__doc__ = cls.__name__  # else dataclass asks inspect for a signature (slow)
        cls = dataclasses.dataclass(cls, init=False, repr=False, eq=False)
        for name, method in (("__init__", _init), ("__repr__", _repr), ("__eq__", _eq)):
            if name not in cls.__dict__:
                setattr(cls, name, method)
        if frozen:
            cls.__setattr__ = _frozen_setattr  # type: ignore[method-assign]
            cls.__delattr__ = _frozen_delattr  # type: ignore[method-assign]
            cls.__hash__ = _hash  # type: ignore[method-assign]
        else:
            cls.__hash__ = None  # type: ignore[method-assign,assignment]  # as a mutable dataclass with eq
        return cls

    return make if cls is None else make(cls)
