"""Whether an act's word is only a mention: part of an identifier or code element, negated,
hypothetical, reported, unrelated, a stand-in, a quoted term or a dry run, or named by a
command that only reads."""

from __future__ import annotations

import re

from crewline.policy.acts import (
    AUDIENCE,
    NON_PROD,
    PROD_WORDS,
)
from crewline.policy.careful.governors import (
    CREATE_VERBS,
    done_after,
    executed,
    governor_of,
    negated,
    negated_aside,
    object_of_negated,
    pronoun_step_after,
    written_about,
)
from crewline.policy.careful.objects import object_end
from crewline.policy.careful.positions import (
    clause_end,
    clause_of,
    clause_start,
    dry_run,
    head_after,
    hypothetical,
    noun_phrase_start,
    past_form,
    verb_position,
)
from crewline.policy.careful.requests import (
    ANAPHORS,
    asks_property,
    contact_asked,
    info_scope,
    manner_opening,
    topic_of_request,
)
from crewline.policy.careful.words import (
    ACTS_BY_FIRST,
    ARTIFACTS,
    CODE_WORDS,
    COPULAS,
    DATA_OBJECT,
    DETERMINERS,
    DOC_HEADS,
    EDIT_VERBS,
    EXEC_VERBS,
    MODAL_VERBS,
    NEGATORS,
    PERFECT,
    PREPOSITIONS,
    PROCEED_VERBS,
    READ_VERBS,
    SECRET_HOLDERS,
    SHARED_BRANCH,
    SHARED_THINGS,
    SUBJECTS,
    VERB_LIKE,
    WH,
)
from crewline.policy.clauses import Shape, Word
from crewline.policy.wording import (
    word_set,
)

# What says a thing is no part of what was named ("nothing to do with payments").
_UNRELATED = re.compile(r"\b(?:nothing|not anything) to do with|\b(?:unrelated|not related) to")


def _unrelated(shape: Shape, i: int) -> bool:
    """Is word ``i``'s noun phrase what something is said to have nothing to do with?"""
    start = noun_phrase_start(shape, i)
    if start == 0 or shape.words[start].clause_start:
        return False
    before = shape.text[max(0, shape.words[start].start - 30) : shape.words[start].start]
    return bool(re.search(_UNRELATED.pattern + r"\s*$", before))


# Words that say a credential is a stand-in, not a secret ("a fake token").
STAND_INS = word_set("fake dummy mock stub placeholder bogus fixture example madeup made_up")


# What the member runs or draws, a secret's word only naming it: "the local OTP run", "my
# local OTP instance" (OpenTripPlanner), "the OTP chart". A run or an instance of a secret
# is no secret — but a store of secrets is ("the vault instance", "the keystore server"),
# and what holds or is the secret ("the OTP code", "the OTP seed") never names a thing run.
_RUN_THINGS = word_set(
    "run runs instance instances chart charts plot plots graph graphs experiment"
)
_HOLDS_SECRETS_WHEN_RUN = word_set("vault kms keychain keystore keyring")


def _names_what_is_run(shape: Shape, i: int) -> bool:
    """Is the secret's word at ``i`` the name of a thing the member runs or draws: a
    modifier of the noun right after it, the name of software and not a store of secrets?"""
    words = shape.words
    if (
        i + 1 >= len(words)
        or words[i + 1].clause_start
        or words[i].lemma in _HOLDS_SECRETS_WHEN_RUN
    ):
        return False
    # the noun right after it, a space apart: "OTP run", never "OTP, run it"
    return words[i + 1].lemma in _RUN_THINGS and words[i + 1].start == words[i].end + 1


def _not_real(shape: Shape, i: int) -> bool:
    """Is the credential at ``i`` a stand-in: the word right before it says so ("a fake
    token", "the dummy API key") — not a word of another noun ("the dummy account's
    password" is a real account's)?"""
    return i > 0 and shape.words[i - 1].lemma in STAND_INS and not shape.words[i].clause_start


# What a line of code is: removing one is an edit ("remove the unused import"). The first
# are code wherever they stand; the others ("comments", "variables") only beside a word of
# code ("the leftover debug print from the rollback helper"), since a customer's comments or
# an export's variables are data.
_CODE_ONLY = word_set(
    """import imports docstring docstrings decorator decorators breakpoint breakpoints
    whitespace todo todos"""
)
_CODE_ELEMENTS = _CODE_ONLY | word_set(
    """print prints comment comments variable variables param params parameter parameters
    argument arguments assert asserts hint hints annotation annotations statement
    statements"""
)
_CODE_CONTEXT = (
    CODE_WORDS
    | _CODE_ONLY
    | word_set(
        """debug unused leftover stray dead commented local script module helper file
        parser handler function method class util utils test tests source"""
    )
)


def _code_element(shape: Shape, start: int) -> bool:
    """Is the object that starts at word ``start`` a line of code — its head, before any
    preposition, one ("the leftover debug print from the rollback helper") — and nothing
    in it data, production or a shared thing?"""
    words = shape.words
    end = object_end(shape, start)
    head = next((k for k in range(start, end) if words[k].text in PREPOSITIONS and k > start), end)
    if head <= start or words[head - 1].lemma not in _CODE_ELEMENTS:
        return False
    said = {w.lemma for w in words[start:end]} | {w.text for w in words[start:end]}
    if said & (DATA_OBJECT | SHARED_THINGS | PROD_WORDS):
        return False
    in_code = any(w.ident for w in words[start:end]) or bool(said & _CODE_CONTEXT)
    return words[head - 1].lemma in _CODE_ONLY or in_code


# A text's layout, blank: removing it removes no word of the text ("the blank line at the
# end of my notes", "the trailing spaces").
_BLANK = word_set("blank empty trailing extra")
_LAYOUT = word_set("line lines newline newlines space spaces tab tabs")


def _blank_layout(shape: Shape, start: int) -> bool:
    """Is the object that starts at word ``start`` blank layout — its head, before any
    preposition, a line or a space said blank, empty or trailing ("the blank line at the end
    of my own notes.md") — in the asker's own text or in code, and nothing in it data,
    production or a shared thing?"""
    words = shape.words
    end = object_end(shape, start)
    head = next((k for k in range(start, end) if words[k].text in PREPOSITIONS and k > start), end)
    if head - 2 < start or words[head - 1].text not in _LAYOUT:
        return False
    if words[head - 2].text not in _BLANK:
        return False
    said = {w.lemma for w in words[start:end]} | {w.text for w in words[start:end]}
    if said & (DATA_OBJECT | SHARED_THINGS | PROD_WORDS):
        return False
    # the asker's own text or code, never a thing's data ("the trailing spaces in the export")
    return "my" in said or any(w.ident for w in words[start:end]) or bool(said & _CODE_CONTEXT)


# Verbs that work a figure out; with "out" after "work" and "figure".
_COMPUTING = word_set("compute recompute calculate recalculate work figure tally estimate")
# The figures they work out ("the total we paid", "the cost of two more passes").
_FIGURES = word_set("total totals sum amount cost costs difference balance figure")
# What opens a figure asked after a computing verb ("what …", "how much …").
_FIGURE_WH = word_set("what how")
_STEP_JOINS = word_set("and then or plus")


def computed(shape: Shape, i: int) -> bool:
    """Is the money word at ``i`` inside what a computing verb works out — the verb ("work
    out", "compute", "calculate") before it in its sentence, followed by a question word or a
    figure's noun ("work out what the invoice would come to", "compute the total we paid
    Kuehne", "compute how much a payment of CHF 500 would reduce the balance") — with no step
    joined between ("compute the total and pay it": the payment is a step)?"""
    words = shape.words
    for j in range(i - 1, -1, -1):
        w = words[j]
        if w.sentence != words[i].sentence:
            return False
        if w.text in _STEP_JOINS and (w.clause_start or words[j + 1].clause_start):
            return False  # "… and pay it", "… then transfer it"
        if w.lemma in _COMPUTING and verb_position(shape, j) and not w.ident and not w.code:
            k = j + 1
            if w.lemma in ("work", "figure"):
                if k >= len(words) or words[k].text != "out":
                    return False
                k += 1
            after = words[k : min(k + 3, i + 1)]
            return bool(after) and (
                after[0].text in _FIGURE_WH or any(x.lemma in _FIGURES for x in after)
            )
        if w.lemma in ACTS_BY_FIRST and verb_position(shape, j) and not past_form(w):
            return False  # another act's verb between: "compute the refund to send …"
    return False


# Verbs by which a test or a text says what it checks or states ("a test that checks …",
# "a unit test asserting …"): their clause is the document's content.
_CHECKS = word_set("check verify assert ensure cover test confirm expect prove")
_RELATIVES = word_set("that which")
# Who would do what the content says: "a test where we refund £1,000" is a step of theirs.
_PERSONS_ACTING = word_set("i we us me you")


def in_a_made_document(shape: Shape, i: int) -> bool:
    """Is the amount at ``i`` inside what a test or text being made checks or is about — a
    making verb, a document's head as its object, then "for"/"of"/"about" or a checking
    verb ("write a test that checks refunds over £1,000 need approval", "add a unit test
    asserting a payment of $500 is rejected", "a note about the £1,000 refund") — with no act
    asked between and nothing joined after it ("…, then refund £1,000")? A test's figure is a
    case it checks, no money moved."""
    words = shape.words
    sentence = words[i].sentence
    for d in range(i - 1, -1, -1):
        if words[d].sentence != sentence:
            return False
        if not _document_head(shape, d) or not _made(shape, d):
            continue
        k = d + 1
        if k < i and words[k].text in _ABOUT:
            k += 1
        else:
            if k < i and words[k].text in _RELATIVES:
                k += 1
            if not (k < i and words[k].lemma in _CHECKS):
                return False
            k += 1
        return _content(shape, k, i)
    return False


def _plural_subject(shape: Shape, k: int) -> bool:
    """Is the act's word at ``k``, first of what a test checks, a plural noun the check is
    about ("checks refunds over £1,000 need approval"), not a verb with its object ("checks
    refunds £1,000", "… pays the vendor")?"""
    words = shape.words
    w = words[k]
    after = words[k + 1] if k + 1 < len(words) else None
    return (
        w.text != w.lemma
        and w.text.endswith("s")
        and after is not None
        and after.sentence == w.sentence
        and after.text in PREPOSITIONS | _BOUNDS
        and after.text not in _DIRECTIONS
    )


# What bounds an amount a check compares with, as "over" and "under" do ("refunds above
# €1,000", "payments below $50").
_BOUNDS = word_set("above below beyond")


# Where a verb's object goes: "refunds to the customer" is a refund made.
_DIRECTIONS = word_set("to into onto from")


def _made(shape: Shape, d: int) -> bool:
    """Is the document head at ``d`` the object of a making verb before it in its clause
    ("write a unit test", "add an end-to-end test case")?"""
    words = shape.words
    for v in range(d - 1, max(-1, d - 6), -1):
        w = words[v]
        if w.lemma in CREATE_VERBS and verb_position(shape, v) and not w.ident:
            return True
        if words[v + 1].clause_start or w.text in PREPOSITIONS or w.lemma in VERB_LIKE:
            return False
    return False


def _content(shape: Shape, k: int, i: int) -> bool:
    """Are the words from ``k`` to the end of the amount's sentence what the document says —
    no asker or step ("we refund", "then pay it"), no act's verb standing as one?"""
    words = shape.words
    end = shape.sentences[words[i].sentence].end
    for w in words[k:end]:
        if w.text in _PERSONS_ACTING or (w.index > k and w.clause_start and w.text in _STEP_JOINS):
            return False
        if (
            w.index != i
            and w.lemma in ACTS_BY_FIRST
            and verb_position(shape, w.index)
            and not (w.index == k and _plural_subject(shape, k))
        ):
            return False
        gap = shape.gap(w.index)
        if w.index > i and (w.text in _STEP_JOINS or ("," in gap and gap != ",")):
            return False  # "… over £1,000, then refund it": a step after
    return True


def _a_figure(shape: Shape, i: int, *, noun: bool) -> bool:
    """Is the money word at ``i`` a thing or an amount ("a payment of CHF 500"), or a
    payment told as done ("the total we paid"), never a payment to make ("how much to
    transfer")?"""
    w = shape.words[i]
    return noun or past_form(w) or not verb_position(shape, i)


# A piece of a text, and the asker's own texts that hold one: a piece deleted from the
# asker's own draft or notes loses no one else's work ("a typo in my own unsent draft").
_TEXT_PIECES = word_set(
    """typo typos word words sentence sentences line lines paragraph paragraphs phrase
    phrases heading headings bullet bullets comma commas"""
)
_MY_TEXTS = word_set("draft drafts notes")
_WITHIN = word_set("in from of on about for")


def _in_my_text(shape: Shape, start: int) -> bool:
    """Is the object that starts at word ``start`` a piece of the asker's own draft or
    notes — its head, before a preposition, a piece of a text ("a typo", "the trailing
    empty line"), and the phrase after "in" or "from" the asker's ("my") with a draft or
    notes its last noun ("in my own unsent draft of the NOAA email", "in my local config
    draft") — with no production word, shared thing, name in code or other's thing in it?"""
    words = shape.words
    end = object_end(shape, start, limit=12)
    head = next((k for k in range(start, end) if words[k].text in PREPOSITIONS and k > start), end)
    if head <= start or head >= end or words[head - 1].lemma not in _TEXT_PIECES:
        return False
    if words[head].text not in ("in", "from"):
        return False
    place = words[head + 1 : end]
    last = next((k for k, w in enumerate(place) if w.text in _WITHIN), len(place))
    if not place[:last] or place[last - 1].text not in _MY_TEXTS:
        return False
    if "my" not in {w.text for w in place[:last]}:
        return False
    said = {w.lemma for w in words[start:end]} | {w.text for w in words[start:end]}
    return (
        not said & (SHARED_THINGS | PROD_WORDS | _BEYOND)
        and not any(w.ident or w.code for w in words[start:end])
        and not pronoun_step_after(shape, start)  # "… and send it to NOAA"
    )


# What a quoted term is added to that is a text: "the feature ideas in my notes".
_TEXT_PLACES = DOC_HEADS | word_set("idea ideas list backlog wishlist")


def _adds_a_quoted_term(shape: Shape, i: int, length: int) -> bool:
    """Is the verb at ``i`` "add" with a quoted term for its object, added to a text ("add
    'overwrite protection' to the feature ideas in my notes"): the term is words written,
    not an access granted ("add 'admin' to Bob's roles" stays careful)?"""
    words = shape.words
    k = i + length
    if words[i].lemma != "add" or k >= len(words) or not _term(shape, k):
        return False
    end = clause_end(shape, i)
    to = next((j for j in range(k, end) if words[j].text == "to" and not _quoted(shape, j)), None)
    if to is None or any(not _term(shape, j) for j in range(k, to)):
        return False  # the whole object quoted, nothing else between
    rest = words[to + 1 : end]
    said = {w.lemma for w in rest} | {w.text for w in rest}
    return bool(said & _TEXT_PLACES) and not said & (SHARED_THINGS | PROD_WORDS | _BEYOND)


_CAUSATIVES = word_set("want have get need like")
_PAST_TIME = word_set("yesterday earlier ago already last previously recently before")


# Words that say a place is made to be thrown away after use ("a throwaway sqlite file", "a
# disposable VM"): what is deleted or overwritten in one is nothing anyone keeps. Not
# "scratch" or "sandbox", which name places people share and keep ("the scratch disk on
# every node"), nor an act that reaches people or money wherever it is done from.
_THROWAWAY = word_set("throwaway disposable ephemeral")
_CONFINED_FAMILIES = frozenset({"delete", "overwrite", "migrate"})
_PLACE_LEADS = word_set("in on inside against into within")


def _in_throwaway_place(shape: Shape, i: int) -> bool:
    """Is the act at ``i`` done in a throwaway place its clause names after it ("drop tables
    in a disposable sqlite file"), with no production word or shared thing in the clause?"""
    clause = clause_of(shape, i)
    said = {w.lemma for w in clause} | {w.text for w in clause}
    if said & (PROD_WORDS | SHARED_THINGS):
        return False
    after = [w for w in clause if w.index > i]
    return any(
        w.text in _PLACE_LEADS and any(x.text in _THROWAWAY for x in after[k + 1 : k + 4])
        for k, w in enumerate(after)
    )


def _causative(shape: Shape, i: int) -> bool:
    """Is the act at ``i`` a past participle that a wanting or having verb asks to be done
    to its object ("want a summary of the outage posted to the status page?", "shall I have
    the invoices sent to every client?"), not one describing a thing already done?"""
    words = shape.words
    if not past_form(words[i]) or not shape.sentences[words[i].sentence].asks:
        return False
    if any(w.text in _PAST_TIME for w in words[i + 1 : clause_end(shape, i)]):
        return False  # "the branches merged last week": a thing described by when it was done
    for j in range(i - 1, -1, -1):
        w = words[j]
        if w.sentence != words[i].sentence:
            return False
        if w.lemma in _CAUSATIVES and verb_position(shape, j):
            return True
        if words[j + 1].clause_start or (w.lemma in VERB_LIKE and verb_position(shape, j)):
            return False
    return False


def _reported(shape: Shape, i: int, noun: bool) -> bool:
    """An act already done, told as context ("I removed the debug prints. Continue?")."""
    words = shape.words
    w = words[i]
    sentence = shape.sentences[w.sentence]
    if noun:
        if sentence.asks or set_for(shape, i):
            return False
        return any(past_form(x) for x in shape.sentence_words(w.sentence))
    if not past_form(w):
        return False
    before = words[i - 1].text if i > 0 and words[i - 1].sentence == w.sentence else ""
    if before in ("be", "been", "being", "get", "gets", "getting", "to", "is", "are"):
        return False  # "should they be deleted?", "the old key gets destroyed": to come
    return not sentence.asks or before in PERFECT


def set_for(shape: Shape, i: int) -> bool:
    """Is the act's noun at ``i`` what a thing is said to be set for — a copula, a participle
    or a word of waiting, then "for" ("the files are marked for deletion", "the table is
    scheduled for the removal", "the archive is up for deletion")? The act is still to come,
    whatever past form says how it was set. Never a thing so set that a step reads ("list the
    buckets tagged for deletion")."""
    words = shape.words
    j = i - 1
    while j >= 0 and words[j].text in DETERMINERS and words[j].sentence == words[i].sentence:
        j -= 1
    if j < 2 or words[j].text != "for" or words[j - 2].sentence != words[i].sentence:
        return False
    setting = words[j - 1]
    return (past_form(setting) or setting.text in _WAITING) and any(
        words[k].text in COPULAS for k in (j - 2, j - 3) if k >= 0
    )


# Words a thing waits for an act with ("up for deletion", "due for removal").
_WAITING = word_set("up due ready pending slated")


# What opens a relative clause that tells an event of the noun before it ("the outage
# where …", "the night when …", "the release in which …").
_EVENT_RELATIVES = word_set("where when which")


def _past_event(shape: Shape, i: int) -> bool:
    """Is the act at ``i`` told by a past passive ("were deleted", "was dropped") in a
    relative clause that tells what happened in a thing named before it ("the outage where
    CDRs were deleted", "the release in which the flags were removed")? Nothing is asked
    done; a past passive said on its own ("the rows were deleted, run it again?") is read as
    before."""
    words = shape.words
    end = clause_end(shape, i)
    passive = next(
        (
            k
            for k in range(max(0, i - 1), min(end, len(words)) - 1)
            if words[k].text in ("was", "were") and _participle(words[k + 1])
        ),
        None,
    )
    if passive is None or passive + 1 < i:
        return False
    for j in range(min(i, passive) - 1, max(-1, passive - 8), -1):
        w = words[j]
        if w.sentence != words[i].sentence:
            return False
        if w.text in _EVENT_RELATIVES:
            k = j - 1 if j > 0 and words[j - 1].text not in PREPOSITIONS else j - 2
            return (
                k >= 0
                and words[k].sentence == w.sentence
                and words[k].text not in DETERMINERS | PREPOSITIONS
                and words[k].lemma not in VERB_LIKE
                and not verb_position(shape, k)
            )  # a noun before it: the event is the thing's, told in a relative clause
        opened = j > 0 and words[j - 1].text in _EVENT_RELATIVES
        if (w.clause_start and not opened) or w.lemma in VERB_LIKE:
            return False
    return False


# The prepositions that date what is asked by an event ("the bed count since the last
# deploy", "the version after redeploy"). "since" looks back and always dates; the others may
# set when a step is to be taken ("deploy after the standup"), so they date only a value
# asked with no step before them.
_SINCE = word_set("since")
_TIME_LEADS = _SINCE | word_set("after before during following")
# What may stand between the lead and the event's word: a time's parts, a day's possessive
# and any plain modifier ("the 06:00", "yesterday's", "the timetable"), up to this many words.
_EVENT_MODIFIERS = 4
# What ends the event's phrase and leaves it a time: the end, a break, or a phrase it heads
# ("the release of monday"); a verb there makes the event a clause of its own ("since the
# deploy failed" gives a cause, "since the release is tagged" a state), read as before.
_EVENT_BREAK = re.compile(r"[,;:?!.()\[\]]|\s[-\u2013\u2014]+\s|[\u2013\u2014]")


def marks_time(shape: Shape, i: int, length: int) -> bool:
    """Is the act's word at ``i`` an event that only dates what is asked — the head of a
    phrase "since", "after", "before", "during" or "following" opens ("Oven 3 temperature
    since the 06:00 release?", "`berth-api` — version after redeploy?") — and nothing done?
    Not a gerund ("after deploying the app": the asker's step), not the subject of a clause
    ("since the deploy failed"), not taken up by a later step on a pronoun ("…, then run it
    again"), and, but after "since", not where a step is asked before the lead ("deploy the
    ward app after the standup", "continue after redeploy")."""
    words = shape.words
    w = words[i]
    if w.text.endswith("ing") or w.code or w.ident:
        return False
    lead = _time_lead(shape, i)
    if lead is None or not _ends_the_phrase(shape, i + length - 1):
        return False
    event = range(i, i + length)
    if pronoun_step_after(shape, i) or done_after(shape, i) or _named_again(shape, i, event):
        return False
    if _repeated(shape, event) or _elided_step(shape, w.sentence):
        return False
    if words[lead].text in _SINCE:
        return True
    return _dates_a_value(shape, lead) and not _step_in_sentence(shape, lead, event)


# Words that ask a thing done once more: beside an event, the event may be what is repeated
# ("since the last deploy, same again?").
_REPEATS = word_set("again same another repeat redo rerun")


def _repeated(shape: Shape, event: range) -> bool:
    """Does the question, outside the event's words, ask anything done again?"""
    return any(
        x.lemma in _REPEATS or x.text in _REPEATS
        for x in shape.words
        if not x.code and x.index not in event
    )


def _named_again(shape: Shape, i: int, event: range) -> bool:
    """Is the event's word said again elsewhere in the question ("the vat log since the
    deploy — and after that, the deploy itself?")? The second may be the act asked."""
    lemma = shape.words[i].lemma
    return any(x.lemma == lemma and x.index not in event for x in shape.words)


def _elided_step(shape: Shape, sentence: int) -> bool:
    """Does the sentence ask a step it leaves unsaid — a modal with its subject and no verb
    after them ("Before the deploy, should I?", "since the release, can we?")? What is left
    unsaid may be the event itself."""
    said = [x for x in shape.words if x.sentence == sentence]
    return any(
        x.text in MODAL_VERBS and all(y.text in SUBJECTS for y in said[n + 1 :])
        for n, x in enumerate(said)
    )


# Words that ask to go on, never the value an event dates ("ok after the release?").
_GO_WORDS = word_set("ok okay fine alright good yes no right sure go")


def _dates_a_value(shape: Shape, lead: int) -> bool:
    """Does the time phrase at ``lead`` follow the value it dates, a plain noun in the same
    phrase ("version after redeploy", "p95 during the last release"), not a go-ahead's word,
    a pronoun or a verb ("ok after the release?", "do it after the deploy")?"""
    words = shape.words
    if lead == 0 or words[lead - 1].sentence != words[lead].sentence:
        return False
    before = words[lead - 1]
    return not (
        _EVENT_BREAK.search(shape.gap(lead))
        or before.lemma in VERB_LIKE
        or before.lemma in ACTS_BY_FIRST
        or before.text in MODAL_VERBS
        or before.text in SUBJECTS
        or before.text in DETERMINERS
        or before.text in PREPOSITIONS
        or before.text in _GO_WORDS
    )


def _time_lead(shape: Shape, i: int) -> int | None:
    """The time preposition that opens the event's phrase ending at ``i``, back over its
    modifiers and never over a break, a verb, a negation or another preposition; or None."""
    words = shape.words
    for k in range(i - 1, max(-1, i - 2 - _EVENT_MODIFIERS), -1):
        x = words[k]
        if x.sentence != words[i].sentence:
            return None
        gap = shape.gap(k + 1)
        if _EVENT_BREAK.search(gap) and not (gap == ":" and x.text.isdigit()):
            return None  # "06:00" is one time, any other mark a break
        if x.text in _TIME_LEADS:
            return k
        if (
            x.text in PREPOSITIONS
            or x.text in NEGATORS
            or x.text in COPULAS
            or x.lemma in VERB_LIKE
            or x.lemma in ACTS_BY_FIRST
        ):
            return None
    return None


def _ends_the_phrase(shape: Shape, last: int) -> bool:
    """Does the event's phrase end at word ``last``: nothing after it in its sentence, a
    break, or a preposition opening a phrase it heads ("the release of monday")?"""
    words = shape.words
    nxt = last + 1
    if nxt >= len(words) or words[nxt].sentence != words[last].sentence:
        return True
    return bool(_EVENT_BREAK.search(shape.gap(nxt))) or words[nxt].text in PREPOSITIONS


def _step_in_sentence(shape: Shape, lead: int, event: range) -> bool:
    """Is a step asked in the sentence of the time lead at ``lead`` — a verb the gate
    knows, or an act's, standing as a verb ("Deploy the ward app after …", "Continue after
    …", "Before the deploy, should I start?")? A request for a value has none ("Queue length
    at the print shop after …")."""
    words = shape.words
    for x in words:
        if x.sentence != words[lead].sentence or x.index == lead or x.index in event:
            continue
        k = x.index
        known = x.lemma in VERB_LIKE or any(not a.noun for a in ACTS_BY_FIRST.get(x.lemma, ()))
        if known and verb_position(shape, k):
            return True
    return False


def _participle(w: Word) -> bool:
    """A past participle, regular or not ("deleted", "overwritten", "torn")."""
    return past_form(w) or (w.lemma != w.text and not w.text.endswith(("ing", "s")))


# The code things a secret's word may name by what they handle ("the password reset handler",
# "the token refresh endpoint"), never what holds secrets (a file, a config, a vault).
_CODE_OF_SECRETS = (
    ARTIFACTS
    - SECRET_HOLDERS
    - word_set("config configuration setting file code path query statement call prompt")
)


def _names_code_of_secrets(shape: Shape, i: int, length: int) -> bool:
    """Is the secret's word at ``i`` a modifier naming a piece of code or a page by what it
    handles ("in which file is the password reset handler?", "which service owns the token
    refresh endpoint?"): the question asks where or what that code is, no secret's value? The
    head must be a code thing that holds no secret; "the password for the reset handler",
    "the password file", "the token value" stay careful."""
    head = head_after(shape, i, length)
    return head is not None and shape.words[head].lemma in _CODE_OF_SECRETS


def mention(
    shape: Shape, i: int, length: int, family: str, *, noun: bool = False, code: bool = False
) -> bool:
    """Is the act's word at ``i`` only a mention: part of an identifier, negated,
    hypothetical, already done, or the object of a harmless act?"""
    w = shape.words[i]
    if family == "own_word":
        # "search the docs for how 'permanent ban' is defined": a term looked up, quoted;
        # said of the step, even quoted, it is the question's own word
        read = _term(shape, i) and governor_of(shape, i) == "read"
        return (read or _named_word(shape, i)) and not done_after(shape, i)
    if (
        (w.ident or _lone_name(shape, i))
        and not code
        and not run_as_command(shape, i)
        and not _runs_named(shape, i)
    ):
        return True  # `refund_all()`, "rename `pay`": a name, not the act
    if not code and _dry_run_clause(shape, i):
        return True  # "run the cleanup with `--dry-run`": the flag says nothing is done
    if _quoted(shape, i):
        return True  # 'Delete account' as a label, a message, a name: only words
    if negated(shape, i) or hypothetical(shape, i) or _reported(shape, i, noun):
        return True
    if _past_event(shape, i) and not pronoun_step_after(shape, i):
        return True  # "the postmortem of the outage where CDRs were deleted": what happened
    if marks_time(shape, i, length):
        return True  # "bed count since the last deploy": the event dates what is asked
    if noun and object_of_negated(shape, i):
        return True  # "I don't need the secrets themselves": nothing is done to them
    if _unrelated(shape, i):
        return True  # "it has nothing to do with payments": said to be no part of it
    if not noun and _done_to_nobody(shape, i + length - 1):
        return True  # "(prints only, emails nobody)": what is not done, told
    if not noun and family == "access" and _opens_a_text(shape, i):
        return True  # "open the overwrite-protection section of the ingest code": to read it
    if not noun and family in _LOCAL_FAMILIES and _askers_local_thing(shape, i, length):
        return True  # "kill my local jupyter kernel": the asker's own, on the asker's machine
    if not noun and family == "delete" and _askers_local_thing(shape, i, length, _MY_SESSION):
        return True  # "clear my own terminal scrollback": on the asker's screen only
    if family == "credentials" and _not_real(shape, i):
        return True  # "a fake token", "a dummy API key": a stand-in, no secret
    if family == "credentials" and noun and _names_what_is_run(shape, i):
        return True  # "the local OTP run": the trip planner's run, no one-time password
    if family == "credentials" and names_only(shape, i):
        return True  # "list the env var NAMES (not values)": a name tells no value
    if renamed(shape, i):
        return True  # "rename the variable `password_hint` to `pin_hint`": names only
    if family == "delete" and not noun and _code_element(shape, i + length):
        return True  # "remove the leftover debug print": a line of code, edited
    if family == "delete" and not noun and _blank_layout(shape, i + length):
        return True  # "delete the blank line at the end of my notes.md": no word is lost
    if family == "money" and _a_figure(shape, i, noun=noun) and computed(shape, i):
        return True  # "work out what the invoice would come to": a sum worked out, no payment
    if family == "delete" and not noun and _in_my_text(shape, i + length):
        return True  # "delete a typo in my own unsent draft": a word of the asker's text
    if family == "access" and not noun and _adds_a_quoted_term(shape, i, length):
        return True  # "add 'overwrite protection' to the ideas in my notes": words written
    if family in _CONFINED_FAMILIES and _in_throwaway_place(shape, i):
        return True  # "they create and drop tables in a disposable sqlite file"
    if not code and family != "credentials" and found_out(shape, i):
        return True  # "look up when the packager was last deployed": what is found out
    if not code and info_scope(shape, i):
        # "how long did the prod migration take?": asked about, not asked for; a secret
        # only when what is asked of it is not the secret ("when does the token expire?"),
        # or a process written or read about ("document how credential rotation works")
        return (
            family != "credentials"
            or asks_property(shape, i)
            or _process_written_about(shape, i)
            or _names_code_of_secrets(shape, i, length)
        )
    if family == "send" and not noun and _sent_to_the_asked(shape, i, length):
        return True  # "list the stale files and send you the list": the human is told
    if family == "send" and contact_asked(shape, i, noun=noun):
        return True  # "I must mail the on-call person — what address?": the asker is told
    if noun and family != "credentials" and topic_of_request(shape, i):
        return True  # "the newsletter goes out on which day?": what is asked about
    if not noun and family != "credentials" and _makes_a_document(shape, i):
        return True  # "add a test for the force-push protection hook": a test is made
    if not noun and _causative(shape, i):
        return False  # "want a summary of the outage posted to the status page?": to be done
    head = head_after(shape, i, length)
    if head is not None:
        head_word = shape.words[head]
        holds_secrets = family == "credentials" and head_word.lemma in SECRET_HOLDERS
        if not holds_secrets and (
            head_word.lemma in DOC_HEADS or not executed(shape, head) or dry_run(shape, head)
        ):
            return True
    if family == "credentials" and _reveals(shape, i):
        return False
    if noun and _finder(shape, i + length) and _run_or_read(shape, i) and not done_after(shape, i):
        return True  # "run the credentials-scanner over my branch": it looks for them
    if w.code and i > 0 and shape.words[i - 1].text in _COMMANDS and shape.words[i - 1].code:
        return False  # `make deploy`, `npm publish`: a command that does it
    if noun and set_for(shape, i):
        return False  # "the pupil files are flagged for deletion": set by it, never read
    governor = governor_of(shape, i)
    if noun and governor == "edit" and family in _MADE_FAMILIES and _creates(shape, i):
        return True  # "write the migration", "draft the announcement": made, not done
    return governor == "read" and not _holds_secret(shape, i, length, family)


# Who a message may go to and reach no one outside: the human the question is put to, or
# the asker ("send you the list", "email me the summary").
_THE_ASKED = word_set("you me")
# What joins a second recipient to the first ("you and the customer", "you, cc the vendor").
_MORE_RECIPIENTS = word_set("and or nor plus cc bcc")


def _sent_to_the_asked(shape: Shape, i: int, length: int) -> bool:
    """Is the message act at ``i`` sent only to the human the question is put to, or to the
    asker — the recipient right after the verb ("send you the list", "email me the summary")
    or the thing's "to" ending the clause ("send the list to you") — with no second recipient
    joined to it and no audience or channel named after the verb but in the thing sent ("send
    you the customer list")? What the human is sent reaches no one outside."""
    words = shape.words
    end = shape.sentences[words[i].sentence].end
    k = i + length
    if k >= end or words[k].clause_start:
        return False
    if words[k].text in _THE_ASKED:
        thing = (k + 1, _thing_end(shape, k + 1))
        joined = k + 1
    else:
        to = next(
            (
                j
                for j in range(k + 1, min(k + 9, end))
                if words[j].text == "to" or words[j].clause_start
            ),
            end,
        )
        if to + 1 >= end or words[to].text != "to" or words[to + 1].text not in _THE_ASKED:
            return False
        thing, joined = (k, to), to + 2
    if thing[0] >= thing[1] or thing[0] >= end or words[thing[0]].text in PREPOSITIONS:
        return False  # "send you to the vendor portal": where the human goes, no thing
    if joined < end and (
        words[joined].text in _MORE_RECIPIENTS or re.search(r"[,&/+]", shape.gap(joined))
    ):
        return False  # "send you and the vendor the list", "send it to you, the client"
    rest = [w for w in words[k:end] if not thing[0] <= w.index < thing[1]]
    return (
        not any(w.lemma in AUDIENCE or w.text in AUDIENCE for w in rest)
        and "#" not in (shape.text[words[k].start : words[end - 1].end])
    )


def _thing_end(shape: Shape, start: int) -> int:
    """One past the thing sent from ``start``: its object up to a preposition but "of"
    ("the list of failing tests"); "via the partner portal" says where it goes."""
    end = object_end(shape, start)
    return next(
        (
            j
            for j in range(start + 1, end)
            if shape.words[j].text in PREPOSITIONS and shape.words[j].text != "of"
        ),
        end,
    )


# What a document made is of: "a test for …", "a diagram of …", "notes about …".
_ABOUT = word_set("for of about")


# Tools that look for a thing and report where it is: running one does not do what its
# name says it looks for ("the credentials-scanner", "the deploy checker").
_FINDERS = word_set(
    """scanner scanners detector detectors checker checkers linter linters finder finders
    auditor"""
)


def _finder(shape: Shape, k: int) -> bool:
    """Is word ``k``, right after an act's noun, a tool that looks for what the noun names
    ("the credentials-scanner", "the secret detector"), and not a name in code
    (`secrets_scanner --rotate` runs what it runs)?"""
    words = shape.words
    if k >= len(words) or k == 0:
        return False
    w = words[k]
    return (
        w.lemma in _FINDERS
        and not w.clause_start
        and not w.ident
        and not w.code
        and not words[k - 1].ident
        and not words[k - 1].code
    )


# The verbs that only run a tool: what it does is what its name says.
_RUNS_A_TOOL = word_set("run rerun execute invoke launch start trigger use call")


def _run_or_read(shape: Shape, i: int) -> bool:
    """Is the phrase of word ``i`` the object of a verb that only runs or reads it ("run the
    secrets scanner", "rerun the token detector") — the first verb before it in its clause
    — never one that disables, removes or changes it ("disable the secret scanner")?"""
    words = shape.words
    for j in range(i - 1, -1, -1):
        w = words[j]
        if w.sentence != words[i].sentence:
            return False
        if verb_position(shape, j) and (w.lemma in VERB_LIKE or w.lemma in ACTS_BY_FIRST):
            return (w.lemma in _RUNS_A_TOOL or w.lemma in READ_VERBS) and not w.ident
        if w.clause_start:
            return False
    return False


def _makes_a_document(shape: Shape, i: int) -> bool:
    """Is the verb at ``i`` one that makes a thing ("add", "write", "draft") whose object is
    a document or a test of something ("add a test case for the force-push protection
    hook", "write a note about the billing permissions")? What the act's object words name
    is then what the document is about, not the act's object; a thing made for a place
    ("add a note to the status page") or a secret written into it is read as before."""
    words = shape.words
    if words[i].lemma not in CREATE_VERBS or not verb_position(shape, i):
        return False
    for j in range(i + 1, min(i + 6, len(words))):
        w = words[j]
        if w.clause_start or w.sentence != words[i].sentence:
            return False
        if w.text in _ABOUT:
            return j > i + 1 and _document_head(shape, j - 1)
        if w.text in PREPOSITIONS or w.lemma in VERB_LIKE:
            return False
    return False


def _document_head(shape: Shape, k: int) -> bool:
    """Is word ``k`` the head of a document's noun: a doc head, or one written apart with the
    word before it ("a test case": "testcase"; not "a test account")?"""
    words = shape.words
    return words[k].lemma in DOC_HEADS or (
        k > 0 and not words[k].clause_start and words[k - 1].text + words[k].text in DOC_HEADS
    )


def described(shape: Shape, i: int, length: int) -> bool:
    """Is the act's word at ``i``, a verb, a mention only because it describes what a thing
    does, inside what is read or written about ("explain how the job drops the partitions",
    "summarise how the bot emails every customer") — not a name, a dry run, a quotation, a
    negated, hypothetical, reported or past habit? Asked about ("how does the job drop
    them?") it is still described. Such an act is the thing's own, and a later step that
    runs the thing does it (``carried_out``)."""
    words = shape.words
    w = words[i]
    used_to = i > 1 and words[i - 1].text == "to" and words[i - 2].lemma == "use"
    return not (
        used_to  # "how the job used to drop them": what it no longer does
        or w.ident
        or _lone_name(shape, i)
        or _dry_run_clause(shape, i)
        or _quoted(shape, i)
        or negated(shape, i)
        or hypothetical(shape, i)
        or _reported(shape, i, False)
        or _unrelated(shape, i)
        or _code_element(shape, i + length)
        or _in_throwaway_place(shape, i)
    )


_COMMANDS = word_set("make npm yarn pnpm just task rake invoke bash sh python python3 node sudo")
_TEST_NAME = re.compile(r"(?:^|[/_.\s`-])tests?(?:[/_.\s`-]|$)|_spec\b|\.spec\.|\.test\.")


_MADE_FAMILIES = frozenset({"send", "deploy", "migrate", "delete", "money"})


def _creates(shape: Shape, i: int) -> bool:
    """Is the edit verb that governs word ``i`` one that makes a thing ("write", "draft")?"""
    words = shape.words
    aside = negated_aside(shape, i) or (i, i)
    for j in range(i - 1, -1, -1):
        if aside[0] <= j < aside[1]:
            continue  # "draft (not send) the email": made, its alternative not done
        if (words[j + 1].clause_start and j + 1 not in aside) or (
            words[j].sentence != words[i].sentence
        ):
            return False
        if words[j].lemma in EDIT_VERBS:
            return words[j].lemma in CREATE_VERBS
    return False


def run_as_command(shape: Shape, i: int, *, hyphens: bool = False) -> bool:
    """Is the identifier at ``i`` run ("run ./scripts/publish.sh", "`make deploy`"), not a
    test's name ("`pytest tests/test_force_push_guard.py`") nor read or edited? With
    ``hyphens``, a name joined by hyphens is one name too (`drop-db`, delete-all), and one
    that has a hyphen is run only by a command (`make`) or a verb that only runs things:
    "use `drop-down`", "import `drop-shipping.csv`" run nothing."""
    words = shape.words
    start = i
    while (
        start > 0
        and (words[start - 1].ident or (hyphens and _hyphened(shape, start)))
        and words[start - 1].sentence == words[i].sentence
    ):
        start -= 1
    end = i
    while end + 1 < len(words) and (
        words[end + 1].ident or (hyphens and _hyphened(shape, end + 1))
    ):
        end += 1
    name = shape.text[words[start].start : words[end].end]
    if _TEST_NAME.search(name):
        return False
    while start > 1 and words[start - 1].text in ("off", "up", "on", "out"):
        start -= 1  # "kick off ./scripts/reset.sh"
    before = words[start - 1] if start > 0 else None
    if before is not None and before.text in _COMMANDS and before.code:
        return True
    hyphened = hyphens and any(w.dash_prev for w in words[start + 1 : end + 1])
    verbs = RUNNING_VERBS if hyphened else EXEC_VERBS
    return before is not None and before.lemma in verbs and not words[start].clause_start


# The verbs whose object is only ever something run: "run delete-all", "kick off drop-db";
# never "use", "load", "import", "set", which take a name that is no command as often.
RUNNING_VERBS = word_set("run rerun execute trigger invoke kick launch")


def name_part(shape: Shape, i: int) -> bool:
    """Is word ``i`` a part of a name — glued to a neighbour by the marks that join a name's
    words: ``_ . / @ :`` (`drop_db`, ./reset.sh) or a hyphen (`drop-db`, delete-all)? Which
    mark joins them changes nothing of what the name says it does when it is run; a word
    that only a prefix makes a compound (`pre-deploy`, `non-delete`) names a time or a
    negation, not the act."""
    w = shape.words[i]
    return w.ident or _hyphened(shape, i) or (i + 1 < len(shape.words) and _hyphened(shape, i + 1))


def _hyphened(shape: Shape, k: int) -> bool:
    """Is word ``k`` joined to the word before it by a hyphen into one name (`drop-db`),
    the word before it no prefix (`pre-deploy`)?"""
    return shape.words[k].dash_prev and shape.words[k - 1].text not in NAME_PREFIXES


def name_end(shape: Shape, i: int) -> int:
    """One past the last word of the name word ``i`` is in (`drop-db`, ./reset_all.sh)."""
    return _ident_span(shape, i)[1] + 1


# Parts that make a compound's verb a time or a negation, not the act: `pre-deploy`,
# `post-release`, `non-delete`.
NAME_PREFIXES = word_set("pre post non anti before after un")


def _ident_span(shape: Shape, i: int) -> tuple[int, int]:
    """The first and last word of the name word ``i`` is in ("purge_all", "send_fn()")."""
    start = end = i
    while start > 0 and _glued(shape, start):
        start -= 1
    while end + 1 < len(shape.words) and _glued(shape, end + 1):
        end += 1
    return start, end


def _glued(shape: Shape, k: int) -> bool:
    """Is word ``k`` glued to the word before it into one name (no space between)?"""
    gap = shape.gap(k)
    return (
        k > 0
        and shape.words[k].sentence == shape.words[k - 1].sentence
        and gap != ""
        and not any(c.isspace() for c in gap)
        and "`" not in gap
    )


def _lone_name(shape: Shape, i: int) -> bool:
    """Is word ``i`` a name in backticks — one identifier, no spaces, not standing where a
    verb stands ("rename `pay` to `pay_invoice`", "the variable `refund`"), rather than a
    command (`` `make deploy` ``) or the step itself ("shall I `push`?")?"""
    w = shape.words[i]
    if not w.code:
        return False
    at = w.start
    opened = shape.text.rfind("`", 0, at)
    closed = shape.text.find("`", at)
    if opened < 0 or closed < 0 or any(c.isspace() for c in shape.text[opened + 1 : closed]):
        return False
    first = next(x for x in shape.words if x.end > opened)
    return not verb_position(shape, first.index)


def _runs_named(shape: Shape, i: int) -> bool:
    """Is the name at ``i`` what a thing that is run is called ("run the `purge_all`
    job")?"""
    _, end = _ident_span(shape, i)
    words = shape.words
    k = end + 1
    return (
        k < len(words)
        and not words[k].clause_start
        and words[k].lemma in ARTIFACTS
        and executed(shape, k)
    )


_DRY_FLAGS = word_set("noop no_op simulate whatif what_if")


def _dry_run_clause(shape: Shape, i: int) -> bool:
    """Is the act at ``i`` in a clause run with a dry-run flag ("run the cleanup with
    `--dry-run`", "execute the prune script with --dry-run"), and nothing else in the
    question a step to take ("… and then for real")? The flag and the verb say it only
    shows what it would do; a claim that it is safe says nothing."""
    words = shape.words
    start = clause_start(shape, i)
    end = clause_end(shape, i)
    flagged = any(
        (dry_run(shape, k) and _dry_mode(shape, k))
        or (
            ((dry_run(shape, k) and "-" in shape.gap(k - 1)) or _help_flag(shape, k))
            and _flag_of(shape, i, k)
        )
        or words[k].text in _DRY_FLAGS
        for k in range(max(start, 1), end)
    )
    if not flagged:
        return False
    for w in words:
        if start <= w.index < end or not verb_position(shape, w.index):
            continue
        steps = w.lemma in EXEC_VERBS | PROCEED_VERBS or any(
            not a.noun for a in ACTS_BY_FIRST.get(w.lemma, ())
        )
        if (
            steps
            and not hypothetical(shape, w.index)
            and w.lemma not in READ_VERBS
            and not _done_to_nobody(shape, w.index)
        ):
            return False  # "… and then for real", "then run it again"
    return not re.search(r"\bfor real\b|\bwithout\b|\bactual", shape.text)


# What joins a second thing run to the first: the flag after it is that thing's alone.
_RUN_JOINS = word_set("and or plus also then nor")


def _flag_of(shape: Shape, i: int, k: int) -> bool:
    """Is the flag at ``k`` the act's at ``i`` — written after it, with no second thing
    joined between them ("run the purge script with --help"; "run the purge script with
    --dry-run and the cleanup job" runs the cleanup job as it is)?"""
    words = shape.words
    if k <= i:
        return False
    if any(words[j].text in _RUN_JOINS for j in range(i + 1, k)):
        return False
    return not any(
        words[j].text in _RUN_JOINS and words[j].sentence == words[k].sentence
        for j in range(k + 1, clause_end(shape, k))
    )


# A flag that asks a script for its usage, which it prints and stops ("--help", "-h").
_HELP_FLAGS = {"help": "--", "h": "-"}


def _help_flag(shape: Shape, k: int) -> bool:
    """Is word ``k`` a help flag written as one ("`--help`", "--help", "`-h`"): the script
    prints how it is used and does nothing else? A word "help" in prose is none."""
    dashes = _HELP_FLAGS.get(shape.words[k].text)
    if dashes is None:
        return False
    before = shape.gap(k).lstrip(" `")
    return before == dashes and not (
        k + 1 < len(shape.words) and shape.gap(k + 1) in ("-", "_", ".")
    )  # "--help-all" or "-h.sh" is another name


_NOBODY = word_set("nobody nothing none noone")


def _done_to_nobody(shape: Shape, k: int) -> bool:
    """Is the verb at ``k`` said of nobody and nothing ("emails nobody", "deletes nothing"):
    what the run does not do, told beside it?"""
    words = shape.words
    after = words[k + 2] if k + 2 < len(words) else None
    return (
        k + 1 < len(words)
        and words[k + 1].text in _NOBODY
        and not words[k + 1].clause_start
        and not (after is not None and after.text in _BUT and not after.clause_start)
    )  # "emails nobody but the CFO" emails the CFO


_BUT = word_set("but except else other besides save")


# The acts whose harm is to what others keep or count on: on the asker's own machine, to
# the asker's own thing, nobody loses anything.
_LOCAL_FAMILIES = frozenset({"delete", "infrastructure", "cancel"})
_ON_MY_MACHINE = word_set("local locally localhost laptop workstation desktop")
# What of the asker's own session is only on the asker's screen: cleared, nobody loses
# anything ("clear my own terminal scrollback"); for deleting only, never a cancel.
_MY_SESSION = word_set("terminal scrollback shell console tmux")
# What reaches past the asker's machine, wherever the clause says it.
_BEYOND = (
    PROD_WORDS
    | SHARED_BRANCH
    | word_set(
        """remote remotes origin upstream shared team everyone everybody all every our their
    customer customers user users"""
    )
)


def _askers_local_thing(
    shape: Shape, i: int, length: int, machine: frozenset[str] = _ON_MY_MACHINE
) -> bool:
    """Is the object of the act at ``i`` the asker's own thing on the asker's own machine —
    "my" and a word of the machine ("local", "laptop") in it ("kill my local jupyter
    kernel", "delete the build folder on my laptop") — holding no data (a database, volumes,
    files, a branch: what is lost with them is work), and nothing in the sentence after the
    verb that reaches past it (production, a remote, a shared branch, others' things)?"""
    words = shape.words
    rest = [w for w in words[i + length :] if w.sentence == words[i].sentence]
    thing: list[Word] = []
    for w in rest:
        if w.text in _ELSEWHERE or (w.clause_start and thing):
            break  # "purge the cache on the build server from my laptop": not the thing's
        thing.append(w)
    said = {w.text for w in thing} | {w.lemma for w in thing}
    reach = {w.text for w in rest} | {w.lemma for w in rest}
    return (
        "my" in said
        and bool(said & machine)
        and not reach & _BEYOND
        and not said & (SHARED_THINGS - _COMPUTE | DATA_OBJECT)  # "my local docker volumes"
        and not any(w.ident or w.code for w in rest)
        and verb_position(shape, i)
        and not words[i].ident
    )


# What runs rather than keeps: a local one stopped or killed loses no one's data.
_COMPUTE = word_set(
    """server servers service services instance instances node nodes host hosts machine
    machines vm vms worker workers api gateway broker brokers cluster clusters pipeline
    pipelines site website environment"""
)
# What opens a phrase saying where the act is done from or goes to, not what it is done to.
_ELSEWHERE = word_set("from to for via through across into onto against and or then plus")


# The parts and kinds of a text a person opens to read ("the section on …", "the minutes").
TEXT_HEADS = word_set(
    """section chapter page paragraph article paper memo minutes policy sop slide slides
    talk lecture training course thread post handbook"""
)
_OPENED_TO = word_set("to for")


def _opens_a_text(shape: Shape, i: int) -> bool:
    """Is the verb at ``i`` "open" with a text for its object — the object's head, before
    "of" or the clause's end, a text's part or kind ("open the overwrite-protection
    section of the ingest code") — opened for nobody ("… to everyone", "… for the
    contractors") and with no later step but reading ("…, then disable it")?"""
    words = shape.words
    if words[i].lemma != "open" or not verb_position(shape, i):
        return False
    end = clause_end(shape, i)
    head = next((k for k in range(i + 1, end) if words[k].text in PREPOSITIONS), end) - 1
    if head <= i or words[head].lemma not in TEXT_HEADS | (DOC_HEADS - _NOT_TEXTS):
        return False
    for k in range(head + 1, end):
        purpose = k + 1 < len(words) and words[k + 1].lemma in READ_VERBS
        if words[k].text in _OPENED_TO and not purpose:
            return False  # "… to everyone", "… for the contractors"; "… to read it" reads
    return not done_after(shape, i) and not pronoun_step_after(shape, i)


# Heads a text shares with what is run or joined: "open a session", "open the test suite".
_NOT_TEXTS = word_set("session member agent bot test tests suite pr issue ticket")


# Nouns that name a word as a word: "the word 'irreversible'", "the label 'DESTRUCTIVE'".
_WORD_NOUNS = word_set("word words term phrase label wording")


def _named_word(shape: Shape, i: int) -> bool:
    """Is word ``i`` a quoted term right after a noun that names it as a word ("add the word
    'DESTRUCTIVE' to the help text"): the word itself, written somewhere, not the question
    saying its step is irreversible?"""
    words = shape.words
    return (
        _term(shape, i)
        and i > 0
        and words[i - 1].lemma in _WORD_NOUNS
        and words[i - 1].sentence == words[i].sentence
        and shape.text[words[i - 1].end : words[i].start].strip() in ("'", '"')
    )


_MODE_LEADS = word_set("in as")


def _dry_mode(shape: Shape, k: int) -> bool:
    """Is the dry run ending at word ``k`` the mode the act in its clause is done in — "in
    its dry-run mode", "in dry run mode", "as a dry run" — rather than a thing named beside
    it ("the dry run passed, now purge")?"""
    words = shape.words
    mode = k + 1 < len(words) and words[k + 1].lemma == "mode" and not words[k + 1].clause_start
    j = k - 2
    while j >= 0 and words[j].text in DETERMINERS and not words[j + 1].clause_start:
        j -= 1
    led = j >= 0 and words[j].text in _MODE_LEADS and not words[j + 1].clause_start
    return led and (mode or words[j].text == "as")


def _quoted(shape: Shape, i: int) -> bool:
    """Is word ``i`` inside quotation marks (a label or a message named, not an act)?"""
    text = shape.text
    at = shape.words[i].start
    line_start = max(text.rfind(".", 0, at), text.rfind("?", 0, at), -1) + 1
    before = text[line_start:at]
    for mark in ('"', "'"):
        opened = before.count(mark) - (before.count(f"n{mark}t") if mark == "'" else 0)
        if mark == "'":
            opened = len(re.findall(r"(?:^|[\s(\[])'", before)) - len(
                re.findall(r"'(?:[\s.,;:!?)\]]|$)", before)
            )
        if opened % 2 == 1 and mark in text[at:]:
            return True
    return False


# Words that give the thing before them its name: "a scenario called '…'", "a test named …".
_NAMING = re.compile(r"\b(?:called|named|titled|entitled|labell?ed)\s*$", re.IGNORECASE)


def quoted_name(shape: Shape, i: int) -> bool:
    """Is word ``i`` inside quotation marks that a naming word opens ("the simulator
    scenario called 'production outage'"): the name of the thing before it, no place?"""
    if not _term(shape, i):
        return False
    text = shape.text
    at = shape.words[i].start
    opening = max(text.rfind("'", 0, at), text.rfind('"', 0, at))
    return opening > 0 and _NAMING.search(text[:opening]) is not None


def _term(shape: Shape, i: int) -> bool:
    """Is word ``i`` a quoted term ("how 'permanent ban' is defined"): inside quotation
    marks, its first word too?"""
    at = shape.words[i].start
    mark = shape.text[at - 1 : at]
    opens = mark in ("'", '"') and shape.text[at - 2 : at - 1] in ("", " ", "(")
    return _quoted(shape, i) or (opens and mark in shape.text[shape.words[i].end :])


# Verbs that show a credential, and those that hand it to someone.
_REVEALING = word_set("print show echo reveal display paste dump")
_HANDING = word_set("send share give tell copy post email output log")


def _reveals(shape: Shape, i: int) -> bool:
    """A credential asked for, shown or handed over ("what is the password", "print the
    token")."""
    words = shape.words
    for j in range(i - 1, max(-1, i - 9), -1):  # "print the private half of the signing key"
        if words[j].lemma in _REVEALING:
            return True
        if words[j].clause_start or words[j].sentence != words[i].sentence:
            break
        if words[j].lemma in DOC_HEADS:
            break  # "show me the README section on the api key": a doc about it
    return False


def _process_written_about(shape: Shape, i: int) -> bool:
    """Is the secret at ``i`` in how a process works, what a reading or making verb works on
    ("document how credential rotation works"), with no later step that may do something to
    it or show it?"""
    opening = manner_opening(shape, i)
    return (
        opening is not None
        and written_about(shape, opening, i)
        and not done_after(shape, i)
        and not pronoun_step_after(shape, i)
        and not _revealed_after(shape, i)
    )


def _revealed_after(shape: Shape, i: int) -> bool:
    """Does a later verb, not negated, show or hand something over ("explain how the key is
    stored, then show it to me")? After a secret only written about, it may be the secret."""
    return any(
        (w.lemma in _REVEALING | _HANDING)
        and verb_position(shape, w.index)
        and not negated(shape, w.index)
        for w in shape.words[i + 1 :]
    )


def _holds_secret(shape: Shape, i: int, length: int, family: str) -> bool:
    if family != "credentials":
        return False
    end = i + length
    words = shape.words
    if _dotfile(shape, i):
        return True  # ".env", "`.netrc`": the file named on its own holds the secret
    return end < len(words) and words[end].lemma in SECRET_HOLDERS and not words[end].clause_start


def _dotfile(shape: Shape, i: int) -> bool:
    """Is word ``i`` a file named by its dotted name alone (".env", "`.netrc`"), a dot right
    before it and no word glued before the dot?"""
    at = shape.words[i].start
    return at > 0 and shape.text[at - 1] == "." and (at < 2 or shape.text[at - 2] in " \t\n`'\"(")


# Verbs whose only work is to find a thing out or work it out: what a question word opens
# after one is what the asker will know ("look up when …", "count how many …", "estimate
# what …"), nothing done.
_FINDING_OUT = READ_VERBS | word_set("estimate tell know see learn calculate compute work figure")
# What may stand between such a verb and its question word: a particle ("look up", "find
# out", "work out") or the one told ("tell me").
_FINDING_PARTICLES = word_set("up out at into over through me us")
# What opens the clause found out, besides a question word ("check whether …", "see if …").
_FOUND_OPENERS = WH | word_set("whether if")
# What makes the act the asker's, to come, not supposed or told: "which table should I drop",
# "which rows to purge", "which tables the team plans to drop".
_TO_BE_DONE = word_set(
    """to should shall must will ll can going gonna need needs want wants plan plans planning
    let"""
)
# What a supposition says: "what we'd pay", "how many would be affected if we dropped it".
_SUPPOSING = word_set("would could might d")
# Words that join a step of its own to what is found out ("…, then drop it").
_OWN_STEP = word_set("and then also plus next so but or")
# What opens a clause telling a step beside what is found out ("… before we deploy", "… once
# you have paid them", "… without deleting it").
_STEP_CLAUSES = word_set("before after until till once while whenever unless by without")
_BREAK = re.compile(r"[,:;()]|\s[-\u2013\u2014]+\s|[\u2013\u2014]")
# The asker and the one asked: an act either does is a step of the exchange.
_ASKERS_SELF = word_set("i we me us you")
# Times still to come: an act of the asker's said with one is planned ("… we drop tonight").
_TO_COME_TIMES = word_set("tonight tomorrow now next later soon upcoming")


def found_out(shape: Shape, i: int) -> bool:
    """Is the act at ``i`` inside a clause a question word, "whether" or "if" opens as the
    object of a verb that only finds out or works out ("look up when the packager was last
    deployed", "count how many titles would be affected if we dropped the rung", "estimate
    what we'd pay for an extra pickup") — told as done, supposed, or a thing's own, never the
    asker's to come ("check which table I should drop", "find out which rows to purge"), no
    step joined between them and no later step that may do it ("…, then drop it")? What is
    found out is what the asker will know; the act is its topic, no part of the finding."""
    words = shape.words
    sentence = words[i].sentence
    if words[i].text.endswith("ing") and words[i].lemma != words[i].text:
        return False  # "check the tests pass before deploying": a step of the asker's
    for j in range(i - 1, -1, -1):
        w = words[j]
        if w.sentence != sentence or _BREAK.search(shape.gap(j + 1)):
            return False
        if w.text in _OWN_STEP | _STEP_CLAUSES or (
            w.text in _TO_BE_DONE and not _to_a_place(shape, j)
        ):
            return False
        if w.text not in _FOUND_OPENERS:
            continue
        k = j - 1
        while k >= 0 and words[k].text in _FINDING_PARTICLES and not words[k].clause_start:
            k -= 1
        if k < 0 or words[k].sentence != sentence:
            continue
        verb = words[k]
        if verb.lemma not in _FINDING_OUT or verb.ident or verb.code:
            continue
        if not verb_position(shape, k) or negated(shape, k):
            continue
        if verb.lemma in ("work", "figure") and words[k + 1].text != "out":
            continue
        return _not_the_askers_to_come(shape, j, i, verb) and not (
            done_after(shape, i) or _step_on_it_after(shape, i)
        )
    return False


def _step_on_it_after(shape: Shape, i: int) -> bool:
    """Does any later verb but reading, not negated, take a pronoun among the three words
    after it ("…, then drop them", "and approve it")? The pronoun may be what was found out
    about; a step the gate does not know counts too. "not ordering it" is no step."""
    words = shape.words
    for w in words[i + 1 :]:
        if (
            w.text in NEGATORS
            or w.lemma in READ_VERBS
            or not verb_position(shape, w.index)
            or negated(shape, w.index)
        ):
            continue
        for x in words[w.index + 1 : w.index + 4]:
            if x.clause_start or x.sentence != w.sentence:
                break
            if x.text in ANAPHORS and not _determiner(shape, x.index):
                return True
    return False


# What may follow a pronoun that is an object ("run it again", "kick it off", "send it to …").
_AFTER_AN_OBJECT = PREPOSITIONS | word_set("again now off up out down too")


def _determiner(shape: Shape, k: int) -> bool:
    """Is the demonstrative at ``k`` a determiner before its noun ("this week", "that
    file"), no pronoun standing for a thing?"""
    words = shape.words
    after = words[k + 1] if k + 1 < len(words) else None
    return (
        words[k].text in _DEMONSTRATIVES
        and after is not None
        and after.sentence == words[k].sentence
        and not after.clause_start
        and after.text not in _AFTER_AN_OBJECT
    )


_DEMONSTRATIVES = word_set("this that these those")


def _to_a_place(shape: Shape, k: int) -> bool:
    """Is word ``k`` the preposition "to" before a thing or a place ("deployed to prod",
    "moved to the archive"), not an infinitive's ("which rows to purge")?"""
    words = shape.words
    return (
        words[k].text == "to"
        and k + 1 < len(words)
        and not words[k + 1].clause_start
        and (words[k + 1].text in DETERMINERS or words[k + 1].text in PROD_WORDS | NON_PROD)
    )


def _not_the_askers_to_come(shape: Shape, j: int, i: int, verb: Word) -> bool:
    """Is the act at ``i``, found out by ``verb`` in the clause that opens at ``j``, not the
    asker's own act to come: the asker (or the one asked) not its subject, or it told as done
    ("when we last deployed"), or supposed ("what we'd pay") by a verb that only reckons or
    tells — never one that may find out by trying ("check what would break if we restarted
    it") — at no time still to come ("… tonight")?"""
    words = shape.words
    between = {w.text for w in words[j + 1 : i]}
    if not between & _ASKERS_SELF:
        return True
    later = any(w.text in _TO_COME_TIMES for w in shape.sentence_words(words[i].sentence))
    supposed = bool(between & _SUPPOSING)
    if supposed or "if" in between:
        return not later and supposed and verb.lemma in _RECKONING
    return not later and past_form(words[i])  # "when we last deployed": told as done


# Verbs that find a thing out by reckoning or telling, never by trying it.
_RECKONING = word_set(
    """count estimate calculate compute work figure explain describe tell summarize summarise
    list look document outline compare know learn"""
)


# The noun that asks a secret's name, and those of what a name is denied to be.
_NAME_NOUNS = word_set("name names")
_VALUE_NOUNS = word_set("value values secret secrets content contents")
_DENIALS = word_set("not no without never")
_THEIR = word_set("their its")
# What leads an example of the names asked ("…, like STRIPE_SECRET_KEY").
_EXAMPLE_LEADS = word_set("like e g eg such as")


def names_only(shape: Shape, i: int) -> bool:
    """Is the secret's word at ``i`` only a name: a modifier of "names" ("secret names",
    "the env var NAMES"), or an example given after them ("…, like STRIPE_SECRET_KEY"),
    where the names' values are denied right after the noun ("NAMES (not values)", "names
    only, no values") and no verb after the denial shows or hands anything over ("…, then
    print the values")? A list of names tells no value; asking the values stays careful."""
    words = shape.words
    sentence = words[i].sentence
    for n in range(len(words)):
        if words[n].sentence != sentence or words[n].lemma not in _NAME_NOUNS:
            continue
        denial_end = _values_denied(shape, n)
        if denial_end is None or _revealed_after(shape, denial_end - 1):
            continue
        if i < n and all(
            not words[k].clause_start
            and words[k].text not in DETERMINERS | PREPOSITIONS
            and words[k].lemma not in VERB_LIKE
            for k in range(i + 1, n + 1)
        ):
            return True  # "secret names", "env var names"
        if (
            i >= denial_end
            and words[i - 1].text in _EXAMPLE_LEADS
            and _one_phrase(shape, denial_end, i)
        ):
            return True  # "… NAMES (not values) the service reads, like STRIPE_SECRET_KEY"
    return False


def _values_denied(shape: Shape, n: int) -> int | None:
    """One past the denial of values right after the names noun at ``n`` ("names (not
    their values)", "names only, no values"), or None."""
    words = shape.words
    k = n + 1
    if k < len(words) and words[k].text == "only":
        k += 1
    if k >= len(words) or words[k].text not in _DENIALS or words[k].sentence != words[n].sentence:
        return None
    k += 1
    while k < len(words) and words[k].text in DETERMINERS | _THEIR:
        k += 1
    if k < len(words) and words[k].lemma in _VALUE_NOUNS:
        return k + 1
    return None


def _one_phrase(shape: Shape, start: int, end: int) -> bool:
    """Are the words from ``start`` to ``end`` one phrase of the names asked — no step
    joined ("and", "then"), no verb that shows or hands over ("… and print KEY")?"""
    return not any(
        w.text in _OWN_STEP or w.lemma in _REVEALING | _HANDING for w in shape.words[start:end]
    )


# What may stand between "rename" and the name it changes: the thing's determiner, owner and
# kind ("my local branch", "the variable"), and the words of the name itself.
_RENAME_LEADS = DETERMINERS | word_set("my our your its their local own")
_RENAME_LINKS = word_set("to from as into")


def renamed(shape: Shape, i: int) -> bool:
    """Is the word at ``i`` part of a name written as one — in backticks, an identifier or
    quoted — that "rename" changes or gives ("rename the variable `password_hint` to
    `pin_hint`", "rename my local branch `delete-old-coupons` to `coupon-cleanup`"), in the
    verb's own clause with no step joined between and none after on it ("… and run it")?
    Renaming changes what a thing is called; a risky word in either name does nothing."""
    words = shape.words
    w = words[i]
    if not (w.code or w.ident or _term(shape, i)):
        return False
    sentence = w.sentence
    for j in range(i - 1, -1, -1):
        x = words[j]
        if x.sentence != sentence or _BREAK.search(shape.gap(j + 1)):
            return False
        if x.lemma == "rename" and not (x.code or x.ident):
            return (
                verb_position(shape, j)
                and not negated(shape, j)
                and not done_after(shape, i)
                and not _step_on_it_after(shape, i)
                and not _revealed_after(shape, i)  # "… and print it"
            )
        if words[j + 1].clause_start and not (words[j + 1].code or words[j + 1].ident):
            return False
        named = x.code or x.ident or _term(shape, j)
        if not named and x.text in _OWN_STEP:
            return False
        if (
            not named
            and (x.lemma in VERB_LIKE or x.lemma in ACTS_BY_FIRST)
            and verb_position(shape, j)
        ):
            return False
        if not named and x.text not in _RENAME_LEADS | _RENAME_LINKS and j < i - 6:
            return False  # the name's thing said in a few words, never a sentence
    return False
