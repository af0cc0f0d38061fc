"""The Prometheus instruments of one running crewline, on a registry of its own.

One object is made by ``Crewline`` and handed to the parts that observe something: the HTTP
app (latency per route, responses, refusals), each outbox dispatcher (send latency, retries,
dead letters) and the window scheduler (how late a window closed). Gauges drawn from the
store (pending calls, escalations by state, dead letters) are refreshed at each scrape by
:meth:`Metrics.refresh`, so they are exact even for entries another process wrote.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from datetime import datetime

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from crewline.errors import Forbidden, Unauthenticated
from crewline.models import EscalationState
from crewline.store import Store

__all__ = ["CONTENT_TYPE", "Metrics", "MetricsAccess"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# Seconds: the API answers in milliseconds; platform calls take tens to hundreds of them.
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
# Seconds a veto window closed after its deadline: timers fire within a second; a window
# that passed while crewline was down closes at the next start, minutes or hours late.
_LATENESS_BUCKETS = (0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400)


class Metrics:
    """Every instrument crewline exports; ``render()`` is the body of ``GET /metrics``."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self.requests = Counter(
            "crewline_http_requests",
            "HTTP requests served",
            ["method", "status"],
            registry=registry,
        )
        self.request_seconds = Histogram(
            "crewline_http_request_duration_seconds",
            "Time to answer an API request, per route template",
            ["method", "route"],
            buckets=_LATENCY_BUCKETS,
            registry=registry,
        )
        self.errors = Counter(
            "crewline_errors", "Refusals and failures by stable code", ["code"], registry=registry
        )
        self.escalations = Counter(
            "crewline_escalations", "Escalations accepted", registry=registry
        )
        self.send_seconds = Histogram(
            "crewline_outbox_send_duration_seconds",
            "Time of one platform call made by the outbox, successful or not",
            ["transport", "op"],
            buckets=_LATENCY_BUCKETS,
            registry=registry,
        )
        self.retries = Counter(
            "crewline_outbox_retries",
            "Platform calls to be made again, by why (rate_limited or failed)",
            ["transport", "reason"],
            registry=registry,
        )
        self.buried = Counter(
            "crewline_outbox_dead_letters_added",
            "Platform calls given up as permanently failed by this process",
            ["transport"],
            registry=registry,
        )
        self.window_lateness = Histogram(
            "crewline_window_close_lateness_seconds",
            "How long after its deadline a veto window was closed",
            buckets=_LATENESS_BUCKETS,
            registry=registry,
        )
        self.window_timers_early = Counter(
            "crewline_window_timers_early",
            "Window timers that fired before the window was due by crewline's clock, and were"
            " armed again for the time left",
            registry=registry,
        )
        self.pending = Gauge(
            "crewline_outbox_pending",
            "Platform calls waiting to be made",
            ["transport"],
            registry=registry,
        )
        self.oldest = Gauge(
            "crewline_outbox_oldest_pending_seconds",
            "Age of the oldest platform call waiting to be made",
            ["transport"],
            registry=registry,
        )
        self.dead = Gauge(
            "crewline_outbox_dead_letters",
            "Platform calls given up as permanently failed (outbox_dead rows)",
            ["transport"],
            registry=registry,
        )
        self.by_state = Gauge(
            "crewline_escalations_by_state",
            "Escalation records per state (pending ones are waiting for their human)",
            ["state"],
            registry=registry,
        )

    async def refresh(self, store: Store, *, now: datetime, transports: list[str]) -> None:
        """Redraw the gauges read from the store; every named transport gets a sample."""
        status = {b.transport: b for b in await store.outbox_backlog()}
        for name in sorted({*transports, *status}):
            entry = status.get(name)
            oldest = entry.oldest if entry is not None else None
            self.pending.labels(transport=name).set(entry.pending if entry else 0)
            self.dead.labels(transport=name).set(entry.dead if entry else 0)
            age = (now - oldest).total_seconds() if oldest is not None else 0.0
            self.oldest.labels(transport=name).set(max(0.0, age))
        counts = await store.escalation_counts()
        for state in sorted({*(s.value for s in EscalationState), *counts}):
            self.by_state.labels(state=state).set(counts.get(state, 0))

    def render(self) -> bytes:
        return generate_latest(self.registry)


@dataclass(frozen=True, kw_only=True, slots=True)
class MetricsAccess:
    """Who may read ``GET /metrics``. With ``metrics_token`` set: its bearer, wherever
    crewline listens. Without one: anyone on a loopback bind (only this machine reaches
    it), nobody beyond it. The series name members' transports and the refusals crewline
    made, so they are not for whoever can reach the port; and the token is not the owner's,
    so a scraper's configuration holds no power over the crew."""

    token: str | None = None
    loopback: bool = True

    def check(self, authorization: str | None) -> None:
        """Raise Unauthenticated (401) or Forbidden (403) unless this request may read."""
        if self.token is None:
            if self.loopback:
                return
            raise Forbidden(
                "crewline listens beyond loopback and no metrics_token is set: set"
                " CREWLINE_METRICS_TOKEN (or metrics_token in crewline.toml) and send it as"
                " 'Authorization: Bearer <token>'",
                code="metrics_token_required",
            )
        scheme, _, given = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not given.strip():
            raise Unauthenticated(
                "send the metrics token as 'Authorization: Bearer <token>'", code="missing_key"
            )
        if not hmac.compare_digest(given.strip().encode(), self.token.encode()):
            raise Unauthenticated("that is not the metrics token", code="invalid_key")
