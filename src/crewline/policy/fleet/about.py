"""Whether a row is about the thing asked: the question's subject, entity, relation verbs,
degree and modifiers said by the row (or said in other words, or forgivable when it ranks
first), so a value of another thing is never taken for it."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Sequence

from crewline.policy.fleet.asking import (
    HOW_SOON,
    KIND_NAMES,
    NOUN_KINDS,
    RELATIVE_NEXT,
    REQUEST,
    STOP,
    WHO,
    ValueAsk,
    past,
)
from crewline.policy.fleet.measures import measure_names
from crewline.policy.fleet.nouns import AUX, forms_of, head_words, proven_by_form, wanted_nouns
from crewline.policy.fleet.periods import MONTHS
from crewline.policy.fleet.picking import TICKET_ID, TICKET_NOUNS, has_specifics
from crewline.policy.fleet.rows import (
    EXCLUSIVE,
    RANK,
    Fact,
    asked_qualifiers,
    clause_of,
    coverage,
    derived_from,
    derived_qualifiers,
    request_sentence,
    roots_of,
    row_of,
    status_of,
)
from crewline.policy.fleet.thesaurus import generic_words
from crewline.policy.fleet.when import time_words_held
from crewline.policy.lemmas import Token, known, root, tokens
from crewline.policy.values import Kind, Value, values_in
from crewline.policy.wording import code_form, word_set

# Words that only place a question in time or hedge it: what it is about without them.
_UNTIMING = "moment days roughly actually overall really exactly currently still now atm rn right"


@functools.cache
def untimed() -> frozenset[str]:
    """The roots of ``_UNTIMING`` (built at first use, as the thesaurus is)."""
    return frozenset(root(w) for w in word_set(_UNTIMING))


def about_all(
    ask: ValueAsk,
    fact: Fact,
    *,
    besides: frozenset[str] = frozenset(),
    derived: frozenset[str] = frozenset(),
) -> bool:
    """Is the row about all the question is about: its specific values, its qualifiers and
    every word of its subject (by a neighbour too), but for words of time and hedging (and
    ``besides``: the members' names, for a row that disputes)?"""
    unsaid = _subject_unsaid(ask, fact, besides=besides, derived=derived)
    return unsaid is not None and not unsaid[0]


def _subject_unsaid(
    ask: ValueAsk,
    fact: Fact,
    *,
    besides: frozenset[str] = frozenset(),
    derived: frozenset[str] = frozenset(),
) -> tuple[tuple[str, ...], int] | None:
    """The words of the question's subject the row does not say (``about_all``'s reading)
    and how many it does; None when it is about another thing by a qualifier or a specific
    value, or says nothing of the subject."""
    asked = asked_qualifiers(ask)
    said = derived_qualifiers(fact.text)
    if any(
        a and not a & s and (s or n != RANK)
        for n, (a, s) in enumerate(zip(asked, said, strict=True))
    ):
        return None  # a rank the row does not say at all is no other rank ("the backup")
    if not has_specifics(ask, fact):
        return None
    row = row_of(ask, fact)
    # "this morning at half nine" of a row "at 09:30": the row's clock says them
    spared = untimed() | besides | {root(w) for w in time_words_held(ask.question, fact.text)}
    terms = [t for t in ask.subject if t not in spared]
    if not terms:
        return ((), 0) if bool(row.roots & ask.cues) or not ask.subject else None
    if row.score <= 0:
        return None
    missing = tuple(
        t for t in terms if t not in derived and not coverage((t,), row.roots, fact.text)[0]
    )
    return missing, len(terms) - len(missing)


def about_entity(
    ask: ValueAsk,
    fact: Fact,
    kind: Kind,
    *,
    besides: frozenset[str] = frozenset(),
    value: Value | None = None,
) -> bool:
    """Is the row about the thing the question asks of — its specific values, qualifiers and
    every word of its subject but the words of the relation asked (its verbs, read from
    where they stand: "which team *receives* the alerts", "how many seats are *taken*",
    "when does the cutover *begin*") and a word of the asked noun that only names the kind
    of value the model gave ("IP" of an IP address)? The relation is the model's reading;
    the thing is not: a name, a modifier or a qualifier the row does not say refuses."""
    unsaid = entity_unsaid(ask, fact, kind, besides=besides, value=value)
    return unsaid is not None and not unsaid[0]


def entity_unsaid(
    ask: ValueAsk,
    fact: Fact,
    kind: Kind,
    *,
    besides: frozenset[str] = frozenset(),
    value: Value | None = None,
) -> tuple[tuple[str, ...], int] | None:
    """``_subject_unsaid`` of the thing asked about, as ``about_entity`` reads it."""
    spared, derived = _entity_reading(ask, fact, kind, value)
    return _subject_unsaid(ask, fact, besides=besides | spared, derived=derived)


def thing_said(ask: ValueAsk, fact: Fact, value: Value) -> frozenset[str] | None:
    """The words of the thing asked about that the row says, as ``entity_unsaid`` reads
    them (by root, stem, derivation, initials, thesaurus neighbour, its member's name) but
    for the asked noun and its synonyms, the generic words and the words of time: what ties
    a row to the thing, by a word no row of another thing would share just for answering
    the same kind of question. None where a qualifier, a rank or a specific value of the
    question makes the row another thing's, or it says nothing of the question."""
    spared, derived = _entity_reading(ask, fact, value.kind, value)
    unsaid = _subject_unsaid(ask, fact, besides=spared, derived=derived)
    if unsaid is None:
        return None
    plain = spared | set(unsaid[0]) | untimed() | generic_words() | wanted_nouns(ask)
    return frozenset(t for t in ask.subject if t not in plain)


def _entity_reading(
    ask: ValueAsk, fact: Fact, kind: Kind, value: Value | None
) -> tuple[frozenset[str], frozenset[str]]:
    """The words of the question ``entity_unsaid`` spares (the relation's, a kind's name, a
    degree, a phrasal particle, a head a value's form proves) and those the row says by a
    derivation, its initials or another notation of a number."""
    spared = _kind_words(ask, kind) | _degree_words(ask, fact) | frame_words(ask)
    spared |= asker_words(ask, kind)
    if not between_people(ask, fact, kind):
        spared |= relation_words(ask) | _verbs_anywhere(ask) | _event_words(ask)
        spared |= _placing_verbs(ask, kind)
    if value is not None and proven_by_form(ask, value):
        spared |= head_words(ask)  # "incident" of "incident number" for "INC-2231"
    if value is not None:
        spared |= typed_by_form(ask, value)  # "notebook" of ".../motor_freq_v9.ipynb"
    roots = roots_of(fact.text, fact.member)
    initials = _initials(fact.text)
    derived = frozenset(
        t
        for t in ask.subject
        if t.isalpha()
        and (
            any(derived_from(t, r) for r in roots)
            or (3 <= len(t) <= 5 and not known(t) and t in initials)
        )
    )  # "successful" of "succeeded", "signatures" of "signing", "DLQ" of "dead-letter queue"
    derived |= numbers_said(ask.question, fact.text)
    derived |= member_named(ask.question, fact.member)
    derived |= tracker_said(ask, fact.text)
    return spared, derived


def tracker_said(ask: ValueAsk, text: str) -> frozenset[str]:
    """The roots of the question's words that name a tracker's record ("the *ticket* about
    the login failures", "the pitch bearing *ticket*", ``TICKET_NOUNS``) where the row names
    one by its id's shape ("INC-7790 (self-care login failures)", "Opened FT-20931: …"): the
    id says the word as a unit's symbol says its noun. An id the question itself names
    ("the EOS-07 ticket") names its thing, not a record of it, and says nothing."""
    asked = {t.lemma for t in tokens(ask.question)} & TICKET_NOUNS
    if not asked:
        return frozenset()
    question = ask.question.casefold()
    if not any(m.group(0).casefold() not in question for m in TICKET_ID.finditer(text)):
        return frozenset()
    return frozenset(t for t in ask.subject if t in {root(w) for w in asked})


# Pronouns of a third person: who they stand for, the question names in its own words ("the
# floor supervisor … what's *her* email?"), which the row must say; the pronoun names nothing.
_THIRD_PERSON = word_set("her hers him his")
# "past" right before a period ("over the *past* day", "this *past* week", "the past 7 days")
# says only that the period ends now, as "last" does (a stop word): the period is still
# asked, and held by the row's clock or words (``time_words_held``).
_PERIOD_AFTER_PAST = word_set("hour hours day days week weeks month months year years")
_PERIOD_AFTER_PAST |= word_set("night nights quarter fortnight weekend sprint minute minutes")


def frame_words(ask: ValueAsk) -> frozenset[str]:
    """The roots of the request's words that frame the question, not the thing asked: a
    pronoun of a third person ("what's *her* email?") and "past" before a period, with a
    number between at most ("over the *past* day", "the past 7 days"). "past" before any
    other word ("*past* usage", "the past owner") says which one and stays the thing's."""
    words = tokens(request_sentence(ask))
    out: set[str] = set()
    for i, t in enumerate(words):
        if t.text in _THIRD_PERSON:
            out |= {root(t.text), t.stem}
        elif t.text == "past":
            after = [w.text for w in words[i + 1 : i + 3]]
            if after[:1] and after[0].isdigit():
                after = after[1:]
            if after[:1] and after[0] in _PERIOD_AFTER_PAST:
                out |= {root(t.text), t.stem}
    return frozenset(out)


# The one who asks, as the request names it: "do *I* point …", "the URL *we* talk to".
_ASKERS = word_set("i we")
# What the asker says of the question itself, not of the value ("I *mean* the MAE"): the
# words after it name the thing asked, and the row must say them.
_RESTATING = word_set("mean")


def asker_words(ask: ValueAsk, kind: Kind) -> frozenset[str]:
    """The roots of the request's words that say what the asker does with the value, not
    what the value is of — words no row of the fleet would say, since they are the asker's —
    where the asked kind places a thing (a port, a host, a URL, an email: ``_PLACE_KINDS``),
    the thing the asker reaches or sends to:
    - the verb of a clause the asker is the subject of ("the URL *we talk* to", "which port
      do I *point* …"): how the asker reaches it;
    - the asker's own tool that reaches it, as "my" owns it and as the subject of the
      question's verb ("which port does my label *printer* talk to on the bottling line?");
    - the object of the asker's verb, where it is the asker's own ("my", "a": "point my
      *client* at", "where do I send a refund *request*?") or a bare name before a particle
      left at the end of its clause with "for" and a phrase right after it, which names the
      thing the value is of ("which port do I point *psql* at for the stg ledger db?"): the
      value is what the tool is pointed at, and the thing is the one "for" names.
    Only the head of the tool's phrase is spared: a word before it may say which thing ("my
    *label* printer"). A word that tells things apart by its
    kind (an environment, a rank, a period, a month, an outcome, a name the asker
    capitalised, a number) is never the asker's, and the request must still name a thing in
    words of its own: else nothing is spared, and a row of any thing is not taken for it. A
    count, a duration or a moment is told apart by the asker's doing ("how many loaves do we
    *bake*", "how long do we *steep* it"): nothing is spared of those."""
    if kind not in _PLACE_KINDS and not set(ask.kinds[:1]) & _PLACE_KINDS:
        return frozenset()  # "how many loaves do we bake?": the asker's doing is the count's
    sentence = request_sentence(ask)
    words = tokens(sentence)
    n = len(words)

    def ends(k: int) -> bool:
        return k + 1 >= n or bool(_GAP.search(sentence[words[k].end : words[k + 1].start]))

    found: set[int] = set()
    for i, t in enumerate(words):
        if t.text in _ASKERS and not ends(i):
            verb = _verb_after(words, i + 1, ends)
            if verb is None or words[verb].lemma in _asked_lemmas(ask) | _RESTATING:
                continue
            found.add(verb)  # "the URL we *talk* to", "do I *point* psql at"
            tool = _pointed_tool(sentence, words, verb, ends)
            if tool is not None:
                found.add(tool)  # "point *psql* at for the stg ledger db"
        elif t.text == "my" and i > 0 and words[i - 1].text in AUX:
            verb = _inverted_verb(words, i, ends)
            if verb is not None and verb - 1 > i:
                found.add(verb - 1)  # "should my analyst *notebook* use?"
    spared = {r for k in found if _the_askers(ask, words[k]) for r in forms_of(words[k])}
    if not [t for t in ask.subject if t not in spared]:
        return frozenset()  # "which port do I point psql at?": of what, it does not say
    return frozenset(spared)


def _verb_after(words: Sequence[Token], at: int, ends: Callable[[int], bool]) -> int | None:
    """The verb right after the asker's pronoun, past an adverb ("we *still* support"), or
    None where a word of grammar or a number stands there ("I am", "we have 3")."""
    k = at
    while k < len(words) and words[k].text in RELATIVE_NEXT and not ends(k):
        k += 1
    if k >= len(words) or words[k].text in STOP or not words[k].text.isalpha():
        return None
    return k


def _pointed_tool(
    sentence: str, words: Sequence[Token], verb: int, ends: Callable[[int], bool]
) -> int | None:
    """The head of the object of the asker's verb, where that object is the asker's own:
    what "my" or "a" opens, whole before a particle or the end of its clause ("point my
    *client* at", "where do I send a rate quote *request*?"), or a bare name that a particle
    closes with "for" and a phrase right after it, which names the thing ("point *psql* at
    for the stg ledger db"). An object after "the" ("point *the staging dashboard* at")
    names a thing of the fleet, and stays; so does a bare one with no "for" after it ("which
    host do we ship *logs* to?": which logs is the thing)."""
    j = verb + 1
    if ends(verb) or j >= len(words):
        return None
    own = words[j].text in _OWN_OBJECT
    if own and not ends(j):
        j += 1
    if words[j].text in STOP:
        return None
    head = j
    while not ends(head) and head + 1 < len(words) and words[head + 1].text not in STOP:
        head += 1
    particle = head + 1
    if own:
        return head if ends(head) or words[particle].text in _PARTICLES else None
    if ends(head) or particle + 2 >= len(words) or words[particle].text not in _PARTICLES:
        return None
    if ends(particle) or words[particle + 1].text != "for":
        return None
    return head


# What opens an object that is the asker's own: its possessive, or an article of a thing
# not yet of the fleet ("send *a* quote request").
_OWN_OBJECT = word_set("my a an")


def _the_askers(ask: ValueAsk, word: Token) -> bool:
    """May ``word`` be the asker's, not the thing's: a word of letters that tells no thing
    apart by its kind (no environment, rank, order, period, month, outcome or name the
    asker capitalised)."""
    if not word.text.isalpha() or word.text in ask.names:
        return False
    lemmas = {word.text, word.lemma}
    exclusive = {w for table in EXCLUSIVE for w in table}
    telling = _TELLING_MODIFIERS | exclusive | MONTHS | PERIOD_WORDS | _TELLING
    return not lemmas & telling and not any(
        derived_from(root(word.lemma), t) for t in _telling_roots()
    )


# The kinds of thing a value's own form says it is, by its file's extension or its scheme,
# named by a noun the asked kind's words (``NOUN_KINDS``: "file", "config", "script") do not
# already spare: "the GLM *notebook*" of "…/motor_freq_v9.ipynb" is the value's own type.
_TYPED_BY_EXTENSION: dict[str, frozenset[str]] = {
    ext: word_set(nouns)
    for exts, nouns in (
        ("ipynb", "notebook"),
        ("png jpg jpeg gif svg webp tif tiff", "image picture photo screenshot diagram"),
        ("csv tsv xlsx xls ods", "spreadsheet sheet"),
        ("pdf docx odt rtf", "document pdf"),
        ("md rst txt", "document readme notes"),
        ("py sh bash rb pl ps1", "script"),
        ("yaml yml toml ini conf cfg", "config configuration"),
        ("tar gz tgz zip", "archive tarball zip"),
    )
    for ext in exts.split()
}
_EXTENSION = re.compile(r"\.([a-z0-9]+)$")
_BUCKET = re.compile(r"(?:s3|gs|az)://[^/\s]+/?$")


def typed_by_form(ask: ValueAsk, value: Value) -> frozenset[str]:
    """The roots of the request's nouns that name the kind of thing the value's own form
    says it is: the type its file's extension says ("the GLM *notebook*" of
    "…/motor_freq_v9.ipynb", "the *screenshot*" of "…/err.png"), a bucket by its scheme
    ("s3://fc-customs-ref"). The value proves the word; a row of another thing of that name
    ("the GLM model" at "…/model.pkl") has a value of another form and keeps it unsaid. No
    word of the thing's name or modifier is spared: only these type nouns, as the head of
    their phrase (no noun after them: "the *notebook* server" is a server)."""
    text = value.text.casefold().rstrip("/")
    found = _EXTENSION.search(text) if value.kind in (Kind.PATH, Kind.URL_PATH, Kind.URL) else None
    types = _TYPED_BY_EXTENSION.get(found.group(1), frozenset()) if found else frozenset()
    if value.kind in (Kind.URL, Kind.PATH) and _BUCKET.fullmatch(text):
        types = types | {"bucket"}
    if not types:
        return frozenset()
    sentence = request_sentence(ask)
    words = tokens(sentence)
    out: set[str] = set()
    for i, t in enumerate(words):
        if t.text not in types and t.lemma not in types:
            continue
        nxt = words[i + 1] if i + 1 < len(words) else None
        if (
            nxt is not None
            and nxt.text not in STOP
            and _joined(sentence, words, i, i + 1)
            and not past(nxt)
        ):
            continue  # "the notebook server": a modifier of another noun ("… saved?" is none)
        out |= {root(t.lemma), root(t.text), t.stem}
    return frozenset(out)


def member_named(question: str, member: str) -> frozenset[str]:
    """The roots of the question's words that name the row's member (whose words the row is):
    its name written in two or three words ("the *load test*" of ``loadtest``, "*anti-cheat*"
    of ``anticheat``), or a compound word whose parts' initials its short name is, where the
    question names it as the one that acted or owns ("where did *underwriting* put" of
    ``uw``: under·writing; "the *dashboard*'s" of ``db``). A member's name is a word of the
    row as ``roots_of`` reads it; these are that name in the question's spelling."""
    slug = re.sub(r"[-_\s]", "", member.casefold())
    if len(slug) < 2 or not slug.isalnum():
        return frozenset()
    words = tokens(question)
    out: set[str] = set()
    for i in range(len(words)):
        for n in (2, 3):
            run = words[i : i + n]
            if len(run) < n or any(t.text in STOP for t in run):
                continue
            if not all(
                re.fullmatch(r"[ -]", question[a.end : b.start]) for a, b in itertools.pairwise(run)
            ):
                continue
            if "".join(t.text for t in run) == slug:
                out |= {r for t in run for r in forms_of(t)}
    if 2 <= len(slug) <= 3 and slug.isalpha() and not known(slug):
        for i, t in enumerate(words):
            if t.text in STOP or not _acting(question, words, i):
                continue
            if _initials_of_compound(t.text, slug):
                out |= forms_of(t)
    return frozenset(out)


# Verbs of reporting after the one that acted: "*telephony* said", "*billing* reports".
_REPORTING = word_set("said says reported reports posted posts wrote writes noted notes")


def _acting(question: str, words: Sequence[Token], i: int) -> bool:
    """Is ``words[i]`` named as the one that acted or owns: a possessive ("the actuary's"),
    the subject after an auxiliary before its verb ("did *underwriting* put"), or before a
    verb of reporting ("*telephony* said")?"""
    t = words[i]
    if question[t.end : t.end + 2] in ("'s", "\u2019s"):
        return True
    nxt = words[i + 1] if i + 1 < len(words) else None
    if nxt is not None and nxt.text in _REPORTING:
        return True
    prev = words[i - 1] if i > 0 else None
    return (
        prev is not None
        and prev.text in AUX
        and nxt is not None
        and nxt.text not in STOP
        and _joined(question, words, i - 1, i)
        and _joined(question, words, i, i + 1)
    )


def _initials_of_compound(word: str, slug: str) -> bool:
    """Is ``word`` a compound of dictionary words, one a letter of ``slug``, whose initials
    spell it ("underwriting" of "uw": under·writing)?"""
    if len(slug) == 1:
        return word[:1] == slug and known(word)
    if word[:1] != slug[0]:
        return False
    return any(
        known(word[:k]) and _initials_of_compound(word[k:], slug[1:])
        for k in range(3, len(word) - 2)
        if word[k : k + 1] == slug[1]
    )


def between_people(ask: ValueAsk, fact: Fact, kind: Kind) -> bool:
    """Is a person asked of a row that names two people or more ("pilot on duty: Ines Morel,
    standby Karl Weiss")? Then the relation asked ("who is *backing up* the pilot on duty",
    "who *stands in for* her", "who *reports to* him") is what tells the asked one from the
    other, and the words after it name the other: a row must say the relation, or the
    question's words pick the person it is about, not the one asked. A name the question
    says ("the Kestrel Ridge inspection") is the thing asked of, no person of the row."""
    if kind is not Kind.PERSON:
        return False
    asked = ask.question.casefold()
    people = {
        v.text.casefold()
        for v in values_in(fact.text)
        if v.kind is Kind.PERSON and v.text.casefold() not in asked
    }
    return len(people) >= 2


_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)")
_NUMBER_WORDS = {
    word: str(n)
    for n, word in enumerate(
        (
            *("zero", "one", "two", "three", "four", "five", "six"),
            *("seven", "eight", "nine", "ten", "eleven", "twelve"),
        )
    )
}


def numbers_said(question: str, text: str) -> frozenset[str]:
    """The roots of the question's words of a number the row writes in another notation: an
    ordinal or a number word, where the row has its digits beside a word the question has
    beside it ("the December *1st* cohort" of "December 1 cohort", "a *ten* minute clip" of
    "a 10-minute clip"), and a percentile the row writes as its label ("the *99th
    percentile*" of "p99 = 412 ms"). The number is the thing's name in either notation;
    beside another neighbour it may be another thing's. (A label in the question, "p99", is
    a specific value the row must say as written: ``has_specifics``.)"""
    asked = tokens(question)
    row = tokens(code_form(text))
    said = {t.text for t in row}
    out: set[str] = set()

    def forms(t: Token) -> set[str]:
        return {root(t.text), root(t.lemma), t.stem}

    def neighbours(words: Sequence[Token], i: int) -> set[str]:
        near = (words[j] for j in (i - 1, i + 1) if 0 <= j < len(words))
        return {r for t in near if t.text not in STOP for r in forms(t)}

    for i, word in enumerate(asked):
        after = asked[i + 1] if i + 1 < len(asked) else None
        ordinal = _ORDINAL.fullmatch(word.text)
        number = ordinal.group(1) if ordinal else _NUMBER_WORDS.get(word.text)
        if ordinal and after is not None and after.lemma == "percentile":
            if f"p{number}" in said:
                out |= forms(word) | forms(after)  # "99th percentile" of "p99"
            continue
        if number is None:
            continue
        beside = neighbours(asked, i)
        if any(t.text == number and neighbours(row, j) & beside for j, t in enumerate(row)):
            out |= forms(word)  # "1st" of "December 1", "ten" of "10-minute"
    return frozenset(out)


def nearly_about(unsaid: tuple[tuple[str, ...], int] | None) -> bool:
    """Is a row, by ``entity_unsaid``, about the thing asked but for one word at most, of
    two thirds of its words at least? Such a row disputes a cited value: a row the model
    might have cited with a paraphrase of the thing ("throttles us at 60 requests/minute"
    beside "rate limit is 120 requests per minute") gives a rival answer."""
    if unsaid is None:
        return False
    missing, said = unsaid
    return not missing or (len(missing) == 1 and said >= 2)


def about_mostly(ask: ValueAsk, cited: Fact, value: Value, usable: Sequence[Fact]) -> bool:
    """Is the cited row about the thing asked, as the model read it: ``about_entity``, or a
    row that says its qualifiers, specific values and names and at least two thirds of the
    words of its subject (two at least), leaving out only plain head words the row names by
    their modifier ("the grafana *board*", "the planner *host*": ``_renamed_head``) and
    saying no other word in their place — and no other retrieved row says as many of them,
    or a word this one leaves out (whatever its values: it is the row about the thing). A
    paraphrase is the model's to read; the thing is not: a name is never left out, and a
    row another row rivals is refused."""
    unsaid = entity_unsaid(ask, cited, value.kind, value=value)
    if unsaid is None:
        return False
    missing, said = unsaid
    if not missing:
        return True
    if said < 2 or said < 2 * len(missing):
        return False
    words = tokens(ask.question)
    said_roots = roots_of(cited.text, cited.member)
    for term in missing:
        at = [i for i, w in enumerate(words) if term in forms_of(w)]
        if not at or not all(
            _plain_noun(ask.question, words[i])
            and (
                _renamed_head(ask.question, words, i, said_roots)
                or _unrivalled_modifier(ask, words, i, cited, usable)
            )
            for i in at
        ):
            return False  # "k8s", "ledger-api", "fixed", "the *staging* service": not a head
    if _said_instead(ask.question, cited.text, missing):
        return False  # "the search *primary*" for "the search replica": another thing
    for other in usable:
        if other.row_id == cited.row_id:
            continue
        theirs = entity_unsaid(ask, other, value.kind)
        if theirs is not None and (theirs[1] >= said or set(missing) - set(theirs[0])):
            return False  # another row is as much about it, or says what this one leaves out
    return True


def about_as_cited(ask: ValueAsk, fact: Fact, value: Value, usable: Sequence[Fact]) -> bool:
    """Is the row the offline reader picked a value from about the thing asked, as the check
    of a citation reads it (``about_mostly``): about every word of the thing but the
    relation's (``about_entity``), or leaving out only plain head words it names by their
    modifier ("the Leeds *warehouse*" of "40 on the shelf in Leeds", "the grafana *board*"),
    with no other word in their place and no other retrieved row as much about the
    question? Demanding the head a row names by its modifier proves nothing a row of another
    thing would lack; what tells things apart is kept: a name, a modifier, a month is never
    left out, and the value still passes every check of its clause and every rival row. A
    word left out must be in its dictionary form
    and no verb of an outcome (``_TELLING``): "remains" may be the clause's verb, which
    tells the row's value apart ("63% spent" is no share that remains), and the reader,
    unlike a model, has no reading of it. ``ranked_first`` (one plain word left out by the
    row most about the question) stays the model's: with one row retrieved, it takes
    "uplink" of a row about the downlink."""
    if not about_mostly(ask, fact, value, usable):
        return False
    unsaid = entity_unsaid(ask, fact, value.kind, value=value)
    missing = set(unsaid[0]) if unsaid is not None else set()
    return not any(
        w.text != w.lemma or root(w.text) in _telling_roots()
        for w in tokens(ask.question)
        if forms_of(w) & missing
    )


def tied_by_model(ask: ValueAsk, cited: Fact, value: Value, usable: Sequence[Fact]) -> bool:
    """May a row a model chose stand for the thing asked though it does not say every word
    of it: it says one word of the thing at least (``thing_said``: no asked noun, generic
    word or word of time), leaves out only words ``ranked_first`` may forgive one of (a
    plain word of the language: no name, number, participle, month, modifier or word of the
    asked noun's phrase, ``_forgivable``) and no verb of an outcome (``_TELLING``), says no
    other word in their place (``_said_instead``), and no other retrieved row says as many
    words of the thing with another live value of the cited kind? That the row is about the
    thing in other words is the model's reading, which code cannot prove for a paraphrase;
    what code holds is that nothing in the rows says it is another thing's, and that no row
    as much about the question disputes it. Only for a model's choice: the offline reader
    has no reading of the paraphrase behind its pick."""
    said = thing_said(ask, cited, value)
    unsaid = entity_unsaid(ask, cited, value.kind, value=value)
    if not said or unsaid is None:
        return False
    missing = unsaid[0]
    words = tokens(ask.question)
    verbs = relation_words(ask)
    roots = roots_of(cited.text, cited.member)
    for term in missing:
        if not _forgivable(ask, term, verbs) or any(
            w.lemma in _TELLING for w in words if term in forms_of(w)
        ):
            # "orion-3", "April", "*median* latency", "the *test* environment", "rejected":
            # what tells a thing from its near miss is never left out
            return False
        if not all(
            _phrase_said(ask.question, words, i, roots)
            for i, w in enumerate(words)
            if term in forms_of(w)
        ):
            return False  # "the *primary*" of "The read replica runs …": a thing unsaid
    if _said_instead(ask.question, cited.text, missing, verbs_aside=True):
        return False  # "the search *primary*" for "the search replica"
    if _outcome_unsaid(ask, roots):
        return False  # "redelivered *successfully*" of "3 messages went to the dead-letter topic"
    for other in usable:
        if other.row_id == cited.row_id:
            continue
        theirs = thing_said(ask, other, value)
        if theirs is None or not theirs or len(theirs) < len(said):
            continue
        if any(
            v.kind is value.kind
            and v.text.casefold() != value.text.casefold()
            and status_of(ask, other.text, v) == "fact"
            for v in values_in(other.text)
        ):
            return False  # a row as much about the thing gives another value of the kind
    return True


# How many more of the question's words the cited row must say than any other retrieved row
# for the one word it leaves out to be forgiven (``ranked_first``), measured with
# scripts/cited-exhaustive over the dev sets (docs/concierge.md).
_RANK_MARGIN = 1


def ranked_first(ask: ValueAsk, cited: Fact, value: Value, usable: Sequence[Fact]) -> bool:
    """Is the cited row, by how many words of the thing asked it says (``entity_unsaid``:
    its qualifiers and specific values all said), the one retrieved row most about the
    question, ahead of every other by ``_RANK_MARGIN`` at least, saying two words of it or
    more and the asked noun, and leaving out one word only, a forgivable one
    (``_forgivable``)? Then that word is the model's to read as a paraphrase ("the depot
    geocoding cache on the planner *host*" of a row about the planner's cache): the row the
    question is about is this one, whatever it calls the thing. By rank, not phrasing."""
    unsaid = entity_unsaid(ask, cited, value.kind, value=value)
    if unsaid is None:
        return False
    missing, said = unsaid
    if len(missing) != 1 or said < 2 or not _forgivable(ask, missing[0]):
        return False
    if _said_instead(ask.question, cited.text, missing):
        return False  # "the *Lisbon* lab" for "the Porto lab": another thing of the family
    if ask.noun != "value" and ask.noun not in KIND_NAMES:
        roots = roots_of(cited.text, cited.member)
        if not any(derived_from(w, r) for w in wanted_nouns(ask) for r in roots):
            return False  # "RSS peaks at 1.7 GiB" for "what memory limit": not the noun asked
    rivals = (entity_unsaid(ask, other, value.kind) for other in usable if other is not cited)
    best = max((theirs[1] for theirs in rivals if theirs is not None), default=0)
    return said - best >= _RANK_MARGIN


def _forgivable(ask: ValueAsk, term: str, verbs: frozenset[str] = frozenset()) -> bool:
    """May a row leave out this word of the question, wherever the question says it: a
    plain word of the language (``_plain_noun``: no name, no participle; no word the asker
    capitalised as a name, "Argentina" though a dictionary has it), in its own form
    or a plural (no verb's inflection: "shrank", "went"), no month, no part of the asked
    noun's phrase ("*ticket* number", "*host* and port") and modifying no word after it
    ("the *test* environment", "*median* latency", the "*farm*'s" build time): what tells
    one thing from its near miss is never left out. A word before one of ``verbs`` (the
    relation's, for a model's choice: "does the tide gauge *uplink* use") ends the noun
    phrase: it modifies no noun."""
    if not term.isalpha():
        return False
    question = ask.question
    words = tokens(question)
    phrase = _asked_phrase(ask)
    at = [i for i, w in enumerate(words) if term in forms_of(w)]
    for i in at:
        word = words[i]
        if not _plain_noun(question, word) or i in phrase or word.lemma in MONTHS:
            return False
        if word.text in ask.names:
            return False  # "in Argentina": a name as the asker wrote it, a dictionary word too
        if _restricts_after(words, i, phrase):
            return False  # "the loss ratio *for home*": "the home loss ratio", said after
        if word.text != word.lemma and not word.text.endswith("s"):
            return False
        after = words[i + 1] if i + 1 < len(words) else None
        if question[word.end : word.end + 1] == "'" or (
            after is not None
            and after.text not in STOP
            and not forms_of(after) & verbs
            and not _GAP.search(question[word.end : after.start])
        ):
            return False
    return bool(at)


# A preposition whose object, right after the asked noun, says which of its kind is asked
# ("the loss ratio for home") as a modifier before it would. Not "of": its object is as
# often the thing itself, named by its kind ("the owner of the ticket about …").
_RESTRICTING = frozenset({"for"})


def _restricts_after(words: Sequence[Token], i: int, phrase: frozenset[int]) -> bool:
    """Is the word at ``i`` in the object of "for" right after the asked noun's phrase ("the
    loss ratio for home", "the rate for the day pupils")?"""
    j = i - 1
    while j >= 0 and i - j <= 3 and words[j].text not in STOP and j not in phrase:
        j -= 1  # the object's own modifiers: "for the *day* pupils"
    if j >= 0 and words[j].text in ("the", "a", "an", "our", "its"):
        j -= 1
    return j >= 1 and words[j].text in _RESTRICTING and j - 1 in phrase


def _asked_phrase(ask: ValueAsk) -> frozenset[int]:
    """The indexes in the question's words of the asked noun's phrase: the noun and the
    words joined to it with no stop word or mark between, and a noun coordinated with it
    ("host and port")."""
    question = ask.question
    words = tokens(question)

    def joined(i: int, j: int) -> bool:
        return not _GAP.search(question[words[i].end : words[j].start])

    out: set[int] = set()
    for i, w in enumerate(words):
        if w.lemma != ask.noun and w.text != ask.noun:
            continue
        lo = hi = i
        while lo > 0 and words[lo - 1].text not in STOP and joined(lo - 1, lo):
            lo -= 1
        while hi + 1 < len(words) and words[hi + 1].text not in STOP and joined(hi, hi + 1):
            hi += 1
        for conj, other in ((lo - 1, lo - 2), (hi + 1, hi + 2)):
            if (
                0 <= other < len(words)
                and words[conj].text in ("and", "or")
                and words[other].text not in STOP
            ):
                out.add(other)  # "host and port": both are asked
        out.update(range(lo, hi + 1))
    return frozenset(out)


def _plain_noun(question: str, word: Token) -> bool:
    """Is a word of the question a plain word of the language that may name the thing in
    other words ("board", "host", "envelope"): a known word, no verb's participle ("fixed",
    "issued", "running": the relation asked is the row's to state) and no part of a name
    joined by a mark ("ledger" of "ledger-api", "orders" of "orders_v2")?"""
    joined = question[max(0, word.start - 1) : word.start] + question[word.end : word.end + 1]
    return (
        known(word.text)
        and not word.text.endswith(("ed", "ing"))
        and not re.search(r"[-_./@:]\w", question[word.end : word.end + 2])
        and not re.search(r"\w[-_./@:]$", question[max(0, word.start - 2) : word.start])
        and "`" not in joined
    )


def _renamed_head(question: str, words: Sequence[Token], i: int, said: frozenset[str]) -> bool:
    """Is ``words[i]`` the head of a noun phrase whose modifier right before it the row says
    (``said``: its roots), "the grafana *board*", "the planner *host*": the row names the
    thing by its modifier and calls it otherwise? A modifier itself ("the *staging*
    service", "*median* latency", "the *April* export") or a word after a preposition
    ("the table for *December*") is what tells one thing from its near miss: never left out.
    """
    if (
        i == 0
        or words[i - 1].text in STOP
        or _GAP.search(question[words[i - 1].end : words[i].start])
    ):
        return False
    before = words[i - 1]
    if not forms_of(before) & said:
        return False
    after = words[i + 1] if i + 1 < len(words) else None
    return (
        after is None
        or after.text in STOP
        or bool(_GAP.search(question[words[i].end : after.start]))
    )


# Modifiers that tell a thing from its near miss by their kind, whatever the fleet says: an
# environment, a region or side, a period or a day, a rank, a bound, an order.
_TELLING_MODIFIERS = word_set(
    """west western east eastern north northern south southern central inner outer left right
    upper lower front back internal external public private global local regional national
    morning evening night nightly daily weekly monthly yearly annual today yesterday tomorrow
    monday tuesday wednesday thursday friday saturday sunday weekend weekday first second
    third next previous prior old older new newer final initial main backup spare standby"""
)


def _unrivalled_modifier(
    ask: ValueAsk, words: Sequence[Token], i: int, cited: Fact, usable: Sequence[Fact]
) -> bool:
    """Is ``words[i]`` a plain modifier the row may leave out where the question names the
    thing by a code the row says ("the *pressure* transmitter PT-311", "the *smoke* test of
    build 5.14.0"): a word of the language right before a noun the row says, outside the
    asked noun's phrase ("the *sterilisation* temperature" tells one temperature of AC-02
    from another), of no kind that tells things apart by itself (an environment, a region,
    a period, a month, a rank or an order: ``_TELLING_MODIFIERS``, ``EXCLUSIVE``; an outcome,
    by a derivation too), and no retrieved row says that noun with another modifier (a
    rival: "the *staff* hub" beside "the *student* hub")? The code picks the thing out; its
    modifier only says what kind of thing it is. ``about_mostly`` still refuses where the
    row says another word in its place ("*manual* review") or another row says as much of
    the question."""
    question = ask.question
    word = words[i]
    if not any(not t.isalpha() for t in ask.subject) or i in _asked_phrase(ask):
        return False  # no code names the thing, or the modifier is the asked noun's own
    if not word.text.isalpha() or word.text in STOP:
        return False
    lemmas = {word.text, word.lemma}
    exclusive = {w for table in EXCLUSIVE for w in table}
    if lemmas & (_TELLING_MODIFIERS | exclusive | MONTHS | PERIOD_WORDS | _TELLING):
        return False
    if any(derived_from(root(word.lemma), t) for t in _telling_roots()):
        return False  # "successful", "failing": an outcome
    if lemmas & (_UPPER | _LOWER | _HEDGING_DEGREE | _QUANTITY) or word.text in _NUMBER_WORDS:
        return False
    if i + 1 >= len(words) or not _joined(question, words, i, i + 1):
        return False
    head = words[i + 1]
    if head.text in STOP or not head.text.isalpha():
        return False
    noun = root(head.lemma)
    if not forms_of(head) & roots_of(cited.text, cited.member):
        return False  # the row names the thing by its noun
    mine = {root(word.lemma), word.stem}
    if _modifiers(cited.text, noun) - mine:
        return False  # the row says the noun with another modifier: another one of it
    return not any(
        _modifiers(other.text, noun) - mine for other in usable if other.row_id != cited.row_id
    )


def _said_instead(
    question: str, text: str, missing: Sequence[str], *, verbs_aside: bool = False
) -> bool:
    """Does the row say another word where the question says one the row leaves out: beside
    the same neighbour, on the same side ("search *primary*" where the question asks of the
    "search *replica*", "invoice *export*" for "invoice import")? Then the row names another
    thing of the same family, not the asked one in other words. Words inside the row's
    values (a URL's "grafana") stand beside nothing."""

    def adjacent(words: Sequence[Token], said: str, i: int, j: int) -> bool:
        return (
            min(i, j) >= 0
            and max(i, j) < len(words)
            and not _GAP.search(said[words[min(i, j)].end : words[max(i, j)].start])
        )

    asked = tokens(question)
    asked_roots = frozenset(r for w in asked for r in forms_of(w))
    spans = [(v.start, v.end) for v in values_in(text)]
    lowered = text.lower()
    row = [w for w in tokens(lowered) if not any(a <= w.start and w.end <= b for a, b in spans)]
    for i, word in enumerate(asked):
        if not forms_of(word) & set(missing):
            continue
        for side in (-1, 1):
            if not adjacent(asked, question, i, i + side):
                continue
            neighbour = forms_of(asked[i + side])
            if asked[i + side].text in STOP:
                continue
            for k, said in enumerate(row):
                if not forms_of(said) & neighbour or not adjacent(row, lowered, k, k - side):
                    continue
                other = row[k - side]
                if verbs_aside and _a_verb_there(row, lowered, k - side):
                    continue  # "the feed pump *listens* on": the relation, said in its place
                if (
                    other.text not in STOP
                    and other.text.isalpha()
                    and len(other.text) > 2
                    and not forms_of(other) & asked_roots
                ):
                    return True
    return False


def _outcome_unsaid(ask: ValueAsk, said: frozenset[str]) -> bool:
    """Does the request name an outcome (``_TELLING``, by a derivation too: "successfully",
    "rejected", "failures") the row (``said``: its roots) does not say? The outcome tells a
    row's values apart; a paraphrase of the thing never stands in for it."""
    telling = _telling_roots()
    for word in tokens(request_sentence(ask)):
        forms = forms_of(word)
        if any(derived_from(f, t) for f in forms for t in telling) and not any(
            derived_from(f, r) for f in forms for r in said
        ):
            return True
    return False


@functools.cache
def _telling_roots() -> frozenset[str]:
    """The roots of ``_TELLING``."""
    return frozenset(root(w) for w in _TELLING)


def _phrase_said(question: str, words: Sequence[Token], i: int, said: frozenset[str]) -> bool:
    """Does the row (``said``: its roots) say another word of the noun phrase ``words[i]``
    stands in (the words joined to it with no stop word or mark between): "the feed *pump*
    controller" is named by its pump, "the *primary*" by nothing but itself?"""
    lo = hi = i
    while lo > 0 and words[lo - 1].text not in STOP and _joined(question, words, lo - 1, lo):
        lo -= 1
    while (
        hi + 1 < len(words)
        and words[hi + 1].text not in STOP
        and _joined(question, words, hi, hi + 1)
    ):
        hi += 1
    return any(forms_of(words[j]) & said for j in range(lo, hi + 1) if j != i)


def _joined(question: str, words: Sequence[Token], i: int, j: int) -> bool:
    return not _GAP.search(question[words[i].end : words[j].start])


def _a_verb_there(row: Sequence[Token], text: str, k: int) -> bool:
    """Is ``row[k]`` a verb by its form and its place: inflected ("listens", "departs",
    "uploaded", "running") and followed by a particle or a value ("listens *on*", "departs
    *22:40*"), the place of a verb before its complement, not of a noun?"""
    word = row[k]
    if word.text == word.lemma and not word.text.endswith("ing"):
        return False
    rest = text[word.end :]
    after = re.match(r"\s+([a-z]+)\b", rest)
    return bool(
        (after and after.group(1) in _PARTICLES)
        or any(v.start == word.end + len(rest) - len(rest.lstrip()) for v in values_in(text))
    )


def _initials(text: str) -> frozenset[str]:
    """The initials of each run of three to five consecutive words of ``text``, none a stop
    word and no punctuation between ("dlq" of "dead-letter queue", "sla" of "service level
    agreement"): an acronym, a word of no dictionary, the question uses for them."""
    out: set[str] = set()
    for run in re.split(r"[^a-z0-9 -]+", text.lower()):
        words = re.findall(r"[a-z][a-z0-9]*", run)
        for i in range(len(words)):
            for n in range(3, 6):
                part = words[i : i + n]
                if len(part) == n and not any(w in STOP for w in part):
                    out.add("".join(w[0] for w in part))
    return frozenset(out)


_RELATIVE = word_set("that which who whom")
_AFTER_PARTICIPLE = word_set(
    "up down on off out in into to through at for from over with by under within onto as"
)


def _verbs_anywhere(ask: ValueAsk) -> frozenset[str]:
    """The roots of the request's verbs where they stand outside its main clause: a verb
    after a relative pronoun ("the service that *checks* signatures") and a participle after
    a noun and before a particle ("messages *sitting* in the DLQ", "logs *shipped* by"). A
    participle before a noun is a modifier ("the *failed* jobs") and one that ends the
    clause is its event ("when was the cert *issued*?" of one that expires): both stay the
    thing's, as an outcome verb (``_TELLING``) does."""
    sentence = request_sentence(ask)
    words = tokens(sentence)
    named = _asked_lemmas(ask)
    found: set[int] = set()
    for i in range(1, len(words)):
        t, prev = words[i], words[i - 1]
        if t.text in STOP or t.lemma in named or t.lemma in _TELLING:
            continue
        if _GAP.search(sentence[prev.end : t.start]):
            continue
        inflected = t.text != t.lemma or t.text.endswith(("ing", "ed"))
        head = words[i - 2].text if i >= 2 else ""
        if prev.text in _RELATIVE and inflected and (head == "one" or (head and head not in STOP)):
            found.add(i)  # "that checks", "which sits"
            continue
        nxt = words[i + 1] if i + 1 < len(words) else None
        ends = nxt is None or bool(_GAP.search(sentence[t.end : nxt.start]))
        participle = t.text.endswith("ing") or (t.text != t.lemma and not t.text.endswith("s"))
        if (
            participle
            and prev.text not in STOP
            and not ends
            and nxt is not None
            and nxt.text in _AFTER_PARTICIPLE
        ):
            found.add(i)  # "messages sitting in", "the job closed as"
    return frozenset(
        r for i in found for r in (root(words[i].lemma), root(words[i].text), words[i].stem)
    )


# The kinds of value that say where a thing is or which it is (a host, a path, an address,
# a port, a version): the verb of a clause that asks one only places the thing ("which
# machine is the data *arriving* on?", "where is the list *saved*?"). A moment, a duration,
# a count, a share or a person is told apart by its event ("when was the cert *issued*" of
# one that *expires*, "how many were *imported*", "who *approved*"): never spared.
_PLACE_KINDS = frozenset(
    {Kind.HOST, Kind.IP, Kind.MACHINE, Kind.PATH, Kind.URL, Kind.URL_PATH, Kind.PORT}
    | {Kind.EMAIL, Kind.VERSION}
)
# The auxiliaries of a participle's clause ("is … arriving", "has … enabled", "was … saved").
_AUX_BE = word_set("is are was were been being has have had s")
# Particles of a direction: "sent *from*", "copied *to*" name the other end, not the place.
_DIRECTION = word_set("from to into onto off out away")


def _placing_verbs(ask: ValueAsk, kind: Kind) -> frozenset[str]:
    """The roots of the request's verbs, by their form and their place, when the asked kind
    places a thing (``_PLACE_KINDS``): in a clause of "be" or "have", a participle or an -ing
    form right after a word of its subject that ends the clause or meets a particle of place
    ("is the satellite data *arriving*?", "where is the list *saved*?", "which host are the
    logs *stored* on?"). A word before a noun modifies it ("the *failed* jobs", "the
    *prepared* batch"); a name, a number, a month, an outcome (``_TELLING``) or a qualifier
    ("passed", "started": ``EXCLUSIVE``) is never a verb here; a particle of direction
    ("sent *from*") names another end of the thing."""
    if kind not in _PLACE_KINDS:
        return frozenset()
    sentence = request_sentence(ask).lower()
    words = tokens(sentence)
    named = _asked_lemmas(ask)
    exclusive = {w for table in EXCLUSIVE for w in table}
    found: set[int] = set()
    for i in range(1, len(words)):
        t, prev = words[i], words[i - 1]
        if t.text in STOP or t.lemma in named or t.lemma in _TELLING or not t.text.isalpha():
            continue
        if t.text in exclusive or t.lemma in exclusive or t.lemma in MONTHS:
            continue
        if (
            prev.text in STOP
            or _glued(sentence, t)
            or not any(w.text in _AUX_BE for w in words[:i])
        ):
            continue
        if not (past(t) or (t.text.endswith("ing") and t.text != t.lemma)):
            continue
        nxt = words[i + 1] if i + 1 < len(words) else None
        ends = nxt is None or bool(_GAP.search(sentence[t.end : nxt.start]))
        if not ends and (nxt is None or nxt.text not in _PARTICLES or nxt.text in _DIRECTION):
            continue
        found.add(i)
    return frozenset(
        r for i in found for r in (root(words[i].lemma), root(words[i].text), words[i].stem)
    )


def _glued(sentence: str, t: Token) -> bool:
    """Is ``t`` a piece of a name ("ledger-api", "orders_v2", "known-good")?"""
    return sentence[t.start - 1 : t.start] in ("-", "_", ".", "/") or sentence[
        t.end : t.end + 1
    ] in ("-", "_", ".", "/")


# Adverbs that complete a verb into another one ("came *back*", "is going *away*").
_VERB_PARTICLES = word_set("back away aside apart along around")


def _event_words(ask: ValueAsk) -> frozenset[str]:
    """The roots of the request's particles of a phrasal verb, right after the verb in a
    past or -ing form ("how many pages *came back* 404", "the legacy one is going *away*"):
    the verb's, the relation asked, not a word of the thing ("the *back* row" is)."""
    sentence = request_sentence(ask)
    words = tokens(sentence)
    return frozenset(
        r
        for prev, t in itertools.pairwise(words)
        if t.text in _VERB_PARTICLES
        and not _GAP.search(sentence[prev.end : t.start])
        and prev.text != prev.lemma
        and (past(prev) or prev.text.endswith("ing"))
        for r in (root(t.lemma), root(t.text), t.stem)
    )


# Words of degree: a hedge of how often ("usually"), or the bound asked ("max", "at worst"),
# which a row's single value answers unless it says the other bound.
_HEDGING_DEGREE = word_set("usually typically normally generally ordinarily far")
_UPPER = word_set("max maximum most worst peak peaks highest top upper cap capped ceiling")
_LOWER = word_set("min minimum least lowest floor lower bottom")


def _degree_words(ask: ValueAsk, fact: Fact) -> frozenset[str]:
    """The roots of the request's words of degree the row's value answers: a hedge of how
    often or "how far", and a bound ("max", "at worst") when the row says no other bound."""
    said = {t.text for t in tokens(fact.text.lower())}
    out: set[str] = set()
    for t in tokens(request_sentence(ask)):
        if t.text in _HEDGING_DEGREE or t.lemma in _HEDGING_DEGREE:
            out.add(root(t.lemma))
        elif (t.text in _UPPER and not said & _LOWER) or (t.text in _LOWER and not said & _UPPER):
            out |= {root(t.lemma), root(t.text)}  # "max" of a row saying one bound
    return frozenset(out)


# Verbs of an outcome that tells a row's values apart ("how many were rejected?", "which
# sha fixed it?" of the one that caused it): never the model's reading, a row must say them
# (the exclusive qualifiers — passed, failed, started, finished — are checked as such).
_TELLING = word_set(
    """reject accept refuse deny drop add remove lose gain miss block allow approve decline
    retry skip fail pass succeed break fix introduce cause revert regress resolve remain"""
)
_BE = word_set("is are was were be been being")

DETERMINERS = word_set("the a an its their our your my his her this that these those")
_PARTICLES = word_set(
    "up down on off out in into to through at for from over with by under within onto"
)
_GAP = re.compile(r"[,;:?.!()\[\]]|\s[-\u2013\u2014]\s")


@functools.lru_cache(maxsize=4096)
def _relation_words_of(sentence: str, named: frozenset[str]) -> frozenset[str]:
    """The roots of the verbs of ``sentence``'s relation, by where they stand: a participle
    after a form of "be" ("are taken", "is waiting"); the verb that ends the subject of an
    inverted question ("does the billing DB cutover begin?", "must the vendor react to");
    an inflected verb before its object or particle ("receives the alerts", "turned on").
    A word of a name (glued by "-", "_", ".") or of ``named`` (the asked noun's) is none."""
    words = tokens(sentence)
    n = len(words)

    def glued(i: int) -> bool:
        t = words[i]
        return sentence[t.start - 1 : t.start] in ("-", "_", ".", "/") or sentence[
            t.end : t.end + 1
        ] in ("-", "_", ".", "/")

    def ends(i: int) -> bool:  # no word after, or punctuation between it and the next
        return i + 1 >= n or bool(_GAP.search(sentence[words[i].end : words[i + 1].start]))

    def inflected(t: Token) -> bool:
        return t.text != t.lemma and not t.text.endswith("s")  # "taken", "stuck", "turned"

    found: set[int] = set()
    for i, t in enumerate(words):
        if (t.text in STOP and t.text not in AUX) or glued(i) or t.lemma in named:
            continue
        prev = words[i - 1].text if i > 0 and not ends(i - 1) else ""
        nxt = words[i + 1].text if not ends(i) else ""
        if prev in _BE and (inflected(t) or t.text.endswith("ing")):
            found.add(i)  # "are taken", "is waiting"
        elif (
            inflected(t)
            and prev
            and prev not in DETERMINERS
            and (nxt in DETERMINERS or nxt in _PARTICLES)
        ):
            found.add(i)  # "turned on", "went through the"
        elif t.text.endswith("s") and t.text != t.lemma and nxt in DETERMINERS and prev:
            found.add(i)  # "receives the", "carries the"
    for a, t in enumerate(words):
        if t.text not in AUX or ends(a):
            continue
        verb = _inverted_verb(words, a + 1, ends)
        if verb is None or glued(verb) or words[verb].lemma in named:
            continue
        last = words[verb]
        perfect = t.text in ("has", "have", "had")
        if (perfect and inflected(last)) or (not perfect and last.text == last.lemma):
            found.add(verb)  # "does the cutover begin", "has the flag turned on"
    return frozenset(
        r
        for i in found
        for r in (root(words[i].lemma), root(words[i].text), words[i].stem)
        if words[i].lemma not in _TELLING
    )


_PRONOUNS = word_set("i we you they it he she")


def _inverted_verb(words: Sequence[Token], at: int, ends: Callable[[int], bool]) -> int | None:
    """The verb after an auxiliary's subject, from ``at``: the word after a pronoun ("do we
    *map* sodium to"); else the last word of a noun phrase (a determiner, words, "of" and
    another phrase) that ends the clause or meets a particle or an object's determiner ("does
    the billing DB cutover *begin*?", "did the tracer *write* its flamegraph"). None where
    the phrase stops at any other word ("does the cluster have …", "find most expensive")."""
    if at >= len(words):
        return None
    if words[at].text in _PRONOUNS:
        nxt = at + 1
        ok = nxt < len(words) and not ends(at) and words[nxt].text not in STOP
        return nxt if ok else None
    run: list[int] = []
    j = at
    while j < len(words):
        w = words[j]
        if w.text in DETERMINERS and (not run or words[j - 1].text == "of"):
            pass  # the subject's own determiner, or one after "of"
        elif (w.text == "of" and run) or (w.text in RELATIVE_NEXT and run):
            pass  # "of" and a phrase, or an adverb ("did shipwright just cut")
        elif w.text in STOP or root(w.text) in untimed():
            stop = w.text in DETERMINERS or w.text in _PARTICLES or root(w.text) in untimed()
            return run[-1] if stop and len(run) >= 2 and words[j - 1].text != "of" else None
        else:
            run.append(j)
        if ends(j):
            return run[-1] if len(run) >= 2 and j == run[-1] else None
        j += 1
    return None


def relation_words(ask: ValueAsk) -> frozenset[str]:
    """The roots of the request's relation words (``_relation_words_of``)."""
    sentence = request_sentence(ask)
    if not (REQUEST.search(sentence) or HOW_SOON.search(sentence) or WHO.search(sentence)):
        return frozenset()  # no request for a value ("Shall I retire the v1 endpoints?")
    return _relation_words_of(sentence, frozenset(_asked_lemmas(ask))) | _condition(sentence)


_CONDITION = re.compile(r"^\s*(?:if|unless|once|when|in case)\b([^,;:?]*),")


def _condition(sentence: str) -> frozenset[str]:
    """The roots of a leading condition ("If the primary is away, who …?"): when the asker
    would need the value, not what it is of — where the rest still names a thing."""
    found = _CONDITION.match(sentence)
    if found is None:
        return frozenset()
    rest = tokens(sentence[found.end() :])
    named = any(
        a.text in DETERMINERS and b.text not in STOP and b.text not in PERIOD_WORDS
        for a, b in itertools.pairwise(rest)
    )
    if not named:
        return frozenset()  # "If the billing API is down, who gets paged?": the API is asked
    kept = {root(t.lemma) for t in rest}
    return frozenset(root(t.lemma) for t in tokens(found.group(1)) if t.text not in STOP) - kept


PERIOD_WORDS = word_set("week month quarter year night sprint weekend day morning")


def _asked_lemmas(ask: ValueAsk) -> set[str]:
    """The lemmas of the asked noun and of the counted one: never a relation word."""
    out = {ask.noun}
    out |= {t.lemma for t in tokens(request_sentence(ask)) if root(t.lemma) in ask.counted}
    return out


def _kind_words(ask: ValueAsk, kind: Kind) -> frozenset[str]:
    """The roots of the question's nouns that name only a kind of value a form proves ("IP",
    "URL", "path"), when the value is of such a kind: its form says what the noun does."""
    if kind not in _FORMS:
        # "median", "uptime", "coverage" name a measure, not a form; "frequency" names the
        # measure "8.2 GHz" is by its unit
        return measure_names(request_sentence(ask), kind)
    return frozenset(
        r
        for t in tokens(request_sentence(ask))
        if set(NOUN_KINDS.get(t.lemma, (Kind.WORD,))) <= _FORMS
        for r in (root(t.lemma), root(t.text), t.stem)
    )


# Kinds whose form says what the value is: an IP address, a URL, a path, a commit.
_FORMS = frozenset(
    {Kind.IP, Kind.URL, Kind.URL_PATH, Kind.HOST, Kind.PATH, Kind.COMMIT, Kind.VERSION}
)


def _modifiers(text: str, term: str) -> frozenset[str]:
    """The roots of the words right before ``term`` wherever ``text`` says it as a word of
    its own ("line" of "Line coverage", "build" of "the build image"): no stop word, number
    or punctuation before it, no piece of a name ("db-stage", "acme-artifacts")."""
    lowered = code_form(text)
    words = tokens(lowered)
    out = set()
    for i, t in enumerate(words[1:], 1):
        if term not in (root(t.lemma), root(t.text), t.stem):
            continue
        prev = words[i - 1]
        if _GLUED.search(lowered[t.start - 1 : t.start]) or _GLUED_AFTER.match(lowered, t.end):
            continue
        if lowered[prev.end : t.start] != " ":
            continue
        if prev.text in STOP or prev.text in _QUANTITY or not prev.text.isalpha():
            continue
        out.add(root(prev.lemma))
    return frozenset(out)


_QUANTITY = word_set("many much few more less")
_GLUED = re.compile(r"[-_./]")
_GLUED_AFTER = re.compile(r"[-_/]|\.\w")


def another_modifier(ask: ValueAsk, cited: Fact, value: Value, usable: Sequence[Fact]) -> bool:
    """Is the cited value of another one of the thing asked: the question modifies the asked
    noun ("branch coverage") and the value's own clause says it only with another modifier
    ("Line coverage"); or the question names a noun of its subject bare ("the image size")
    while the cited row and another retrieved row about it say that noun with different
    modifiers ("Docker image", "build image"): which one is asked is a guess."""
    asked = request_sentence(ask)
    if ask.noun in NOUN_KINDS:
        noun = root(ask.noun)
        wanted = _modifiers(asked, noun)
        before, after = clause_of(cited.text, value)
        mine = _modifiers(f"{before}{value.text}{after}", noun)
        theirs = _modifiers(cited.text, noun)
        if wanted and mine and not any(derived_from(w, m) for w in wanted for m in theirs):
            return True  # ("replica lag" is the "replication lag": one word's derivations)
    for noun in dict.fromkeys(t for t in ask.subject if t.isalpha()):
        mine = _modifiers(cited.text, noun)
        if not mine or _modifiers(asked, noun) or noun in generic_words():
            continue
        for other in usable:
            if other.row_id == cited.row_id:
                continue
            theirs = _modifiers(other.text, noun)
            if theirs and not theirs & mine and not (theirs | mine) & set(ask.subject):
                return True
    return False
