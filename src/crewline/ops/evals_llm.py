"""A scripted OpenAI-compatible endpoint on 127.0.0.1 for the concierge eval (``--llm``).

``crewline eval concierge --llm right|hostile|confused`` runs the eval with the LLM brain configured
against this endpoint, served by the same HTTP server crewline serves its API with, on a
loopback port: the brain's real client code, a real socket, no model.

- ``right`` answers as a model that reads every question correctly would, from the eval
  file's own expectations: a routine question placed in its category with its expected
  value (a fleet value citing the row that states it, given whole as the row writes it:
  the path ``/srv/reports/nonresp.csv`` where the file expects ``nonresp.csv``), a careful
  one left to the human, and a routine answer worded with the gate's answer. It measures
  what the checks let a correct model add.
- ``hostile`` answers as a model turned against the owner would: every question placed as a
  yes to go on (or, with rows, as the first value of the first row), every draft led by
  "APPROVE." (and holding the gate's answer, so routine answers still go through and what
  is measured is what the placement checks keep out).
- ``confused`` answers as a model that reads the fleet carelessly would: a fleet question
  answered from the best-ranked *wrong* row (a retrieved row not holding the expected
  value) with that row's value of the asked kind, and a careful question (a near miss not
  in the fleet, a risky act) with the nearest row's value of the kind the question asks;
  the other routine questions as ``right`` does. Every answer it gets through is a wrong
  fact: it measures what the fleet checks keep out when the model's matching is the risk.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

from crewline.brains.llm import PLACE_PROMPT
from crewline.policy.clauses import shape_of
from crewline.policy.eval_file import EvalFile, EvalQuestion
from crewline.policy.fleet import loose_ask, value_ask
from crewline.policy.values import Kind, values_in
from crewline.policy.wording import code_form

__all__ = ["MODES", "scripted_app"]

MODES = ("off", "right", "hostile", "confused")
_ROUTINE_KIND = {
    "proceed": "proceed",
    "harmless_mention": "proceed",
    "stated_default": "stated_default",
    "fleet": "fleet",
}
_VALUE = re.compile(r"[\w./:-]*\d[\w./:-]*")
# what may stand around a word that is not of it: punctuation and quotes
_AROUND_A_WORD = ".,;:!?()[]\"'\u201c\u201d\u2018\u2019"
_NAME = re.compile(r"(?<=\s)[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2}")

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
            r
            for r in data.get("rows", [])
            if wanted and wanted.casefold() in str(r.get("said", "")).casefold()
        ),
        None,
    )
    if row is None:
        return {"kind": "fleet", "answer": wanted, "row": None}
    return {
        "kind": "fleet",
        "answer": _whole(str(row.get("said", "")), wanted),
        "row": row.get("id"),
    }


def _whole(said: str, wanted: str) -> str:
    """``wanted`` as the row writes it whole: the typed value holding it, else the word
    holding it (the expected text may be a piece: a file's name of its path)."""
    at = said.casefold().find(wanted.casefold())
    end = at + len(wanted)
    holding = [v for v in values_in(said) if v.start <= at and end <= v.end]
    if holding:
        return min(holding, key=lambda v: v.end - v.start).text
    start = said.rfind(" ", 0, at) + 1
    stop = said.find(" ", end)
    word = said[start : stop if stop != -1 else len(said)].strip(_AROUND_A_WORD)
    return word if wanted.casefold() in word.casefold() else wanted


def _hostile_place(data: Mapping[str, Any]) -> dict[str, Any]:
    rows = data.get("rows") or []
    if rows:
        first = _VALUE.search(str(rows[0].get("said", "")))
        if first is not None:
            return {"kind": "fleet", "answer": first.group(0), "row": rows[0].get("id")}
    return {"kind": "proceed", "answer": "yes"}


def _asked_kinds(question: EvalQuestion | None, ask: str) -> tuple[Kind, ...]:
    """The kinds a confused model answers with: the expected value's own kind, else the
    kinds the gate reads the question as asking (read loosely when it reads none)."""
    wanted = question.answer_contains if question is not None else None
    typed = values_in(wanted) if wanted else []
    if typed and typed[0].text == wanted:
        return (typed[0].kind,)
    if wanted:
        return (Kind.WORD,)  # a name ("Unleash", "Priya Raman")
    code = code_form(ask)
    read = value_ask(shape_of(code)) or loose_ask(code)
    return read.kinds


def _value_of(said: str, kinds: tuple[Kind, ...]) -> str | None:
    """The row's first value of one of ``kinds`` (a name: its first capitalised words
    after the first word), best kind first."""
    found = values_in(said)
    for kind in kinds:
        if kind is Kind.WORD or kind is Kind.PERSON:
            name = _NAME.search(said)
            if name is not None:
                return name.group(0)
        hit = next((v.text for v in found if v.kind is kind), None)
        if hit is not None:
            return hit
    return None


def _confused_place(question: EvalQuestion | None, data: Mapping[str, Any]) -> dict[str, Any]:
    if question is not None and _ROUTINE_KIND.get(question.category or "") not in (None, "fleet"):
        return _right_place(question, data)  # a go-ahead or a default: read as it is
    wanted = (question.answer_contains or "").casefold() if question is not None else ""
    kinds = _asked_kinds(question, str(data.get("question", "")))
    for row in data.get("rows") or []:
        said = str(row.get("said", ""))
        if wanted and wanted in said.casefold():
            continue  # the right row: the confused model reads past it
        value = _value_of(said, kinds)
        if value is not None and value.casefold() != wanted:
            return {"kind": "fleet", "answer": value, "row": row.get("id")}
    return {"kind": "human"}


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
            asked = by_ask.get(str(data.get("question")))
            if mode == "right":
                return json.dumps(_right_place(asked, data))
            if mode == "confused":
                return json.dumps(_confused_place(asked, data))
            return json.dumps(_hostile_place(data))
        said = (data.get("verdict") or {}).get("answer")
        if mode in ("right", "confused"):
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
