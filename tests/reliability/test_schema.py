"""Schema fuzzing: schemathesis against crewline's own ``/openapi.json``, every operation.

crewline serves for real (the memory transport, a FakeClock) on a loopback port in a
thread of its own; schemathesis reads the schema it serves and sends each operation
generated requests (valid and invalid) with the caller's credentials: the owner's token on
the owner's routes, a member's key on the agents'. Two checks, on what the schema
documents today: no response is a 5xx, and every response whose status the schema
documents conforms to the documented body. (Whether each status is documented at all is
the OpenAPI error tables' work, not asserted here.) Sizes: a few cases per operation in
CI, many more with ``CREWLINE_RELIABILITY=full``.
"""

from __future__ import annotations

import asyncio
import os
import re
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error, response_schema_conformance

from crewline.config import Config
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.harness import MemoryHarness

FULL = os.environ.get("CREWLINE_RELIABILITY") == "full"
pytestmark = pytest.mark.slow

# Not request/response operations: a server-sent event stream never ends, and /mcp speaks
# its own protocol (tests/e2e/test_mcp.py).
EXTRA: list[Any] = []
STREAMS = r"^/(api/session/events/stream|mcp)"


@dataclass(frozen=True, kw_only=True, slots=True)
class Served:
    url: str
    member_key: str
    owner_token: str


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """crewline serving in a thread with its own event loop, for a synchronous client."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="crewline-under-fuzz", daemon=True)
    thread.start()

    def run(work: Any) -> Any:
        done: Future[Any] = asyncio.run_coroutine_threadsafe(work, loop)
        return done.result(timeout=60)

    data: Path = tmp_path_factory.mktemp("fuzz")
    crew = Crew(
        Config(data_dir=data / "data", port=0, transports=()), FakeClock(), [MemoryHarness()]
    )
    run(crew.start())
    try:
        key = run(crew.add_member())
        run(crew.escalate(key, message="Something to read", options=["yes", "no"]))
        yield Served(url=crew.url, member_key=key, owner_token=run(crew.owner_token()))
    finally:
        run(crew.stop())
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()


def _credentials(path: str, served: Served) -> str:
    """The owner's token on the owner's routes; a member's key on the agents' own."""
    agents = path.startswith(("/api/session", "/api/session-control"))
    return served.member_key if agents else served.owner_token


def test_no_operation_answers_5xx_or_breaks_its_documented_schema(served: Served) -> None:
    """Every operation: no 5xx, and documented responses conform; all failures reported."""
    schema = schemathesis.openapi.from_url(f"{served.url}/openapi.json")
    failures: dict[str, str] = {}
    operations = 0
    for loaded in schema.get_all_operations():
        operation = loaded.ok()
        if re.match(STREAMS, operation.path):
            continue
        operations += 1

        @given(case=operation.as_strategy())
        @settings(
            max_examples=100 if FULL else 6,
            deadline=None,
            database=None,
            phases=(Phase.explicit, Phase.generate),
            suppress_health_check=list(HealthCheck),
        )
        def fuzz(case: schemathesis.Case) -> None:
            if isinstance(case.query, dict) and "wait" in case.query:
                case.query["wait"] = 0  # a long poll would only make the run slow
            case.call_and_validate(
                base_url=served.url,
                headers={"Authorization": f"Bearer {_credentials(case.path, served)}"},
                checks=[not_a_server_error, response_schema_conformance, *EXTRA],
                timeout=30,
            )

        try:
            fuzz()
        except (Exception, BaseExceptionGroup) as failure:  # every operation; all reported
            failures[f"{operation.method.upper()} {operation.path}"] = str(failure)[:600]
    assert operations >= 20, f"precondition: the schema lists the API ({operations})"
    assert failures == {}, "\n\n".join(f"{op}: {why}" for op, why in failures.items())
