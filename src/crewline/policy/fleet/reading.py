"""Reading the rows (``read_fleet``): the answer the retrieved rows give together, the rows it
rests on, or why there is none (they disagree, or say no value of the asked kind)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from crewline.policy.fleet.about import about_as_cited
from crewline.policy.fleet.asking import (
    ValueAsk,
    as_measure,
    moment_for_a_measure,
    one_value,
)
from crewline.policy.fleet.citing import Chooser, check_cited, injection_in
from crewline.policy.fleet.measures import measure_unsettled
from crewline.policy.fleet.nouns import as_the_row_names_it
from crewline.policy.fleet.periods import calendar_contradicted
from crewline.policy.fleet.picking import (
    has_specifics,
    mentioned,
    of_another,
    owned_by_another,
    pick,
    sources_of,
    tracker_words_aside,
    values_of,
    whole_for_a_part,
)
from crewline.policy.fleet.rivals import (
    about_in_other_words,
    another_time,
    asked_words,
    corrected,
    disagreement,
    latest,
    owned_elsewhere,
    owner,
    period_contradicted,
    rival_in_clause,
    rivals_of,
    said_in_other_words,
    said_of_same,
    taken_back,
    updated_by,
)
from crewline.policy.fleet.roles import asked_person, lent_to_another, named_as_the_thing
from crewline.policy.fleet.rows import (
    EXCLUSIVE,
    Fact,
    Row,
    Said,
    observed,
    of_other_subject,
    qualifiers,
    request_sentence,
    row_of,
    specific_of,
    strictly_about,
    unhedged,
)
from crewline.policy.fleet.when import (
    moment_of_another_event,
    start_for_an_end,
    start_said_by_span,
)
from crewline.policy.lemmas import lemma, root


@dataclass(frozen=True, kw_only=True, slots=True)
class FleetReading:
    """What the rows say: the answer and the rows it rests on, or why there is none."""

    answer: str | None = None
    source: Fact | None = None
    evidence: tuple[Fact, ...] = ()
    said: tuple[tuple[str, Fact], ...] = ()  # every member's value, when they disagree
    found: str = ""  # what was found, said for the card when there is no answer
    ignored: tuple[Fact, ...] = field(default=())  # rows that carried instructions

    @property
    def disagree(self) -> bool:
        return len({v.casefold() for v, _ in self.said}) > 1


def read_fleet(ask: ValueAsk, facts: Sequence[Fact]) -> FleetReading:
    """What ``facts`` say about ``ask``: one agreed value and its rows, or why none. Each row
    is read without what its member says it has not looked at (``observed``); the reading
    names the rows as they were said."""
    reading = _reading(ask, [observed(f) for f in facts])
    said = {f.row_id: f for f in facts}

    def back(fact: Fact) -> Fact:
        return said.get(fact.row_id, fact)

    return replace(
        reading,
        source=back(reading.source) if reading.source is not None else None,
        evidence=tuple(back(f) for f in reading.evidence),
        said=tuple((v, back(f)) for v, f in reading.said),
        ignored=tuple(back(f) for f in reading.ignored),
    )


def _reading(ask: ValueAsk, facts: Sequence[Fact]) -> FleetReading:
    """The reading of ``facts``: by the rows strictly about the question; any other row
    about most of it that gives another value of the asked kind, by the asked noun or by the
    question's words, disputes the answer."""
    usable = [f for f in facts if not injection_in(f.text)]
    ignored = tuple(f for f in facts if injection_in(f.text))
    ask = as_measure(tracker_words_aside(ask))
    if not ask.subject and ask.decides:
        # "where should the new config file live?": a decision asked of you, about nothing
        # a row can be known to answer
        return FleetReading(found="it asks you to decide, about nothing the fleet said")
    if ask.pair and not one_value(ask.pair):
        # "which version and commit …": one of the two is a partial answer
        first, second = ask.pair
        return FleetReading(
            found=f"it asks two things, the {first} and the {second}, and a value answers one",
            ignored=ignored,
        )
    members = sorted({f.member for f in usable})
    sources = sources_of(ask, members)
    if isinstance(sources, str):
        return FleetReading(
            found=f"it asks what {sources} said, and no member of that name said a thing about it",
            ignored=ignored,
        )
    rows = [
        _span_read(ask, row_of(ask, f))
        for f in usable
        if (sources is None or f.member in sources) and has_specifics(ask, f)
    ]
    specific = specific_of(ask)
    answering: list[tuple[Said, Row]] = []
    against: list[tuple[Said, Row]] = []
    several: list[Row] = []
    rivals: list[tuple[str, Fact]] = []  # the rows disputing a row read as a citation
    for row in rows:
        # the question's own person ("Captain Moreau") is never who it asks of, nor a rival
        values = [v for v in values_of(ask, row.fact) if not asked_person(ask, v.value)]
        if row.covered:
            against += [(v, row) for v in values if v.moment]
        if row.exact:
            # a value its member is unsure of answers nothing, but disputes another's ("was
            # 88213 … says it's 88240 …, not sure which one is live")
            against += [
                (v, row)
                for v in values_of(ask, unhedged(row.fact))
                if v not in values and not asked_person(ask, v.value)
            ]
        values = [v for v in values if not v.moment]
        if not values:
            continue
        picked = (
            None
            if another_time(ask, row.fact)
            or period_contradicted(ask, row.fact)
            or calendar_contradicted(ask.question, row.fact.text)
            else pick(ask, row, values)
        )
        if not strictly_about(ask, row):
            # a row short of a word of the question answers where a citation of its value
            # would hold: about the thing as ``check_cited`` reads it (``about_as_cited``:
            # the relation asked, a noun the value's form proves, words of time and degree
            # need not be said, a head renamed by its modifier, one plain word left out by
            # the row most about the question) and passing every check of it; rows
            # disputing it are said on the card
            cited = picked if isinstance(picked, Said) else None
            picked = None
            if cited is not None and about_as_cited(ask, row.fact, cited.value, usable):
                found = rivals_of(ask, row.fact, cited.value, usable)
                rivals += [(cited.value.text, row.fact), *found] if found else []
                checked = check_cited(
                    ask, usable, row.fact.row_id, cited.value.text, by=Chooser.READER
                )
                if checked is not None:
                    picked = cited
        if picked is not None:
            if isinstance(picked, Said) and of_another(ask, row.fact, picked):
                picked = "several"
            if isinstance(picked, Said) and (
                of_other_subject(ask, row.fact.text, picked.value)
                or lent_to_another(ask, row.fact, picked.value)
                # "Saturday 22:00-02:00" for "when does it end?": the start of the span
                or start_for_an_end(ask.question, row.fact.text, picked.value)
                # "issued 10:05, valid until 21:00" for "until what time …?": another event's
                or moment_of_another_event(ask.question, row.fact.text, picked.value)
                # "stopped on Tuesday 14 May" for "what was its last wave height?"
                or moment_for_a_measure(ask, picked.value)
                # "iOS 6.4.2 went into review; Android 6.4.1 is at 20%" for 6.4.2's rollout
                or rival_in_clause(ask, row.fact.text, picked.value)
            ):
                # "dbt runs on warehouse ETL_WH_L; the dashboards use another"; the
                # migrator's "the nightly backup took 4 minutes" for "the migration"
                picked = None
            if isinstance(picked, Said) and whole_for_a_part(ask, row.fact.text, picked.value):
                picked = "several"
            if isinstance(picked, Said) and measure_unsettled(ask, row.fact.text, picked, values):
                picked = "several"  # "max 6.9 °C / min 3.1 °C" for "what temperature …?"
            if isinstance(picked, Said):
                answering.append((picked, row))
                continue  # its other values are the pick's neighbours, not a dispute
            if picked == "several":
                several.append(row)
        # a row about all but one of its specific words (any row, when it names nothing
        # specific) disputes with a value said by the asked noun or by the question's words
        if not specific:
            # "which version is running?": whose? Every row disputes — but where the request
            # names what it is about in generic words ("the newest tag on the repo"), a row
            # that says none of them nor the asked noun is of another thing ("Postgres 14.9")
            if not ask.subject or row.score > 0 or root(ask.noun) in row.roots:
                against += [(v, row) for v in values]
        elif row.exact or sources is not None:
            against += [(v, row) for v in values if v.cue or v.labels & set(specific)]
    if several and not answering:
        listed = "; ".join(f"{r.fact.member} said “{_short(r.fact.text)}”" for r in several)
        return FleetReading(
            found=f"a row gives several values and the question does not say which: {listed}",
            ignored=ignored,
        )
    if answering:
        named = mentioned(_names_aside(ask, members), [r.fact.member for _, r in answering])
        if named:  # "what did billing-bot draft?": that member's rows
            request = request_sentence(ask)
            if mentioned(replace(ask, question=request), sorted(named)) and not (
                # "the PAS database primary" of member pas: its system, another's row about
                # it disputes, as below
                named_as_the_thing(ask, request, sorted(named))
            ):
                against = [(v, r) for v, r in against if r.fact.member in named]
            else:
                # named only in what comes before the request ("… right after the ledger
                # end-of-day close. which time is the close?"): a word of the thing, whose
                # rows answer, while another member's row about it still disputes
                against += [(v, r) for v, r in answering if r.fact.member not in named]
            answering = [(v, r) for v, r in answering if r.fact.member in named]
        best = max(r.score for _, r in answering)
        against += [(v, r) for v, r in answering if r.score < best]
        answering = [(v, r) for v, r in answering if r.score >= best]
    if not answering and rivals:
        every = sorted(dict.fromkeys(rivals), key=lambda p: p[1].at)
        return FleetReading(said=tuple(every), found=disagreement(every), ignored=ignored)
    if not answering:
        return FleetReading(found=_nothing(ask, rows), ignored=ignored)
    if any(v.cue for v, _ in answering):
        # "port 4321" over ":5432" in a row; another row's value said without the asked
        # noun still disputes ("latest release is v4.12.1" against "release tag … v4.12.3")
        cued_rows = {r.fact.row_id for v, r in answering if v.cue}
        against += [(v, r) for v, r in answering if r.fact.row_id not in cued_rows]
        answering = [(v, r) for v, r in answering if v.cue]
    if not all(owned_by_another(ask, r.fact.text, v) for v, r in answering):
        # "staging got v2.14.0" over "Postgres 15.4" for the version staging got
        answering = [(v, r) for v, r in answering if not owned_by_another(ask, r.fact.text, v)]
    if ask.subject:
        # "Postgres 15.4" is Postgres's version, not the asked thing's — but a request that
        # names nothing ("which version is running?") may mean any of them
        against = [(v, r) for v, r in against if not owned_elsewhere(ask, r.fact.text, v)]
    if specific and all(v.cue for v, _ in answering):
        # a value said by the asked noun is disputed only by another said the same way,
        # not by one of another thing's ("Postgres 15.4 … :5432")
        against = [(v, r) for v, r in against if v.cue or said_of_same(ask, v)]
    if specific:
        # a dispute comes from a row as much about the question's specific words as the
        # answer's ("809 tests passed" against "812 tests passed", both on main)
        least = min(r.in_text for _, r in answering)
        owners = {o for v, _ in answering if (o := owner(v)) and root(o) not in ask.cues}
        against = [
            (v, r)
            for v, r in against
            if r.in_text >= max(1, least)
            # about every word of the question, some in other words ("Owner of the billing
            # DB is …" against "who owns the billing database?")
            or about_in_other_words(ask, r)
            # one specific word short, but the value named by the same asked word:
            # "Postgres 15.4" against "Postgres 14.9" for the staging database's
            or (r.in_text >= max(1, least - 1) and owner(v) in owners & asked_words(ask))
            # or said in a clause of its own about all but one of them, three or more:
            # "caps uploads at 25 MB for the web service" against "the web service's max
            # upload size is 50 MB"
            or said_of_same(ask, v)
        ]
    said = latest(answering)
    agreed = {v.casefold() for v, _ in said}
    against_facts = [(v.value.text, r.fact) for v, r in against]
    against_facts += said_in_other_words(ask, answering, rows)
    against_facts += taken_back(ask, answering, usable)
    against_facts += corrected(ask, answering, usable)
    others = [
        (v, f) for v, f in against_facts if v.casefold() not in agreed and not updated_by(f, said)
    ]
    if len(agreed) > 1 or others:
        every = sorted(dict.fromkeys([*said, *others]), key=lambda p: p[1].at)
        return FleetReading(said=tuple(every), found=disagreement(every), ignored=ignored)
    value, source = max(said, key=lambda p: p[1].at)
    return FleetReading(
        answer=as_the_row_names_it(ask, source.text, value),
        source=source,
        evidence=tuple(f for _, f in said),
        said=said,
        ignored=ignored,
    )


# A name of several pieces ("mes-l3", "mes-l3.plant.local", "orders_db").
_JOINED_NAME = re.compile(r"(?<![\w.-])\w+(?:[-_.]\w+)+")


def _names_aside(ask: ValueAsk, members: Sequence[str]) -> ValueAsk:
    """The question without the names that only hold a member's name as a piece ("mes-l3",
    the host, is no word of member "mes"): a member is named by its whole name alone, and a
    question that names none asks every member's rows, disputes included."""
    whole = {m.lower() for m in members}
    question = _JOINED_NAME.sub(lambda m: m.group(0) if m.group(0) in whole else " ", ask.question)
    for name in whole:
        if _the_asked_noun(ask, name, question):
            question = re.sub(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", " ", question)
    return replace(ask, question=question)


def _the_asked_noun(ask: ValueAsk, name: str, question: str) -> bool:
    """Is a member's name, said once in the question, the noun the question asks of ("how
    many buoys are reporting?" of member "buoys"): the thing asked about, not whose rows
    are asked? Every member's row about that thing answers or disputes, as when no member
    is named; said twice ("how many buoys did buoys count?"), one of them names the member."""
    if not name.isalpha() or not ask.noun:
        return False
    said = re.findall(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", question)
    asked = {root(ask.noun), *(root(c) for c in ask.counted)}
    return len(said) == 1 and root(lemma(name)) in asked


def _span_read(ask: ValueAsk, row: Row) -> Row:
    """``row`` read as saying the question's word of a start where a span of the asked kind
    of moment says it (``start_said_by_span``: "Saturday 22:00-02:00" starts at 22:00)."""
    said = start_said_by_span(ask.kinds, ask.subject, row.roots, row.fact.text)
    if said is None:
        return row
    return replace(
        row,
        roots=row.roots | {said},
        covered=row.covered + 1,
        score=row.score + 1,
        exact=row.exact + 1,
        in_text=row.in_text + 1,
    )


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _nothing(ask: ValueAsk, rows: Sequence[Row]) -> str:
    """What the card says when no row answers."""
    about = [r for r in rows if r.covered]
    if about:
        members = ", ".join(sorted({r.fact.member for r in about}))
        asked = re.findall(r"[a-z]+", request_sentence(ask))
        said = [set().union(*(qualifiers(r.fact.text)[n] for r in about)) for n in (0, 1)]
        unsaid = [w for w in asked for n in (0, 1) if EXCLUSIVE[n].get(w, -1) not in said[n] | {-1}]
        if unsaid:
            return f"{members} said something about it, but not of the {unsaid[0]} one"
        return f"{members} said something about it, but no {ask.noun} in it stated as a fact"
    return f"no member has said a {ask.noun} for it"
