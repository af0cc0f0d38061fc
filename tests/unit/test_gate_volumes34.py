"""Taking a compose project down keeps its data; `-v` or `--volumes` deletes its named
volumes, and the databases and uploads in them, with it. Words of a dairy, a theatre and a
hospital ward: no development set's."""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import goes_on, irreversible


@pytest.mark.parametrize(
    "question",
    [
        "Run `docker compose down -v` on the dairy's shared box?",
        "ok to `docker-compose down --volumes` on the theatre staging host?",
        "Shall I do docker compose down -v for the ward stack?",
        "Run `docker compose -f ward.yml down -v --remove-orphans`?",
        "before the rebuild: `podman-compose down -v`, go?",
    ],
)
def test_a_compose_project_taken_down_with_its_volumes_is_careful(question: str) -> None:
    assert "deletes its volumes" in irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Run `docker compose down` on my laptop?",
        "Run `docker compose up -d --build` for the dairy dashboard?",
        "Can I run `docker compose ps` on the ward stack?",
    ],
)
def test_a_compose_project_taken_down_alone_goes_on(question: str) -> None:
    goes_on(question)
