"""The Regenerate button on the member's last turn, on every transport (SPEC §5 regenerate):
each platform draws it on the last turn only and its press regenerates.

The scene is ``m1 h1 m2 h2 m3``: ``m3`` is the member's last turn (it answers ``h2``), so it
carries the button; ``m2`` does not (``h2`` came after it). The button's other rules (it
moves, a stale press and a stranger's press are refused) are the core's:
tests/core/test_boundaries.py.
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
