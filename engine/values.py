"""Fast construction of the engine's frozen value types where it is the hot path.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__`` (the class forbids plain
assignment). Validating and scoring a play builds a handful of such values (the play, its words, their scores), and
that detour was a fifth of the time. ``builder(cls)`` returns a plain function that sets the slots directly: the
same object, built about twice as fast.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def builder(cls: type[T]) -> Callable[..., T]:
    """A function taking every field of ``cls`` positionally, in declaration order, and returning the instance.

    ``cls`` must be a slotted dataclass without ``__post_init__`` (nothing would run it); raises TypeError
    otherwise. Defaults do not apply: pass every field.
    """
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"builder: {cls.__name__} is not a slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"builder: {cls.__name__} has a __post_init__ that a builder would skip")
    names = [f.name for f in dataclasses.fields(cls)]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = [f"def build_{cls.__name__}({', '.join(names)}):", "    obj = _new(_cls)"]
    for name in names:
        namespace[f"_set_{name}"] = getattr(cls, name).__set__  # the slot's descriptor
        lines.append(f"    _set_{name}(obj, {name})")
    lines.append("    return obj")
    exec("\n".join(lines), namespace)  # noqa: S102 - source built from the class's own field names
    return namespace[f"build_{cls.__name__}"]  # type: ignore[no-any-return]
