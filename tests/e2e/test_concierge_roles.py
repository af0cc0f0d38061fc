"""The concierge's fleet read finds a member's row by what the member does: "how many rows did
the nightly load write?" shares no word with the loader's "Finished: 48213 inserted into
fct_visits", yet the loader's rows are retrieved, since "load" names its role (its slug, or
its display name when the slug says nothing); a member whose role the question does not name
is not retrieved by its name (docs/concierge.md, "Fleet retrieval")."""

from __future__ import annotations

from pathlib import Path

from crewline.policy import Fact, judge
from tests.e2e.fleet_kit import fleet_read

QUESTION = "How many rows did the nightly load write?"
LOADED = "Finished: 48213 inserted into fct_visits."
EXPORTED = "Finished: 900 exported to the archive."


async def _facts(tmp_path: Path, said: list[tuple[str, str, str]]) -> list[Fact]:
    return await fleet_read(tmp_path, QUESTION, said)


async def test_the_row_of_the_member_the_question_names_by_its_role_is_read(
    tmp_path: Path,
) -> None:
    facts = await _facts(tmp_path, [("loader", "loader", LOADED), ("archiver", "a", EXPORTED)])
    assert [f.text for f in facts] == [LOADED]


async def test_a_display_name_says_the_role_a_slug_does_not(tmp_path: Path) -> None:
    facts = await _facts(
        tmp_path, [("w7", "Warehouse Loader", LOADED), ("w8", "Archiver", EXPORTED)]
    )
    assert [f.text for f in facts] == [LOADED]


async def test_no_member_is_read_by_a_role_the_question_does_not_name(tmp_path: Path) -> None:
    assert await _facts(tmp_path, [("archiver", "Archiver", EXPORTED)]) == []


async def test_the_member_s_row_about_another_thing_answers_nothing(tmp_path: Path) -> None:
    other = "The export to the archive wrote 900 rows."
    facts = await _facts(tmp_path, [("loader", "loader", other)])
    assert [f.text for f in facts] == [other]  # retrieved by its role: the readers decide
    verdict = judge(QUESTION, facts=facts)
    assert verdict.answer is None and not verdict.kind.routine, verdict
