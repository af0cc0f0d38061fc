"""The OpenAI-compatible fake, proven with a plain HTTP client over loopback."""

from __future__ import annotations

import asyncio

import httpx

from tests.bounds import HTTP_TIMEOUT
from tests.fakes.llm import FakeLlm

BODY = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


async def test_it_answers_a_chat_completion_and_records_the_request() -> None:
    """A completion in OpenAI's shape; the path, key and body are recorded."""
    async with FakeLlm() as fake, httpx.AsyncClient(timeout=HTTP_TIMEOUT) as client:
        fake.reply_with("hello")
        response = await client.post(
            f"{fake.base_url}/chat/completions", json=BODY, headers={"Authorization": "Bearer k"}
        )
        assert response.status_code == 200
        assert response.json()["choices"][0]["message"] == {"role": "assistant", "content": "hello"}
        [request] = fake.requests
        assert (request.path, request.authorization, request.body) == (
            "/v1/chat/completions",
            "Bearer k",
            BODY,
        )


async def test_it_holds_a_request_until_released() -> None:
    """hold() keeps the request open; release() lets it finish."""
    async with FakeLlm() as fake, httpx.AsyncClient(timeout=HTTP_TIMEOUT) as client:
        fake.hold()
        pending = asyncio.create_task(client.post(f"{fake.base_url}/chat/completions", json=BODY))
        await fake.wait_for_requests(1)
        assert fake.holding and not pending.done()
        fake.release()
        response = await asyncio.wait_for(pending, timeout=5.0)
        assert response.status_code == 200
        assert not fake.holding


async def test_it_fails_and_babbles_on_request() -> None:
    """fail(status) answers that status; answer_garbage() a body that is not JSON."""
    async with FakeLlm() as fake, httpx.AsyncClient(timeout=HTTP_TIMEOUT) as client:
        fake.fail(503)
        failed = await client.post(f"{fake.base_url}/chat/completions", json=BODY)
        fake.answer_garbage()
        garbage = await client.post(f"{fake.base_url}/chat/completions", json=BODY)
    assert failed.status_code == 503
    assert garbage.status_code == 200
    assert not garbage.content.startswith(b"{")
