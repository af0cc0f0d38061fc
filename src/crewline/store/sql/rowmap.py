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


def _compile(
    cls: type, columns: tuple[str, ...], *, decoding: bool
) -> tuple[list[str], Callable[[str, str], Callable[..., Any]]]:
    """Each column's value as Python text (an item of the row ``r`` when ``decoding``, else
    an attribute of the value ``r``, converted), and what compiles a function of ``r``
    returning a given expression of them."""
    hints = typing.get_type_hints(cls)
    kinds = {f.name: _kind(hints[f.name]) for f in dataclasses.fields(cls)}
    scope: dict[str, Any] = {"_cls": cls}
    texts = []
    for n, column in enumerate(columns):
        kind, optional = kinds[column]
        value = f"r[{n}]" if decoding else f"r.{column}"
        convert = _conversions(kind)[0 if decoding else 1]
        if convert is not None:
            scope[f"_c{n}"] = convert
            call = f"_c{n}({value})"
            value = f"(None if {value} is None else {call})" if optional else call
        texts.append(value)

    def compiled(name: str, body: str) -> Callable[..., Any]:
        namespace: dict[str, Any] = {}
        exec(f"def {name}(r):\n    return {body}\n", scope, namespace)
        function: Callable[..., Any] = namespace[name]
        return function

    return texts, compiled


def decoder(cls: type[T], columns: tuple[str, ...]) -> Callable[[Sequence[Any]], T]:
    """A function making a ``cls`` from a row holding ``columns`` in that order (each a
    field of ``cls``; fields not among them take their defaults)."""
    texts, compiled = _compile(cls, columns, decoding=True)
    arguments = ", ".join(f"{c}={text}" for c, text in zip(columns, texts, strict=True))
    return compiled(f"decode_{cls.__name__}", f"_cls({arguments})")


def encoder(cls: type[T], columns: tuple[str, ...]) -> Callable[[T], tuple[Any, ...]]:
    """A function giving the column values of a ``cls``, for ``columns`` in that order."""
    texts, compiled = _compile(cls, columns, decoding=False)
    return compiled(f"encode_{cls.__name__}", f"({', '.join(texts)},)")
