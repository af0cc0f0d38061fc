"""Members and sessions in SQL: humans and their identities, members with their transports
and threads, sessions."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from crewline.errors import Conflict
from crewline.models import Identity, Member, Session, new_id
from crewline.store.ports.members import MembersReads, MembersTx
from crewline.store.sql.parts import ReadPart, TxPart
from crewline.store.sql.rowmap import decoder, epoch

__all__ = ["ONE_MEMBER", "SqlMembersReads", "SqlMembersTx", "members_of"]

# A member with its transports, comma-joined; ``{where}`` narrows, ``{{string_agg}}`` is the
# engine's aggregate.
_MEMBERS = (
    "SELECT m.slug, m.name, m.owner, {{string_agg}}(t.transport, ',')"
    " FROM members m LEFT JOIN member_transports t ON t.member = m.slug {where}"
    " GROUP BY m.slug ORDER BY m.created_at, m.slug"
)
ONE_MEMBER = _MEMBERS.format(where="WHERE m.slug = ?")
ALL_MEMBERS = _MEMBERS.format(where="")
# One statement text whatever the number of slugs: an engine's statement cache keeps it.
SOME_MEMBERS = _MEMBERS.format(where="WHERE m.slug {in_array}")
SESSION = ("id", "kind", "member", "parent", "stateless", "turn_since")
SESSIONS = f"SELECT {', '.join(SESSION)} FROM sessions"
_session = decoder(Session, SESSION)
# A session by its key hash with its member (its transports aggregated, as ONE_MEMBER's).
_SESSION_AND_MEMBER = (
    f"SELECT {', '.join(f's.{c}' for c in SESSION)}, m.slug, m.name, m.owner,"
    " (SELECT {string_agg}(t.transport, ',') FROM member_transports t WHERE t.member = m.slug)"
    " FROM sessions s LEFT JOIN members m ON m.slug = s.member"
    " WHERE s.key_hash = ? AND s.revoked_at IS NULL"
)
_MEMBER_AT = len(SESSION)
_identity = decoder(Identity, ("platform", "user_id"))


def members_of(rows: list[Any]) -> list[Member]:
    """Members from ``_MEMBERS`` rows (the transports aggregated, not a stored column)."""
    return [
        Member(
            slug=r[0],
            name=r[1],
            owner=r[2],
            transports=tuple(sorted(r[3].split(","))) if r[3] else (),
        )
        for r in rows
    ]


class SqlMembersTx(TxPart, MembersTx):
    def ensure_human(self, identities: Sequence[Identity], now: datetime) -> int:
        owners = {
            r[0]
            for i in identities
            if (
                r := self._one(
                    "SELECT human FROM identities WHERE platform = ? AND user_id = ?",
                    (i.platform, i.user_id),
                )
            )
        }
        if len(owners) > 1:
            raise Conflict(
                "these identities belong to different humans: "
                + ", ".join(str(i) for i in identities),
                code="identities_conflict",
            )
        if owners:
            human = int(owners.pop())
        else:
            human = int(
                self._one("INSERT INTO humans (created_at) VALUES (?) RETURNING id", (epoch(now),))[
                    0
                ]
            )
        self._s.executemany(
            "INSERT INTO identities (platform, user_id, human) VALUES (?, ?, ?)"
            " ON CONFLICT DO NOTHING",
            [(i.platform, i.user_id, human) for i in identities],
        )
        return human

    def set_owner_token(self, human: int, token_hash: str) -> None:
        self._s.execute("UPDATE humans SET token_hash = ? WHERE id = ?", (token_hash, human))

    def add_member(self, member: Member, now: datetime) -> None:
        added = self._one(
            "INSERT INTO members (slug, name, owner, created_at, incarnation)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (slug) DO NOTHING RETURNING slug",
            (member.slug, member.name, member.owner, epoch(now), new_id()),
        )
        if added is None:
            raise Conflict(f"a member named {member.slug!r} already exists", code="member_exists")
        self._s.executemany(
            "INSERT INTO member_transports (member, transport) VALUES (?, ?)",
            [(member.slug, t) for t in member.transports],
        )

    def remove_member(self, slug: str) -> bool:
        self._index(
            "UPDATE escalations SET state = 'retracted' WHERE member = ? AND state = 'pending'",
            (slug,),
        )
        return self._s.count("DELETE FROM members WHERE slug = ?", (slug,)) > 0

    def member(self, slug: str) -> Member | None:
        found = members_of(self._all(ONE_MEMBER, (slug,)))
        return found[0] if found else None

    def members_by_slug(self, slugs: Sequence[str]) -> list[Member]:
        wanted = self._d.array(list(dict.fromkeys(slugs)))
        return members_of(self._all(SOME_MEMBERS, (wanted,)))

    def member_incarnation(self, slug: str) -> str | None:
        r = self._one("SELECT incarnation FROM members WHERE slug = ?", (slug,))
        return None if r is None else str(r[0] or "")

    def add_session(self, session: Session, key_hash: str, now: datetime) -> None:
        self._s.execute(
            "INSERT INTO sessions (id, key_hash, kind, member, parent, created_at, stateless)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                session.id,
                key_hash,
                session.kind.value,
                session.member,
                session.parent,
                epoch(now),
                int(session.stateless),
            ),
        )

    def revoke_member_sessions(self, slug: str, now: datetime) -> int:
        return self._s.count(
            "UPDATE sessions SET revoked_at = ? WHERE member = ? AND kind = 'member'"
            " AND revoked_at IS NULL",
            (epoch(now), slug),
        )

    def member_sessions(self, slug: str) -> list[Session]:
        return [
            _session(r)
            for r in self._all(
                f"{SESSIONS} WHERE member = ? AND kind = 'member' AND revoked_at IS NULL"
                " ORDER BY created_at, id",
                (slug,),
            )
        ]

    def session(self, session_id: str) -> Session | None:
        r = self._one(f"{SESSIONS} WHERE id = ?", (session_id,))
        return None if r is None else _session(r)

    def set_turn(self, session_id: str, since: datetime | None) -> None:
        self._s.execute(
            "UPDATE sessions SET turn_since = ? WHERE id = ?",
            (None if since is None else epoch(since), session_id),
        )

    def record_thread(self, member: str, transport: str, thread_ref: str) -> None:
        # The ref leaves any other member that held it (a thread is one member's).
        self._s.execute(
            "DELETE FROM threads WHERE transport = ? AND thread_ref = ? AND member <> ?",
            (transport, thread_ref, member),
        )
        self._s.execute(
            "INSERT INTO threads (member, transport, thread_ref) VALUES (?, ?, ?)"
            " ON CONFLICT (member, transport) DO UPDATE SET thread_ref = excluded.thread_ref",
            (member, transport, thread_ref),
        )

    def settle_thread(
        self, member: str, transport: str, thread_ref: str, *, replacing: str | None = None
    ) -> str:
        # One statement decides (a concurrent writer's row is waited for, then judged), so
        # two processes opening the member's thread at once keep the first one recorded.
        self._s.execute(
            "INSERT INTO threads (member, transport, thread_ref) VALUES (?, ?, ?)"
            " ON CONFLICT (member, transport) DO UPDATE SET thread_ref = excluded.thread_ref"
            " WHERE threads.thread_ref = ? OR threads.thread_ref = excluded.thread_ref",
            (member, transport, thread_ref, replacing),
        )
        recorded = str(
            self._one(
                "SELECT thread_ref FROM threads WHERE member = ? AND transport = ?",
                (member, transport),
            )[0]
        )
        if recorded == thread_ref:  # ours: the ref leaves any other member that held it
            self._s.execute(
                "DELETE FROM threads WHERE transport = ? AND thread_ref = ? AND member <> ?",
                (transport, thread_ref, member),
            )
        return recorded

    def session_ended(self, session_id: str) -> bool:
        r = self._one("SELECT revoked_at FROM sessions WHERE id = ?", (session_id,))
        return r is None or r[0] is not None

    def end_session(self, session_id: str, now: datetime) -> bool:
        return (
            self._s.count(
                "UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                (epoch(now), session_id),
            )
            == 1
        )


class SqlMembersReads(ReadPart, MembersReads):
    async def member(self, slug: str) -> Member | None:
        found = members_of(await self._fetch(ONE_MEMBER, (slug,), lookup=True))
        return found[0] if found else None

    async def members(self) -> list[Member]:
        return members_of(await self._fetch(ALL_MEMBERS))

    async def session_by_key_hash(self, key_hash: str) -> Session | None:
        rows = await self._fetch(
            f"{SESSIONS} WHERE key_hash = ? AND revoked_at IS NULL", (key_hash,), lookup=True
        )
        return _session(rows[0]) if rows else None

    async def session_and_member(self, key_hash: str) -> tuple[Session, Member | None] | None:
        rows = await self._fetch(_SESSION_AND_MEMBER, (key_hash,), lookup=True)
        if not rows:
            return None
        r = rows[0]
        member = members_of([r[_MEMBER_AT:]])[0] if r[_MEMBER_AT] is not None else None
        return _session(r[:_MEMBER_AT]), member

    async def live_sessions(self, session_ids: Collection[str]) -> set[str]:
        if not session_ids:
            return set()
        rows = await self._fetch(
            "SELECT id FROM sessions WHERE revoked_at IS NULL AND id {in_array}",
            (self.dialect.array(sorted(session_ids)),),
        )
        return {str(r[0]) for r in rows}

    async def human_by_token_hash(self, token_hash: str) -> int | None:
        rows = await self._fetch(
            "SELECT id FROM humans WHERE token_hash = ?", (token_hash,), lookup=True
        )
        return int(rows[0][0]) if rows else None

    async def humans(self) -> list[int]:
        return [int(r[0]) for r in await self._fetch("SELECT id FROM humans ORDER BY id")]

    async def human_of(self, platform: str, user_id: str) -> int | None:
        rows = await self._fetch(
            "SELECT human FROM identities WHERE platform = ? AND user_id = ?",
            (platform, user_id),
            lookup=True,
        )
        return int(rows[0][0]) if rows else None

    async def identities(self, human: int) -> list[Identity]:
        rows = await self._fetch(
            "SELECT platform, user_id FROM identities WHERE human = ? ORDER BY platform, user_id",
            (human,),
        )
        return [_identity(r) for r in rows]

    async def thread_ref(self, member: str, transport: str) -> str | None:
        rows = await self._fetch(
            "SELECT thread_ref FROM threads WHERE member = ? AND transport = ?",
            (member, transport),
            lookup=True,
        )
        return str(rows[0][0]) if rows else None

    async def member_for_thread(self, transport: str, thread_ref: str) -> str | None:
        rows = await self._fetch(
            "SELECT member FROM threads WHERE transport = ? AND thread_ref = ?",
            (transport, thread_ref),
            lookup=True,
        )
        return str(rows[0][0]) if rows else None
