"""/regenerate and /reset as each platform's own command in the member's thread (Slack:
typed in the thread; Discord: slash commands; Telegram: in the topic; the local inbox:
its composer)."""

from __future__ import annotations

from tests.driver import Crew
from tests.e2e.boundary_scene import scene


async def test_regenerate_then_reset_in_the_thread(crew: Crew) -> None:
    """/regenerate rewinds the member's last turn and gives it the owner's last message
    again; /reset then empties the conversation. Each says what it did."""
    s = await scene(crew, stateless=True)
    harness = crew.harness
    regenerated = await harness.command("regenerate", member="radar")
    assert regenerated == (
        "Regenerating: 1 message left Radar's conversation. Radar answers your last message again."
    )
    live = await s.live()
    assert live[:4] == ["m1", "h1", "m2", "h2"] and "m3" not in live, live
    again = [e for e in await s.read() if e["kind"] == "human_message"][-1]
    assert again["body"]["regenerate"] is True and again["body"]["text"] == "h2"
    reset = await harness.command("reset", member="radar")
    assert reset is not None and reset.startswith("Reset: ") and "left Radar's" in reset, reset
    assert [t for t in await s.live() if t.startswith(("m", "h"))] == []
