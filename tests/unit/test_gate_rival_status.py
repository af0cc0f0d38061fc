"""A rival is read as live as the value it disputes. A model's cited value is a fact though
its row names a secret's word beside a value no secret can be ("the session token expires
after 30 minutes", "the vault controller listens on port 7443"); a row saying another value
of the thing in the same words was read the stricter way, as no fact, so it disputed nothing
and the cited value was answered. Cases of other domains than the set that showed it (a
museum's kiosk app, an archive's vault controller)."""

from __future__ import annotations

from tests.unit.gate_kit import by_model, facts


def test_a_row_said_in_the_cited_rows_words_disputes_it() -> None:
    rows = facts(
        ("kiosk", "the museum kiosk app's session token expires after 30 minutes"),
        ("audit", "the museum kiosk app's session token expires after 45 minutes"),
    )
    question = "How long until the museum kiosk app's session token expires?"
    assert by_model(question, rows, "30 minutes", 0) is None
    assert by_model(question, rows, "45 minutes", 1) is None


def test_a_vault_controllers_port_disputed_by_another_is_refused() -> None:
    rows = facts(
        ("archive", "the archive's vault controller listens on port 7443"),
        ("netops", "the archive's vault controller listens on port 8443"),
    )
    assert by_model("Which port is the archive's vault controller on?", rows, "7443", 0) is None


def test_an_undisputed_citation_still_stands() -> None:
    rows = facts(
        ("kiosk", "the museum kiosk app's session token expires after 30 minutes"),
        ("audit", "the museum kiosk app's crash rate is 0.4% this week"),
    )
    question = "How long until the museum kiosk app's session token expires?"
    assert by_model(question, rows, "30 minutes", 0) == "30 minutes"
