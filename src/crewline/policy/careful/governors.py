"""What governs an act's word: the verb or head before it within its clause (reading,
running, editing, a doc about it), whether an artifact is run or only read, and the act it
refers back to, so a risky word that a harmless act works on is no act."""

from __future__ import annotations

import re

from crewline.policy.acts import (
    AUDIENCE,
    WordAct,
    third_person,
)
from crewline.policy.careful.objects import (
    context_holds,
    noun_phrase,
    object_end,
    object_lemmas,
    phrase_of,
    verb_says,
)
from crewline.policy.careful.positions import (
    caused_by,
    clause_of,
    dry_run,
    head_after,
    hypothetical,
    noun_phrase_start,
    past_form,
    verb_position,
)
from crewline.policy.careful.requests import ANAPHORS, ASKER, TO_COME
from crewline.policy.careful.verdicts import Act
from crewline.policy.careful.words import (
    ACTS_BY_FIRST,
    ARTIFACTS,
    COPULAS,
    DETERMINERS,
    DOC_HEADS,
    EDIT_VERBS,
    EXEC_VERBS,
    INCLUDES,
    NEGATORS,
    PARTICLES,
    PAST_IRREGULAR,
    PREPOSITIONS,
    PROCEED_VERBS,
    PROD_DOC_HEADS,
    PRONOUNS,
    READ_VERBS,
    READING_COMMANDS,
    RUN_UNITS,
    SUBJECTS,
    TIME_WORDS,
    VERB_LIKE,
    WH,
)
from crewline.policy.clauses import Shape, Word
from crewline.policy.wording import (
    word_set,
)


def executed(shape: Shape, head: int) -> bool:
    """Is the artifact at ``head`` run ("run the cleanup script"), rather than read or
    edited ("lint the deploy script")?"""
    words = shape.words
    for j in range(head - 1, -1, -1):
        w = words[j]
        if w.sentence != words[head].sentence or words[j + 1].clause_start:
            return False
        if dry_run(shape, j):
            return False
        if (w.lemma in READ_VERBS or w.lemma in DOC_HEADS) and not _modifies_the_same_name(
            shape, j, head
        ):
            return False  # "lint the deploy script", not "run the log purge job"
        if _checker(shape, j):
            return False  # "run `actionlint` on the deploy workflow": the checker is run
        if w.lemma in _CAUSATIVES and _runs_next(shape, head):
            return True  # "let the cleanup job run tonight": it is run
        if w.lemma in EDIT_VERBS and not _goes_on(shape, j):
            return False  # "move the deploy helper into utils": the code is edited
        if (
            w.lemma in EXEC_VERBS | PROCEED_VERBS
            and not w.clause_start
            and any(x.text in DETERMINERS for x in words[max(0, j - 2) : j])
        ):
            continue  # "the unused import from the cleanup module": a thing, not running it
        if w.lemma in EXEC_VERBS or w.lemma in PROCEED_VERBS:
            return True
        if w.lemma in INCLUDES and words[head].lemma in RUN_UNITS:
            return True  # "`make all` includes the deploy target": running it runs that
        if w.lemma in EDIT_VERBS:
            return False
        if w.clause_start:
            return False
    return False


# Verbs that have their object do what follows it ("let the purge job run").
_CAUSATIVES = word_set("let allow have")


def _runs_next(shape: Shape, head: int) -> bool:
    """Does a running or going-on verb follow the artifact at ``head`` in its sentence ("let
    the cleanup job *run*", "allow the purge job to *proceed*")?"""
    words = shape.words
    k = head + 1
    if k < len(words) and words[k].text == "to":
        k += 1
    return (
        k < len(words)
        and words[k].sentence == words[head].sentence
        and (words[k].lemma in EXEC_VERBS or words[k].lemma in PROCEED_VERBS)
        and not dry_run(shape, k)
    )


# A tool named for checking ("actionlint", "shellcheck", "yamllint", "go vet").
_CHECKER_NAME = re.compile(r"lint|check|vet$|fmt$|validat|verif|audit|scan")
_CHECKED = word_set("on against over across")


def _checker(shape: Shape, j: int) -> bool:
    """Is word ``j`` a checker named in code that is run on what follows it ("run
    `actionlint` on the workflow files", "`sqlfluff lint` over the migrations")? What it
    runs on is read, not run."""
    words = shape.words
    w = words[j]
    return (
        w.code
        and j + 1 < len(words)
        and words[j + 1].text in _CHECKED
        and not words[j + 1].code
        and any(_CHECKER_NAME.search(x.text) for x in words[max(0, j - 2) : j + 1] if x.code)
    )


_ONWARD = word_set("on ahead forward along with onto")
_WHEN_WORDS = TIME_WORDS | word_set(
    """am pm morning evening night noon midnight weekend monday tuesday wednesday thursday
    friday saturday sunday earlier later week"""
)


def _goes_on(shape: Shape, j: int) -> bool:
    """Is the verb at ``j`` one of going on ("move on to the deploy job") or of moving in
    time ("move the deploy job to tonight": it then runs), not an edit of what follows
    ("move the deploy helper into utils")?"""
    words = shape.words
    if words[j].lemma not in PROCEED_VERBS:
        return False
    if any(w.text in _WHEN_WORDS or any(c.isdigit() for c in w.text) for w in clause_of(shape, j)):
        return True
    return j + 1 < len(words) and words[j + 1].text in _ONWARD and not words[j + 1].clause_start


_ASIDE_NEGATORS = word_set("not don dont never no without")


def negated_aside(shape: Shape, i: int) -> tuple[int, int] | None:
    """The words of a bracketed aside that negates an alternative right before word ``i``'s
    clause ("draft (not send) the email", "prepare (don't pay) the invoices"), or that only
    narrows the verb to reading ("read (only read) the log"): its first word's index and one
    past its last, or None. An aside that does something ("(and
    send)", "(then pay)") is a clause of its own, as before."""
    words = shape.words
    k = i
    while k > 0 and not words[k].clause_start:
        k -= 1
    if k == 0 or ")" not in shape.gap(k):
        return None
    a = k - 1
    while a > 0 and "(" not in shape.gap(a):
        if words[a].sentence != words[k].sentence:
            return None
        a -= 1
    if "(" not in shape.gap(a) or a == 0:
        return None
    lead = [w for w in words[a:k] if w.text not in _RESTRICTORS]
    if lead and lead[0].text in _ASIDE_NEGATORS:
        return a, k
    if lead and len(lead) < k - a and all(w.lemma in READ_VERBS for w in lead):
        return a, k  # "read (only read) the log": it narrows the verb to reading, does nothing
    if (
        len(lead) == len(words[a:k]) <= 2
        and all(w.text in READING_COMMANDS for w in lead)
        and a > 0
        and words[a - 1].lemma in READ_VERBS
    ):
        return a, k  # "list (ls) the folder": the reading verb's own command, nothing more
    return None


_RESTRICTORS = word_set("but just only merely simply")


def _names_whose_secret(shape: Shape, j: int, i: int) -> bool:
    """Is the artifact word at ``j`` a modifier of the secret at ``i`` ("the service
    password", "the service account credentials"): the system the secret opens, in the
    secret's own noun phrase — never a thing that handles secrets, which stands apart
    ("the service rotates the password")?"""
    words = shape.words
    if not any(a.family == "credentials" and a.noun for a in ACTS_BY_FIRST.get(words[i].lemma, ())):
        return False
    return all(
        not words[k].clause_start
        and words[k].text not in DETERMINERS | PREPOSITIONS
        and (k == i or words[k].lemma not in VERB_LIKE)
        for k in range(j + 1, i + 1)
    )


def governor_of(shape: Shape, i: int, *, read_only: bool = False) -> str | None:
    """What governs word ``i`` from its left, within its clause: ``read`` (a reading verb, a
    doc head, an artifact nobody runs: it is only a mention), ``act`` (a verb that does
    something) or None (nothing: the clause starts with it)."""
    words = shape.words
    aside = negated_aside(shape, i)
    # a bare verb after a causative's object is governed by the causative, never by its
    # object ("make the red warning go live": the warning is what goes live, not a doc)
    caused = caused_by(shape, i)
    for j in range(i - 1 if caused is None else caused, -1, -1):
        w = words[j]
        if aside is not None and aside[0] <= j < aside[1]:
            continue  # "draft (not send) the email": the verb reads on past its aside
        if w.sentence != words[i].sentence or (
            words[j + 1].clause_start and (aside is None or j + 1 not in aside)
        ):
            return None
        if w.text in COPULAS:
            return None  # "the next command is `DROP DATABASE app`": it is the thing itself
        if w.text in WH and written_about(shape, j, i) and not done_after(shape, i):
            return "read"  # "write up the differences between how we deploy and …"
        if not read_only:
            if w.lemma in _ACTORS and _does_itself(shape, j, i):
                return None  # "the bot notifies every customer": what the member does next
            if dry_run(shape, j) or (w.lemma in DOC_HEADS and not _names_a_run(shape, j, i)):
                return "read"
            if w.lemma in ARTIFACTS and not w.ident and not executed(shape, j):
                if _names_whose_secret(shape, j, i):
                    continue  # "DM me the service password": whose secret, not what reads it
                if _does_itself(shape, j, i):
                    return None  # "the job will purge all users": what it does, asked to go on
                return "read"
            if w.lemma in _SKIPS and verb_position(shape, j):
                return "read"  # "I'll skip the step that emails the customers": not done
        elif w.lemma in PROD_DOC_HEADS:
            return "read"
        if (
            w.lemma in READ_VERBS
            and not w.ident
            and not _named_by_determiner(shape, j)
            and not _handed_to_asker(shape, j)
        ):
            if _modifies_the_same_name(shape, j, i):
                continue  # "run the print queue purge job": a purge job, named by its queue
            return "read"
        if _participle(shape, j):
            continue  # "the Dockerfile used for prod builds": a thing described, not an act
        if (
            w.lemma in EXEC_VERBS | PROCEED_VERBS
            and not w.ident
            and (w.lemma not in EDIT_VERBS or _goes_on(shape, j))
        ):
            return "act"
        if w.lemma in EDIT_VERBS and not w.ident:
            return "edit"
        if (
            w.lemma in ACTS_BY_FIRST
            and not w.ident
            and verb_position(shape, j)
            and (read_only or not _governed_read(shape, j))
        ):
            return "act"
        if w.clause_start and (aside is None or j != aside[1]):
            wh = j - 1
            if wh >= 0 and words[wh].text in WH and written_about(shape, wh, i):
                # "a comment that explains when | we publish alerts": the clause a question
                # word opens is what is explained, though the word starts a clause of its own
                return None if done_after(shape, i) else "read"
            return None
    return None


def _modifies_the_same_name(shape: Shape, j: int, i: int) -> bool:
    """Is the reading word at ``j`` only a modifier in the noun phrase that word ``i`` is in
    ("the print queue purge job", "our test purge script", "the audit log wipe"): after a
    determiner, with nothing but more of the phrase's words up to ``i``? Then it names which
    thing the act is, and reads nothing; the phrase's verb, further left, governs. A reading
    word whose phrase ends before the act ("the test suite *for* the purge job", "the tests
    *of* the wipe endpoint") still reads it."""
    words = shape.words
    if words[j].clause_start or not _after_determiner(shape, j):
        return False
    return all(
        not w.clause_start and w.text not in PREPOSITIONS and w.text not in DETERMINERS
        for w in words[j + 1 : i + 1]
    )


def _after_determiner(shape: Shape, j: int) -> bool:
    """Does a determiner open the noun phrase word ``j`` is in, with at most two more of its
    words before ``j`` ("the print queue …", "the berth log …")?"""
    words = shape.words
    for k in range(j - 1, max(-1, j - 4), -1):
        if words[k].text in DETERMINERS:
            return True
        if words[k + 1].clause_start or words[k].text in PREPOSITIONS or verb_position(shape, k):
            return False
    return False


def _names_a_run(shape: Shape, j: int, i: int) -> bool:
    """Is the document word at ``j`` only the name of a job the act at ``i`` heads ("the log
    purge job", "our test cleanup task")? Then the job is what runs; "the README cleanup",
    with no job, stays a document's edit."""
    words = shape.words
    return (
        _modifies_the_same_name(shape, j, i)
        and i + 1 < len(words)
        and not words[i + 1].clause_start
        and words[i + 1].lemma in RUN_UNITS
    )


def _handed_to_asker(shape: Shape, j: int) -> bool:
    """Is the reading verb at ``j`` said to the asker or out loud ("read me the PIN", "show us
    the token", "read out the password")? Then what it reads is handed over — a disclosure,
    as "tell me" is — and no mere look at it."""
    words = shape.words
    return (
        j + 1 < len(words)
        and not words[j + 1].clause_start
        and words[j + 1].text in {"me", "us", "out", "aloud"}
    )


def _named_by_determiner(shape: Shape, j: int) -> bool:
    """Is the reading word at ``j`` a noun heading its phrase after a determiner, where it is
    said next ("the view in prod", "the list on the server"), which reads nothing? "A list
    of the branches" is a text of them, as before."""
    words = shape.words
    return (
        0 < j < len(words) - 1
        and words[j - 1].text in DETERMINERS
        and not words[j].clause_start
        and words[j + 1].text in _PLACED
        and not words[j + 1].clause_start
    )


# What says where a thing named is ("the view in prod"), not what it is of ("a list of …").
_PLACED = word_set("in on at inside within from")


# Members, not documents: what one of them does ("the bot notifies…") is its act.
_ACTORS = word_set("bot agent member")
_SKIPS = word_set("skip omit")


def _between_subject_and_verb(shape: Shape, x: Word) -> bool:
    """May word ``x`` stand between a thing and what it does: a link or an adverb ("will
    now", "automatically"), or a word of a phrase describing the thing ("the next task in
    the queue notifies…") — never a verb, a subject or a clause's start?"""
    if x.clause_start:
        return False
    if x.text in _LINKS or x.text.endswith("ly"):
        return True
    if x.text in SUBJECTS or x.text in ASKER:
        return False
    if x.text in PREPOSITIONS or x.text in DETERMINERS or x.text.isdigit():
        return True
    return not (x.lemma in VERB_LIKE or x.lemma in ACTS_BY_FIRST or x.lemma in _SKIPS)


def _does_itself(shape: Shape, j: int, i: int) -> bool:
    """Is the thing at ``j`` the subject of the act at ``i`` — nothing but links between
    them ("my script will now wire…"), not in a subordinate clause, and no verb before it in
    its clause, so that it is not the object of one ("the next stage of the pipeline
    emails…", not "lint the script that emails…")? Then the act is what the thing does."""
    words = shape.words
    between = words[j + 1 : i]
    if not all(_between_subject_and_verb(shape, x) for x in between) or _subordinate(shape, j):
        return False
    if not all(x.text in _LINKS or x.text.endswith("ly") for x in between) and not (
        verb_position(shape, i)
    ):
        return False  # "an email template for the password notice": no verb, no act
    k = j
    while k > 0 and not words[k].clause_start and words[k - 1].sentence == words[j].sentence:
        k -= 1
    return not any(
        (x.lemma in VERB_LIKE or x.lemma in _SKIPS or x.lemma in ACTS_BY_FIRST)
        and (
            verb_position(shape, x.index)
            or (x.dash_prev and verb_position(shape, x.index - 1))  # "type-check the …"
        )
        for x in words[k:j]
    )


def done_after(shape: Shape, i: int) -> bool:
    """Does a later clause run or go on with what was named ("summarize how the purge
    works and then run it?", "document how we deploy to prod, then do it?")? Then what was
    only read or written about is the act that step does."""
    return _step_after(shape, i) is not None


# Verbs that carry out a thing prepared before ("prepare the refund and issue it").
_CARRY_OUT = word_set("issue finalize finalise")
# ... and those that carry out only an act prepared in words, never a file or a name in code,
# which they commit to a branch ("I've staged the deletion of 400 records. Commit it?";
# "renamed variables in `lb_reset.py`. Commit it to my branch?" commits the file).
_CARRY_OUT_IN_WORDS = word_set("commit confirm")


def _step_after(shape: Shape, i: int) -> tuple[int, int] | None:
    """A later step that runs or goes on with what was named before it, by a pronoun ("…
    and then run it", "Kick it off?", "go ahead with it"): its verb's index and the
    pronoun's, or None."""
    words = shape.words
    for w in words[i + 1 :]:
        if not w.clause_start and not verb_position(shape, w.index):
            continue
        if w.lemma in READ_VERBS or w.ident:
            continue
        if w.lemma in _CARRY_OUT_IN_WORDS and (words[i].ident or words[i].code):
            continue  # "… `lb_reset.py`. Commit it?": the file committed, nothing run
        if w.lemma not in EXEC_VERBS | PROCEED_VERBS | _CARRY_OUT | _CARRY_OUT_IN_WORDS:
            continue  # an act's own verb ("then push it") is found as that act
        pronoun = _done_to_a_pronoun(shape, w.index)
        if pronoun is not None:
            return w.index, pronoun
    return None


def pronoun_step_after(shape: Shape, i: int) -> bool:
    """Does any later step but reading take a pronoun for its object ("explain how the key
    is stored and then rotate it")? Whatever its verb, the pronoun may be the thing named at
    ``i``; describing or summarising it only writes about it (a verb that shows it is the
    caller's to read)."""
    return any(
        w.lemma not in READ_VERBS
        and verb_position(shape, w.index)
        and _done_to_a_pronoun(shape, w.index) is not None
        for w in shape.words[i + 1 :]
    )


def changed_by_pronoun(shape: Shape, i: int) -> int | None:
    """The next step after the thing named at ``i`` when it changes that thing by a pronoun
    ("read the production config and edit it", "check the prod nginx config and restart
    it"): its verb's index, or None. The pronoun stands for the nearest noun phrase before
    it, so the step is the thing's only when no other verb (and its object) comes between
    but one that reads it by a pronoun too ("check it and then restart it");
    a step that reads ("… and summarise it") or makes a new thing from it ("… and write a
    note on it") changes nothing."""
    words = shape.words
    for w in words[max(i + 1, object_end(shape, i)) :]:  # after the thing's own phrase
        if w.ident or not verb_position(shape, w.index):
            continue
        if not (w.lemma in VERB_LIKE or w.lemma in ACTS_BY_FIRST):
            if _unknown_step_on_it(shape, w.index):
                return w.index  # "… and reconfigure it": a verb it does not know, fail closed
            continue
        if w.lemma in READ_VERBS and _its_pronoun(shape, w.index) is not None:
            continue  # "check it, then restart it": the same thing, read on the way
        if w.lemma in READ_VERBS | CREATE_VERBS | INCLUDES:
            return None  # the next verb reads or makes: a later pronoun is no longer its
        return w.index if _done_to_a_pronoun(shape, w.index) is not None else None
    return None


# What joins a step to the step before it ("… and reconfigure it", "…, then reseat it").
_STEP_JOINS = word_set("and then also")


def _unknown_step_on_it(shape: Shape, j: int) -> bool:
    """Is the word at ``j`` a clause's first, joined to a step before it, a verb the gate
    does not know, with a pronoun right after it for its object ("… and then reconfigure
    it"; not "…? need it for the notes", a new sentence)?"""
    words = shape.words
    w = words[j]
    return (
        w.clause_start
        and j > 0
        and words[j - 1].text in _STEP_JOINS  # a step joined to the one before it
        and words[j - 1].sentence == w.sentence
        and j + 1 < len(words)
        and words[j + 1].text in ANAPHORS
        and words[j + 1].sentence == w.sentence
        and not w.code
        and w.text not in SUBJECTS | DETERMINERS | COPULAS | PREPOSITIONS | WH | ASKER
        and not negated(shape, j)
        and not hypothetical(shape, j)
    )


def _done_to_a_pronoun(shape: Shape, j: int) -> int | None:
    """The pronoun the verb at ``j`` acts on, unless the verb is negated or hypothetical."""
    if negated(shape, j) or hypothetical(shape, j):
        return None
    return _its_pronoun(shape, j)


def _its_pronoun(shape: Shape, j: int) -> int | None:
    """The pronoun that is the object of the verb at ``j`` ("run it", "go ahead with it",
    "kick it off"), or None: none before the next verb ("what the job does, then run it":
    the pronoun is "run"'s), none of an auxiliary ("don't send it": "do" is none), and none
    given back to the asker ("send it to me for review")."""
    words = shape.words
    for x in words[j + 1 : j + 4]:
        if x.clause_start or x.sentence != words[j].sentence or x.text in ("t", "not"):
            return None
        if x.lemma in VERB_LIKE or (x.lemma in ACTS_BY_FIRST and verb_position(shape, x.index)):
            return None
        if x.text in ANAPHORS:
            after = words[x.index + 1 : x.index + 3]
            if len(after) == 2 and after[0].text == "to" and after[1].text in ASKER:
                return None
            return x.index
    return None


def _act_on_it_after(shape: Shape, i: int, named: WordAct) -> tuple[int, int] | None:
    """A later step by a verb of the same family as the thing named at ``i``, on a pronoun:
    "draft the announcement for customers and then send it" (an announcement is sent),
    "prepare the payment to the vendor and approve it" (a payment is approved). Its verb's
    index and the pronoun's, or None."""
    words = shape.words
    start, end = noun_phrase(shape, i, 1)
    referent = {w.lemma for w in words[start:end]}
    for w in words[i + 1 :]:
        if w.ident or not verb_position(shape, w.index):
            continue
        acts = [
            a
            for a in ACTS_BY_FIRST.get(w.lemma, ())
            if a.family == named.family and not a.noun and len(a.lemmas) == 1
        ]
        if not acts or not (
            named.needs is None or any(_holds_for(shape, w.index, a, referent) for a in acts)
        ):
            continue  # a tweet or a payment is its act wherever it goes; a call needs someone
        pronoun = _done_to_a_pronoun(shape, w.index)
        if pronoun is not None:
            return w.index, pronoun
    return None


def _holds_for(shape: Shape, j: int, act: WordAct, referent: set[str]) -> bool:
    """Does the act's word at ``j`` count with the thing a pronoun stands for as its object
    ("send it", it being "the announcement for customers": an audience; "ping them", them
    being the on-call: nobody outside)?"""
    if act.needs in ("audience", "verb_audience"):
        return bool(referent & AUDIENCE) or context_holds(shape, j, 1, act, False)
    return context_holds(shape, j, 1, act, False, obj=referent | object_lemmas(shape, j + 1))


def referred_back(shape: Shape, i: int, length: int, named: WordAct) -> Act | None:
    """The act a later step does to the thing the mention at ``i`` names: "summarize how
    the purge works and then run it?" runs the purge, "lint the deploy script, then run
    it" runs the deploy script, "draft the announcement for customers and then send it"
    sends the announcement. A step that only runs is not the thing's when the thing is a
    test, or what one is of ("run the tests for the delete-account endpoint, then rerun
    them"): the pronoun is theirs."""
    head = head_after(shape, i, length)
    step = _act_on_it_after(shape, i, named)
    if step is None:
        if (head is not None and shape.words[head].lemma in _RUN_DOCS) or _of_a_doc(shape, i):
            return None
        step = _step_after(shape, i)
    if step is None:
        return None
    start, end = noun_phrase(shape, i, length)
    if head is not None:
        end = max(end, head + 1)
    words = shape.words
    end = next(  # "explain the purge job to me, then start it": the job, not "to me"
        (
            k
            for k in range(i + length, end - 1)
            if words[k].text in PREPOSITIONS and words[k + 1].text in ASKER | PRONOUNS
        ),
        end,
    )
    verb, pronoun = words[step[0]], step[1]
    # the step's words around its pronoun: "goes ahead with", "kicks off"
    said = [third_person(verb.lemma), phrase_of(shape, verb.index + 1, pronoun)]
    if pronoun + 1 < len(words) and words[pronoun + 1].text in PARTICLES:
        said.append(words[pronoun + 1].text)
    return Act(
        family=named.family,
        says=" ".join(x for x in [*said, phrase_of(shape, start, end)] if x),
        verb=True,
        sentence=verb.sentence,
        at=verb.start,
        gloss=True,
    )


def carried_out(shape: Shape, i: int, length: int, named: WordAct) -> Act | None:
    """The act a later step inherits by a pronoun from the thing the described act at ``i``
    is done by: "explain how the job drops the partitions, then run it" runs the job, which
    drops the partitions; "describe how the sync emails every shipper, then trigger it"
    emails them. Reading, explaining, testing or commenting on it is no such step
    (``_step_after`` runs or goes on); the thing's act is said with it, never the step
    alone."""
    words = shape.words
    step = _step_after(shape, i)
    if step is None or (step[0] > 0 and words[step[0] - 1].text == "to"):
        return None  # "which files should I delete to get it under 50%?": a purpose, no step
    verb, pronoun = words[step[0]], step[1]
    # the pronoun said as the thing it stands for, when the act's subject names it
    start = noun_phrase_start(shape, i - 1) if i > 0 else i
    thing = phrase_of(shape, start, i) if start < i and _names_a_thing(shape, start, i) else ""
    said = [third_person(verb.lemma), phrase_of(shape, verb.index + 1, pronoun), thing or "it"]
    if pronoun + 1 < len(words) and words[pronoun + 1].text in PARTICLES:
        said.append(words[pronoun + 1].text)
    does = verb_says(shape, i, length, " ".join(named.lemmas))
    return Act(
        family=named.family,
        says=f"{' '.join(x for x in said if x)}, which {does}",
        verb=True,
        sentence=verb.sentence,
        at=verb.start,
    )


def _names_a_thing(shape: Shape, start: int, end: int) -> bool:
    """Are words ``start`` to ``end`` a noun phrase that names a thing, in the act's own
    clause: no subject pronoun, no question word, no verb?"""
    words = shape.words[start:end]
    return all(
        not (w.clause_start and w.index > start)
        and w.text not in SUBJECTS | ASKER | WH | PREPOSITIONS
        and w.lemma not in VERB_LIKE
        for w in words
    )


# Docs that are run themselves: a pronoun after "run" may stand for them ("rerun them").
_RUN_DOCS = word_set("test tests testcase suite spec specs benchmark dry_run simulation demo")


def _of_a_doc(shape: Shape, i: int) -> bool:
    """Is the phrase of word ``i`` what a test, a suite or another doc that is run is of or
    for ("the tests for the refund endpoint")? A summary of the purge is not run: "run it"
    after it runs the purge."""
    words = shape.words
    for j in range(i - 1, max(-1, i - 6), -1):
        if words[j + 1].clause_start or words[j].sentence != words[i].sentence:
            return False
        if words[j].text in PREPOSITIONS:
            k = j - 1
            return k >= 0 and words[k].lemma in _RUN_DOCS and not words[j].clause_start
        if words[j].lemma in VERB_LIKE:
            return False
    return False


def written_about(shape: Shape, wh: int, i: int) -> bool:
    """Is the question word at ``wh`` the start of what a making or reading verb works on
    ("write up how we deploy", "a note comparing how we publish…"), with no step to come
    between it and the act at ``i`` ("write down how I should deploy")?"""
    words = shape.words
    if any(words[k].text in TO_COME for k in range(wh + 1, i)):
        return False
    for j in range(wh - 1, -1, -1):
        w = words[j]
        if w.sentence != words[wh].sentence:
            return False
        if w.text in ("and", "or") and j + 1 == wh:
            # "… how we deploy and how they release": one object in two parts
            first = next((k for k in range(j - 1, -1, -1) if words[k].text in WH), None)
            return (
                first is not None
                and words[first].sentence == words[wh].sentence
                and written_about(shape, first, first + 1)
            )
        if words[j + 1].clause_start:
            return False
        if w.lemma in CREATE_VERBS or w.lemma in READ_VERBS or w.lemma in DOC_HEADS:
            return not w.ident
        if w.lemma in EXEC_VERBS | PROCEED_VERBS or w.lemma in ACTS_BY_FIRST:
            return False
    return False


def _participle(shape: Shape, j: int) -> bool:
    """Is word ``j`` a past participle right after a noun ("the Dockerfile used for…")?"""
    w = shape.words[j]
    if j == 0 or not past_form(w) or w.text in PAST_IRREGULAR - {"built", "made", "kept"}:
        return False
    before = shape.words[j - 1]
    return not w.clause_start and before.text not in _AUX_BEFORE_PARTICIPLE | SUBJECTS


_AUX_BEFORE_PARTICIPLE = word_set("is are was were be been being has have had get got ve s")
_SUBORDINATORS = word_set("before after when whenever once if unless until while since so")


def _subordinate(shape: Shape, j: int) -> bool:
    """Does word ``j``'s clause open with a subordinator ("before the script deletes…")?"""
    words = shape.words
    k = j
    while k > 0 and not words[k].clause_start:
        k -= 1
    if words[k].text in ("that", "this") and words[k - 1].text in ("after", "before"):
        return False  # "after that the script drops…": a step in sequence, not a condition
    return k > 0 and words[k - 1].text in _SUBORDINATORS


# Words between a thing and what it does ("the job that will purge…").
_LINKS = word_set(
    """will would can could shall should may might then also that which just only to now
    next automatically immediately soon first is are gonna going about"""
)


def _governed_read(shape: Shape, j: int) -> bool:
    """Is the act's verb at ``j`` itself only described ("the function that sends emails")?"""
    return governor_of(shape, j) == "read"


def negated(shape: Shape, i: int) -> bool:
    """Is the act at ``i`` negated by a word right before it in its clause ("don't drop",
    "never deploys", "no one publishes") — or by its own subject, a nobody ("nobody publishes
    it yet", "nobody will send it"): an act no one does is not asked done?"""
    words = shape.words
    for j in (i - 1, i - 2):
        if (
            j >= 0
            and words[j].sentence == words[i].sentence
            and words[j].text in NEGATORS | _NO_SUBJECTS
            and not _why_not(shape, j)
        ):
            return not any(words[k].clause_start for k in range(j + 1, i + 1))
    return False


# A subject that says no one does the act ("nobody publishes it yet"); "no one" is "no".
_NO_SUBJECTS = word_set("nobody noone")


def _why_not(shape: Shape, j: int) -> bool:
    """Is the negator at ``j`` the "not" of "why not …?" ("why not drop the old table?"): a
    step proposed, never one refused?"""
    words = shape.words
    return (
        words[j].text == "not"
        and j > 0
        and words[j - 1].text == "why"
        and words[j - 1].sentence == words[j].sentence
    )


# Verbs whose negation asks the thing done ("don't forget the key", "don't skip the
# migration"), and the light verbs a negation keeps off a thing ("don't need the secrets").
_NEGATION_ASKS = word_set("forget hesitate miss fail skip neglect omit stop wait delay")
_HOLDING_VERBS = word_set("need want touch use access open see handle require ask")


def object_of_negated(shape: Shape, i: int) -> bool:
    """Is the noun at ``i`` the object of a negated verb of its clause ("I don't need the
    secrets themselves", "I won't touch the payment records")? A negation that asks the
    thing done ("don't forget the API key") is none."""
    words = shape.words
    for k in range(i - 1, max(i - 5, -1), -1):
        w = words[k]
        if words[k + 1].clause_start or w.sentence != words[i].sentence:
            return False
        if w.lemma in _HOLDING_VERBS | VERB_LIKE or w.lemma in ACTS_BY_FIRST:
            return (
                w.lemma in _HOLDING_VERBS
                and w.lemma not in _NEGATION_ASKS
                and negated(shape, k)
                and not done_after(shape, i)
            )
    return False


CREATE_VERBS = word_set(
    """write draft prepare create add sketch outline spec scaffold mock stub document
    describe"""
)
