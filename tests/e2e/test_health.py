"""Liveness, readiness and the Prometheus metrics, over HTTP."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from crewline.errors import TransientTransportError
from crewline.transports import Connection, MemoryTransport
from tests.driver import Crew

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)


def _memory(crew: Crew) -> MemoryTransport:
    transport = crew.crewline.transport("memory")
    assert isinstance(transport, MemoryTransport)
    return transport


def _sample(body: str, name: str, **labels: str) -> float | None:
    """The value of one Prometheus sample in text format, or None when absent."""
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in body.splitlines():
        match = re.fullmatch(rf"{re.escape(name)}(?:\{{(.*)\}})? (\S+)", line)
        if match and ",".join(sorted((match.group(1) or "").split(","))) == wanted:
            return float(match.group(2))
    return None


async def test_readyz_lists_every_part_and_answers_200_when_all_are_well(crew: Crew) -> None:
    """The store, the transport and its outbox are each checked and named; on PostgreSQL
    also the replica's link to the others (it coordinates even when it runs alone)."""
    response = await crew.call(None, "GET", "/readyz")
    body = response.json()
    assert response.status_code == 200
    assert body["status"] == "ok" and body["failed"] == []
    parts = {"store", "transport:memory", "outbox:memory"}
    if crew.crewline.coordination is not None:
        parts.add("replica")
    assert set(body["checks"]) == parts
    on_postgresql = (crew.config.database_url or "").startswith("postgresql")
    assert (crew.crewline.coordination is not None) == on_postgresql
    assert body["checks"]["store"] == {"ok": True, "detail": "writable"}


async def test_readyz_names_a_disconnected_transport_with_503(crew: Crew) -> None:
    """A transport that reports its platform unreachable makes crewline not ready."""
    assert (await crew.call(None, "GET", "/readyz")).status_code == 200
    _memory(crew).reachable = Connection(connected=False, reason="the gateway is down")
    response = await crew.call(None, "GET", "/readyz")
    assert response.status_code == 503
    assert response.json()["failed"] == ["transport:memory"]
    check = response.json()["checks"]["transport:memory"]
    assert check == {"ok": False, "detail": "the gateway is down"}
    assert (await crew.call(None, "GET", "/healthz")).status_code == 200


async def test_readyz_reports_an_outbox_whose_oldest_call_waits_too_long(crew: Crew) -> None:
    """A platform call retried for more than five minutes (by the clock) marks its outbox
    stuck; the connection itself may still look fine."""
    transport = _memory(crew)
    transport.fail_next(TransientTransportError("platform down"), times=1000)
    key = await crew.add_member()
    await crew.escalate(key, message="Stuck?")
    assert await crew.crewline.store.outbox_size("memory") > 0
    assert (await crew.call(None, "GET", "/readyz")).status_code == 200
    crew.clock.advance(timedelta(minutes=6))
    response = await crew.call(None, "GET", "/readyz")
    assert response.status_code == 503
    assert response.json()["failed"] == ["outbox:memory"]
    assert "more than 300 s" in response.json()["checks"]["outbox:memory"]["detail"]


async def test_metrics_show_latency_per_route_sends_retries_states_and_lateness(
    crew: Crew,
) -> None:
    """One escalation, one failed call and one late window show up in their instruments."""
    transport = _memory(crew)
    key = await crew.add_member()
    await crew.delivered()
    transport.fail_next(TransientTransportError("blip"))
    result = await crew.escalate(key, message="Deploy?", deadline="PT1M", default_action="go")
    await crew.delivered()
    before = (await crew.call(None, "GET", "/metrics")).text
    assert _sample(before, "crewline_escalations_by_state", state="pending") == 1
    assert result["state"] == "pending"

    crew.clock.advance(timedelta(minutes=3))
    await crew.crewline.windows.rearm()
    body = (await crew.call(None, "GET", "/metrics")).text

    route = "/api/session-control/escalate"
    assert _sample(body, "crewline_http_request_duration_seconds_count", method="POST", route=route)
    sends = _sample(
        body, "crewline_outbox_send_duration_seconds_count", transport="memory", op="post"
    )
    assert sends is not None and sends >= 1
    assert _sample(body, "crewline_outbox_retries_total", transport="memory", reason="failed") == 1
    assert _sample(body, "crewline_escalations_by_state", state="pending") == 0
    assert _sample(body, "crewline_escalations_by_state", state="defaulted") == 1
    assert _sample(body, "crewline_window_close_lateness_seconds_count") == 1
    # Two minutes late by the injected clock: counted in the 300 s bucket, not the 60 s one.
    assert _sample(body, "crewline_window_close_lateness_seconds_bucket", le="60.0") == 0
    assert _sample(body, "crewline_window_close_lateness_seconds_bucket", le="300.0") == 1
    assert _sample(body, "crewline_outbox_dead_letters", transport="memory") == 0
    assert _sample(body, "crewline_outbox_pending", transport="memory") is not None
