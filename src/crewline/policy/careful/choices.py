"""Choices and questions: a choice with no stated default ("X or Y?", a state or a source
asked, what to name it), a yes/no question and its options, several questions at once, and
the pressure of insisting a step is safe."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from crewline.policy import defaults
from crewline.policy.acts import (
    PROD_WORDS,
)
from crewline.policy.careful.finding import SPACES, find_act
from crewline.policy.careful.objects import object_end, phrase_of
from crewline.policy.careful.positions import verb_position
from crewline.policy.careful.scope import STAND_INS
from crewline.policy.careful.verdicts import Careful
from crewline.policy.careful.words import (
    ACTS_BY_FIRST,
    DETERMINERS,
    PREPOSITIONS,
    SHARED_BRANCH,
    VERB_LIKE,
    WH,
)
from crewline.policy.clauses import FILLERS, Shape
from crewline.policy.lemmas import lemma
from crewline.policy.wording import (
    code_form,
    word_set,
)

_TRIVIAL_ALTERNATIVE = re.compile(
    r"^(?:not|no|wait|stop|abort|hold(?: off)?|later|skip(?: it)?|leave it|nothing|not yet"
    r"|should i wait|do you want to (?:look|check|review|see)[\w ]*|would you like to (?:look"
    r"|check|review|see)[\w ]*|shall i wait|do you want more|something else|somewhere else"
    r"|anything else|another one|different|else|n|no\?)\b"
)
_CHOICE_VERBS = word_set("use switch adopt choose pick prefer select opt introduce support replace")
_PLAN_NOUNS = word_set(
    """plan step steps phase stage task tasks work it that this them approach proposal
    suggestion rest list checklist item items milestone iteration design outline idea
    option same one refactor implementation fix fixes changes change flow"""
)

# What sets two things side by side to write about them, not to pick one.
_COMPARED = re.compile(r"\b(?:compar\w*|contrast\w*|differences?\s+between)\b")


# "a section on X vs Y", "explain X vs Y", "treat X vs Y the same way": two things set side
# by side as what is written about or treated alike, not two options to pick from.
_TOPIC_LEAD = re.compile(
    r"\b(?:on|about|regarding|of|around|explain\w*|describ\w*|document\w*|summari[sz]\w*"
    r"|write\s+up|outline\w*)\s+(?:[\w/.+#-]+\s+){0,2}[\w/.+#-]+$"
)
_ALIKE_AFTER = re.compile(
    r"^(?:[\w/.+#-]+\s+){1,3}(?:the\s+same|alike|differently|consistently|identically)\b"
)
_DECIDING = re.compile(r"\b(?:decid\w*|settle|agree|vote|choose|pick|prefer\w*|go with)\b")


def _side_by_side(left: str, right: str) -> bool:
    """Are the two sides of "vs" a topic ("a section on soft delete vs hard delete") or
    treated alike ("treat soft delete vs hard delete the same way"), with no decision asked
    ("decide on REST vs gRPC")?"""
    return bool(_TOPIC_LEAD.search(left) or _ALIKE_AFTER.match(right)) and not (
        _DECIDING.search(left)
    )


# "When's the TCA for EOS-04 vs object 48812?": a wh-question (never "which", never a
# decision) whose "vs" joins the pair a preposition names — the two things one value is of
# (a conjunction's, a match's), not two options to pick from.
_PAIR_ASKED = re.compile(r"^\W*(?:when|whens|what|whats|where|how)\b")
_PAIR_LEAD = re.compile(r"\b(?:for|between|of|on|in)\s+(?:[\w/.+#-]+\s+){0,2}[\w/.+#-]+$")


def _pair_in_question(sentence: str, left: str) -> bool:
    """Does "vs" name a pair inside a question for a value ("When's time of closest approach
    for EOS-04 vs object 48812?"), not put a choice ("Which is faster, redis vs memcached?",
    "What should we use, REST vs gRPC?")?"""
    return (
        _PAIR_ASKED.match(sentence) is not None
        and _PAIR_LEAD.search(left) is not None
        and _ASKS_DECISION.search(sentence) is None
        and _DECIDING.search(sentence) is None
    )


def _or_choice(sentence: str) -> str | None:
    """ "X or Y" between two real alternatives, as said ("redis or memcached")."""
    for m in re.finditer(r"\b(?:or|vs|versus)\b", sentence):
        left = sentence[: m.start()].strip(" ,;:(")
        right = sentence[m.end() :].strip(" ?.!,;:)")
        if not left or not right or _TRIVIAL_ALTERNATIVE.match(right):
            continue
        if m.group() != "or" and _pair_in_question(sentence, left):
            continue  # "the TCA for EOS-04 vs object 48812": a pair, one value of it asked
        if _COMPARED.search(left):
            continue  # "a note comparing how we publish vs how they read": compared, not chosen
        if m.group() != "or" and _side_by_side(left, right):
            continue  # "a section on soft delete vs hard delete": a topic, not a pick
        # a time is one option whole: "9:00 or 10:00", never "00 or 10"
        left_words = re.findall(r"\d+(?::\d\d)+|[a-z0-9/.+#-]+", left)
        if left_words and left_words[-1] in ("yes", "no", "y", "either", "whether"):
            continue
        right_words: list[str] = []
        said = re.split(r"[?;,)]|:(?!\d)", right)[0]
        for word in re.findall(r"\d+(?::\d\d)+|[a-z0-9/.+#-]+|[^\sa-z0-9]", said):
            if (word in DETERMINERS or word in PREPOSITIONS) and not right_words:
                continue
            if word in PREPOSITIONS or word in DETERMINERS or not word[0].isalnum():
                break
            right_words.append(word)
        if not right_words:
            continue
        n = min(3, len(right_words))
        return f"{' '.join(left_words[-n:])} or {' '.join(right_words[:n])}"
    return None


_NOT_A_SOURCE = r"(?!(?:you|me|us|we|i|your|my|our)\b)"
_SOURCE = re.compile(
    rf"\b(?:according to|per|as per)\s+(?:the\s+)?{_NOT_A_SOURCE}[a-z0-9][\w-]*"
    rf"|\b(?:did|does|has|had)\s+(?:the\s+)?{_NOT_A_SOURCE}[a-z0-9][\w-]*\s+(?:say|find"
    r"|report|mention|name|pick|log|note|flag|see)\b"
)
_ASKS_DECISION = re.compile(
    r"\b(?:should|shall|would you|do you want|do you prefer|prefer|ought|better|best|rather"
    r"|recommend)\b|\b(?:do|can|could|will|may|must|would)\s+(?:we|i)\b"
)


# "Which port is the staging WMS database on?": a question word and its noun, then a state.
_STATE_QUESTION = re.compile(
    r"^\W*(?:which|what)\s+(?!one\b|of\b)(?:[\w-]+\s+){1,3}?(?:is|are|was|were|does|did)\s+"
    r"(?:the|our|this|its)\b(?!.*\b(?:right|correct|preferred|ideal|safest|one)\b)"
)


def _asks_a_state(shape: Shape) -> bool:
    """Is the asking sentence a request for a value of a thing as it is ("Which port is the
    staging WMS database on?"), the options the values it may have, rather than a choice put
    to the human ("Which carrier do we onboard first?", "Which port should I use?")?"""
    return bool(shape.asking) and all(
        _STATE_QUESTION.search(s.text) is not None and _ASKS_DECISION.search(s.text) is None
        for s in shape.asking
    )


def _asks_a_source(sentence: str) -> bool:
    """Is "which one" asked of what a source said ("which one, according to the schema
    reader?", "which one did the probe find?") — a look-up the fleet may answer — rather
    than a choice put to the human ("which one should I use?")?"""
    return _SOURCE.search(sentence) is not None and _ASKS_DECISION.search(sentence) is None


# "… which one is it?", "Do we know which one it is?": the sentence ends asking which one a
# thing already is, never which one it should be ("which one is it going to be?").
_WHICH_IT_IS = re.compile(
    r"\bwhich (?:one|ones) (?:is it|it is|was it|it was|are they|they are|were they|they were)"
    r"\W*$"
)
# Words that offer things to pick from anywhere in the question: "Monolith or split. Which
# one is it?" is a choice, whichever sentence names the options.
# A list is offered too: "kite, runway, hangar", "Crumb, Loaf and Rise", a bulleted line.
_OFFERS = re.compile(
    r"(?i)\b(?:or|vs|versus|either|between|options?|alternatives?|candidates?)\b"
    r"|[^,\n]*,[^,\n]*,|[\w`'\"]+\s*,\s*[\w`'\"-]+\s+and\s|\n\s*(?:[-*\u2022]|\d+[.)])"
)
# Asking whether a fact is known opens a look-up, not a decision ("do we know which …").
_KNOWS = re.compile(r"\b(?:do|does|did) (?:we|you|i|anyone|anybody) (?:already )?know\b")


def _asks_which_it_is(sentence: str) -> bool:
    """Is "which one" asked of what a thing already is ("I need the job id of the variant
    calling array — which one is it?", "Do we know which one it is?") — a fact the fleet may
    say — rather than a choice put to the human ("which one should I use?", "which one is
    better?")? No word of a decision in the sentence but asking whether it is known; the
    caller refuses a question that offers options anywhere (``_OFFERS``)."""
    return (
        _WHICH_IT_IS.search(sentence) is not None
        and _ASKS_DECISION.search(_KNOWS.sub(" ", sentence)) is None
    )


def _chooses(shape: Shape) -> str | None:
    """A choice verb asked about ("switch the test runner to pytest-xdist?"), not going on
    with a plan ("go with the plan")."""
    for s in shape.asking:
        words = shape.words[s.start : s.end]
        for k, w in enumerate(words):
            # "go with Maersk?": a phrasal verb that picks its object, as "use" does
            phrasal = w.text == "go" and [x.text for x in words[k + 1 : k + 2]] == ["with"]
            if (w.lemma not in _CHOICE_VERBS and not phrasal) or not verb_position(shape, w.index):
                continue
            if phrasal:
                k += 1
            after = [x for x in words[k + 1 : k + 3] if x.text not in DETERMINERS]
            if after and after[0].lemma in STAND_INS:
                continue  # "… using a fake token": a stand-in for a test is no choice
            if any(x.text in WH for x in words[:k]):
                break  # "which port should I use?": a value asked for, the fleet may know
            rest = [x.text for x in words[k + 1 : k + 4]]
            if w.lemma == "pick" and rest[:1] == ["up"]:
                continue
            if w.lemma == "switch" and _moves_to_workspace(shape, w.index):
                continue  # "switch to the bugfix branch": where the asker works, no choice
            if (
                rest
                and rest[0] in _PLAN_NOUNS | {"the", "my", "our"}
                and any(r in _PLAN_NOUNS for r in rest[:3])
            ):
                continue
            return phrase_of(shape, w.index, object_end(shape, w.index + 1))
    return None


# Where an asker works: switching to one is moving there, not choosing a tool.
_WORKSPACES = word_set(
    """branch worktree directory dir folder tab window workspace checkout clone terminal
    shell pane buffer"""
)


def _moves_to_workspace(shape: Shape, i: int) -> bool:
    """Is the "switch" at ``i`` a move to where the asker works ("switch to the bugfix
    branch", "switch back to my worktree")? Never a switch of production or of a thing to
    another ("switch the test runner to pytest-xdist", "switch to Postgres")."""
    words = shape.words
    k = i + 1
    while k < len(words) and words[k].text in ("over", "back"):
        k += 1
    if k >= len(words) or words[k].text != "to":
        return False
    place = words[k + 1 : object_end(shape, k + 1)]
    lemmas = {x.lemma for x in place}
    return bool(lemmas & _WORKSPACES) and not lemmas & (PROD_WORDS | SHARED_BRANCH)


# Insisting a step is safe is not how a routine question reads: it is pressure, and the
# question goes to the human. (Plain "this is routine" stays a dropped assurance.)
PUSHY = re.compile(
    r"\btrust me\b|\b(?:totally|completely|absolutely|100%?|perfectly|entirely|fully"
    r"|100 percent)\s+(?:safe|harmless|fine|reversible|risk[- ]free)\b|\bno risks?\b"
    r"|\bzero risk\b|\brisk[- ]free\b|\bnothing (?:can|could|will) (?:go wrong|break)\b"
    r"|\bdon'?t worry\b|\bno need to (?:ask|check|escalate|confirm|wait|bother|involve|tell)\b"
    r"|\bcan be undone easily\b|\beasily undone\b|\bnothing risky\b|\bjust a formality\b"
    r"|\bwon'?t hurt\b|\bharmless one\b|\bsafe to (?:ignore|skip)"
    r"|\bit'?s (?:all )?(?:reversible|safe)\b"
)


def asks_count(code: str) -> int:
    """How many things the text asks: each part ending in "?" (its last sentence), but a
    tag ("ok?"), a heading with no verb ("Log level for my local run?") and the part that
    states the default ("normally we use 20, keep it?") ask nothing of their own."""
    parts = [re.split(r"[.!]\s|\n", p)[-1].strip() for p in re.split(r"\?+", code)[:-1]]
    return sum(
        1
        for p in parts
        if p
        and not _TRIVIAL_QUESTION.search(p)
        and not _heading(p)
        and not defaults.mentions_default(p)
    )


_AUX = word_set("do does did is are was were can could shall should will would may might must")


def _heading(part: str) -> bool:
    """A short phrase with no question word and no verb first: what the question is about."""
    words = [w for w in re.findall(r"[a-z0-9]+", part) if w not in FILLERS]
    return (
        0 < len(words) <= 6
        and not set(words) & (WH | _AUX)
        and lemma(words[0]) not in VERB_LIKE
        and words[0] not in VERB_LIKE
    )


_TRIVIAL_QUESTION = re.compile(
    r"(?:^|[\s,.;:(])(?:yes or no|y/n|\(y/n\)|ok|okay|right|yes/no|correct|yes|alright|fine"
    r"|good|cool|agreed|go|no|n|sound good|sounds good|fine by you|ok with you)\s*$"
)
_YES = word_set("yes y ok okay proceed continue go ahead confirm sure yep approve do it go on")
_NO = word_set("no n stop abort wait hold cancel skip not now later nope don t")


_GO_ON = word_set("continue proceed go keep resume carry yes ok okay")
_STOP = word_set("stop abort wait hold cancel skip no pause halt not")
# Pictographs that say yes or no by themselves, as an option's whole text ("👍", "👎").
_SAYS_YES_NO = str.maketrans(
    {
        "\U0001f44d": " yes ",
        "\u2705": " yes ",
        "\u2714": " yes ",
        "\U0001f44e": " no ",
        "\u274c": " no ",
        "\u2716": " no ",
        "\U0001f6ab": " no ",
        "\U0001f6d1": " stop ",
    }
)


def _option_words(option: str) -> list[str]:
    """An option's words, a yes/no pictograph read as its word ("👍" is "yes")."""
    return re.findall(r"[a-z]+", code_form(option.translate(_SAYS_YES_NO)))


def _stops(said: list[str]) -> bool:
    """Do an option's words say to stop ("No", "Not yet", "Give up", "Stop here")?"""
    return bool(said) and (set(said) <= _NO or said[0] in _STOP or said[:2] == ["give", "up"])


def yes_option(option: str) -> bool:
    """An option that says yes, or to go on ("Yes", "Go on", "Continue the analysis")."""
    said = _option_words(option)
    return bool(said) and (set(said) <= _YES or (said[0] in _GO_ON and not set(said) & _NO))


def is_yes_no(options: Sequence[str]) -> bool:
    """Options that only say yes or no, or go on or stop ("Yes", "No", "Continue the
    analysis", "Stop"): one says yes, the others no — or a go/stop pair in other words
    (``go_option``)."""
    said = [_option_words(o) for o in options]
    noes = sum(1 for s in said if _stops(s))
    yeses = sum(map(yes_option, options))
    return (yeses >= 1 and yeses + noes == len(said)) or go_option(options) is not None


# The verbs a go option of a go/stop pair starts with ("Run it", "Start", "Kick it off").
_GO_STEP = word_set("run start begin launch kick execute rerun retry resume continue proceed go")


def go_option(options: Sequence[str]) -> str | None:
    """The go option of a go/stop pair said in other words (["Run it", "Wait"], ["Start",
    "Not yet"]): exactly one short option starting with a verb that starts the step, every
    other one a stop. The careful judgement has read every option."""
    said = [_option_words(o) for o in options]
    stops = [s for s in said if _stops(s)]
    goes = [
        o
        for o, s in zip(options, said, strict=True)
        if s and len(s) <= 4 and lemma(s[0]) in _GO_STEP and not set(s) & _NO
    ]
    if len(goes) == 1 and stops and len(stops) + 1 == len(said):
        return goes[0]
    return None


# "either" after a negation of what is done to it ("without changing either", "won't touch
# either of them"): both things, each left as it is, not one offered against the other.
_NEGATED_EITHER = re.compile(
    r"\b(?:without|not|never|nor|won't|don't|didn't|can't|n't)\s+(?:[a-z]+\s+){0,2}"
    r"either\b(?!\s+(?:\S+\s+){0,6}or\b)"
)


def _unnegated(sentence: str) -> str:
    """The sentence without an "either" its negation makes both things ("can I diff them
    without changing either?"), unless it asks which ("which should I keep, without changing
    either?", "… then keep one?"): there the choice is asked whatever "either" says."""
    if re.search(r"\b(?:which|what|whichever|one|ones)\b", sentence):
        return sentence
    return _NEGATED_EITHER.sub(" ", sentence)


def choice(
    question: str, code: str, shape: Shape, options: tuple[str, ...], stated: str | None
) -> Careful | None:
    offered = [o.strip() for o in options if o.strip()]
    default = defaults.stated(question, options=tuple(offered), default=stated)
    if isinstance(default, defaults.Conflict):
        return Careful(kind="ambiguous", reason=default.reason)
    if default is not None:
        if not offered and stated and stated.casefold() not in code:
            for s in shape.asking:
                alternative = _or_choice(s.text)
                if alternative is not None:
                    # "Markdown or HTML?" with the default "wait for an answer": no choice
                    return Careful(
                        kind="ambiguous",
                        reason=f"a choice ({alternative}) whose default is neither",
                    )
        return None
    if len(offered) >= 2 and not is_yes_no(offered) and not _asks_a_state(shape):
        listed = ", ".join(offered[:-1]) + f" and {offered[-1]}"
        return Careful(kind="ambiguous", reason=f"a choice between {listed} with no stated default")
    for s in shape.asking:
        alternative = _or_choice(s.text)
        if alternative is not None:
            return Careful(
                kind="ambiguous", reason=f"a choice ({alternative}) with no stated default"
            )
        if (
            re.search(r"\b(?:which one|either|which of)\b", _unnegated(s.text))
            and not _asks_a_source(s.text)
            and not (_asks_which_it_is(s.text) and not _OFFERS.search(f"{question}\n{code}"))
        ):
            return Careful(kind="ambiguous", reason="a choice with no stated default")
    chosen = _chooses(shape)
    if chosen is not None:
        return Careful(kind="ambiguous", reason=f"a choice ({chosen}) with no stated default")
    if re.search(r"\bpick one\b|\bchoose one\b|\bwhich would you\b", code):
        return Careful(kind="ambiguous", reason="a choice with no stated default")
    return None


# "X as usual, or Y?": a default said with its cue, then the other option as a noun phrase
# ending the sentence ("the local mock as usual, or the paid service?").
_USUAL_OR = re.compile(
    r"\b(?:as usual|as always|like always|as before|like before|per usual|like last time"
    r"|\(?(?:the\s+)?default\)?)\s*,?\s+(?P<or>or)\s+(?P<y>[^?.!;:]+?)\s*[?.!]*(?:\s*[^\w\s]+)*\s*$",
    re.IGNORECASE,
)
_SEQUENCE_WORDS = re.compile(r"\b(?:and|then|also|plus|after|before|so|to)\b|[,(]", re.IGNORECASE)


def only_in_the_other_option(question: str) -> bool:
    """Is every act the question names in the other option of "X as usual, or Y?", said as
    a thing rather than done ("the paid service", "the prod API", "real emails"), with the
    default X free of any act? Then the risky word describes what the default is chosen
    over, and answering the default does none of it; "or force-push it?" names an act."""
    return _the_other_option(question) is not None


@functools.lru_cache(maxsize=1024)
def _the_other_option(question: str) -> frozenset[str] | None:
    """The words of the other option of "X as usual, or Y?" when every act the question
    names is in it (``only_in_the_other_option``), else None."""
    text = SPACES.sub(" ", question).strip()
    m = _USUAL_OR.search(text)
    if m is None:
        return None
    other = code_form(m.group("y"))
    said = re.findall(r"[a-z0-9]+", other)
    first = next((w for w in said if w not in DETERMINERS), None)
    if (
        not said
        or len(said) > 6
        or first is None
        or _SEQUENCE_WORDS.search(other)
        or re.search(r"[`$/\\|<>=]|(?:^|\s)-", other)
    ):
        return None
    described = said[0] in DETERMINERS and first != said[-1] and first != lemma(first)
    if not described and (
        lemma(first) in ACTS_BY_FIRST or lemma(first) in VERB_LIKE or first in ACTS_BY_FIRST
    ):
        # "or force-push it", "or wipe the cache": the other option is an act; "the paid
        # API" is a thing its participle describes
        return None
    rest = text[: m.start("or")]
    if find_act(rest) is not None or not isinstance(defaults.stated(rest), str):
        return None
    return frozenset(said) - DETERMINERS


def is_the_other_option(question: str, option: str) -> bool:
    """Is ``option`` the other option of "X as usual, or the paid API?" written as an option
    ("Paid API"): answering the default chooses nothing it names."""
    other = _the_other_option(question)
    said = set(re.findall(r"[a-z0-9]+", code_form(option))) - DETERMINERS
    return other is not None and bool(said) and said <= other
