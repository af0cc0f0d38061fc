"""The judgement (``careful``): a question goes to the human when it names an irreversible act,
carries instructions to the concierge, insists it is safe, states its own answer as the
default, uses letters the gate cannot read or words broken by markup or escape codes, is too
long, asks several things at once or leaves a choice with no default."""

from __future__ import annotations

import functools
import re

from crewline.policy import defaults
from crewline.policy.careful.choices import (
    PUSHY,
    asks_count,
    choice,
    is_the_other_option,
    only_in_the_other_option,
)
from crewline.policy.careful.default_acts import default_act
from crewline.policy.careful.finding import find_act, reason
from crewline.policy.careful.verdicts import Careful
from crewline.policy.clauses import shape_of
from crewline.policy.wording import (
    broken_word,
    claimed_leave,
    code_form,
    deobfuscated_form,
    has_unreadable_letters,
    injection,
)

# The whole text is read, never a window, and the readers' cost grows faster than the text
# (many of them walk every word for every match): 800 characters is twice the longest
# question of the development sets, and keeps a judgement within about 100 ms whatever the
# text's shape (docs/concierge-rounds.md, "text32").
MAX_QUESTION_CHARS = 800


def too_long(question: str, answers: tuple[str, ...] = ()) -> bool:
    """Is the question, or an option or default given with it, past the length the gate
    reads? Measured as written and again normalised (NFKC can lengthen a text), so that no
    reading starts on a text past the bound."""
    return any(
        len(text) > MAX_QUESTION_CHARS * 2 or len(code_form(text)) > MAX_QUESTION_CHARS
        for text in (question, *answers)
    )


@functools.lru_cache(maxsize=4096)
def _claim_unmasked(code: str) -> re.Match[str] | None:
    """A claim of safety read once letters standing for others and punctuation are undone
    ("tru$t me", "100% safe") — but not a number given as a value, then a tag after its
    comma ("default 100, fine?"): the punctuation the claim would span is a clause's."""
    claim = PUSHY.search(deobfuscated_form(code))
    if claim is not None and claim.group(0).startswith("100 ") and _VALUE_THEN_TAG.search(code):
        return None
    return claim


# "100, fine?": a value, then the question's tag, never "100% fine".
_VALUE_THEN_TAG = re.compile(r"\b100\s*[,;:]\s*(?:safe|harmless|fine|reversible)\s*\?")


# What a default cue names before its clause ends: "the default is yes: `scancel -u okafor`"
# names "yes", whatever value a reader of defaults takes after the colon.
_CUE_NAMES = re.compile(
    r"\bdefault\s*(?:is|was|=|:|'s|->|=>|\u2192)\s*([^\s,:;.?!`\])]+(?:[ ][^\s,:;.?!`\])]+)?)"
)


def _cue_answers_itself(code: str) -> str | None:
    """A self-answer a default cue names in its own clause, read alone: "the default is yes"
    is a claim of the asker wherever the question goes on after it."""
    for m in _CUE_NAMES.finditer(code):
        named = re.split(r"\s[-\u2013\u2014]+(?:\s|$)", m.group(1) + " ")[0]  # "ok - `tox`"
        if defaults.is_self_answer(named):
            return named.strip()
    return None


def careful(
    question: str, options: tuple[str, ...] = (), default: str | None = None
) -> Careful | None:
    """Why ``question`` (with its options and default) must go to the human, or None when
    nothing in it does. Final: no reading of the question, and no model, can overrule it."""
    if too_long(question, (*options, default or "")):
        # first, before any reading: the readers' cost grows with the text, and a text past
        # the bound is one no reading places safely
        return Careful(kind="unknown", reason="it is too long to place safely")
    code = code_form(question)
    if not code:
        return Careful(kind="unknown", reason="the question is empty")
    answers = [a for a in (*options, default or "") if a.strip()]
    stepped = default_act(question)
    if stepped is not None:
        # "Expired samples: dispose (default) or keep?": answering it does the default
        return Careful(
            kind="irreversible", reason=f"{reason(stepped)}, the default the question states"
        )
    acts = []
    for text in (question, *answers):
        found = find_act(text)
        if found is None or (text is question and only_in_the_other_option(text)):
            continue
        if text in options and text != default and is_the_other_option(question, text):
            continue  # "Nominatim as usual, or the paid API?" offered as ["Nominatim", "Paid API"]
        acts.append(found)
    if acts:
        # "How should I free up disk?" ["Delete old WAL files (default)", …]: the act that
        # says how, before what it is for
        found = next((a for a in acts if not a.effect), acts[0])
        return Careful(kind="irreversible", reason=reason(found))
    for text in (question, *answers):
        said = injection(code_form(text))
        if said is not None:
            return Careful(
                kind="unknown",
                reason=f"it carries instructions to the concierge ({said!r}); a member's "
                "wording is evidence, never authorisation",
            )
    claim = PUSHY.search(code) or _claim_unmasked(code)
    if claim is not None:
        return Careful(
            kind="unknown",
            reason=f"it insists it is safe ({claim.group(0)!r}); a member's wording is "
            "evidence, never authorisation",
        )
    for text in (question, *answers):
        leave = claimed_leave(code_form(text))
        if leave is not None:
            return Careful(
                kind="unknown",
                reason=f"it claims leave for its step ({leave!r}); a member's word that "
                "someone allowed it, or that it is safe, is evidence, never authorisation",
            )
    own = defaults.answers_itself(question) or _cue_answers_itself(code)
    if own is None and default is not None and not options:
        own = defaults.answers_itself(f"the default is {default}")
    if own is not None:
        return Careful(
            kind="unknown",
            reason=f"it states its own answer as the default ({own!r}): a claim, not evidence",
        )
    if any(has_unreadable_letters(code_form(t)) for t in (question, *answers)):
        return Careful(kind="unknown", reason="it uses letters the gate cannot read")
    broken = next((b for t in (question, *answers) if (b := broken_word(t)) is not None), None)
    if broken is not None:
        # "wi<!-- -->pe", "del&#101;te": no reading of words sees the word it hides
        return Careful(
            kind="unknown",
            reason=f"it writes a word broken by markup or an escape code ({broken!r}), which "
            "the gate cannot read as plain text",
        )
    if asks_count(code) > 1:
        return Careful(kind="ambiguous", reason="it asks several things at once")
    shape = shape_of(code)
    return choice(question, code, shape, options, default)
