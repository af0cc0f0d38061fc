"""How a careful verdict's reason is said plainly (``said_plainly``): the act it found read as
a real verb of the question and a clean object, else the asker's own words quoted.

The finders compose a reason from a question's shape: the act's verb and its object, or the
word standing before an act's noun read as its verb. That reading goes wrong on words that
only stand where a verb stands — a sentence's first word ("Akamai's slice …" → "it akamais"),
a preposition ("plan for the prod CDN module" → "it fors"), a word inside a noun phrase ("the
09:40 deploy", "the cloud spending limit") or glued into a compound ("Drop-shipment",
"Hard-delete") — and on objects cut at a guessed end: run on into the next clause ("… there
is fine") or the next step of a plan ("… main 4) update docs"), half a quotation ("flags
overwrite' in a comment"), a noun phrase cut before its head ("my local OTP" of "my local OTP
instance"). A person reading the card cannot tell what act was found from such a reason.

This module changes words only: which act was found, and whether the question is careful,
are the finders' (SPEC §4: "A careful verdict's reason names the act it found, in words a
person recognises, never a matched word out of context"). Where the verb or the object cannot
be read cleanly, the reason says which word it found and where, in the asker's words: "it
mentions 'deploy' ('since the 09:40 deploy'): a word of an act that deploys, releases or
publishes".
"""

from __future__ import annotations

import re

from crewline.policy.acts import FAMILY_SAYS, PROD_WORDS, SPELLED, WORD_ACTS, third_person
from crewline.policy.careful.objects import DISPLAY, glued, phrase_of
from crewline.policy.careful.verdicts import Act
from crewline.policy.careful.words import (
    ACTS_BY_FIRST,
    COPULAS,
    DETERMINERS,
    HELPING_VERBS,
    NEGATORS,
    OBJECT_STOP,
    PREPOSITIONS,
    PRONOUNS,
    SUBJECTS,
    TIME_WORDS,
    VERB_LIKE,
    VERB_POSITION_BEFORE,
    WH,
)
from crewline.policy.clauses import BOUNDARY_WORDS, FILLERS, Shape, Word
from crewline.policy.lemmas import known
from crewline.policy.wording import word_set

# Reasons whose words are the finders' own, not a verb read from the question: they name the
# act by what it is ("runs `rm -rf /srv`", "moves money ($400)", "touches a secret (.env)").
_TEMPLATES = (
    "runs `",
    "touches a secret",
    "moves money",
    "says so itself",
    "asks for ",
    "mentions '",
)

# The verbs a reason may say: the gate's verb lists (read, run, go on, edit) and the verbs of
# its acts, with the verbs that govern a thing handed over or let happen. A word outside them
# read as a verb only because of where it stands ("Akamai's …", "as student …") is no verb.
_OTHER_VERBS = word_set(
    """let give hand put take tell ask send bring get make keep leave open close turn wipe
    reply answer fill paste print share post sign book confirm accept pay need want copy
    say mute point"""
)
_KNOWN_VERBS = VERB_LIKE | _OTHER_VERBS | frozenset(a.lemmas[0] for a in WORD_ACTS if not a.noun)

# Words that are never a verb, wherever they stand ("plan only … for the prod CDN module",
# "A student forgot …" read from "as").
_FUNCTION_WORDS = (
    PREPOSITIONS | DETERMINERS | SUBJECTS | WH | HELPING_VERBS | COPULAS | BOUNDARY_WORDS
)

# Words that cannot stand first in a noun phrase a reason says as the act ("What should the
# new alerts channel be called", "I need the production webhook URL", "to the staging
# namespace …"): a clause or a prepositional phrase, not a thing.
_NOT_A_PHRASE_START = WH | HELPING_VERBS | PREPOSITIONS | word_set("i we you he she they")

# Where a run-on into the next step of a plan starts inside a phrase: "… main 4) update docs",
# "… main. proceed with the plan".
_PLAN_STEP = re.compile(r"\s(?:\d+[.)]|[-*•]|\[[ x]\])\s|(?<![A-Z][a-z])(?<!\b[A-Z])[.!?;]\s+\S")
# A quotation mark that opens (after a space or the start) or closes (before a space, a
# punctuation mark or the end) a quotation, never an apostrophe inside a word ("agency's").
_OPENING = re.compile(r"(?:^|(?<=[\s(\[]))['\"\u2018\u201c]")
_QUOTATION = re.compile(
    r"(?:^|(?<=\s))['\"\u2018\u201c][^'\"\u2018\u201c\u2019\u201d]*['\"\u2019\u201d]"
    r"(?=$|[\s,.;:!?)])"
)
_CLOSING = re.compile(r"['\"\u2019\u201d](?=$|[\s,.;:!?)\]])")

# Words after an object that end it where it is: a reason may stop before them whole.
_ENDS_A_PHRASE = (
    PREPOSITIONS
    | DETERMINERS
    | TIME_WORDS
    | PRONOUNS
    | SUBJECTS
    | WH
    | COPULAS
    | HELPING_VERBS
    | NEGATORS
    | OBJECT_STOP
    | BOUNDARY_WORDS
    | FILLERS
    | VERB_LIKE
    | _KNOWN_VERBS
    | word_set("here there too instead earlier already yet still ago anyway together again")
)


def said_plainly(shape: Shape, act: Act) -> Act:
    """``act`` as found when its reason reads cleanly, else the same act with the asker's
    words quoted; a command span run on into the next step of a plan is cut where it ends."""
    if act.says.startswith("runs `"):
        return _command_cut(act)
    if act.says.startswith(_TEMPLATES):
        return act
    wrong = garbled(shape, act)
    if wrong is None:
        return act
    mend = {
        "half a code span": _quotation_mended,
        "half a quotation": _quotation_mended,
        "cut before its head": _head_added,
    }.get(wrong)
    mended = mend(shape, act) if mend is not None else None
    if mended is not None and garbled(shape, mended) is None:
        return mended
    mention = _mention(shape, act)
    return act if mention is None else mention


def _quotation_mended(shape: Shape, act: Act) -> Act | None:
    """The act with the code span or quotation its object cut in half said whole, as the
    asker wrote it: "overwrites `/archive/exports/rain_daily_v5.nc` with my test output",
    never "overwrites archive/exports/rain_daily_v5.nc` with …"; "adds 'admin' to Bob's
    roles", never "adds admin' to …"; a span cut inside is said to its end."""
    said = (act.says.partition(" ")[2] if act.verb else act.says).split(", which ", 1)[0]
    text = _display_text(shape)
    for mark in ("`", "'", '"'):
        marks = [k for k, c in enumerate(said) if c == mark and not _apostrophe(said, k)]
        if len(marks) != 1:
            continue
        before, after = said[: marks[0]], said[marks[0] + 1 :]
        for span in re.finditer(f"{mark}[^{mark}\\n]+{mark}", text):
            inside = span.group(0)[1:-1]
            if before and not after.startswith(" ") and inside.startswith(after.strip()):
                mended = f"{before}{span.group(0)}"  # opened, cut inside: said to its end
            elif before.strip() and inside.endswith(before.strip()):
                mended = f"{span.group(0)}{after}"  # closed, opened before: said whole
            else:
                continue
            return Act(
                family=act.family,
                says=act.says.replace(said, mended, 1),
                verb=act.verb,
                sentence=act.sentence,
                at=act.at,
                gloss=act.gloss,
                effect=act.effect,
            )
    return None


def _apostrophe(said: str, k: int) -> bool:
    """Is the mark at ``k`` an apostrophe inside a word ("Bob's"), no quotation mark?"""
    return 0 < k < len(said) - 1 and said[k - 1].isalnum() and said[k + 1].isalnum()


def _adds_nothing(around: str, word: str) -> bool:
    return not around or around.lower() == word.lower()


def garbled(shape: Shape, act: Act) -> str | None:
    """What is wrong with how ``act``'s reason reads, or None when it reads cleanly: its verb
    is no real verb of the question, or its object is not a clean phrase."""
    if act.says.startswith(_TEMPLATES):
        return None
    if act.verb:
        verb, _, said = act.says.partition(" ")
        word = _verb_word(shape, act, verb)
        if word is not None:
            wrong = _not_a_verb(shape, word, verb)
            if wrong is not None:
                return wrong
        if not said and (word is None or not _ends_its_clause(shape, word)):
            return "a verb with no object"
    else:
        said = act.says
        first = said.split(" ", 1)[0].lower()
        if first in _NOT_A_PHRASE_START:
            return "a clause, not a thing"
        at = _word_at(shape, act.at)
        if at is not None and _cut_token(shape, at, said):
            return "a token cut"
    return _unclean_object(shape, act, said)


def _verb_word(shape: Shape, act: Act, verb: str) -> Word | None:
    """The word of the question the reason's verb was read from: the last word at or before
    the act's own word, in its sentence, whose lemma the verb says."""
    at = _word_at(shape, act.at)
    if at is None:
        return None
    head = verb.split("-", 1)[0]
    for w in reversed(shape.words[: at.index + 1]):
        if w.sentence != at.sentence:
            break
        said = third_person(SPELLED.get(w.lemma, w.lemma))
        if said in (verb, head) or w.text == head:
            return w
    return None


# What a participle goes on with when it says where a thing is to go ("a summary of the
# outage posted to the status page"), not who did it ("approved by the owner").
_PLACE_PREPOSITIONS = word_set("to into onto on in at for with")


def _participle_to_a_place(shape: Shape, w: Word) -> bool:
    nxt = shape.words[w.index + 1] if w.index + 1 < len(shape.words) else None
    return nxt is not None and nxt.sentence == w.sentence and nxt.text in _PLACE_PREPOSITIONS


def _ends_its_clause(shape: Shape, w: Word) -> bool:
    """Does the verb ``w``, in its base form, end its clause ("so I can push?", "squash and
    force-push …"): then the verb alone is what the question asks?"""
    nxt = shape.words[w.index + 1] if w.index + 1 < len(shape.words) else None
    ends = (
        nxt is None or nxt.clause_start or nxt.sentence != w.sentence or nxt.text in BOUNDARY_WORDS
    )
    return ends and w.text == w.lemma


def _not_a_verb(shape: Shape, w: Word, verb: str) -> str | None:
    """Why the word ``w`` the reason reads as ``verb`` is no verb of its sentence, or None."""
    if w.text in _FUNCTION_WORDS or not known(w.text):
        return "no verb: a function word or a name"  # "for the prod …", "Akamai's …"
    if w.ident or (w.dash_next and "-" not in verb) or _dashed_onto_a_noun(shape, w):
        return "part of a name or a compound"
    if w.text != w.lemma and w.text.endswith("ed") and not _participle_to_a_place(shape, w):
        return "a past form, no step asked"  # "the owner pre-approved all deploys"
    if _inside_a_noun_phrase(shape, w):
        return "inside a noun phrase"
    return None


# What may stand before a verb joined by a dash: a prefix ("auto-approve", "re-run") or a
# conjunction ("archive-and-remove").
_DASHED_ONTO = word_set("auto pre re co un de self double bulk mass and or then")


def _dashed_onto_a_noun(shape: Shape, w: Word) -> bool:
    """Is ``w`` the second half of a compound ("old-releases", "oncall-payments")?"""
    return w.dash_prev and w.index > 0 and shape.words[w.index - 1].text not in _DASHED_ONTO


def _inside_a_noun_phrase(shape: Shape, w: Word) -> bool:
    """Does a determiner open the phrase ``w`` stands in, with only modifiers between ("the
    09:40 deploy", "the cloud spending limit", "their DROP TABLE statements"), or a
    preposition stand right before it ("version after redeploy")? Then ``w`` is a noun's part,
    never the verb. A finite form ("its teardown deletes …", "the last step sends …") is the
    verb of the phrase before it."""
    if w.text != w.lemma and w.text.endswith(("s", "ed")) and _object_follows(shape, w):
        return False
    if w.text != w.lemma and w.text.endswith("ed") and _participle_to_a_place(shape, w):
        return False  # "a summary of the ward closure posted to the status page"
    if w.code:
        return False  # SQL or a command's own words ("`DROP DATABASE …`")
    before = shape.words[w.index - 1] if w.index > 0 else None
    if (
        before is not None
        and (not w.clause_start or before.text in BOUNDARY_WORDS)
        and before.sentence == w.sentence
        and before.text in PREPOSITIONS
        and before.text != "to"
        and not w.text.endswith("ing")
    ):
        return True
    for j in range(w.index - 1, -1, -1):
        before = shape.words[j]
        if before.sentence != w.sentence or shape.words[j + 1].clause_start:
            return False
        if before.text in _NOUN_DETERMINERS or _possessive_s(shape, before):
            return True
        if (
            before.lemma in _KNOWN_VERBS
            or before.text in PREPOSITIONS
            or before.text in SUBJECTS
            or before.text in HELPING_VERBS
            or before.text in FILLERS
            or before.text in NEGATORS
            or before.text in VERB_POSITION_BEFORE
        ):
            return False  # "the bot gonna post …": a verb after what leads one
    return False


def _object_follows(shape: Shape, w: Word) -> bool:
    """Does an object start right after ``w`` (a determiner, a pronoun or a number: "deletes
    the shared exam database"), as after a finite verb, not a preposition ("March's dairy
    invoices in the …")?"""
    nxt = shape.words[w.index + 1] if w.index + 1 < len(shape.words) else None
    return (
        nxt is not None
        and nxt.sentence == w.sentence
        and (nxt.text in DETERMINERS or nxt.text in PRONOUNS or nxt.text.isdigit())
    )


def _possessive_s(shape: Shape, w: Word) -> bool:
    """Is ``w`` the "s" of a possessive ("March's dairy invoices"), not of "let's"?"""
    return (
        w.text == "s"
        and glued(shape, w.index)
        and w.index > 0
        and shape.words[w.index - 1].text != "let"
    )


# The determiners that open a noun phrase ("let's" is no "s" determiner, "this" and "that"
# may be a verb's subject: "that deletes …").
_NOUN_DETERMINERS = word_set(
    "the a an my our your their its his her these those some every each any another"
)


def _unclean_object(shape: Shape, act: Act, said: str) -> str | None:
    """Why the phrase a reason says is no clean phrase: it runs on into another clause (a
    copula of its own), or the next step of a plan, holds half a quotation, or is cut before
    the head of its noun phrase."""
    # what a code span or a quotation holds is the asker's text, said whole: no clause of
    # the reason's ("sends the 'your statement is ready' email")
    said = said.split(", which ", 1)[0]  # the finder's own words of what the act does
    plain = re.sub(r"`[^`]*`", "`x`", said)
    plain = _QUOTATION.sub("'x'", plain)
    if plain.count("`") % 2:
        return "half a code span"
    if len(_OPENING.findall(plain)) != len(_CLOSING.findall(plain)) and not _possessive(plain):
        return "half a quotation"
    if _copula_run_on(plain, act.verb):
        return "runs on into another clause"
    if _PLAN_STEP.search(plain):
        return "runs on into the next step"
    if _cut_before_its_head(shape, act, said):
        return "cut before its head"
    return None


def _copula_run_on(plain: str, verb: bool) -> bool:
    """Does the phrase hold a copula of its own: after a verb's object ("deletes corrupt
    uploads is safe") always; in a thing said with what waits for it ("the patients_old table
    is scheduled for removal", "the old key gets destroyed"), only where no participle or
    state of waiting follows it ("the default is production")."""
    said = re.findall(r"[a-z']+", plain.lower())
    for k, word in enumerate(said):
        if word not in COPULAS:
            continue
        if verb:
            return True
        nxt = said[k + 1] if k + 1 < len(said) else ""
        if not (nxt.endswith("ed") or nxt in _WAITING):
            return True
    return False


# What a thing is said to be before its act ("due for erasure", "up for deletion").
_WAITING = word_set("due up set about going marked flagged earmarked scheduled slated")


def _possessive(said: str) -> bool:
    """A plural's possessive ("the partners' mailing list") is the only closing mark without
    an opening one a clean phrase holds."""
    return not _OPENING.findall(said) and all(
        said[m.start() - 1 : m.start()] == "s" for m in _CLOSING.finditer(said)
    )


def _cut_before_its_head(shape: Shape, act: Act, said: str) -> bool:
    """Is the phrase cut short of its noun phrase's head: a short phrase the question goes on
    after with a plain noun of the same phrase ("my local OTP" of "let my local OTP instance
    run", "the Payments" of "open the Payments tab")? A phrase cut at the reason's length
    limit is cut on purpose and is not counted."""
    return _head_after(shape, act, said) is not None


def _head_after(shape: Shape, act: Act, said: str) -> Word | None:
    """The word right after the short phrase ``said`` in the question that goes on with it:
    a plain word, no preposition, verb, function word or inflected form ("the purge works"
    ends at "purge"), with no punctuation between."""
    if not said or len(said.split()) > 5:
        return None
    text = shape.text
    at = text.find(said.lower(), max(0, act.at - 80))
    if at < 0:
        return None
    end = at + len(said)
    after = next((w for w in shape.words if w.start >= end), None)
    if after is None or text[end : after.start].strip():
        return None  # punctuation ends it
    last = next((w for w in reversed(shape.words) if w.end <= end), None)
    if last is None or last.sentence != after.sentence or after.clause_start:
        return None
    then = shape.words[after.index + 1] if after.index + 1 < len(shape.words) else None
    if then is not None and then.text == "than":
        return None  # "every API key older than 90 days": a comparison, not a noun
    plain = (
        after.text.isalpha()
        and after.text == after.lemma
        and after.text not in _ENDS_A_PHRASE
        and not after.text.endswith(("ly", "ing", "ed"))
    )
    return after if plain else None


def _head_added(shape: Shape, act: Act) -> Act | None:
    """The act with its object said to the head of its noun phrase ("opens the Payments tab",
    "disables the pre-commit secret scanner"), at most two words on."""
    says = act.says
    for _ in range(2):
        said = (says.partition(" ")[2] if act.verb else says).split(", which ", 1)[0]
        head = _head_after(shape, act, said)
        if head is None:
            break
        word = _display_text(shape)[head.start : head.end]
        says = says.replace(said, f"{said} {word}", 1)
    if says == act.says:
        return None
    return Act(
        family=act.family,
        says=says,
        verb=act.verb,
        sentence=act.sentence,
        at=act.at,
        gloss=act.gloss,
        effect=act.effect,
    )


def _display_text(shape: Shape) -> str:
    """The question as the asker wrote it where the finder kept it, else its code form."""
    display = DISPLAY.get()
    return display if display is not None and len(display) == len(shape.text) else shape.text


def _cut_token(shape: Shape, w: Word, said: str) -> bool:
    """Does the phrase start inside a written token ("40 deploy" of "the 09:40 deploy",
    "payments" of "#oncall-payments")?"""
    first = shape.words[max(0, w.index - len(said.split()) + 1)]
    for word in (w, first):
        start = shape.text.find(said.split(" ", 1)[0].lower(), max(0, word.start - 40))
        if start > 0 and not shape.text[start - 1].isspace() and shape.text[start - 1] != "(":
            return True
    return False


def _word_at(shape: Shape, at: int) -> Word | None:
    return next((w for w in shape.words if w.start == at), None)


def _mention(shape: Shape, act: Act) -> Act | None:
    """The act said by the word the finder found and the asker's own words around it, in its
    clause: "mentions 'deploy' ('since the 09:40 deploy'): a word of an act that deploys,
    releases or publishes"."""
    at = _word_at(shape, act.at)
    if at is None:
        return None
    w = _act_word(shape, at, act.family)
    start, end = _words_around(shape, w)
    word = w.text
    display = DISPLAY.get()
    if display is not None and len(display) == len(shape.text):
        word = display[w.start : w.end]
    around = _span_closed(shape, phrase_of(shape, start, end).strip(" ,;:-"))
    # the asker's words in double quotes where they hold a single one ("flagging 'overwrite'")
    quoted = f'"{around}"' if "'" in around else f"'{around}'"
    if _adds_nothing(around, word):
        return None  # "squash and force-push …": the bare verb says as much
    gloss = FAMILY_SAYS.get(act.family, "cannot be undone")
    said = f"mentions '{word}' ({quoted})"
    return Act(
        family=act.family,
        says=f"{said}: a word of an act that {gloss}",
        verb=True,
        sentence=act.sentence,
        at=act.at,
        effect=act.effect,
    )


def _act_word(shape: Shape, at: Word, family: str) -> Word:
    """The word a mention names: the finder's own where it names an act, else the first word
    of an act or of production after it in its sentence ("prod" of "for the prod CDN
    module", where the finder stood on "for")."""
    for w in shape.words[at.index : at.index + 12]:
        if w.sentence != at.sentence:
            break
        if _names_an_act(w, family):
            return w
    return at


def _names_an_act(w: Word, family: str) -> bool:
    if family == "production":
        return w.text in PROD_WORDS or w.text == "live"
    if w.text in _NOT_A_PHRASE_START or w.text in DETERMINERS:
        return False  # "for" of "for good", never the word a mention names
    return w.lemma in ACTS_BY_FIRST or w.text in ACTS_BY_FIRST


# How many words of the asker's each side of the word a mention quotes, at most.
_AROUND = 4
# Words a quotation of the asker's never ends on: it would end mid-phrase ("another 10").
_OPEN_ENDS = DETERMINERS | PREPOSITIONS | word_set("and or but another")


def _words_around(shape: Shape, w: Word) -> tuple[int, int]:
    """The words of ``w``'s clause around it, at most a few each side, never across a
    clause's start or a sentence's end, never starting or ending inside a written token
    ("since the 09:40 deploy", never "40 deploy")."""
    words = shape.words
    start = w.index
    while start > 0 and words[start - 1].sentence == w.sentence:
        if glued(shape, start):
            start -= 1  # "09:40", "Akamai's": a written token whole
        elif w.index - start < _AROUND and not words[start].clause_start:
            start -= 1
        else:
            break
    while start > 0 and _same_code_span(shape, start - 1, start):
        start -= 1  # "`backup.enabled: false`": a code span whole
    opener = words[start - 1] if start > 0 else None
    if opener is not None and opener.text in BOUNDARY_WORDS and opener.sentence == w.sentence:
        start -= 1  # "since the 09:40 deploy": the word that opens the clause says how
    end = w.index + 1
    while (
        end < len(words)
        and end - w.index <= _AROUND
        and not words[end].clause_start
        and words[end].sentence == w.sentence
    ):
        end += 1
    while end < len(words) and (glued(shape, end) or _same_code_span(shape, end - 1, end)):
        end += 1
    while (
        end - 1 > w.index
        and (words[end - 1].text in _OPEN_ENDS or words[end - 1].text.isdigit())
        and not glued(shape, end - 1)
        and not words[end - 1].code
    ):
        end -= 1
    return start, end


def _span_closed(shape: Shape, around: str) -> str:
    """The asker's words with a code span they open closed where the question closes it
    ("`s3://…/2026/10/`", never "`s3://…/2026/10")."""
    if around.count("`") % 2 == 0:
        return around
    display = DISPLAY.get()
    text = display if display is not None and len(display) == len(shape.text) else shape.text
    at = text.find(around)
    close = text.find("`", at + len(around)) if at >= 0 else -1
    rest = text[at + len(around) : close + 1] if close >= 0 else ""
    return around + rest if rest and not any(c.isspace() for c in rest) else around


def _same_code_span(shape: Shape, a: int, b: int) -> bool:
    """Are words ``a`` and ``b`` (next to each other) inside one code span?"""
    first, second = shape.words[a], shape.words[b]
    return first.code and second.code and "`" not in shape.text[first.end : second.start]


def _command_cut(act: Act) -> Act:
    """A command read out of prose, said up to where its step ends: "runs `git push --force
    origin main`", never on into "4) close the ticket" or ". proceed with the plan"."""
    m = re.match(r"runs `([^`]*)`(.*)", act.says, re.S)
    if m is None:
        return act
    command, rest = m.group(1), m.group(2)
    step = _PLAN_STEP.search(f" {command}")
    if step is None:
        return act
    cut = f" {command}"[: step.start()].strip()
    if not cut:
        return act
    return Act(
        family=act.family,
        says=f"runs `{cut}`{rest}",
        verb=act.verb,
        sentence=act.sentence,
        at=act.at,
        gloss=act.gloss,
        effect=act.effect,
    )
