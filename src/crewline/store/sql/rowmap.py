"""Rows to values and back by one mechanism: a value's dataclass fields say how each column
converts, so no table needs a mapper of its own.

Stored as: a moment as epoch seconds, a mapping or a tuple as JSON text, an enum as its
value, a flag as 0/1; ``X | None`` as ``X`` or NULL. Everything else is stored as it is.

A decoder (row → value) or an encoder (value → row) is made once per value class and list
of columns, when the module declaring them loads, as a function of its own (written out and
compiled, as ``dataclasses`` writes ``__init__``): a row is decoded by one call doing
exactly what a hand-written mapper would, which matters on the event loop, where SQLite's
reads and transactions run.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

__all__ = ["decoder", "dumps", "encoder", "epoch", "moment"]

T = TypeVar("T")
Decode = Callable[[Any], Any]

# What json.dumps(value, separators=(",", ":"), ensure_ascii=False) builds on every call.
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def dumps(value: Mapping[str, Any] | Sequence[Any]) -> str:
    """JSON text, compact, as every stored mapping and list is written."""
    return _ENCODER.encode(value)


def epoch(value: datetime) -> float:
    return value.timestamp()


def moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _tuple(text: str) -> tuple[Any, ...]:
    return tuple(json.loads(text))


def _kind(annotation: Any) -> tuple[Any, bool]:
    """The stored type of a field's annotation, and whether it may be None."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        assert len(inner) == 1, f"only X | None is stored, not {annotation}"
        return _kind(inner[0])[0], True
    return typing.get_origin(annotation) or annotation, False


def _conversions(kind: Any) -> tuple[Decode | None, Decode | None]:
    """(from the column, to the column) for a stored type; None: stored as it is."""
    if kind is datetime:
        return moment, epoch
    if kind is tuple:
        return _tuple, lambda value: dumps(list(value))
    if kind in (Mapping, dict, list):
        return json.loads, dumps
    if kind is bool:
        return bool, int
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return kind, lambda value: value.value
    return None, None


def _fields(cls: type) -> dict[str, tuple[Any, bool]]:
    hints = typing.get_type_hints(cls)
    return {f.name: _kind(hints[f.name]) for f in dataclasses.fields(cls)}


def _compile(name: str, body: str, scope: dict[str, Any]) -> Callable[..., Any]:
    namespace: dict[str, Any] = {}
    exec(f"def {name}(r):\n    return {body}\n", scope, namespace)
    function: Callable[..., Any] = namespace[name]
    return function


def _expression(value: str, convert: Decode | None, optional: bool, n: int) -> tuple[str, str]:
    """Python text converting ``value`` (an item of the row or an attribute of the value),
    and the name its converter is bound to."""
    if convert is None:
        return value, ""
    call = f"_c{n}({value})"
    return (f"(None if {value} is None else {call})" if optional else call), f"_c{n}"


def decoder(cls: type[T], columns: tuple[str, ...]) -> Callable[[Sequence[Any]], T]:
    """A function making a ``cls`` from a row holding ``columns`` in that order (each a
    field of ``cls``; fields not among them take their defaults)."""
    fields = _fields(cls)
    scope: dict[str, Any] = {"_cls": cls}
    arguments = []
    for n, column in enumerate(columns):
        kind, optional = fields[column]
        text, bound = _expression(f"r[{n}]", _conversions(kind)[0], optional, n)
        if bound:
            scope[bound] = _conversions(kind)[0]
        arguments.append(f"{column}={text}")
    return _compile(f"decode_{cls.__name__}", f"_cls({', '.join(arguments)})", scope)


def encoder(cls: type[T], columns: tuple[str, ...]) -> Callable[[T], tuple[Any, ...]]:
    """A function giving the column values of a ``cls``, for ``columns`` in that order."""
    fields = _fields(cls)
    scope: dict[str, Any] = {}
    values = []
    for n, column in enumerate(columns):
        kind, optional = fields[column]
        text, bound = _expression(f"r.{column}", _conversions(kind)[1], optional, n)
        if bound:
            scope[bound] = _conversions(kind)[1]
        values.append(text)
    return _compile(f"encode_{cls.__name__}", f"({', '.join(values)},)", scope)
