"""A decoder makes the value its class's ``__init__`` would make from the same fields, also
where it fills a dataclass's slots without calling ``__init__``."""

from __future__ import annotations

import dataclasses
import enum
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from crewline.store.sql.rowmap import decoder, loads

AT = datetime(2026, 12, 5, 9, 30, tzinfo=UTC)


class Shade(enum.Enum):
    DARK = "dark"
    LIGHT = "light"


@dataclass(frozen=True, kw_only=True, slots=True)
class Slotted:
    name: str
    shade: Shade
    at: datetime
    options: tuple[str, ...] = ()
    meta: dict[str, object] = field(default_factory=dict)
    until: datetime | None = None
    held: bool = False
    note: str | None = "none"


@dataclass(frozen=True, kw_only=True)
class Plain:
    name: str
    held: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class Checked:
    name: str
    seen: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.seen.append(self.name)


def test_a_slotted_value_is_filled_as_its_init_fills_it() -> None:
    decode = decoder(Slotted, ("name", "shade", "at", "options", "meta", "until", "held"))
    row = ("radar", "dark", AT.timestamp(), '["yes","no"]', '{"k":1}', None, 1)
    made = decode(row)
    assert type(made) is Slotted
    assert made == Slotted(
        name="radar",
        shade=Shade.DARK,
        at=AT,
        options=("yes", "no"),
        meta={"k": 1},
        until=None,
        held=True,
    )
    assert made.note == "none"  # not a column: its default
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.name = "other"  # type: ignore[misc]


def test_fields_left_out_take_their_defaults_and_a_fresh_factory_value() -> None:
    decode = decoder(Slotted, ("name", "shade", "at"))
    first, second = decode(("a", "light", 0.0)), decode(("b", "light", 0.0))
    assert first == Slotted(name="a", shade=Shade.LIGHT, at=datetime.fromtimestamp(0, UTC))
    assert first.meta == {} and first.meta is not second.meta


def test_a_class_without_slots_or_with_a_post_init_is_made_by_its_init() -> None:
    assert decoder(Plain, ("name",))(("radar",)) == Plain(name="radar")
    made = decoder(Checked, ("name",))(("radar",))
    assert made.seen == ["radar"]  # __post_init__ ran


def test_a_field_with_neither_column_nor_default_is_refused_when_the_decoder_is_made() -> None:
    with pytest.raises(ValueError, match=r"Slotted\.at"):
        decoder(Slotted, ("name", "shade"))


@pytest.mark.parametrize(
    "text",
    [
        '{"k":1,"options":["yes","no"],"at":null}',
        "[]",
        '"é"',
        ' {"k": 1} ',  # whitespace around it: what json.loads reads past
        '{"k":1}\n',
        "1e400",
    ],
)
def test_a_stored_json_text_is_read_as_json_loads_reads_it(text: str) -> None:
    assert json.dumps(loads(text)) == json.dumps(json.loads(text))


@pytest.mark.parametrize("text", ['{"k":1} {}', "{", "", "nope", '{"k":1}x'])
def test_a_damaged_json_text_raises_what_json_loads_raises(text: str) -> None:
    with pytest.raises(json.JSONDecodeError) as raised:
        loads(text)
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text)
    assert str(raised.value) == str(expected.value)
