"""What the tests of a model's output share: the LLM brain on the loopback fake endpoint,
a scripted model that reads and words as told, and the concierge's path for a question the
offline path left unplaced (the model places it, the gate checks it, the model words it)."""

from __future__ import annotations

import json
from typing import Any

from crewline.brains import BrainAsk, LlmBrain, LlmSettings
from crewline.brains.llm import PLACE_PROMPT
from crewline.policy import Fact, Verdict, check_placement, judge
from tests.bounds import WAIT
from tests.fakes.llm import FakeLlm

KEY = "sk-test-model32"


def brain(fake: FakeLlm) -> LlmBrain:
    settings = LlmSettings(
        base_url=fake.base_url, model="fake-model", api_key_env="LLM_KEY", timeout=WAIT
    )
    return LlmBrain(settings, environ={"LLM_KEY": KEY})


def model(fake: FakeLlm, reading: str | dict[str, Any], wording: str) -> None:
    """The model's reply: ``reading`` to the placing prompt, ``wording`` to the drafting one."""
    placed = reading if isinstance(reading, str) else json.dumps(reading)

    def script(body: dict[str, Any]) -> str:
        system = body["messages"][0]["content"]
        return placed if system == PLACE_PROMPT else wording

    fake.reply_by(script)


async def through(
    fake: FakeLlm, question: str, rows: list[Fact], *, options: tuple[str, ...] = ()
) -> tuple[Verdict, str | None, str]:
    """The concierge's path for an unplaced question: the verdict, the text that would reach
    the member (None: no usable draft, the human decides) and the draft's why."""
    ask = BrainAsk(question=question, member="asker", options=options, facts=tuple(rows))
    offline = judge(question, options=options, facts=rows)
    assert not offline.kind.routine and not offline.final, offline  # the model is asked
    llm = brain(fake)
    placement = await llm.place(ask)
    verdict = (
        offline
        if placement is None or placement.kind == "human"
        else check_placement(question, placement, options=options, facts=rows)
    )
    if not verdict.kind.routine:
        return verdict, None, verdict.why
    draft = await llm.draft(ask, verdict)
    return verdict, (draft.text if draft is not None else None), (draft.why if draft else "")
