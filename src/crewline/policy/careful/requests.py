"""A request for information: whether an act's word is only the topic of a question asking to
be told something ("what's the IP of the deploy box?"), a value named as a bare noun phrase,
or the asker's own act, not one asked of the concierge."""

from __future__ import annotations

import re

from crewline.policy.acts import (
    AUDIENCE,
    NON_PROD,
    PROD_WORDS,
)
from crewline.policy.careful.objects import context_holds, object_end
from crewline.policy.careful.positions import clause_words, named_after_preposition, verb_position
from crewline.policy.careful.words import (
    ACTS_BY_FIRST,
    ARTIFACTS,
    AUXILIARIES,
    COPULAS,
    DATA_OBJECT,
    DETERMINERS,
    DOC_HEADS,
    EDIT_VERBS,
    EXEC_VERBS,
    FRONTING,
    IRREGULAR_PAST,
    PREPOSITIONS,
    PROCEED_VERBS,
    READ_VERBS,
    SUBJECTS,
    VERB_LIKE,
    WH,
)
from crewline.policy.clauses import FILLERS, Shape, Word
from crewline.policy.wording import (
    word_set,
)

_HARD_BOUNDARY = re.compile(r"[:;]|\s[-\u2013\u2014]+\s|[\u2013\u2014]")
ASKER = word_set("i we me us")
TO_COME = word_set("to should shall must will ll can could would going gonna")
_SEQUENCE = word_set("and then also plus next finally afterwards so but or")
# The prepositions a question word may follow to open a question: the plain ones and those
# of a time's end ("Till what date are prod deploys frozen?", "Until when is the freeze
# on?"), which only ask when a span ends, never till or stop anything.
_ASKING_PREPOSITIONS = PREPOSITIONS | word_set("till until")
# Verbs that open an embedded question the asker wants answered ("tell me which…",
# "estimate how much…", "check whether…").
_OPENS_QUESTION = READ_VERBS | word_set("tell remind show know wonder idea estimate guess say see")
# What joins a reading verb to the question it reads ("look at what was released").
_READ_PARTICLES = word_set("at into over through")
# What is asked of a secret when it is not the secret itself ("the token's expiry date").
_PROPERTIES = word_set(
    """date day time expiry expiration expire expires age old long many much often size
    length version type format count number ttl lifetime rotation schedule status issuer
    algorithm owner when"""
) | word_set(
    # where the thing holding it runs, and what it is made of: never the secret's value
    """port host hostname server endpoint route path directory folder region zone revision
    release tag commit timeout latency duration"""
)


def info_scope(shape: Shape, i: int) -> bool:
    return _info_opening(shape, i) is not None


def _info_opening(shape: Shape, i: int) -> int | None:
    """Is word ``i`` inside a request for information — a wh-question that opens its
    sentence or follows a reading verb ("how long did the prod migration take?", "tell me
    which tables it drops") — that does not ask about the asker's own act ("which branch
    should I push?")? Its question word's index, or None. A colon, a semicolon or a dash
    ends the request."""
    words = shape.words
    sentence = shape.sentences[words[i].sentence]
    if _names_a_value(shape, words[i].sentence, i):
        return sentence.start
    for j in range(i - 1, sentence.start - 1, -1):
        if _HARD_BOUNDARY.search(shape.gap(j + 1)) or (
            words[j].text in _SEQUENCE and words[j + 1].clause_start
        ):
            return None  # "which branch, then force-push it": a step of its own
        if _told_a_value(shape, j):
            return _opened(shape, j, i)  # "tell me the commit id the prod engine is built from"
        if words[j].text not in WH:
            continue
        k = j - 1
        while k >= sentence.start and words[k].text in FILLERS | _HEDGES:
            k -= 1
        if k >= sentence.start and words[k].text in _ASKING_PREPOSITIONS and words[k].clause_start:
            k -= 1  # "On which port is it served?", "-- at what time did it stop?"
        elif (
            k > sentence.start
            and words[k].text in _READ_PARTICLES
            and words[k - 1].lemma in READ_VERBS
            and not words[k].clause_start
        ):
            k -= 1  # "look at what was released last week": what is read

        opens = (
            # a question word opening a sentence that asks nothing is a clause the sentence
            # states ("Which rows it deletes is logged. Shall I proceed?"): no request
            (k < sentence.start and sentence.asks)
            or words[k].lemma in _OPENS_QUESTION
            or words[k].text in ASKER
            or (words[k + 1].clause_start and _fronted(shape, k + 1))
            or _asked_after_topic(shape, k + 1)
        )
        if not opens:
            continue
        return _opened(shape, j, i)
    return _condition_of_a_request(shape, i)


def _asked_after_topic(shape: Shape, k: int) -> bool:
    """Does word ``k`` open, after a colon, a semicolon or a dash, the clause that ends its
    asking sentence ("the november renewals — how many got pushed to exceptions?"): a topic,
    then the question, read as the question alone? Not a statement ("Note — which rows it
    deletes is logged."), nor a clause another dash ends ("what gets purged can't come back
    — okay to go on?")."""
    sentence = shape.sentences[shape.words[k].sentence]
    return (
        sentence.asks
        and bool(_HARD_BOUNDARY.search(shape.gap(k)))
        and not any(_HARD_BOUNDARY.search(shape.gap(m)) for m in range(k + 1, sentence.end))
    )


def _opened(shape: Shape, j: int, i: int) -> int | None:
    """The request opened at ``j`` around the act at ``i``: ``j``, unless the words between
    them make the act the asker's to come ("which branch should I push?")."""
    words = shape.words
    between = {
        w.text
        for k, w in enumerate(words[j + 1 : i], start=j + 1)
        if not (w.text == "us" and words[k - 1].text in DETERMINERS)  # "the US cluster"
        and not (w.text == "to" and not _infinitive(shape, k))  # "the deploy to prod"
    }
    if (
        between & ASKER
        and between & COPULAS
        and not between & (TO_COME | {"you"})
        and named_after_preposition(shape, i)
    ):
        return j  # "what date are we aiming at for the go-live?": a thing named, not done
    if between & (ASKER | TO_COME) or ("you" in between and "me" in between):
        if _asked_of_the_past(shape, j, i, between) or _event_of_its_own(shape, j, i):
            return j  # "which version did we roll back to?": what was done, asked
        return None  # the asker's act, or one still to be done: asked for, not about
    return j


# Verbs that ask to be told a thing, said to the asker ("tell me …", "remind us …"), and
# those that may hand one over ("give me …", "send me …"), which ask a value only when the
# thing is one no one is granted ("give me the channel" may ask to be let in).
_TELLS = word_set("tell remind")
_HANDS = word_set("give send show")
_GRANTED = word_set("branch channel folder directory dir region zone location setting owner")
# What ends a value's noun phrase after "tell me": a relative clause, a preposition, a comma.
_PHRASE_ENDS = DETERMINERS | PREPOSITIONS | SUBJECTS | WH | word_set("that")


def _told_a_value(shape: Shape, j: int) -> bool:
    """Is word ``j`` the asker told a value — "me"/"us" after a verb that tells ("tell me",
    "remind us", "give me") or "know" after "let me" — whose object is a value's noun
    phrase ("tell me the commit id the prod engine is built from", "let me know the hostname
    of the prod replica")? The asker is the audience; a relative clause after the value
    only says which one. Never a thing handed over ("give me the prod db password", "give
    me access to prod").
    """
    words = shape.words
    w = words[j]
    if j < 1 or words[j - 1].sentence != w.sentence:
        return False
    if w.text in ASKER - {"i", "we"}:
        verbs = _TELLS | _HANDS
    elif w.text == "know" and j >= 2 and words[j - 1].text in ASKER and words[j - 2].lemma == "let":
        verbs = word_set("let")
        j -= 1  # "let me know": the asker told, as "tell me"
    else:
        return False
    verb = words[j - 1]
    if verb.lemma not in verbs or verb.ident or (j + 1 < len(words) and words[j + 1].clause_start):
        return False
    start = j + (2 if w.text == "know" else 1)
    while start < len(words) and words[start].text in DETERMINERS:
        start += 1
    end = start
    while (
        end < len(words)
        and end - start < 4
        and words[end].sentence == w.sentence
        and words[end].text not in _PHRASE_ENDS
        and (end == start or not words[end].clause_start)
    ):
        end += 1
    if end == start or words[end - 1].ident:
        return False
    head = words[end - 1]
    if verb.lemma in _HANDS and (head.lemma in _GRANTED or head.text in _GRANTED):
        return False
    return _asked_noun(head)


# The auxiliaries of a question about what was done ("which branch did we delete?").
_PAST_AUX = word_set("did was were")


def _asked_of_the_past(shape: Shape, j: int, i: int, between: set[str]) -> bool:
    """Does the question word at ``j`` ask about the act at ``i`` as done — a past auxiliary
    between them ("which version did we roll back to last week?", "when did we last deploy
    to prod?") and nothing still to come ("which branch did you want me to delete?", "what
    was I supposed to drop?")? Whoever did it, asking what was done does nothing."""
    if between & (TO_COME | {"d"}) or ("you" in between and between & {"me", "us"}):
        return False  # "what date did you give us for the cutover?", "… we'd force-push"
    if _said_to_come(shape, i):
        return False  # "which branch did we say we force-push tonight?"
    return any(w.text in _PAST_AUX for w in shape.words[j + 1 : i])


# Times still to come: an act said with one is planned, whatever tense asks about it.
_LATER = word_set("tonight tomorrow now next later soon upcoming")


def _said_to_come(shape: Shape, i: int) -> bool:
    """Does the sentence of the act at ``i`` say a time still to come ("… tonight", "…
    tomorrow")?"""
    return any(w.text in _LATER for w in shape.sentence_words(shape.words[i].sentence))


# What opens a clause telling when something happens ("… before they are purged").
_TIME_CLAUSES = word_set("before after until till once whenever")


def _event_of_its_own(shape: Shape, j: int, i: int) -> bool:
    """Is the act at ``i`` told in a time clause with a subject of its own, not the asker
    ("how long do we retain the records before they are purged?"), in a question whose words
    before it say nothing still to come ("how long should I wait before they are dropped?"
    stays the asker's)? What happens to a thing by its own course is asked about."""
    words = shape.words
    k = next(
        (
            k
            for k in range(i, j, -1)
            if words[k].clause_start and words[k].sentence == words[i].sentence
        ),
        None,
    )
    if k is None or k - 1 <= j or words[k - 1].text not in _TIME_CLAUSES:
        return False
    told = {w.text for w in words[k:i]}
    asked = {w.text for w in words[j + 1 : k - 1]}
    return (
        words[k].text not in ASKER | {"you"}
        and not told & (ASKER | TO_COME | {"you"})
        and not asked & TO_COME
        and not _said_to_come(shape, i)
    )


_CONDITIONS = word_set("if suppose supposing")
# What the main clause of a question about a condition may say of what would follow.
_WOULD = word_set("would could might")


def _condition_of_a_request(shape: Shape, i: int) -> int | None:
    """Is the act at ``i`` in a condition that opens its sentence, whose main clause, after
    a comma, is a question word asking what would follow ("if we had to roll the matchmaker
    back, which version would we end up on?")? The question word's index, or None. A main
    clause with a step still to come ("…, which one should I drop?") is the asker's."""
    words = shape.words
    sentence = shape.sentences[words[i].sentence]
    if not sentence.asks or words[sentence.start].text not in _CONDITIONS:
        return None
    for k in range(i + 1, sentence.end):
        if not words[k].clause_start or "," not in shape.gap(k):
            continue
        main = {w.text for w in words[k : sentence.end]}
        if words[k].text not in WH or main & (TO_COME - _WOULD) or _said_to_come(shape, i):
            return None  # "if we purge the rows tonight, …": a plan, not a supposition
        return k
    return None


# Words that hedge a request without changing it ("roughly how many rows…").
_HEDGES = word_set("roughly approximately approx about exactly currently current latest")
# A value's names: a phrase headed by one asks to be told that value.
VALUE_HEADS = word_set(
    """value values name names id ids number count total port host hostname ip address url
    link links path endpoint route version tag sha hash commit revision time timeout ttl
    date deadline cutoff eta duration latency limit size threshold email channel owner
    contact region zone location directory folder dir branch figure setting"""
)
# What else a bare phrase may ask to be told ("Replica lag in prod?", "Rows in the table?").
# Things, not measures, that a bare noun phrase may ask about ("Rows in the orders table?"
# asks how many): after an act's verb, they are what the act is done to.
_ASKED_THINGS = word_set("row rows")
_ASKED_NOUNS = VALUE_HEADS | _ASKED_THINGS | word_set("lag status state percentage")
_NOUN_LINKS = word_set("and or")
_DIRECTIONS = word_set("to into onto with")


def _names_a_value(shape: Shape, n: int, i: int) -> bool:
    """Is sentence ``n`` a request for a value said as a bare noun phrase ("Host and port for
    the Geodis invoice SFTP?", "Replica lag in prod?", "ICS2 go-live date?") with word ``i``
    in it? The phrase's head is a value's name and a preposition, "and" or the end follows
    it — never a determiner: "Port the billing service to production?" is a verb and its
    object. No clause follows: a step joined after it is a step of its own."""
    sentence = shape.sentences[n]
    if not sentence.asks:
        return False
    words = shape.sentence_words(n)
    rest = [w for w in words if w.text not in FILLERS | _HEDGES]
    k = 0
    while k < len(rest) and k < 4 and rest[k].text not in PREPOSITIONS | _NOUN_LINKS:
        if rest[k].text in DETERMINERS | WH | COPULAS | SUBJECTS:
            return False
        k += 1
    if k == 0 or not _asked_noun(rest[k - 1]):
        return False  # the phrase's head, its last word before "for", "in", "and"…
    if k > 1 and rest[1].code and (rest[0].lemma in VERB_LIKE or rest[0].lemma in ACTS_BY_FIRST):
        return False  # "Set `matchmaking_timeout` to 5s?": a verb and the name it sets
    if k > 1 and rest[k - 1].lemma in _ASKED_THINGS and _bare_act_verb(rest[0]):
        return False  # "Delete rows in the orders table?": a verb and the rows it deletes
    linked = None
    if k < len(rest) and rest[k].text in _NOUN_LINKS:
        # "Host and port for …": one phrase; "Host for X and port the service": a step
        if not (k + 1 < len(rest) and _asked_noun(rest[k + 1])):
            return False
        if k + 2 < len(rest) and rest[k + 2].text not in PREPOSITIONS:
            return False
        linked = rest[k + 1].index
        k += 2
    if k < len(rest) and rest[k].text in _DIRECTIONS and (k == 1 or linked is not None):
        return False  # "Port to prod?", "Commit to the NDA?": a bare verb and where it goes
    return not any(
        w.clause_start and rest[0].index < w.index <= i and w.index != linked for w in rest
    )


def names_a_value(shape: Shape) -> bool:
    """Is the asking sentence a request for a value said as a bare noun phrase ("Go-live
    date for ICS2?")? It asks to be told a value, never leave to go on."""
    if not shape.asking:
        return False
    n = shape.sentences.index(shape.asking[-1])
    return _names_a_value(shape, n, shape.sentences[n].end - 1)


def _bare_act_verb(w: Word) -> bool:
    """Is ``w`` an act's verb in its bare form ("delete", "purge"), not a participle that
    says which ones ("Deleted rows in prod last night?" asks how many)?"""
    return w.text == w.lemma and any(not a.noun for a in ACTS_BY_FIRST.get(w.lemma, ()))


def _asked_noun(w: Word) -> bool:
    return any(x in _ASKED_NOUNS or x in _PROPERTY_NOUNS for x in (w.lemma, w.text))


# A thing's properties named as nouns: "refresh token lifetime?" asks the lifetime.
_PROPERTY_NOUNS = word_set("expiry expiration lifetime age length format issuer algorithm")


_HOW_VALUE = word_set("long many much often big large fast slow old soon far")


def _asks_a_value(shape: Shape, n: int) -> bool:
    """Is sentence ``n`` a request to be told a value: a question word first ("when is…",
    "who approves…", "how long…"), or "which/what <noun>" ending it ("the newsletter goes
    out on which day?")?"""
    if not shape.sentences[n].asks:
        return False
    words = shape.sentence_words(n)
    for k, w in enumerate(words):
        if not w.clause_start or (
            k > 0 and not _HARD_BOUNDARY.search(shape.gap(w.index)) and not _fronted(shape, w.index)
        ):
            continue  # a clause opened by the sentence or a colon or a dash, not "and"
        rest = [x for x in words[k:] if x.text not in FILLERS]
        if len(rest) > 1 and rest[0].text in _ASKING_PREPOSITIONS and rest[1].text in WH:
            rest = rest[1:]  # "At what time…", "Under which name…"
        if not rest:
            continue
        if rest[0].text == "how":
            if len(rest) > 1 and rest[1].text in _HOW_VALUE:
                return True
        elif rest[0].text in WH:
            return True
    tail = [w.text for w in words[-3:]]
    return len(tail) == 3 and tail[1] in ("which", "what") and tail[0] in PREPOSITIONS


def _fronted(shape: Shape, i: int) -> bool:
    """Does the question word at ``i`` open the main clause after a comma that ends a fronted
    adverbial ("After the last migration, which revision is head?"),
    not follow a noun as a relative ("After the migration, which took 3 min, …")?"""
    words = shape.words
    sentence = shape.sentences[words[i].sentence]
    if words[i].text not in WH or i - sentence.start < 2 or "," not in shape.gap(i):
        return False
    if words[sentence.start].text not in FRONTING:
        return False
    after = words[i + 1] if i + 1 < sentence.end else None
    return (
        after is not None
        and after.text not in AUXILIARIES
        and not (after.text.endswith("ed") and after.lemma != after.text)
        and after.text not in IRREGULAR_PAST
    )


def topic_of_request(shape: Shape, i: int) -> bool:
    """Is the act named by the noun at ``i`` what a request for a value is about — in a
    question asking to be told a value, the noun is the subject of its clause or governed
    by no act ("The DNS in the lab is flaky — what's the IP of the broker?", "who approves
    the deployments?"), never the object of a step the asker is to take ("which day should
    I run the payment batch?")? A request for a value does no act."""
    if not any(_asks_a_value(shape, n) for n in range(len(shape.sentences))):
        return False
    if _step_on_it(shape):
        return False  # "who approves the refund? approve it for me": the act is asked for
    words = shape.words
    for j in range(i - 1, -1, -1):
        w = words[j]
        if w.sentence != words[i].sentence or words[j + 1].clause_start:
            return True
        if w.text in WH:
            return not _askers_act(shape, j, i)
        if w.text in COPULAS:
            return True
        if w.ident or not verb_position(shape, j) or _topic_verb(shape, j):
            continue  # "which server do we use for mail?": the request's own verb
        if w.lemma in EXEC_VERBS | PROCEED_VERBS | EDIT_VERBS:
            return False  # "…should I run the payment batch?": a step on the act
        acts = ACTS_BY_FIRST.get(w.lemma, ())
        if any(not a.noun and context_holds(shape, j, len(a.lemmas), a, False) for a in acts):
            return False
    return True


ANAPHORS = word_set("it them this that these those")


def _step_on_it(shape: Shape) -> bool:
    """Does a clause ask for a step on what was named before — a verb standing as one,
    with "it" or "them" for its object ("I'll send it then", "approve it", "and release
    it") or going on ("then go ahead", "proceed with it")? Then a noun's act is not only
    asked about."""
    words = shape.words
    for w in words:
        if w.text in WH or not verb_position(shape, w.index):
            continue
        if clause_words(shape, w.index) & WH:
            continue  # "when should the newsletter go out?": the request's own verb
        verb = w.lemma in VERB_LIKE or any(not a.noun for a in ACTS_BY_FIRST.get(w.lemma, ()))
        if not verb or w.lemma in READ_VERBS:
            continue
        if w.lemma in PROCEED_VERBS:
            return True
        after = words[w.index + 1 : w.index + 4]
        if any(x.text in ANAPHORS and x.sentence == w.sentence for x in after):
            return True
    return False


def _askers_act(shape: Shape, j: int, i: int) -> bool:
    """Between the question word at ``j`` and the noun at ``i``, is the act the asker's to
    come ("which date should we pick for the cutover?") or one done to the asker ("what
    date did you give us for the cutover?")?"""
    between = {
        w.text
        for k, w in enumerate(shape.words[j + 1 : i], start=j + 1)
        if w.text != "to" or _infinitive(shape, k)
    }
    return bool(between & TO_COME) or ("you" in between and bool(between & {"me", "us"}))


def _topic_verb(shape: Shape, j: int) -> bool:
    """Is the verb at ``j`` what a question word asks about ("who approves the
    deployments?", "which server do we use?", "when does the purge job run?"): in the
    request's own clause, with no step to come before it ("which day should I…")?"""
    words = shape.words
    for k in range(j - 1, -1, -1):
        if words[k].sentence != words[j].sentence or words[k + 1].clause_start:
            return False
        if words[k].text in TO_COME:
            return False
        if words[k].text in WH:
            return True
    return False


def _infinitive(shape: Shape, k: int) -> bool:
    """Is the "to" at ``k`` before a verb ("which branch to push"), not a preposition
    ("when was the last deploy to production?")?"""
    words = shape.words
    if k + 1 >= len(words) or words[k + 1].clause_start:
        return True  # "…to?": what it goes to is asked, keep it the asker's
    after = words[k + 1]
    if after.text in DETERMINERS or after.text in PROD_WORDS or after.text in NON_PROD:
        return False
    return after.lemma in VERB_LIKE or any(not a.noun for a in ACTS_BY_FIRST.get(after.lemma, ()))


def asks_property(shape: Shape, i: int) -> bool:
    """Does the request ask something of the secret at ``i`` that is not the secret
    ("when does the cert expire?", "how old is the deploy key?")?"""
    opening = _info_opening(shape, i)
    if opening is None:
        return False
    asked = [*shape.words[opening:i], *_phrase_after(shape, i)]
    return any(w.lemma in _PROPERTIES or w.text in _PROPERTIES for w in asked)


def manner_opening(shape: Shape, i: int) -> int | None:
    """The bare "how" that opens the request around the secret at ``i`` — how the thing
    works, is loaded or rotates ("explain how secrets are loaded"), a process, never a
    value ("how long", "how old" ask a property, read by ``asks_property``) — or None."""
    opening = _info_opening(shape, i)
    if opening is None or shape.words[opening].text != "how":
        return None
    return None if shape.words[opening + 1].lemma in _PROPERTIES | _DEGREES else opening


# What makes "how" ask an amount or a degree, not a manner ("how big", "how soon").
_DEGREES = word_set("big large small far soon fast slow strong weak short")


def _phrase_after(shape: Shape, i: int) -> list[Word]:
    """The rest of the noun phrase the word at ``i`` stands in ("the token's expiry date",
    "refresh token lifetime"): up to three words to the next clause, comma or preposition."""
    words = shape.words
    phrase: list[Word] = []
    for w in words[i + 1 : i + 4]:
        if w.sentence != words[i].sentence or w.clause_start or w.text in PREPOSITIONS:
            break
        if set(shape.gap(w.index)) - {" ", "'"}:
            break
        phrase.append(w)
    return phrase


# How a person is reached: what a request for one asks to be told.
_CONTACT_DETAILS = word_set(
    "address email mail number phone mobile extension handle contact alias mailbox"
)
# Whom a message goes to when the verb's object is the person, not a thing sent.
_PERSONS = word_set(
    """person people colleague colleagues team owner lead manager engineer admin oncall
    on-call desk someone somebody him her them"""
)
_POSSESSIVES = word_set("their her his your its s")
# What a message is about, when the verb has no object of its own ("email about the order").
_ABOUT = word_set("about regarding re concerning")
# Where the recipient asked by "who" is ("who should I email at Agrivista?", "… for billing").
_WHOM_AT = word_set("at for on in")
_MAIL_VERBS = word_set("email e-mail mail")


def contact_asked(shape: Shape, i: int, *, noun: bool) -> bool:
    """Is the message act at ``i`` only what a contact detail is asked for — the asker's own
    message to a person, to come, in a question that asks how to reach them ("I must mail
    the plant IT on-call person this week — what address?", "Who do I email about the
    order? need her address"), or a person's address named by the act's noun ("what's their
    email?")? Telling the asker an address sends nothing. Never a thing sent ("email the
    report to …", "mail the invoices"), customers, the public, an outside party or
    production anywhere in the question."""
    words = shape.words
    said = {w.lemma for w in words} | {w.text for w in words}
    if said & (AUDIENCE | PROD_WORDS):
        return False
    if not shape.asking:
        return False
    if noun:
        # "what's their email?", "her email address": an address, no message
        before = words[i - 1].text if i else ""
        after = words[i + 1].lemma if i + 1 < len(words) else ""
        return before in _POSSESSIVES or after == "address"
    start = i
    while start > 0 and not words[start].clause_start:
        start -= 1
    ahead = {w.text for w in words[start:i]}
    if not ahead & ASKER:
        return False  # "Mail the on-call person — what address?": asked of the concierge
    rest = [w for w in words[i + 1 :] if w.sentence == words[i].sentence]
    if any(w.text == "to" for w in rest):
        return False  # "who do I email the incident notes to?": a thing sent
    if ahead & {"who", "whom"}:
        # "Who should I email at Agrivista about tasking? need the address": the recipient's
        # address asked, nothing sent; never a thing in the verb's object ("who do I email
        # the minutes?"), nor a message but by e-mail ("who should I call?")
        return (
            words[i].lemma in _MAIL_VERBS
            and (not rest or rest[0].text in _ABOUT | _WHOM_AT)
            and any(
                w.lemma in _CONTACT_DETAILS or w.text in _CONTACT_DETAILS for w in words[i + 1 :]
            )
        )
    end = object_end(shape, i + 1)
    # a thing in the object is sent; a word glued by a hyphen is a name's part ("on-call")
    things = {
        w.lemma for w in words[i + 1 : end] if not (w.index > 0 and words[w.index - 1].dash_next)
    }
    if rest and rest[0].text in _ABOUT:
        pass  # "email about the sample order": what it is about, nothing sent
    elif things & (DOC_HEADS | DATA_OBJECT | ARTIFACTS) or not _a_person_only(shape, i + 1, end):
        return False
    asked = [w for w in words if not i <= w.index < end]
    return any(w.lemma in _CONTACT_DETAILS or w.text in _CONTACT_DETAILS for w in asked)


# What a time phrase after the person is headed by ("… this week", "… next Monday").
_TIME_NOUNS = word_set(
    """week month day morning afternoon evening night weekend year quarter shift monday
    tuesday wednesday thursday friday saturday sunday"""
)


def _a_person_only(shape: Shape, start: int, end: int) -> bool:
    """Is the object from ``start`` to ``end`` one person — its head, before a preposition,
    a person's word — with nothing after it but a time ("the plant IT on-call person this
    week"), never a second object, the thing sent ("the team the payroll export")?"""
    words = shape.words
    k = start
    while k < end and (words[k].text not in PREPOSITIONS or words[k].dash_next):
        if k > start and words[k].text in DETERMINERS and not words[k - 1].dash_next:
            break  # a second object ("the team the export") or a time ("… this week")
        k += 1
    if k == start or words[k - 1].lemma not in _PERSONS:
        return False
    if k < end and words[k].text in DETERMINERS:
        return all(
            w.text in DETERMINERS or w.lemma in _TIME_NOUNS or w.text in _TIME_NOUNS
            for w in words[k:end]
        )
    return True
