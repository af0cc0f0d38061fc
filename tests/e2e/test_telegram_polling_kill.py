"""Long polling confirms an update to Telegram only once crewline has handled it.

Telegram forgets an update when a ``getUpdates`` asks for the ones after it. PTB's updater
asked again as soon as it had queued a batch, so an update fetched just before a SIGKILL was
confirmed and never handled. Found by the kill harness
(``tests/reliability/test_kill_points.py``, telegram-polling, seed 1708377815: a confirmed
press with no answer). Here crewline's answer to a press is held at the fake: the press
is handled up to that answer, so the update must not be confirmed yet; crewline is then
killed and the restarted one gets the update again and answers it once.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import httpx
import pytest

from crewline import crew as crew_admin
from crewline.store.open import open_store
from tests.fakes.telegram import FakeTelegram
from tests.serving import crewline_serve

pytestmark = pytest.mark.slow


async def test_a_press_is_confirmed_only_once_handled_and_survives_a_kill_before(
    tmp_path: Path,
) -> None:
    (tmp_path / "crewline.toml").write_text(
        "[telegram]\nper_chat_interval = 0.0\nglobal_per_second = 0.0\npoll_timeout = 2.0\n"
    )
    async with FakeTelegram(has_topics_enabled=True) as fake:
        owner = fake.owner.id
        env = {
            **os.environ,
            "CREWLINE_DATA_DIR": str(tmp_path),
            "CREWLINE_TRANSPORTS": "telegram",
            "TELEGRAM_BOT_TOKEN": fake.token,
            "TELEGRAM_API_URL": fake.base_url,
            "CREWLINE_LOG_LEVEL": "WARNING",
        }
        async with open_store(None, tmp_path) as store:
            made = await crew_admin.add_member(
                store, slug="radar", name="Radar", owners=[f"telegram:{owner}"],
                transports=["telegram"],
            )  # fmt: skip
        headers = {"Authorization": f"Bearer {made.key}"}
        async with crewline_serve(env=env) as (process, url):
            async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as agent:
                asked = await agent.post(
                    "/api/session-control/escalate", json={"message": "go?", "options": ["yes"]}
                )
            assert asked.status_code == 200, asked.text
            escalation = asked.json()["escalation_id"]
            card = await fake.wait_for_message(
                owner, predicate=lambda m: f"e:{escalation}:0" in m.callback_data, timeout=30
            )
            release = fake.hold_next("answerCallbackQuery")
            pressed = await fake.press_button(owner, card.message_id, f"e:{escalation}:0")
            await fake.wait_for(
                lambda: bool(fake.calls_to("answerCallbackQuery")), timeout=30
            )  # handled up to its answer, which the fake holds
            assert not fake.is_confirmed(pressed.update_id)
            process.send_signal(signal.SIGKILL)
            await process.wait()
            release.set()
        async with crewline_serve(env=env) as (_, url):
            await fake.wait_for(lambda: fake.is_confirmed(pressed.update_id), timeout=60)
            async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as agent:
                events = (await agent.get("/api/session/events")).json()["events"]
    answers = [e for e in events if e["kind"] == "escalation_answered"]
    assert [e["body"]["escalation_id"] for e in answers] == [escalation]
