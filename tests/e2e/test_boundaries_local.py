"""Boundaries in the local inbox: the Rewind to here button, the Edit action, /rewind N."""

from __future__ import annotations

from typing import Any

import pytest

from crewline.transports.local.render import thread_json
from tests.driver import Crew
from tests.e2e.boundary_scene import Scene, scene
from tests.harnesses.local import LocalHarness

pytestmark = pytest.mark.parametrize("harness", ["local"], indirect=True)


async def _ref(s: Scene, text: str) -> str:
    shown = await s.crew.crewline.store.platform_message("local", f"row:{s.rows[text].id}")
    assert shown is not None
    return shown.message_ref


def _shown(harness: LocalHarness, ref: str) -> dict[str, Any]:
    found: dict[str, Any] = next(
        m for m in thread_json(harness.inbox.view, "radar")["messages"] if m["ref"] == ref
    )
    return found


async def test_rewind_to_here_marks_the_rewound_messages(crew: Crew, harness: LocalHarness) -> None:
    """The button on m2: h2 (the owner's) and m3 (crewline's) are shown as rewound."""
    s = await scene(crew, stateless=True)
    h2, m3 = await _ref(s, "h2"), await _ref(s, "m3")
    assert not _shown(harness, h2)["rewound"] and not _shown(harness, m3)["rewound"]
    answer = await harness.post(
        "/inbox/rewind", {"thread": "radar", "message": await _ref(s, "m2")}
    )
    assert answer["accepted"], answer
    assert answer["notice"] == "Rewound: 2 messages left Radar's conversation."
    await harness.wait_until(
        lambda: _shown(harness, h2)["rewound"] and _shown(harness, m3)["rewound"]
    )
    assert (await s.live())[:3] == ["m1", "h1", "m2"] and "h2" not in await s.live()


async def test_the_edit_action_resends_and_an_unchanged_edit_does_nothing(
    crew: Crew, harness: LocalHarness
) -> None:
    """Edit with new text is edit-resend; saving the same text starts nothing."""
    s = await scene(crew, stateless=True)
    h2 = await _ref(s, "h2")
    same = await harness.edit("radar", h2, "h2")
    assert same.code == "not_modified"
    assert not [e for e in await s.read() if e["kind"] == "context_boundary"]
    edited = await harness.edit("radar", h2, "h2 edited")
    assert edited.accepted, edited
    await harness.wait_until(lambda: any(m.text == "h2 edited" for m in harness.messages("radar")))
    assert (await s.live())[-1] == "h2 edited"


async def test_rewind_n_in_the_composer(crew: Crew, harness: LocalHarness) -> None:
    """/rewind 2 typed in the thread continues from h1."""
    s = await scene(crew, stateless=True)
    notice = await harness.command("rewind", "2", member="radar")
    assert notice == "Rewound: 3 messages left Radar's conversation."
    assert (await s.live())[:2] == ["m1", "h1"]


async def test_someone_else_is_refused(crew: Crew, harness: LocalHarness) -> None:
    """A person who does not own the member changes nothing."""
    s = await scene(crew, stateless=True)
    receipt = await harness.inbox.rewind_to(
        thread="radar", message_ref=await _ref(s, "m2"), user="mallory"
    )
    assert not receipt.accepted
    assert await s.live() == ["m1", "h1", "m2", "h2", "m3"]
