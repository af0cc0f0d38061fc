"""Owners that exist: what ``--owner PLATFORM:USER_ID`` must look like to be answerable.

A member's owner is the one human whose presses and replies answer its requests. An owner
on a platform crewline does not know (``slak:U1``), on one that is not configured here, or
with a user id that platform never issues (``telegram:alice``) is someone nobody can ever
be: its cards would keep live buttons that every press is refused on. So the command line
checks an owner before it writes anything; ``--force`` binds to a platform ahead of
configuring it, never to a malformed id. The local inbox has exactly one user (``[local]
user``, ``owner`` by default): its owner is that user.

``unanswerable`` is the same judgement afterwards, for ``crewline doctor``: a member none
of whose transports knows its owner can have its cards drawn, but never answered there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from crewline.errors import InvalidInput
from crewline.models import Identity

if TYPE_CHECKING:
    from crewline.config import Config

__all__ = [
    "SHAPES",
    "OwnerShape",
    "check_owner",
    "local_user",
    "parse_owner",
    "shapes_in_words",
    "unanswerable",
]

DEFAULT_LOCAL_USER = "owner"


def local_user(config: Config) -> str:
    """The local inbox's one user: ``[local] user``, ``owner`` by default."""
    return str(config.section("local").get("user", DEFAULT_LOCAL_USER))


@dataclass(frozen=True, kw_only=True, slots=True)
class OwnerShape:
    pattern: re.Pattern[str]
    words: str  # how the error describes it


SHAPES: Mapping[str, OwnerShape] = {
    "slack": OwnerShape(
        pattern=re.compile(r"[UW][A-Z0-9]{1,20}"),
        words="slack:U… or slack:W… (a Slack member id, like U012ABCDEF)",
    ),
    "telegram": OwnerShape(
        pattern=re.compile(r"[1-9][0-9]{0,19}"),
        words="telegram:<an integer> (the user's numeric id, like 123456789)",
    ),
    "discord": OwnerShape(
        pattern=re.compile(r"[1-9][0-9]{16,19}"),
        words="discord:<a snowflake> (17 to 20 digits, like 80351110224678912)",
    ),
}
# The in-process transport of tests and embedders: any plain id, and never offered.
_MEMORY = re.compile(r"[A-Za-z0-9_.@-]{1,64}")


def shapes_in_words(local_user: str) -> str:
    """Every owner the command line accepts, in words, for an error to list."""
    local = f"local:{local_user} (the local inbox's user)"
    return "; ".join([local, *(shape.words for shape in SHAPES.values())])


def parse_owner(text: str, *, local_user: str) -> Identity:
    """``PLATFORM:USER_ID`` of a platform crewline knows, with an id of that platform's
    shape; InvalidInput (``invalid_owner``) listing the shapes otherwise."""
    try:
        identity = Identity.parse(text)
    except ValueError as error:
        raise _invalid(f"{error}", local_user) from None
    platform, user_id = identity.platform, identity.user_id
    if platform == "local":
        if user_id != local_user:
            raise _invalid(
                f"{text!r} is not the local inbox's user: its one user is {local_user!r}"
                " ([local] user in crewline.toml)",
                local_user,
            )
    elif platform == "memory":
        if not _MEMORY.fullmatch(user_id):
            raise _invalid(f"{text!r} is not a user id", local_user)
    elif platform in SHAPES:
        if not SHAPES[platform].pattern.fullmatch(user_id):
            raise _invalid(f"{user_id!r} is not a {platform} user id", local_user)
    else:
        raise _invalid(f"{platform!r} is not a platform crewline knows", local_user)
    return identity


def check_owner(
    text: str, *, configured: Sequence[str], local_user: str, force: bool = False
) -> Identity:
    """``parse_owner``, and its platform configured here (or ``force``): InvalidInput
    (``owner_not_configured``) otherwise, naming what is configured."""
    identity = parse_owner(text, local_user=local_user)
    if identity.platform not in configured and not force:
        raise InvalidInput(
            f"the owner {text} is on {identity.platform}, which is not configured here"
            f" (configured: {', '.join(configured) or 'none'}); configure it first, or"
            " pass --force to name an owner there ahead of configuring it",
            code="owner_not_configured",
        )
    return identity


def unanswerable(
    owners: Iterable[Identity], transports: Sequence[str], *, local_user: str
) -> str | None:
    """Why a member bound to ``transports`` and owned by the human known as ``owners``
    can never be answered in its threads, in words; None when it can."""
    known = list(owners)
    if not transports:
        return None  # bound nowhere yet: nothing is drawn, so nothing waits for an answer
    reachable = [
        i
        for i in known
        if i.platform in transports and (i.platform != "local" or i.user_id == local_user)
    ]
    if reachable:
        return None
    named = ", ".join(str(i) for i in known) or "nobody"
    return (
        f"its owner ({named}) is known on none of its transports ({', '.join(transports)}):"
        " its cards can be shown there but never answered"
    )


def _invalid(reason: str, local_user: str) -> InvalidInput:
    return InvalidInput(
        f"{reason}; an owner is one of: {shapes_in_words(local_user)}", code="invalid_owner"
    )
