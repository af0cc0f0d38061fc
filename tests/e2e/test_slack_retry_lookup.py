"""Slack: a retried post looks for its earlier attempt only where that attempt could be.

Slack has no idempotency key: a post whose answer was lost (a reset, a crash) is looked for
by its metadata with ``conversations.replies`` (Tier 3) before posting again. The look reads
the thread from when the entry was queued (less ``CLOCK_SKEW``), not from the thread's
start: one page however long the thread, and a card that landed after the first 2,000
replies is found instead of posted twice. (Found by reading issue 16's kill runs.)
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from crewline.models import OutboundMessage
from crewline.transports.slack import SlackTransport
from crewline.transports.slack.transport import CLOCK_SKEW, THREAD_PAGES
from crewline.transports.slack.web_api import PAGE
from tests.driver import Crew
from tests.harnesses.slack import SlackHarness

# More replies than the look reached when it read a thread from its start.
LONG_THREAD = THREAD_PAGES * PAGE + 50


@pytest.fixture
async def harness() -> AsyncIterator[SlackHarness]:
    async with SlackHarness().running() as running:
        assert isinstance(running, SlackHarness)
        yield running


def _transport(crew: Crew) -> SlackTransport:
    transport = crew.crewline.transport("slack")
    assert isinstance(transport, SlackTransport)
    return transport


async def _thread_an_hour_old(crew: Crew, harness: SlackHarness) -> tuple[str, str, str]:
    """A member whose thread Slack stamped an hour ago: (its session key, thread, root)."""
    an_hour_ago = time.time() - 3600
    harness.fake.wall = lambda: an_hour_ago
    key = await crew.add_member()
    await crew.call(key, "POST", "/api/session/messages", json={"text": "hello"})
    await harness.wait_until(lambda: len(harness.messages("radar")) == 1)
    thread = await crew.crewline.store.thread_ref("radar", "slack")
    root = harness.root("radar")
    assert thread is not None and root is not None
    return key, thread, root


async def test_a_card_that_landed_late_in_a_long_thread_is_found_not_posted_twice(
    crew: Crew, harness: SlackHarness
) -> None:
    """A card posted into a thread of more than 2,000 replies lands but its answer is lost:
    the retry reads one page of the thread, from when the card was queued on, finds the
    card and does not post it again."""
    key, _, root = await _thread_an_hour_old(crew, harness)
    harness.fake.add_replies(harness.dm, root, LONG_THREAD)
    harness.fake.wall = time.time  # now: the card is stamped after the long history
    question = "Found, not posted twice?"

    def the_card(params: dict[str, object]) -> bool:
        return params.get("thread_ts") == root and question in str(params.get("text"))

    harness.fake.reset_next("chat.postMessage", where=the_card)
    looked = len(harness.fake.calls_to("conversations.replies"))
    await crew.escalate(key, message=question, options=["yes", "no"])
    await crew.delivered()
    looks = harness.fake.calls_to("conversations.replies")[looked:]
    assert looks, "precondition: the card's answer was lost, so its post was retried"
    thread = harness.fake.thread(harness.dm, root)
    assert len(thread) > LONG_THREAD, "precondition: the card is beyond the old look's reach"
    posts = [c for c in harness.fake.calls_to("chat.postMessage") if the_card(c.params)]
    assert len(posts) == 1
    assert len(harness.cards("radar")) == 1
    assert len(looks) == 1  # one page, not ten
    assert looks[0].params.get("oldest") is not None


async def test_a_post_slack_stamped_at_the_bound_is_found(
    crew: Crew, harness: SlackHarness
) -> None:
    """Slack's clock may run behind crewline's: a post Slack stamped ``CLOCK_SKEW`` before
    the moment crewline gives as the lower bound (the bound itself, inclusive) is found."""
    _, thread, _ = await _thread_an_hour_old(crew, harness)
    since = datetime.now(UTC)
    bound = (since - CLOCK_SKEW).timestamp()
    harness.fake.wall = lambda: bound
    transport = _transport(crew)
    message = OutboundMessage(author="Radar", text="stamped at the bound")
    first = await transport.post(thread, message, key="row:skewed", retry=False)
    assert first.endswith(f"{bound:.6f}"), "precondition: Slack stamped it at the bound"
    harness.fake.wall = time.time
    looked = len(harness.fake.calls_to("conversations.replies"))
    again = await transport.post(thread, message, key="row:skewed", retry=True, since=since)
    assert again == first
    texts = [m.text for m in harness.messages("radar")]
    assert texts.count("stamped at the bound") == 1
    (look,) = harness.fake.calls_to("conversations.replies")[looked:]
    assert float(look.params["oldest"]) == pytest.approx(bound, abs=1e-6)
    assert look.params.get("inclusive") in (True, "true", "1", 1)


async def test_a_rewind_at_the_end_of_a_long_thread_strikes_its_messages(
    crew: Crew, harness: SlackHarness
) -> None:
    """A rewind's messages are read from the oldest of them on: at the end of a thread of
    more than 2,000 replies they are struck through, with one page read."""
    _, thread, root = await _thread_an_hour_old(crew, harness)
    harness.fake.add_replies(harness.dm, root, LONG_THREAD)
    harness.fake.wall = time.time
    transport = _transport(crew)
    message = OutboundMessage(author="Radar", text="taken back")
    ref = await transport.post(thread, message, key="row:late", retry=False)
    looked = len(harness.fake.calls_to("conversations.replies"))
    await transport.mark_rewound(thread, [ref])
    (shown,) = [m for m in harness.fake.thread(harness.dm, root) if ref.endswith(m["ts"])]
    assert len(harness.fake.thread(harness.dm, root)) > LONG_THREAD + 1, "precondition"
    assert shown["text"].startswith("~") and "taken back" in shown["text"]
    assert len(harness.fake.calls_to("conversations.replies")[looked:]) == 1
