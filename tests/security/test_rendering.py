"""Hostile text from an agent, rendered on every platform: shown literally, never as markup.

Each text field an agent writes and a card shows (the message, the option labels) carries
SQL, each platform's markup and mention syntax, and odd Unicode
(right-to-left override, zero-width, 4-byte emoji) at the 4,000-character limit. What the
human sees (the harness reads each fake's stored message as the platform would show it)
must hold the text as written; the database must be whole afterwards.
"""

from __future__ import annotations

from crewline.limits import MAX_MESSAGE
from tests.driver import Crew

SQL = "'); DROP TABLE escalations; --"
# Platform markup and mentions, not Markdown: cards render an agent's Markdown natively on
# purpose (SPEC), but Slack's <!channel>, Telegram's HTML or an entity must stay text.
MARKUP = "<b>tag</b> <!channel> <@U1> <#C1> @everyone @here &amp; &lt;i&gt; </pre>"
ODD = "\u202eevil\u202c \u200b\u200d\u2066 \U0001f600\U0001f9d1\u200d\U0001f4bb"
HOSTILE = f"{SQL} {MARKUP} {ODD}"


async def test_hostile_text_is_shown_literally_and_the_store_stays_whole(crew: Crew) -> None:
    """The card shows the message and labels as written; a later escalation still works."""
    key = await crew.add_member()
    label = f"{SQL[:20]} *y* <b>"
    await crew.escalate(key, message=HOSTILE, options=[label, "no"])
    await crew.delivered()
    [card] = crew.harness.cards("radar")
    assert HOSTILE in card.text
    assert card.buttons[0] == label
    again = await crew.escalate(key, message="still here?")
    assert again["state"] == "pending"


async def test_odd_unicode_at_the_limit_is_taken_whole(crew: Crew) -> None:
    """4,000 characters of marks, joiners and 4-byte emoji: accepted; one more refused."""
    key = await crew.add_member()
    filler = "\u200f\u200b\U0001f600\u202e"
    message = (filler * (MAX_MESSAGE // len(filler) + 1))[:MAX_MESSAGE]
    assert len(message) == MAX_MESSAGE
    await crew.escalate(key, message=message)
    over = await crew.call(
        key, "POST", "/api/session-control/escalate", json={"message": message + "x"}
    )
    assert over.status_code == 400
    assert over.json()["error"]["code"] == "message_too_long"
    await crew.delivered()
    [card] = crew.harness.cards("radar")
    assert "\U0001f600" in card.text
