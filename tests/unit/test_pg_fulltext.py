"""The port's fleet query syntax read into PostgreSQL's tsquery text (no server needed: the
contract suite checks what the queries find on both stores)."""

from __future__ import annotations

import pytest

from crewline.errors import InvalidInput
from crewline.store.pg_fulltext import texts_to_fold, tsquery_text


@pytest.mark.parametrize(
    ("match", "tsquery"),
    [
        ('"port" OR "staging"', "(('port') | ('staging'))"),
        ("a b NOT c", "(((('a' & 'b') & !'c')))"),
        ('"say ""hi"""', "((('say' <-> 'hi')))"),
        ("creat*", "(('creat':*))"),
        ("don't", None),
    ],
)
def test_a_query_reads_into_tsquery_text(match: str, tsquery: str | None) -> None:
    """Precedence is FTS5's (adjacent phrases, NOT, AND, OR); quotes and backslashes never
    reach the tsquery (punctuation separates words)."""
    if tsquery is None:
        with pytest.raises(InvalidInput):
            tsquery_text(match)
    else:
        assert tsquery_text(match) == tsquery


def test_nothing_to_search_for_is_none() -> None:
    """An empty query, or phrases without a word, search for nothing."""
    assert tsquery_text("") is None
    assert tsquery_text('"" ".,"') is None
    assert tsquery_text('one AND ""') is None


@pytest.mark.parametrize("match", ["one:two", "NEAR(a b)", "a ^b", "{a}", "one\x00"])
def test_fts5_only_syntax_is_refused(match: str) -> None:
    """Column filters, NEAR and initial-token queries are not portable: invalid_query."""
    with pytest.raises(InvalidInput) as refused:
        tsquery_text(match)
    assert refused.value.code == "invalid_query"


def test_only_phrases_with_a_non_ascii_character_are_folded_and_then_cut_into_words() -> None:
    """A folded phrase is cut into words after folding, as the index cuts its text: an
    apostrophe the fold produced separates words and never reaches the tsquery."""
    match = 'café "l\u2019équipe" AND port'
    assert texts_to_fold(match) == ["café", "l\u2019équipe"]
    folded = {"café": "cafe", "l\u2019équipe": "l'equipe"}
    assert tsquery_text(match, folded) == "((('cafe' & ('l' <-> 'equipe')) & 'port'))"
