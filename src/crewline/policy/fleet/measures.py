"""Physical measures read by their unit: which of a row's temperatures or pressures answers.

A temperature ("-32 °C") or a pressure ("15 Pa", "0.1 mbar") is found by its unit
(``values_in``), so a row that gives one of each ("primary drying at -32 °C shelf / 0.1
mbar") answers "which shelf temperature" by its unit alone. A row that gives two of the asked
measure ("max 6.9 °C / min 3.1 °C", "cascade holding 15 Pa, corridor at 10 Pa") answers only
where the question names the word that labels one of them and none of the others ("the max
temperature"); else which one is asked is a guess, and the human is asked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from crewline.policy.fleet.asking import ValueAsk
from crewline.policy.fleet.picking import MEASURED
from crewline.policy.fleet.rows import Said
from crewline.policy.lemmas import lemma, root, tokens
from crewline.policy.values import Kind, Value
from crewline.policy.wording import word_set

__all__ = ["measure_names", "measure_unsettled"]

_BEFORE = re.compile(r"[a-z][a-z-]*|[^\sa-z]")
_LINKS = word_set("a an the at of is was to from around about")


def _label(text: str, value: Value) -> str | None:
    """The word that labels a measure, the last before it in its clause but a word that only
    links ("max 6.9 °C", "corridor at 10 Pa", "against a 121 °C setpoint": "against") or one
    that names the measure itself, of every one of its kind ("DC voltage 612 V": "dc";
    "azimuth 212°" keeps "azimuth", one angle of a dish's two)."""
    names = _NAMED_BY_UNIT.get(value.kind, frozenset())
    for word in reversed(_BEFORE.findall(text[: value.start].lower())[-4:]):
        if word in _LINKS or word in names:
            continue
        return root(lemma(word)) if word[0].isalpha() else None
    return None


def measure_unsettled(ask: ValueAsk, text: str, picked: Said, values: Sequence[Said]) -> bool:
    """Does a row give more than one of the measure picked, with no word of the question
    labelling the pick alone? ("max 6.9 °C / min 3.1 °C" for "what temperature did the
    logger show?"; "the max temperature" picks 6.9 °C.)"""
    if picked.value.kind not in MEASURED:
        return False
    same = [s for s in values if s.value.kind is picked.value.kind and s.value != picked.value]
    if not same:
        return False
    asked = {root(t.lemma) for t in tokens(ask.question or " ".join(ask.text_words))}
    mine = _label(text, picked.value)
    others = {_label(text, s.value) for s in same}
    return mine is None or mine not in asked or mine in others


# The nouns that name a physical measure itself, each the one its unit proves: "8.2 GHz" is a
# frequency, "64 kbps" a bit rate, "28.4 V" a voltage, whether the row says the noun or not.
# A noun of one measure among others ("residual", "elevation", "altitude") is never spared:
# the unit says a length or an angle, not which.
_NAMED_BY_UNIT: dict[Kind, frozenset[str]] = {
    Kind.FREQUENCY: word_set("frequency freq"),
    Kind.BITRATE: word_set("bitrate bit rate bandwidth baud speed"),
    Kind.VOLTAGE: word_set("voltage"),
    Kind.SPEED: word_set("speed velocity delta-v"),
    Kind.LENGTH: word_set("distance length"),
    Kind.ANGLE: word_set("angle"),
    Kind.AREA: word_set("area"),
    Kind.PROBABILITY: word_set("probability"),
}


def measure_names(question: str, kind: Kind) -> frozenset[str]:
    """The roots of the question's nouns that name the physical measure ``kind`` itself
    ("which frequency" of "8.2 GHz"): the value's unit says what the noun does."""
    named = _NAMED_BY_UNIT.get(kind, frozenset())
    return frozenset(
        r
        for t in tokens(question)
        if t.lemma in named
        for r in (root(t.lemma), root(t.text), t.stem)
    )
