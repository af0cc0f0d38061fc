"""The Slack fake, proven against the real slack-sdk and slack-bolt over loopback sockets."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import pytest
from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from tests.fakes.slack import FakeSlack

T = TypeVar("T")


@pytest.fixture
async def fake() -> AsyncIterator[FakeSlack]:
    async with FakeSlack() as started:
        yield started


def web_client(fake: FakeSlack, *, token: str | None = None) -> AsyncWebClient:
    return AsyncWebClient(base_url=fake.api_url, token=token or fake.bot_token)


def bolt_app(fake: FakeSlack) -> AsyncApp:
    # AsyncApp takes its token from client= and ignores a token= given beside it.
    return AsyncApp(client=web_client(fake), signing_secret=fake.signing_secret)


@asynccontextmanager
async def serve_bolt(app: AsyncApp) -> AsyncIterator[str]:
    """Serve ``app`` over HTTP on a loopback port and yield its events URL."""

    async def dispatch(request: web.Request) -> web.Response:
        return await to_aiohttp_response(await app.async_dispatch(await to_bolt_request(request)))

    server = web.Application()
    server.router.add_post("/slack/events", dispatch)
    runner = web.AppRunner(server, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    await web.SockSite(runner, sock).start()
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/slack/events"
    finally:
        await runner.cleanup()


async def next_heard(heard: asyncio.Queue[T]) -> T:
    """The next item a listener reported, waiting at most five seconds."""
    async with asyncio.timeout(5):
        return await heard.get()


class ManualClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_web_client_posts_in_a_thread_and_updates_the_root(fake: FakeSlack) -> None:
    """A real AsyncWebClient opens the DM, posts a root and a reply, and edits the root."""
    client = web_client(fake)
    opened = await client.conversations_open(users=fake.owner_user_id)
    dm = opened["channel"]["id"]
    assert dm == fake.dm_channel(fake.owner_user_id)
    assert fake.messages(dm) == []

    root = await client.chat_postMessage(
        channel=dm, text="card", username="scout", icon_emoji=":robot_face:"
    )
    reply = await client.chat_postMessage(channel=dm, text="detail", thread_ts=root["ts"])
    await client.chat_update(channel=dm, ts=root["ts"], text="settled", blocks=[])

    assert float(reply["ts"]) > float(root["ts"])
    thread = fake.thread(dm, root["ts"])
    assert [m["text"] for m in thread] == ["settled", "detail"]
    assert thread[0]["username"] == "scout"
    assert thread[0]["reply_count"] == 1
    assert thread[1]["thread_ts"] == root["ts"]
    replies = await client.conversations_replies(channel=dm, ts=root["ts"])
    assert [m["ts"] for m in replies["messages"]] == [root["ts"], reply["ts"]]
    history = await client.conversations_history(channel=dm)
    assert [m["ts"] for m in history["messages"]] == [root["ts"]]
    assert fake.calls_to("chat.postMessage")[1].params["thread_ts"] == root["ts"]


async def test_chat_update_of_an_unknown_ts_is_message_not_found(fake: FakeSlack) -> None:
    """Updating a message that was never posted answers ``message_not_found``."""
    client = web_client(fake)
    dm = fake.dm_channel(fake.owner_user_id)
    posted = await client.chat_postMessage(channel=dm, text="real")
    assert posted["ok"] is True

    with pytest.raises(SlackApiError) as refused:
        await client.chat_update(channel=dm, ts="1.000000", text="ghost")

    assert refused.value.response["error"] == "message_not_found"
    assert fake.messages(dm)[0]["text"] == "real"


async def test_chat_delete_removes_the_bots_own_message_only_once(fake: FakeSlack) -> None:
    """The bot deletes a message it posted; deleting it again is ``message_not_found``."""
    client = web_client(fake)
    dm = fake.dm_channel(fake.owner_user_id)
    kept = await client.chat_postMessage(channel=dm, text="kept")
    gone = await client.chat_postMessage(channel=dm, text="gone")
    await client.chat_delete(channel=dm, ts=gone["ts"])
    with pytest.raises(SlackApiError) as refused:
        await client.chat_delete(channel=dm, ts=gone["ts"])
    assert refused.value.response["error"] == "message_not_found"
    assert [m["ts"] for m in fake.messages(dm)] == [kept["ts"]]


async def test_a_delayed_call_is_overtaken_and_carried_out_when_released(
    fake: FakeSlack,
) -> None:
    """``delay_next`` holds one call before Slack carries it out; later calls overtake it."""
    client = web_client(fake)
    dm = fake.dm_channel(fake.owner_user_id)
    slow = fake.delay_next("chat.postMessage")
    first = asyncio.create_task(client.chat_postMessage(channel=dm, text="slow"))
    async with asyncio.timeout(5):
        await slow.arrived.wait()
    await client.chat_postMessage(channel=dm, text="fast")
    assert [m["text"] for m in fake.messages(dm)] == ["fast"]
    slow.release()
    await first
    assert [m["text"] for m in fake.messages(dm)] == ["fast", "slow"]


async def test_form_encoded_blocks_are_parsed_and_checked(fake: FakeSlack) -> None:
    """Form bodies with ``blocks`` as a JSON string are parsed, and repeated action_ids refused."""
    client = web_client(fake)
    dm = fake.dm_channel(fake.owner_user_id)
    button = {"type": "button", "text": {"type": "plain_text", "text": "Yes"}, "value": "y"}
    good = [{"type": "actions", "elements": [{**button, "action_id": "esc:1"}]}]
    bad = [{"type": "actions", "elements": [{**button, "action_id": "esc"}] * 2}]

    await client.api_call("chat.postMessage", data={"channel": dm, "blocks": json.dumps(good)})
    with pytest.raises(SlackApiError) as refused:
        await client.api_call("chat.postMessage", data={"channel": dm, "blocks": json.dumps(bad)})

    assert fake.calls_to("chat.postMessage")[0].params["blocks"] == good
    assert refused.value.response["error"] == "invalid_blocks"
    assert [m["blocks"] for m in fake.messages(dm)] == [good]


async def test_rate_limited_post_carries_retry_after() -> None:
    """A second post to a channel inside the interval gets 429 with Retry-After rounded up."""
    clock = ManualClock()
    async with FakeSlack(post_interval_per_channel=1.5, clock=clock) as fake:
        client = web_client(fake)
        dm = fake.dm_channel(fake.owner_user_id)
        await client.chat_postMessage(channel=dm, text="first")
        assert fake.rate_limited_count == 0

        clock.now += 0.2
        with pytest.raises(SlackApiError) as limited:
            await client.chat_postMessage(channel=dm, text="too soon")
        clock.now += 1.3
        await client.chat_postMessage(channel=dm, text="later")

    assert limited.value.response.status_code == 429
    assert limited.value.response.headers["Retry-After"] == "2"
    assert limited.value.response["error"] == "ratelimited"
    assert fake.rate_limited_count == 1
    assert [m["text"] for m in fake.messages(dm)] == ["first", "later"]


async def test_fail_next_injects_5xx_and_errors_then_recovers(fake: FakeSlack) -> None:
    """``fail_next`` makes the next calls fail with a 5xx or an ok:false error, then stops."""
    client = web_client(fake)
    dm = fake.dm_channel(fake.owner_user_id)
    fake.fail_next("chat.postMessage", status=503)
    fake.fail_next("chat.postMessage", error="channel_not_found")

    with pytest.raises(SlackApiError) as unavailable:
        await client.chat_postMessage(channel=dm, text="one")
    with pytest.raises(SlackApiError) as not_found:
        await client.chat_postMessage(channel=dm, text="two")
    await client.chat_postMessage(channel=dm, text="three")

    assert unavailable.value.response.status_code == 503
    assert (not_found.value.response.status_code, not_found.value.response["error"]) == (
        200,
        "channel_not_found",
    )
    assert [call.ok for call in fake.calls_to("chat.postMessage")] == [False, False, True]
    assert [m["text"] for m in fake.messages(dm)] == ["three"]


async def test_refuse_fails_the_matching_calls_until_lifted(fake: FakeSlack) -> None:
    """``refuse`` fails every matching call (others pass) until the refusal is lifted."""
    client = web_client(fake)
    dm = fake.dm_channel(fake.owner_user_id)
    lift = fake.refuse("chat.postMessage", where=lambda params: params.get("text") == "no")

    for _ in range(2):
        with pytest.raises(SlackApiError) as refused:
            await client.chat_postMessage(channel=dm, text="no")
        assert refused.value.response.status_code == 500
    await client.chat_postMessage(channel=dm, text="yes")
    lift()
    await client.chat_postMessage(channel=dm, text="no")

    assert [call.ok for call in fake.calls_to("chat.postMessage")] == [False, False, True, True]
    assert [m["text"] for m in fake.messages(dm)] == ["yes", "no"]


async def test_bad_token_and_unknown_method_are_refused(fake: FakeSlack) -> None:
    """A wrong token answers ``invalid_auth`` and an unknown method ``unknown_method``."""
    assert (await web_client(fake).auth_test())["user_id"] == fake.bot_user_id

    with pytest.raises(SlackApiError) as bad_token:
        await web_client(fake, token="xoxb-wrong").auth_test()
    with pytest.raises(SlackApiError) as unknown:
        await web_client(fake).api_call("chat.teleport")

    assert bad_token.value.response["error"] == "invalid_auth"
    assert unknown.value.response["error"] == "unknown_method"


async def test_app_home_pins_permalinks_and_users(fake: FakeSlack) -> None:
    """views.publish, pins.add, chat.getPermalink and users.info answer and are recorded."""
    client = web_client(fake)
    member = fake.add_user("ana", real_name="Ana Lyst")
    dm = fake.dm_channel(member)
    posted = await client.chat_postMessage(channel=member, text="pin me")
    assert posted["channel"] == dm

    await client.views_publish(user_id=member, view={"type": "home", "blocks": []})
    await client.pins_add(channel=dm, timestamp=posted["ts"])
    link = await client.chat_getPermalink(channel=dm, message_ts=posted["ts"])
    info = await client.users_info(user=member)

    assert fake.home_views[member]["type"] == "home"
    assert fake.pinned(dm) == [posted["ts"]]
    assert link["permalink"].startswith(fake.base_url)
    assert info["user"]["real_name"] == "Ana Lyst"


async def test_history_pages_and_ephemerals_respect_membership(fake: FakeSlack) -> None:
    """History pages newest first by cursor; an ephemeral to a non-member is refused."""
    client = web_client(fake)
    dm = fake.dm_channel(fake.owner_user_id)
    outsider = fake.add_user("eve")
    for n in range(3):
        await client.chat_postMessage(channel=dm, text=f"m{n}")

    first = await client.conversations_history(channel=dm, limit=2)
    rest = await client.conversations_history(
        channel=dm, limit=2, cursor=first["response_metadata"]["next_cursor"]
    )
    await client.chat_postEphemeral(channel=dm, user=fake.owner_user_id, text="psst")
    with pytest.raises(SlackApiError) as refused:
        await client.chat_postEphemeral(channel=dm, user=outsider, text="psst")

    assert [m["text"] for m in first["messages"] + rest["messages"]] == ["m2", "m1", "m0"]
    assert (first["has_more"], rest["has_more"]) == (True, False)
    assert refused.value.response["error"] == "user_not_in_channel"
    assert [m["user"] for m in fake.ephemeral_messages(dm)] == [fake.owner_user_id]
    assert [m["text"] for m in fake.messages(dm)] == ["m0", "m1", "m2"]


async def test_replies_are_stamped_by_slacks_clock_and_read_from_oldest(
    fake: FakeSlack,
) -> None:
    """Messages are stamped by the fake's wall clock (seconds.microseconds, unique and
    ordered); ``conversations.replies`` keeps the parent first and the replies from
    ``oldest`` on, the bound itself only with ``inclusive``, paged by cursor."""
    client = web_client(fake)
    dm = fake.dm_channel(fake.owner_user_id)
    fake.wall = lambda: 1_000.0
    root = (await client.chat_postMessage(channel=dm, text="root"))["ts"]
    fake.add_replies(dm, root, 2)
    fake.wall = lambda: 2_000.5
    bound = fake.add_replies(dm, root, 3)
    fake.wall = lambda: 1_500.0  # a clock moved back still stamps after the last message

    later = (await client.chat_postMessage(channel=dm, text="later", thread_ts=root))["ts"]
    first = await client.conversations_replies(
        channel=dm, ts=root, oldest=bound[0], inclusive=True, limit=3
    )
    rest = await client.conversations_replies(
        channel=dm,
        ts=root,
        oldest=bound[0],
        inclusive=True,
        limit=3,
        cursor=first["response_metadata"]["next_cursor"],
    )
    exclusive = await client.conversations_replies(channel=dm, ts=root, oldest=bound[0])

    assert root == "1000.000000"
    assert bound == ["2000.500000", "2000.500001", "2000.500002"]
    assert later == "2000.500003"
    assert [m["ts"] for m in first["messages"] + rest["messages"]] == [root, *bound, later]
    assert (first["has_more"], rest["has_more"]) == (True, False)
    assert [m["ts"] for m in exclusive["messages"]] == [root, *bound[1:], later]


async def test_bolt_http_app_receives_a_signed_thread_reply(fake: FakeSlack) -> None:
    """A real bolt AsyncApp over HTTP gets a signed thread reply and answers in the thread."""
    app = bolt_app(fake)

    @app.event("message")
    async def reply(event: dict[str, Any], say: Any) -> None:
        await say(text=f"got {event['text']}", thread_ts=event["thread_ts"])

    client = web_client(fake)
    dm = fake.dm_channel(fake.owner_user_id)
    root = await client.chat_postMessage(channel=dm, text="card")

    async with serve_bolt(app) as url:
        answer = await fake.send_event(url, fake.thread_reply(root["ts"], "yes"))
        posts = await fake.wait_for_call("chat.postMessage", count=2)

    assert answer.status == 200
    assert posts[1].params["text"] == "got yes"
    # Bolt's per-request client adds the event's team_id to every call it makes.
    assert posts[1].params["team_id"] == fake.team_id
    assert [m["text"] for m in fake.thread(dm, root["ts"])] == ["card", "yes", "got yes"]


async def test_bolt_http_app_rejects_forged_requests_with_401(fake: FakeSlack) -> None:
    """Bolt answers 401 to a bad signature and to a stale timestamp, and runs no listener."""
    app = bolt_app(fake)
    heard: asyncio.Queue[str] = asyncio.Queue()

    @app.event("message")
    async def record(event: dict[str, Any]) -> None:
        heard.put_nowait(event["text"])

    async with serve_bolt(app) as url:
        genuine = await fake.send_event(url, fake.message_event("hi"))
        assert await next_heard(heard) == "hi"
        forged = await fake.send_event(url, fake.message_event("x"), signature="v0=00")
        stale = await fake.send_event(
            url, fake.message_event("y"), timestamp=int(time.time()) - 600
        )

    assert genuine.status == 200
    assert (forged.status, stale.status) == (401, 401)
    assert heard.empty()


async def test_bolt_http_app_gets_retry_headers_and_edits(fake: FakeSlack) -> None:
    """Redeliveries carry X-Slack-Retry-Num, and message_changed/deleted reach their listener."""
    app = bolt_app(fake)
    heard: asyncio.Queue[str | None] = asyncio.Queue()

    @app.event({"type": "message", "subtype": ["message_changed", "message_deleted"]})
    async def edits(event: dict[str, Any]) -> None:
        heard.put_nowait(event["subtype"])

    @app.message(re.compile(".*"))
    async def plain(request: Any) -> None:
        heard.put_nowait(request.headers.get("x-slack-retry-num", [None])[0])

    dm = fake.dm_channel(fake.owner_user_id)
    said = fake.message_event("tpyo")
    async with serve_bolt(app) as url:
        await fake.send_event(url, said, event_id="Ev1")
        first = await next_heard(heard)
        await fake.send_event(url, said, event_id="Ev1", retry_num=1)
        redelivered = await next_heard(heard)
        await fake.send_event(url, fake.message_changed(dm, said["ts"], "typo"))
        changed = await next_heard(heard)
        assert fake.messages(dm)[0]["text"] == "typo"
        await fake.send_event(url, fake.message_deleted(dm, said["ts"]))
        deleted = await next_heard(heard)

    assert (first, redelivered) == (None, "1")
    assert (changed, deleted) == ("message_changed", "message_deleted")
    assert fake.messages(dm) == []


async def test_bolt_http_app_handles_a_block_action_via_response_url(fake: FakeSlack) -> None:
    """A signed block_actions click reaches bolt, whose ephemeral respond() lands in the fake."""
    app = bolt_app(fake)

    @app.action(re.compile(r"esc:\d+"))
    async def click(ack: Any, body: dict[str, Any], respond: Any) -> None:
        await ack()
        action = body["actions"][0]
        await respond(text=f"not yours: {action['value']}", response_type="ephemeral")

    client = web_client(fake)
    dm = fake.dm_channel(fake.owner_user_id)
    button = {"type": "button", "text": {"type": "plain_text", "text": "Go"}, "value": "7:go"}
    blocks = [
        {"type": "actions", "block_id": "card", "elements": [{**button, "action_id": "esc:7"}]}
    ]
    card = await client.chat_postMessage(channel=dm, text="card", blocks=blocks)
    assert fake.response_url_posts == []

    async with serve_bolt(app) as url:
        answer = await fake.send_block_action(
            url,
            user_id=fake.owner_user_id,
            channel=dm,
            message_ts=card["ts"],
            thread_ts=None,
            action_id="esc:7",
            value="7:go",
        )
        posts = await fake.wait_for_response_url_post()

    assert answer.status == 200
    assert posts[0].body["text"] == "not yours: 7:go"
    assert fake.ephemeral_messages(dm)[0]["user"] == fake.owner_user_id


async def test_response_url_replace_original_settles_the_card(fake: FakeSlack) -> None:
    """respond(replace_original=True) through the response_url replaces the clicked card."""
    app = bolt_app(fake)

    @app.action("esc:1")
    async def click(ack: Any, respond: Any) -> None:
        await ack()
        await respond(text="answered", replace_original=True)

    client = web_client(fake)
    dm = fake.dm_channel(fake.owner_user_id)
    button = {"type": "button", "text": {"type": "plain_text", "text": "Ok"}, "value": "1:ok"}
    blocks = [{"type": "actions", "elements": [{**button, "action_id": "esc:1"}]}]
    card = await client.chat_postMessage(channel=dm, text="card", blocks=blocks)
    assert "blocks" in fake.messages(dm)[0]

    async with serve_bolt(app) as url:
        await fake.send_block_action(
            url,
            user_id=fake.owner_user_id,
            channel=dm,
            message_ts=card["ts"],
            thread_ts=None,
            action_id="esc:1",
            value="1:ok",
        )
        await fake.wait_for_response_url_post()

    settled = fake.messages(dm)
    assert [m["text"] for m in settled] == ["answered"]
    assert "blocks" not in settled[0]
    assert fake.ephemeral_messages(dm) == []


async def test_bolt_http_app_answers_a_slash_command(fake: FakeSlack) -> None:
    """A signed slash-command form reaches bolt and its ack text comes back in the reply."""
    app = bolt_app(fake)

    @app.command("/concierge")
    async def concierge(ack: Any, command: dict[str, Any]) -> None:
        await ack(f"doing {command['text']}")

    async with serve_bolt(app) as url:
        answer = await fake.send_slash_command(
            url,
            "/concierge",
            "undo",
            user_id=fake.owner_user_id,
            channel_id=fake.dm_channel(fake.owner_user_id),
        )

    assert answer.status == 200
    assert answer.body == "doing undo"


async def test_socket_mode_handler_acks_events_across_a_refresh(fake: FakeSlack) -> None:
    """A real AsyncSocketModeHandler acks pushed events before and after a disconnect refresh."""
    app = bolt_app(fake)
    heard: asyncio.Queue[tuple[str, str | None]] = asyncio.Queue()

    @app.event("message")
    async def record(event: dict[str, Any], request: Any) -> None:
        heard.put_nowait((event["text"], request.headers.get("x-slack-retry-num", [None])[0]))

    handler = AsyncSocketModeHandler(app, fake.app_token)
    try:
        await handler.connect_async()
        await fake.wait_for_socket()
        first = await fake.push_socket_event(
            "events_api", fake.event_callback(fake.message_event("one"))
        )
        first_ack = await fake.wait_for_ack(first)
        first_heard = await next_heard(heard)

        assert await fake.disconnect_socket() == 1
        await fake.wait_for_socket(connections=2)
        second = await fake.push_socket_event(
            "events_api", fake.event_callback(fake.message_event("two")), retry_attempt=1
        )
        await fake.wait_for_ack(second)
        second_heard = await next_heard(heard)
    finally:
        await handler.close_async()

    assert first_ack.payload is None
    # Socket Mode mirrors retry_attempt into x-slack-retry-num even on a first delivery ("0").
    assert (first_heard, second_heard) == (("one", "0"), ("two", "1"))
    opens = fake.calls_to("apps.connections.open")
    assert [call.token for call in opens] == [fake.app_token, fake.app_token]


async def test_socket_mode_handler_reconnects_after_a_drop(fake: FakeSlack) -> None:
    """After the fake drops the socket unannounced, the handler reconnects and acks again."""
    app = bolt_app(fake)

    @app.action("esc:1")
    async def click(ack: Any) -> None:
        await ack()

    handler = AsyncSocketModeHandler(app, fake.app_token)
    try:
        await handler.connect_async()
        await fake.wait_for_socket()
        assert await fake.drop_socket() == 1
        await fake.wait_for_socket(connections=2)
        click_payload = fake.block_actions_payload(
            user_id=fake.owner_user_id,
            channel=fake.dm_channel(fake.owner_user_id),
            message_ts="1.000001",
            action_id="esc:1",
            value="1:yes",
        )
        envelope_id = await fake.push_socket_event("interactive", click_payload)
        ack = await fake.wait_for_ack(envelope_id)
    finally:
        await handler.close_async()

    assert ack.envelope_id == envelope_id
    assert fake.socket_connection_count == 2
