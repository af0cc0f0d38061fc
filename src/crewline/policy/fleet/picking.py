"""Which of a row's values answers: the live values of the asked kind it says (or counts), whose
they are, the one its own labels pick when it says several, and the members and specifics the
question names."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import replace

from crewline.policy.fleet.asking import (
    ASKING,
    EVENT_NOUNS,
    GENERIC,
    MOMENT,
    NAMING,
    NP_STOP,
    PART_NOUNS,
    PHYSICAL,
    STOP,
    STRONG,
    VAGUE_REPORT,
    VERBISH,
    WHOLES,
    ValueAsk,
    in_asked_unit,
    past,
)
from crewline.policy.fleet.periods import days_of_month
from crewline.policy.fleet.rows import (
    CLAUSE_END,
    NEGATION,
    Fact,
    Row,
    Said,
    clause_of,
    derived_from,
    other_qualifier,
    other_state,
    placed_at_port,
    qualifiers,
    roots_of,
    says,
    specific_of,
    status_of,
    then_now,
    unsettled,
    words_near,
)
from crewline.policy.fleet.spelling import says_in_another_form
from crewline.policy.fleet.thesaurus import group_of, near
from crewline.policy.lemmas import Token, known, lemma, root, stem, tokens
from crewline.policy.values import Kind, Value, values_in, with_weekday
from crewline.policy.wording import code_form, word_set


def _said(ask: ValueAsk, fact: Fact) -> list[Said]:
    """The live values of the asked kind in a row, each with its clause's words."""
    text = unicodedata.normalize("NFKC", fact.text)
    out = []
    for value in _with_ports(ask, text, _read_whole(ask, text, values_in(text))):
        bound = bound_by_label(ask, text, value)
        if bound and value.kind not in ask.kinds:
            # "contractor Aquaflow Ltd": a name the asked noun labels is the name asked
            value = replace(value, kind=ask.kinds[0])
        asked = value.kind in ask.kinds and in_asked_unit(ask, value)
        status = status_of(ask, text, value) if asked else None
        if status in (None, "gone") or in_question(ask, value.text):
            continue  # not a fact here, or the question's own value ("acme.io's MX")
        # "rebooted 2 days ago": a moment, not how long something lasts — no answer to
        # "how long", but it disputes one ("uptime: 41 days")
        moment = value.kind is Kind.DURATION and bool(MOMENT.match(text[value.end :]))
        if how_often_unasked(ask, text, value):
            continue  # "runs every 15 min": how often, never how long one run took
        if other_qualifier(ask, text, value) or other_state(ask, text, value):
            continue
        before, after = words_near(text, value)
        cue = bool(set(before + after) & ask.cue_stems) or bool(set(before[-2:]) & ask.verb_cues)
        cue = cue or placed_at_port(ask, text, value, before) or bound
        if not cue:  # "Owner of the billing DB is Daniel Cho", "MAU in March was 1.2M": the
            # asked noun heads the clause
            role = _ROLE_OF.match(clause_of(text, value)[0].lower())
            cue = role is not None and stem(role.group(1)) in ask.cue_stems
        if not cue and (value.kind not in STRONG or ask.kinds == GENERIC):
            # "Redis maxmemory on staging is 2 GB": a value read by nothing else
            cue = heads_its_clause(ask, *clause_of(text, value))
        if value.kind is Kind.ID and not cue:
            # a name that says what it is ("team-ledger" for the team, "ci-runner-07" for
            # the runner)
            cue = any(t.stem in ask.cue_stems for t in tokens(value.text.lower()))
        if value.kind is Kind.ID and not cue:
            cue = _ticket_for(ask, value)  # "tracked in OPS-4471" for "which ticket"
        if value.kind is Kind.ID and not cue:
            cue = _machine_for(ask, text, value)  # "rebuilt on build-03" for "which box"
        if value.kind is Kind.PERSON and not cue and all(known(w) for w in value.text.split()):
            continue  # "Google Cloud Monitoring": words of the language, not a person's name
        labels = _labels(text, value)
        if ask.kinds == GENERIC and not cue:
            continue  # a value for "what's the X?" stands next to X
        if ask.noun in EVENT_NOUNS and not (cue or _event_said(ask, clause_of(text, value)[0])):
            continue  # "the expiry": a date the row says by the event ("expires on"), no other
        near = {root(w) for w in before} | labels
        named_by_subject = ask.noun in NAMING and bool(near & set(ask.subject))
        if value.kind not in STRONG and not cue and not named_by_subject:
            continue  # a bare number or word counts only by the asked noun ("port 4321")
        out.append(
            Said(
                value=value,
                labels=labels,
                cue=cue,
                near=_lemmas_near(text, value),
                planned=status == "plan",
                clause=" ".join(clause_of(text, value)).lower(),
                moment=moment,
            )
        )
    return out


# A name the row binds to the asked noun: the noun written right before it, alone or after a
# colon or "is" ("contractor Aquaflow Ltd", "the supplier: Millbrook_Farms"); the question's
# own label for the thing written so ("Which model was the main culprit?" of "Main culprit:
# fct_ledger_entries"); or the account a login names ("log in as ops-ro" for "which user").
# Only for a request of a name, by a noun the kinds table reads as one or does not know, and
# only a whole name of the row: a value of another noun ("auto-suspend 300 s"), a plain word
# of prose ("the warehouse is slow") or one the question says are no such binding.
_NAME_KINDS = frozenset({Kind.ID, Kind.QUALIFIED, Kind.PERSON})
_BOUND_LABEL = re.compile(
    r"(?:^|(?<=[\s(]))((?:[A-Za-z][\w-]*\s+){0,2}[A-Za-z][\w-]*)(\s*:\s*|\s+(?:is|was)\s+|\s+)$"
)
# A label word that says the value is not the one standing now ("the old contractor X")
_NOT_NOW_LABEL = word_set("old former previous prior planned next new proposed backup spare")
_LOGIN_AS = re.compile(
    r"\b(?:log(?:ged|s)?|sign(?:ed|s)?)\s+(?:in|on)\s+as\s+$|\b(?:connect(?:ed|s)?|ssh)\s+as\s+$"
)
_DONT = re.compile(r"\b(?:don'?t|doesn'?t|didn'?t|do not|does not|did not|never)\b")
_UNDECIDED = re.compile(
    r"\b(?:not\s+(?:yet\s+)?(?:decided|confirmed|final|signed|agreed)|undecided"
    r"|shortlist(?:ed)?|candidates?)\b"
)
_LOGIN_NOUNS = word_set("user username login account")
# A name in code form: joined by "_", "-" or "." or holding a digit ("fct_ledger_entries",
# "ops-ro", "line3"), never a word of plain prose
_CODE_NAME = re.compile(r"[A-Za-z][\w.-]*(?:[_.-]\w+|\d)[\w.-]*")


def _asks_a_name(ask: ValueAsk) -> bool:
    """Is the request one for a name: a noun the kinds table does not know (the generic
    kinds) or one it reads as a name (an id, a queue, a topic, a table)?"""
    return ask.kinds == GENERIC or (bool(ask.kinds) and ask.kinds[0] is Kind.ID)


def _plain_before_noun(ask: ValueAsk, word: Token) -> bool:
    """Is ``word``, right before the asked noun in a row, no modifier of its own: a word of
    the question, a function word, or a verb that hands the thing over ("given to")?"""
    if word.text in STOP or root(word.lemma) in ask.subject or word.stem in ask.cue_stems:
        return True
    return word.text in _HANDING or past(word)  # "booked caterer …", "hired haulier …"


# The verbs and prepositions a row hands a named thing over with ("given to contractor …",
# "assigned to nurse …", "went to topic …")
_HANDING = word_set("to with by from via as went sent given assigned awarded handed moved")


def bound_by_label(ask: ValueAsk, text: str, value: Value) -> bool:
    """Does the row bind the name ``value`` to the asked noun, or to the question's own
    label for the thing (see ``_BOUND_LABEL``)?"""
    if value.kind not in _NAME_KINDS or not _asks_a_name(ask) or in_question(ask, value.text):
        return False
    before = clause_of(text, value)[0]
    if NEGATION.search(before.lower()) or _DONT.search(before.lower()):
        return False  # "don't log in as boxoffice-till2", "not on vessel …"
    if _UNDECIDED.search(text.lower()):
        return False  # "shortlist has carrier Baltic Feeder Lines, not decided": a candidate
    if _LOGIN_AS.search(before.lower()):
        return ask.noun in _LOGIN_NOUNS and _CODE_NAME.fullmatch(value.text) is not None
    found = _BOUND_LABEL.search(before)
    if found is None:
        return False
    label = [t for t in tokens(found.group(1).lower())]
    if not label or any(t.text in _NOT_NOW_LABEL for t in label):
        return False
    if label[-1].stem in ask.cue_stems:
        # "given to contractor Aquaflow Ltd": the asked noun itself, after a word of the
        # question, a function word or a verb — never after another modifier ("the Oakfield
        # contractor", "the standby contractor" name another one)
        return len(label) == 1 or _plain_before_noun(ask, label[-2])
    # "Main culprit: fct_ledger_entries": every word of the label the question's, joined
    # by a colon or "is", and the value a name in code form
    joined = found.group(2).strip()
    said = [t for t in label if t.text not in STOP]
    return (
        joined in (":", "is", "was")
        and len(said) >= 1
        and all(root(t.lemma) in ask.subject for t in said)
        and _CODE_NAME.fullmatch(value.text) is not None
        and not _named_as_another(ask, value.text)
    )


def _named_as_another(ask: ValueAsk, name: str) -> bool:
    """Does a name say it is another thing than the one asked, by the word it leads with
    ("dough_mixer_1" for "which oven"): a word of the language, neither the asked noun nor
    a word of the question?"""
    lead = tokens(re.split(r"[_.-]", name.lower(), maxsplit=1)[0])
    if not lead or not lead[0].text.isalpha() or not known(lead[0].text):
        return False  # "fct_ledger_entries", "R2_…": a code, no word that names a kind
    word = lead[0]
    asked = {t.stem for t in tokens(ask.question)}
    return (
        word.stem not in ask.cue_stems
        and word.stem not in asked
        and not any(word.stem in a or a in word.stem for a in ask.cue_stems)
    )


def _event_said(ask: ValueAsk, head: str) -> bool:
    """Does the clause before a value say the asked event by its verb ("MV Corra *arrives*
    in Lisbon on …" for "the arrival"), not another event ("was issued on …")?"""
    return any(t.stem in ask.cue_stems for t in tokens(code_form(head)))


# A duration after "every", "each" or "per" ("runs every 15 min", "a dump each 6 h", "100
# calls per 10 s") says how often something recurs or the window a rate counts in, never
# how long one occurrence took or lasts.
_RECURS_BEFORE = re.compile(r"\b(?:every|each|per)\s+(?:other\s+|single\s+)?$")
# The words that ask how often, or the span between occurrences, which such a duration answers
_RECURRENCE_WORDS = word_set(
    "often frequency frequently interval cadence period periodicity every each between cycle"
)


def _recurrence(text: str, value: Value) -> bool:
    """Is the duration ``value`` said as a recurrence ("every 15 min") in ``text``?"""
    return _RECURS_BEFORE.search(text[: value.start].lower()) is not None


def how_often_unasked(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is ``value`` a duration the row says as a recurrence ("every 15 min") for a question
    that does not ask how often — an answer to neither "how long did it take" nor "how long
    ago"?"""
    return value.kind is Kind.DURATION and _recurrence(text, value) and not _asks_recurrence(ask)


def _asks_recurrence(ask: ValueAsk) -> bool:
    """Does the question ask how often, or the span between two occurrences?"""
    return bool(set(re.findall(r"[a-z]+", ask.question)) & _RECURRENCE_WORDS)


# A tracker's id has the tracker's key in capitals before its number ("OPS-4471",
# "INC-20931"): by its shape it is the ticket asked for, wherever the row says it.
TICKET_ID = re.compile(r"[A-Z][A-Z0-9]{1,9}-\d+")
TICKET_NOUNS = word_set("ticket incident issue bug case jira")


def _ticket_for(ask: ValueAsk, value: Value) -> bool:
    """Is the value a tracker's id and the asked noun a ticket (or an incident, an issue)?"""
    asked = ask.noun in TICKET_NOUNS or (ask.noun in NAMING and ask.modifier in TICKET_NOUNS)
    return asked and TICKET_ID.fullmatch(value.text) is not None


# A machine's name: a lower-case word that ends in its number ("worker-4", "hpc-ctl01",
# "pg-staging-01"). It names the host asked where the row places something on it ("runs on
# worker-4", "rebuilt on build-03") or gives its port ("pg-staging-01:5433").
_MACHINE_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:-\d+|[a-z]\d+)")
_ON_MACHINE = re.compile(r"\b(?:on|at|from)\s+$")
_WITH_PORT = re.compile(r":\d{2,5}\b")


def _machine_for(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is the value a machine's name, placed as a machine, and the asked kind a host?"""
    if not ask.kinds or ask.kinds[0] is not Kind.HOST:
        return False
    if _MACHINE_NAME.fullmatch(value.text) is None:
        return False
    return bool(_ON_MACHINE.search(text[: value.start]) or _WITH_PORT.match(text, value.end))


def tracker_words_aside(ask: ValueAsk) -> ValueAsk:
    """A request for a ticket, the words that name the ticket ("the *Jira* ticket", "the
    *incident* number") aside from what it is about: the id's shape says them."""
    if not (ask.noun in TICKET_NOUNS or (ask.noun in NAMING and ask.modifier in TICKET_NOUNS)):
        return ask
    aside = {root(w) for w in (*TICKET_NOUNS, ask.modifier) if w}
    return replace(ask, subject=tuple(t for t in ask.subject if t not in aside))


_ROLE_OF = re.compile(
    r"\s*(?:the\s+|our\s+)?([a-z]+)\s+(?:of|in|for)\s+[^.;:]*?\b(?:is|are|was|were)\s*$"
)


# A clause's subject up to its verb: a few words before its head noun, then what it is of or
# where ("Snowflake warehouse for the analysts is …", "Redis maxmemory on staging is …"), and
# when ("room turnaround this week was …"). Its verb is "is", or one that says what a measure
# came to as "is" would ("the load factor came in at …", "the backlog stands at …"), or which
# of its values the clause gives ("cold start averages …", "heap peaked at …": an average, a
# peak — a word of the subject the question must say, as any other).
_NOT_BEFORE_HEAD = r"(?!(?:of|in|for|on|at|this|last|next|previous|yesterday|today|tonight)\s)"
_HEADED = re.compile(
    rf"\s*(?:(?:the|our)\s+)?((?:{_NOT_BEFORE_HEAD}[a-z][\w-]*\s+){{1,3}})([a-z]+)"
    r"(?:\s+((?:of|in|for|on|at)\s+[^.;:]*?))?"
    r"(\s+(?:(?:this|last|next|previous)\s+(?:week|month|quarter|year|night|weekend)"
    r"|yesterday|today|tonight))?"
    r"\s+(?:is|are|was|were|(?:came|comes)\s+in\s+at"
    r"|(?:stands|stood|sits|sat|lands|landed|holds|held)\s+at"
    r"|(averages|averaged|averaging|peaks\s+at|peaked\s+at))\s*$"
)
# Words that say which period a subject's value is of, a stop word elsewhere ("*last* week"
# against "this week"): a subject that says one says another value than a question without it.
_PERIOD_SIDE = word_set("this last next previous prior yesterday today tonight")


def heads_its_clause(ask: ValueAsk, head: str, tail: str) -> bool:
    """Does the asked noun head the subject of the value's clause, every word of that
    subject the question's ("*Snowflake* warehouse for the *analysts* is ANALYTICS_WH_M"
    for "which Snowflake warehouse should my analyst notebook use?", "*Redis* maxmemory on
    *staging* is 2 GB"), and the value end its clause: the value is what that noun is? A
    word of the subject the question does not say names another one of it ("the backup
    warehouse is …", "coverage on branch feature/x is …"), and words after the value tell
    it from another ("is $9.99 in the US and €10.99 in the EU"): no reading of it then."""
    found = _HEADED.match(head.lower())
    if found is None or stem(found.group(2)) not in ask.cue_stems:
        return False
    if re.search(r"[a-z0-9]", tail.lower()):
        return False
    asked = {t.stem for t in tokens(ask.question)} | {root(t.lemma) for t in tokens(ask.question)}
    subject = " ".join(found.group(n) or "" for n in (1, 3, 4, 5))
    said = [t for t in tokens(subject) if t.text not in STOP]
    if {t.text for t in tokens(subject)} & _PERIOD_SIDE - {t.text for t in tokens(ask.question)}:
        return False  # "load factor last week came in at …" for this week's
    return bool(said) and all(t.stem in asked or root(t.lemma) in asked for t in said)


def _with_ports(ask: ValueAsk, text: str, values: list[Value]) -> list[Value]:
    """The values, and for a request of a port, the port a URL or host names after its
    colon ("served at https://mirth-admin.example:8443": 8443) — in a row that states no
    port of its own ("the api listens on port 4321; its docs are at …:8443": 4321 alone)."""
    if Kind.PORT not in ask.kinds or Kind.URL in ask.kinds or Kind.HOST in ask.kinds:
        return values
    if _PORT_WORD.search(text) or any(v.kind is Kind.PORT for v in values):
        return values
    out = []
    for value in values:
        out.append(value)
        port = _PORT_IN.search(value.text) if value.kind in (Kind.URL, Kind.HOST) else None
        if port is not None:
            start = value.start + port.start(1)
            out.append(
                Value(
                    text=port.group(1), kind=Kind.PORT, start=start, end=start + len(port.group(1))
                )
            )
    return out


def _read_whole(ask: ValueAsk, text: str, values: list[Value]) -> list[Value]:
    """The values, a value the row states whole across two of them (a host with its port:
    "mm-staging.internal:7450"; a date with its time) read as one — but where the asked
    noun asks a part ("which port", "what date"). A request of both ("host and port") is
    answered by a whole alone: a host without its port answers half of it."""
    out: list[Value] = []
    k = 0
    while k < len(values):
        first = values[k]
        second = values[k + 1] if k + 1 < len(values) else None
        joined = second is not None and any(
            first.kind is one
            and second.kind is two
            and first.kind in ask.kinds
            and ask.noun not in PART_NOUNS[one] | PART_NOUNS[two]
            and gap.fullmatch(text[first.end : second.start])
            for one, gap, two in WHOLES
        )
        if joined and second is not None:
            whole = text[first.start : second.end]
            out.append(Value(text=whole, kind=first.kind, start=first.start, end=second.end))
            k += 2
            continue
        if not (ask.pair and first.kind in ask.kinds):
            out.append(on_its_day(ask, text, first))
        k += 1
    return out


def on_its_day(ask: ValueAsk, text: str, value: Value) -> Value:
    """A time with the weekday the row writes right before it ("handover Monday 09:00"), but
    where the asked noun asks the time alone ("what time …?") or the question names that day
    itself ("when does it start on Friday?")."""
    if ask.noun in PART_NOUNS[Kind.TIME]:
        return value
    whole = with_weekday(text, value)
    day = text[whole.start : value.start].strip(" ,.").split()[0].lower() if whole != value else ""
    if day and re.search(rf"\b{re.escape(day)}", ask.question.lower()):
        return value
    return whole


_PORT_WORD = re.compile(r"\bports?\b", re.IGNORECASE)
_PORT_IN = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?[^/:@\s]+:(\d{2,5})(?=/|$)", re.IGNORECASE)


def _lemmas_near(text: str, value: Value) -> frozenset[str]:
    """The lemmas of the two words before a value and of the one after it, in its clause."""
    head, tail = clause_of(text, value)
    before = tokens(code_form(head))[-2:]
    after = tokens(code_form(tail))[:1]
    return frozenset(t.lemma for t in (*before, *after))


def owned_by_another(ask: ValueAsk, text: str, said: Said) -> bool:
    """Is the value named by a noun the question does not say, right before it ("Migration
    0042_add_invoices", "Postgres 15.4"): that thing's value, not one of what is asked?"""
    if said.cue:
        return False
    return naming_noun(ask, text, said.value) is not None


# Words that say when a value held, never whose it is ("false positives last week: 0.8%",
# "p99 over the last hour: 180 ms").
_WHEN_NOUNS = word_set(
    """hour hours day days week weeks month months quarter year night sprint weekend morning
    evening afternoon today yesterday tonight"""
)


def naming_noun(ask: ValueAsk, text: str, value: Value) -> Token | None:
    """The word right before the value in its clause when it can be a noun naming the
    value's owner, one the question does not say ("Postgres" in "Postgres 15.4")."""
    head, _ = clause_of(text, value)
    left = tokens(code_form(head))[-1:]
    if not left:
        return None
    word = left[0]
    named = (
        word.text.isalpha()
        and word.text not in STOP | NP_STOP | VERBISH | _WHEN_NOUNS
        and word.lemma not in ASKING
        and not past(word)
        and word.text not in ask.question
    )
    return word if named else None


def in_question(ask: ValueAsk, value: str) -> bool:
    pattern = rf"(?<![a-z0-9]){re.escape(value.lower())}(?![a-z0-9])"
    return bool(ask.question) and re.search(pattern, ask.question) is not None


def _labels(text: str, value: Value) -> frozenset[str]:
    head, tail = clause_of(text, value)
    words = tokens(code_form(f"{head} {tail}"))
    return frozenset({t.stem for t in words} | {root(t.text) for t in words})


def _counted(ask: ValueAsk, fact: Fact) -> list[Said]:
    """The numbers that count the asked noun: "1834 files", "3 of 40 pods" (→ 3), "27
    warnings" — the noun itself (or a short form of it), never a neighbour of it."""
    text = fact.text
    out: list[Said] = []
    counting = False  # the last number counted the asked noun ("57 TODOs, 12 of them…")
    number = (  # ends in a digit, before a comma or a full stop: "48,", "51."
        # never the piece of a time or a ratio after its colon ("at 09:00" counts no "00")
        r"(?<![\w.#])(?<!\w-)(?<!\d\u2013)(?<!\d:)(\d(?:[\d,]*\d)?(?:\.\d+)?(?:k|m)?)"
        r"(?![\w%])(?!\.\w)(?![-\u2013]\w)"
    )
    for m in re.finditer(number, text, re.I):
        if re.search(r"\d\s*(?:of|out of|/)\s*$", text[: m.start()]):
            continue  # "3 of 40 pods": 40 is the whole, 3 the count
        # a magnitude after its number, spelt out or by its letter ("1.8 M rows", "12 k
        # keys"): the count whole, never "1.8" rows
        scale = re.match(
            r"\s+(?:thousand|million|billion|trillion|(?-i:[kKM])(?=\s+[a-z]))\b",
            text[m.end(1) :],
            re.I,
        )
        end = m.end(1) + (scale.end() if scale else 0)
        value = Value(text=text[m.start(1) : end], kind=Kind.NUMBER, start=m.start(1), end=end)
        if names_one(ask, text, value):
            counting = False
            continue  # "admission 5521": one of them, by its number
        if re.match(r"\s+of\s+(?:them|those|these)\b", text[m.end() :]) and counting:
            out += _counted_value(ask, text, value)  # "57 TODOs, 12 of them in src/api"
            continue
        rest = re.sub(
            r"^(?:\s+(?:out\s+)?of\s+(?:\d[\d,.]*|them|those|these|which|all)\b|/\d[\d,]*\b)",
            "",
            text[end:],
        )  # "3 of 40 pods", "312/312 unit tests": the noun after the whole
        following = _following(rest)
        # a heading's count ends its clause: "failures last week: 19, all missing codes"
        # counts no "all" — nothing after its comma is a noun it counts
        own = _following(_OWN_CLAUSE_END.split(rest, maxsplit=1)[0])
        if _headed_count(ask, text, value, own):
            counting = True
            out += _counted_value(ask, text, value)  # "Pitch bearings: 3 in Aberdeen"
            continue
        if counting and _PLACE_HEADING.search(text[: value.start]):
            # "Refund requests on Monday: 48, on Tuesday: 51": 51 counts them too, on Tuesday
            out += [replace(v, parallel=True) for v in _counted_value(ask, text, value)]
            continue
        if not following or following[0][0].isdigit():
            counting = False
            continue
        if counting and _ELIDED.match(rest) and _says_asked(ask, text, value):
            # "812 documents went in, 17 were rejected" for "how many did it reject?": some
            # of the noun just counted, in a clause of their own that says a word the
            # question asks by; a clause that says none is no count the question reads
            out += _counted_value(ask, text, value)
            continue
        if counting and following[0] in ("on", "in", "at", "for", "from", "under", "across"):
            # "12 failing tests on main and 3 on the release branch": 3 counts them too
            out += [replace(v, parallel=True) for v in _counted_value(ask, text, value)]
            continue
        phrase = _phrase(rest)
        for n, word in enumerate([*following, *phrase[2:]]):
            r = root(lemma(word))
            if any(_same_noun(r, c) for c in ask.counted):
                # a noun read past the two words: the modifiers before it restrict the
                # count ("617 stale feature flags"), an answer only where the question asks
                # that restriction itself, never the whole ("in total, stale or not?")
                counting = n < len(following) or _restriction_asked(
                    ask, phrase[: n - len(following) + 2]
                )
                out += _counted_value(ask, text, value) if counting else []
                break
        else:
            counting = False
    return out


def names_one(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is the number cited for "how many <things>" written right after one of those things,
    singular ("order 8812", "admission 5521", "container #3317")? It names that one thing
    by its number; it counts none."""
    if not ask.counted:
        return False
    before = re.search(r"([A-Za-z][\w-]*)\s*(?:#|no\.?\s*)?$", text[: value.start])
    if before is None:
        return False
    word = tokens(before.group(1).lower())
    return bool(word) and word[0].lemma == word[0].text and root(word[0].text) in ask.counted


def _following(rest: str) -> list[str]:
    """The first two words after a number that may be the noun it counts."""
    return [
        w
        for w in re.findall(r"[a-z0-9][a-z0-9-]*", rest.lower()[:48])[:4]
        if w not in ("with", "known", "new", "total", "more", "are", "were", "have", "had")
    ][:2]


# A count whose noun is left out, said of the noun the count before it counted: a state or
# an outcome of some of them ("17 were rejected", "9 are still open").
_ELIDED = re.compile(r"\s+(?:are|were|was|is|got)\s+(?!(?:of|the|a|an|our|my|its|their)\b)[a-z]")


def _says_asked(ask: ValueAsk, text: str, value: Value) -> bool:
    """Does the value's own clause, after it, say one of the question's words?"""
    _, tail = clause_of(text, value)
    words = tokens(code_form(tail))
    said = {root(t.lemma) for t in words} | {t.stem for t in words}
    return bool(said & (set(ask.subject) | set(ask.outcome)))


# Words a count's noun phrase ends before: a preposition or a word that starts a clause.
_PHRASE_END = word_set("across over under per each than after before since until via like")
_PHRASE_WORD = re.compile(r"\s+([a-z][a-z0-9-]*)")


def _phrase(rest: str) -> list[str]:
    """The words of a number's unbroken phrase of modifiers, to its noun ("617 stale
    feature *flags* across 38 services", "238 active commercial API *keys*"): no stop word,
    preposition, number or punctuation between, and no plural before the noun (a plural is
    the phrase's own noun: "5 nodes serve checkout services" counts nodes). The words past
    the two ``_following`` reads are the nouns it adds."""
    words: list[str] = []
    at = 0
    while len(words) < 5:
        m = _PHRASE_WORD.match(rest.lower(), at)
        if m is None:
            break
        word = m.group(1)
        if word in STOP | NP_STOP | _PHRASE_END:
            break
        words.append(word)
        at = m.end()
        if lemma(word) != word:
            break  # a plural ends the phrase: its noun
    return words


# A question that asks the whole of a thing, whatever its kind or state: "in total",
# "altogether", "stale or not", "whether or not", "including …", "regardless of …".
_WHOLE = re.compile(
    r"\b(?:in\s+(?:total|all)|altogether|all\s+told|overall|or\s+not|whether|including"
    r"|included|regardless|either\s+way|of\s+any\s+kind|any\s+kind\s+of)\b"
)
_ALL = re.compile(
    r"\ball\s+(?:of\s+)?(?:the\s+|its\s+|their\s+|our\s+)?((?:[a-z-]+\s+){0,3}[a-z-]+)"
)


def _restriction_asked(ask: ValueAsk, modifiers: list[str]) -> bool:
    """Does the question ask the restriction a count's modifiers put on its noun ("stale"
    of "617 stale feature flags"): each modifier said in the question, and the question
    never asking the whole ("how many feature flags in total, stale or not?", "all the
    feature flags")?"""
    question = ask.question.lower()
    if _WHOLE.search(question):
        return False
    for m in _ALL.finditer(question):
        if any(_same_noun(root(lemma(w)), c) for w in m.group(1).split() for c in ask.counted):
            return False  # "how many are there of all the feature flags?"
    words = tokens(question)
    said = {root(t.lemma) for t in words} | {t.stem for t in words} | {t.text for t in words}
    return all(w in said or root(lemma(w)) in said or stem(w) in said for w in modifiers)


_OWN_CLAUSE_END = re.compile(r"[;,()]|[.!?](?=\s|$)")
# A count's heading that is only a place or a time after a comma ("…, on Tuesday: 51"): it
# goes on counting what the count before it counted.
_PLACE_HEADING = re.compile(
    r",\s*(?:and\s+)?(?:on|in|at|for|from|under|across)\s+[\w.-]+(?:\s+[\w.-]+)?:\s*$"
)
# What may follow a count a heading names: a place, a time or the clause's end, never a noun
# the number counts instead ("Disks: 3 volumes" counts volumes).
_AFTER_HEADED = word_set("in on at for from under across per each left total now so far today")


def _headed_count(ask: ValueAsk, text: str, value: Value, following: Sequence[str]) -> bool:
    """Is the number the first word after a heading of its clause that names the counted
    noun ("Pitch bearings: 3 in Aberdeen", "IGBT modules for the converters: 6 on the
    shelf"), followed by no noun of its own?"""
    if following and following[0] not in _AFTER_HEADED:
        return False
    head, _ = clause_of(text, value)
    heading = re.fullmatch(r"(.*?):\s*", head)
    return heading is not None and any(
        _same_noun(root(t.lemma), c) or _same_noun(root(t.text), c)
        for t in tokens(code_form(heading.group(1)))
        for c in ask.counted
    )


def _counted_value(ask: ValueAsk, text: str, value: Value) -> list[Said]:
    status = status_of(ask, text, value)
    if status in (None, "gone") or in_question(ask, value.text):
        return []
    if other_qualifier(ask, text, value) or other_state(ask, text, value):
        return []
    if of_another_outcome(ask, text, value):
        return []  # "ran 41 jobs" for "how many jobs failed?"
    return [
        Said(
            value=value,
            labels=_labels(text, value),
            cue=True,
            near=_lemmas_near(text, value),
            planned=status == "plan",
            clause=" ".join(clause_of(text, value)).lower(),
        )
    ]


def _same_noun(a: str, b: str) -> bool:
    """The same noun, or one a short form of the other ("doc" and "document")."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return a == b or (len(short) >= 3 and long.startswith(short) and short.isalpha())


# A share said of the occurrences counted ("jams in 4% of batches", "fails in about 12% of
# runs", "2% of the time"): how often, as a share — never a share of something else ("runs
# at 80% of capacity").
_IN_SHARE = re.compile(r"\bin\s+(?:about\s+|around\s+|roughly\s+|~\s*)?$")
_OF_OCCURRENCES = re.compile(r"\s*of\s+(?:the\s+|all\s+|its\s+|their\s+)?[a-z]+")


def _share_of_occurrences(text: str, value: Value) -> bool:
    """Is the percentage ``value`` said in ``text`` as a share of occurrences ("in 4% of
    batches", "12% of the time")?"""
    after = text[value.end :].lower()
    if re.match(r"\s*of\s+the\s+time\b", after):
        return True
    return bool(_IN_SHARE.search(text[: value.start].lower())) and bool(
        _OF_OCCURRENCES.match(after)
    )


def _how_often(ask: ValueAsk, fact: Fact) -> list[Said]:
    """The values that say how often: a rate whole ("3 times a day"); else a span the row
    says it recurs at ("every 6 hours") or a share of the occurrences ("in 4% of batches");
    else a count of times. A duration that does not recur ("takes 6 hours") and a share of
    another thing ("80% of capacity") answer no "how often"."""
    text = unicodedata.normalize("NFKC", fact.text)
    said = _said(replace(ask, counted=frozenset()), fact)
    rates = [s for s in said if s.value.kind is Kind.RATE]
    if rates:
        return rates
    spans = [s for s in said if s.value.kind is Kind.DURATION and _recurrence(text, s.value)]
    shares = [
        s for s in said if s.value.kind is Kind.PERCENT and _share_of_occurrences(text, s.value)
    ]
    if spans or shares:
        return [*spans, *shares]
    return _counted(replace(ask, kinds=(Kind.RATE, Kind.NUMBER)), fact)


def values_of(ask: ValueAsk, fact: Fact) -> list[Said]:
    if ask.how_often:
        return _how_often(ask, fact)
    if not ask.counted:
        return labelled_only(ask, fact, _said(ask, fact))
    if Kind.RATE in ask.kinds:
        # "how often": so much per unit of time, whole ("3 times a day"), never its number
        rates = [
            s for s in _said(replace(ask, counted=frozenset()), fact) if s.value.kind is Kind.RATE
        ]
        if rates:
            return rates
    if Kind.DURATION in ask.kinds:
        # "how many seconds": a time in the asked unit, whole ("TTL 3600 s"), never a count
        # of seconds — one in another unit ("2 min") is no answer, as to "in seconds?"
        times = [
            s
            for s in _said(replace(ask, counted=frozenset()), fact)
            if s.value.kind is Kind.DURATION
        ]
        if times:
            return times
    return _counted(ask, fact)


def of_another(ask: ValueAsk, fact: Fact, said: Said) -> bool:
    """Is the answer a row gives said of another thing than the one asked: the asked noun
    with another modifier in the row and never the question's ("Line coverage …" for "the
    branch coverage"), or another one of a thing the row names twice ("the users table has
    23 columns and the orders table has 41": 23 is not the orders')? Only ever a reason
    not to answer."""
    text = code_form(fact.text)
    words = tokens(text)
    asked = set(re.findall(r"[a-z0-9]+", ask.question))
    if ask.modifier:
        modifiers = {
            words[k - 1].lemma
            for k in range(1, len(words))
            if words[k].lemma == ask.noun
            and words[k - 1].text.isalpha()
            and words[k - 1].text not in STOP | NP_STOP
            and not text[words[k - 1].end : words[k].start].strip()
        }
        if modifiers and ask.modifier not in modifiers and not modifiers & asked:
            return True
    if another_named(ask, said.clause):
        return True
    for value in values_in(ask.question):
        name = re.escape(value.text.lower())
        whole = re.search(rf"(?<![\w.-]){name}(?![\w.-])", said.clause)
        longer = re.search(rf"(?<![\w.-]){name}[_-]\w", said.clause)
        if value.kind is Kind.ID and longer and not whole:
            return True  # "search_docs" asked, the value said of "search_docs_v2"
    for term in ask.subject if ask.counted else ():
        if not term.isalnum() or said_has(said, term):
            continue
        for part in CLAUSE_END.split(fact.text.lower()):
            if said.value.text.lower() in part or not re.match(r"\s*\d", part):
                continue  # only a clause that counts something else ("17 were rejected")
            words = tokens(code_form(part))
            if term in {root(t.lemma) for t in words} | {t.stem for t in words}:
                return True  # "how many did it reject?" of "812 went in, 17 were rejected"
    said_lemmas = {t.lemma for t in tokens(code_form(said.clause))} - STOP
    own = [] if named_otherwise(ask, said.clause) else written_in_value(text, said.value)
    for term in specific_of(ask):
        if said_has(said, term) or any(near(term, label) for label in said.labels):
            continue
        for k, t in enumerate(words):
            if not (t.text == term or root(t.lemma) == term):
                continue
            if any(start <= t.start and t.end <= end for start, end in own):
                continue  # the value's own name says it ("lims-test.qc.local" of the LIMS test)
            beside = {
                w.lemma
                for w in (words[k - 1] if k else None, words[k + 1] if k + 1 < len(words) else None)
                if w is not None
                and w.text.isalpha()
                and not CLAUSE_END.search(text[min(w.end, t.end) : max(w.start, t.start)])
            } - STOP
            if beside & said_lemmas:
                return True  # the row names the asked one beside a noun the value's has
    return False


def written_in_value(text: str, value: Value) -> list[tuple[int, int]]:
    """Where a code-form row writes the value itself: a word of the question inside it (the
    host "lims-test.qc.local:4040" of the LIMS test instance, the path "/srv/mes/exports/…" of
    the mes session's export) is the value's own name, not the row naming the asked thing
    apart from it beside a word of the value's clause."""
    name = re.escape(code_form(value.text))
    found = re.finditer(rf"(?<![\w.-]){name}(?![\w-]|\.\w)", text) if name else iter(())
    return [m.span() for m in found]


def named_otherwise(ask: ValueAsk, clause: str) -> bool:
    """Does the value's own clause name a word of the question after a word the question
    does not say ("the *batch* export went to …", "the *ELN* test instance is at …"):
    another one of the thing, whatever words of the question the value's name holds?"""
    question = tokens(code_form(ask.question))
    asked = {root(t.lemma) for t in question} | {t.stem for t in question}
    words = tokens(clause)
    for before, word in itertools.pairwise(words):
        if clause[before.end : word.start].strip() or word.text in STOP | NP_STOP:
            continue
        if not {root(word.lemma), word.stem} & asked or {root(before.lemma), before.stem} & asked:
            continue
        if before.text.isalpha() and before.text not in STOP | NP_STOP:
            return True
    return False


def another_named(ask: ValueAsk, clause: str) -> bool:
    """Does the value's own clause name a word of the request after another name than the
    question's, and never the question's ("the Westbrook clinic" asked, the value said of
    "the Eastfield clinic"): that one's value, whatever the rest of the row says?"""
    question = code_form(ask.question)
    asked = tokens(question)
    specific = set(specific_of(ask))
    words = tokens(clause)
    roots = {root(t.lemma) for t in words} | {t.text for t in words}

    def named(t: Token) -> bool:  # a name, not a word of the language ("Westbrook")
        return t.text.isalpha() and len(t.text) > 2 and not known(t.text)

    for mod, head in itertools.pairwise(asked):
        if question[mod.end : head.start].strip() or not named(mod):
            continue
        if root(head.lemma) not in specific or root(mod.lemma) not in specific:
            continue
        if root(mod.lemma) in roots or mod.text in roots:
            continue  # the question's own word is the value's too
        for other, word in itertools.pairwise(words):
            if (
                word.lemma == head.lemma
                and named(other)
                and not clause[other.end : word.start].strip()
                and other.text not in ask.question
            ):
                return True
    return False


def said_has(said: Said, term: str) -> bool:
    if term.isalnum():
        return term in said.labels
    return re.search(rf"(?<![a-z0-9_]){re.escape(term)}(?![a-z0-9_])", said.clause) is not None


def _former(ask: ValueAsk, fact: Fact) -> bool:
    """Does the row give a value of the asked kind that is not a present fact (a former one,
    "down from 530 MB"; a planned one, "bump to 6.0.0 next sprint") beside its present one,
    while the question does not ask for the present one? Which it asks is then a guess."""
    if _PRESENT.search(ask.question):
        return False
    text = unicodedata.normalize("NFKC", fact.text)
    of_kind = [v for v in values_in(text) if v.kind in ask.kinds]
    gone = [v for v in of_kind if _not_present(ask, text, v)]
    return bool(gone) and not _done_as_asked(ask, text, of_kind, gone)


def _done_as_asked(ask: ValueAsk, text: str, of_kind: list[Value], gone: list[Value]) -> bool:
    """Does the question ask by a participle ("which version is *tagged*?") that the row
    says of its one present value ("Tagged 2.8.0") and of none it gives as planned or former
    ("2.8.1 is planned, not tagged")? Then the present one is asked, not a guess."""
    done = {
        root(t.lemma)
        for t in tokens(code_form(ask.question))
        if t.text.endswith("ed") and root(t.lemma) in ask.subject
    }
    if not done:
        return False

    def does(value: Value) -> bool:  # its own clause says the participle, not denied
        clause = code_form(" ".join(clause_of(text, value)).lower())
        return any(
            root(word.lemma) in done and not NEGATION.search(clause[: word.start])
            for word in tokens(clause)
        )

    present = {v.text.casefold() for v in of_kind if v not in gone and does(v)}
    return len(present) == 1 and not any(does(v) for v in gone)


def _not_present(ask: ValueAsk, text: str, value: Value) -> bool:
    """A value the row gives as former or unsettled (planned, when the question does not
    ask about a plan) — not one it denies ("4321, not 8080": that row picks 4321 itself)."""
    status = status_of(ask, text, value)
    if status is None:
        before, after = (part.lower() for part in clause_of(text, value))
        return not NEGATION.search(before) and unsettled(f"{before} {after}")
    # "plan": the question asks about the plan it states; a value the row says it changed
    # from to a value it says now ("was 45 min, now 60 min") leaves that one the answer
    return status == "gone" and not then_now(ask, text, value)


_PRESENT = re.compile(r"\b(?:now|currently|current|today|latest|still|these days|at the moment)\b")


def pick(ask: ValueAsk, row: Row, values: list[Said]) -> Said | str | None:
    """The value a row gives: the only one, or the one the question's words mark there —
    its asked noun when that names one measure ("p99", "digest"), a plan when it asks about
    one, the kind it asks for first ("when": a date before a time), then the one value
    whose own clause states every word of the question any value's clause says (the one
    label the question names, or none); "several" when not exactly one does."""
    if _former(ask, row.fact):
        return "several"  # "what's the image size?" of a row that gives it then and now
    if root(ask.noun) not in group_of() and any(v.cue for v in values):
        # "the p99": the value "p99" labels — but not over one said in a clause that names
        # no other measure ("lag on db-2 is 3s; on db-3 it's 45s": which is asked?)
        values = [v for v in values if v.cue or _unlabelled(v)]
    if any(v.planned for v in values):
        values = [v for v in values if v.planned]
    if values:
        first = min(ask.kinds.index(v.value.kind) for v in values)
        kept = [v for v in values if ask.kinds.index(v.value.kind) == first]
        if not any(v.cue for v in kept) and any(v.cue for v in values if v not in kept):
            # "Postgres sits at :5432 and the api on port 4321": the value by the asked noun
            # is not dropped for another's kind
            return "several"
        values = kept
    if len({v.value.text.casefold() for v in values}) <= 1:
        return values[0] if values else None
    counted = _whole_or_part(ask, row.fact.text, values)
    if counted is not None:
        return counted  # "212 pairings, 9 of them uncovered": the whole, or the part named
    beside = _beside_named(ask, values)
    if beside is not None:
        return beside  # "91% on db-2 and 64% on db-1" for "which host is at 91%?"
    asked = qualifiers(ask.question)
    for n, group in enumerate(zip(*(qualifiers(v.clause) for v in values), strict=True)):
        if not asked[n] and len({frozenset(g) for g in group if g}) > 1:
            return "several"  # "4.2.0 in staging and 4.1.7 in production": which?
    # what tells the values apart: the question's words, not the member's name nor the
    # row's heading ("Profiling /api/search: p95 …, p99 …" heads both), and only those some
    # value's own clause says (a word said only elsewhere in the row tells none apart)
    member = {root(p) for p in re.split(r"[-_]", row.fact.member.lower()) if p}
    heading = row.fact.text.lower().split(": ", 1)[0] if ": " in row.fact.text else ""

    def has(said: Said, term: str) -> bool:
        # as written, or in another written form of it ("day-7" by "D7", "95th" by "p95")
        if not term.isalnum():
            return says(said.clause, term)
        clause = said.clause
        return term in said.labels or says_in_another_form(term, tokens(clause), clause)

    headed = tokens(heading)
    wanted = {
        t
        for t in ask.subject
        if t not in member and t not in heading and not says_in_another_form(t, headed, heading)
    }
    if any(v.parallel or _unlabelled(v) for v in values):
        # a value said without its noun cannot show the question's words that its noun
        # phrase held: only words the other clauses lack tell them apart
        labelled = [v for v in values if not (v.parallel or _unlabelled(v))]
        wanted = {t for t in wanted if not any(has(v, t) for v in labelled)}
    wanted = {t for t in wanted if any(has(v, t) for v in values)}

    def states(said: Said, term: str) -> bool:
        # a word in the value's own name is its own ("created database app_staging" for
        # the staging database); one only in another value's name is that one's
        # ("ledger bakery_summer with clerk bk_winter" names no winter ledger)
        if term in _roots(said.value.text):
            return True
        if not ({root(w) for w in said.near} & {term} or has(said, term)):
            return False
        others = [o.value.text for o in values if o.value.text != said.value.text]
        if not any(term in _roots(name) for name in others):
            return True
        return term in _roots(_without(said.clause, others))

    def states_all(said: Said, shared: frozenset[str] = frozenset()) -> bool:
        return all(states(said, t) for t in wanted - shared)

    # each value's own label ("p50 is 80 ms", "91% on db-2", "main sits at 79.1%"): the
    # question names exactly one value's, or, when every value has a label and the question
    # names none, none is the answer ("checkout latency" of "p50 … 80 ms, p99 … 900 ms")
    own = _own_labels(ask, row.fact, values)
    hits = {v.value.text.casefold(): v for v, label in own if _names_label(ask, label)}
    sharing: list[str] = []
    if len(hits) > 1:
        # "Checkout's primary Redis is …; the replica is …" for "the checkout Redis replica":
        # the one value whose every label word the question says, the others each labelled
        # by a word it does not ("primary")
        whole = {
            v.value.text.casefold(): v
            for v, label in own
            if v.value.text.casefold() in hits
            and all(_names_label(ask, frozenset({w})) for w in label)
        }
        if len(whole) == 1:
            # the question's words in the others' labels name what every value is of
            # ("Redis" of the primary and the replica, "1200-gem bundle" of each price)
            sharing = [
                w
                for v, label in own
                if v.value.text.casefold() in hits.keys() - whole.keys()
                for w in label
                if _names_label(ask, frozenset({w}))
            ]
            hits = whole
    if len(hits) == 1:
        hit = next(iter(hits.values()))
        # the words that name the measure ("search latency is 120 ms at p50 and 700 ms at
        # p99") are every labelled value's, said once
        words = tokens(code_form(row.fact.text))
        named = frozenset(
            root(words[k - 1].lemma) for k in range(1, len(words)) if words[k].lemma == ask.noun
        )
        named |= _coordinated_head(row.fact.text, hit, own)
        named |= {root(p) for w in sharing for p in (w, *re.split(r"[-_./]", w)) if p}
        named |= {stem(p) for w in sharing for p in (w, *re.split(r"[-_./]", w)) if p}
        if not states_all(hit, named) or _outsaid(ask, row, hit, values):
            return "several"  # "pinned pydantic to 2.7.4 because 2.8 breaks our validators"
        return hit
    if not hits:
        # "Search API error rate over the last hour: 0.7%, budget is 1%": the value said on
        # the question's own words, the other on a noun of its own ("budget")
        by_clause = by_own_clause(ask, row.fact, values, own)
        if by_clause is not None:
            return by_clause
    if hits or all(label for _, label in own) or not wanted:
        return "several"
    # else exactly one value whose own clause states every one of those words
    told = {v.value.text.casefold(): v for v in values if states_all(v)}
    return next(iter(told.values())) if len(told) == 1 else "several"


def _without(clause: str, names: Sequence[str]) -> str:
    """The clause with the other values' names taken out."""
    for name in names:
        clause = clause.replace(name.lower(), " ")
    return clause


def own_segment(text: str, said: Said, values: Sequence[Said]) -> tuple[int, int]:
    """Where the words of a row that are the value's own lie: its clause before it, back to
    another value's end ("created database app_staging with user app_rw": "with user" for app_rw),
    the value itself, and its clause after it — up to the next value, and, where one comes,
    only up to the word that leads that value's own ("with", "for")."""
    before, after = clause_of(text, said.value)
    start = said.value.start - len(before)
    end = said.value.end + len(after)
    for other in values:
        if other.value.start >= end or other.value.end <= start or other is said:
            continue
        if other.value.start < said.value.start:
            start = max(start, other.value.end)
        else:
            end = min(end, other.value.start)
            led = _LEADS_A_VALUE.search(text[said.value.end : end].lower())
            end = said.value.end + led.start() if led else end
    return start, end


# The words that lead another value's phrase after a value ("app_staging with user app_rw").
_LEADS_A_VALUE = re.compile(r"\b(?:with|for|to|on|at|in|of|by|from|into|as|via)\b")


def _clause_span(text: str, value: Value) -> tuple[int, int]:
    """Where the value's clause lies in the row."""
    before, after = clause_of(text, value)
    return value.start - len(before), value.end + len(after)


def _roots(text: str) -> frozenset[str]:
    """The roots and stems of a text's words, names split at their joins ("app_staging")."""
    words = tokens(code_form(text))
    return frozenset({root(t.lemma) for t in words} | {t.stem for t in words})


def _own_words_unasked(ask: ValueAsk, segment: str, label: frozenset[str]) -> frozenset[str]:
    """What tells a value apart that the question does not say: its own label words, and a
    word right before the asked noun in its own segment ("the *old* table", "*p95* latency
    212ms")."""
    words = tokens(code_form(segment.lower()))
    modifiers = {
        before.text
        for before, noun in itertools.pairwise(words)
        if (noun.stem in ask.cue_stems or root(noun.lemma) in ask.cues)
        and re.search(r"[a-z]", before.text) is not None  # "old", and "p95" too
        and before.text not in STOP | NP_STOP
        and before.stem not in ask.cue_stems
    }
    # a word, not another value ("from 2027-03-02 to 2027-03-16" labels the end by the start)
    words_of_its_own = {w for w in label if re.search(r"[a-z]{2}", w)} | modifiers
    return frozenset(w for w in words_of_its_own if not _names_label(ask, frozenset({w})))


def by_own_clause(
    ask: ValueAsk, fact: Fact, values: Sequence[Said], own: Sequence[tuple[Said, frozenset[str]]]
) -> Said | None:
    """Of a row giving several values of the asked kind, each in its own clause, the one
    whose own clause says what the question asks: more of the question's words than every
    other's (its noun, its verb: "indexed … into table search_docs_v2", "error rate over
    the last hour: 0.7%"), with nothing of its own the question does not say, while every
    other is told apart by a word of its own the question does not say ("budget is 1%",
    "the old table search_docs"). A value its clause denies or plans answers nothing; None
    when not exactly one so."""
    text = unicodedata.normalize("NFKC", fact.text)
    if len({_clause_span(text, said.value) for said in values}) != len(values):
        return None  # two values of one clause ("runs from 2027-03-02 to 2027-03-16")
    if any(said.parallel or _unlabelled(said) for said in values):
        # "7 skipped tests on linux and 2 on windows": the 2 shares the noun phrase of the
        # 7, so lacking the question's words tells nothing apart
        return None
    noun = {root(ask.noun)} if ask.noun != "value" else set()
    terms = [t for t in dict.fromkeys((*ask.subject, *noun)) if t.isalnum()]

    def asked_in(segment: str) -> frozenset[str]:
        said = _roots(segment)
        return frozenset(
            t for t in terms if t in said or (t in noun and said & (ask.cue_stems | ask.cues))
        )

    read = []
    for said, label in own:
        start, end = own_segment(text, said, values)
        segment = text[start:end]
        head = text[start : said.value.start]
        read.append((said, asked_in(segment), _own_words_unasked(ask, segment, label), head))
    fit = [
        (said, head)
        for said, asked, unasked, head in read
        if not unasked
        and asked - noun
        and all(asked > other for o, other, _, _ in read if o is not said)
        and all(theirs for o, _, theirs, _ in read if o is not said)
    ]
    if len(fit) != 1:
        return None
    said, head = fit[0]
    if _DENIED.search(head.lower()) or unsettled(" ".join(clause_of(text, said.value)).lower()):
        return None  # "did not bottle into tank t9", "will bottle into tank t9 next week"
    return said


# A denial anywhere before a value in its own words ("did not bottle into tank t9").
_DENIED = re.compile(r"\b(?:not|never|no longer|nor)\b|n't\b")


# Words a question may say of a whole count that its row need not: the whole itself, the
# present, and the verbs that only report a count ("found", "have", "there are").
_OF_THE_WHOLE = word_set(
    """many much number total all altogether overall whole entire in now right currently today
    moment contain contains contained include includes included hold holds held find
    found count counted report reported see saw show list have has had there get got"""
)


# Words that ask the part of a whole by what it is not ("how many did *not* return 404?",
# "the *other* pages"): never read as naming the part its clause says.
_AGAINST_PART = re.compile(
    r"\b(?:not|no|non|never|other|others|besides|except|excluding|without|apart|rest|remaining|"
    r"else)\b|n't\b"
)


def _whole_or_part(ask: ValueAsk, text: str, values: Sequence[Said]) -> Said | None:
    """Of a row counting a whole and its parts ("212 pairings, 9 of them still uncovered";
    "Crawled 1204 pages; 37 of them returned 404"), the count the question's words pick:
    the one part whose own clause says a word of the question the rest of the row does not
    ("came back 404": 37), or, where the question says no word of any part's clause nor any
    word the row lacks (``unsaid``), the whole ("how many pairings does the roster
    contain?": 212). None when the question does not pick one so: which is then a guess."""
    if not ask.counted or _AGAINST_PART.search(ask.question):
        return None
    starts = {m.start() for m in PART.finditer(text)}
    parts = [v for v in values if v.value.start in starts]
    wholes = {v.value.text.casefold(): v for v in values if v.value.start not in starts}
    if not parts or len(wholes) != 1 or len(parts) + 1 != len(values):
        return None
    question = tokens(code_form(ask.question))
    asked = {root(t.lemma) for t in question} | {t.stem for t in question}
    asked -= STOP | _OF_THE_WHOLE

    def words(part: str) -> set[str]:
        found = tokens(code_form(part))
        return {root(t.lemma) for t in found} | {t.stem for t in found}

    own = {}
    rest = text.lower()
    for part in parts:
        clause = _own_of(text, part)
        own[part.value.start] = words(re.sub(r"^\s*(?:out\s+)?of\s+\w+", "", clause))
        rest = rest.replace((text[part.value.start : part.value.end] + clause).lower(), " ")
    outside = words(rest)
    # a word of the question that names a part in other words than the row's ("server
    # error" of "returned 404") leaves it a guess, but for a value the part's clause says
    # itself ("came back 404")
    marks = {v.text.casefold() for v in values_in(ask.question) if v.kind is not Kind.WORD}
    loose = unsaid(ask, text)
    named = [
        p
        for p in parts
        if own[p.value.start] & asked - outside
        and (not loose or any(says(_own_of(text, p), m) for m in marks))
    ]
    if len(named) == 1:
        return named[0]
    if named or any(own[p.value.start] & asked for p in parts) or loose:
        return None
    return next(iter(wholes.values()))


def _own_of(text: str, part: Said) -> str:
    """The part's own clause after its number ("of them returned 404")."""
    return _OWN_CLAUSE_END.split(text[part.value.end :], maxsplit=1)[0].lower()


# A value the question names ("at 91%") beside the one asked, in one clause of a row that
# gives the asked kind several times, each beside a value of the named one's kind ("91% on
# db-2 and 64% on db-1"): the asked value is the one beside the named value.
def _beside_named(ask: ValueAsk, values: Sequence[Said]) -> Said | None:
    """The one value whose own clause says a value the question names, where every other
    value's clause says another value of that kind and none says the named one."""
    for named in values_in(ask.question):
        if named.kind in ask.kinds or named.kind is Kind.WORD:
            continue
        beside = []
        for said in values:
            of_kind = [v for v in values_in(said.clause) if v.kind is named.kind]
            if len(of_kind) != 1:
                break
            if of_kind[0].text.casefold() == named.text.casefold():
                beside.append(said)
        else:
            if len({s.value.text.casefold() for s in beside}) == 1:
                return beside[0]
    return None


def whole_for_a_part(ask: ValueAsk, text: str, picked: Value) -> bool:
    """Is the pick the whole of a row that gives a part of it too ("250 seats, 231 of them
    in use"), asked with a word the row does not say ("how many seats are taken?"): a word
    that may name the part in other words, so which count is asked is a guess?"""
    if picked.kind not in AMOUNTS:
        return False  # "n2-standard-8 machines, 12 of them": a name is no count's whole
    parts = [m.start() for m in PART.finditer(text)]
    return bool(parts) and picked.start not in parts and unsaid(ask, text)


PART = re.compile(r"(?<![\w.])\d[\d,]*(?=\s+(?:of|out of)\s+(?:them|those|these|which)\b)")


def unsaid(ask: ValueAsk, text: str) -> bool:
    """Does the question say a word the row does not, beside the words of any question and
    of a whole count? Of a row giving a whole and a part of it, such a word ("taken", "free",
    "left") may name the part in other words: which count is asked is then a guess."""
    said = roots_of(text, "")  # the row's own words, not its member's name
    for t in tokens(code_form(ask.question)):
        if t.text in STOP or t.text in _OF_THE_WHOLE or t.lemma in _OF_THE_WHOLE:
            continue
        if not {root(t.lemma), root(t.text), t.stem} & said:
            return True
    return False


def _coordinated_head(
    text: str, hit: Said, own: Sequence[tuple[Said, frozenset[str]]]
) -> frozenset[str]:
    """The words a value joined to the row's first one shares with it: "The ETL image pins
    Python 3.11.9 and pandas 2.2.2" says of pandas too what it says before Python — when the
    joined value's clause holds nothing but its label ("and pandas"), so no subject of its
    own ("and the API image pandas 2.2.2" shares none)."""
    first = min(v.value.start for v, _ in own)
    if hit.value.start == first:
        return frozenset()
    label = next(lab for v, lab in own if v is hit)
    head = clause_of(text, hit.value)[0].lower()
    rest = [w for w in LABEL_WORDS.findall(head) if w not in STOP and w not in label]
    if rest or not label:
        return frozenset()
    firsts = [lab for v, lab in own if v.value.start == first]
    before = tokens(code_form(text[:first]))
    return frozenset(root(t.lemma) for t in before if t.text not in firsts[0]) | frozenset(
        t.stem for t in before if t.text not in firsts[0]
    )


def _outsaid(ask: ValueAsk, row: Row, hit: Said, values: Sequence[Said]) -> bool:
    """Does another value's own clause say more of what the request is about than the one
    its label picked ("which pydantic release breaks our validators?" of "pinned pydantic
    to 2.7.4 because 2.8 breaks our validators": the label "pydantic" picks 2.7.4, the
    words pick 2.8)? Then the label only said whose value it is, and which is a guess."""
    member = {root(p) for p in re.split(r"[-_]", row.fact.member.lower()) if p}
    wanted = [t for t in specific_of(ask) if t not in member]
    text = unicodedata.normalize("NFKC", row.fact.text)

    def said(v: Said) -> int:
        after = clause_of(text, v.value)[1].lower()
        own = re.split(r"\b(?:because|although|though|whereas|unless|since|as)\b", after)[0]
        for other in values:
            if other is not v and other.value.text.lower() in own:
                own = own.split(other.value.text.lower(), 1)[0]
        words = {t.stem for t in tokens(own)} | {root(t.text) for t in tokens(own)}
        return sum(t in words for t in wanted)

    return any(said(v) > said(hit) for v in values if v is not hit)


# What stands between a value and the word that labels it ("p99 is at 900 ms").
_LINKING = word_set(
    "is are was were be been sits sit stands reads shows at to now currently down up of by "
    "around about just only still the a an its our it s"
)
_LABEL_AFTER = word_set("at on in for under with per across of")
_WHEN_WORDS = word_set("before after previously earlier ago today yesterday now")


def _own_labels(
    ask: ValueAsk, fact: Fact, values: Sequence[Said]
) -> list[tuple[Said, frozenset[str]]]:
    """Each value with the words that tell it apart from the row's other values of its
    kind: up to two content words right before it ("p50 is 80 ms", "cold start takes 4.2
    s", "main sits at 79.1%") back to the asked noun, and the phrase right after it ("91% on
    db-2", "900 ms at p99", "640 MB before") — less the member's name and the words every
    value's label has."""
    text = unicodedata.normalize("NFKC", fact.text)
    member = {p for p in re.split(r"[-_]", fact.member.lower()) if p}
    if ": " in text:  # the row's heading heads every value ("Checkout: p50 is …")
        member |= set(LABEL_WORDS.findall(text.lower().split(": ", 1)[0]))
    labels = []
    for said in values:
        head, tail = (part.lower() for part in clause_of(text, said.value))
        label: set[str] = set()
        for word in reversed(LABEL_WORDS.findall(head)):
            skip = word in _LINKING or lemma(word) in ASKING
            if skip and not label:
                continue
            asked_noun = (root(word) in ask.cues or stem(word) in ask.cue_stems) and (
                root(word) in group_of() or root(word) == root(ask.noun)
            )
            if skip or word in STOP or asked_noun:
                break
            label.add(word)
            if len(label) == 2:
                break
        after = [w for w in LABEL_WORDS.findall(tail) if w not in ("the", "a", "an")]
        if len(after) >= 2 and after[0] in _LABEL_AFTER:
            label.add(after[1])
        elif after and after[0] in _WHEN_WORDS:
            label.add(after[0])
        else:  # a participle ending its clause: "212 MB uncompressed, 61 MB once gzipped"
            state = [w for w in after if w not in ("once", "when", "if", "being", "still")]
            if len(state) == 1 and state[0].endswith("ed") and state[0] not in STOP:
                label.add(state[0])
        bracketed = re.match(r"\s*\(([a-z0-9][\w.-]*)\)", text[said.value.end :].lower())
        if bracketed:
            label.add(bracketed.group(1))  # "900 ms (p99)"
        labels.append(frozenset(label - member))
    common = frozenset.intersection(*labels) if labels else frozenset()
    return [(v, label - common) for v, label in zip(values, labels, strict=True)]


LABEL_WORDS = re.compile(r"[a-z0-9][a-z0-9_./-]*[a-z0-9]|[a-z0-9]")


_HOW_DEGREE = re.compile(r"\bhow\s+[a-z]+")
# The particle of a verb a noun is written of ("back up": "backup", "set up": "setup").
_PARTICLES = word_set("up out in off over down back on")


def _names_label(ask: ValueAsk, label: frozenset[str]) -> bool:
    """Does the question say one of a value's label words: the word whole, or two of the
    parts of a compound one ("billing v2" for "feature/billing-v2")? The degree after "how"
    asks the kind of value, and labels none: "how long did it take?" names no "no lock held
    longer than 2s"."""
    written = LABEL_WORDS.findall(_HOW_DEGREE.sub(" ", ask.question))
    said = set(written)
    # two words the row may write as one: "trip updates" of "TripUpdates", "backing up" of
    # "backup"
    said |= {f"{one}{two}" for one, two in itertools.pairwise(written) if one.isalpha()}
    said |= {
        f"{root(one)}{two}"
        for one, two in itertools.pairwise(written)
        if one.isalpha() and two in _PARTICLES
    }
    parts = {p for w in said for p in re.split(r"[-_./]", w) if p}
    roots = {root(w) for w in said | parts}
    for word in label:
        pieces = [p for p in re.split(r"[-_./]", word) if p]
        if word in said or root(word) in roots:
            return True
        if len(pieces) > 1 and sum(p in parts for p in pieces) >= 2:
            return True
        # a number the question writes in another form than the label ("95th" of "p95")
        if any(says_in_another_form(w, tokens(word), word) for w in said if re.search(r"\d", w)):
            return True
    return False


def _unlabelled(said: Said) -> bool:
    """Is the value said with no word of its own before it but function words and names
    ("on db-3 it's 45s"): a parallel of the labelled one?"""
    head = said.clause.split(said.value.text.lower(), 1)[0]
    words = re.findall(r"[a-z][a-z0-9_-]*", head)
    return bool(words) and all(
        w in STOP or w in NP_STOP or re.fullmatch(r"[a-z0-9]+(?:[-_.][a-z0-9]+)+", w) for w in words
    )


def sources_of(ask: ValueAsk, members: Sequence[str]) -> frozenset[str] | str | None:
    """The members whose word the question asks for — called a source ("the radar
    session", "according to scout") or an agent ("did the prober find", "did deployer-2
    build"), by its whole name or a part of it ("prober": prober-eu and prober-us) — None
    when it names none, or the name as said when it names one no member of the rows is."""
    slugs = {m: " ".join(re.findall(r"[a-z0-9]+", m.lower())) for m in members}
    found: set[str] = set()
    marks = [m for pattern in _SOURCE_MARKS for m in pattern.finditer(ask.question)]
    # "I need the cold room temperature — what did dairybot report?": the member is all the
    # request names of its source, so a name no member has is a member the rows lack
    vague = [*VAGUE_REPORT.finditer(ask.question)]
    for m in [*marks, *vague]:
        name = m["who"] if m.re is VAGUE_REPORT else next(g for g in m.groups() if g)
        spelled = " ".join(re.findall(r"[a-z0-9]+", name))
        exact = {x for x, s in slugs.items() if s == spelled or spelled.endswith(" " + s)}
        matched = exact or {x for x, s in slugs.items() if spelled in s.split()}
        if matched:
            found |= matched
        elif m.re in (_SOURCE_MARKS[0], VAGUE_REPORT) or _AGENT_NAME.fullmatch(name):
            return name  # "the probe-eu session", "deployer-2": a member the rows lack
    return frozenset(found) or None


_SOURCE_MARKS = (
    re.compile(r"\bthe\s+([a-z0-9][a-z0-9-]{0,40})\s+(?:session|member|agent|bot)\b"),
    re.compile(r"\b(?:according to|per)\s+(?:the\s+)?([a-z0-9][a-z0-9-]*)"),
    re.compile(
        r"\b(?:did|does|has|have|had|will|would)\s+(?:the\s+)?"
        r"([a-z][a-z0-9]*(?:er|or|bot|agent)(?:-[a-z0-9]+)*|[a-z][a-z0-9]*-[a-z0-9-]+)\s+"
        r"(?!(?:be|been|get|go|session|member|agent|bot)\b)[a-z]+"
    ),
)
# A name as agents are named: "deployer-2", "billing-agent".
_AGENT_NAME = re.compile(r"[a-z]+(?:er|or)-[a-z0-9]+|[a-z0-9]+-(?:bot|agent|session|worker)")


def mentioned(ask: ValueAsk, members: Sequence[str]) -> frozenset[str]:
    """The members whose whole name the question says ("how many did billing-bot draft?")."""
    said = f" {' '.join(re.findall(r'[a-z0-9]+', ask.question))} "
    return frozenset(
        m for m in members if f" {' '.join(re.findall(r'[a-z0-9]+', m.lower()))} " in said
    )


def has_specifics(ask: ValueAsk, fact: Fact) -> bool:
    """Does the row hold every specific value the question names ("PR #483", "30 days",
    "products_v6") — a member's name aside, and a guess of the asked kind aside?"""
    row = f"{fact.text} {fact.member}".lower()
    for value in values_in(ask.question):
        text = value.text.lower()
        if value.kind in ask.kinds or value.kind is Kind.WORD:
            continue
        if value.kind is Kind.ID and not re.search(r"\d|_|#", text):
            continue  # a hyphenated word ("read-only") is what a row is about, not a value
        if not says(row, text):
            return False
    asked_days = days_of_month(ask.question)
    if Kind.DATE not in ask.kinds and not asked_days <= days_of_month(row):
        return False  # "the 4 mar sweep" of "3 Mar manual review sweep flagged 214"
    for name in _DESIGNATED.finditer(ask.question):
        after = re.match(r"\s+([a-z]+)", ask.question[name.end() :])
        # "hall 2?", "hall 2 hold", not "within 5 days", "going 15 min": no noun it counts
        # nor unit after it
        ends = after is None or after.group(1) in STOP
        if not ends and after is not None and not after.group(1).endswith("s"):
            said = f"{name.group(2)} {after.group(1)}"
            ends = not any(v.text == said for v in values_in(said))
        if name.group(1) not in STOP and ends and not _designates(row, name.group(2)):
            return False  # "cage C", "hall 2": a thing named by a letter or a number
    return True


def _designates(row: str, mark: str) -> bool:
    """Does the row write the letter or the number that names the thing, in any form: the
    letter alone or set off ("cage B", "cohort_b"), the number alone or glued to letters
    ("T12", "INV-14", "T07" for turbine 7)?"""
    if mark.isdigit():
        return any(int(n) == int(mark) for n in re.findall(r"(?<![\d.,])\d+(?![\d.,]*\d)", row))
    return re.search(rf"(?<![a-z0-9]){mark}(?![a-z0-9])", row) is not None  # "cohort_b"


# A thing named by its noun and a letter or a short number after it, ending its phrase
# ("cage C", "hall 2", "line 4"): the row must name it so, for "cage B" or "hall 1" is
# another.
_DESIGNATED = re.compile(r"(?<![\w.-])([a-z]{3,}) ([b-hj-z]|\d{1,3})(?![\w.%:/-])")


def of_another_outcome(ask: ValueAsk, text: str, value: Value) -> bool:
    """Does the question count things of an outcome ("how many jobs *failed*", "timed
    out") that the value's own clause does not say ("the queue ran 41 jobs"): a count of
    all of them, not of those?"""
    if not ask.outcome:
        return False
    clause = " ".join(clause_of(text, value)).lower()
    said = {root(t.lemma) for t in tokens(code_form(clause))} | {t.stem for t in tokens(clause)}
    return not any(derived_from(o, r) for o in ask.outcome for r in said)


# Kinds of value that measure or count, never name a thing.
AMOUNTS = frozenset({Kind.DURATION, Kind.SIZE, Kind.PERCENT, Kind.MONEY, Kind.COUNT, Kind.NUMBER})
# A physical measure, read by its unit ("-32 °C", "15 Pa"): an amount of a measure, never a
# count of a thing
MEASURED = frozenset({Kind.TEMPERATURE, Kind.PRESSURE}) | frozenset(PHYSICAL)


# A value its row names by the asked noun ("master recipe rev R-112", "sample S-77120",
# "inspection lot 890001234567", "R-112 is the approved revision"): the noun the question
# asks for, or a short form of it, right before the value — or, for a naming noun ("the
# sample *number*", "the receiver *id*"), the word that noun names. Such a value is the
# row's answer, whatever its form; any other value of the asked kind in the row is another
# thing's ("We're on PAS-X 3.3.1 …, master recipe rev R-112 is the approved one": 3.3.1 is
# no revision of the recipe). Only values that name something are read so (an identifier,
# a version, a commit, a number): a word right before a size or a time is its measure's.
_LABEL_SHORT = {"rev": "revision", "no": "number", "nr": "number", "num": "number"}
_LABEL_SHORT |= {"ref": "reference", "ver": "version"}
_NAMED_KINDS = frozenset({Kind.ID, Kind.VERSION, Kind.COMMIT, Kind.NUMBER})
# what may stand between the label and its value: "part no.", "order #", "limit: 3,520" — not
# a verb: "the previous tag was 3.14.1" says the value of another thing than its subject's head
_LABEL_LINK = re.compile(r"(?:\s*(?:[:=#]|\bno\b\.?|\bnumber\b))*\s*$")
_LABEL_WORD = re.compile(r"([a-z][a-z0-9]*)\.?$")
_GLUED = re.compile(r"[:/@]\S")
_NAMED_AFTER = re.compile(r"\s*is\s+(?:the|our)\s+([a-z]+)\b")


def asked_labels(ask: ValueAsk) -> frozenset[str]:
    """The roots a row may label the asked value with: the asked noun's, and for a naming
    noun ("number", "id") the word it names ("sample" of "the sample number")."""
    nouns = {ask.noun}
    named = ask.modifier or _word_before_noun(ask)
    if ask.noun in NAMING and named and named not in STOP:
        nouns.add(named)
    return frozenset(root(n) for n in nouns if n and n != "value")


def _word_before_noun(ask: ValueAsk) -> str:
    """The plain word the question writes right before a naming noun, where the reading of
    the question kept none as its modifier ("what *reference* number did …", the noun's
    modifier right after the question word): the word that noun names."""
    if ask.noun not in NAMING:
        return ""
    found = re.search(rf"(?<![\w.-])([a-z]{{3,}}) {re.escape(ask.noun)}s?\b", ask.question)
    if found is None or found.group(1) in STOP | NAMING:
        return ""
    return found.group(1)


def labelled_by_noun(ask: ValueAsk, text: str, value: Value) -> bool:
    """Does the asked noun (or a short form of it) label the value: right before it ("rev
    R-112", "sample S-77120", "order #4471-88"), or as what the value is said to be right
    after it ("TW-55871 is the record")?"""
    wanted = asked_labels(ask)
    if not wanted or _GLUED.match(text, value.end):
        return False  # "digest sha256:4f2a9c1e": the label's value is the whole, not its prefix
    head = text[: value.start].lower()
    tail = clause_of(text, value)[1]
    link = _LABEL_LINK.search(head)
    word = _LABEL_WORD.search(head[: link.start()] if link else head)
    if word is not None:
        label = word.group(1)
        if root(_LABEL_SHORT.get(label, label)) in wanted:
            return True
    after = _NAMED_AFTER.match(tail.lower())
    return after is not None and root(after.group(1)) in wanted


def labelled_only(ask: ValueAsk, fact: Fact, values: list[Said]) -> list[Said]:
    """The row's values, or where the asked noun labels one (``labelled_by_noun``) that one
    alone, said by the asked noun: the row's other values of the asked kind are not its
    answer — but those whose form tells their kind (":5432"), left to the row's other
    readings. Where the label names a value of another kind than asked ("rev R-112" for "the
    revision", read as a commit or a version), the row gives none: the one it names is not
    read as the asked kind, and the others are another thing's."""
    text = unicodedata.normalize("NFKC", fact.text)
    labelled: dict[str, Said | None] = {}
    for value in values_in(text):
        if value.kind not in _NAMED_KINDS:
            continue
        if not labelled_by_noun(ask, text, value) or in_question(ask, value.text):
            continue
        if status_of(ask, text, value) != "fact":
            continue  # "rev R-113 is planned", "was ref KT-30920": not a live value
        said = next((s for s in values if s.value == value), None)
        value = _decimal_as_number(ask, value)
        if said is None and _read_as_asked(ask, text, value):
            # a bare number the row names by the asked noun ("batch no. 7731022"): said by it
            said = Said(
                value=value,
                labels=_labels(text, value),
                cue=True,
                near=_lemmas_near(text, value),
                clause=" ".join(clause_of(text, value)).lower(),
            )
        labelled[value.text.casefold()] = replace(said, cue=True) if said else None
    if len(labelled) != 1:
        return values  # none, or several the noun labels: the row's other readings decide
    # a value whose form tells its kind (":5432" a port, a host, a URL) is no other thing's
    # by the label: the row's readings still weigh it against the labelled one
    typed = [s for s in values if s.value.kind not in _NAMED_KINDS]
    return [s for s in labelled.values() if s is not None] + typed


# A number with one decimal point, written as a version of two parts is ("threshold 0.35"):
# the asked noun labelling it, a number where the question asks one.
_DECIMAL = re.compile(r"\d+\.\d+")


def _decimal_as_number(ask: ValueAsk, value: Value) -> Value:
    """A value the reader takes for a version by its form ("0.35") read as the number it
    also is, where the request asks a number and no version ("what threshold …"): its
    label (``labelled_by_noun``) says what it is."""
    if value.kind is not Kind.VERSION or Kind.VERSION in ask.kinds:
        return value
    if Kind.NUMBER not in ask.kinds or _DECIMAL.fullmatch(value.text) is None:
        return value
    return replace(value, kind=Kind.NUMBER)


def _read_as_asked(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is the labelled value of the asked kind, and of no other qualifier or state than the
    question's — what the row's reading (``_said``) asks of a value, but the asked noun
    beside it?"""
    if value.kind not in ask.kinds or not in_asked_unit(ask, value):
        return False
    return not (other_qualifier(ask, text, value) or other_state(ask, text, value))


def labelled_other(ask: ValueAsk, text: str, value: Value) -> bool:
    """Does the row label one value with the asked noun (``labelled_by_noun``), and another
    than ``value`` ("master recipe rev R-112" against "3.3.1" for "which master recipe
    revision …")? Then ``value`` is another thing's, whoever cites it."""
    text = unicodedata.normalize("NFKC", text)
    named = [
        v
        for v in values_in(text)
        if v.kind in _NAMED_KINDS
        and labelled_by_noun(ask, text, v)
        and not in_question(ask, v.text)
        and status_of(ask, text, v) == "fact"
    ]
    if value.kind not in _NAMED_KINDS:
        return False  # a port, a host, a URL by its form: weighed by the other checks
    if len({v.text.casefold() for v in named}) != 1:
        return False
    # the labelled value itself, as cited ("5521" of "ticket #5521"), is no other
    return not any(v.start < value.end and value.start < v.end for v in named) and all(
        v.text.casefold() != value.text.casefold() for v in named
    )
