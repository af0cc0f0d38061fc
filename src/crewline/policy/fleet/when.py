"""When a thing happened or starts, by the structure that binds a date or a time to it.

Two structures say it where the row does not write the question's word for it:

- "since T" (``began_at``): a date or time the row binds to a state by "since" is when that
  state began, a moment past ("paused since 06:40 waiting on an IPC signature"). A word of
  the state the thing is in after it ("waiting", "pending") is no plan of the moment: the
  row states T as a fact. A word of a plan before it ("will be paused since …") still is.
- "A-B" (``start_said_by_span``): a span of times or dates ("Saturday 22:00-02:00", "slot Tue
  08:00-12:00") says when the thing starts by its first value, so a question that asks when
  it starts ("begin", "open", "kick off") need not find that word in the row. Its end is no
  value of its own (``values_in`` drops a range's end), and a question that asks the end is
  left as it is: never answered by the start.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from crewline.policy.fleet.periods import calendar_periods
from crewline.policy.lemmas import root
from crewline.policy.values import Kind, Value, values_in
from crewline.policy.wording import word_set

__all__ = [
    "began_at",
    "moment_of_another_event",
    "parts_held",
    "start_for_an_end",
    "start_said_by_span",
    "state_words_aside",
    "time_words_held",
]

_MOMENTS = (Kind.DATE, Kind.TIME)
_SINCE = re.compile(r"\bsince\s+$")
# The words of a state a thing is in, said after the moment it began ("paused since 06:40
# waiting on an IPC signature"): what it is doing now, not a plan of that moment.
_STATE = re.compile(r"\b(?:waiting|awaiting|pending|not yet)\b")


def began_at(value: Value, before: str) -> bool:
    """Is ``value`` a date or time its clause binds to a state by "since", right before it:
    the moment that state began?"""
    return value.kind in _MOMENTS and _SINCE.search(before) is not None


def state_words_aside(after: str) -> str:
    """The clause after a "since" moment without the words of the state the thing is in."""
    return _STATE.sub(" ", after)


# The words that ask when a thing starts, by their roots; and every word of a start or an
# end, which a row that writes one says itself.
_START = word_set("start starts started begin begins began opens")
_START_OR_END = re.compile(
    r"\b(?:start|starts|started|begin|begins|began|kick|kicks|kicked|open|opens|opened|end"
    r"|ends|ended|finish|finishes|finished|expire|expires|expired|close|closes|closed|stop"
    r"|stops|stopped|until|till)\b"
)
# A span of two times or two dates: the first, then a dash (or "to") and the second.
_SPAN_TAIL = {
    Kind.TIME: re.compile(r"\s?[-\u2013\u2014]\s?\d{1,2}:\d{2}(?![\d:])"),
    Kind.DATE: re.compile(r"\s?[-\u2013\u2014]\s?\d{4}-\d{2}-\d{2}(?!\d)"),
}


@functools.cache
def _start_roots() -> frozenset[str]:
    """The roots of ``_START``, read when first asked: importing reads no dictionary."""
    return frozenset(root(w) for w in _START)


def _spans(text: str) -> list[Value]:
    """The first values of the spans of times or dates ``text`` states."""
    return [
        v
        for v in values_in(text)
        if v.kind in _SPAN_TAIL and _SPAN_TAIL[v.kind].match(text, v.end) is not None
    ]


def start_said_by_span(
    kinds: Sequence[Kind], subject: Sequence[str], roots: frozenset[str], text: str
) -> str | None:
    """The question's word of a start (a root of ``subject``) that a row of ``text`` (its
    ``roots``) says by its structure: it states one span of an asked kind of moment
    (``kinds``) and no word of a start or an end of its own ("MES maintenance window is
    Saturday 22:00-02:00" for "when does the MES maintenance window start?"), so its first
    value is when the thing starts. None for any other row."""
    if not set(kinds) & set(_MOMENTS):
        return None
    asked = [t for t in subject if t in _start_roots()]
    if len(asked) != 1 or asked[0] in roots:
        return None
    spans = _spans(text)
    if len(spans) != 1 or spans[0].kind not in kinds or _START_OR_END.search(text.lower()):
        return None
    return asked[0]


# The words that ask when a thing ends.
_ASKS_END = re.compile(
    r"\b(?:end|ends|ending|ended|finish|finishes|finished|close|closes|closed|stop|stops"
    r"|stopped|expire|expires|expired|over|until|till)\b"
)


def start_for_an_end(question: str, text: str, value: Value) -> bool:
    """Is ``value`` the first of a span of moments ``text`` states ("Saturday 22:00-02:00")
    while ``question`` asks when the thing ends: the start given for its end? The span's end
    is no value of its own, so the question stays with the human."""
    tail = _SPAN_TAIL.get(value.kind)
    return (
        tail is not None
        and tail.match(text, value.end) is not None
        and _ASKS_END.search(question.lower()) is not None
    )


# A moment bound to the end of what the row states ("valid until 21:00", "runs to Friday",
# "ends at 18:00"), and one bound to another event of it ("issued 10:05", "started 06:40",
# "from 08:00"): the word right before the moment, "at" or "on" aside.
_END_BOUND = re.compile(
    r"\b(?:until|till|til|to|through|thru|end|ends|ended|ending|expire|expires|expired|finish"
    r"|finishes|finished|close|closes|closed|stop|stops|stopped)\s+(?:at\s+|on\s+)?$"
)
_OTHER_EVENT = re.compile(
    r"\b(?:issued|start|starts|started|begin|begins|began|open|opens|opened|kicked\s+off"
    r"|sent|published|created|raised|posted|declared|announced|updated|from|since|effective)"
    r"\s+(?:at\s+|on\s+)?$"
)
_ASKS_UNTIL = re.compile(
    r"\b(?:until|till)\s+(?:what|when|which)\b|\b(?:until|till)\s*\?|(?<![\w-])(?:end|ends"
    r"|ending|finish|finishes|expire|expires|close|closes|stop|stops)(?![\w-])"
)


def moment_of_another_event(question: str, text: str, value: Value) -> bool:
    """Is ``value`` a moment the row binds to another event than the end ``question`` asks
    ("until what time does the warning run?" of "issued 10:05, valid until 21:00": 10:05
    is when it was issued)? Where the question asks until when a thing runs or when it
    ends, a date or a time answers only bound to its end ("until 21:00"); one bound by a
    word of another event ("issued", "started", "from") does not, nor one the row leaves
    unbound while it binds another moment to the end."""
    if value.kind not in _MOMENTS or _ASKS_UNTIL.search(question.lower()) is None:
        return False
    said = text.lower()
    if _END_BOUND.search(said[: value.start]):
        return False
    if _OTHER_EVENT.search(said[: value.start]):
        return True
    return any(
        other.kind in _MOMENTS
        and other.start != value.start
        and _END_BOUND.search(said[: other.start])
        for other in values_in(text)
    )


# The parts of a day a question places what it asks in, by the hours of a clock that fall in
# each ("this morning" holds 09:30, not 15:00); a night runs over midnight. "Tonight" is not
# among them: it is a night still to come, which no time a row states has reached.
_PART_HOURS = {
    "morning": range(5, 12),
    "afternoon": range(12, 18),
    "evening": range(17, 23),
    "night": (*range(21, 24), *range(6)),
}
_PART_ASKED = re.compile(
    r"\b(morning|afternoon|evening)\b|\b(?:last|the|at|in|over)\s+(night)\b|\b(overnight)\b"
)
# A row that says the night itself ("drained overnight"); "nightly" is a schedule, which
# the clock of what it did that night must place.
_NIGHT_SAID = re.compile(r"\b(?:overnight|last\s+night)\b")
# A day a row names, or a habit of every day ("usually finishes 02:30"): what a part of a
# day is of where the question names no such day.
_DAY = re.compile(
    r"\b(?:yesterday|today|tomorrow|tonight|monday|tuesday|wednesday|thursday|friday"
    r"|saturday|sunday|weekend|weekdays?|daily|weekly|monthly|nights|days|ago|before\s+last"
    r"|usually|typically|normally|generally|every|each"
    r"|(?:last|this|next|previous)\s+(?:week|month|quarter|year))\b"
)
_CLOCK = re.compile(r"(\d{1,2}):(\d{2})(?:\s*([ap])\.?m\b)?", re.IGNORECASE)


def _hour(value: Value) -> int | None:
    """The hour of the day a time states, "7:15 pm" as 19."""
    m = _CLOCK.match(value.text)
    if m is None:
        return None
    hour = int(m.group(1))
    if m.group(3) and hour < 12:
        hour += 12 if m.group(3).lower() == "p" else 0
    return hour


def parts_held(question: str, text: str) -> frozenset[str]:
    """The parts of a day ``question`` places what it asks in ("this morning", "last night",
    "overnight") that a row of ``text`` holds by its own clock: every time it states falls
    in that part ("backlog was 311 at 09:30" for "this morning"; "hit 7.2% between 02:10 and
    02:40" for "during the night"; "nightly load done at 04:47" for "last night"), or, for a
    night, it says "overnight" itself. A row that names a date, a calendar period, a day, a
    span of days or a habit the question does not ("18:00 yesterday" for "this evening", "6
    of 30 nights in November", "usually finishes 02:30" for "last night"), or a time other
    than one the question says in words ("08:30" for "at half nine"), holds none. The words
    come back as the question writes them ("night" of "last night", "overnight")."""
    said = text.lower()
    asked = question.lower()
    if (
        any(v.kind is Kind.DATE for v in values_in(text))
        or calendar_periods(text)
        or set(_DAY.findall(said)) - set(_DAY.findall(asked))
    ):
        return frozenset()  # "failed 6 of 30 nights in November": not one night's
    if any((h, m) not in _stated(text) for h, m, _ in _clock_asked(asked)):
        return frozenset()  # "at half nine" of a row at 08:30: another time of the morning
    hours = [_hour(v) for v in values_in(text) if v.kind is Kind.TIME]
    held: set[str] = set()
    for m in _PART_ASKED.finditer(asked):
        part = m.group(1) or m.group(2) or "night"
        word = m.group(1) or m.group(2) or m.group(3)
        by_clock = bool(hours) and all(h is not None and h in _PART_HOURS[part] for h in hours)
        if by_clock or (part == "night" and _NIGHT_SAID.search(said)):
            held.add(word)
    return frozenset(held)


_NUMBER_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_NUMBERS = {w: n for n, w in enumerate(_NUMBER_WORDS.split("|"), start=1)}
_HOUR_WORD = r"(" + _NUMBER_WORDS + r"|\d{1,2})"
# A time of day said in words: "half nine" (09:30, as British English says it), "half past
# nine", "quarter past ten", "quarter to ten", "nine o'clock", "at nine".
_SAID_CLOCK = re.compile(
    r"\b(?:(half)(?:\s+past)?|(quarter)\s+(past|to))\s+" + _HOUR_WORD + r"(?![\w:.%])"
    r"|\b(at)\s+(" + _NUMBER_WORDS + r")"
    r"(?=\s+(?:this|last|yesterday|today|o'?clock)\b|\s*[?,;]|$)"
    r"|\b" + _HOUR_WORD + r"\s+o'?clock\b"
)


def _clock_asked(question: str) -> list[tuple[int, int, str]]:
    """The times of day ``question`` says in words, each as (hour on a twelve-hour clock,
    minute, the words that say it)."""
    found = []
    for m in _SAID_CLOCK.finditer(question):
        word = m.group(4) or m.group(6) or m.group(7)
        hour = _NUMBERS.get(word) or int(word)
        if not 1 <= hour <= 12:
            continue
        if m.group(1):
            minute = 30
        elif m.group(2):
            minute = 15 if m.group(3) == "past" else 45
            hour = hour - 1 if m.group(3) == "to" else hour
        else:
            minute = 0
        found.append((hour % 12, minute, m.group(0)))
    return found


def time_words_held(question: str, text: str) -> frozenset[str]:
    """The words by which ``question`` places what it asks in time that a row of ``text``
    says by its clock: a part of a day it holds (``parts_held``) and a time of day said in
    words that is a time the row states ("half nine" of "backlog was 311 at 09:30", "at nine"
    of "at 09:00"). A question of those words asks of that time; a row stating it need not
    write them."""
    asked = question.lower()
    said = parts_held(question, text)
    if not said and _PART_ASKED.search(asked):
        return frozenset()  # "this morning" of a row at 15:00: its clock is of another time
    clocks = _clock_asked(asked)
    if any((hour, minute) not in _stated(text) for hour, minute, _ in clocks):
        return frozenset()
    return said | {w for *_, phrase in clocks for w in re.findall(r"[\w']+", phrase)} - {"at"}


def _stated(text: str) -> set[tuple[int, int]]:
    """The times of day ``text`` states, each as (hour on a twelve-hour clock, minute)."""
    return {
        (hour % 12, int(v.text[v.text.index(":") + 1 :][:2]))
        for v in values_in(text)
        if v.kind is Kind.TIME and (hour := _hour(v)) is not None
    }
