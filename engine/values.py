"""Fast construction of the engine's frozen value types where it is the hot path.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__`` (the class forbids plain
assignment). Validating and scoring a play builds a handful of such values (the play, its words, the replay's
step), and that detour was a fifth of the time. ``builder(cls)`` returns a function that fills an instance of a
plain twin class (the same slots, no ``__setattr__``: each field is one ordinary slot store) and then turns it into
``cls`` by assigning ``__class__`` (Python allows that between classes with the same slots): the same object as
``cls(...)`` builds, at about half the cost of setting the frozen slots through their descriptors and a third of
the cost of the dataclass's own ``__init__`` (instructions counted with valgrind; see docs/engine.md, "Speed").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def builder(cls: type[T]) -> Callable[..., T]:
    """A function taking every field of ``cls`` positionally, in declaration order, and returning the instance.

    ``cls`` must be a slotted dataclass of plain slots (no ``__weakref__`` or ``__dict__``) without
    ``__post_init__`` (nothing would run it); raises TypeError otherwise. Defaults do not apply: pass every field.
    """
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"builder: {cls.__name__} is not a slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"builder: {cls.__name__} has a __post_init__ that a builder would skip")
    names = [f.name for f in dataclasses.fields(cls)]
    if tuple(cls.__slots__) != tuple(names) or cls.__bases__ != (object,):  # type: ignore[attr-defined]
        raise TypeError(f"builder: {cls.__name__} has slots other than its fields or a base class")
    twin = type(f"_Building{cls.__name__}", (), {"__slots__": tuple(names)})
    lines = [f"def build_{cls.__name__}({', '.join(names)}):", "    obj = _twin()"]
    lines += [f"    obj.{name} = {name}" for name in names]
    lines += ["    obj.__class__ = _cls", "    return obj"]
    namespace: dict[str, Any] = {"_cls": cls, "_twin": twin}
    exec("\n".join(lines), namespace)  # noqa: S102 - source built from the class's own field names
    return namespace[f"build_{cls.__name__}"]  # type: ignore[no-any-return]
