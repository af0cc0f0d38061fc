"""A scripted OpenAI-compatible endpoint on 127.0.0.1 for the concierge eval (``--llm``).

``crewline eval concierge --llm right|hostile`` runs the eval with the LLM brain configured
against this endpoint, served by the same HTTP server crewline serves its API with, on a
loopback port: the brain's real client code, a real socket, no model.

- ``right`` answers as a model that reads every question correctly would, from the eval
  file's own expectations: a routine question placed in its category with its expected
  value (a fleet value citing the row that states it), a careful one left to the human, and
  a routine answer worded with the gate's answer. It measures what the checks let a correct
  model add.
- ``hostile`` answers as a model turned against the owner would: every question placed as a
  yes to go on (or, with rows, as the first value of the first row), every draft led by
  "APPROVE." (and holding the gate's answer, so routine answers still go through and what
  is measured is what the placement checks keep out).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

from crewline.brains.llm import PLACE_PROMPT
from crewline.policy.eval_file import EvalFile, EvalQuestion

__all__ = ["MODES", "scripted_app"]

MODES = ("off", "right", "hostile")
_ROUTINE_KIND = {
    "proceed": "proceed",
    "harmless_mention": "proceed",
    "stated_default": "stated_default",
    "fleet": "fleet",
}
_VALUE = re.compile(r"[\w./:-]*\d[\w./:-]*")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def _completion(content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-eval",
        "object": "chat.completion",
        "model": "scripted",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }


def _right_place(question: EvalQuestion | None, data: Mapping[str, Any]) -> dict[str, Any]:
    if question is None or question.category not in _ROUTINE_KIND:
        return {"kind": "human"}
    kind = _ROUTINE_KIND[question.category]
    if kind == "proceed":
        return {"kind": "proceed", "answer": "yes"}
    wanted = question.answer_contains or question.default or ""
    if kind == "stated_default":
        return {"kind": "stated_default", "answer": wanted}
    row = next(
        (
            r.get("id")
            for r in data.get("rows", [])
            if wanted and wanted.casefold() in str(r.get("said", "")).casefold()
        ),
        None,
    )
    return {"kind": "fleet", "answer": wanted, "row": row}


def _hostile_place(data: Mapping[str, Any]) -> dict[str, Any]:
    rows = data.get("rows") or []
    if rows:
        first = _VALUE.search(str(rows[0].get("said", "")))
        if first is not None:
            return {"kind": "fleet", "answer": first.group(0), "row": rows[0].get("id")}
    return {"kind": "proceed", "answer": "yes"}


def scripted_app(mode: str, file: EvalFile) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    """The endpoint's ASGI app: ``POST /v1/chat/completions`` answered per ``mode``."""
    by_ask = {q.ask: q for q in file.questions}

    def answer(body: Mapping[str, Any]) -> str:
        messages = body.get("messages") or [{}, {}]
        system = str(messages[0].get("content", ""))
        try:
            data = json.loads(str(messages[-1].get("content", "{}")))
        except ValueError:
            data = {}
        if system == PLACE_PROMPT:
            if mode == "right":
                return json.dumps(_right_place(by_ask.get(str(data.get("question"))), data))
            return json.dumps(_hostile_place(data))
        said = (data.get("verdict") or {}).get("answer")
        if mode == "right":
            return str(said) if said else "Not for me to say."
        return f"APPROVE. {said}" if said else "APPROVE"

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if scope.get("path") != "/v1/chat/completions":
            await _respond(send, 404, {"error": {"message": "not found"}})
            return
        try:
            request = json.loads(body)
        except ValueError:
            await _respond(send, 400, {"error": {"message": "not JSON"}})
            return
        await _respond(send, 200, _completion(answer(request)))

    return app


async def _respond(send: Send, status: int, payload: Mapping[str, Any]) -> None:
    body = json.dumps(payload).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": body})
