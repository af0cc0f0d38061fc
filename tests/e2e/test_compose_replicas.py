"""deploy/replicas/: the compose file with PostgreSQL and two replicas behind HAProxy.

No image can be pulled or built here, so this checks the files' structure offline: what
the replicas share (the database, the .env), what each has alone (its id, its data
volume), and that the proxy sends to exactly those replicas on crewline's port."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from crewline.replication.replicas import valid_replica_name

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "replicas"
REPLICAS = ("crewline-a", "crewline-b")


def _compose() -> Any:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def test_two_replicas_share_the_database_and_keep_their_own_id_and_data() -> None:
    services = _compose()["services"]
    assert set(services) == {"postgres", "proxy", *REPLICAS}
    environments = [services[name]["environment"] for name in REPLICAS]
    ids = [str(env["CREWLINE_REPLICA_ID"]) for env in environments]
    assert len(set(ids)) == 2 and all(valid_replica_name(i) == i for i in ids)
    urls = {str(env["CREWLINE_DATABASE_URL"]) for env in environments}
    assert len(urls) == 1
    url = urls.pop()
    assert (
        url.startswith("postgresql://crewline:${POSTGRES_PASSWORD:?") and "@postgres:5432/" in url
    )
    volumes = [services[name]["volumes"] for name in REPLICAS]
    assert [v[0].split(":")[1] for v in volumes] == ["/data", "/data"]
    assert len({v[0].split(":")[0] for v in volumes}) == 2
    for name in REPLICAS:
        service = services[name]
        assert (DEPLOY / str(service["build"]) / "Dockerfile").resolve() == ROOT / "Dockerfile"
        assert service["depends_on"] == {"postgres": {"condition": "service_healthy"}}
        assert "ports" not in service  # reached through the proxy only
    database = services["postgres"]
    assert "pg_isready" in database["healthcheck"]["test"]
    assert "${POSTGRES_PASSWORD:?" in str(database["environment"])  # no password in the file


def test_the_proxy_spreads_over_exactly_the_replicas_on_loopback() -> None:
    proxy = _compose()["services"]["proxy"]
    assert proxy["ports"] == ["127.0.0.1:8765:8765"]
    mounted = str(proxy["volumes"][0]).split(":")
    assert (DEPLOY / mounted[0]).is_file() and mounted[2] == "ro"
    config = (DEPLOY / mounted[0]).read_text()
    servers = re.findall(r"^\s*server\s+\S+\s+(\S+)$", config, re.MULTILINE)
    assert servers == [f"{name}:8765" for name in REPLICAS]
    assert re.search(r"^\s*balance roundrobin$", config, re.MULTILINE)
    assert re.search(r"^\s*option httpchk GET /healthz$", config, re.MULTILINE)
    assert re.search(r"^\s*bind :8765$", config, re.MULTILINE)
