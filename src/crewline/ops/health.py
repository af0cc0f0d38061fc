"""Readiness: whether this crewline can do its work now, part by part.

``GET /healthz`` only says the process answers. ``GET /readyz`` runs these checks and
answers 503 naming each part that failed:

- ``store``: a write commits (a full disk, a read-only file or a held lock fail it);
- ``transport:<name>``: the transport says it is connected to its platform (one whose
  platform could not be reached at start is ``degraded``, being started again);
- ``outbox:<name>``: no platform call has waited longer than ``stuck_after`` (a platform that
  refuses or cannot be reached keeps its calls queued; crewline retries them forever);
- with several replicas on one PostgreSQL: ``replica``, this replica hears the others'
  commits and no later process started under its name; and a single-connection transport
  (Telegram polling, Discord's gateway) that another replica holds is ready here as a
  standby while that replica's lease is live.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta

from crewline.app.transport_start import Degraded
from crewline.models import Clock
from crewline.replication.replicas import Coordination, LeaseView
from crewline.replication.transport_lease import TransportLease
from crewline.store import Store
from crewline.transports import Transport

__all__ = ["Check", "Readiness"]

PROBE_KEY = "readyz.probed_at"


@dataclass(frozen=True, kw_only=True, slots=True)
class Check:
    """One part's verdict; ``detail`` says what is wrong (or what was seen) in words."""

    name: str
    ok: bool
    detail: str


class Readiness:
    """The checks behind ``/readyz``, over the store, the transports and their outboxes."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        transports: Sequence[Transport] = (),
        stuck_after: timedelta = timedelta(minutes=5),
        write_timeout: float = 5.0,
        coordination: Coordination | None = None,
        leases: Mapping[str, TransportLease] | None = None,
        degraded: Mapping[str, Degraded] | None = None,
    ) -> None:
        """``degraded``: the transports whose platform could not be reached at start,
        being started again (crewline.app.transport_start); read at each check."""
        self.store = store
        self.degraded = degraded if degraded is not None else {}
        self.coordination = coordination
        self.leases = leases or {}
        self.clock = clock
        self.transports = list(transports)
        self.stuck_after = stuck_after
        self.write_timeout = write_timeout

    async def checks(self) -> list[Check]:
        """Every check, in a stable order: the store, then per transport its connection and
        its outbox."""
        results = [await self._store()]
        views: dict[str, LeaseView] = {}
        if self.coordination is not None:
            results.append(self._replica(self.coordination))
            if self.leases:
                views = {v.name: v for v in await self.coordination.leases("transport:")}
        status = {b.transport: b for b in await self.store.outbox_backlog()}
        now = self.clock.now()
        for transport in self.transports:
            lease = self.leases.get(transport.name)
            retry = self.degraded.get(transport.name)
            if retry is not None and not retry.started.is_set():
                results.append(
                    Check(name=f"transport:{transport.name}", ok=False, detail=retry.reason)
                )
            elif lease is not None and not lease.status().held:
                results.append(_standby(transport.name, views.get(lease.lease_name)))
            else:
                connection = transport.connection()
                held = f" (lease held here, epoch {lease.status().epoch})" if lease else ""
                results.append(
                    Check(
                        name=f"transport:{transport.name}",
                        ok=connection.connected,
                        detail=(
                            "connected" if connection.connected else connection.reason or "down"
                        )
                        + held,
                    )
                )
            entry = status.get(transport.name)
            oldest = entry.oldest if entry is not None else None
            waited = now - oldest if oldest is not None else timedelta(0)
            stuck = waited > self.stuck_after
            results.append(
                Check(
                    name=f"outbox:{transport.name}",
                    ok=not stuck,
                    detail=(
                        f"the oldest call has waited {int(waited.total_seconds())} s"
                        f" (more than {int(self.stuck_after.total_seconds())} s)"
                        if stuck
                        else f"{entry.pending if entry else 0} pending"
                    ),
                )
            )
        return results

    def _replica(self, coordination: Coordination) -> Check:
        name = coordination.holder
        if coordination.superseded_by is not None:
            return Check(
                name="replica",
                ok=False,
                detail=f"{name}: another process started under this replica's name"
                f" ({coordination.superseded_by}) and takes its lanes; stop one of them",
            )
        if coordination.listening:
            return Check(name="replica", ok=True, detail=f"{name}: hears the other replicas")
        return Check(
            name="replica",
            ok=False,
            detail=f"{name}: not listening for the other replicas' commits (reconnecting)",
        )

    async def _store(self) -> Check:
        stamp = self.clock.now().isoformat()
        try:
            async with asyncio.timeout(self.write_timeout):
                await self.store.write(lambda tx: tx.set_setting(PROBE_KEY, stamp))
        except TimeoutError:
            return Check(
                name="store", ok=False, detail=f"a write took more than {self.write_timeout} s"
            )
        except Exception as error:  # any failure to commit is the answer, not a crash
            return Check(name="store", ok=False, detail=f"a write failed: {error}")
        return Check(name="store", ok=True, detail="writable")


def _standby(transport: str, view: LeaseView | None) -> Check:
    """A single-connection transport another replica runs: ready while its lease is live."""
    name = f"transport:{transport}"
    if view is not None and view.holder is not None and view.expires_in > 0:
        return Check(
            name=name,
            ok=True,
            detail=f"standby: replica {view.holder} holds the connection (epoch {view.epoch})",
        )
    return Check(
        name=name,
        ok=False,
        detail="no replica holds the connection (its lease is free or expired; one takes it"
        " within the lease's time)",
    )
