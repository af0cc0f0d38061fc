"""A member's conversation to draw a boundary through, over the real HTTP API.

The transcript is ``m1 h1 m2 h2 m3`` (m: the member's rows, h: the owner's messages); an
edit of ``h2`` keeps ``m1 h1 m2`` and rewinds ``h2 m3``.

:func:`typed_answer` and :func:`edited_answer_heard` are the edited answer's journey (SPEC
§5 rule 5), the same on every transport: only the platform's own edit differs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from crewline.bot.boundaries import HookPoint
from crewline.models import Row
from crewline.store import SelRecord
from tests.driver import Crew

Injection = Callable[["Scene"], Awaitable[None]]


@dataclass(kw_only=True)
class Scene:
    crew: Crew
    key: str  # the member's session key
    token: str  # the owner's token
    rows: dict[str, Row]  # by text
    seen: dict[str, Any] = field(default_factory=dict)  # what injections observed

    async def post(self, text: str, *, key: str | None = None) -> str:
        response = await self.crew.call(
            key or self.key, "POST", "/api/session/messages", json={"text": text}
        )
        assert response.status_code == 200, response.text
        row_id: str = response.json()["row_id"]
        return row_id

    async def ask(self, question: str, *, key: str | None = None) -> str:
        response = await self.crew.call(
            key or self.key,
            "POST",
            "/api/session-control/ask",
            json={"question": question, "options": ["yes", "no"]},
        )
        assert response.status_code == 200, response.text
        question_id: str = response.json()["question_id"]
        return question_id

    async def answer(self, question_id: str, answer: str = "yes") -> dict[str, Any]:
        response = await self.crew.call(
            self.token, "POST", f"/api/questions/{question_id}/answer", json={"answer": answer}
        )
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    async def read(self, *, after: int = 0, key: str | None = None) -> list[dict[str, Any]]:
        return await self.crew.events(key or self.key, after=after)

    async def boundary_id(self) -> str:
        """The id of the boundary the session was asked about last."""
        asked = [e for e in await self.crew.events(self.key) if e["kind"] == "context_boundary"]
        assert asked, "no context_boundary event was sent"
        boundary_id: str = asked[-1]["body"]["boundary_id"]
        return boundary_id

    async def ack(self, boundary_id: str, *, key: str | None = None) -> int:
        response = await self.crew.call(
            key or self.key, "POST", f"/api/session/boundaries/{boundary_id}/ack"
        )
        return response.status_code

    async def nack(self, boundary_id: str, reason: str = "mid-turn") -> int:
        response = await self.crew.call(
            self.key,
            "POST",
            f"/api/session/boundaries/{boundary_id}/nack",
            json={"reason": reason},
        )
        return response.status_code

    async def boundary(self, **body: Any) -> Any:
        return await self.crew.call(
            self.token, "POST", "/api/members/radar/boundaries", json=body, timeout=30
        )

    async def edit_h2(self) -> Any:
        return await self.boundary(kind="edit", row_id=self.rows["h2"].id, text="h2 edited")

    async def live(self) -> list[str]:
        return [r.text for r in await self.crew.crewline.store.live_rows("radar")]

    async def in_flight(self) -> bool:
        store = self.crew.crewline.store
        found = await store.write(lambda tx: tx.boundary_in_flight("radar"))
        return found is not None

    def on(self, hooks: dict[HookPoint, Injection]) -> None:
        """Run ``hooks[point]`` inside the boundary's await at ``point``."""

        async def hook(point: HookPoint, boundary_id: str) -> None:
            self.seen.setdefault("points", []).append(point)
            self.seen["boundary_id"] = boundary_id
            injection = hooks.get(point)
            if injection is not None:
                await injection(self)

        self.crew.crewline.bot.boundaries.hook = hook

    async def sel(self) -> list[SelRecord]:
        return await self.crew.crewline.store.sel(action_prefix="boundary:")


async def scene(crew: Crew, *, stateless: bool = False) -> Scene:
    key = await crew.add_member(stateless=stateless)
    token = await crew.owner_token()
    made = Scene(crew=crew, key=key, token=token, rows={})
    harness = crew.harness
    for text in ("m1", "h1", "m2", "h2", "m3"):
        if text.startswith("m"):
            await made.post(text)
            await crew.delivered()  # the thread exists before the owner types in it
        else:
            receipt = await harness.say("radar", text)
            assert receipt is not None and receipt.accepted, receipt
    made.rows = {r.text: r for r in await crew.crewline.store.live_rows("radar")}
    assert list(made.rows) == ["m1", "h1", "m2", "h2", "m3"]
    return made


def errors(records: list[SelRecord]) -> list[tuple[str, Any]]:
    """(reason, native_cleared) of each error record."""
    return [
        (r.details.get("reason"), r.details.get("native_cleared"))
        for r in records
        if r.outcome == "error"
    ]


# --- an edited answer ------------------------------------------------------------------------

# What the agent reads after the owner edits the message that answered its request.
EDITED_ANSWER_EVENTS = [
    "context_boundary",
    "human_edit",
    "context_boundary_committed",
    "escalation_reopened",
    "escalation_answered",
]


@dataclass(frozen=True, kw_only=True)
class TypedAnswer:
    key: str  # the member's session key
    escalation_id: str
    row_id: str  # the owner's message that answered it
    read_to: int  # the agent's cursor: it has read that answer


async def typed_answer(crew: Crew, text: str = "8080") -> TypedAnswer:
    """Radar asks "Which port?"; the owner types ``text`` in the thread, which answers it;
    the agent reads that answer."""
    key = await crew.add_member(stateless=True)
    asked = await crew.escalate(key, message="Which port?")
    await crew.delivered()  # the card, and so the thread, is up before the owner types
    receipt = await crew.harness.say("radar", text)
    assert receipt is not None and receipt.escalation_id == asked["escalation_id"], receipt
    heard = await crew.events(key)
    assert (heard[-1]["kind"], heard[-1]["body"]["answer"]) == ("escalation_answered", text)
    record = await crew.crewline.store.escalation(asked["escalation_id"])
    assert record is not None and record.answer_row_id is not None
    return TypedAnswer(
        key=key,
        escalation_id=record.id,
        row_id=record.answer_row_id,
        read_to=heard[-1]["cursor"],
    )


async def edited_answer_heard(crew: Crew, typed: TypedAnswer, text: str = "9090") -> None:
    """After the owner's edit to ``text``: the card answers ``text`` on the platform, and the
    agent reads the boundary, the reopening and the new answer (via edit), in that order."""
    harness = crew.harness
    await harness.wait_until(
        lambda: any(f"Answered: {text} — by you" in c.text for c in harness.cards("radar"))
    )
    after = await crew.events(typed.key, after=typed.read_to)
    assert [e["kind"] for e in after] == EDITED_ANSWER_EVENTS
    answered = after[-1]["body"]
    assert (answered["escalation_id"], answered["answer"], answered["via"]) == (
        typed.escalation_id,
        text,
        "edit",
    )
    [card] = harness.cards("radar")
    assert card.settled and f"Answered: {text} — by you" in card.text
