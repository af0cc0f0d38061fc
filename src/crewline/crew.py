"""Administering the crew: members, sessions and the owner's token.

Used by the CLI, the demo and tests; works on a store whether or not a server is running.
Every write here also marks the crew changed (``mark_changed``), in its own transaction: a
server running on the same store, in another process, notices that within a fraction of a
second and follows (``crewline.app.crew_watch``): its roster, bells, cards and platform threads
show the change without a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from crewline.config_schema import ACCEPTED_TRANSPORTS, TRANSPORT_NAMES
from crewline.errors import InvalidInput, NotFound
from crewline.keys import hash_key, new_owner_token, new_session_key
from crewline.models import (
    KEY_REVOKED,
    CallerKind,
    Clock,
    EscalationState,
    Identity,
    Member,
    QuestionState,
    Session,
    SystemClock,
    is_slug,
    new_id,
)
from crewline.store import Store, Tx

__all__ = [
    "CREW_VERSION",
    "NewSession",
    "add_member",
    "add_session",
    "check_transports",
    "issue_member_key",
    "issue_owner_token",
    "mark_changed",
    "remove_member",
]

# A setting every administrative write gives a new value: what a running server watches.
CREW_VERSION = "crew.version"


def mark_changed(tx: Tx) -> None:
    """Say, in this transaction, that the crew (members, sessions, keys, owners or the
    concierge's policy) changed: a running server follows (``crewline.app.crew_watch``),
    told on PostgreSQL, by its next look on SQLite."""
    tx.set_setting(CREW_VERSION, new_id(), announce=True)


REPLACED = "a new key was issued for this member (crewline member key): this one no longer works"


@dataclass(frozen=True, kw_only=True, slots=True)
class NewSession:
    session: Session
    key: str  # shown once; only its hash is stored


async def add_member(
    store: Store,
    *,
    slug: str,
    name: str,
    owners: Sequence[str],
    transports: Sequence[str],
    clock: Clock | None = None,
    stateless: bool = False,
) -> NewSession:
    """Add a member owned by the human known by ``owners`` (``platform:user_id``), bound
    to ``transports``, and create its own session; returns the session's key.

    ``stateless``: the member's session re-reads its transcript every turn, so a rewind
    counts its context as discarded at once instead of waiting for it to say so."""
    if not is_slug(slug):
        raise InvalidInput(
            f"{slug!r} is not a slug (a-z, 0-9, dashes; at most 63)", code="invalid_member_slug"
        )
    if not name.strip():
        raise InvalidInput("a member needs a name", code="invalid_name")
    if not owners:
        raise InvalidInput("a member needs an owner (PLATFORM:USER_ID)", code="invalid_owner")
    try:
        identities = [Identity.parse(o) for o in owners]
    except ValueError as error:
        raise InvalidInput(str(error), code="invalid_owner") from None
    bound = tuple(dict.fromkeys(transports))
    now = (clock or SystemClock()).now()
    key = new_session_key()
    session = Session(id=new_id(), kind=CallerKind.MEMBER, member=slug, stateless=stateless)

    def write(tx: Tx) -> None:
        human = tx.ensure_human(identities, now)
        tx.add_member(Member(slug=slug, name=name, owner=human, transports=bound), now)
        tx.add_session(session, hash_key(key), now)
        _republish_roster(tx, bound, now)
        mark_changed(tx)

    await store.write(write)
    return NewSession(session=session, key=key)


def check_transports(transports: Sequence[str]) -> tuple[str, ...]:
    """The names without repeats; a name crewline does not know is refused, listing those
    it knows (a typo would otherwise strand the member's cards forever). The command line
    checks; ``add_member`` does not, so an embedder may bind its own named transports."""
    for name in transports:
        if name not in ACCEPTED_TRANSPORTS:
            raise InvalidInput(
                f"unknown transport {name!r} (known: {', '.join(TRANSPORT_NAMES)})",
                code="unknown_transport",
                known=list(TRANSPORT_NAMES),
            )
    return tuple(dict.fromkeys(transports))


async def issue_member_key(
    store: Store, slug: str, *, clock: Clock | None = None, stateless: bool = False
) -> NewSession:
    """A new own session for the member (a forked one has none); the previous one's key
    stops working. Returns the key, shown once."""
    now = (clock or SystemClock()).now()
    key = new_session_key()
    session = Session(id=new_id(), kind=CallerKind.MEMBER, member=slug, stateless=stateless)

    def write(tx: Tx) -> None:
        if tx.member(slug) is None:
            raise NotFound(f"no member named {slug!r}", code="unknown_member")
        # The last event of each old session: its open streams end with it, at once on
        # every replica (PostgreSQL notifies an event's commit), and nothing after it.
        for old in tx.member_sessions(slug):
            tx.add_event(old.id, KEY_REVOKED, {"reason": REPLACED}, now)
        tx.revoke_member_sessions(slug, now)
        tx.add_session(session, hash_key(key), now)
        mark_changed(tx)

    await store.write(write)
    return NewSession(session=session, key=key)


async def remove_member(store: Store, slug: str, *, clock: Clock | None = None) -> None:
    """Remove the member, its sessions and its thread bindings. Its open requests are
    withdrawn and its waiting questions cancelled, and their cards and bells redrawn so:
    no button is left live for a member that is gone."""
    now = (clock or SystemClock()).now()

    def write(tx: Tx) -> None:
        member = tx.member(slug)
        if member is None:
            raise NotFound(f"no member named {slug!r}", code="unknown_member")
        settled: list[str] = []  # the card rows to redraw, in the order they were posted
        goals: set[str] = set()
        for record in tx.escalations(slug, pending_only=True):
            tx.put_escalation(replace(record, state=EscalationState.RETRACTED, settled_at=now))
            settled.append(record.row_id)
            goals.add(record.goal or "")
        waiting = tx.waiting_questions(slug)
        for question in waiting:
            tx.put_question(replace(question, state=QuestionState.CANCELLED, settled_at=now))
            settled.append(question.row_id)
        tx.drop_member_suggestions(slug)
        cards = [f"row:{row_id}" for row_id in settled]
        bells = [f"bell:escalation:{slug}:{goal}" for goal in sorted(goals)]
        bells += [f"bell:question:{slug}"] if waiting else []
        for transport in member.transports:
            for key in cards:
                tx.queue_call(transport=transport, lane=slug, op="update", object_key=key, now=now)
            for key in bells:
                tx.queue_call(
                    transport=transport, lane=f"bell:{slug}", op="ring", object_key=key, now=now
                )
        if not tx.remove_member(slug):
            raise NotFound(f"no member named {slug!r}", code="unknown_member")
        _republish_roster(tx, member.transports, now)
        mark_changed(tx)

    await store.write(write)


def _republish_roster(tx: Tx, transports: Sequence[str], now: datetime) -> None:
    # A running server picks these up on its next outbox poll, even when this ran in
    # another process (the CLI): the roster shows the change without a restart.
    for transport in transports:
        tx.enqueue(transport=transport, lane="roster", op="roster", object_key="roster", now=now)


async def add_session(
    store: Store,
    *,
    kind: CallerKind,
    member: str | None,
    clock: Clock | None = None,
    stateless: bool = False,
) -> NewSession:
    """A worker (created by ``member``), channel agent, conductor or plain session."""
    if kind is CallerKind.MEMBER:
        raise InvalidInput(
            "a member's own session is created with `member add`", code="invalid_kind"
        )
    if kind is CallerKind.WORKER and member is None:
        raise InvalidInput("a worker is created by a member: give --member", code="invalid_kind")
    now = (clock or SystemClock()).now()
    key = new_session_key()

    def write(tx: Tx) -> Session:
        parent = None
        if member is not None:
            if tx.member(member) is None:
                raise NotFound(f"no member named {member!r}", code="unknown_member")
            own = tx.member_sessions(member)
            parent = own[0].id if own else None
        session = Session(id=new_id(), kind=kind, member=member, parent=parent, stateless=stateless)
        tx.add_session(session, hash_key(key), now)
        mark_changed(tx)
        return session

    return NewSession(session=await store.write(write), key=key)


async def issue_owner_token(store: Store, *, owner: str | None = None) -> str:
    """A new token for the human (the old one stops working); shown once."""
    human: int | None
    if owner is not None:
        identity = Identity.parse(owner)
        human = await store.human_of(identity.platform, identity.user_id)
        if human is None:
            raise NotFound(f"no human is known as {owner}", code="unknown_owner")
    else:
        humans = await store.humans()
        if len(humans) != 1:
            raise InvalidInput(
                "there are no members yet"
                if not humans
                else "several humans own members here: name one with --owner PLATFORM:USER_ID",
                code="owner_ambiguous",
            )
        human = humans[0]
    token = new_owner_token()

    def write(tx: Tx) -> None:
        tx.set_owner_token(human, hash_key(token))
        mark_changed(tx)

    await store.write(write)
    return token
