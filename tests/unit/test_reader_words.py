"""What a person reads first: the bell's words, the roster's counts, and every time shown in
the reader's own zone where the surface can (Slack, Discord, the inbox) or with its zone
named where it cannot (Telegram, the bell)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from crewline.bot import cards
from crewline.bot.words import plain_words, sentence
from crewline.models import (
    AnsweredBy,
    Escalation,
    EscalationState,
    Question,
    QuestionState,
    RecentAnswer,
    RosterEntry,
)
from crewline.moments import in_words, localize
from crewline.transports.discord.render import status_content, thread_message, timestamp
from crewline.transports.local.render import markdown_html, message_json, state_json
from crewline.transports.local.view import InboxView, ShownMessage
from crewline.transports.slack.blocks import home_view, message_blocks
from crewline.transports.telegram.render import message_html, roster_html

NOW = datetime(2026, 9, 6, 1, 30, tzinfo=UTC)
DEADLINE = NOW + timedelta(minutes=30)  # Sep 6, 02:00 UTC
PENDING = Escalation(
    id="0123456789abcdef",
    member="quill",
    row_id="r",
    session="s",
    message="Ship the **orders** `migrate` job before 02:00 UTC?",
    deadline=DEADLINE,
    default_action="ship it.",
    options=("yes", "no"),
    created_at=NOW,
)
QUESTION = Question(
    id="fedcba9876543210",
    member="quill",
    session="s",
    row_id="q",
    question="Which **branch** do I _rebase_ onto?",
    options=("main", "dev"),
    created_at=NOW,
)


# --- the bell's words --------------------------------------------------------------------------


def test_the_bell_says_markdown_in_plain_words_with_single_punctuation() -> None:
    """No ``**``, no backticks, and "02:00 UTC?" is not followed by a second "."."""
    bell = cards.escalation_bell("Quill", "quill", None, [PENDING])
    assert "**" in PENDING.message and "`" in PENDING.message  # the precondition
    assert "Ship the orders migrate job before 02:00 UTC? Unless you reply by" in bell.body
    assert "Quill will: ship it. Options: yes or no." in bell.body
    assert "**" not in bell.body and "`" not in bell.body
    assert "?." not in bell.body and ".." not in bell.body


def test_plain_words_keep_links_lists_and_code_as_text() -> None:
    """A link keeps its address, list items read as a row of sentences, fences their code."""
    assert plain_words("See [the docs](https://x.test/d) and ~~old~~ __new__") == (
        "See the docs (https://x.test/d) and old new"
    )
    assert plain_words("# Plan\nSteps:\n- build\n- **ship**\n1. tell") == (
        "Plan Steps: build. ship. tell"
    )
    assert plain_words("```sh\nmake test\n```") == "make test"
    assert [sentence(s) for s in ("Done", "Done.", "Why?", "Wait…", "")] == [
        "Done.",
        "Done.",
        "Why?",
        "Wait…",
        "",
    ]


def test_a_waiting_question_rings_its_own_bell_in_words() -> None:
    """A blocked session's question reaches the bell too, and is counted there."""
    bell = cards.question_bell("Quill", "quill", [QUESTION])
    assert bell.group_key == "question:quill"
    assert bell.count == 1
    assert bell.title == "Quill needs you"
    assert bell.body == (
        "Quill waits for your answer to a question. Which branch do I rebase onto?"
        " Options: main or dev. Open Quill's thread to answer."
    )
    settled = cards.question_bell("Quill", "quill", [])
    assert (settled.count, settled.title) == (0, "Quill: settled")


# --- the roster counts questions -------------------------------------------------------------


def test_a_waiting_question_counts_as_open_on_every_roster() -> None:
    """'Quill: needs you, 0 open' cannot happen: a waiting question is one open item."""
    quill = RosterEntry(
        slug="quill", name="Quill", needs_you=True, pending_escalations=0, waiting_questions=1
    )
    assert quill.open_count == 1
    assert "<b>Quill</b>: needs you, 1 open" in roster_html([quill])
    assert "Quill (quill): needs you, 1 open" in status_content([quill])
    home = home_view([quill], links={})
    assert "*needs you* · 1 open" in home["blocks"][1]["text"]["text"]


# --- the concierge's answer on the status line ------------------------------------------------

ANSWERED = RosterEntry(
    slug="quill",
    name="Quill",
    needs_you=False,
    pending_escalations=0,
    concierge_answer=RecentAnswer(text="yes, <v2> *now*", at=NOW),
)


def test_every_status_surface_says_the_concierges_recent_answer_and_how_to_undo_it() -> None:
    """The line names the member, the answer (escaped for the surface), its time and the
    undo command; Slack and Discord write the time relative and live, Telegram in UTC."""
    unix = int(NOW.timestamp())
    discord = status_content([ANSWERED])
    assert (
        rf"concierge · answered quill: yes, <v2\> \*now\* (<t:{unix}:R>) · /concierge undo"
        in discord
    )
    telegram = roster_html([ANSWERED])
    assert (
        f"concierge · answered quill: yes, &lt;v2&gt; *now* ({in_words(NOW)}) · /concierge undo"
        in telegram
    )
    home = str(home_view([ANSWERED], links={}))
    assert f"answered quill: yes, &lt;v2&gt; *now* (<!date^{unix}^{{ago}}|" in home
    view = InboxView()
    view.roster = [ANSWERED]
    member = state_json(view, user="owner")["members"][0]
    assert member["concierge"] == (
        f"concierge · answered quill: yes, <v2> *now* ({in_words(NOW)}) · /concierge undo"
    )
    assert member["concierge_at"] == NOW.isoformat()


def test_no_recent_answer_no_status_line() -> None:
    quiet = replace(ANSWERED, concierge_answer=None)
    assert "concierge" not in status_content([quiet])
    assert "concierge" not in roster_html([quiet])
    assert "concierge" not in str(home_view([quiet], links={}))
    view = InboxView()
    view.roster = [quiet]
    assert state_json(view, user="owner")["members"][0]["concierge"] is None


# --- the card: the typed path said once, the ambiguity notice ---------------------------------


def test_the_typed_hint_does_not_repeat_the_buttons() -> None:
    """The options are the buttons; the hint says only that typing a label works too."""
    card = cards.escalation_card(PENDING, "Quill")
    assert [b.label for b in card.buttons] == ["yes", "no"]
    assert card.text.count("yes") == 0
    assert card.text.endswith(
        "To answer, tap a button or type its label as a reply in this thread."
    )


def test_the_ambiguity_notice_says_what_to_do_wherever_it_is_read() -> None:
    """It names no other surface ("the inbox"): buttons, or a typed reply once one is left."""
    two = [PENDING, replace(PENDING, id="1111111111111111", message="Notes?", options=())]
    notice = cards.ambiguity_notice(two)
    assert "inbox" not in notice
    assert notice.startswith("2 requests are open, so your reply answered none of them:")
    assert "To answer one, tap a button on its card." in notice
    assert "once it is the only one open" in notice
    with_buttons = cards.ambiguity_notice([PENDING, replace(PENDING, id="2" * 16)])
    assert with_buttons.endswith("To answer one, tap a button on its card.")


# --- times: named once, in the reader's zone where the platform can ---------------------------


def test_a_card_lists_the_times_its_words_name() -> None:
    """The deadline, and once answered the answer's time, are in the card's times."""
    answered = replace(
        PENDING,
        state=EscalationState.ANSWERED,
        answer="yes",
        answered_by=AnsweredBy.USER,
        settled_at=NOW + timedelta(minutes=5),
    )
    assert cards.escalation_card(PENDING, "Quill").times == (DEADLINE,)
    card = cards.escalation_card(answered, "Quill")
    assert card.times == (DEADLINE, NOW + timedelta(minutes=5))
    assert "by you, Sep 6, 01:35 UTC" in card.text
    question = cards.question_card(
        replace(
            QUESTION,
            state=QuestionState.ANSWERED,
            answer="main",
            answered_by=AnsweredBy.USER,
            settled_at=DEADLINE,
        ),
        "Quill",
    )
    assert question.times == (DEADLINE,)


def test_localize_swaps_the_utc_words_and_only_them() -> None:
    """Each moment's UTC words become the platform's markup; other text is untouched."""
    text = f"Reply by {in_words(DEADLINE)}; not 02:00 UTC alone."
    assert localize(text, [DEADLINE], lambda m: "<T>") == "Reply by <T>; not 02:00 UTC alone."


def test_slack_states_the_deadline_once_as_a_date_token_with_utc_fallback() -> None:
    """Slack shows each reader's zone; the UTC words are the token's fallback."""
    card = cards.escalation_card(PENDING, "Quill")
    text = message_blocks(card)[0]["text"]["text"]
    unix = int(DEADLINE.timestamp())
    assert f"<!date^{unix}^{{date_short_pretty}} at {{time}}|Sep 6, 02:00 UTC>, Quill" in text
    assert text.count(f"<!date^{unix}^") == 1
    assert "your time" not in str(message_blocks(card))


def test_discord_shows_times_as_timestamps_and_the_open_deadline_relative() -> None:
    """``<t:UNIX:f>`` in every reader's zone; an open deadline also ``<t:UNIX:R>``."""
    unix = int(DEADLINE.timestamp())
    drawn = thread_message(cards.escalation_card(PENDING, "Quill"))
    assert drawn.content is not None
    assert f"Unless you reply by <t:{unix}:f> (<t:{unix}:R>), Quill will" in drawn.content
    assert "UTC," not in drawn.content
    assert timestamp(DEADLINE) == f"<t:{unix}:f>"
    closed = replace(PENDING, state=EscalationState.DEFAULTED, settled_at=DEADLINE)
    settled = thread_message(cards.escalation_card(closed, "Quill"))
    assert settled.content is not None and f"<t:{unix}:R>" not in settled.content


def test_telegram_names_the_zone_it_cannot_convert() -> None:
    """Telegram has no time markup: the UTC words stay, zone named."""
    assert "Unless you reply by Sep 6, 02:00 UTC, Quill will" in message_html(
        cards.escalation_card(PENDING, "Quill")
    )


def test_the_inbox_sends_each_time_for_the_browser_to_show_in_its_zone() -> None:
    """A ``<time>`` with the moment; the open deadline is marked for its countdown."""
    card = cards.escalation_card(PENDING, "Quill")
    shown = ShownMessage(ref="m1", thread="quill", key="row:r", versions=[card], at=NOW)
    html = message_json(shown)["html"]
    iso = DEADLINE.isoformat()
    assert (
        f'<time class="moment" datetime="{iso}" data-deadline="{iso}">Sep 6, 02:00 UTC</time>'
        in html
    )
    assert html.count("<time") == 1


def test_inbox_markdown_lists_are_real_lists() -> None:
    """ "- a" lines are a <ul>, "1." lines an <ol> (its start kept), text around them <p>."""
    assert markdown_html("Plan:\n- **build**\n- ship\n  today\n\n3. a\n4. b\ndone") == (
        "<p>Plan:</p><ul><li><strong>build</strong></li><li>ship<br>today</li></ul>"
        '<ol start="3"><li>a</li><li>b</li></ol><p>done</p>'
    )
    assert markdown_html("* one\n* two") == "<ul><li>one</li><li>two</li></ul>"
    assert markdown_html("- <b>x</b>") == "<ul><li>&lt;b&gt;x&lt;/b&gt;</li></ul>"
