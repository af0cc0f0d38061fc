"""Schema fuzzing: schemathesis against crewline's own ``/openapi.json``, every operation.

crewline serves for real (the memory transport, a FakeClock) on a loopback port in a
thread of its own; schemathesis reads the schema it serves and sends each operation
generated requests (valid and invalid) with the caller's credentials: the owner's token on
the owner's routes, a member's key on the agents'. Three checks on every response: it is
not a 5xx, its status is one the schema declares for that operation (an undocumented
status fails), and its body conforms to what the schema documents for that status.

The second test is stateful: schemathesis follows the schema's OpenAPI links (escalate →
read, retract or confirm the escalation it answered; ask → the owner answers that
question), so the chained operations meet real records instead of 404s, under the same
three checks. Sizes: a few cases per operation and a few short scenarios in CI, many more
with ``CREWLINE_RELIABILITY=full``.
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
from schemathesis.checks import (
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from crewline.config import Config
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.harness import MemoryHarness

FULL = os.environ.get("CREWLINE_RELIABILITY") == "full"
pytestmark = pytest.mark.slow

# What every response must satisfy: not a 5xx; a status the schema declares for the operation
# (an undocumented status fails); a body that conforms to what the schema documents for it.
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]
# Not request/response operations: a server-sent event stream never ends, and /mcp speaks
# its own protocol (tests/e2e/test_mcp.py).
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


def test_no_operation_answers_5xx_or_anything_its_schema_does_not_document(
    served: Served,
) -> None:
    """Every operation: no 5xx, only documented statuses, conforming bodies; all reported."""
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
                checks=CHECKS,
                timeout=30,
            )

        try:
            fuzz()
        except (Exception, BaseExceptionGroup) as failure:  # every operation; all reported
            failures[f"{operation.method.upper()} {operation.path}"] = str(failure)[:600]
    assert operations >= 20, f"precondition: the schema lists the API ({operations})"
    assert failures == {}, "\n\n".join(f"{op}: {why}" for op, why in failures.items())


def test_linked_operations_answer_only_what_their_schema_documents(served: Served) -> None:
    """Scenarios along the OpenAPI links: every step passes the same three checks."""
    schema = schemathesis.openapi.from_url(f"{served.url}/openapi.json")
    linked = {
        link["operationRef"]
        for path in schema.raw_schema["paths"].values()
        for operation in path.values()
        for link in operation.get("responses", {}).get("200", {}).get("links", {}).values()
    }
    assert len(linked) >= 4, f"precondition: the schema links its operations ({linked})"
    steps: list[tuple[str, int]] = []
    base = schema.as_state_machine()

    class Linked(base):  # type: ignore[misc, valid-type]
        def get_call_kwargs(self, case: schemathesis.Case) -> dict[str, Any]:
            if isinstance(case.query, dict) and "wait" in case.query:
                case.query["wait"] = 0
            token = _credentials(case.path, served)
            return {
                "base_url": served.url,
                "headers": {"Authorization": f"Bearer {token}"},
                "timeout": 30,
            }

        def validate_response(self, response: Any, case: schemathesis.Case, **kwargs: Any) -> None:
            kwargs.pop("additional_checks", None)
            steps.append((f"{case.method.upper()} {case.path}", response.status_code))
            case.validate_response(response, checks=CHECKS, transport_kwargs=kwargs)

    Linked.run(
        settings=settings(
            max_examples=60 if FULL else 4,
            stateful_step_count=8 if FULL else 4,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    chained = {op for op, status in steps if "{" in op and status == 200}
    assert chained, f"precondition: a linked operation met a real record: {sorted(set(steps))}"
