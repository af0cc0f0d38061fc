"""Finding acts: the irreversible acts a question names in words (with their object, phrasal
particles and passives), in code (shell, git, SQL) and in money, production changed, and a
pronoun resolved to the act it stands for (``find_act``)."""

from __future__ import annotations

import functools
import re

from crewline.policy.acts import (
    CODE_ACTS,
    DATABASE_TASKS,
    DATABASE_TOOLS,
    FAMILY_SAYS,
    PROD_WORDS,
    SCHEMA_LOAD_DOES,
    SCHEMA_LOADS,
    SUBCOMMAND_ACTS,
    WordAct,
    third_person,
)
from crewline.policy.careful.absence import left_absent
from crewline.policy.careful.command_lines import (
    ASKED_FOR_ITSELF,
    asked_about,
    cleared_spans,
    code_start,
    migration_run_does,
)
from crewline.policy.careful.demands import puts_out
from crewline.policy.careful.governors import (
    CREATE_VERBS,
    carried_out,
    changed_by_pronoun,
    done_after,
    executed,
    governor_of,
    negated,
    negated_aside,
    pronoun_step_after,
    referred_back,
)
from crewline.policy.careful.objects import (
    DISPLAY,
    SETTING_NOUNS,
    SOURCE_ENDINGS,
    context_holds,
    live_place,
    noun_says,
    object_end,
    object_lemmas,
    phrase_of,
    said_end,
    verb_says,
)
from crewline.policy.careful.positions import (
    caused_by,
    clause_end,
    clause_of,
    clause_start,
    dry_run,
    head_after,
    nominal_head,
    noun_phrase_start,
    past_form,
    verb_position,
)
from crewline.policy.careful.reasons import said_plainly
from crewline.policy.careful.requests import ASKER, contact_asked, info_scope
from crewline.policy.careful.scope import (
    NAME_PREFIXES,
    TEXT_HEADS,
    computed,
    described,
    found_out,
    in_a_made_document,
    mention,
    name_end,
    name_part,
    names_only,
    quoted_name,
    renamed,
    run_as_command,
    set_for,
)
from crewline.policy.careful.verdicts import Act, Found
from crewline.policy.careful.widening import widened_to_all
from crewline.policy.careful.words import (
    ACTS_BY_FIRST,
    ARTIFACTS,
    COPULAS,
    DETERMINERS,
    DOC_HEADS,
    EDIT_VERBS,
    EXEC_VERBS,
    HELPING_VERBS,
    MODAL_VERBS,
    NEGATORS,
    PARTICLES,
    PREPOSITIONS,
    PROCEED_VERBS,
    PROD_DOC_HEADS,
    PRONOUNS,
    READ_VERBS,
    READING_COMMANDS,
    SUBJECTS,
    TIME_WORDS,
    VERB_LIKE,
    WH,
)
from crewline.policy.clauses import Shape, shape_of
from crewline.policy.lemmas import known, tokens
from crewline.policy.wording import (
    code_form,
    deobfuscated_form,
    word_set,
)

SPACES = re.compile(r"\s+")


def _word_acts(shape: Shape, money: bool) -> list[Found]:
    found: list[Found] = []
    words = shape.words
    i = 0
    while i < len(words):
        w = words[i]
        match = None
        candidates = ACTS_BY_FIRST.get(w.lemma, ()) + ACTS_BY_FIRST.get(w.text, ())
        if not verb_position(shape, i):
            # not standing as a verb: the word's noun sense first ("the hotfix on master")
            candidates = tuple(sorted(candidates, key=lambda a: not a.noun))
        for act in candidates:
            n = len(act.lemmas)
            span = words[i : i + n]
            if len(span) == n and all(
                x.lemma == want or x.text == want for x, want in zip(span, act.lemmas, strict=True)
            ):
                match = match or act
                if context_holds(shape, i, n, act, money):
                    match = act  # of the acts a word can be, the one its context shows
                    break
        if match is None or not context_holds(shape, i, len(match.lemmas), match, money):
            split = _split_phrasal(shape, i, candidates, money)
            if split is not None:
                found.append(split[0])
                i = split[1] + 1
                continue
        if match is None:
            i += 1
            continue
        n = len(match.lemmas)
        noun = match.noun or not verb_position(shape, i)
        # `drop_db`, `drop-db`, ./reset_all.sh run: a name whose words say the act
        named = noun and name_part(shape, i) and run_as_command(shape, i, hyphens=True)
        if noun and _a_measure_taken(shape, i, n):
            i += n  # "get the refund count": how many there were, looked up
            continue
        if noun and not match.noun:
            # A verb's word not standing as a verb: an act as the head of its phrase
            # ("approve the deploy to prod") or naming what a thing that is run does ("run
            # the purge job"), not before a noun ("the release candidate", "the deploy
            # script" to lint) nor after a question word ("which commit").
            head = head_after(shape, i, n)
            runs = (
                head is not None and shape.words[head].lemma in ARTIFACTS and executed(shape, head)
            ) or named
            if not runs and (not nominal_head(shape, i + n) or (i > 0 and words[i - 1].text in WH)):
                # a thing named by an act's word is that act, run, only where the act's
                # own context holds: "the on-call rotation plan" calls nobody
                back = (
                    referred_back(shape, i, n, match)
                    if context_holds(shape, i, n, match, money)
                    else None
                )
                if back is not None:
                    found.append(back)
                i += n
                continue
        mentioned = context_holds(shape, i, n, match, money) and mention(
            shape, i, n, match.family, noun=noun
        )
        if mentioned and noun and match.family != "own_word":
            # "what's their email? i need to cc them": an address asked, nothing sent
            address = match.family == "send" and contact_asked(shape, i, noun=True)
            back = None if address else referred_back(shape, i, n, match)
            if back is not None:
                found.append(back)
        elif mentioned and not noun and match.family != "own_word" and described(shape, i, n):
            # "explain how the job drops the partitions, then run it": the job's act, run
            back = carried_out(shape, i, n, match)
            if back is not None:
                found.append(back)
        elif context_holds(shape, i, n, match, money) and not mentioned:
            if match.family == "own_word":
                said = phrase_of(shape, i, i + n)
                found.append(
                    Act(
                        family="own_word",
                        says=f"says so itself (“{said}”)",
                        verb=True,
                        sentence=w.sentence,
                        at=w.start,
                    )
                )
            elif noun or _modifier(shape, i):
                # "the mailing campaign": a participle before its noun is said in its phrase,
                # with the verb that governs it ("starts the mailing campaign to …"), never
                # made the verb ("it mails campaign")
                said_n = name_end(shape, i) - i if named else n  # the name said whole
                says, verb = noun_says(shape, i, said_n, modifier=not noun)
                if noun and set_for(shape, i):
                    # "the old table is scheduled for removal": the thing and the act it
                    # waits for, never the verb that set it ("schedules for removal")
                    says, verb = phrase_of(shape, clause_start(shape, i), i + said_n), False
                found.append(
                    Act(
                        family=match.family,
                        says=says,
                        verb=verb,
                        sentence=w.sentence,
                        at=w.start,
                        gloss=True,
                    )
                )
            elif _passive(shape, i):
                # "the old key gets destroyed": what undergoes it, said as the asker said it
                found.append(
                    Act(
                        family=match.family,
                        says=phrase_of(shape, clause_start(shape, i), i + n),
                        verb=False,
                        sentence=w.sentence,
                        at=w.start,
                    )
                )
            else:
                caused = caused_by(shape, i)
                found.append(
                    Act(
                        family=match.family,
                        # a held collection and the system it lives on, said whole ("the
                        # lawful-intercept target list on the LI mediation function"); a
                        # caused act with what is made to do it ("makes the red warning go
                        # live")
                        says=verb_says(
                            shape,
                            i,
                            n,
                            " ".join(match.lemmas),
                            limit=12 if match.family == "held_data" else 8,
                        )
                        if caused is None or words[caused + 1].text in _ASKERS
                        else verb_says(shape, caused, 1, words[caused].lemma, limit=8),
                        verb=True,
                        sentence=w.sentence,
                        at=w.start,
                        # "sets the multiplier to 0.1", "frees disk on the store", "edits
                        # the list on the mediation function" say nothing risky without it
                        gloss=match.family in _GLOSSED or match.needs == "storage",
                        effect=match.needs == "storage",
                    )
                )
        i += n
    found += _production(shape)
    found += _live_setting_by_pronoun(shape)
    found += _identified_persons(shape)
    found += _out_of_service(shape)
    found += _text_carried_out(shape)
    found += widened_to_all(shape)
    found += left_absent(shape)
    return found


# What counts or measures things of a kind, the head a risky noun only modifies ("the refund
# count", "the payment totals", "the deletion rate").
_MEASURES = word_set(
    """count counts number numbers total totals rate rates ratio ratios share frequency trend
    trends percentage percentages stats statistics figure figures"""
)
# The verbs that take a figure in to be read, besides the reading verbs ("get the count").
_READ_IN = word_set("get fetch pull grab take need want note record copy")


def _a_measure_taken(shape: Shape, i: int, n: int) -> bool:
    """Is the act's noun at ``i`` a modifier of a measure ("the refund count", "the payment
    totals") that a reading or taking verb of its clause takes ("view the dashboard to get
    the refund count", "pull the deletion rate")? A figure read moves, deletes or sends
    nothing; a verb that does something to it ("process the refund total", "pay the invoice
    total") is read as before."""
    words = shape.words
    k = i + n
    if k >= len(words) or words[k].clause_start or words[k].sentence != words[i].sentence:
        return False
    if words[k].lemma not in _MEASURES and words[k].text not in _MEASURES:
        return False
    if not nominal_head(shape, k + 1):
        return False
    for j in range(i - 1, -1, -1):
        w = words[j]
        if w.sentence != words[i].sentence:
            return False
        if w.lemma in VERB_LIKE or w.lemma in ACTS_BY_FIRST or w.lemma in _READ_IN:
            return (w.lemma in READ_VERBS or w.lemma in _READ_IN) and not w.ident
        if words[j + 1].clause_start and j + 1 < i:
            return False
    return False


# The asker as a causative's object ("let me delete …"): the act is the asker's own step.
_ASKERS = word_set("me us")
# The families whose verb alone ("sets", "edits") says nothing risky: the reason says what.
_GLOSSED = frozenset({"live_setting", "held_data", "retention", "commitment"})


# What may follow a particle that ends its phrase: a preposition, a time word, an adverb.
_PARTICLE_FOLLOWERS = (
    PREPOSITIONS
    | TIME_WORDS
    | word_set("for good entirely completely everywhere too as well first")
)


# What opens a noun phrase a participle may modify ("the shipping address", "our mailing list").
_PHRASE_OPENERS = word_set(
    "the a an my our your their its his her these those"
)  # "that" may be a conjunction


def _modifier(shape: Shape, i: int) -> bool:
    """Is the participle at ``i`` a noun's modifier: after a determiner, before the noun it
    describes, in one clause ("the shipping address", "our mailing list")?"""
    words = shape.words
    return (
        words[i].text.endswith("ing")
        and 0 < i < len(words) - 1
        and words[i - 1].text in _PHRASE_OPENERS
        and not words[i].clause_start
        and not words[i + 1].clause_start
        and words[i + 1].sentence == words[i].sentence
        and words[i + 1].text not in DETERMINERS | PREPOSITIONS
    )


def _split_phrasal(
    shape: Shape, i: int, candidates: tuple[WordAct, ...], money: bool
) -> tuple[Act, int] | None:
    """A phrasal act whose object stands between its verb and its particle ("turn the old
    cluster off" is "turn off the old cluster"), and the particle's index."""
    words = shape.words
    if not verb_position(shape, i) or words[i].ident:
        return None
    for act in candidates:
        if len(act.lemmas) != 2 or act.noun or act.lemmas[1] not in PARTICLES:
            continue
        for j in range(i + 2, min(i + 10, len(words))):
            w = words[j]
            if w.clause_start or w.sentence != words[i].sentence:
                break
            if w.text != act.lemmas[1]:
                if (w.text in PREPOSITIONS and not _inside_object(shape, i, j)) or (
                    w.text in COPULAS or (w.lemma in VERB_LIKE and verb_position(shape, j))
                ):
                    break
                continue
            if words[j - 1].lemma == act.lemmas[0]:
                break  # "a note on the write off": the joined form, a noun of its own
            after = words[j + 1] if j + 1 < len(words) else None
            if w.dash_next or (
                after is not None
                and not after.clause_start
                and after.sentence == w.sentence
                and (after.text in DETERMINERS or after.lemma not in _PARTICLE_FOLLOWERS)
            ):
                break  # "a pass over the error messages", "live-update": no particle
            obj = {x.lemma for x in words[i + 1 : j]}
            if obj <= PRONOUNS:
                # "clean them up": what the pronoun stands for was named before it
                obj |= {x.lemma for x in words[max(0, i - 12) : i]}
            obj |= object_lemmas(shape, j + 1)
            if not context_holds(shape, i, 2, act, money, obj=obj) or mention(
                shape, i, 1, act.family
            ):
                break
            said = Act(
                family=act.family,
                says=f"{third_person(act.lemmas[0])} {phrase_of(shape, i + 1, j + 1)}",
                verb=True,
                sentence=words[i].sentence,
                at=words[i].start,
            )
            return said, j
    return None


def _inside_object(shape: Shape, i: int, j: int) -> bool:
    """Does the preposition at ``j`` stand inside the object of the verb at ``i`` — after a
    noun of it, within the first seven words ("write the stale stock *in* the Leeds depot
    off", "shut the hosts *in* rack 4 down") — not open where the verb goes ("write to the
    team"), nor stand right after a determiner?"""
    words = shape.words
    first = words[i + 1]
    return (
        j - i <= 7
        and first.text not in PREPOSITIONS
        and words[j - 1].text not in DETERMINERS | PREPOSITIONS
        and any(x.text not in DETERMINERS for x in words[i + 1 : j])
    )


_PASSIVE_AUX = word_set("be been being is are was were get gets getting got")


def _passive(shape: Shape, i: int) -> bool:
    words = shape.words
    return (
        i > 1
        and past_form(words[i])
        and words[i - 1].text in _PASSIVE_AUX
        and not words[i - 1].clause_start
        and words[i - 2].text not in SUBJECTS | ASKER
    )


def _verb_of_production(shape: Shape, i: int) -> int:
    """The verb that acts on the prod word at ``i``, or ``i`` where none does. A helping verb
    ("can I …", "does the gateway listen …") is never it, and the scan ends there: what it
    helps comes after it, so a verb before it is another clause's ("which host and port
    does …")."""
    words = shape.words
    aside = negated_aside(shape, i) or (i, i)
    for j in range(i - 1, -1, -1):
        if aside[0] <= j < aside[1]:
            continue  # "draft (not submit) a production change request": not done
        if words[j].text in MODAL_VERBS:
            return i
        if (
            words[j].lemma in EXEC_VERBS | PROCEED_VERBS | EDIT_VERBS
            or (words[j].lemma in ACTS_BY_FIRST and verb_position(shape, j))
        ) and not quoted_name(shape, j + 1):  # "the job called 'cleanup'": no call
            return j
    return i


def _a_rule_against(shape: Shape, j: int) -> bool:
    """Is the verb at ``j`` told by a rule that it is never done — a modal, then "never",
    right before it ("`drop_partitions()` must never run in prod", "it should never be
    deployed")? A rule stated does nothing; "any reason not to …", "why not …" and "don't …,
    then …" are no such rule."""
    words = shape.words
    return (
        j > 1
        and words[j - 1].text == "never"
        and words[j - 2].text in MODAL_VERBS
        and words[j - 2].sentence == words[j].sentence
        and not words[j - 1].clause_start
        and not words[j].clause_start
    )


def _production(shape: Shape) -> list[Found]:
    """Production changed: a prod word in the object of any act but reading."""
    found = []
    words = shape.words
    for i, w in enumerate(words):
        prod = w.text in PROD_WORDS or live_place(shape, i)
        if not prod or w.ident or negated(shape, i) or quoted_name(shape, i):
            continue  # "the scenario called 'production outage'": a name, no place
        if _like_it(shape, i):
            continue  # "the prod-like container on my laptop": a copy made like it, not it
        if (
            governor_of(shape, i, read_only=True) == "read"
            or _read_beside(shape, i)
            or _read_by_command(shape, i)
            or info_scope(shape, i)
            or found_out(shape, i)  # "look up when the packager was last deployed to prod"
            or _opens_to_read(shape, i)  # "open the production deploy runbook and summarise it"
            or _topic_of_a_text(shape, i)  # "open the CAB minutes about the production freeze"
        ):
            # production read or asked about ("which version is prod on?"), unless a step
            # then changes it by a pronoun ("read the production config and edit it")
            step = changed_by_pronoun(shape, i)
            if step is not None and not _do_support(shape, step):
                found.append(_pronoun_step(shape, i, step))
            continue
        verb_at = _verb_of_production(shape, i)
        if verb_at != i and _a_rule_against(shape, verb_at) and not done_after(shape, i):
            continue  # "a comment noting that it must never run in prod": a rule, no step
        if verb_at != i and _runs_a_reading_command(shape, verb_at):
            continue  # "run `kubectl get pods` against the production cluster"
        if verb_at != i and dry_run(shape, verb_at) and not done_after(shape, i):
            continue  # "do a dry run of the prod migration": it only shows what it would do
        if (
            verb_at != i
            and words[verb_at].lemma not in EXEC_VERBS | PROCEED_VERBS
            and governor_of(shape, verb_at) == "read"
            and not done_after(shape, i)
        ):
            continue  # "write a doc on how we deploy to prod": the act is only written about
        if (
            verb_at != i
            and words[verb_at].lemma in _DRAFTS
            and verb_position(shape, verb_at)
            and not done_after(shape, i)
            and not pronoun_step_after(shape, i)
        ):
            continue  # "draft a production change request": a text made, nothing done
        start = clause_start(shape, i)
        helped = any(w.text in MODAL_VERBS for w in words[start:i])  # "… does the gateway"
        if verb_at == i and start < i and _unknown_verb(shape, start) and not helped:
            verb_at = start  # "port the billing service to production": a verb it does not know
        if verb_at == i:
            # no verb at all: the phrase as said, never the prod word made a verb ("it prods")
            says, verb = phrase_of(shape, start, said_end(shape, i, object_end(shape, i))), False
        else:
            says, verb = verb_says(shape, verb_at, 1, words[verb_at].lemma), True
        found.append(
            Act(
                family="production",
                says=says,
                verb=verb,
                sentence=w.sentence,
                at=words[verb_at].start,
                gloss=True,
            )
        )
    return found


# The verbs that only make a text: what it says of production is only written.
_DRAFTS = word_set("draft sketch")
# Reading commands said as the verb ("tail the prod logs", "cat the prod config"): they print.
_COMMAND_READS = word_set("tail cat ls less zcat")
# What joins two nouns' modifiers into one phrase ("the staging and prod configs").
_COORDINATORS = word_set("and or")


def _read_by_command(shape: Shape, i: int) -> bool:
    """Is the prod word at ``i`` in the object of a reading command said as the verb ("tail
    the prod pipeline logs", "cat the production config"), with no later step in the
    question?"""
    words = shape.words
    for j in range(i - 1, clause_start(shape, i) - 1, -1):
        w = words[j]
        if w.lemma in _COMMAND_READS and not w.ident and verb_position(shape, j):
            return not _step_later(shape, i)
        if w.lemma in VERB_LIKE | EXEC_VERBS | EDIT_VERBS or w.lemma in ACTS_BY_FIRST:
            return False  # "deploy the tail of the prod queue": another verb's object
    return False


def _read_beside(shape: Shape, i: int) -> bool:
    """Is the prod word at ``i`` the second of two modifiers joined by "and" or "or" before
    one noun ("diff the staging and prod portal configs"), where the first is read: the
    phrase is one object, and its verb reads it? Not a verb after the joiner ("check staging
    and deploy to prod"), nor a modifier after a verb's object ("read the logs and prod …")."""
    words = shape.words
    if not (i > 2 and words[i].clause_start and words[i - 1].text in _COORDINATORS):
        return False
    first = words[i - 2]
    if first.sentence != words[i].sentence or first.ident:
        return False
    if words[i - 3].text not in DETERMINERS and words[i - 3].lemma not in READ_VERBS:
        return False  # "the staging and prod …", "diff staging and prod …"
    if i + 1 >= len(words) or words[i + 1].clause_start or words[i + 1].text in PREPOSITIONS:
        return False  # one noun after both: "… and prod configs", not "… and prod, then …"
    return governor_of(shape, i - 2, read_only=True) == "read" and not _step_later(shape, i)


def _step_later(shape: Shape, i: int) -> bool:
    """Is there a verb after word ``i`` in the question but a reading one ("diff the staging
    and prod configs and apply the fix", "cat the prod .env and paste it")? Any verb the
    gate does not know counts: only reading is read past."""
    return any(
        verb_position(shape, w.index)
        and w.lemma not in READ_VERBS
        and w.text not in NEGATORS | HELPING_VERBS | MODAL_VERBS | SUBJECTS | _ONLY
        and not w.text.isdigit()  # "the 9:40 departure": a time's minutes
        and not negated(shape, w.index)  # "no changes made": what is not done, told
        for w in shape.words[max(i + 1, object_end(shape, i)) :]  # "prod ticketing configs"
    )


# Words that narrow what is said to less ("just reading"), never a step.
_ONLY = word_set("just only merely simply")


# What a word glued after a place's name makes of it: a thing made like the place, not the
# place ("a prod-like container", "production-style data").
_LIKE = word_set("like style similar")


def _like_it(shape: Shape, i: int) -> bool:
    """Is the prod word at ``i`` glued by a dash to a word saying a thing is only like it
    ("the prod-like container", "a production-style dataset")?"""
    words = shape.words
    return words[i].dash_next and i + 1 < len(words) and words[i + 1].text in _LIKE


def _live_setting_by_pronoun(shape: Shape) -> list[Found]:
    """A live setting read, then changed by a pronoun ("look at the live payments gateway
    settings and adjust them", "open the live feature flags and flip them"): the change a
    live setting's own verb makes ("adjust the live … settings"), said of what the pronoun
    stands for. The thing is "live" said of it, before its noun, and its phrase names a
    setting ("settings", "flags", a name in code); a step that reads or makes a new thing
    from it ("… and list them", "… and screenshot it") changes nothing."""
    found: list[Found] = []
    for i in range(len(shape.words)):
        if not _a_live_setting(shape, i) or negated(shape, i) or quoted_name(shape, i):
            continue
        if live_place(shape, i):
            continue  # "the live config": production's own rule judges it, read or changed
        step = changed_by_pronoun(shape, i)
        if step is not None and not _do_support(shape, step):
            found.append(_pronoun_step(shape, i, step, family="live_setting"))
    return found


def _a_live_setting(shape: Shape, i: int) -> bool:
    """Is word ``i`` "live" said of a setting, after a determiner and before its noun, whose
    phrase names a setting's noun or a name in code ("the live payments gateway settings",
    "our live feature flags")?"""
    words = shape.words
    if not (
        words[i].text == "live"
        and not words[i].ident
        and 0 < i < len(words) - 1
        and words[i - 1].text in DETERMINERS
        and not words[i + 1].clause_start
    ):
        return False
    return any(x.code or x.lemma in SETTING_NOUNS for x in words[i + 1 : object_end(shape, i + 1)])


def _pronoun_step(shape: Shape, i: int, step: int, family: str = "production") -> Act:
    """The act a step does to a prod thing by a pronoun, said with what the pronoun stands
    for ("edits it (the production config)")."""
    words = shape.words
    start = noun_phrase_start(shape, i) if i > 0 else i
    end = said_end(shape, i, object_end(shape, i))
    thing = phrase_of(shape, start, end)
    verb = words[step]
    says = verb_says(shape, step, 1, verb.lemma)
    return Act(
        family=family,
        says=says if f"({thing})" in says else f"{says} ({thing})",
        verb=True,
        sentence=verb.sentence,
        at=verb.start,
        gloss=True,
    )


# What a running thing is taken out of: "take pump 2 out of service", "pull node 4 out of
# rotation", "take the old gateway out of production".
_SERVICES = word_set("service operation operations rotation commission production use")
_TAKING = word_set("take put pull bring knock move")


def _out_of_service(shape: Shape) -> list[Found]:
    """A thing taken out of service: a verb that takes or puts, then its object, then "out
    of" a service word, in one clause ("take Ferrybank pump 2 out of service in SCADA") —
    whoever counts on the thing loses it at once. Never asked about ("which box got taken
    out of service?"), read about or negated."""
    found = []
    words = shape.words
    for i, w in enumerate(words[:-2]):
        if w.text != "out" or words[i + 1].text != "of" or words[i + 2].lemma not in _SERVICES:
            continue
        start = clause_start(shape, i)
        verb_at = next(
            (
                k
                for k in range(i - 1, max(start, i - 8) - 1, -1)
                if words[k].lemma in _TAKING and not words[k].ident and verb_position(shape, k)
            ),
            None,
        )
        if verb_at is None:
            continue
        between = words[verb_at + 1 : i]
        if (
            not between
            or words[i - 1].text in DETERMINERS  # "take the out-of-service list"
            or any(x.clause_start or x.text in COPULAS | WH for x in (*between, w))
        ):
            continue  # "take a look at why pump 2 is out of service": its state, said
        if (
            negated(shape, verb_at)
            or info_scope(shape, verb_at)
            or governor_of(shape, verb_at, read_only=True) == "read"
            or mention(shape, verb_at, 1, "infrastructure")
        ):
            continue
        said = phrase_of(shape, verb_at + 1, i + 3)
        found.append(
            Act(
                family="infrastructure",
                says=f"{third_person(words[verb_at].lemma)} {said}",
                verb=True,
                sentence=words[verb_at].sentence,
                at=words[verb_at].start,
            )
        )
    return found


# Carrying out a text: the verbs that do what a text says ("run the runbook", "apply the fix
# it describes"); "do" only with what a text gives or a pronoun ("do the README" writes it).
_CARRY = word_set("run rerun execute apply follow perform do carry")
_CARRY_TEXTS_ONLY = word_set("do")
# Texts whose content is a thing to do: a runbook, a procedure, a page or section of one.
_INSTRUCTING = word_set(
    """runbook runbooks playbook playbooks procedure procedures sop section chapter page doc docs
    wiki guide manual readme checklist instructions instruction article handbook"""
)
# What a text gives to be done ("the fix it describes", "the steps from the wiki").
_GIVEN = word_set(
    """fix fixes change changes command commands step steps snippet workaround remediation
    patch instructions instruction procedure procedures"""
)
# How a text gives it: "the fix it describes", "the steps the wiki lists".
_TEXT_GIVES = word_set(
    """describe give list suggest propose recommend say show contain outline mention
    document explain detail"""
)
_FROM_A_TEXT = word_set("from in of on")
_PRONOUN_OBJECTS = word_set("it that them this those")
# A text whose act the question reads as harmless: a local, read-only or test thing.
_HARMLESS_RUN = word_set(
    """test tests unit lint linter local locally laptop sandbox dry_run readonly read_only
    typecheck formatter build compile"""
)
# What a text followed while doing them only shapes: "follow the style guide when writing".
_SHAPED = READ_VERBS | CREATE_VERBS | word_set("format name")


def _text_carried_out(shape: Shape) -> list[Found]:
    """A step that runs, executes, applies, follows, carries out or does what a text says —
    its object a text that instructs ("execute the procedure from the DR doc", "run the
    failover runbook"), what such a text gives ("apply the fix it describes", "the steps
    from the wiki"), or a pronoun whose antecedent is one ("The runbook has a section on the
    production failover. Run it?") — is the act the text describes. Reading about the act
    was harmless; doing it is careful when the act is (production, any act's word), and
    careful too when nothing in the question says what it is: the gate has not read the
    text. Only a text whose act the sentence names as local, read-only or a test, with no
    act or production word anywhere, stays routine."""
    words = shape.words
    for k, w in enumerate(words):
        if w.lemma not in _CARRY or not verb_position(shape, k) or negated(shape, k):
            continue
        start = k + 1
        if w.lemma == "carry":
            if start >= len(words) or words[start].text != "out":
                continue
            start += 1
        elif start < len(words) and words[start].text in PARTICLES:
            continue  # "follow up on the ticket about the docs", "run down the list"
        end = clause_end(shape, k)
        text = _text_object(shape, start, end, texts=w.lemma not in _CARRY_TEXTS_ONLY)
        if text is None:
            continue
        if _harmless_text(shape, k):
            continue
        family, gloss = _text_act_family(shape, k)
        if any(words[j].lemma in _INSTRUCTING and _made(shape, j) for j in range(*text)) and (
            w.lemma in _CARRY_TEXTS_ONLY or family == "unread_text"
        ):
            # a text the asker writes in this question: "do it" is the writing, and running
            # it does what its name says ("write the drill checklist and run it")
            continue
        verb = "carry out" if w.lemma == "carry" else w.lemma
        said = phrase_of(shape, start, _unjoined(shape, start, end))
        if text[0] != start:  # a pronoun: what it stands for, said after it
            said = f"{words[start].text} ({phrase_of(shape, text[0], _unjoined(shape, *text))})"
        return [
            Act(
                family=family,
                says=f"{third_person(verb)} {said}",
                verb=True,
                sentence=w.sentence,
                at=w.start,
                gloss=gloss,
            )
        ]
    return []


def _text_object(shape: Shape, start: int, end: int, *, texts: bool) -> tuple[int, int] | None:
    """The span of the text (or what it gives) the object at ``start`` names, or None."""
    words = shape.words
    if start >= end:
        return None
    if words[start].text in _PRONOUN_OBJECTS and (
        start + 1 == end or words[start + 1].text in PREPOSITIONS | TIME_WORDS
    ):
        return _text_antecedent(shape, start)
    if words[start].text == "what":  # "do what it says", "run what the runbook lists"
        gives = next((k for k in range(start + 1, end) if words[k].lemma in _TEXT_GIVES), None)
        if gives is None:
            return None
        if words[gives - 1].text in _PRONOUN_OBJECTS:
            return _text_antecedent(shape, gives - 1)
        named = any(x.lemma in _INSTRUCTING for x in words[start + 1 : gives])
        return (start, end) if named else None
    heads = [k for k in range(start, end) if words[k].lemma in _INSTRUCTING | _GIVEN]
    if not heads:
        return None
    head = heads[0]
    if any(
        (words[k].lemma in VERB_LIKE and verb_position(shape, k)) or words[k].text in PREPOSITIONS
        for k in range(start, head)
    ):
        return None  # "run the tests, then read the runbook", "run the job in the docs"
    if head > start and words[head - 1].lemma in _CODE_HOLDERS:
        return None  # "run the notebook section on data cleaning": code, run as it reads
    if texts and words[head].lemma in _INSTRUCTING:
        return start, end
    after = words[head + 1 : end]
    linked = any(
        x.text in _FROM_A_TEXT and any(y.lemma in _INSTRUCTING for y in words[x.index + 1 : end])
        for x in after
    ) or any(x.lemma in _TEXT_GIVES for x in after)
    return (start, end) if linked and words[head].lemma in _GIVEN else None


# Code whose part a text's word may name: "the notebook section", "the script page".
_CODE_HOLDERS = word_set("notebook notebooks script scripts file module cell code test tests")


# What a pronoun may stand for: a thing run, a document, a text or what a text gives.
_ANTECEDENTS = ARTIFACTS | DOC_HEADS | _INSTRUCTING | _GIVEN


def _text_antecedent(shape: Shape, k: int) -> tuple[int, int] | None:
    """The span of the text the pronoun at ``k`` stands for: the nearest noun before it that
    a pronoun may stand for, where that is an instructing text ("a section on …"), with
    its phrase to its clause's end; else None ("the tests are written. Run them?")."""
    words = shape.words
    for j in range(k - 1, -1, -1):
        if words[j].lemma not in _ANTECEDENTS or verb_position(shape, j):
            continue
        if words[j].lemma not in _INSTRUCTING:
            return None
        opener = [
            x.index
            for x in words[max(j - 3, 0) : j]
            if x.text in DETERMINERS and x.sentence == words[j].sentence
        ]
        return (opener[-1] if opener else j), clause_end(shape, j)
    return None


_JOINERS = word_set("and or then but so when while before after if to")


def _unjoined(shape: Shape, start: int, end: int) -> int:
    """``end`` moved back over the words that join a next step ("… drill and")."""
    while end > start + 1 and shape.words[end - 1].text in _JOINERS:
        end -= 1
    return end


def _made(shape: Shape, j: int) -> bool:
    """Is the text at ``j`` the object of a verb that makes it ("write the README")?"""
    words = shape.words
    for x in reversed(words[clause_start(shape, j) : j]):
        if verb_position(shape, x.index) and x.lemma in VERB_LIKE | CREATE_VERBS:
            return x.lemma in CREATE_VERBS
    return False


def _harmless_text(shape: Shape, k: int) -> bool:
    """Does the sentence of the carrying verb at ``k`` name its act as local, read-only or a
    test ("follow the README's steps to run the unit tests locally"), or as only reading or
    writing ("follow the style guide when writing the docstring"), with no production or
    act word anywhere in the question?"""
    words = shape.words
    sentence = [w for w in words if w.sentence == words[k].sentence]
    shaped = any(
        w.text in ("to", "when", "while")
        and w.index + 1 < len(words)
        and words[w.index + 1].lemma in _SHAPED
        for w in sentence
        if w.index > k
    )
    if not shaped and not any(w.lemma in _HARMLESS_RUN for w in sentence):
        return False
    return _text_act_family(shape, k)[0] == "unread_text"


def _text_act_family(shape: Shape, k: int) -> tuple[str, bool]:
    """The family of the act the question says the text carried out at ``k`` does: production
    where a prod word stands anywhere, else the first act's word not the carrying verb
    itself, else "unread_text" (the gate cannot say what it does)."""
    words = shape.words
    if any(w.text in PROD_WORDS or live_place(shape, w.index) for w in words if not w.ident):
        return "production", True
    for w in words:
        if w.index != k and w.lemma not in _CARRY | CREATE_VERBS | READ_VERBS:
            acts = ACTS_BY_FIRST.get(w.lemma, ()) + ACTS_BY_FIRST.get(w.text, ())
            held = [
                a
                for a in acts
                if all(
                    x.lemma == want or x.text == want
                    for x, want in zip(words[w.index :], a.lemmas, strict=False)
                )
                and w.index + len(a.lemmas) <= len(words)
                and context_holds(shape, w.index, len(a.lemmas), a, False)
            ]
            if held and not negated(shape, w.index):
                return held[0].family, True
    return "unread_text", True


# One person's line or account, identified: a phone number in international form, an email
# address (a person's noun with its id is read by words: "account 88120").
_PERSON_ID = re.compile(r"(?<![\w+])\+\d[\d ()-]{6,}\d\b|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_PERSON_NOUNS = word_set(
    """customer client user account subscriber member patient tenant player driver rider
    student employee guest"""
)
# Verbs that make the asker's own work, never change a person's thing ("draft the reply for
# customer 4411", "write a test for user 12").
_MAKING = word_set(
    """draft write create make build rebuild compile prepare propose sketch outline spec
    scaffold mock stub comment format tidy refactor rename extract inline simplify split"""
)
# What says the person is a stand-in: "test user 42", "the sandbox account 7".
_STAND_INS = word_set(
    """staging dev development test testing qa sandbox local localhost fake dummy sample demo
    mock example seed synthetic my own"""
)


def _identified_persons(shape: Shape) -> list[Found]:
    """An act carried out on one identified person's line or account: its clause names them
    by a phone number, an email address or a person's noun and id ("execute the SIM swap for
    +49 1590 000 5521", "reset the portal login of customer C-4411"), and a verb that does or
    changes something governs it — never one that reads, asks or makes the asker's own work,
    a document about them ("run the usage report for account 88120"), nor a stand-in ("test
    user 42 in staging")."""
    found = []
    words = shape.words
    for at in _person_ids(shape):
        clause = clause_of(shape, at)
        if any(w.lemma in _STAND_INS and not w.ident for w in clause):
            continue  # "example" inside "jane@example.com" is the address's, no stand-in
        if negated(shape, at) or info_scope(shape, at) or governor_of(shape, at) == "read":
            continue
        verb_at = next(
            (
                w.index
                for w in reversed(clause)
                if w.index < at
                and not w.ident
                and w.lemma in EXEC_VERBS | PROCEED_VERBS | EDIT_VERBS
                and verb_position(shape, w.index)
            ),
            None,
        )
        if verb_at is None or words[verb_at].lemma in _MAKING:
            continue
        said = verb_says(shape, verb_at, 1, words[verb_at].lemma, limit=12)
        found.append(
            Act(
                family="identified_person",
                says=said,
                verb=True,
                sentence=words[verb_at].sentence,
                at=words[verb_at].start,
                gloss=True,
            )
        )
        break
    return found


def _person_ids(shape: Shape) -> list[int]:
    """Where the question names one person by a phone number, an email address or a person's
    noun and its id ("account 88120", "customer C-4411", "user #551")."""
    words = shape.words
    at = []
    for m in _PERSON_ID.finditer(shape.text):
        index = next((w.index for w in words if w.end > m.start()), None)
        if index is not None:
            at.append(index)
    for w in words[:-1]:
        nxt = words[w.index + 1]
        glued = w.index + 2 < len(words) and words[w.index + 2].dash_prev and nxt.dash_next
        idword = words[w.index + 2] if glued else nxt
        if (
            w.lemma in _PERSON_NOUNS
            and not w.ident
            and not nxt.clause_start
            and any(c.isdigit() for c in idword.text)
        ):
            at.append(w.index)
    return sorted(at)


_INDEFINITES = word_set("everything everyone everybody nothing something anything all")


def _unknown_verb(shape: Shape, i: int) -> bool:
    """Does word ``i``, a clause's first, stand as a verb the gate does not know ("port the
    billing service")?"""
    w = shape.words[i]
    no_verb = DETERMINERS | SUBJECTS | WH | COPULAS | PREPOSITIONS | _INDEFINITES | HELPING_VERBS
    return verb_position(shape, i) and w.text not in no_verb and not w.code


_OPENED = PROD_DOC_HEADS | word_set("file files source sql yaml")


# A mode that says what is opened is only looked at ("in view mode", "read-only").
_READ_MODE = re.compile(r"\bin (?:view|read|viewer|reader) mode\b|\b(?:view|read)[- ]?only\b")


def _opens_to_read(shape: Shape, i: int) -> bool:
    """Is the prod word at ``i`` in a document that is opened and only read: "open", then a
    document or a file before the word's phrase ends or a reading mode said after it ("open
    the production pass schedule in view mode"), and no verb after it in its sentence
    but reading ones ("open the Terraform file defining the prod database to read it")?"""
    words = shape.words
    sentence = [w for w in words if w.sentence == words[i].sentence]
    opens = [w.index for w in sentence if w.lemma == "open" and w.index < i and i - w.index <= 8]
    if not opens or any(x.ident for x in words[opens[-1] : i]):
        return False
    end = next(
        (
            w.index
            for w in sentence
            if w.index > i
            and (w.clause_start or (w.text in PREPOSITIONS and not _joined(shape, w.index)))
        ),
        sentence[-1].index + 1,
    )
    said = shape.text[words[opens[-1]].end : sentence[-1].end]
    if not any(w.lemma in _OPENED for w in words[opens[-1] + 1 : end]) and not _READ_MODE.search(
        said
    ):
        return False
    later = words[opens[-1] + 1 : sentence[-1].index + 1]
    return not any(
        (w.lemma in EXEC_VERBS | PROCEED_VERBS | EDIT_VERBS or w.lemma in ACTS_BY_FIRST)
        and w.lemma not in READ_VERBS
        and verb_position(shape, w.index)
        for w in later
    )


# What makes the phrase after a noun its topic ("minutes about the freeze"), and the texts
# whose topic "on" names too ("a section on the password policy"; "the tests on prod" run
# there).
_TOPIC_LEADS = word_set("about regarding concerning")
_TEXTS = PROD_DOC_HEADS | TEXT_HEADS
# What may be done to a text that changes nothing it is about.
_TEXT_VERBS = READ_VERBS | word_set("open have has contain include cover")


def _topic_of_a_text(shape: Shape, i: int) -> bool:
    """Is the prod word at ``i`` in the topic of a text — after "about", "regarding" or
    "concerning" following a noun ("the CAB minutes about the production deploy freeze"),
    or "on" following a text's noun ("the SOP has a section on the production password
    policy") — with only nouns between, the text only opened, read or had, and no later step
    but reading in the question ("…, then apply it to prod")?"""
    words = shape.words
    start = clause_start(shape, i)
    for k in range(i - 1, max(start, 1) - 1, -1):
        w = words[k]
        if (w.lemma in VERB_LIKE and verb_position(shape, k)) or w.code:
            return False  # "a ticket about how we deploy to prod": what is done there
        if w.text not in _TOPIC_LEADS and w.text != "on":
            continue
        noun = words[k - 1]
        if noun.clause_start or verb_position(shape, k - 1) or noun.text in WH:
            return False  # "set about", "what about prod?"
        if w.text == "on" and noun.lemma not in _TEXTS:
            return False  # "the tests on prod", "a session on prod": done there
        if any(x.text.isdigit() for x in words[k + 1 : i]):
            return False  # "about 5 prod hosts": how many
        done = [
            x
            for x in words[: k - 1]
            if x.sentence == w.sentence
            and verb_position(shape, x.index)
            and (x.lemma in VERB_LIKE or x.lemma in ACTS_BY_FIRST or x.code)
        ]
        if any(x.lemma not in _TEXT_VERBS | HELPING_VERBS or x.code for x in done):
            return False  # "update the section on …", "delete the ticket about …"
        return not any(
            (x.lemma in EXEC_VERBS | PROCEED_VERBS | EDIT_VERBS or x.lemma in ACTS_BY_FIRST)
            and x.lemma not in READ_VERBS | HELPING_VERBS
            and verb_position(shape, x.index)
            for x in words[i + 1 :]
        )
    return False


def _runs_a_reading_command(shape: Shape, k: int) -> bool:
    """Is the verb at ``k`` a running verb whose object is a command line in code that only
    reports — its first or second word a reading command, and no word of it an act, a verb
    that does or edits, or a secret's ("run `git status` in my clone of prod-config", "run a
    read-only `SELECT count(*)` on production")?"""
    words = shape.words
    if words[k].code:  # "`kubectl get pods` against prod": the line's own verb
        start = k
        while (
            start > 0 and words[start - 1].code and words[start - 1].sentence == words[k].sentence
        ):
            start -= 1
    elif words[k].lemma in EXEC_VERBS:
        start = next(
            (w.index for w in words[k + 1 : k + 5] if w.code and w.sentence == words[k].sentence),
            -1,
        )
        if start < 0 or any(w.clause_start for w in words[k + 1 : start + 1]):
            return False
    else:
        return False
    line = []
    for w in words[start:]:
        if not w.code or w.sentence != words[start].sentence:
            break
        line.append(w)
    return any(w.text in READING_COMMANDS for w in line[:2]) and not any(
        any(
            len(a.lemmas) == 1
            for a in ACTS_BY_FIRST.get(w.lemma, ()) + ACTS_BY_FIRST.get(w.text, ())
        )
        or w.lemma in (EXEC_VERBS | PROCEED_VERBS | EDIT_VERBS) - READING_COMMANDS
        for w in line
    )


def _joined(shape: Shape, k: int) -> bool:
    """Is word ``k`` the first of a hyphenated compound ("on-call")?"""
    return k + 1 < len(shape.words) and shape.words[k + 1].dash_prev


def _code_acts(shape: Shape, code: str) -> list[Found]:
    found = []
    pushes = [
        (m.start(), m.end())
        for act in CODE_ACTS
        if act.family == "push"
        for m in act.pattern.finditer(code)
    ]
    for act in CODE_ACTS:
        for m in act.pattern.finditer(code):
            forced = m.start() + m.group(0).find("--force")
            if act.family == "force" and any(a <= forced < b for a, b in pushes):
                continue  # `git push --force`: a force-push, said as the push it is
            index = next((w.index for w in shape.words if w.end > m.start()), None)
            if (
                index is not None
                and act.family == "money"
                and (computed(shape, index) or in_a_made_document(shape, index))
            ):
                continue  # "compute how much a payment of CHF 500 would reduce …": a sum
            if index is not None and act.family != "money":
                length = max(1, sum(1 for w in shape.words if m.start() <= w.start < m.end()))
                w = shape.words[index]
                if (
                    w.ident
                    and act.family == "credentials"
                    and not _names_code(shape, code, m)
                    and not names_only(shape, index)
                    and not renamed(shape, index)
                ):
                    pass  # GITHUB_TOKEN, api_key: the identifier is the secret
                elif mention(shape, index, length, act.family, code=True):
                    continue
            if (
                index is not None
                and act.family not in ASKED_FOR_ITSELF
                and asked_about(shape, code_start(shape, index))
            ):
                continue  # "What does `DROP DATABASE ward` do?": a question about it
            said = m.group(0).strip().strip("`").rstrip("`?.,;")
            groups = [g or "" for g in m.groups()]
            says = act.says.format(said, *(g.strip('"`') for g in groups))
            if act.family == "credentials" and _put_out(shape, code, m.start()):
                says = f"discloses {_CONTENTS if _a_file(said) else ''}{said}"
            sentence = shape.words[index].sentence if index is not None else 0
            # a forced command stands where its flag does: an act before the flag on the
            # line (`--no-verify`, `rm -rf build/ && …`) is said first
            at = forced if act.family == "force" else m.start()
            found.append(Act(family=act.family, says=says, verb=True, sentence=sentence, at=at))
    return found


_CONTENTS = "the contents of "


def _outside(cleared: list[tuple[int, int]], found: list[Found]) -> list[Found]:
    """The acts found that stand in no cleared span."""
    return [f for f in found if not any(a <= f.at < b for a, b in cleared)]


def _a_file(said: str) -> bool:
    """Is the secret a file's path or name (`~/.aws/credentials`, `.env`, `server.key`),
    whose contents are what is put out, rather than a value's name (`GITHUB_TOKEN`)?"""
    return "/" in said or said.startswith((".", "~")) or re.search(r"\.\w+$", said) is not None


def _put_out(shape: Shape, code: str, at: int) -> bool:
    """Does the clause that holds the secret at ``at`` open with a verb that puts content out
    or orders the answerer to ("print …", "paste what's in …", "answer with the contents
    of …")? Then the secret is disclosed, not merely touched."""
    before = [w for w in shape.words if w.start < at]
    if not before:
        return False
    sentence = before[-1].sentence
    start = next(w.start for w in shape.words if w.sentence == sentence)
    clause = re.split(r"[,:;()]|\s[-\u2013\u2014]\s", code[start:at])[-1]
    return puts_out(" ".join(re.findall(r"[a-z0-9]+", clause.replace("'", " "))))


# What a name in code is the name of when it is code, not a value: "the `revoke_token`
# function", "the `token_refresh` module".
_CODE_HEADS = word_set(
    """function functions method methods handler handlers helper helpers class classes module
    modules test tests decorator decorators hook hooks endpoint endpoints component components"""
)

_SOURCE_FILE_ENDING = re.compile(rf"\.(?:{'|'.join(sorted(SOURCE_ENDINGS))})\b")


def _names_code(shape: Shape, code: str, m: re.Match[str]) -> bool:
    """Does the secret's word that ``m`` matched stand inside the name of a piece of code — a
    function called with its parentheses (`rotate_api_key()`), a file of source
    (`token_refresh.ts`), a name a code noun heads ("the `revoke_token` function") — rather
    than name a value that is a secret (`GITHUB_TOKEN`, `db_password`, `.env`)? Then the name
    is what an act works on, and only an act on it (running, calling it) can touch a secret."""
    after = code[m.end() :]
    if after.startswith("(") or _SOURCE_FILE_ENDING.match(after):
        return True
    following = next((w for w in shape.words if w.start >= m.end()), None)
    return following is not None and not following.ident and following.lemma in _CODE_HEADS


# The families whose verb, as a command line's subcommand or name, does its act when run.
_RUN_FAMILIES = frozenset({"delete", "cancel", "infrastructure", "push", "deploy"})
# What a tool's name may add to the act it is named for: "s" + cancel, drop + "db".
_TOOL_AFFIX = 2


def _command_acts(shape: Shape) -> list[Found]:
    """An act's verb as a command line's subcommand ("`zfs destroy tank/home@old`",
    "`ceph osd pool delete scratch`"), a task's name after its namespace ("`rails db:drop`",
    "php artisan migrate:fresh", "`mix ecto.reset`"), a long flag's first word ("`--drop-first`",
    "`--remove-all-storage`") or a run tool's own name, a letter or two aside ("`scancel
    8812345`", "`dropdb orders_old`"): the command does that act when it is run. Never a name
    glued into an identifier ("`drop_table`"), a command only read about ("explain what `zfs
    destroy` does"), asked for its help or a dry run ("`rails db:drop --help`") or negated."""
    found = []
    words = shape.words
    for span in _command_spans(shape):
        first = words[span[0]]
        if _only_shows(shape, span) or (not first.code and not _task_run(shape, span[0])):
            continue
        if asked_about(shape, span[0]):
            continue  # "What does `rails db:drop` do?": a question about it, not a step
        # a migration run (`liquibase update`) only where no part of the line says worse
        # (`liquibase update --drop-first` drops first)
        act = _line_act(shape, span, migrations=False) or _line_act(shape, span, migrations=True)
        if act is not None:
            found.append(act)
    return found


def _line_act(shape: Shape, span: list[int], *, migrations: bool) -> Act | None:
    """The act the command line ``span`` does when it is run (see ``_command_acts``), or
    with ``migrations`` only a migration tool's task that applies the pending migrations."""
    words = shape.words
    first = words[span[0]]
    for k in span:
        w = words[k]
        if _prefixed(shape, k) or (
            w.ident and not _task_part(shape, k) and not _done_to_all(shape, k)
        ):
            continue  # `drop_table`, `pre-deploy`: a name, a time
        if _flag(shape, k) and not _flag_act(shape, k):
            continue  # `--archive`, `-r`: a flag that names no act
        act = _run_act(w.text, subcommand=k != span[0])
        does = _subcommand_does(shape, k, span, act)
        family = act.family if act else "delete"
        if migrations:
            if does is not None or (does := migration_run_does(shape, k, span)) is None:
                continue
            family = "migrate"  # `rails db:migrate`: a migration run
        alone = k == span[0] and len(span) == 1
        if does is None or (alone and not run_as_command(shape, k) and not verb_position(shape, k)):
            continue
        if negated(shape, k) or governor_of(shape, span[0], read_only=True) == "read":
            return None
        if _compound(shape, k) and mention(shape, _name_start(shape, k), 1, family, code=True):
            return None  # "run the tests of `dr-purge`", "`dr-purge --dry-run`": a name here
        said = phrase_of(shape, span[0], span[-1] + 1)
        return Act(
            family=family,
            says=f"runs {said}, which {does}",
            verb=True,
            sentence=first.sentence,
            at=first.start,
        )
    return None


def _command_spans(shape: Shape) -> list[list[int]]:
    """The command lines a question holds: the words of each code span, and a task's name
    written in prose, words a colon joins (php artisan migrate:fresh)."""
    words = shape.words
    spans: list[list[int]] = []
    for w in words:
        joined = bool(spans) and spans[-1][-1] == w.index - 1
        if w.code and joined and "`" not in shape.gap(w.index) and not _chained(shape, w.index):
            spans[-1].append(w.index)
        elif w.code:
            spans.append([w.index])
        elif _prose_task_part(shape, w.index):
            if joined and spans[-1][-1] == w.index - 1 and not words[w.index - 1].code:
                spans[-1].append(w.index)
            else:
                spans.append([w.index - 1, w.index])
    return spans


def _chained(shape: Shape, k: int) -> bool:
    """Does a new command start at code word ``k``, after a chain (`;`, `&&`, `||`, `|`)
    in the same code span ("`npm ci; dropdb ward`": `dropdb` is a tool's own name)?"""
    return any(c in shape.gap(k) for c in ";&|")


def _prose_task_part(shape: Shape, k: int) -> bool:
    """Is word ``k``, outside code, a task's name after its namespace, a colon and no space
    between (migrate:fresh, db:seed:replant), never a time (10:30), a link (https://) nor a
    label and what follows it ("note: drop it")?"""
    words = shape.words
    return (
        k > 0
        and shape.gap(k) == ":"
        and not words[k - 1].code
        and words[k].text.isalpha()
        and words[k - 1].text.isalpha()
    )


def _task_part(shape: Shape, k: int) -> bool:
    """Is word ``k`` of a command line a task's name after its namespace: glued by a colon
    (`db:drop`, `db:seed:replant`) or, in code, a dot between two words (`ecto.drop`), never
    a method called (`cache.flush()`) nor a file's name (`reset.sh` ends in its extension)?"""
    gap = shape.gap(k)
    if gap == ":":
        return shape.words[k - 1].text.isalpha()
    nxt = shape.text[shape.words[k].end : shape.words[k].end + 1]
    return (
        gap == "."
        and shape.words[k].code
        and shape.words[k - 1].text.isalpha()
        and nxt not in ("(", ".", "/", "_")
    )


# The words of a command line that run the tool after them ("bundle exec rails db:setup",
# "npx prisma …"): what follows is run, whatever came before.
_RUNNERS = word_set("exec npx pnpx bunx")


def _task_run(shape: Shape, k: int) -> bool:
    """Is the prose task name starting at word ``k`` run: the words before it in its clause
    (the tool, "php artisan") open the clause or follow a verb that runs things ("run rails
    db:drop"), never a preposition's or a determiner's noun ("grep the logs for db:drop",
    "the db:drop task"), nor a label opening the clause with no tool ("note:drop the old
    proofs")?"""
    words = shape.words
    j = k
    while j > 0 and k - j < 3 and not words[j].clause_start:
        before = words[j - 1]
        if before.lemma in EXEC_VERBS or before.lemma in PROCEED_VERBS or before.text in _RUNNERS:
            return True
        if before.text in PREPOSITIONS or before.text in DETERMINERS or before.lemma in VERB_LIKE:
            return False
        j -= 1
    return words[j].clause_start and j < k


# The flags that only show what a command would do, or how to use it: with one, it does
# nothing ("`rails db:drop --help`", "`artisan migrate:fresh --pretend`").
_SHOWING_FLAGS = word_set("help h dry pretend noop simulate whatif what")


def _only_shows(shape: Shape, span: list[int]) -> bool:
    """Does the command line carry a flag that makes it only show (`--help`, `--dry-run`)?"""
    return any(shape.gap(k).endswith("-") and shape.words[k].text in _SHOWING_FLAGS for k in span)


# The acts a long flag's first word may name: a deletion's. A flag whose verb clears up
# after the command's own run (`docker run --rm`, `--kill-others`) deletes nothing kept.
_FLAG_SPARED = word_set("rm kill")


def _flag_act(shape: Shape, k: int) -> bool:
    """Is word ``k`` the first word of a long flag that names a deletion (`--drop-first`,
    `--delete-missing`, `--remove-all-storage`): the command deletes when it is run?"""
    act = _run_act(shape.words[k].text, subcommand=True)
    return (
        shape.gap(k).endswith("--")
        and act is not None
        and act.family == "delete"
        and shape.words[k].text not in _FLAG_SPARED
    )


def _subcommand_does(shape: Shape, k: int, span: list[int], act: WordAct | None) -> str | None:
    """What the command line's word ``k`` says the command does when it is run: an act's
    verb, or a word that names a destructive act only as a subcommand (`migrate:fresh`,
    `gem yank`) or only as a database tool's task (`flyway clean`, `db:schema:load`)."""
    if act is not None:
        return f"{third_person(act.lemmas[0])} what it names"
    if k == span[0] or _flag(shape, k):
        return None
    return SUBCOMMAND_ACTS.get(shape.words[k].text) or _database_task_does(shape, k, span)


def _database_task_does(shape: Shape, k: int, span: list[int]) -> str | None:
    """What word ``k`` does as the task of a database tool named before it in its command
    line (`flyway clean`, `rails db:setup`, `php artisan migrate:refresh`, `sequelize
    db:migrate:undo:all`), or a schema loaded (`rake db:schema:load`): each throws the
    database's rows away. The same words elsewhere ("make clean", "cargo clean", "the setup
    guide") name no database and nothing it holds."""
    words = shape.words
    tools = {words[j].text for j in span if j < k}
    if not tools & DATABASE_TOOLS:
        return None
    text = words[k].text
    if text == "load" and k - 1 in span and words[k - 1].text in SCHEMA_LOADS:
        return SCHEMA_LOAD_DOES
    return DATABASE_TASKS.get(text)


def _done_to_all(shape: Shape, k: int) -> bool:
    """Is word ``k`` a command line's verb glued to "all" (`flush_all`, `delete_all`): the
    command does the act to everything, no name of a thing?"""
    words = shape.words
    return (
        k + 1 < len(words)
        and words[k + 1].text == "all"
        and shape.gap(k + 1) == "_"
        and words[k].code
    )


def _flag(shape: Shape, k: int) -> bool:
    """Is word ``k`` of a command line a flag's name (``--delete``, ``-rf``: dashes after a
    space), not the last part of a tool's hyphenated name (``dr-purge``, ``cache-purge``:
    one dash glued to the word before it), whose verb is what the tool does?"""
    return shape.gap(k).endswith("-") and not _compound(shape, k)


def _compound(shape: Shape, k: int) -> bool:
    """Is word ``k`` a later part of a hyphenated name (``dr-purge``)?"""
    return shape.gap(k) == "-" and shape.words[k].dash_prev


def _name_start(shape: Shape, k: int) -> int:
    """The first word of the hyphenated name word ``k`` ends: its scope is the name's, and
    no part of it governs another (`render-purge` is no reading of a purge)."""
    while k > 0 and _compound(shape, k):
        k -= 1
    return k


def _prefixed(shape: Shape, k: int) -> bool:
    """Is word ``k`` the verb of a compound whose part before it is a prefix (`pre-deploy`)?"""
    return _compound(shape, k) and shape.words[k - 1].text in NAME_PREFIXES


def _run_act(text: str, *, subcommand: bool) -> WordAct | None:
    """The act a command line's word names: a subcommand that is an act's verb whole, or a
    tool's name that is one with a letter or two before or after it ("scancel", "dropdb")."""

    def verb(lemma: str) -> WordAct | None:
        return next(
            (
                a
                for a in ACTS_BY_FIRST.get(lemma, ())
                if len(a.lemmas) == 1
                and not a.noun
                and a.family in _RUN_FAMILIES
                # what a tool cancels is someone's running work, whoever's it is
                and (a.needs is None or a.family == "cancel")
            ),
            None,
        )

    if subcommand:
        # "dropall", "flushall": the act done to everything the tool holds
        return verb(text) or (verb(text[:-3]) if text.endswith("all") else None)
    for cut in range(1, _TOOL_AFFIX + 1):
        for part in (text[cut:], text[:-cut]):
            if len(part) >= 4 and part.isalpha():
                act = verb(part)
                if act is not None:
                    return act
    return None


def _money_in(shape: Shape, code: str) -> list[Found]:
    """Amounts of money, unless they only describe what a harmless act is about."""
    found = []
    money = next(a for a in CODE_ACTS if a.family == "money")
    for m in money.pattern.finditer(code):
        index = next((w.index for w in shape.words if w.end > m.start()), None)
        if index is not None and (
            governor_of(shape, index) == "read"
            or computed(shape, index)
            or in_a_made_document(shape, index)
        ):
            # "compute how much a payment of CHF 500 would reduce …": a sum; "write a test
            # that checks refunds over £1,000 need approval": a case the test checks
            continue
        sentence = shape.words[index].sentence if index is not None else 0
        said = m.group(0).strip()
        found.append(
            Act(
                family="money",
                says=f"moves money ({said})",
                verb=True,
                sentence=sentence,
                at=m.start(),
            )
        )
    return found


def _resolve_pronoun(shape: Shape, found: list[Found]) -> list[Found]:
    """ "The orders migration locks writes … Run it tonight?": the act asked about is the
    one named before, said with the asking verb ("runs the orders migration")."""
    asking = {s for s, sentence in enumerate(shape.sentences) if sentence.asks}
    if not found or any(f.sentence in asking for f in found):
        return found
    named = next((f for f in found if not f.verb), None)
    if named is None:
        return found
    for w in shape.words:
        if w.sentence in asking and w.lemma in EXEC_VERBS | PROCEED_VERBS:
            if _do_support(shape, w.index):
                continue  # "which port does it listen on?": the question's auxiliary
            nxt = shape.words[w.index + 1] if w.index + 1 < len(shape.words) else None
            if nxt is not None and nxt.text in ("it", "this", "that", "them", "these", "those"):
                says = f"{third_person(w.lemma)} {named.says}"
                return [
                    Act(
                        family=named.family,
                        says=says,
                        verb=True,
                        sentence=w.sentence,
                        at=w.start,
                        gloss=True,
                    )
                ]
    return found


def _do_support(shape: Shape, k: int) -> bool:
    """Is word ``k`` "do", "does" or "did" helping a question word's question, its subject a
    pronoun and its verb after that ("which port does it listen on?"), not a step done to a
    pronoun ("do it now?")?"""
    words = shape.words
    if words[k].text not in ("do", "does", "did") or k + 2 >= len(words):
        return False
    before = [w for w in words[:k] if w.sentence == words[k].sentence]
    verb = words[k + 2]
    return (
        any(w.text in WH for w in before)
        and verb.sentence == words[k].sentence
        and not verb.clause_start
        and verb.text not in PREPOSITIONS | TIME_WORDS | DETERMINERS | _PARTICLE_FOLLOWERS
    )


@functools.lru_cache(maxsize=4096)
def find_act(text: str) -> Act | None:
    """The irreversible act ``text`` asks for (the first in the asking sentence, else the
    first), or None."""
    code = code_form(text)
    if not code:
        return None
    token = DISPLAY.set(SPACES.sub(" ", text).strip() if text.isascii() else None)
    try:
        found = _find_act(code)
        # the act's reason said plainly: a real verb of the question and a clean object, else
        # the asker's words quoted (words only: which act, and that it is careful, stand)
        return None if found is None else said_plainly(shape_of(code), found)
    finally:
        DISPLAY.reset(token)


def _find_act(code: str) -> Act | None:
    shape = shape_of(code)
    money = _money_in(shape, code)
    cleared = cleared_spans(shape, code)
    found = _outside(cleared, _code_acts(shape, code) + money + _word_acts(shape, bool(money)))
    # a command line's own act, where nothing in it says one already ("TRUNCATE …" inside);
    # what a step is for ("to free disk") only where no act names how it is done
    found = [f for f in found if not f.effect] or _outside(cleared, _command_acts(shape)) or found
    # Obfuscated words ("d-e-l-e-t-e", "del3te") count wherever they stand.
    plain = {t.lemma for t in tokens(code)}
    hyphens = _joined_hyphens(code)
    if hyphens:
        # "the roll-out", "their allow-list": a compound of two dictionary words is the word
        # it joins, read in its context like any other, never a word spelled to hide it
        plain |= {t.lemma for t in tokens(_without(code, hyphens))}
        found += _compound_acts(code, hyphens)
    for t in tokens(deobfuscated_form(code)):
        if t.lemma not in plain and t.lemma in ACTS_BY_FIRST and t.lemma not in ("s", "t"):
            act = ACTS_BY_FIRST[t.lemma][-1]
            found.append(
                Act(
                    family=act.family,
                    says=f"{third_person(t.lemma)} something (spelled to hide it)",
                    verb=True,
                    sentence=0,
                    at=0,
                )
            )
    found = _resolve_pronoun(shape, found)
    if not found:
        return None
    asking = [f for f in found if shape.sentences[f.sentence].asks] if shape.sentences else []
    return min(asking or found, key=lambda f: f.at)


# Two words joined by one hyphen, each of two letters or more ("roll-out", "allow-list").
_HYPHENED = re.compile(r"\b([a-z]{2,})-([a-z]{2,})\b")


def _joined_hyphens(code: str) -> list[int]:
    """Where ``code`` has the hyphen of a compound of two dictionary words that, written as
    one, is an act's word ("roll-out" is "rollout", "allow-list" is "allowlist"). A part the
    dictionary does not know ("de-lete", "dep-loy") is a word split to hide it: the blind
    reading's."""
    return [
        m.start(2) - 1
        for m in _HYPHENED.finditer(code)
        if m.group(1) + m.group(2) in ACTS_BY_FIRST and known(m.group(1)) and known(m.group(2))
    ]


def _without(text: str, at: list[int]) -> str:
    return "".join(c for k, c in enumerate(text) if k not in at)


def _compound_acts(code: str, hyphens: list[int]) -> list[Found]:
    """The acts the question names read with its compounds written as one word, in their
    context like any word ("how long did the rollout take?" names none, "start the rollout
    now?" does), the reason quoting the asker's words so joined."""
    joined = _without(code, hyphens)
    display = DISPLAY.get()
    token = DISPLAY.set(
        _without(display, hyphens) if display is not None and len(display) == len(code) else None
    )
    try:
        shape = shape_of(joined)
        money = _money_in(shape, joined)
        found = _code_acts(shape, joined) + money + _word_acts(shape, bool(money))
        found = [f for f in found if not f.effect] or _command_acts(shape) or found
        return [f for f in found if f.family != "money"] if money else found
    finally:
        DISPLAY.reset(token)


def reason(found: Act) -> str:
    gloss = FAMILY_SAYS.get(found.family, "cannot be undone")
    if found.verb:
        tail = f", which {gloss}" if found.gloss else ""
        return f"irreversible: it {found.says}{tail}"
    return f"irreversible: {found.says}, which {gloss}"
