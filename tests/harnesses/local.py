"""The local inbox's harness: the human acts through the inbox's own HTTP endpoints.

Every action is the request the page makes — ``GET /`` for the session cookie,
``/inbox/state`` for the CSRF token, then ``POST /inbox/send | click`` — sent with httpx to
the inbox's ASGI app (in process: the harness cannot know the port crewline picks, and the
browser suite covers the real socket). What the thread shows is read through
``render.thread_json``, the function that produces the page's JSON, synchronously, as the
Harness port requires.

A stranger cannot reach the local inbox (it is loopback-only or behind the owner's login
token), so a stranger's action is handed to the transport's inbound method directly — the
method the HTTP handler calls — with the stranger's user id; the core's owner check then
refuses it, which is what the shared suites test.

Each crewline restart gets a new :class:`LocalTransport` over the same journal file, so
cards shown before a restart are still there, with working buttons, after it.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx

from crewline.models import Receipt
from crewline.transports.base import Transport
from crewline.transports.local import JOURNAL_NAME, LocalTransport
from crewline.transports.local.render import state_json, thread_json
from tests.bounds import HTTP_TIMEOUT, WAIT
from tests.harness import Harness, Shown

BASE_URL = "http://127.0.0.1:8765"


class LocalHarness(Harness):
    name = "local"

    def __init__(self, *, host: str = "127.0.0.1", login_token: str | None = None) -> None:
        self.host = host  # the address the inbox believes it is bound to
        self.login_token = login_token
        self._directory: Path | None = None
        self._transport: LocalTransport | None = None
        self._page: httpx.AsyncClient | None = None
        self._csrf = ""
        self._closed: list[httpx.AsyncClient] = []

    @asynccontextmanager
    async def running(self) -> AsyncIterator[Harness]:
        with tempfile.TemporaryDirectory(prefix="crewline-local-") as directory:
            self._directory = Path(directory)
            try:
                yield self
            finally:
                for client in [*self._closed, *([self._page] if self._page else [])]:
                    await client.aclose()

    def transport(self) -> Transport:
        if self._directory is None:
            self._directory = Path(tempfile.mkdtemp(prefix="crewline-local-"))
        self._transport = LocalTransport(
            "local",
            user=self.owner,
            host=self.host,
            login_token=self.login_token,
            view_path=self._directory / JOURNAL_NAME,
        )
        if self._page is not None:  # a new crewline: a new page session, as after a reload
            self._closed.append(self._page)
            self._page = None
        return self._transport

    @property
    def inbox(self) -> LocalTransport:
        assert self._transport is not None, "the harness's transport was never made"
        return self._transport

    # the page's requests ----------------------------------------------------------------------
    async def _open_page(self) -> httpx.AsyncClient:
        if self._page is None:
            _, app = self.inbox.http_mount()
            page = httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app),
                base_url=BASE_URL,
                headers={"Origin": BASE_URL},
                timeout=HTTP_TIMEOUT,
            )
            opened = await page.get("/")
            assert opened.status_code == 200, opened.text
            state = await page.get("/inbox/state")
            assert state.status_code == 200, state.text
            self._csrf = state.json()["csrf"]
            self._page = page
        return self._page

    async def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST as the page does (session cookie, CSRF header, JSON); returns the JSON."""
        page = await self._open_page()
        response = await page.post(path, json=body, headers={"X-Crewline-CSRF": self._csrf})
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        return answer

    async def get(self, path: str) -> dict[str, Any]:
        page = await self._open_page()
        response = await page.get(path)
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        return answer

    # the Harness port ---------------------------------------------------------------------------
    async def say(self, member: str, text: str, *, user: str | None = None) -> Receipt | None:
        if user not in (None, self.owner):
            receipt, _ = await self.inbox.send_text(thread=member, text=text, user=user)
            return receipt
        answer = await self.post("/inbox/send", {"thread": member, "text": text})
        return Receipt(accepted=answer["accepted"], code=answer["code"], notice=answer["notice"])

    async def press(
        self, member: str, message: Shown, choice: int, *, user: str | None = None
    ) -> str | None:
        return await self.press_payload(member, message.payloads[choice], user=user)

    async def press_payload(
        self, member: str, payload: str, *, user: str | None = None
    ) -> str | None:
        if user not in (None, self.owner):
            receipt = await self.inbox.click(thread=member, payload=payload, user=user)
            return receipt.notice
        answer = await self.post("/inbox/click", {"thread": member, "payload": payload})
        notice: str | None = answer["notice"]
        return notice

    async def command(self, name: str, *args: str, member: str | None = None) -> str | None:
        answer = await self.post(
            "/inbox/send", {"thread": member, "text": " ".join([f"/{name}", *args])}
        )
        notice: str | None = answer["notice"]
        return notice

    async def edit(self, member: str, message_ref: str, text: str) -> Receipt:
        """Edit one of the owner's own messages, as the page's Edit action does."""
        answer = await self.post(
            "/inbox/edit", {"thread": member, "message": message_ref, "text": text}
        )
        return Receipt(accepted=answer["accepted"], code=answer["code"], notice=answer["notice"])

    def messages(self, member: str) -> list[Shown]:
        """What crewline shows in the thread (the owner's own typed rows left out, as every
        other harness shows only what crewline posted)."""
        return [
            Shown(
                ref=m["ref"],
                text=m["text"],
                buttons=tuple(b["label"] for b in m["buttons"]),
                payloads=tuple(b["payload"] for b in m["buttons"]),
            )
            for m in thread_json(self.inbox.view, member)["messages"]
            if not m["mine"]
        ]

    def typed(self, member: str) -> list[dict[str, Any]]:
        """The rows the owner typed in the thread, as the page shows them."""
        return [m for m in thread_json(self.inbox.view, member)["messages"] if m["mine"]]

    def bells(self) -> dict[str, list[str]]:
        return {
            b["group_key"]: list(b["versions"])
            for b in state_json(self.inbox.view, user=self.owner)["bells"]
        }

    async def wait_until(self, condition: Callable[[], bool], *, timeout: float = WAIT) -> None:
        async with asyncio.timeout(timeout):
            while not condition():
                view = self.inbox.view
                if view.closed:  # crewline is restarting: the next transport brings a new view
                    await asyncio.sleep(0.01)
                    continue
                await view.wait_changed(view.version)


def register(harnesses: dict[str, Callable[[], Harness]]) -> None:
    harnesses["local"] = LocalHarness
