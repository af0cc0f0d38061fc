"""``GET /metrics`` on a crewline bound beyond loopback: only with the metrics token, and
refused outright while none is set (on loopback it stays open: ``test_api.py``)."""

from __future__ import annotations

from dataclasses import replace

import httpx
import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from tests.bounds import HTTP_TIMEOUT
from tests.driver import Crew
from tests.harness import MemoryHarness

TOKEN = "metrics-token-for-the-scraper"

pytestmark = pytest.mark.sqlite_only("the HTTP surface; the store plays no part")


async def _metrics(crew: Crew, authorization: str | None) -> httpx.Response:
    port = crew.url.rpartition(":")[2]
    headers = {"Authorization": authorization} if authorization else {}
    async with httpx.AsyncClient(timeout=HTTP_TIMEOUT) as client:
        return await client.get(f"http://127.0.0.1:{port}/metrics", headers=headers)


async def test_metrics_beyond_loopback_need_the_metrics_token(
    config: Config, clock: FakeClock
) -> None:
    """Bound to every address with metrics_token set: no token 401, another token (the
    owner's) 401, the metrics token 200 with the series."""
    crew = Crew(replace(config, host="0.0.0.0", metrics_token=TOKEN), clock, [MemoryHarness()])
    await crew.start()
    try:
        await crew.add_member()
        owner = await crew.owner_token()
        missing = await _metrics(crew, None)
        wrong = await _metrics(crew, f"Bearer {owner}")
        right = await _metrics(crew, f"Bearer {TOKEN}")
    finally:
        await crew.stop()
    assert (missing.status_code, missing.json()["error"]["code"]) == (401, "missing_key")
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (401, "invalid_key")
    assert right.status_code == 200 and "crewline_http_requests_total" in right.text


async def test_metrics_beyond_loopback_without_a_token_are_refused(
    config: Config, clock: FakeClock
) -> None:
    """Bound to every address with no metrics_token: 403 metrics_token_required, naming the
    setting, whatever is sent."""
    crew = Crew(replace(config, host="0.0.0.0"), clock, [MemoryHarness()])
    await crew.start()
    try:
        refused = await _metrics(crew, f"Bearer {TOKEN}")
    finally:
        await crew.stop()
    assert (refused.status_code, refused.json()["error"]["code"]) == (
        403,
        "metrics_token_required",
    )
    assert "CREWLINE_METRICS_TOKEN" in refused.json()["error"]["message"]
