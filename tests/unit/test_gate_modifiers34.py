"""A reading or document word that only names which thing an act is ("the print queue purge
job", "the audit purge job", "the log purge task") is no reading verb: the verb before the
whole name runs the job, and the job purges. A reading word whose own phrase ends before the
act ("the tests *for* the purge job", "print the purge report") still reads it, and a
document's edit with no job named ("the README cleanup") stays an edit.

Words of a print shop, a dairy, a hospital ward, a vineyard, a theatre and a shipping line:
no development set's.
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import goes_on, irreversible


@pytest.mark.parametrize(
    "question",
    [
        "Run the print queue purge job?",
        "Run the print-shop purge job?",
        "ok to run the audit purge job on the dairy ledger?",
        "Run the log purge job for the ward monitors tonight?",
        "Can I start the test purge job on the cellar database?",
        "Shall I kick off the read-replica purge job for the box office?",
        "Start the print-room cleanup that deletes old proofs?",
        "I've checked the config. Run the report wipe job now?",
        "please run the docs wipe step of the theatre site, thanks",
        "Run the berth log cleanup task for the old manifests?",
    ],
)
def test_a_reading_word_naming_the_job_is_no_reading_verb(question: str) -> None:
    irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Print the purge report for the dairy?",
        "Carry on with the README cleanup?",
        "Run the tests for the purge job?",
        "Run the tests of the delete-ward endpoint?",
        "Can I read the wipe script of the cellar?",
        "Open the test data wipe report?",
        "Check the print queue purge log?",
        "Lint the log purge script?",
        "Run the lint on the purge script?",
        "Keep going with the docstring cleanup in the berth module?",
    ],
)
def test_a_reading_word_over_its_own_phrase_still_reads(question: str) -> None:
    goes_on(question)
