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


# The JSON parser's own scanner (C): one value from an index of a text, and where it ended.
_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def loads(text: str) -> Any:
    """A stored JSON text as its value, as ``json.loads`` reads it. A text this store wrote
    is one compact value, so the parser's scanner reads it at once, without the checks for
    whitespace around it that ``json.loads`` makes in Python first (about a microsecond a
    column: several columns are decoded on every look-up); any other text (whitespace
    around it, not JSON, not a string) goes to ``json.loads`` for its value or its error."""
    try:
        value, end = _SCAN(text, 0)
    except (StopIteration, TypeError):
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


def _tuple(text: str) -> tuple[Any, ...]:
    return tuple(loads(text))


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
        return loads, dumps
    if kind is bool:
        return bool, int
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return kind, lambda value: value.value
    return None, None


def _compile(
    cls: type, columns: tuple[str, ...], *, decoding: bool
) -> tuple[list[str], Callable[..., Callable[..., Any]]]:
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

    def compiled(
        name: str, body: str, *, steps: Sequence[str] = (), extra: Mapping[str, Any] | None = None
    ) -> Callable[..., Any]:
        """``def name(r)``: ``steps``, one statement each, then ``return body``."""
        namespace: dict[str, Any] = {}
        lines = "".join(f"    {step}\n" for step in (*steps, f"return {body}"))
        exec(f"def {name}(r):\n{lines}", {**scope, **(extra or {})}, namespace)
        function: Callable[..., Any] = namespace[name]
        return function

    return texts, compiled


def decoder(cls: type[T], columns: tuple[str, ...]) -> Callable[[Sequence[Any]], T]:
    """A function making a ``cls`` from a row holding ``columns`` in that order (each a
    field of ``cls``; fields not among them take their defaults).

    A dataclass with slots is filled slot by slot, as its ``__init__`` would fill it, without
    calling it: a frozen dataclass's ``__init__`` takes its fields as keywords and sets each
    through ``object.__setattr__``, about half of what decoding a small value cost. A class
    without slots, or with a ``__post_init__`` (which this would skip), is made by its
    ``__init__``."""
    texts, compiled = _compile(cls, columns, decoding=True)
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    slots = {f.name: cls.__dict__.get(f.name) for f in fields}
    if hasattr(cls, "__post_init__") or not all(
        isinstance(slot, types.MemberDescriptorType) for slot in slots.values()
    ):
        arguments = ", ".join(f"{c}={text}" for c, text in zip(columns, texts, strict=True))
        return compiled(f"decode_{cls.__name__}", f"_cls({arguments})")
    given = dict(zip(columns, texts, strict=True))
    scope: dict[str, Any] = {"_new": object.__new__}
    steps = ["o = _new(_cls)"]
    for n, field in enumerate(fields):
        scope[f"_s{n}"] = slots[field.name].__set__  # type: ignore[union-attr]
        if field.name in given:
            value = given[field.name]
        elif field.default is not dataclasses.MISSING:
            scope[f"_d{n}"] = field.default
            value = f"_d{n}"
        elif field.default_factory is not dataclasses.MISSING:
            scope[f"_f{n}"] = field.default_factory
            value = f"_f{n}()"
        else:
            raise ValueError(f"{cls.__name__}.{field.name} has no default and no column")
        steps.append(f"_s{n}(o, {value})")
    return compiled(f"decode_{cls.__name__}", "o", steps=steps, extra=scope)


def encoder(cls: type[T], columns: tuple[str, ...]) -> Callable[[T], tuple[Any, ...]]:
    """A function giving the column values of a ``cls``, for ``columns`` in that order."""
    texts, compiled = _compile(cls, columns, decoding=False)
    return compiled(f"encode_{cls.__name__}", f"({', '.join(texts)},)")
