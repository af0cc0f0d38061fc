"""Slack over HTTP: signed requests to crewline's real ``/slack/events`` over a real socket.

Hostile and odd input first (forged, stale, redelivered, foreign, not the owner's, settled),
then what a Slack user sees: cards in Block Kit with the member's name and icon, settled
cards without buttons, the thread root's status, the bell with a link to the thread, the
App Home, edits, deletions, slash commands and the same words typed in a thread.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from crewline.app.server import Crewline
from crewline.config import Config
from crewline.errors import ConfigError
from crewline.transports.refusals import AUDIT_EVERY
from crewline.transports.slack import SlackTransport
from crewline.transports.slack.blocks import BELL_BODY_BLOCK
from tests.driver import Crew
from tests.harnesses.slack import SlackHarness


@pytest.fixture
async def harness() -> AsyncIterator[SlackHarness]:
    async with SlackHarness().running() as running:
        assert isinstance(running, SlackHarness)
        yield running


async def _card(crew: Crew, harness: SlackHarness, **body: Any) -> tuple[str, dict[str, Any]]:
    """Escalate as radar and wait for its card; returns the member key and the result."""
    key = await crew.add_member()
    result = await crew.escalate(key, **body)
    await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
    return key, result


async def _state(crew: Crew) -> tuple[int, list[str]]:
    """What a refusal must leave untouched: the transcript's length and the records' states."""
    rows = len(await crew.crewline.store.live_rows("radar"))
    states = [e["state"] for e in (await crew.conversation())["escalations"]]
    return rows, states


# --- bad or hostile input -----------------------------------------------------------------------


async def test_a_bad_signature_is_refused_with_401_and_audited(
    crew: Crew, harness: SlackHarness
) -> None:
    """A request signed with the wrong secret is 401, reaches nothing, and leaves a SEL record."""
    await _card(crew, harness, message="Ship?", options=["yes"])
    before = await _state(crew)
    root = harness.root("radar")
    assert root is not None
    reply = await harness.fake.send_event(
        harness._url(), harness.fake.thread_reply(root, "yes"), signature="v0=" + "0" * 64
    )
    assert reply.status == 401
    assert await _state(crew) == before == (1, ["pending"])
    audit = await crew.crewline.store.sel(action_prefix="request:")
    assert [(r.action, r.details["transport"]) for r in audit] == [
        ("request:bad_signature", "slack")
    ]


async def test_a_stale_timestamp_is_refused_with_401_and_audited(
    crew: Crew, harness: SlackHarness
) -> None:
    """A correctly signed request older than five minutes is a replay: 401 and a SEL record."""
    await _card(crew, harness, message="Ship?", options=["yes"])
    card = harness.cards("radar")[0]
    payload = harness.fake.block_actions_payload(
        user_id=harness.owner,
        channel=harness.dm,
        message_ts=card.ref,
        action_id="crewline:0",
        value=card.payloads[0],
        thread_ts=harness.root("radar"),
    )
    status = await harness.post_signed(
        {"payload": json.dumps(payload)}, timestamp=int(time.time()) - 6 * 60
    )
    assert status == 401
    assert await _state(crew) == (1, ["pending"])
    audit = await crew.crewline.store.sel(action_prefix="request:")
    assert [r.action for r in audit] == ["request:stale_timestamp"]


async def test_a_payload_from_another_workspace_is_refused_and_audited(
    crew: Crew, harness: SlackHarness
) -> None:
    """A correctly signed click naming another team is refused (403), changes nothing, SEL."""
    await _card(crew, harness, message="Ship?", options=["yes"])
    card = harness.cards("radar")[0]
    payload = harness.fake.block_actions_payload(
        user_id=harness.owner,
        channel=harness.dm,
        message_ts=card.ref,
        action_id="crewline:0",
        value=card.payloads[0],
        thread_ts=harness.root("radar"),
        team_id="T0EVIL0001",
    )
    status = await harness.post_signed({"payload": json.dumps(payload)})
    assert status == 403
    assert await _state(crew) == (1, ["pending"])
    assert harness.fake.response_url_posts == []
    audit = await crew.crewline.store.sel(action_prefix="request:")
    assert [(r.action, r.actor, r.details["teams"]) for r in audit] == [
        ("request:unknown_team", f"slack:{harness.owner}", ["T0EVIL0001"])
    ]


async def test_an_event_from_another_workspace_is_refused(
    crew: Crew, harness: SlackHarness
) -> None:
    """A message event whose envelope names another team never becomes a reply."""
    await _card(crew, harness, message="Proceed?")
    root = harness.root("radar")
    assert root is not None
    reply = await harness.fake.send_event(
        harness._url(), harness.fake.thread_reply(root, "yes"), team_id="T0EVIL0001"
    )
    assert reply.status == 403
    assert await _state(crew) == (1, ["pending"])
    assert [r.action for r in await crew.crewline.store.sel()] == ["request:unknown_team"]


async def test_a_click_by_someone_else_gets_an_ephemeral_refusal_and_the_card_stays(
    crew: Crew, harness: SlackHarness
) -> None:
    """A non-owner's press: only they see the refusal; the card keeps its buttons."""
    await _card(crew, harness, message="Ship?", options=["yes", "no"])
    await crew.delivered()  # the roster's redraw of the thread root, paced, is in too
    card = harness.cards("radar")[0]
    updates = len(harness.fake.calls_to("chat.update"))
    notice = await harness.press("radar", card, 0, user=harness.stranger)
    assert notice is not None and "owner" in notice
    post = harness.fake.response_url_posts[-1]
    assert (post.body["response_type"], post.body["replace_original"]) == ("ephemeral", False)
    assert [m["user"] for m in harness.fake.ephemeral_messages(harness.dm)] == [harness.stranger]
    assert await _state(crew) == (1, ["pending"])
    await crew.delivered()
    assert len(harness.fake.calls_to("chat.update")) == updates
    assert harness.cards("radar")[0].choices == ("yes", "no")


async def test_a_click_on_a_settled_card_is_refused_privately(
    crew: Crew, harness: SlackHarness
) -> None:
    """Pressing an old button again (before Slack redrew it) answers nothing and says so."""
    await _card(crew, harness, message="Ship?", options=["yes", "no"])
    card = harness.cards("radar")[0]
    assert await harness.press("radar", card, 0) == "Answered: yes"
    notice = await harness.press("radar", card, 1)
    assert notice is not None and "already settled" in notice
    assert (await _state(crew))[1] == ["answered"]
    assert (await crew.conversation())["escalations"][0]["answer"] == "yes"


async def test_a_forged_value_is_refused_and_audited(crew: Crew, harness: SlackHarness) -> None:
    """A button value that is not crewline's is refused privately; SEL records it."""
    await _card(crew, harness, message="Ship?", options=["yes"])
    notice = await harness.press_payload("radar", '{"escalation": "*", "choice": "all"}')
    assert notice is not None
    assert await _state(crew) == (1, ["pending"])
    audit = await crew.crewline.store.sel(action_prefix="click:")
    assert [r.action for r in audit] == ["click:malformed_payload"]


async def test_a_click_is_acknowledged_and_handled(crew: Crew, harness: SlackHarness) -> None:
    """A click on a card is answered 200 and handled. How soon is not asserted here (a
    stopwatch on a loaded machine decides nothing): Slack wants it within 3 s, and the
    acknowledgement goes out once the core has handled the click (bolt's
    process_before_response, so an acknowledged event is a handled one)."""
    await _card(crew, harness, message="Ship?", options=["yes"])
    card = harness.cards("radar")[0]
    payload = harness.fake.block_actions_payload(
        user_id=harness.owner,
        channel=harness.dm,
        message_ts=card.ref,
        action_id="crewline:0",
        value=card.payloads[0],
        thread_ts=harness.root("radar"),
    )
    assert await harness.send_interaction(payload) == 200
    assert (await harness.receipt(f"click:{payload['trigger_id']}")).accepted


async def test_requests_to_other_paths_and_methods_are_not_served(
    crew: Crew, harness: SlackHarness
) -> None:
    """Only POST /slack/events is served under /slack, and oversized bodies are refused."""
    assert harness._http is not None
    base = crew.url
    assert (await harness._http.get(f"{base}/slack/events")).status_code == 405
    assert (await harness._http.post(f"{base}/slack/other")).status_code == 404
    huge = await harness._http.post(f"{base}/slack/events", content=b"x" * (1 << 20 | 1))
    assert huge.status_code == 413
    assert await crew.crewline.store.sel() == []


# --- what a Slack user sees ---------------------------------------------------------------------


async def test_a_card_is_block_kit_in_the_members_thread_with_its_name_and_icon(
    crew: Crew, harness: SlackHarness
) -> None:
    """The root names the member; the card is a reply in its thread, with buttons by value."""
    _, result = await _card(crew, harness, message="Ship **v2**?", options=["yes", "no"])
    # The concierge's suggestion may land before or after the card is first drawn:
    # let it, and the redraw it queues, settle, so the card is read in its final state.
    await crew.crewline.bot.concierge.idle()
    await crew.delivered()
    fake = harness.fake
    root = harness.root("radar")
    assert root is not None
    thread = fake.thread(harness.dm, root)
    assert thread[0]["text"].startswith("Radar: ")
    assert thread[0]["metadata"]["event_payload"]["member"] == "radar"
    card = thread[1]
    assert card["thread_ts"] == root
    assert (card["username"], card["icon_emoji"]) == ("Radar", thread[0]["icon_emoji"])
    sections = [b for b in card["blocks"] if b["type"] == "section"]
    assert sections[0]["text"]["text"].startswith("Ship *v2*?")
    # the answers' row first; the concierge's controls stand apart in a row of their own
    answers, *_controls = [b for b in card["blocks"] if b["type"] == "actions"]
    options = [
        (e["action_id"], e["value"]) for e in answers["elements"] if e["value"].startswith("e:")
    ]
    assert options == [
        ("crewline:0", f"e:{result['escalation_id']}:0"),
        ("crewline:1", f"e:{result['escalation_id']}:1"),
    ]


async def test_a_settled_card_keeps_its_text_and_loses_its_buttons(
    crew: Crew, harness: SlackHarness
) -> None:
    """chat.update redraws the card in place without its actions block."""
    await _card(crew, harness, message="Ship?", options=["yes", "no"])
    card = harness.cards("radar")[0]
    await harness.press("radar", card, 1)
    await harness.wait_until(lambda: harness.cards("radar")[0].settled)
    stored = next(m for m in harness.thread_messages("radar") if m["ts"] == card.ref)
    assert [b["type"] for b in stored["blocks"]] == ["section"]
    assert "Ship?" in stored["text"] and "Answered: no — by you" in stored["text"]
    # Redrawn in place (other lanes — the bell, the thread root — update their own messages).
    assert card.ref in [update.params["ts"] for update in harness.fake.calls_to("chat.update")]


async def test_the_thread_root_says_whether_the_member_needs_you(
    crew: Crew, harness: SlackHarness
) -> None:
    """The root reads 'needs you' while a request is open and 'all clear' once answered."""
    await _card(crew, harness, message="Ship?", options=["yes"])
    root = harness.root("radar")
    assert root is not None

    def root_text() -> str:
        return str(harness.fake.thread(harness.dm, root)[0]["text"])

    await harness.wait_until(lambda: root_text() == "Radar: needs you")
    await harness.press("radar", harness.cards("radar")[0], 0)
    await harness.wait_until(lambda: root_text() == "Radar: all clear")


async def test_the_bell_is_one_dm_message_per_goal_redrawn_with_a_thread_link(
    crew: Crew, harness: SlackHarness
) -> None:
    """Escalations of one goal stack into one top-level DM message linking to the thread."""
    key = await crew.add_member()
    await crew.escalate(key, message="Tag it?", goal="release", options=["yes"])
    await crew.escalate(key, message="Publish notes?", goal="release")
    await harness.wait_until(lambda: any("2 requests" in b[-1] for b in harness.bells().values()))
    await crew.delivered()
    tops = [m for m in harness.fake.messages(harness.dm) if "thread_ts" not in m]
    bells = [m for m in tops if m.get("metadata", {}).get("event_type") == "crewline_bell"]
    assert len(bells) == 1
    link = bells[0]["blocks"][-1]["elements"][0]["text"]
    assert f"/archives/{harness.dm}/p{harness.root('radar')!s}".replace(".", "") in link
    assert len(harness.fake.calls_to("chat.postMessage")) == 1 + 2 + 1  # root, cards, bell


async def test_a_first_bell_rung_before_its_thread_exists_links_to_it(
    crew: Crew, harness: SlackHarness
) -> None:
    """The bell's lane does not wait for the thread's: while Slack refuses the member's root,
    the first bell is rung all the same. It is drawn only with its link to the thread, whose
    root is posted once whichever lane gets there first."""

    def a_root(params: dict[str, Any]) -> bool:
        return "thread_ts" not in params and "crewline_thread" in str(params.get("metadata"))

    lift = harness.fake.refuse("chat.postMessage", where=a_root)
    key = await crew.add_member()
    await crew.escalate(key, message="Tag it?", goal="release", options=["yes"])
    await crew.lane_tried("slack", "bell:radar")  # the bell has rung: drawn, or failed
    assert harness.root("radar") is None, "precondition: the bell rang before the root existed"
    assert any(not c.ok and a_root(c.params) for c in harness.fake.calls_to("chat.postMessage"))
    lift()
    await crew.delivered()
    root = harness.root("radar")
    assert root is not None
    tops = [m for m in harness.fake.messages(harness.dm) if m.get("thread_ts") in (None, m["ts"])]
    assert sum((m.get("metadata") or {}).get("event_type") == "crewline_thread" for m in tops) == 1
    drawn = [
        c.params
        for c in harness.fake.calls
        if c.ok
        and c.method in ("chat.postMessage", "chat.update")
        and any(
            str(b.get("block_id", "")).startswith(BELL_BODY_BLOCK)
            for b in c.params.get("blocks") or []
        )
    ]
    link = f"/archives/{harness.dm}/p{root}".replace(".", "")
    # Drawn once, and with the link to the thread (not first without it, then redrawn).
    assert [link in json.dumps(params["blocks"]) for params in drawn] == [True]


async def test_a_root_posted_after_another_replica_read_the_dm_is_found_there(
    crew: Crew, harness: SlackHarness
) -> None:
    """Another replica read the owner's DM before a member's root was posted there: when it
    opens that member's thread (its bell's lane rang first, or it took the thread's lane
    over) it finds the root, and posts no second one for the cards to split across."""
    hub = crew.crewline.hub
    await crew.add_member("probe", "Probe")
    key = await crew.add_member()
    other = SlackTransport(harness.settings())
    other.attach(hub)
    await other.start(hub.receive)
    try:
        probe = await other.open_thread(await hub.member("probe"))  # reads the DM
        assert harness.root("radar") is None, "precondition: read before radar's root"
        await crew.escalate(key, message="Tag it?", options=["yes"])
        await crew.delivered()
        root = harness.root("radar")
        assert root is not None
        assert await other.open_thread(await hub.member("radar")) == f"{harness.dm}:{root}"
    finally:
        await other.stop()
    assert probe == f"{harness.dm}:{harness.root('probe')}"
    roots = [
        m
        for m in harness.fake.messages(harness.dm)
        if (m.get("metadata") or {}).get("event_type") == "crewline_thread"
    ]
    assert len(roots) == 2


async def test_the_app_home_shows_the_roster_with_needs_you_and_counts(
    crew: Crew, harness: SlackHarness
) -> None:
    """views.publish puts every member on the owner's App Home, republished on change."""
    key = await crew.add_member()
    await crew.add_member("probe", "Probe")
    await crew.escalate(key, message="one")
    await crew.escalate(key, message="two")

    def home() -> str:
        view = harness.fake.home_views.get(harness.owner, {"blocks": []})
        return "\n".join(b.get("text", {}).get("text", "") for b in view["blocks"])

    await harness.wait_until(lambda: "needs you* · 2 open" in home())
    assert "*Radar* (`radar`) · :large_orange_circle: *needs you* · 2 open" in home()
    assert "*Probe* (`probe`) · :white_check_mark: all clear" in home()
    assert harness.stranger not in harness.fake.home_views


async def test_opening_the_app_home_publishes_it_for_the_owner_only(
    crew: Crew, harness: SlackHarness
) -> None:
    """app_home_opened republishes the roster for the owner; a stranger is shown nothing."""
    key = await crew.add_member()
    await crew.escalate(key, message="Anyone home?")
    await harness.wait_until(lambda: harness.owner in harness.fake.home_views)
    await crew.delivered()
    publishes = len(harness.fake.calls_to("views.publish"))
    opened = {"type": "app_home_opened", "tab": "home", "event_ts": "1.000001"}
    await harness.send_event({**opened, "user": harness.stranger, "channel": "D0STRANGER"})
    await harness.send_event({**opened, "user": harness.owner, "channel": harness.dm})
    await harness.fake.wait_for_call("views.publish", count=publishes + 1)
    await crew.delivered()
    assert [c.params["user_id"] for c in harness.fake.calls_to("views.publish")[publishes:]] == [
        harness.owner
    ]


async def test_an_edit_reaches_the_member_and_a_deletion_changes_nothing(
    crew: Crew, harness: SlackHarness
) -> None:
    """message_changed on the owner's reply is an edit event; message_deleted is ignored."""
    key = await crew.add_member()
    await crew.call(key, "POST", "/api/session/messages", json={"text": "hello"})
    await harness.wait_until(lambda: len(harness.messages("radar")) == 1)
    root = harness.root("radar")
    assert root is not None
    said = harness.fake.thread_reply(root, "tpyo", channel=harness.dm)
    assert (await harness.receipt(await harness.send_event(said))).accepted
    edit = harness.fake.message_changed(harness.dm, said["ts"], "typo")
    assert (await harness.receipt(await harness.send_event(edit))).accepted
    event = await crew.wait_for_event(key, "human_edit")
    assert event["body"]["text"] == "typo"
    rows = len(await crew.crewline.store.live_rows("radar"))
    deleted = await harness.fake.send_event(
        harness._url(), harness.fake.message_deleted(harness.dm, said["ts"])
    )
    assert deleted.status == 200
    assert len(await crew.crewline.store.live_rows("radar")) == rows


async def test_slash_commands_answer_privately_at_the_dm_root(
    crew: Crew, harness: SlackHarness
) -> None:
    """/roster and /crew help reach the core; the answer comes back through response_url."""
    key = await crew.add_member()
    await crew.escalate(key, message="one")
    await crew.delivered()
    roster = await harness.command("roster")
    assert roster is not None and "Radar (radar): needs you, 1 open" in roster
    helped = await harness.command("help")
    assert helped is not None and "/roster" in helped
    assert all(p.body["response_type"] == "ephemeral" for p in harness.fake.response_url_posts)


async def test_command_words_typed_in_a_thread_run_as_commands(
    crew: Crew, harness: SlackHarness
) -> None:
    """Slack forbids slash commands in threads: 'roster' typed there runs /roster privately."""
    key = await crew.add_member()
    await crew.escalate(key, message="one")
    await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
    rows = len(await crew.crewline.store.live_rows("radar"))
    answer = await harness.command("roster", member="radar")
    assert answer is not None and "Radar (radar): needs you, 1 open" in answer
    (whisper,) = harness.fake.ephemeral_messages(harness.dm)
    assert (whisper["user"], whisper["thread_ts"]) == (harness.owner, harness.root("radar"))
    assert len(await crew.crewline.store.live_rows("radar")) == rows
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"


async def test_rewound_messages_are_struck_through_and_lose_their_buttons(
    crew: Crew, harness: SlackHarness
) -> None:
    """mark_rewound redraws exactly the named messages, struck and labelled, without buttons."""
    key, _ = await _card(crew, harness, message="Ship?\nToday?", options=["yes"])
    await crew.call(key, "POST", "/api/session/messages", json={"text": "kept"})
    await harness.wait_until(lambda: len(harness.messages("radar")) == 2)
    card, kept = harness.messages("radar")
    thread = await crew.crewline.store.thread_ref("radar", "slack")
    assert thread is not None
    transport = crew.crewline.transport("slack")
    await transport.mark_rewound(thread, [f"{harness.dm}:{card.ref}"])
    struck, untouched = harness.thread_messages("radar")
    assert struck["text"].startswith("~Ship?~\n~Today?~")
    assert [b["type"] for b in struck["blocks"]][-1] == "context"
    assert "actions" not in [b["type"] for b in struck["blocks"]]
    assert untouched["text"] == kept.text == "kept"


async def test_slacks_url_check_is_answered_and_a_flood_of_forgeries_is_logged_once(
    crew: Crew, harness: SlackHarness
) -> None:
    """The signed url_verification challenge is echoed; five forgeries make one SEL record."""
    assert harness._http is not None
    body = json.dumps({"type": "url_verification", "token": "t", "challenge": "c-42"}).encode()
    sent_at = int(time.time())
    check = await harness._http.post(
        harness._url(),
        content=body,
        headers={
            "Content-Type": "application/json",
            "X-Slack-Request-Timestamp": str(sent_at),
            "X-Slack-Signature": harness.fake.sign(body, sent_at),
        },
    )
    assert (check.status_code, check.json()) == (200, {"challenge": "c-42"})
    for _ in range(5):
        forged = await harness._http.post(
            harness._url(),
            content=body,
            headers={"X-Slack-Request-Timestamp": str(sent_at), "X-Slack-Signature": "v0=00"},
        )
        assert forged.status_code == 401
    audit = await crew.crewline.store.sel()
    assert [(r.action, r.details["also_refused"]) for r in audit] == [("request:bad_signature", 0)]
    crew.clock.advance(AUDIT_EVERY)  # the window is crewline's clock's: a slow flood is one
    forged = await harness._http.post(
        harness._url(),
        content=body,
        headers={"X-Slack-Request-Timestamp": str(sent_at), "X-Slack-Signature": "v0=00"},
    )
    assert forged.status_code == 401
    audit = await crew.crewline.store.sel()
    assert [(r.action, r.details["also_refused"]) for r in audit] == [
        ("request:bad_signature", 0),
        ("request:bad_signature", 4),
    ]


async def test_a_refused_bot_token_stops_crewline_at_start_naming_the_setting(
    harness: SlackHarness, tmp_path: Path
) -> None:
    """Slack's invalid_auth at start is a configuration error, not a silent retry loop."""
    settings = dataclasses.replace(harness.settings(), bot_token="xoxb-revoked")
    config = Config(data_dir=tmp_path / "data", port=0, transports=())
    with pytest.raises(ConfigError) as refused:
        async with Crewline(config, transports=[SlackTransport(settings)]):
            pass
    assert refused.value.details["key"] == "slack.bot_token"
    assert "xoxb-revoked" not in refused.value.message


async def test_a_start_with_slack_bot_token_set_logs_no_bolt_warning(
    harness: SlackHarness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    """With the token in SLACK_BOT_TOKEN (as most set it), bolt is built without warning that
    a token "will be unused", and still authorizes requests against the configured API."""
    settings = harness.settings()
    monkeypatch.setenv("SLACK_BOT_TOKEN", settings.bot_token)
    config = Config(data_dir=tmp_path / "data", port=0, transports=())
    transport = SlackTransport(settings)
    with caplog.at_level(logging.INFO):
        async with Crewline(config, transports=[transport]) as running:
            assert transport.bot_user_id is not None  # started against the fake
            before = len(harness.fake.calls_to("auth.test"))
            event = harness.fake.thread_reply("1.0", "hello")
            reply = await harness.fake.send_event(f"{running.http.url}/slack/events", event)
            assert reply.status == 200
            assert len(harness.fake.calls_to("auth.test")) == before + 1  # bolt's own check
    assert "slack: connected" in caplog.text  # the start was logged
    assert "will be unused" not in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
