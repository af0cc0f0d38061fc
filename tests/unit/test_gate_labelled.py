"""The offline fleet reader on a value its row labels with the asked noun ("shipment lot
550012345", "order #4471-88", "part no. 7731022"): that value is the row's answer, and no other
value of the asked kind in the row is — not a version of another thing said beside it, nor
the question's own identifier. Each on sentences of its own (not the eval sets'), with the
near misses that stay with the human: another lot, another run, a label naming a value the
reader cannot read as the asked kind."""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import answers, by_model, facts, no_answer

# a value the asked noun (or the word a naming noun names) labels, beside another of the kind
LABELLED = [
    (
        "What's the shipment lot number in SAP for 0452?",
        "PO-77-0452 in SAP is received and booked, shipment lot 550012345",
        "550012345",
    ),
    (
        "What's the batch number in the LIMS for run 0815?",
        "RUN-0815 in the LIMS is approved, batch no. 7731022",
        "7731022",
    ),
    (
        "Which order number did the supplier confirm for kit 3310?",
        "kit K-3310 confirmed by the supplier, order #4471-88",
        "4471-88",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), LABELLED)
def test_the_value_the_asked_noun_labels_answers(question: str, row: str, value: str) -> None:
    answers(question, facts(("probe", row)), value)


# the asked noun labels a value of another kind than asked ("rev B-77" of a revision read as
# a version or a commit): the version said beside it is another thing's, and is not given
OTHER_THINGS = [
    (
        "Which build revision is the signed one?",
        "We're on Xcode 15.2 since Friday, build rev B-77 is the signed one.",
        "15.2",
    ),
    (
        "Which schema revision is live?",
        "Running Flyway 9.22.3 now, schema rev S-31 is live.",
        "9.22.3",
    ),
]


@pytest.mark.parametrize(("question", "row", "beside"), OTHER_THINGS)
def test_a_value_beside_the_labelled_one_is_not_given(question: str, row: str, beside: str) -> None:
    no_answer(question, facts(("probe", row)))


@pytest.mark.parametrize(("question", "row", "beside"), OTHER_THINGS)
def test_a_model_citing_the_value_beside_the_labelled_one_is_refused(
    question: str, row: str, beside: str
) -> None:
    assert by_model(question, facts(("probe", row)), beside) is None


# near misses: the label is there, the thing is another one
NEAR_MISSES = [
    (
        "What's the batch number in the LIMS for run 0816?",
        "RUN-0815 in the LIMS is approved, batch no. 7731022",
    ),
    (
        "What's the shipment lot number in SAP for 0453?",
        "PO-77-0452 in SAP is received and booked, shipment lot 550012345",
    ),
    (
        "Which order number did the supplier confirm for kit 3311?",
        "kit K-3310 confirmed by the supplier, order #4471-88",
    ),
    # the noun labels two values, one of each kit: which is the question's is the row's
    # other readings' to tell, not the label's
    (
        "Which order number did the supplier confirm for kit 3311?",
        "supplier confirmed kit K-3310 as order #4471-88 and kit K-3311 as order #4471-90",
    ),
    # one labelled value is gone, the other planned: neither is live
    (
        "What's the shipment lot number for 0452?",
        "PO-77-0452 booked, shipment lot 550012345 was the old one, shipment lot 550012399 is"
        " pending",
    ),
]


def test_a_value_said_of_the_noun_by_a_verb_is_no_label() -> None:
    # "the previous tag was 2.6.4": a verb ties it to another tag than the asked one
    row = "Tagged billing-api 2.7.0 (the previous tag was 2.6.4)."
    answers("what's the newest billing-api tag", facts(("probe", row)), "2.7.0")


@pytest.mark.parametrize(("question", "row"), NEAR_MISSES)
def test_a_labelled_value_of_another_thing_is_no_answer(question: str, row: str) -> None:
    no_answer(question, facts(("probe", row)))


def test_a_model_citing_the_labelled_value_holds() -> None:
    question, row, value = LABELLED[0]
    assert by_model(question, facts(("probe", row)), value) == value


def test_a_value_glued_to_the_next_is_no_labelled_one() -> None:
    # "digest sha256:…": what the noun labels is the whole, not the prefix before its colon
    row = "Pushed image registry.local/api:2.0.1 (digest sha256:9c1e77b04f2a) to the qa registry."
    answers("what's the api image digest?", facts(("builder", row)), "9c1e77b04f2a")


# labelled14: a naming noun's own word, right after the question word ("what *reference*
# number …"), is the word it names; the row's short form of it ("ref") labels the answer, and
# the other identifier beside it ("filed under PLN-4410") is another thing's
REFERENCE = [
    (
        "What reference number did the council give our planning application?",
        "council planning application filed under PLN-4410, their ref 23-0091",
        "23-0091",
    ),
    (
        "What reference number did the insurer give the storm claim?",
        "insurer storm claim opened as CLM-3307, their ref 88-1402",
        "88-1402",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), REFERENCE)
def test_the_value_the_named_word_labels_answers(question: str, row: str, value: str) -> None:
    answers(question, facts(("probe", row)), value)


def test_a_reference_of_another_thing_is_no_answer() -> None:
    row = "council planning application filed under PLN-4410, their ref 23-0091"
    question = "What reference number did the council give our licensing application?"
    no_answer(question, facts(("probe", row)))


# labelled14: a decimal the reader takes for a version by its form ("0.35"), labelled by the
# asked noun of a number ("threshold 0.35"), is that number
DECIMALS = [
    (
        "What threshold is the cloud mask configured with?",
        "cloud mask is cm-2.7.1, threshold 0.35",
        "0.35",
    ),
    (
        "What's the anomaly detector's threshold?",
        "anomaly detector runs model ad-4.1.0, threshold 0.82",
        "0.82",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), DECIMALS)
def test_a_decimal_labelled_by_the_asked_noun_answers(question: str, row: str, value: str) -> None:
    answers(question, facts(("probe", row)), value)


DECIMAL_NEAR_MISSES = [
    # the decimal is labelled by another noun than the asked one
    ("What threshold is the cloud mask configured with?", "cloud mask is cm-2.7.1, ratio 0.35"),
    # the threshold of another thing
    ("What threshold is the snow mask configured with?", "cloud mask is cm-2.7.1, threshold 0.35"),
    # a former and a present threshold: which is asked is a guess
    ("Which threshold did the cloud mask have before?", "cloud mask threshold was 0.35, now 0.4"),
]


@pytest.mark.parametrize(("question", "row"), DECIMAL_NEAR_MISSES)
def test_a_decimal_of_another_label_or_thing_is_no_answer(question: str, row: str) -> None:
    no_answer(question, facts(("probe", row)))
