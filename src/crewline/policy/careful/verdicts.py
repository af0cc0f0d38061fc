"""What the careful judgement returns: ``Careful`` (why a question needs the human) and the
``Act`` it found (an irreversible act, its family and what the reason says of it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True, slots=True)
class Careful:
    """Why a question needs the human: its kind (``irreversible``, ``ambiguous`` or
    ``unknown``) and the reason, said the way the card says it."""

    kind: str
    reason: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Act:
    """An irreversible act found in a question: its family and what the reason says."""

    family: str
    says: str  # "drops the users_v1 table", "the cleanup of the old s3 buckets"
    verb: bool  # says starts with a verb ("it drops …"), else it is a noun phrase
    sentence: int
    at: int  # where it starts in the text
    gloss: bool = False  # add what the family does ("…, which changes a database")
    effect: bool = False  # only what the step is for ("to free disk"): any act named wins


Found = Act
