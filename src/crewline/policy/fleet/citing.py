"""A model's citation checked in code: the value it cites must be stated, live, of the asked
kind and about the asked thing in the row it names, with no rival row against it
(``check_cited``, ``dispute``); a row that carries instructions is never evidence
(``injection_in``)."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from crewline.policy.fleet.about import (
    PERIOD_WORDS,
    about_mostly,
    another_modifier,
    entity_unsaid,
    ranked_first,
    thing_said,
    tied_by_model,
    untimed,
)
from crewline.policy.fleet.asking import (
    GENERIC,
    LOOSE_NOUNS,
    MOMENT,
    NOUN_KINDS,
    PART_NOUNS,
    STOP,
    STRONG,
    WHOLES,
    ValueAsk,
    both_given,
    in_asked_unit,
    moment_for_a_measure,
    named_kinds,
    rate_counted,
    time_scale,
)
from crewline.policy.fleet.nouns import (
    as_the_row_names_it,
    beside_noun,
    counted_by,
    forms_of,
    noun_heads,
    proven_by_form,
    wanted_nouns,
    wh_head,
)
from crewline.policy.fleet.periods import MONTHS, calendar_contradicted
from crewline.policy.fleet.picking import (
    AMOUNTS,
    MEASURED,
    PART,
    another_named,
    how_often_unasked,
    in_question,
    labelled_other,
    names_one,
    of_another_outcome,
    on_its_day,
    pick,
    sources_of,
    unsaid,
    values_of,
    whole_for_a_part,
)
from crewline.policy.fleet.rivals import WEAK, another_period, another_time, disagreement, rivals_of
from crewline.policy.fleet.roles import lent_to_another
from crewline.policy.fleet.rows import (
    Fact,
    Said,
    asks_a_plan,
    cited_status,
    clause_of,
    coverage,
    derived_from,
    observed,
    of_other_subject,
    other_qualifier,
    other_state,
    request_sentence,
    roots_of,
    row_of,
    says,
    specific_of,
    status_of,
)
from crewline.policy.fleet.thesaurus import near
from crewline.policy.fleet.when import moment_of_another_event
from crewline.policy.lemmas import known, root, tokens
from crewline.policy.values import Kind, Value, values_in
from crewline.policy.wording import code_form, injection, row_orders, word_set


def dispute(ask: ValueAsk, facts: Sequence[Fact], row_id: str, answer: str) -> str:
    """What the fleet says against a model's answer citing ``row_id``, for the card: the
    rows that dispute it ("the fleet disagrees: analytics said game_events_v3 at 09:33;
    data-eng said game_events_v4 at 09:38"), or "" when none does."""
    usable = _usable(facts, row_id)
    cited = next((f for f in usable if f.row_id == row_id), None)
    value = _value_cited(cited.text, answer) if cited is not None and answer else None
    if cited is None or value is None:
        return ""
    rivals = rivals_of(ask, cited, value, usable)
    return disagreement([(value.text, cited), *rivals]) if rivals else ""


def _usable(facts: Sequence[Fact], row_id: str) -> list[Fact]:
    """The rows a citation is checked against: none that carries instructions, and the cited
    one read without what its member says it has not looked at (``observed``). The others
    are read as said: a word of theirs can only make the cited row less the one most about
    the question, never more."""
    return [observed(f) if f.row_id == row_id else f for f in facts if not injection_in(f.text)]


def injection_in(text: str) -> bool:
    """Does a row carry instructions to the concierge, or order how its value is to be used
    or ranked against other rows (so it is never evidence)?"""
    code = code_form(text)
    return injection(code) is not None or row_orders(code) is not None


class Refusal(StrEnum):
    """Why a model's citation was refused: one stable code per rule of ``cite`` (the tally of
    scripts/cited-exhaustive counts by it), each with the words a card says it in."""

    DECISION = "decision"
    NOT_RETRIEVED = "not-retrieved"
    OTHER_MEMBER = "other-member"
    NOT_IN_ROW = "not-in-row"
    OTHER_KIND = "other-kind"
    IN_QUESTION = "in-question"
    HALF = "half"
    MOMENT = "moment"
    RECURRENCE = "recurrence"
    KIND_UNSAID = "kind-unsaid"
    UNTIED = "untied"
    LABEL = "label"
    NO_AMOUNT = "no-amount"
    AMOUNT_FOR_THING = "amount-for-thing"
    NO_NAME = "no-name"
    FORMER = "former"
    BARE = "bare"
    OTHER_COUNT = "other-count"
    NAMES_ONE = "names-one"
    OTHER_OUTCOME = "other-outcome"
    NOT_LIVE = "not-live"
    OTHER_QUALIFIER = "other-qualifier"
    OTHER_TIME = "other-time"
    NOT_ABOUT = "not-about"
    NAME_OUTSIDE = "name-outside"
    OTHER_MODIFIER = "other-modifier"
    SEVERAL = "several"
    ANOTHER_NAMED = "another-named"
    WHOLE_FOR_PART = "whole-for-part"
    OTHER_STATE = "other-state"
    OTHER_SUBJECT = "other-subject"
    RIVAL = "rival"
    LABELLED_OTHER = "labelled-other"

    @property
    def found(self) -> str:
        """What was found, in a card's words."""
        return _FOUND[self]


_FOUND = {
    Refusal.DECISION: "the question asks a decision, not a fact",
    Refusal.NOT_RETRIEVED: "the row cited was not retrieved, or carries instructions",
    Refusal.OTHER_MEMBER: "the row cited is by another member than the question names",
    Refusal.NOT_IN_ROW: "the row cited does not say that value whole",
    Refusal.OTHER_KIND: "the value is not of the kind asked",
    Refusal.IN_QUESTION: "the value is one the question itself states",
    Refusal.HALF: "the value is half of what is asked",
    Refusal.MOMENT: "the row places a moment, not a duration",
    Refusal.RECURRENCE: "the row says how often it recurs, not how long it takes",
    Refusal.KIND_UNSAID: "the row does not name what is asked",
    Refusal.UNTIED: "the row gives that value as something else than what is asked",
    Refusal.LABEL: "the value names what is asked, not its value",
    Refusal.NO_AMOUNT: "a name is no amount",
    Refusal.AMOUNT_FOR_THING: "an amount is no thing",
    Refusal.NO_NAME: "the words cited are no name",
    Refusal.FORMER: "the question asks the former value",
    Refusal.BARE: "the row does not say the value by the asked noun",
    Refusal.OTHER_COUNT: "the row counts another thing",
    Refusal.NAMES_ONE: "the number names one of the things asked (its id), it counts none",
    Refusal.OTHER_OUTCOME: "the row counts another outcome",
    Refusal.NOT_LIVE: "the row says it negated, former (it then changed), planned, hedged, asked"
    " or as what should be, or secret",
    Refusal.OTHER_QUALIFIER: "the row gives it for another qualifier",
    Refusal.OTHER_TIME: "the row is of another time or period",
    Refusal.NOT_ABOUT: "the row is not about the thing asked",
    Refusal.NAME_OUTSIDE: "a name the question gives is not in the value's clause",
    Refusal.OTHER_MODIFIER: "the row gives it for another kind of the thing",
    Refusal.SEVERAL: "the row gives several values and the question does not pick this one",
    Refusal.ANOTHER_NAMED: "the value's clause is of another named thing",
    Refusal.WHOLE_FOR_PART: "the value is the whole, the question asks a part",
    Refusal.OTHER_STATE: "the row gives it in another state",
    Refusal.OTHER_SUBJECT: "the value's clause is about another subject",
    Refusal.RIVAL: "another row gives another value",
    Refusal.LABELLED_OTHER: "the row names another value by the asked noun",
}


class Chooser(StrEnum):
    """Who chose the cited row and value. A model read the question and the rows: that the
    row is about the thing asked in other words is its reading, and the check holds only
    that nothing says otherwise (``tied_by_model``). The offline reader has no reading
    behind its pick: its citation must prove in code that the row is about the thing."""

    MODEL = "model"
    READER = "reader"


@dataclass(frozen=True, slots=True)
class Cited:
    """A citation checked: the value answered, or why it was refused."""

    value: str | None
    refused: Refusal | None = None


def check_cited(
    ask: ValueAsk, facts: Sequence[Fact], row_id: str, answer: str, *, by: Chooser
) -> str | None:
    """The value a citation answers (``cite``), or None."""
    return cite(ask, facts, row_id, answer, by=by).value


def cite(ask: ValueAsk, facts: Sequence[Fact], row_id: str, answer: str, *, by: Chooser) -> Cited:
    """A model's fleet answer, checked in code for what makes it safe, not for the offline reader's
    own reading of the question: the model does the matching. The question asks for a fact,
    not a decision; the value is said verbatim in the row it cites (a typed value, or a name
    of at most four words that is no piece of one), is of the asked kind (a bare number,
    name or identifier only in a row that names the asked noun; an amount never for "which
    <thing>", never a name for "how many"; a moment never for "how long"; for a noun of no
    known kind, "DAU", only in a row that says it or the thing besides its time, and a value
    whose form tells its own kind, "06:12", only where the row ties it to that noun), is no
    label of a word of the question ("D1" of "D1 retention"), is a live fact there (not
    negated, former, planned, hedged or a secret) and not a value the question itself
    states; the row was retrieved, carries no instructions, is by the member the question
    names, of the time and period it asks, holds the question's specific values, qualifiers
    ("staging", "nightly") and every word of the thing it is about — but the relation asked
    (its verbs, by where they stand: "receives", "are taken", "does … begin"), a noun that
    only names a kind of value the value's form proves ("IP"), and words of time and
    hedging, and a plain head word the row names by its modifier ("the grafana *board*":
    ``about_mostly``), or but one plain word the row leaves out where it is the retrieved
    row most about the question by a margin (``ranked_first``) — each name ("orion-3") in
    the value's own clause, no other modifier of the asked noun there ("line" for "branch
    coverage") and no other thing of a noun the question names bare ("the image" of "Docker
    image" and "build image"); a row giving several values of that kind is answered only
    where the question's words pick the model's there (or it is the part of a whole asked in
    a word the row does not say); and no other row about the question, by every word, by the
    thing alone or by all of it but one word, gives another value of that kind. A value the
    row states whole (a date and time, a host and port) is given whole, but where its own
    noun asks a piece. A count is of the outcome its question names ("failed"). The value,
    or the rule that refused it.

    Chosen by a model (``by``), a row need not prove it is about the thing: where it says
    one word of it, leaves out only plain words and no row as much about the question
    gives another value, it stands (``tied_by_model``), and a bare value there is the
    thing's where it is the row's one value of its kind, named by no other noun."""
    refused = _refusal(ask, facts, row_id, answer, by)
    if isinstance(refused, Refusal):
        return Cited(value=None, refused=refused)
    row = next((f for f in facts if f.row_id == row_id), None)
    if row is None:
        return Cited(value=refused.text)
    return Cited(value=as_the_row_names_it(ask, row.text, refused.text))


def _refusal(
    ask: ValueAsk, facts: Sequence[Fact], row_id: str, answer: str, by: Chooser
) -> Refusal | Value:
    """The first rule of ``cite`` the citation fails, or the value it answers."""
    if ask.decides:
        return Refusal.DECISION  # "what should I call the new service?" asks a decision, not a fact
    usable = _usable(facts, row_id)
    cited = next((f for f in usable if f.row_id == row_id), None)
    if cited is None:
        return Refusal.NOT_RETRIEVED
    sources = sources_of(ask, sorted({f.member for f in usable}))
    if isinstance(sources, str) or (sources is not None and cited.member not in sources):
        # "what did the prober find?" of a row no member of that name said
        return Refusal.OTHER_MEMBER
    value = _value_cited(cited.text, answer)
    value = _whole_cited(ask, cited.text, value, answer) if value is not None else None
    if value is None:
        return Refusal.NOT_IN_ROW
    if not _of_kind(ask, value):
        if by is not Chooser.MODEL or not _counted_in_its_unit(ask, value):
            return Refusal.OTHER_KIND
        if _unit_disputed(ask, cited, value, usable):
            # "400 days" of one row, "730 days" of another row about the shipments table
            return Refusal.RIVAL
    if moment_for_a_measure(ask, value):
        return Refusal.OTHER_KIND  # "14 May" for "what was the buoy's last wave height?"
    if in_question(ask, value.text):
        return Refusal.IN_QUESTION
    if labelled_other(ask, cited.text, value):
        # "3.3.1" of "PAS-X 3.3.1 …, master recipe rev R-112" for the recipe's revision
        return Refusal.LABELLED_OTHER
    if not both_given(ask, value):
        return Refusal.HALF  # "7450" for "which host and port": half of what is asked
    if value.kind is Kind.DURATION and MOMENT.match(cited.text[value.end :]):
        return Refusal.MOMENT  # "rebooted 2 days ago" places a moment: no answer to "how long"
    if how_often_unasked(ask, cited.text, value):
        return Refusal.RECURRENCE  # "runs every 15 min": no answer to "how long did it take"
    if not _kind_said(ask, cited):
        # "1.7%" of "Refund rate for November" for "what was DAU in November?"
        return Refusal.KIND_UNSAID
    if _untied(ask, cited.text, value):
        # "06:12" for "which garage …?": a time, which the row does not give as the garage
        return Refusal.UNTIED
    if _labels_the_thing(ask, cited.text, value):
        # "D1" of "D1 retention for …": the name of what is asked, not its value
        return Refusal.LABEL
    if value.kind not in AMOUNTS | MEASURED | {Kind.RATE} and _HOW_MUCH.search(
        request_sentence(ask)
    ):
        return Refusal.NO_AMOUNT  # "GDPR" for "after how many days …?": a name is no amount
    if value.kind in AMOUNTS | MEASURED and _asks_a_thing(ask):
        return Refusal.AMOUNT_FOR_THING  # "which part of checkout …?" asks a thing, not "1.9 s"
    if value.kind is Kind.WORD and not _a_name(cited.text, value):
        return Refusal.NO_NAME  # "Current" of "Current web-tier base AMI: …" is no name
    if _former_asked(ask, cited, value):
        return Refusal.FORMER  # "what was it before the cache change?" of the value it went to
    if value.kind in WEAK and not _by_its_noun(ask, cited, value, _tie(by, usable)):
        return Refusal.BARE  # "3 of 40 pods" is no port: a bare value counts by its noun
    if value.kind in AMOUNTS and names_one(ask, cited.text, value):
        return Refusal.NAMES_ONE  # "order 8812" for "how many orders …?": one, by its number
    if (
        value.kind in AMOUNTS
        and counted_by(cited.text[value.end :], noun_heads(ask), tokens(ask.question)) is False
    ):
        # "12 failed builds" for "how many builds ran?": another thing counted
        return Refusal.OTHER_COUNT
    if of_another_outcome(ask, cited.text, value):
        return Refusal.OTHER_OUTCOME  # "ran 41 jobs" for "how many jobs failed?"
    former = _the_former(ask, cited, value)
    status = cited_status(ask, cited.text, value)
    if status != "fact" and not (status == "plan" and asks_a_plan(ask)) and not former:
        # a plan is the answer to a question that asks the plan by a word of the future
        # ("next", "scheduled"), never to one about what happened or what is so now, nor to
        # one that only names a "plan" ("the student plan")
        return Refusal.NOT_LIVE
    if other_qualifier(ask, cited.text, value):
        return Refusal.OTHER_QUALIFIER
    if another_time(ask, cited) or another_period(ask, cited):
        # "the night before last" of "last night's backup"; "last week" of this
        return Refusal.OTHER_TIME
    if calendar_contradicted(ask.question, cited.text):
        return Refusal.OTHER_TIME  # "March … ETS: 0.31" for "precip ETS, regional model, May?"
    if moment_of_another_event(ask.question, cited.text, value):
        # "issued 10:05, valid until 21:00" for "until what time does the warning run?"
        return Refusal.UNTIED
    if by is Chooser.MODEL and (
        _counts_its_own_noun(ask, cited.text, value) or _version_of_a_modifier(ask, cited, value)
    ):
        # "3 restarts" for "how many retries"; "sarek 3.4.2" for "which Nextflow version do
        # the sarek runs use": the value is another thing's, named right beside it
        return Refusal.OTHER_SUBJECT
    if not (
        about_mostly(ask, cited, value, usable)
        or ranked_first(ask, cited, value, usable)
        or (
            by is Chooser.MODEL
            and _kind_named(ask, cited, value)
            and tied_by_model(ask, cited, value, usable)
        )
    ):
        return Refusal.NOT_ABOUT  # the thing asked about, with its qualifiers, is not this row's
    if not _names_in_clause(ask, cited.text, value):
        return Refusal.NAME_OUTSIDE  # "search_docs_v2" is another table than "search_docs"
    if another_modifier(ask, cited, value, usable):
        # "branch coverage" of "line coverage"; "the image" of two images
        return Refusal.OTHER_MODIFIER
    if not former and _several(ask, cited, value):
        return Refusal.SEVERAL
    if another_named(ask, " ".join(clause_of(cited.text, value)).lower()):
        return Refusal.ANOTHER_NAMED  # "the Eastfield clinic"'s value for "the Westbrook clinic"
    if whole_for_a_part(ask, cited.text, value):
        # the whole of "250 seats, 231 of them in use" for "how many are taken?"
        return Refusal.WHOLE_FOR_PART
    if other_state(ask, cited.text, value):
        return Refusal.OTHER_STATE  # "in TestFlight review" for "live"
    if of_other_subject(ask, cited.text, value) or lent_to_another(ask, cited, value):
        # "dbt runs on X; the dashboards …"; the migrator's "the backup took 4 minutes"
        return Refusal.OTHER_SUBJECT
    if rivals_of(ask, cited, value, usable):
        return Refusal.RIVAL  # "throttles us at 60 req/min" against the cited "limit is 120 …"
    return value


_MEASURES = frozenset({Kind.COUNT, Kind.PERCENT, Kind.SIZE, Kind.PORT})


def _value_cited(text: str, answer: str) -> Value | None:
    """The value of ``text`` the model's ``answer`` holds: its longest typed value the
    answer says whole; else the one typed value whose number the answer is ("310" of "310
    ms"); else the answer itself (a name of at most four words) said whole in the row and
    overlapping none of its typed values."""
    said = answer.strip().casefold()
    typed = values_in(text)
    held = [
        v for v in typed if re.search(rf"(?<![\w.-]){re.escape(v.text.casefold())}(?![\w-])", said)
    ]
    if held:
        return max(held, key=lambda v: len(v.text))
    said = said.rstrip(".").strip()
    if not said or len(said) > 60 or len(said.split()) > 4:
        return None
    if re.fullmatch(r"[$€£]?\d[\d,.]*", said):
        led = [v for v in typed if re.match(rf"[$€£#]?{re.escape(said)}(?![\d.,])", v.text)]
        if len(led) != 1:
            return None
        if re.fullmatch(r"#\d+", led[0].text):
            # "PR #482" cited as "482": the number, written with its sign
            return Value(
                text=led[0].text[1:], kind=Kind.NUMBER, start=led[0].start + 1, end=led[0].end
            )
        return led[0]
    found = re.search(rf"(?<![\w./-]){re.escape(said)}(?![\w/-])", text.casefold())
    if found is None:
        return None
    inside = [v for v in typed if v.start < found.end() and found.start() < v.end]
    if any(v.start < found.start() or v.end > found.end() for v in inside):
        # whole words of one typed value stand for it ("Okafor" of "Dr. Ines Okafor", "06:20"
        # of "06:20 UTC"); another piece does not ("db-02" of "db-02.internal:5432")
        return _words_of(text, inside, found.start(), found.end())
    if inside and " " in said:
        return None  # words and a value: no one name
    # a name said whole, or one token that holds a typed value glued in ("Apache-2.0")
    return Value(
        text=text[found.start() : found.end()],
        kind=Kind.ID if inside else Kind.WORD,
        start=found.start(),
        end=found.end(),
    )


def _words_of(text: str, inside: Sequence[Value], start: int, end: int) -> Value | None:
    """The one typed value of which ``text[start:end]`` is whole words, cut from the rest
    of it by spaces only ("Okafor" of "Ines Okafor", "31h" of "31h 40m"): the model named
    that value by a part of it, as "310" names "310 ms". Every check then reads the value
    as the row states it, whole. A part cut by another mark ("912" of "1,912 MWh", "db-02"
    of "db-02.internal:5432") names no value: None."""
    if len(inside) != 1:
        return None
    value = inside[0]
    if not value.start <= start < end <= value.end:
        return None
    before, after = text[value.start : start], text[end : value.end]
    if (before and not before.endswith(" ")) or (after and not after.startswith(" ")):
        return None
    return value


def _whole_cited(ask: ValueAsk, text: str, value: Value, answer: str) -> Value | None:
    """The cited value as the row states it: a part of a whole value (the date of a date and
    time, the host of a host and port) answers only a question that asks that part by its
    own noun ("what date …?", "which port …?"); for any other ("when …?", "host and port
    …?") the answer must give the whole, and the whole is the value. A part given for the
    whole is not the row's value: None."""
    said = answer.casefold()
    typed = values_in(text)
    for first, second in itertools.pairwise(typed):
        joined = next(
            (
                gap
                for one, gap, two in WHOLES
                if first.kind is one
                and second.kind is two
                and gap.fullmatch(text[first.end : second.start])
            ),
            None,
        )
        if joined is None or value.start not in (first.start, second.start):
            continue
        if ask.noun in PART_NOUNS[value.kind]:
            return value  # "which port is it on?" of "sftp.example:2222": the port
        if first.text.casefold() in said and second.text.casefold() in said:
            whole = text[first.start : second.end]
            return Value(text=whole, kind=first.kind, start=first.start, end=second.end)
        return None
    return on_its_day(ask, text, value)  # "Monday 09:00" for "when is the handover?"


def _kind_said(ask: ValueAsk, fact: Fact) -> bool:
    """For a noun the reader knows no kind of ("DAU", "MAU"), which any kind may answer:
    does the row say that noun (by itself or a neighbour), or a word of the thing asked
    besides its time? A row that shares only the question's month or period with it
    ("Refund rate for November …" for "what was DAU in November?") gives a value of another
    thing, whatever its kind."""
    if ask.noun == "value" or ask.kinds != GENERIC:
        return True
    roots = roots_of(fact.text, fact.member)
    if any(derived_from(w, r) for w in wanted_nouns(ask) for r in roots):
        return True
    timeless = untimed() | _period_roots()
    return any(coverage((t,), roots, fact.text)[0] for t in ask.subject if t not in timeless)


# The kinds a value's own form tells (a time, a path, a host, a version, an amount with its
# unit): a value of one says what it is, so a noun of no known kind is not answered by it
# unless the row says it as that noun's. A bare word, number or identifier tells nothing.
_TYPED = STRONG - {Kind.PERSON}


def _untied(ask: ValueAsk, text: str, value: Value) -> bool:
    """For a noun the reader knows no kind of ("license", "garage"), is the cited value of a
    kind its form tells ("06:12", "/docs/v3", "db-02.internal") that the row does not tie to
    the asked noun: said right beside a head of the asked noun phrase ("Python 3.11"), or in
    a clause that says the noun itself or a neighbour of it ("the licence moved to v2.0")?
    A typed value the row says of something else is that thing's, not the answer."""
    if ask.noun == "value" or ask.kinds != GENERIC or value.kind not in _TYPED:
        return False
    if any(
        t.lemma == ask.noun and t.text != t.lemma and t.text.endswith("est")
        for t in tokens(request_sentence(ask))
    ):
        return False  # "the longest the streak can go": a degree of the thing, not a thing
    if beside_noun(text, value, noun_heads(ask), tokens(ask.question)):
        return False  # "Python 3.11", "the garage at /depots/east": the noun names it
    wanted = wanted_nouns(ask)
    said = roots_of(" ".join(clause_of(text, value)), "")
    return not any(derived_from(r, w) or near(r, w) for r in said for w in wanted if r)


def _counts_its_own_noun(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is the cited number a count of the plural noun right after it, which is no word of
    the asked noun ("3 *restarts*" for "how many retries", for "which ticket number")? A
    number followed by its own plural noun counts that noun."""
    if value.kind not in (Kind.COUNT, Kind.NUMBER):
        return False
    after = re.match(r"\s+([a-z][a-z-]*)\b", text[value.end :])
    if after is None:
        return False
    found = tokens(after.group(1).lower())
    if len(found) != 1:
        return False
    noun = found[0]
    if noun.text in STOP or noun.text == noun.lemma or not noun.text.endswith("s"):
        return False  # "3 of 40", "5 free articles": not a plural noun right after
    wanted = set(ask.cues) | set(ask.counted) | set(ask.subject)
    return not any(
        near(r, w) or derived_from(r, w) for r in forms_of(noun) for w in wanted if r and w
    )


def _version_of_a_modifier(ask: ValueAsk, cited: Fact, value: Value) -> bool:
    """Is the cited version the one of a name right before it in the row that the question
    says only as a modifier of another noun, while it asks the version of another name
    ("nf-core/*sarek* 3.4.2" for "which *Nextflow* version do the sarek runs use")? A
    version belongs to the name written right before it."""
    if value.kind is not Kind.VERSION or not ask.modifier or ask.modifier in STOP:
        return False
    owner = re.search(r"([a-z][\w-]*)\W{0,2}$", cited.text[: value.start].lower())
    if owner is None or not tokens(owner.group(1)):
        return False
    name = tokens(owner.group(1))[-1]
    wanted = tokens(ask.modifier)
    if not wanted or forms_of(name) & forms_of(wanted[0]):
        return False
    return any(forms_of(w) & forms_of(name) for w in tokens(ask.question))


@functools.cache
def _period_roots() -> frozenset[str]:
    """The roots of the months and of the words of a period ("week", "quarter")."""
    return frozenset(root(w) for w in MONTHS | PERIOD_WORDS)


def _labels_the_thing(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is a name or an identifier the row gives (any value, for a question that names no
    kind of value) the label of a word of the question's subject, right before it ("*D1*
    retention", "the *December 1* cohort"): part of what the question names, not the
    value it asks? A label of the asked noun itself ("the orders-dlq *topic*" for "which
    topic", "the legacy_id *field*" for "which field …") names the asked thing: the
    answer."""
    if value.kind not in (Kind.ID, Kind.WORD) and ask.kinds != GENERIC:
        return False  # a question that names the kind it asks reads a date as its value
    after = re.match(r" +([a-z][a-z0-9]*)\b", text[value.end :].lower())
    if after is None:
        return False
    forms = forms_of(tokens(after.group(1))[0])
    asked = wh_head(ask) | (wanted_nouns(ask) if ask.noun != "value" else set())
    return not forms & asked and bool(forms & set(ask.subject))


# A request for an amount: "how many …", "how far behind …", "how long …".
# "How" and an adjective of measure asks an amount: "how heavy" a size, "how old" an age.
_HOW_MUCH = re.compile(
    r"\bhow\s+(?:many|much|far|long|big|large|small|often|fast|slow|wide|full|high|low|deep"
    r"|heavy|light|old|tall|short|thick|thin)\b"
)


def _a_name(text: str, value: Value) -> bool:
    """Is a value read as a name one: it has a capital, a digit or a joining mark, and when
    it is made of words of the language only, it does not merely start a sentence ("Current
    web-tier base AMI: …", "Indexed 18432 documents …")?"""
    said = value.text
    if not re.search(r"[A-Z0-9_.@/-]", said):
        return False
    words = re.findall(r"[A-Za-z]+", said)
    if words and all(known(w) for w in words) and not re.search(r"[0-9_.@/-]", said):
        return not re.search(r"(?:^|[.!?:;]\s+)$", text[: value.start])
    return True


_FORMER_ASKED = re.compile(r"\b(?:before|previously|originally|formerly|used to|prior to)\b")


def _former_asked(ask: ValueAsk, fact: Fact, value: Value) -> bool:
    """Does the question ask what a thing was before a change ("what was p95 before the
    cache change?") of a row that gives a former value of the kind beside the live one
    cited ("went from 310 ms down to 245 ms")?"""
    if not _FORMER_ASKED.search(request_sentence(ask)):
        return False
    return any(
        v.kind is value.kind and status_of(ask, fact.text, v) == "gone"
        for v in values_in(fact.text)
        if v.start != value.start
    )


def _the_former(ask: ValueAsk, fact: Fact, value: Value) -> bool:
    """Is the value the former one a question asking what a thing was before a change asks
    ("what was p95 before the cache change?"): gone in a row that gives, of its kind, the live
    value it went to ("went from 310 ms down to 245 ms")? That live one is then no rival."""
    if (
        not _FORMER_ASKED.search(request_sentence(ask))
        or status_of(ask, fact.text, value) != "gone"
    ):
        return False
    return any(
        v.kind is value.kind and status_of(ask, fact.text, v) == "fact"
        for v in values_in(fact.text)
        if v.start != value.start
    )


def _asks_a_thing(ask: ValueAsk) -> bool:
    """Does the request ask which thing ("which part of checkout", "what tool"), by a noun
    that names no kind of value: its answer names a thing, never an amount?"""
    noun = ask.noun
    if noun == "value" or noun in NOUN_KINDS or not noun.isalpha():
        return False
    return bool(re.search(rf"\b(?:which|what)\s+{re.escape(noun)}\b", ask.question))


# Nouns of a place in a tree of files: a path, a URL's path or a URL with one answers them.
_FOLDER_NOUNS = word_set("folder directory dir path prefix location")
_URL_WITH_PATH = re.compile(r"^[a-z][a-z0-9+.-]*://[^/\s]+/\S*[^/\s.]\S*", re.IGNORECASE)


def _of_kind(ask: ValueAsk, value: Value) -> bool:
    """Is the cited value of the kind the request asks, by the asked noun's kinds (a loose
    noun's by the kinds its neighbours name; a bare number for a measure; a rate for a
    count per unit of time, "how many requests per second"), and a folder's
    by a path in any form: "/data/exports/nightly", "s3://acme-archive/daily/"?"""
    if not in_asked_unit(ask, value):
        return False  # "30 s" to "in milliseconds?": another unit, not converted
    if value.kind in ask.kinds:
        return True
    if rate_counted(ask, value):
        return True  # "1850 requests per second" for "how many requests per second …?"
    pathed = value.kind is Kind.URL_PATH or (
        value.kind is Kind.URL and bool(_URL_WITH_PATH.match(value.text))
    )
    if pathed and Kind.PATH in ask.kinds and ask.noun in _FOLDER_NOUNS:
        return True  # "which folder do the exports land in?" of a URL's path
    if ask.noun in LOOSE_NOUNS and value.kind in named_kinds(tokens(ask.question)):
        return True  # "availability … what number did it get?": the availability's kind
    return value.kind is Kind.NUMBER and bool(set(ask.kinds) & _MEASURES)


def _counted_in_its_unit(ask: ValueAsk, value: Value) -> bool:
    """Does a request that counts a unit of time ("for how many seconds …", "after how many
    minutes …", "how many hours behind …") ask ``value``, a duration of one number in that
    very unit ("3600 s", "60 min", "4 h")? A duration in another unit ("2 h" for "how many
    minutes") or of several ("2h 10m") is converted by nobody: not of the kind asked."""
    if value.kind is not Kind.DURATION:
        return False
    asked = _HOW_MANY.search(request_sentence(ask).lower())
    said = re.fullmatch(r"\d[\d,.]*\s*([a-z]+)", value.text.lower())
    if asked is None or said is None:
        return False
    scale = time_scale(asked.group(1))
    return scale is not None and time_scale(said.group(1)) == scale


def _unit_disputed(ask: ValueAsk, cited: Fact, value: Value, usable: Sequence[Fact]) -> bool:
    """Does another retrieved row that says a word of the thing asked (``thing_said``) give
    another duration in the counted unit ("Shipments fact retention is 730 days" beside the
    cited "Retention for the shipments fact table is 400 days")? A duration taken for a
    count of its unit stands only where no row as near the thing counts otherwise."""
    unit = _UNIT.search(value.text.lower())
    for other in usable:
        if other.row_id == cited.row_id or not thing_said(ask, other, value):
            continue
        for v in values_in(other.text):
            said = _UNIT.search(v.text.lower()) if v.kind is Kind.DURATION else None
            if (
                said is not None
                and unit is not None
                and time_scale(said.group(1)) == time_scale(unit.group(1))
                and v.text.casefold() != value.text.casefold()
            ):
                return True
    return False


_UNIT = re.compile(r"([a-z]+)$")
_HOW_MANY = re.compile(r"\bhow\s+many\s+([a-z]+)\b")


# What ties a row to the thing asked beyond saying all its words: for a model's choice, the
# rows it is checked against (``tied_by_model``); for the reader's, nothing.
_Tie = Sequence[Fact] | None


def _tie(by: Chooser, usable: Sequence[Fact]) -> _Tie:
    return usable if by is Chooser.MODEL else None


def _by_its_noun(ask: ValueAsk, fact: Fact, value: Value, tie: _Tie) -> bool:
    """Is a bare value (a number, a name, an identifier) said by the asked noun, as the
    offline reader finds one ("port 9464", "team-ledger owns"), where the row names it?"""
    if proven_by_form(ask, value):
        return True  # "INC-2231" for "the incident number"; "c6i.4xlarge" for "instance type"
    if _wholly_about(ask, fact, value, tie) and not _named_otherwise(ask, fact.text, value):
        return True  # "Staging DB pool is set to 20 connections" for "the staging DB pool size"
    wanted = wanted_nouns(ask)
    heads = noun_heads(ask)
    if value.kind is not Kind.WORD and beside_noun(fact.text, value, heads, tokens(ask.question)):
        return True  # "iOS build 4182", "1,204 stops solved", "failures last week: 19"
    roots = roots_of(fact.text, fact.member)
    if not roots & wanted:
        return value.kind is Kind.WORD and beside_noun(
            fact.text, value, heads, tokens(ask.question)
        )
    if value.kind is Kind.WORD:
        return True  # a name the reader has no pattern for: the row names what is asked
    return any(s.value.text.casefold() == value.text.casefold() for s in values_of(ask, fact))


def _wholly_about(ask: ValueAsk, fact: Fact, value: Value, tie: _Tie) -> bool:
    """Does the row say every word of the thing asked about, two at least, with its
    qualifiers and specific values (``entity_unsaid``) — or, chosen by a model, is it tied
    to the thing (``tied_by_model``, over the rows ``tie``)? Then a bare value there is the
    thing's, by whatever noun the row counts or names it ("log in as ops-ro" for "which
    user", "runs on Unleash" for "which system"), where it is the row's one value of the
    asked kinds and of its own, and no other noun names it right beside
    (``_named_otherwise``)."""
    if any(
        (v.kind in ask.kinds or v.kind is value.kind)
        and not _within(v, value)
        and v.text.casefold() != value.text.casefold()
        for v in values_in(fact.text)
    ):
        return False  # "1284 invoices, total $48,210.55", "pool sizes 16, 32 and 64": not one
    if tie is not None and _noun_said(ask, fact) and tied_by_model(ask, fact, value, tie):
        return True  # not "The cellar has 14.", which counts nothing named
    unsaid = entity_unsaid(ask, fact, value.kind, value=value)
    return unsaid is not None and not unsaid[0] and unsaid[1] >= 2


def _kind_named(ask: ValueAsk, fact: Fact, value: Value) -> bool:
    """Is the value of a kind the asked noun names ("port" a port, "version" a version), or
    does the row say the asked noun? A row tied to the thing by its other words gives a
    value of another kind for a noun it never says ("120 requests per minute" for "which
    status code …", of a row that also says "HTTP 429")."""
    return (ask.kinds != GENERIC and value.kind in ask.kinds) or _noun_said(ask, fact)


def _noun_said(ask: ValueAsk, fact: Fact) -> bool:
    """Does the row say the asked noun (or the counted one) anywhere, by a derivation or a
    thesaurus neighbour?"""
    roots = roots_of(fact.text, fact.member)
    return any(derived_from(w, r) or near(w, r) for w in wanted_nouns(ask) for r in roots)


def _named_otherwise(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is a bare value named by a word the question does not say, right beside it: a word
    of the language that counts it ("4182 *testers*") or labels it ("*schema* 0047_add_…"),
    no word like "as" or "on" and no mark between, or a noun phrase it is said to be with
    no word of the question ("avl-02 is the active ingester" for "what cadence …"); or is it
    the name of another value the row gives it ("p95 was 240 ms")?"""
    asked = {f for t in tokens(ask.question) for f in forms_of(t)}

    def unasked(word: str) -> bool:
        return word not in STOP and not forms_of(tokens(word)[0]) & asked

    rest = text[value.end :]
    labelled = _LABELLED.match(rest)
    if labelled and any(v.start == value.end + labelled.end() for v in values_in(text)):
        return True  # "p95 210 ms", "p95 was 240 ms": a label of the value after it
    copula = _COPULA.match(rest)
    if copula:
        said = re.findall(r"[a-z]+", copula.group(1).lower())
        if said and all(unasked(w) for w in said):
            return True  # "avl-02 is the active ingester": what it is, in other words
    beside = [_NEXT.match(rest), _BEFORE.search(text[: value.start])]
    return any(
        found is not None and known(found.group(1)) and unasked(found.group(1).lower())
        for found in beside
    )


# A value said to be something: "avl-02 is the active ingester", "p95 was 240 ms".
_COPULA = re.compile(
    r"\s+(?:is|was|are|were)\s+(?:the|a|an|our|its|their)\s+((?:[A-Za-z][\w-]*\s*){1,2})"
)
# What stands between a label and its value: "p95 210 ms", "p95 was 240 ms", "p95: 240 ms".
_LABELLED = re.compile(r"(?:\s*(?:is|was|are|were|at|=|:))?\s*")
_NEXT = re.compile(r" ([A-Za-z]+)\b")
_BEFORE = re.compile(r"\b([A-Za-z]+) $")


def _names_in_clause(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is each name of the question ("orion-3", "search_docs") said whole in the value's own
    clause ("search_docs_v2" is another table)?"""
    before, after = clause_of(text, value)
    clause = f"{before}{value.text}{after}".lower()
    return all(says(clause, t, edge=r"\w-") for t in ask.subject if not t.isalnum())


def _several(ask: ValueAsk, fact: Fact, value: Value) -> bool:
    """Does the row give other live values of the value's kind, among which the question's
    words do not pick this one (the offline reader's pick, over every one of them)?"""
    others = {
        v.text.casefold()
        for v in values_in(fact.text)
        if v.kind is value.kind
        and not _within(v, value)
        and status_of(ask, fact.text, v) == "fact"
        # the question's own value ("L0" of "the L0 retention rule") is no answer to it,
        # nor is how often a thing recurs to how long it took ("every 90 min")
        and not in_question(ask, v.text)
        and not how_often_unasked(ask, fact.text, v)
    } - {value.text.casefold()}
    if not others:
        return False
    if _the_part(ask, fact.text, value):
        return False  # "231 of them in use" for "how many are taken?": the part, by the model
    heads, asked = noun_heads(ask), tokens(ask.question)
    if counted_by(fact.text[value.end :], heads, asked) and not any(
        counted_by(fact.text[v.end :], heads, asked)
        for v in values_in(fact.text)
        if v.kind is value.kind and v.text.casefold() in others
    ):
        return False  # "617 stale feature flags across 38 services": what the question counts
    said = [s for s in values_of(ask, fact) if not s.moment]
    if others <= {s.value.text.casefold() for s in said}:
        picked = pick(ask, row_of(ask, fact), said)
        if isinstance(picked, Said) and picked.value.text.casefold() == value.text.casefold():
            return False
    # else the value whose own clause says more of what the question is about than every
    # other one's ("search API error rate … 0.7%" over "budget is 1%"), its member aside
    member = frozenset(root(p) for p in re.split(r"[-_]", fact.member.lower()) if p)
    # a heading ("Profiling /api/search: p95 … 212ms, p99 480ms") is every value's
    member |= _words_about(ask, _heading(fact.text, value.kind))
    mine = _clause_about(ask, fact.text, value) - member
    return not all(
        mine > _clause_about(ask, fact.text, v) - member
        for v in values_in(fact.text)
        if v.kind is value.kind
        and not _within(v, value)
        and v.text.casefold() != value.text.casefold()
        and status_of(ask, fact.text, v) == "fact"
        and not how_often_unasked(ask, fact.text, v)
    )


def _within(part: Value, whole: Value) -> bool:
    """Is ``part`` a piece of ``whole`` as the row states it (the date of a date and time)?"""
    return whole.start <= part.start and part.end <= whole.end


def _heading(text: str, kind: Kind) -> str:
    """A row's heading: what it says before its first colon and space, when that holds no
    value of ``kind`` and the first value after it has words of its own ("Profiling
    /api/search: p95 latency 212ms, p99 480ms"), not when it labels the value that follows
    it ("error rate over the last day: 0.4%, budget is 2%")."""
    head, colon, _ = text.partition(": ")
    if not colon or any(v.kind is kind for v in values_in(head)):
        return ""
    after = len(head) + len(colon)
    first = next((v for v in values_in(text) if v.kind is kind and v.start >= after), None)
    own = text[after : first.start] if first is not None else ""
    return head if re.search(r"[a-z]", own, re.IGNORECASE) else ""


def _the_part(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is the value the part of a whole the row gives before it ("250 seats …, 231 of them in
    use"), every other value of its kind before it, asked with a word the row does not say
    ("taken")? Which of the two is asked is then the model's reading of that word."""
    if value.start not in {m.start() for m in PART.finditer(text)}:
        return False
    before = [v for v in values_in(text) if v.kind is value.kind and v.start != value.start]
    return all(v.end <= value.start for v in before) and unsaid(ask, text)


def _clause_about(ask: ValueAsk, text: str, value: Value) -> frozenset[str]:
    """The specific words of the question that the value's own clause says."""
    return _words_about(ask, " ".join(clause_of(text, value)))


def _words_about(ask: ValueAsk, clause: str) -> frozenset[str]:
    """The specific words of the question that ``clause`` says."""
    roots = roots_of(clause, "")
    return frozenset(
        t for t in specific_of(ask) if coverage((t,), roots, clause)[0] and t not in untimed()
    )
