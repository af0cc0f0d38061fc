"""``crewline doctor``: check the database, the migrations, the configuration and the index,
and say what is wrong in words."""

from __future__ import annotations

from crewline.bot import Hub
from crewline.config import Config
from crewline.errors import CrewlineError, Unavailable
from crewline.server import build_transports
from crewline.store.open import open_store, redacted

__all__ = ["run_doctor"]


async def run_doctor(config: Config, *, reconcile: bool = False) -> int:
    """Print one line per check; returns 0 when all pass, 1 otherwise."""
    problems = 0

    def report(ok: bool, text: str) -> None:
        nonlocal problems
        problems += not ok
        print(f"{'ok ' if ok else 'BAD'} {text}")

    report(True, f"configuration read (data directory {config.data_dir})")
    try:
        names = [t.name for t in build_transports(config)]
        report(True, f"transports configured: {', '.join(names) or 'none'}")
    except CrewlineError as error:
        report(False, f"transports: {error.message}")
        names = []
    async with open_store(config.database_url, config.data_dir) as store:
        if config.database_url:
            report(True, f"database {redacted(config.database_url)} reachable")
        latest = store.latest_schema_version()
        version = await store.schema_version()
        report(version == latest, f"database schema at version {version} (latest {latest})")
        try:
            await store.check_index()
            report(True, "escalation index readable")
        except Unavailable as error:
            report(False, f"{error.message} (run `crewline doctor --reconcile` to rebuild it)")
        members = await store.members()
        report(True, f"{len(members)} member(s)")
        for member in members:
            unknown = [t for t in member.transports if t not in names]
            if unknown:
                report(
                    False,
                    f"member {member.slug} is bound to {', '.join(unknown)}, which is"
                    " not configured: its cards wait in the outbox until it is",
                )
        pending = await store.outbox_size()
        report(True, f"{pending} platform call(s) waiting in the outbox")
        if reconcile:
            async with Hub(store, transports=names) as hub:  # entering reconciles every member
                reports = await hub.reconcile_all()
            for r in reports:
                print(
                    f"    reconciled {r.member}: rebuilt {len(r.rebuilt)}, applied "
                    f"{len(r.applied)}, reopened {len(r.reopened)}, retracted {len(r.retracted)}"
                )
            report(True, "index re-derived from the transcripts")
    return 0 if problems == 0 else 1
