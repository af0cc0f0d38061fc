"""The async client: every agent verb of crewline's HTTP API, typed, over httpx.

Requests are built with the same models the server validates (``crewline.api.schemas``), so
a misspelt argument fails here with the server's own code before anything is sent; refusals
from the server come back as the exceptions of ``crewline.errors`` with their stable codes.
Nothing is retried except reading events: a write retried without an idempotency key could
be written twice. Pass ``idempotency_key=`` to a write to make retrying it safe. One case is
sent again on its own: a read, or a write with a key, whose kept-alive connection closed
before the answer's head came (a server closing it idle just as the request went out).
"""

from __future__ import annotations

import asyncio
import inspect
import math
import os
from collections.abc import AsyncIterator, Sequence
from types import TracebackType
from typing import Any, Self
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ValidationError

from crewline import __version__
from crewline.api.schemas import (
    AskBody,
    EscalateBody,
    HubAnswerBody,
    HubDispatchBody,
    HubRespawnBody,
    HubStopBody,
    PostBody,
    SendBody,
    refusal,
)
from crewline.client.cursor import CursorFile, CursorSink
from crewline.client.results import (
    Acted,
    Asked,
    Escalated,
    EscalationRecord,
    Event,
    EventPage,
    Posted,
    Replied,
    Sent,
    SessionInfo,
    Suggested,
)
from crewline.errors import (
    BacklogFull,
    Conflict,
    CrewlineError,
    Forbidden,
    InvalidInput,
    NotFound,
    Unauthenticated,
    Unavailable,
)
from crewline.kept_alive import KEEP_ALIVE_EXPIRY, send_with_one_resend

__all__ = ["DEFAULT_URL", "Client"]

DEFAULT_URL = "http://127.0.0.1:8765"

# The reverse of the server's status table (crewline.api.http.STATUS).
_BY_STATUS: dict[int, type[CrewlineError]] = {
    400: InvalidInput,
    401: Unauthenticated,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    429: BacklogFull,
    503: Unavailable,
}


_SETTLING = frozenset(
    {"escalation_answered", "question_answered", "window_closed", "escalation_retracted"}
)


def _build(model: type[BaseModel], **fields: Any) -> dict[str, Any]:
    try:
        body = model.model_validate({k: v for k, v in fields.items() if v is not None})
    except ValidationError as error:
        raise refusal(error.errors()) from None
    return body.model_dump(exclude_none=True)


def _quoted(record_id: str) -> str:
    return quote(record_id, safe="")


def error_from(response: httpx.Response) -> CrewlineError:
    """The crewline error a refusal stands for, from its body's stable code."""
    try:
        error = response.json()["error"]
        code, message = str(error.pop("code")), str(error.pop("message"))
    except (ValueError, KeyError, TypeError, AttributeError):
        code, message, error = "http_error", f"HTTP {response.status_code}", {}
    kind = _BY_STATUS.get(response.status_code)
    if kind is None:
        kind = Unavailable if response.status_code >= 500 else CrewlineError
    return kind(message, code=code, **error)


class Client:
    """``async with Client(key, url=...) as crewline``: one session's verbs.

    ``key`` and ``url`` default to ``$CREWLINE_SESSION_KEY`` and ``$CREWLINE_URL``. Pass
    ``transport=`` to reach the server another way (``httpx.ASGITransport`` in-process).
    """

    def __init__(
        self,
        key: str | None = None,
        *,
        url: str | None = None,
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        key = key or os.environ.get("CREWLINE_SESSION_KEY")
        if not key:
            raise Unauthenticated(
                "no session key: pass one or set CREWLINE_SESSION_KEY", code="missing_key"
            )
        self.url = (url or os.environ.get("CREWLINE_URL") or DEFAULT_URL).rstrip("/")
        self._http = httpx.AsyncClient(
            base_url=self.url,
            headers={"Authorization": f"Bearer {key}", "User-Agent": f"crewline/{__version__}"},
            timeout=timeout,
            limits=httpx.Limits(keepalive_expiry=KEEP_ALIVE_EXPIRY),
            transport=transport,
        )

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    # the verbs --------------------------------------------------------------------------------
    async def escalate(
        self,
        message: str,
        *,
        deadline: str | None = None,
        default_action: str | None = None,
        options: Sequence[str] | None = None,
        goal: str | None = None,
        idempotency_key: str | None = None,
        wait_for_delivery: bool = True,
    ) -> Escalated:
        """Raise a decision to your human; returns at once (nothing waits for the answer).

        With ``idempotency_key`` a retry of the same call (same key, same arguments, within
        24 hours) returns the first answer and writes nothing new. ``wait_for_delivery``:
        False answers without waiting (up to a quarter of a second) for the platforms to
        accept the card; ``delivery`` then says ``queued`` for each configured transport."""
        body = _build(
            EscalateBody,
            message=message,
            deadline=deadline,
            default_action=default_action,
            options=list(options) if options is not None else None,
            goal=goal,
            wait_for_delivery=wait_for_delivery,
        )
        return Escalated.model_validate(
            await self._call(
                "POST", "/api/session-control/escalate", json=body, idempotency_key=idempotency_key
            )
        )

    async def send(self, target: str, message: str, *, idempotency_key: str | None = None) -> Sent:
        """A message in another member's thread, and a ``message`` event for its session."""
        body = _build(SendBody, target=target, message=message)
        return Sent.model_validate(
            await self._call(
                "POST", "/api/session-control/send", json=body, idempotency_key=idempotency_key
            )
        )

    async def ask(
        self,
        question: str,
        *,
        options: Sequence[str] | None = None,
        dialog: bool = False,
        idempotency_key: str | None = None,
    ) -> Asked:
        """A question card; returns its id at once, the answer arrives as an event."""
        body = _build(
            AskBody,
            question=question,
            options=list(options) if options is not None else None,
            dialog=dialog,
        )
        return Asked.model_validate(
            await self._call(
                "POST", "/api/session-control/ask", json=body, idempotency_key=idempotency_key
            )
        )

    async def post(self, text: str, *, idempotency_key: str | None = None) -> Posted:
        """A row in your own member's thread (or your own transcript)."""
        body = _build(PostBody, text=text)
        return Posted.model_validate(
            await self._call(
                "POST", "/api/session/messages", json=body, idempotency_key=idempotency_key
            )
        )

    async def escalation(self, escalation_id: str) -> EscalationRecord:
        """One of your escalations as crewline keeps it: state, answer, who, when."""
        return EscalationRecord.model_validate(
            await self._call("GET", f"/api/session-control/escalations/{_quoted(escalation_id)}")
        )

    async def retract(self, escalation_id: str) -> EscalationRecord:
        """Withdraw your own open escalation; its card settles as withdrawn everywhere."""
        path = f"/api/session-control/escalations/{_quoted(escalation_id)}/retract"
        return EscalationRecord.model_validate(await self._call("POST", path))

    async def default_applied(self, escalation_id: str) -> EscalationRecord:
        """Confirm the default of a closed window ran, so the card can say it did."""
        path = f"/api/session-control/escalations/{_quoted(escalation_id)}/default-applied"
        return EscalationRecord.model_validate(await self._call("POST", path))

    async def whoami(self) -> SessionInfo:
        """The session this key stands for, and the verbs crewline lets it use."""
        return SessionInfo.model_validate(await self._call("GET", "/api/session"))

    # the hub_* verbs of a session of kind concierge (anyone else: Forbidden caller_blocked)
    async def hub_suggest(self, record_id: str, text: str, *, why: str = "") -> Suggested:
        """Leave a suggested answer on a member's waiting escalation or question."""
        body = _build(HubAnswerBody, record_id=record_id, text=text, why=why)
        return Suggested.model_validate(
            await self._call("POST", "/api/concierge/suggest", json=body)
        )

    async def hub_reply(self, record_id: str, text: str, *, why: str = "") -> Replied:
        """Answer a member's waiting record for the human, if the policy and gate allow."""
        body = _build(HubAnswerBody, record_id=record_id, text=text, why=why)
        return Replied.model_validate(await self._call("POST", "/api/concierge/reply", json=body))

    async def hub_stop(self, session_id: str, *, why: str) -> Acted:
        """Stop another session (only with the owner's ``act on``)."""
        body = _build(HubStopBody, session_id=session_id, why=why)
        return Acted.model_validate(await self._call("POST", "/api/concierge/stop", json=body))

    async def hub_respawn(self, session_id: str, launcher: str, *, why: str) -> Acted:
        """Stop a session and start ``launcher`` as its successor (``act on``)."""
        body = _build(HubRespawnBody, session_id=session_id, launcher=launcher, why=why)
        return Acted.model_validate(await self._call("POST", "/api/concierge/respawn", json=body))

    async def hub_dispatch(self, launcher: str, *, why: str, member: str | None = None) -> Acted:
        """Start ``launcher`` as a new worker of ``member`` (``act on``)."""
        body = _build(HubDispatchBody, launcher=launcher, member=member, why=why)
        return Acted.model_validate(await self._call("POST", "/api/concierge/dispatch", json=body))

    async def poll(self, *, after: int = 0, wait: float = 0.0) -> EventPage:
        """One read of the event stream: the events after ``after``, waiting up to ``wait``
        seconds (at most 60) for the first."""
        found = await self._call(
            "GET",
            "/api/session/events",
            params={"after": after, "wait": wait},
            timeout=wait + self._http.timeout.read if self._http.timeout.read else None,
        )
        return EventPage.model_validate(found)

    async def events(
        self,
        *,
        after: int | None = None,
        cursor_file: str | os.PathLike[str] | None = None,
        on_cursor: CursorSink | None = None,
        wait: float = 30.0,
        backoff: tuple[float, float] = (0.5, 30.0),
    ) -> AsyncIterator[Event]:
        """Every event of this session from the cursor on, forever, each exactly once.

        It starts after ``after``, else after the cursor saved in ``cursor_file``, else from
        the beginning. Each event's cursor is saved (to the file, and to ``on_cursor``) before
        the event is handed to you, so an event is never handed over twice, not even after a
        restart of your program; an event your program was handed but did not finish with is
        not handed over again either (use ``poll`` to manage the cursor yourself). When
        crewline cannot be reached, or answers 5xx, it waits and reconnects, doubling the
        wait from ``backoff[0]`` up to ``backoff[1]`` seconds; a refusal (a bad key) raises.
        """
        store = CursorFile(cursor_file) if cursor_file is not None else None
        cursor = after if after is not None else (store.load() if store else 0)
        delay = backoff[0]
        while True:
            try:
                page = await self.poll(after=cursor, wait=wait)
            except Unavailable:
                await asyncio.sleep(delay)
                delay = min(delay * 2, backoff[1])
                continue
            delay = backoff[0]
            for event in page.events:
                if event.cursor <= cursor:
                    continue
                cursor = event.cursor
                if store is not None:
                    await asyncio.to_thread(store.save, cursor)
                if on_cursor is not None:
                    saved = on_cursor(cursor)
                    if inspect.isawaitable(saved):
                        await saved
                yield event

    async def wait_settled(
        self,
        *,
        escalation_id: str | None = None,
        question_id: str | None = None,
        timeout: float | None = None,
    ) -> Event | None:
        """The event that settled the escalation or question (answered, window closed,
        withdrawn), reading your stream from its start; None if none came within
        ``timeout`` seconds. For scripts that wait on one record; agents that do several
        things at once read ``events()`` instead."""
        field, record_id = (
            ("escalation_id", escalation_id) if escalation_id else ("question_id", question_id)
        )
        if not record_id:
            raise InvalidInput("name an escalation_id or a question_id", code="missing_field")

        async def first() -> Event:
            async for event in self.events(after=0, wait=25):
                if event.kind in _SETTLING and event.body.get(field) == record_id:
                    return event
            raise AssertionError("the event stream does not end")

        try:
            async with asyncio.timeout(None if timeout in (None, math.inf) else timeout):
                return await first()
        except TimeoutError:
            return None

    # the wire ---------------------------------------------------------------------------------
    async def _call(
        self,
        method: str,
        path: str,
        *,
        json: dict[str, Any] | None = None,
        params: dict[str, Any] | None = None,
        timeout: float | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key is not None else None
        request = self._http.build_request(
            method,
            path,
            json=json,
            params=params,
            headers=headers,
            timeout=timeout if timeout is not None else httpx.USE_CLIENT_DEFAULT,
        )
        try:
            response = await send_with_one_resend(
                self._http, request, repeatable=method == "GET" or idempotency_key is not None
            )
        except httpx.TransportError as error:
            raise Unavailable(
                f"crewline at {self.url} could not be reached: {type(error).__name__}",
                code="unreachable",
                url=self.url,
                cause=type(error).__name__,
            ) from error
        if response.status_code != 200:
            raise error_from(response)
        result: dict[str, Any] = response.json()
        return result
