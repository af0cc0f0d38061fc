"""A row that gives several values of the asked kind, and the question's words pick one: the
whole of a count or its part, the value beside one the question names — and where they do
not, no answer (the part never for the whole, nor the other value of the pair)."""

from __future__ import annotations

from crewline.policy import judge
from tests.unit.gate_kit import answers, facts, no_answer

# A whole and its part: "N things, M of them …"
_SHIFTS = facts(("rota", "January rota is published: 148 shifts, 11 of them still open."))
_LINKS = facts(("linkcheck", "Checked 880 links; 23 of them returned 410."))


def test_a_count_asked_without_the_parts_word_is_the_whole() -> None:
    answers("How many shifts does the January rota contain?", _SHIFTS, "148 shifts")


def test_a_count_asked_by_the_parts_own_value_is_the_part() -> None:
    answers("How many of the checked links came back 410?", _LINKS, "23")


def test_the_part_asked_in_words_the_row_lacks_stays_a_guess() -> None:
    no_answer("How many shifts in the January rota are unassigned?", _SHIFTS)
    no_answer("How many checked links returned a server error?", _LINKS)


def test_the_part_asked_against_stays_a_guess() -> None:
    no_answer("How many of the checked links did not return 410?", _LINKS)


def test_the_whole_is_never_the_answer_when_the_part_is_named() -> None:
    verdict = judge("How many shifts in the January rota are still open?", facts=_SHIFTS)
    assert "148" not in (verdict.answer or ""), verdict


# A value beside one the question names
_DISKS = facts(("diskwatch", "Volume /srv/data is at 88% on store-4 and at 52% on store-7."))


def test_the_value_beside_the_named_one_answers() -> None:
    answers("Which storage host has its data volume at 88%?", _DISKS, "store-4")


def test_a_named_value_the_row_gives_both_leaves_it_a_guess() -> None:
    rows = facts(("diskwatch", "Volume /srv/data is at 88% on store-4 and at 88% on store-7."))
    no_answer("Which storage host has its data volume at 88%?", rows)


# A label the question says whole, the other value's label holding a word it does not
_CACHE = facts(
    (
        "infra",
        "Billing's primary Memcached is mc-west-1.corp.example; "
        "the standby is mc-west-4.corp.example.",
    )
)


def test_the_value_whose_whole_label_the_question_says_answers() -> None:
    answers("Which host is the billing Memcached standby?", _CACHE, "mc-west-4.corp.example")


def test_a_label_with_a_word_the_question_does_not_say_picks_none() -> None:
    rows = facts(
        (
            "infra",
            "Billing's primary Memcached is mc-west-1.corp.example; "
            "the EU standby is mc-eu-4.corp.example.",
        )
    )
    no_answer("Which host is the billing Memcached standby?", rows)


# A verb and its particle, the row's noun written of them ("backing up": "backup")
_ROTA = facts(("rota", "Duty this week: Sara Lind, backup Omar Haddad, handover Friday 17:00"))


def test_a_verb_with_its_particle_names_the_label_written_as_one_word() -> None:
    answers("Who is backing up duty this week?", _ROTA, "Omar Haddad")


def test_a_verb_without_the_particle_names_no_label() -> None:
    no_answer("Who is covering duty this week?", _ROTA)
