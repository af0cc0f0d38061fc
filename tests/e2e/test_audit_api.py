"""``GET /api/audit`` over real HTTP: the owner reads the SEL and the concierge's ledger,
page by page; a session may not, and a bad cursor or time is refused with its code."""

from __future__ import annotations

from typing import Any

import pytest

from tests.driver import Crew

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)


async def _page(crew: Crew, token: str, **params: Any) -> dict[str, Any]:
    response = await crew.call(token, "GET", "/api/audit", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_the_owner_reads_the_audit_log_page_by_page(crew: Crew) -> None:
    """A refused escalation (SEL), a rewind (SEL) and the concierge's judgement of a card
    (ledger), oldest first; limit=1 pages through the same entries by the cursor; kind and
    member narrow the list."""
    radar = await crew.add_member(stateless=True)
    channel = await crew.add_session("channel", member="radar")
    token = await crew.owner_token()
    refused = await crew.call(
        channel, "POST", "/api/session-control/escalate", json={"message": "Ship?"}
    )
    assert refused.status_code == 403, refused.text
    posted = await crew.call(radar, "POST", "/api/session/messages", json={"text": "m1"})
    assert posted.status_code == 200, posted.text
    said = await crew.call(token, "POST", "/api/members/radar/reply", json={"text": "h1"})
    assert said.status_code == 200, said.text
    posted = await crew.call(radar, "POST", "/api/session/messages", json={"text": "m2"})
    assert posted.status_code == 200, posted.text
    rewound = await crew.call(
        token, "POST", "/api/members/radar/boundaries", json={"kind": "rewind", "steps": 1}
    )
    assert rewound.status_code == 200, rewound.text
    await crew.escalate(radar, message="Deploy?", options=["yes", "no"])
    # the concierge judges after the escalation's commit: its ledger record follows it
    await crew.crewline.bot.concierge.idle()

    whole = await _page(crew, token)
    kinds = [e["kind"] for e in whole["entries"]]
    assert whole["more"] is False
    assert kinds[0] == "escalate:caller_blocked" and "boundary:rewind" in kinds, kinds
    assert any(k.startswith("ledger:") for k in kinds), kinds
    blocked = whole["entries"][0]
    assert (blocked["id"].split(":")[0], blocked["outcome"], blocked["member"]) == (
        "sel",
        "denied",
        "radar",
    )
    paged: list[dict[str, Any]] = []
    cursor = None
    while True:
        page = await _page(crew, token, limit=1, **({"after": cursor} if cursor else {}))
        paged += page["entries"]
        cursor = page["cursor"]
        if not page["more"]:
            break
    assert paged == whole["entries"]
    assert (await _page(crew, token, after=cursor))["entries"] == []
    ledger = await _page(crew, token, kind="ledger")
    assert ledger["entries"] and all(e["id"].startswith("ledger:") for e in ledger["entries"])
    boundaries = await _page(crew, token, kind="boundary", member="radar")
    assert [e["kind"] for e in boundaries["entries"]] == ["boundary:rewind"]
    assert boundaries["entries"][0]["outcome"] == "ok"


async def test_audit_is_the_owners_and_refuses_bad_input_by_code(crew: Crew) -> None:
    """A session key gets 403 owner_token_required; a cursor that is not one, a time that
    is not one and a limit out of range get 400 with their codes."""
    radar = await crew.add_member()
    token = await crew.owner_token()
    as_session = await crew.call(radar, "GET", "/api/audit")
    assert (as_session.status_code, as_session.json()["error"]["code"]) == (
        403,
        "owner_token_required",
    )
    for params, code in (
        ({"after": "abc"}, "invalid_cursor"),
        ({"since": "yesterday"}, "invalid_since"),
        ({"limit": 0}, "invalid_limit"),
        ({"limit": 1001}, "invalid_limit"),
    ):
        refused = await crew.call(token, "GET", "/api/audit", params=params)
        assert (refused.status_code, refused.json()["error"]["code"]) == (400, code), params
