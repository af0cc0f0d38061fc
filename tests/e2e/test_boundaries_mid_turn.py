"""boundary_mid_turn = "refuse": no boundary while a session of the member is mid-turn.

A session says when it is in the middle of a turn (``POST /api/session/turn``); with the
setting, a boundary asked meanwhile is refused before anything is sent (409
``boundary_mid_turn``): no event, no row, no SEL record, since nothing was discarded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from crewline.config import Config
from tests.driver import Crew
from tests.e2e.boundary_scene import Scene, scene

UNCHANGED = ["m1", "h1", "m2", "h2", "m3"]


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return Config(data_dir=tmp_path / "data", port=0, transports=(), boundary_mid_turn="refuse")


async def _turn(s: Scene, state: str) -> dict[str, Any]:
    response = await s.crew.call(s.key, "POST", "/api/session/turn", json={"state": state})
    assert response.status_code == 200, response.text
    said: dict[str, Any] = response.json()
    return said


@pytest.mark.parametrize("harness", ["memory"], indirect=True)
async def test_a_boundary_mid_turn_is_refused_and_writes_nothing(crew: Crew) -> None:
    """409 boundary_mid_turn over the owner's API; after the turn ends the rewind runs."""
    s = await scene(crew, stateless=True)
    started = await _turn(s, "started")
    assert started["state"] == "started" and started["since"] is not None
    events = await s.read()
    response = await s.boundary(kind="rewind")
    assert response.status_code == 409, response.text
    error = response.json()["error"]
    assert error["code"] == "boundary_mid_turn"
    assert "in the middle of a turn" in error["message"]
    assert await s.live() == UNCHANGED
    assert await s.read() == events
    assert await s.sel() == []
    assert not await s.in_flight()
    assert (await _turn(s, "ended"))["since"] is None
    done = await s.boundary(kind="rewind")
    assert done.status_code == 200, done.text
    assert done.json()["committed"] is True


@pytest.mark.parametrize("state", ["busy", "", None])
@pytest.mark.parametrize("harness", ["memory"], indirect=True)
async def test_a_bad_turn_state_is_refused(crew: Crew, state: str | None) -> None:
    """Only started or ended; anything else is a 4xx with a code."""
    key = await crew.add_member()
    response = await crew.call(key, "POST", "/api/session/turn", json={"state": state})
    assert 400 <= response.status_code < 500, response.text
    assert response.json()["error"]["code"]


@pytest.mark.parametrize("harness", ["memory"], indirect=True)
async def test_the_regenerate_button_mid_turn_is_refused_with_why(crew: Crew) -> None:
    """The press is answered privately with why; nothing changes. (How each platform says a
    refusal privately: test_escalations.py's stranger's click, over every transport.)"""
    s = await scene(crew, stateless=True)
    await crew.delivered()
    m3 = next(m for m in crew.harness.messages("radar") if "m3" in m.text)
    assert "Regenerate" in m3.buttons
    await _turn(s, "started")
    notice = await crew.harness.press("radar", m3, m3.buttons.index("Regenerate"))
    assert notice is not None and "in the middle of a turn" in notice, notice
    assert await s.live() == UNCHANGED
    assert not [e for e in await s.read() if e["kind"] == "context_boundary"]
