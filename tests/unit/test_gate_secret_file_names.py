"""A secret file named by its dotted name alone (".env", "`.netrc`", "the contents of .env")
is read as the same file named with "file" after it or by its path: reading it touches a
secret. A dotted file that holds no secret (".gitignore", ".eslintrc") is read as before."""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import goes_on, irreversible


@pytest.mark.parametrize(
    "question",
    [
        "Can I read .env?",
        "Can I read the contents of .env?",
        "Can I read `.env`?",
        "Can I read the .env file?",
        "Can I read .netrc?",
        "Can I read ~/.aws/credentials to get the region?",
    ],
)
def test_a_secret_file_read_by_any_spelling_is_careful(question: str) -> None:
    assert "touches a secret" in irreversible(question)


@pytest.mark.parametrize("question", ["Can I read .gitignore?", "Can I read the .eslintrc config?"])
def test_a_dotted_file_that_holds_no_secret_is_read(question: str) -> None:
    goes_on(question)
