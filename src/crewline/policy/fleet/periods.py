"""Calendar periods a question and a row name: a month, a quarter, a numbered week, a year.

A question that names a period of the calendar ("precip ETS, regional model, May?", "Q3
revenue", "week 19 uptime", "the 2025 budget") asks the value of that period. A row that
names another period of the same scale and not the asked one ("March precipitation ETS for
the regional model: 0.31") gives another period's value, however well the rest of it
matches. A row that names no period of that scale contradicts nothing: "the ETS is 0.31"
may be this month's. The question is read in its code form (lowercase), so "may" counts as
the month only where it stands as one: after a word that places a period or a day's number
("for may", "in may", "14 may"), or before a number, a comma or the question's end ("may
2025", "…, may?"), never the modal ("may i …", "it may take").
"""

from __future__ import annotations

import re

from crewline.policy.wording import word_set

__all__ = ["MONTHS", "calendar_contradicted", "calendar_periods", "days_of_month"]

MONTHS = word_set(
    """january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec"""
)
# each month by its first three letters ("sept" → "sep"); "may" is read apart, below
_MONTHS = {word: word[:3] for word in MONTHS if word != "may"}
_MONTH = re.compile(
    r"(?<![\w-])(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?(?![\w-])"
)
# "may" as the month: after a word that places a period or a day's number, or before a
# number, a comma or the end of what is asked
_MAY = re.compile(r"(?<![\w-])may(?![\w-])")
_MAY_AFTER = re.compile(
    r"(?:\b(?:in|for|of|during|since|until|till|from|through|by|to|last|next|this|early|mid"
    r"|late|end|start)\s+|\d(?:st|nd|rd|th)?\s+)$"
)
_MAY_BEFORE = re.compile(r"\s*(?:\d|[?,;:]|\.(?:\s|$)|$)")
# A day of a month, in any case and either order ("4 mar", "Mar 4th", "2026-03-04"); never
# "may" ("4 may fail").
_MONTH_NAME = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DAY_OF_MONTH = re.compile(
    r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(" + _MONTH_NAME + r")\b"
    r"|\b(" + _MONTH_NAME + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?![:\d])"
    r"|\b\d{4}-(\d{2})-(\d{2})\b"
)
_MONTH_NUMBER = {
    m: n
    for n, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
_QUARTER = re.compile(r"(?<![\w-])q([1-4])(?![\w-])")
_WEEK = re.compile(r"\b(?:week|wk)\s*#?(\d{1,2})(?!\d)")
_YEAR = re.compile(r"(?<![\w./:#-])((?:19|20)\d{2})(?![\w./%-]|:\d)")


def calendar_periods(text: str) -> dict[str, frozenset[str]]:
    """The periods ``text`` names, by scale: months (as "jan" … "dec"), quarters, numbered
    weeks and years."""
    said = text.lower()
    months = {_MONTHS[m.group(1)] for m in _MONTH.finditer(said)}
    if any(
        _MAY_AFTER.search(said[: m.start()]) or _MAY_BEFORE.match(said, m.end())
        for m in _MAY.finditer(said)
    ):
        months.add("may")
    found = {
        "month": frozenset(months),
        "quarter": frozenset(_QUARTER.findall(said)),
        "week": frozenset(str(int(w)) for w in _WEEK.findall(said)),
        "year": frozenset(_YEAR.findall(said)),
    }
    return {scale: names for scale, names in found.items() if names}


def calendar_contradicted(question: str, text: str) -> bool:
    """Does the row (``text``) name a period of a scale the question names, and none of the
    question's periods of that scale ("March … ETS" for "ETS in May?"; "Q2" for "Q3")?"""
    said = calendar_periods(text)
    return any(
        scale in said and not names & said[scale]
        for scale, names in calendar_periods(question).items()
    )


def days_of_month(text: str) -> set[tuple[int, int]]:
    """The days of a month ``text`` names, as (month, day), in any case: "4 mar", "Mar 4",
    "2026-03-04". ``values_in`` reads a month's name by its capital, which a question read in
    lower case has lost."""
    days = set()
    for m in _DAY_OF_MONTH.finditer(text.lower()):
        if m.group(5):
            days.add((int(m.group(5)), int(m.group(6))))
            continue
        day, name = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        days.add((_MONTH_NUMBER[_MONTHS[name]], int(day)))
    return days
