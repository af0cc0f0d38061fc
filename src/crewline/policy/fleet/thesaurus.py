"""The thesaurus: which words name the same kind of thing (port/listen/bind, host/server/box),
and which words say too little about a thing for a row to need them ("service", "app")."""

from __future__ import annotations

import functools

from crewline.policy.lemmas import root

_GROUPS = (
    "port host hostname address endpoint server machine box domain listen bind serve answer",
    "version release tag rc build",
    "commit sha hash revision rev",
    "file path doc document written write put save store place folder directory dir location "
    "create generate produce output",
    "test suite spec",
    "flaky flake intermittent",
    "duration time took take long timeout latency runtime wall elapsed",
    "count number many total",
    "throughput rps qps",
    # a rate of requests is said by its unit: "request rate" of "at 800 rps"
    "request rps qps",
    # the event of moving from one thing to another: "the CDN switch" of "since the CDN
    # change", "the database switch" of "the cutover of the billing DB"
    "switch switchover cutover changeover change",
    "status code return returned result",
    "scan probe check scanner prober checker",
    "migration migrate migrator schema",
    "database db postgres postgresql mysql sqlite",
    "ci pipeline build job nightly runner workflow",
    "review reviewer pr pull approve",
    "bench benchmark perf load performance",
    "deploy deployment release ship rollout",
    "cache redis memcached",
    "doc docs documentation reference guide",
    "lint linter ruff flake8 warning",
    "snapshot backup",
    "query sql slow",
    "error failure fail",
    "url link site address",
    "route endpoint path api",
    "size big large space disk",
    "limit max maximum cap ceiling quota",
    "rate percentage percent ratio share",
    "staging stage",
    "production prod live",
    "dependency dep package library",
    "restart reboot",
    "environment env",
    "person people owner reviewer approver assignee maintainer engineer contact lead",
    "team squad",
    "own owns owned assign assigned give gave hand handed belong",
    "agree agreed settle settled decide decided",
    "guarantee sla",
    "expire expiry valid validity",
)


# The tables built from roots and stems are built at their first use, not at import: a root
# reads the lemmatiser's dictionary (about 30 MiB and a second), which a process that never
# judges a question (the CLI, a server with the concierge off) need not hold.
@functools.cache
def group_of() -> dict[str, frozenset[int]]:
    """The thesaurus: each word's root to the groups it is in."""
    table: dict[str, set[int]] = {}
    for n, group in enumerate(_GROUPS):
        for word in group.split():
            table.setdefault(root(word), set()).add(n)
    return {k: frozenset(v) for k, v in table.items()}


GROUP_WORDS = tuple(tuple(g.split()) for g in _GROUPS)


def near(a: str, b: str) -> bool:
    """Same root, the same group of the thesaurus, or one a short form of the other ("dep"
    and "depend", "repo" and "repositori", "env" and "environ")."""
    if a == b or group_of().get(a, frozenset()) & group_of().get(b, frozenset()):
        return True
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 3 and long.startswith(short) and short.isalpha()


# Words that say little about which thing is meant ("the staging *service*", "the new *app*"):
# a row need not repeat them.
@functools.cache
def generic_words() -> frozenset[str]:
    """The roots of ``_GENERIC_WORDS``."""
    return frozenset(root(w) for w in _GENERIC_WORDS)


_GENERIC_WORDS = (
    # light verbs whose meaning the noun carries: a row says "holds 37 messages" for
    # "how many messages are sitting …", "goes through" for "which host we send through"
    "sit",
    "sitting",
    "stuck",
    "wait",
    "waiting",
    "send",
    "receive",
    "received",
    "sustain",
    "sustained",
    "hold",
    "handle",
    "carry",
    "introduce",
    "introduced",
    "land",
    "stand",
    "news",
    "day",
    "days",
    "week",
    "today",
    "info",
    "word",
    "update",
    "updates",
    "service",
    "app",
    "application",
    "server",
    "system",
    "instance",
    "environment",
    "env",
    "box",
    "machine",
    "cloud",
    "thing",
    "stuff",
    "project",
    "repo",
    "repository",
    "setup",
    "side",
    "part",
    "area",
    "component",
    "module",
    "code",
    "tool",
    "team",
    "job",
    "process",
    "run",
    "result",
    "results",
    "output",
    "status",
    "state",
    "current",
    "latest",
    "actual",
    "real",
    "underlying",
    "overall",
    "total",
    "whole",
    "full",
    "exposed",
    "expose",
    "reachable",
    "available",
    "located",
    "locate",
    "stored",
    "store",
    "kept",
    "keep",
    "published",
    "running",
    "deployed",
    "set",
    "configured",
    "configure",
    "pinned",
    "pin",
    "used",
    "use",
    "get",
    "got",
    "put",
    "right",
    "correct",
    "exact",
    "specific",
    "particular",
)
