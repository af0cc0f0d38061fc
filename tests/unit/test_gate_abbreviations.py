"""A row that shortens the question's words: two capitals for two of its words ("QC" for
"quality control") and a word clipped to its first letters ("cal" for "calibration",
``lemmas.clipped``). The near misses: two capitals for inflected words or words of another
thing, a clip that is a word of its own ("cat" is no "catalogue", "ban" no "bandwidth"), and
the other batch or press, told apart by its identifier as before. (``thesaurus.near`` still
joins roots by any prefix, at half weight: "cat" and "catalogu" — not narrowed here.)

In a lab, a press shop, a library and a network operator, never the eval sets' sentences."""

from __future__ import annotations

import pytest

from crewline.policy.lemmas import clipped
from tests.unit.gate_kit import answers, facts, no_answer

_QC = ("lab", "QC for batch B-77 finished: 14 samples rejected.")
_CAL = ("metrology", "last torque cal on press P-4 was 2025-03-02")


def test_two_capitals_opening_a_row_stand_for_two_words_of_the_question() -> None:
    answers("How many samples did the batch B-77 quality control reject?", facts(_QC), "14 samples")


@pytest.mark.parametrize(
    "question",
    [
        # another batch: the identifier stays required
        "How many samples did the batch B-78 quality control reject?",
        # inflected words of another thing, initials "qc" by chance
        "How many samples did the quarantined containers of batch B-77 reject?",
    ],
)
def test_two_capitals_for_other_words_answer_nothing(question: str) -> None:
    no_answer(question, facts(_QC))


def test_a_clipped_word_says_the_question_s_word() -> None:
    answers("When was the last torque calibration on press P-4?", facts(_CAL), "2025-03-02")


def test_a_clipped_word_of_another_press_answers_nothing() -> None:
    no_answer("When was the last torque calibration on press P-5?", facts(_CAL))


@pytest.mark.parametrize(
    ("short", "long", "clip"),
    [
        ("cal", "calibration", True),
        ("ortho", "orthorectification", True),
        ("config", "configuration", True),
        ("ephem", "ephemeris", True),
        ("cat", "catalogue", False),
        ("ban", "bandwidth", False),
        ("con", "configuration", False),
        ("pro", "production", False),
        ("on", "online", False),
        ("pass", "password", False),  # a compound of two words of their own
        ("every", "everything", False),
        ("temp", "temperature", True),  # four letters: a word of its own may be a clip
        ("admin", "administrator", True),
        ("port", "portal", False),  # two words of the dictionary a few letters apart
        ("list", "listen", False),
        ("back", "backup", False),
        ("part", "partner", False),
        ("calibrate", "calibrated", False),  # one letter more is an ending, not a clip
    ],
)
def test_clipped(short: str, long: str, clip: bool) -> None:
    assert clipped(short, long) is clip
