"""Operations in the physical world: what a vehicle or a machine is made to do (a burn fired,
a manoeuvre flown, a thruster fired) and what an operation is committed to. None of it can be
taken back once it is under way."""

from __future__ import annotations

from crewline.policy.careful.positions import verb_position
from crewline.policy.careful.words import (
    CHANGES,
    CODE_WORDS,
    DETERMINERS,
    DOC_HEADS,
    OBJECT_STOP,
    PREPOSITIONS,
    SHARED_BRANCH,
    TIME_WORDS,
    WH,
)
from crewline.policy.clauses import Shape
from crewline.policy.wording import word_set

# What is fired or ignited when a machine acts: a propulsion unit, a weapon, a furnace.
MACHINES = word_set(
    """thruster engine rocket motor booster burner jet laser missile torpedo cannon gun
    kiln furnace boiler reactor turbine charge"""
)
# What is committed to a place in version control, never an operation.
_COMMITTED_CODE = (
    CODE_WORDS
    | CHANGES
    | SHARED_BRANCH
    | word_set(
        """branch repo repository git work file files commit message history tree stash
        local locally disk memory cache db database store storage transaction staging
        draft wip diff patch config lockfile"""
    )
)


def fires_a_machine(shape: Shape, i: int, length: int) -> bool:
    """Does the verb at ``i`` ("fire", "ignite") take a machine as its object ("fire the
    thrusters", "ignite the booster")? Never an email fired off or a question fired."""
    if not verb_position(shape, i):
        return False
    for w in shape.words[i + length : i + length + 5]:
        if w.clause_start and w.index > i + length:
            return False
        if w.lemma in MACHINES and not w.ident:
            return True
        if w.text in OBJECT_STOP or w.text in TIME_WORDS:
            return False
    return False


def committed_to(shape: Shape, i: int) -> bool:
    """Is the verb at ``i`` "commit" binding a thing to an operation — "commit EOS-04 to the
    manoeuvre", "commit the fleet to the new route": an object, then "to" and a phrase,
    neither of which names code, a change, a branch or a store ("commit the fix to main" is
    a push; "commit my notes to the repo" an edit)?"""
    words = shape.words
    if not verb_position(shape, i):
        return False
    said: set[str] = set()
    to = None
    for w in words[i + 1 : i + 9]:
        if w.clause_start or w.sentence != words[i].sentence:
            break
        if w.text == "to":
            to = w.index
            break
        said.add(w.lemma)
    if to is None or not said - DETERMINERS or to + 1 >= len(words):
        return False
    target: set[str] = set()
    for w in words[to + 1 : to + 7]:
        if w.clause_start or w.sentence != words[i].sentence:
            break
        if w.text in OBJECT_STOP or (w.text in PREPOSITIONS and target - DETERMINERS):
            break
        target.add(w.lemma)
    if not target - DETERMINERS or any(w.code for w in words[i + 1 : to + 7]):
        return False
    return not (said | target) & _COMMITTED_CODE


def operation_named(shape: Shape, i: int) -> bool:
    """Is the operation's noun at ``i`` ("the orbit-raise burn", "the avoidance manoeuvre")
    named as a thing to do, not asked about: never a verb ("the customer burns 20 GB"), nor
    in a question a question word opens ("above which Pc do we plan an avoidance
    manoeuvre?", "when is the burn scheduled?"), which asks a fact about it."""
    if verb_position(shape, i):
        return False
    w = shape.words[i]
    return not any(x.text in WH for x in shape.sentence_words(w.sentence) if x.index < i)


# What is retired as words or code, never an asset taken out of service.
_RETIRED_TEXT = CODE_WORDS | DOC_HEADS | word_set("wording word phrase term name label flag")


def asset_retired(shape: Shape, i: int, length: int) -> bool:
    """Is what the verb at ``i`` ("retire") takes out of service an asset — a machine, a
    store, a vehicle ("retire the old storage array", "retire EOS-01") — never words or code
    ("retire the old wording in the README", "retire the flaky test")?"""
    said: set[str] = set()
    for w in shape.words[i + length : i + length + 6]:
        if w.clause_start and w.index > i + length:
            break
        if w.text in OBJECT_STOP or w.text in TIME_WORDS:
            break
        said.add(w.lemma)
        if w.text.endswith((".py", ".md", ".ts", ".js")):
            return False
    return bool(said - DETERMINERS) and not said & _RETIRED_TEXT
