"""The Telegram fake, proven with the real python-telegram-bot over loopback HTTP."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from aiohttp import web
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, ReplyParameters, Update
from telegram.error import (
    BadRequest,
    Conflict,
    EndPointNotFound,
    InvalidToken,
    NetworkError,
    RetryAfter,
)
from telegram.ext import (
    Application,
    ApplicationBuilder,
    BaseHandler,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from tests.bounds import HTTP_TIMEOUT
from tests.fakes.telegram import SECRET_HEADER, FakeTelegram

SHORT_POLL = dtm.timedelta(seconds=1)


def keyboard(*data: str) -> InlineKeyboardMarkup:
    """One row of buttons whose label is their callback_data."""
    return InlineKeyboardMarkup([[InlineKeyboardButton(d, callback_data=d) for d in data]])


def free_port() -> int:
    """A port that was free a moment ago, for PTB's own webhook server."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.asynccontextmanager
async def polling_app(
    fake: FakeTelegram, *handlers: BaseHandler[Update, ContextTypes.DEFAULT_TYPE, object]
) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    """A real PTB Application long-polling the fake; handler errors fail the test."""
    app = ApplicationBuilder().token(fake.token).base_url(fake.base_url).build()
    for handler in handlers:
        app.add_handler(handler)
    errors: list[object] = []

    async def record_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        errors.append(context.error)

    app.add_error_handler(record_error)
    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(timeout=SHORT_POLL)
    try:
        yield app
    finally:
        # Order matters: stop polling first (PTB cancels the open long poll and confirms
        # the fetched updates with one last getUpdates), then the app, then the bot's HTTP.
        await app.updater.stop()
        await app.stop()
        await app.shutdown()
    assert errors == []


async def test_polling_app_receives_text_and_answers_callback() -> None:
    """A real PTB app polling the fake gets a text and a button press, replies and answers."""

    async def on_text(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        assert update.message is not None
        await update.effective_chat.send_message(
            f"echo: {update.message.text}", reply_markup=keyboard("e:1:yes", "e:1:no")
        )

    async def on_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        await query.answer("noted")
        await query.edit_message_text(f"settled: {query.data}")

    async with FakeTelegram() as fake:
        async with polling_app(
            fake, MessageHandler(filters.TEXT, on_text), CallbackQueryHandler(on_button)
        ):
            assert fake.calls_to("getMe"), "initialize() must call getMe"
            text = await fake.send_text(fake.owner, "hello")
            card = await fake.wait_for_message(fake.owner, predicate=lambda m: m.buttons != [])
            assert card.text == "echo: hello"
            assert card.callback_data == ["e:1:yes", "e:1:no"]

            press = await fake.press_button(fake.owner, card.message_id, "e:1:yes")
            await fake.wait_for_call("answerCallbackQuery")
            await fake.wait_for(lambda: card.text == "settled: e:1:yes")
            query = fake.callback_query(press.query_id)
            assert (query.answered, query.answer_text, query.show_alert) == (True, "noted", False)
            assert card.reply_markup is None, "an edit without reply_markup drops the keyboard"
            assert len(card.edits) == 1

        # PTB's final getUpdates on stop confirms everything it fetched.
        assert fake.is_confirmed(text.update_id)
        assert fake.is_confirmed(press.update_id)
        assert fake.pending_updates == []


async def test_command_and_its_edit_both_reach_command_handler() -> None:
    """A /command and its later edit (an edited_message) both fire PTB's CommandHandler."""

    async def on_roster(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        kind = "edit" if update.edited_message else "new"
        await update.effective_chat.send_message(f"{kind}: {' '.join(context.args or [])}")

    async with FakeTelegram() as fake, polling_app(fake, CommandHandler("roster", on_roster)):
        sent = await fake.send_command(fake.owner, "/roster all")
        await fake.wait_for_message(fake.owner, predicate=lambda m: m.text == "new: all")
        await fake.edit_text(fake.owner, sent.message_id, "/roster me")
        await fake.wait_for_message(fake.owner, predicate=lambda m: m.text == "edit: me")


async def test_offset_confirms_and_unconfirmed_updates_are_redelivered() -> None:
    """An update stays queued until getUpdates passes a higher offset, then is gone for good."""
    async with FakeTelegram() as fake, Bot(fake.token, base_url=fake.base_url) as bot:
        first = await fake.send_text(fake.owner, "one")
        assert [u.update_id for u in await bot.get_updates(timeout=0)] == [first.update_id]
        # No offset: nothing was confirmed, so the same update comes again.
        assert [u.update_id for u in await bot.get_updates(timeout=0)] == [first.update_id]

        second = await fake.send_text(fake.owner, "two")
        got = await bot.get_updates(offset=first.update_id + 1, timeout=0)
        assert [u.update_id for u in got] == [second.update_id]
        assert got[0].message is not None
        assert got[0].message.text == "two"
        assert fake.is_confirmed(first.update_id)
        assert not fake.is_confirmed(second.update_id)

        await bot.get_updates(offset=second.update_id + 1, timeout=0)
        await fake.wait_for_confirmed(second.update_id, timeout=1)
        assert await bot.get_updates(offset=second.update_id + 1, timeout=0) == ()


async def test_long_poll_waits_for_an_update_or_its_timeout() -> None:
    """An open long poll answers as soon as an update exists, and with [] when time is up."""
    async with FakeTelegram() as fake, Bot(fake.token, base_url=fake.base_url) as bot:
        loop = asyncio.get_running_loop()
        started = loop.time()
        poll = asyncio.create_task(bot.get_updates(timeout=10))
        await fake.wait_for(lambda: fake.long_poll_open)
        sent = await fake.send_text(fake.owner, "wake up")
        updates = await asyncio.wait_for(poll, timeout=3)
        assert [u.update_id for u in updates] == [sent.update_id]
        assert loop.time() - started < 3

        started = loop.time()
        empty = await bot.get_updates(
            offset=sent.update_id + 1, timeout=dtm.timedelta(milliseconds=300)
        )
        assert empty == ()
        assert loop.time() - started >= 0.3


async def test_a_wait_cancelled_in_the_turn_a_change_wakes_it_is_cancelled() -> None:
    """A wait cancelled just as an update wakes it ends cancelled, not looking again until
    its timeout: the kill test cancels its lanes right after a kill, while crewline's last
    calls are still changing the fake, and a lane that swallowed its cancel waited 60 s."""
    async with FakeTelegram() as fake:
        looks: list[str] = []
        looked = asyncio.Event()

        def never() -> bool:
            assert "cancelled" not in looks, "the wait looked again after its cancel"
            looks.append("look")
            looked.set()
            return False

        waiting = asyncio.create_task(fake.wait_for(never, timeout=60))
        await looked.wait()  # it has looked once and sleeps until a change
        await fake.send_text(fake.owner, "a change")  # wakes every waiter, without yielding
        waiting.cancel()
        looks.append("cancelled")
        with pytest.raises(asyncio.CancelledError):
            await waiting


async def test_second_poller_and_webhook_conflict_with_get_updates() -> None:
    """A newer getUpdates terminates the open one with 409, and a webhook forbids polling."""
    async with (
        FakeTelegram() as fake,
        Bot(fake.token, base_url=fake.base_url) as bot,
        # A second Bot: one Bot's getUpdates connection pool holds a single connection.
        Bot(fake.token, base_url=fake.base_url) as rival,
    ):
        open_poll = asyncio.create_task(bot.get_updates(timeout=10))
        await fake.wait_for(lambda: fake.long_poll_open)
        assert await rival.get_updates(timeout=0) == ()
        with pytest.raises(Conflict, match="terminated by other getUpdates request"):
            await asyncio.wait_for(open_poll, timeout=3)

        assert await bot.set_webhook("http://127.0.0.1:9/hook", secret_token="s3cret")
        with pytest.raises(Conflict, match="webhook is active"):
            await bot.get_updates(timeout=0)
        info = await bot.get_webhook_info()
        assert info.url == "http://127.0.0.1:9/hook"
        assert await bot.delete_webhook()
        assert await bot.get_updates(timeout=0) == ()


async def test_callback_data_over_64_bytes_is_button_data_invalid() -> None:
    """callback_data is limited in UTF-8 bytes, not characters: 33 'é' (66 bytes) fails."""
    async with FakeTelegram() as fake, Bot(fake.token, base_url=fake.base_url) as bot:
        ok = await bot.send_message(fake.owner.id, "fits", reply_markup=keyboard("é" * 32))
        assert fake.message(fake.owner, ok.message_id).callback_data == ["é" * 32]
        with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
            await bot.send_message(fake.owner.id, "too big", reply_markup=keyboard("é" * 33))
        assert [m.text for m in fake.messages(fake.owner)] == ["fits"]


async def test_flood_limit_and_injected_429_raise_retry_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Sending faster than per_chat_interval, or an injected 429, raises PTB's RetryAfter."""
    # RetryAfter.__init__ reads its own retry_after, which warns (PTBDeprecationWarning)
    # unless PTB_TIMEDELTA opts into timedelta values; filterwarnings=error would turn that
    # warning into the exception PTB raises instead of RetryAfter.
    monkeypatch.setenv("PTB_TIMEDELTA", "true")
    now = [1000.0]
    async with (
        FakeTelegram(per_chat_interval=1.0, clock=lambda: now[0]) as fake,
        Bot(fake.token, base_url=fake.base_url) as bot,
    ):
        other = fake.add_user("Ada")
        await bot.send_message(fake.owner.id, "first")
        with pytest.raises(RetryAfter) as flood:
            await bot.send_message(fake.owner.id, "too soon")
        assert flood.value.retry_after == dtm.timedelta(seconds=1)
        assert fake.rate_limited_count == 1
        assert fake.calls_to("sendMessage")[-1].response == {
            "ok": False,
            "error_code": 429,
            "description": "Too Many Requests: retry after 1",
            "parameters": {"retry_after": 1},
        }
        await bot.send_message(other.id, "another chat is not limited")
        now[0] += 1.0
        await bot.send_message(fake.owner.id, "after the interval")

        fake.fail_next("sendMessage", 429, retry_after=7)
        with pytest.raises(RetryAfter) as injected:
            await bot.send_message(other.id, "hit by the injected fault")
        assert injected.value.retry_after == dtm.timedelta(seconds=7)
        texts = [m.text for m in fake.messages(fake.owner)]
        assert texts == ["first", "after the interval"]


async def test_identical_edit_is_message_not_modified() -> None:
    """Editing to the same text and keyboard is refused with "message is not modified"."""
    async with FakeTelegram() as fake, Bot(fake.token, base_url=fake.base_url) as bot:
        sent = await bot.send_message(fake.owner.id, "card", reply_markup=keyboard("a"))
        with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
            await bot.edit_message_text(
                "card", fake.owner.id, sent.message_id, reply_markup=keyboard("a")
            )
        await bot.edit_message_text("card", fake.owner.id, sent.message_id)  # drops keyboard
        with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
            await bot.edit_message_reply_markup(fake.owner.id, sent.message_id)
        with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
            await bot.edit_message_text("x", fake.owner.id, 999)
        stored = fake.message(fake.owner, sent.message_id)
        assert (stored.text, stored.reply_markup, len(stored.edits)) == ("card", None, 1)


async def test_closed_topic_is_message_thread_not_found() -> None:
    """After a topic is closed, sending to it fails with "message thread not found"."""
    async with (
        FakeTelegram(has_topics_enabled=True) as fake,
        Bot(fake.token, base_url=fake.base_url) as bot,
    ):
        assert (await bot.get_me()).has_topics_enabled is True
        topic = await bot.create_forum_topic(fake.owner.id, "Ada")
        thread = topic.message_thread_id
        sent = await bot.send_message(fake.owner.id, "in topic", message_thread_id=thread)
        assert sent.message_thread_id == thread
        assert sent.is_topic_message
        assert fake.messages(fake.owner, message_thread_id=thread)[0].text == "in topic"

        fake.close_topic(fake.owner, thread)
        with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
            await bot.send_message(fake.owner.id, "lost", message_thread_id=thread)
        with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
            await bot.send_message(fake.owner.id, "never existed", message_thread_id=424242)


async def test_forum_topics_need_a_forum_or_threaded_private_chat() -> None:
    """createForumTopic works in a forum supergroup and fails in a plain private chat."""
    async with (
        FakeTelegram(forum=True) as fake,
        Bot(fake.token, base_url=fake.base_url) as bot,
    ):
        assert fake.forum is not None
        topic = await bot.create_forum_topic(fake.forum.id, "Grace")
        human = await fake.send_text(
            fake.forum, "hi from the topic", message_thread_id=topic.message_thread_id
        )
        reply = await bot.send_message(
            fake.forum.id,
            "hello Grace",
            message_thread_id=topic.message_thread_id,
            reply_parameters=ReplyParameters(human.message_id),
        )
        assert reply.reply_to_message is not None
        assert reply.reply_to_message.text == "hi from the topic"
        assert await bot.delete_forum_topic(fake.forum.id, topic.message_thread_id)
        with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
            await bot.send_message(fake.forum.id, "gone", message_thread_id=topic.message_thread_id)
        with pytest.raises(BadRequest, match=r"(?i)the chat is not a forum"):
            await bot.create_forum_topic(fake.owner.id, "no topics here")


async def test_callback_query_can_be_answered_only_once() -> None:
    """A second answer to a callback query, or an unknown id, is "query is too old"."""
    async with FakeTelegram() as fake, Bot(fake.token, base_url=fake.base_url) as bot:
        card = await bot.send_message(fake.owner.id, "pick", reply_markup=keyboard("p:1"))
        press = await fake.press_button(fake.owner, card.message_id, "p:1")
        assert await bot.answer_callback_query(press.query_id, "not yours", show_alert=True)
        state = fake.callback_query(press.query_id)
        assert (state.answer_text, state.show_alert) == ("not yours", True)
        with pytest.raises(BadRequest, match=r"(?i)query is too old"):
            await bot.answer_callback_query(press.query_id)
        with pytest.raises(BadRequest, match=r"(?i)query is too old"):
            await bot.answer_callback_query("123")
        with pytest.raises(ValueError, match="no button"):
            await fake.press_button(fake.owner, card.message_id, "forged")


async def test_webhook_push_reaches_ptb_and_wrong_secret_is_refused() -> None:
    """Pushes with the registered secret reach PTB's webhook; wrong or missing ones get 403."""

    async def on_text(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        assert update.message is not None
        await update.effective_chat.send_message(f"got: {update.message.text}")

    port = free_port()
    async with FakeTelegram() as fake:
        app = ApplicationBuilder().token(fake.token).base_url(fake.base_url).build()
        app.add_handler(MessageHandler(filters.TEXT, on_text))
        await app.initialize()
        await app.start()
        assert app.updater is not None
        try:
            await app.updater.start_webhook(
                listen="127.0.0.1",
                port=port,
                url_path="tg",
                webhook_url=f"http://127.0.0.1:{port}/tg",
                secret_token="s3cret",
            )
            assert fake.webhook_url == f"http://127.0.0.1:{port}/tg"
            assert fake.webhook_secret == "s3cret"

            wrong = await fake.send_text(fake.owner, "forged", secret="wrong")
            missing = await fake.send_text(fake.owner, "unsigned", secret=None)
            assert (wrong.status, missing.status) == (403, 403)
            assert not fake.is_confirmed(wrong.update_id)

            good = await fake.send_text(fake.owner, "hello")
            assert good.status == 200
            assert fake.is_confirmed(good.update_id)
            await fake.wait_for_message(fake.owner, predicate=lambda m: m.text == "got: hello")

            # PTB does not dedupe: a redelivered update_id runs the handler again.
            again = await fake.redeliver(good.update_id)
            assert again.status == 200
            await fake.wait_for(lambda: len(fake.messages(fake.owner)) == 2)
            assert [m.text for m in fake.messages(fake.owner)] == ["got: hello"] * 2
        finally:
            await app.updater.stop()
            await app.stop()
            await app.shutdown()


async def test_webhook_push_carries_secret_header() -> None:
    """A plain receiver sees JSON updates with the secret header, or none when omitted."""
    seen: list[tuple[str | None, dict[str, object]]] = []

    async def receive(request: web.Request) -> web.Response:
        seen.append((request.headers.get(SECRET_HEADER), await request.json()))
        return web.Response(status=200)

    receiver = web.Application()
    receiver.router.add_post("/hook", receive)
    runner = web.AppRunner(receiver)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        async with FakeTelegram() as fake, Bot(fake.token, base_url=fake.base_url) as bot:
            await bot.set_webhook(f"http://127.0.0.1:{port}/hook", secret_token="abc_DEF-1")
            signed = await fake.send_text(fake.owner, "signed")
            unsigned = await fake.send_text(fake.owner, "unsigned", secret=None)
            assert (signed.status, unsigned.status) == (200, 200)
            assert seen[0] == ("abc_DEF-1", signed.update)
            assert seen[1] == (None, unsigned.update)
    finally:
        await runner.cleanup()


async def test_wire_encodings_and_error_envelopes() -> None:
    """JSON, urlencoded, multipart and query parameters decode alike; errors use the envelope."""
    async with (
        FakeTelegram() as fake,
        httpx.AsyncClient(base_url=fake.api_url, timeout=HTTP_TIMEOUT) as http,
    ):
        markup = json.dumps({"inline_keyboard": [[{"text": "A", "callback_data": "a"}]]})
        chat = str(fake.owner.id)
        resp = await http.post(
            "sendMessage", json={"chat_id": chat, "text": "j", "reply_markup": markup}
        )
        assert resp.json()["result"]["reply_markup"]["inline_keyboard"][0][0]["text"] == "A"
        await http.post("sendMessage", data={"chat_id": chat, "text": "f", "reply_markup": markup})
        await http.post(
            "sendMessage", data={"chat_id": chat, "text": "m"}, files={"unused": ("a.txt", b"x")}
        )
        await http.get("sendmessage", params={"chat_id": chat, "text": "q"})
        calls = fake.calls_to("sendMessage")
        assert [c.params["text"] for c in calls] == ["j", "f", "m", "q"]
        assert [c.content_type for c in calls[:3]] == [
            "application/json",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        ]
        assert calls[1].params["chat_id"] == fake.owner.id
        assert calls[1].params["reply_markup"] == json.loads(markup)
        assert [m.message_id for m in fake.messages(fake.owner)] == [1, 2, 3, 4]

        unknown = await http.post("noSuchMethod")
        assert (unknown.status_code, unknown.json()) == (
            404,
            {"ok": False, "error_code": 404, "description": "Not Found"},
        )
        long = await http.post("sendMessage", json={"chat_id": chat, "text": "x" * 4097})
        assert long.json()["description"] == "Bad Request: message is too long"


async def test_wrong_token_unknown_method_and_injected_fault_raise_ptb_errors() -> None:
    """PTB maps 401 to InvalidToken, 404 to EndPointNotFound and 500 to NetworkError."""
    async with FakeTelegram() as fake:
        wrong = Bot("987:wrong", base_url=fake.base_url)
        with pytest.raises(InvalidToken, match="rejected by the server"):
            await wrong.initialize()  # initialize() checks the token with getMe
        await wrong.shutdown()
        assert fake.calls_to("getMe")[-1].response == {
            "ok": False,
            "error_code": 401,
            "description": "Unauthorized",
        }
        async with Bot(fake.token, base_url=fake.base_url) as bot:
            with pytest.raises(EndPointNotFound):
                await bot.do_api_request("noSuchMethod")
            fake.fail_next("sendMessage", 500, times=2)
            for _ in range(2):
                with pytest.raises(NetworkError, match="Internal Server Error"):
                    await bot.send_message(fake.owner.id, "fails")
            await bot.send_message(fake.owner.id, "works again")
            assert [c.status for c in fake.calls_to("sendMessage")] == [500, 500, 200]


async def test_a_refused_call_fails_until_lifted() -> None:
    """``refuse`` fails the matching calls (recorded, not carried out) until it is lifted;
    other calls go through meanwhile."""
    async with FakeTelegram() as fake, Bot(fake.token, base_url=fake.base_url) as bot:
        forum = fake.add_group("Crew")
        lift = fake.refuse("createForumTopic", where=lambda p: p.get("name") == "Radar")
        for _ in range(2):
            with pytest.raises(NetworkError, match="Internal Server Error"):
                await bot.create_forum_topic(forum.id, "Radar")
        await bot.create_forum_topic(forum.id, "Probe")
        assert [t.name for t in forum.topics.values()] == ["Probe"]
        lift()
        await bot.create_forum_topic(forum.id, "Radar")
        assert [t.name for t in forum.topics.values()] == ["Probe", "Radar"]
        assert [c.status for c in fake.calls_to("createForumTopic")] == [500, 500, 200, 200]


async def test_commands_pin_and_delete() -> None:
    """Commands are stored per scope, bad names refused; pins and deletes update the store."""
    async with FakeTelegram() as fake, Bot(fake.token, base_url=fake.base_url) as bot:
        assert await bot.set_my_commands([("roster", "Show the crew"), ("concierge", "Ask")])
        assert [c.command for c in await bot.get_my_commands()] == ["roster", "concierge"]
        assert fake.commands()[0] == {"command": "roster", "description": "Show the crew"}
        with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_INVALID"):
            await bot.set_my_commands([("Roster-Now", "bad name")])

        sent = await bot.send_message(fake.owner.id, "pin me")
        assert await bot.pin_chat_message(fake.owner.id, sent.message_id)
        assert fake.message(fake.owner, sent.message_id).pinned
        assert await bot.delete_message(fake.owner.id, sent.message_id)
        assert fake.messages(fake.owner) == []
        with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
            await bot.delete_message(fake.owner.id, sent.message_id)
