"""The Regenerate button on the member's last turn, on every transport (SPEC §5 regenerate).

The scene is ``m1 h1 m2 h2 m3``: ``m3`` is the member's last turn (it answers ``h2``), so it
carries the button; ``m2`` does not (``h2`` came after it).
"""

from __future__ import annotations

from tests.driver import Crew
from tests.e2e.boundary_scene import Scene, scene
from tests.harness import Shown

LABEL = "Regenerate"


def _shown(s: Scene, text: str) -> Shown:
    found = [m for m in s.crew.harness.messages("radar") if text in m.text]
    assert len(found) == 1, found
    return found[0]


def _regenerate(message: Shown) -> int | None:
    return message.buttons.index(LABEL) if LABEL in message.buttons else None


async def test_the_last_turn_carries_the_button_and_pressing_it_regenerates(crew: Crew) -> None:
    """Only m3 shows Regenerate; the owner's press rewinds m3 and gives the member h2 again."""
    s = await scene(crew, stateless=True)
    await crew.delivered()
    m3 = _shown(s, "m3")
    choice = _regenerate(m3)
    assert choice is not None, m3
    assert _regenerate(_shown(s, "m2")) is None
    notice = await crew.harness.press("radar", m3, choice)
    assert notice is not None and notice.startswith("Regenerating: 1 message left"), notice
    assert await s.live() == ["m1", "h1", "m2", "h2", notice]
    again = [e for e in await s.read() if e["body"].get("regenerate")]
    assert [e["body"]["text"] for e in again] == ["h2"]
    await crew.delivered()
    assert _regenerate(_shown(s, "m3")) is None  # rewound: its button is gone


async def test_the_button_goes_when_the_turn_ends_and_a_stale_press_is_refused(
    crew: Crew,
) -> None:
    """The owner writes h3: m3 loses the button; its old payload is refused, nothing done."""
    s = await scene(crew, stateless=True)
    await crew.delivered()
    m3 = _shown(s, "m3")
    choice = _regenerate(m3)
    assert choice is not None
    receipt = await crew.harness.say("radar", "h3")
    assert receipt is not None and receipt.accepted
    await crew.delivered()
    await crew.harness.wait_until(lambda: _regenerate(_shown(s, "m3")) is None)
    notice = await crew.harness.press_payload("radar", m3.payloads[choice])
    assert notice is not None and "no longer Radar's last turn" in notice, notice
    assert await s.live() == ["m1", "h1", "m2", "h2", "m3", "h3"]
    assert not [e for e in await s.read() if e["kind"] == "context_boundary"]


async def test_the_member_writing_again_moves_the_button_to_its_new_message(crew: Crew) -> None:
    """m4 after m3: the button leaves m3 for m4."""
    s = await scene(crew, stateless=True)
    await crew.delivered()
    assert _regenerate(_shown(s, "m3")) is not None
    await s.post("m4")
    await crew.delivered()
    await crew.harness.wait_until(lambda: _regenerate(_shown(s, "m3")) is None)
    assert _regenerate(_shown(s, "m4")) is not None


async def test_someone_else_s_press_is_refused_and_changes_nothing(crew: Crew) -> None:
    """A press by a person who does not own the member: refused privately and audited."""
    s = await scene(crew, stateless=True)
    await crew.delivered()
    m3 = _shown(s, "m3")
    choice = _regenerate(m3)
    assert choice is not None
    notice = await crew.harness.press("radar", m3, choice, user=crew.harness.stranger)
    assert notice is not None and "owner" in notice, notice
    assert await s.live() == ["m1", "h1", "m2", "h2", "m3"]
    audit = await crew.crewline.store.sel(action_prefix="click:")
    assert [r.action for r in audit] == ["click:not_owner"]
