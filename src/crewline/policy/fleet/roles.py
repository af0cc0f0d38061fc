"""Which members a request names by what they do: "the migration" the migrator, "the scan"
the probe, "the deploy" the deployer.

A member is declared by its slug and its display name (``crewline member add``); both say
what it does, mostly as an agent noun ("migrator", "scanner", "cost-bot"). A word of what the
request is about names a member's role when it shares that word's root (a derivation:
"migration" and "migrator", "scan" and "scanner" — ``lemmas.root``) or one group of the
thesaurus ("scan" and "probe"). Retrieval reads this (``named_members``): the named
members' rows become candidates. The readers count a member's name among its row's words
(``rows.roots_of``), so the migrator's "applied 0047 on staging in 6m12s" is about "the
migration" — but only while the row gives the value to no thing of its own: the migrator's
"the nightly backup took 4 minutes" is about the backup (``lent_to_another``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from crewline.policy.fleet.asking import NOUN_KINDS, NP_STOP, STOP, ValueAsk, verb_form
from crewline.policy.fleet.picking import mentioned
from crewline.policy.fleet.rows import EXCLUSIVE, Fact, clause_of, roots_of
from crewline.policy.fleet.thesaurus import generic_words, group_of, near
from crewline.policy.lemmas import Token, root, tokens
from crewline.policy.values import Kind, Value
from crewline.policy.wording import code_form, word_set

__all__ = [
    "MAX_NAMED",
    "asked_person",
    "lent_to_another",
    "named_as_the_thing",
    "named_members",
    "role_roots",
]

# A word that names more members than this picks out none of them ("check" of healthcheck,
# dbcheck, netcheck and portcheck): it says what kind of thing is asked, not whose row.
MAX_NAMED = 2
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
# Words of a member's name that say it is a member, not what it does ("cost-bot").
_NOT_A_ROLE = frozenset({"bot", "agent", "session", "member", "worker", "daemon", "ai"})
# An agent noun: a word that names a doer by what it does ("generator", "scanner").
_AGENT = re.compile(r"^[a-z]{3,}(?:er|or)$")


def role_roots(slug: str, name: str = "") -> frozenset[str]:
    """The roots of the words of a member's slug and display name ("Schema Migrator",
    "dns-checker": schema, migrat, dns, check), less the words that only say it is an
    agent and those too short to say anything."""
    words = _WORD.findall(f"{slug.replace('-', ' ').replace('_', ' ')} {name}")
    return frozenset(
        root(w.lower())
        for w in words
        if len(w) >= 3 and w.lower() not in _NOT_A_ROLE and root(w.lower()) not in generic_words()
    )


def named_members(subject: Sequence[str], members: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """The slugs of ``members`` (slug, display name) whose role a root of ``subject`` (what
    the request is about) names, in the order of ``subject``: by the same root, or a
    thesaurus group shared. A word that names more than ``MAX_NAMED`` members names none."""
    roles = [(slug, role_roots(slug, name)) for slug, name in members]
    named: list[str] = []
    for word in subject:
        if word in generic_words():
            continue
        hits = [slug for slug, roots in roles if _names_role(word, roots)]
        if len(hits) <= MAX_NAMED:
            named += [slug for slug in hits if slug not in named]
    return tuple(named)


def named_as_the_thing(ask: ValueAsk, request: str, names: Sequence[str]) -> bool:
    """Does ``request`` say each of the member ``names`` only as a word of the asked thing,
    right before another of its words ("which host is the *PAS database* primary?" of member
    pas, whose system it is) — not as whose rows are asked ("which port did telephony
    say?", "pas's figure")? Then another member's row about that thing still disputes."""
    words = tokens(code_form(request))
    subject = set(ask.subject)
    for name in names:
        if not name.isalnum() or root(name.lower()) not in subject:
            return False
        at = [k for k, w in enumerate(words) if w.text == name.lower()]
        # each time said right before a word of the thing, one space apart ("pas's",
        # "pas, database" are not), and not before a word that names the member itself by
        # what it does ("the schema *generator*", "the dns bot")
        if not at or any(
            k + 1 >= len(words)
            or words[k + 1].start != words[k].end + 1
            or root(words[k + 1].lemma) not in subject
            or _AGENT.search(words[k + 1].text)
            or words[k + 1].text in _NOT_A_ROLE
            for k in at
        ):
            return False
    return True


def _names_role(word: str, roots: frozenset[str]) -> bool:
    """Does ``word`` (a root) name the role whose roots are ``roots``: the same root, or a
    thesaurus group shared?"""
    groups = group_of().get(word, frozenset())
    return word in roots or any(groups & group_of().get(r, frozenset()) for r in roots)


def lent_to_another(ask: ValueAsk, fact: Fact, value: Value) -> bool:
    """Is a word of what the request is about had by the row only through its member's role
    ("the migration" by the migrator's name), while the value's clause gives the value to a
    subject of its own the question does not name ("the nightly backup took 4 minutes")? Then
    the row is about that other thing, not the one asked: the name lent the word, and the
    row took it back. A clause with no subject of its own ("applied 0047 in 6m12s", "took
    6m12s", "done: 9,318 articles"), or one the question names ("migration 0047 took 6m12s",
    "0047_add_zone_column applied …"), keeps the loan; a member the question names whole
    ("did sonar say …") is its source, not a word lent."""
    if mentioned(ask, [fact.member]):
        return False
    said = roots_of(fact.text, "")
    role = role_roots(fact.member)
    lent = [
        t
        for t in ask.subject
        if t.isalpha()
        and t not in generic_words()
        and not any(near(t, r) for r in said)
        and _names_role(t, role)
    ]
    if not lent:
        return False
    head = clause_of(fact.text, value)[0].rsplit(":", 1)[-1]
    asked = {t.text for t in tokens(ask.question)} | {root(t.lemma) for t in tokens(ask.question)}
    words = [t for chunk in _subject(code_form(head)) for t in tokens(chunk)]
    named = [t for t in words if _names_a_thing(t, role)]
    # a subject naming a word of the question is the asked thing in the row's words
    # ("the orders-events dead-letter queue" for "the orders-events DLQ")
    return bool(named) and not any(_asked(t, asked) for t in named)


def asked_person(ask: ValueAsk, value: Value) -> bool:
    """Is the value a person the question itself names, whole or by a word of the name no
    dictionary has ("Captain Moreau" of "Capt. Ines Moreau", "Ines" of "Ines Moreau")? The
    one who covers for Moreau, replaces her or stands in for her is another person: the
    question's own person answers no "who" of it, though the row says both ("Capt. Ines
    Moreau reaches her duty limit …; F/O Daniel Park is the standby cover"). A word of
    grammar ("Will", "May") names nobody alone."""
    if value.kind is not Kind.PERSON:
        return False
    name = value.text.lower()
    words = [w for w in re.findall(r"[^\W\d_]+", name) if len(w) >= 3 and w not in STOP | NP_STOP]
    return any(_said_whole(w, ask.question) for w in [name, *words])


def _said_whole(word: str, question: str) -> bool:
    return re.search(rf"(?<![\w.@/-]){re.escape(word)}(?![\w@/-])", question) is not None


def _subject(head: str) -> list[str]:
    """The words of a clause's subject before its verb, each a word or a name glued whole
    ("the nightly backup" of "the nightly backup on staging took"): none when the clause
    opens with its verb ("applied 0047 …"), and none inside a prepositional phrase ("on
    qa-box-7 the ledger-api listens": the ledger-api)."""
    subject: list[str] = []
    in_phrase = False
    previous = ""
    for chunk in (c.strip(_EDGES) for c in head.split()):
        words = tokens(chunk)
        if not words:
            continue
        verb = len(words) == 1 and (words[0].text in _COPULA or verb_form(words[0]))
        if verb and previous not in _DETERMINERS:  # "the returns desk": a noun
            return subject
        if chunk in _PREPOSITIONS:
            in_phrase = True
        elif chunk in _DETERMINERS:
            in_phrase = False
        elif not in_phrase:
            subject.append(chunk)
        previous = chunk
    return []  # no verb: the member's own clause ("done in 6m12s")


def _names_a_thing(word: Token, role: frozenset[str]) -> bool:
    """Does this word of a clause's subject name a thing: no stop word, no generic word, no
    kind of value ("runtime", "count"), no qualifier ("nightly", "staging"), not the
    member's own role?"""
    base = root(word.lemma)
    return not (
        word.text in STOP | NP_STOP
        or word.lemma in NOUN_KINDS
        or base in generic_words()
        or base in _qualifiers()
        or base in role
    )


def _asked(word: Token, asked: set[str]) -> bool:
    """Is this word the question's: said in it, or a word of its own root or thesaurus
    group ("v3", "ledger", "scanned" of "scan")?"""
    if word.text in asked:
        return True
    return word.text.isalpha() and any(near(root(word.lemma), a) for a in asked)


_COPULA = word_set("is are was were be been being has have had")
_EDGES = "\"'`*.,;!?()[]{}<>"
_PREPOSITIONS = word_set("on at in from to for with by under of into onto over across via")
_DETERMINERS = word_set("the a an our their its this that these those")


@functools.cache
def _qualifiers() -> frozenset[str]:
    """The roots of the qualifiers of which a thing has one (built at first use: a root
    reads the lemmatiser's dictionary, which importing the server must not)."""
    return frozenset(root(w) for table in EXCLUSIVE for w in table)
