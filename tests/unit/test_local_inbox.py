"""The local inbox without a browser: its pure parts, its journal, and its HTTP guards."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.responses import PlainTextResponse
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from crewline import crew
from crewline.app.server import Crewline
from crewline.bot import CoreRenderer
from crewline.config import Config
from crewline.errors import ConfigError, PermanentTransportError, TransientTransportError
from crewline.models import (
    Bell,
    Button,
    Member,
    OutboundMessage,
    Receipt,
    RecentAnswer,
    RosterEntry,
)
from crewline.transports import OutboxDispatcher
from crewline.transports.local import JOURNAL_NAME, LocalTransport, build
from crewline.transports.local.render import (
    ComposerCommand,
    ComposerText,
    markdown_html,
    parse_composer,
    state_json,
    thread_json,
)
from crewline.transports.local.security import (
    LoginToken,
    Sessions,
    is_loopback_address,
    is_loopback_name,
    same_origin,
)
from crewline.transports.memory import MemoryTransport
from tests.bounds import HTTP_TIMEOUT, WAIT

RADAR = Member(slug="radar", name="Radar", owner=1, transports=("local",))
CARD = OutboundMessage(
    author="Radar",
    text="Ship?",
    kind="card",
    buttons=(Button(label="yes", payload="e:0123456789abcdef:0"),),
)


async def _accept(event: Any) -> Receipt:
    return Receipt(accepted=True)


# --- pure functions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"),
        ('<img src=x onerror="steal()">', "<p>&lt;img src=x onerror=&quot;steal()&quot;&gt;</p>"),
        ("[click](javascript:alert(1))", "<p>[click](javascript:alert(1))</p>"),
        (
            "**bold** and *it* and `<b>`",
            "<p><strong>bold</strong> and <em>it</em> and <code>&lt;b&gt;</code></p>",
        ),
        ("one\ntwo\n\nthree", "<p>one<br>two</p><p>three</p>"),
    ],
)
def test_markdown_is_escaped_before_it_is_formatted(text: str, expected: str) -> None:
    """No tag or attribute an agent writes reaches the page; the markdown it means does."""
    assert markdown_html(text) == expected


def test_only_http_links_become_links() -> None:
    """A link renders as an anchor only for http(s) targets, opened without a referrer."""
    rendered = markdown_html("see [the report](https://example.org/r?a=1&b=2)")
    assert rendered == (
        '<p>see <a href="https://example.org/r?a=1&amp;b=2" '
        'rel="noopener noreferrer" target="_blank">the report</a></p>'
    )


@pytest.mark.parametrize(
    ("typed", "parsed"),
    [
        ("/roster", ComposerCommand(name="roster", args=())),
        ("/help ", ComposerCommand(name="help", args=())),
        (
            "/concierge answer routine",
            ComposerCommand(name="concierge", args=("answer", "routine")),
        ),
        ("//etc/hosts is the file", ComposerText(text="/etc/hosts is the file")),
        ("yes, /roster later", ComposerText(text="yes, /roster later")),
        ("/ not a command", ComposerText(text="/ not a command")),
    ],
)
def test_the_composer_tells_commands_from_replies(typed: str, parsed: object) -> None:
    """A leading /word is a command; // escapes it; anything else is a reply."""
    assert parse_composer(typed) == parsed


def test_loopback_is_judged_by_address_and_by_host_header() -> None:
    """Only loopback binds skip the login; only loopback Host names pass the rebinding check."""
    assert [
        is_loopback_address(h)
        for h in ("127.0.0.1", "::1", "localhost", "0.0.0.0", "192.168.1.5", "example.org")
    ] == [True, True, True, False, False, False]
    assert [
        is_loopback_name(h)
        for h in (
            "127.0.0.1:8765",
            "[::1]:8765",
            "localhost:1",
            "evil.example:8765",
            "127.0.0.1.nip.io",
        )
    ] == [True, True, True, False, False]


def test_cross_site_requests_are_recognised() -> None:
    """A foreign Origin or a cross-site fetch is refused; same-origin and non-browsers pass."""
    host = {"host": "127.0.0.1:8765"}
    assert same_origin({**host, "origin": "http://127.0.0.1:8765"})
    assert same_origin(host)
    assert not same_origin({**host, "origin": "http://evil.example"})
    assert not same_origin({**host, "origin": "http://127.0.0.1:9999"})
    assert not same_origin({**host, "sec-fetch-site": "cross-site"})


def test_sessions_are_signed_so_none_is_ever_pushed_out() -> None:
    """A session's CSRF token matches only its own session; a thousand newer sessions leave
    the first one valid (nothing is stored to evict); an id this process did not sign is
    refused, as is one signed by another run; the login token is kept hashed."""
    sessions = Sessions()
    first, csrf = sessions.open()
    assert sessions.check(first, csrf)
    assert not sessions.check(first, "forged")
    assert not sessions.check("unknown", csrf)
    for _ in range(1000):
        sessions.open()
    assert sessions.csrf(first) == csrf
    nonce = first.partition(".")[0]
    assert sessions.csrf(f"{nonce}.{'0' * 64}") is None
    assert Sessions().csrf(first) is None  # a restart's new secret
    token = LoginToken("crw_l_secret")
    assert token.matches("crw_l_secret") and not token.matches("crw_l_other")
    assert "crw_l_secret" not in repr(vars(token) if hasattr(token, "__dict__") else token)


# --- the transport and its journal ---------------------------------------------------------------


async def test_post_is_idempotent_and_update_not_modified_is_a_no_op(tmp_path: Path) -> None:
    """One key is one message; redrawing the same content adds no version."""
    inbox = LocalTransport(view_path=tmp_path / JOURNAL_NAME)
    await inbox.start(_accept)
    thread = await inbox.open_thread(RADAR)
    ref = await inbox.post(thread, CARD, key="row:1", retry=False)
    assert await inbox.post(thread, CARD, key="row:1", retry=True) == ref
    await inbox.update(thread, ref, CARD)
    assert len(inbox.view.messages[ref].versions) == 1
    with pytest.raises(PermanentTransportError):
        await inbox.update(thread, "m999", CARD)
    await inbox.stop()
    with pytest.raises(TransientTransportError):
        await inbox.post(thread, CARD, key="row:2", retry=False)


async def test_the_view_survives_a_restart_from_its_journal(tmp_path: Path) -> None:
    """A new transport over the same journal shows the same threads, versions, bells, roster,
    and never reuses a message ref."""
    first = LocalTransport(view_path=tmp_path / JOURNAL_NAME)
    await first.start(_accept)
    thread = await first.open_thread(RADAR)
    ref = await first.post(thread, CARD, key="row:1", retry=False)
    settled = OutboundMessage(
        author="Radar", text="Ship?\n\nAnswered: yes", kind="card", settled=True
    )
    await first.update(thread, ref, settled)
    await first.ring(
        Bell(group_key="escalation:radar:", member="radar", title="t", body="b1", count=1),
        message_ref=None,
    )
    await first.show_roster(
        [RosterEntry(slug="radar", name="Radar", needs_you=False, pending_escalations=0)]
    )
    _, typed = await first.send_text(thread=thread, text="hello", event_id="client-event-1")
    await first.stop()
    with (tmp_path / JOURNAL_NAME).open("a") as journal:
        journal.write('{"op": "post", "ref": "m')  # a torn last line, as after a crash

    second = LocalTransport(view_path=tmp_path / JOURNAL_NAME)
    await second.start(_accept)
    shown = thread_json(second.view, thread)["messages"]
    assert [(m["ref"], m["text"], m["versions"]) for m in shown] == [
        (ref, "Ship?\n\nAnswered: yes", 2),
        (typed, "hello", 1),
    ]
    assert second.view.bells["escalation:radar:"].current.body == "b1"
    assert [e.slug for e in second.view.roster] == ["radar"]
    again = await second.post(thread, CARD, key="row:2", retry=False)
    assert again not in (ref, typed)
    await second.stop()


async def test_times_and_question_counts_survive_a_restart_from_the_journal(
    tmp_path: Path,
) -> None:
    """A card's times and a roster's waiting questions are journalled with the rest."""
    moment = datetime(2026, 9, 6, 2, 0, tzinfo=UTC)
    timed = replace(CARD, text="Reply by Sep 6, 02:00 UTC.", deadline=moment, times=(moment,))
    quill = RosterEntry(
        slug="quill",
        name="Quill",
        needs_you=True,
        pending_escalations=0,
        waiting_questions=2,
        concierge_answer=RecentAnswer(text="yes", at=moment),
    )
    first = LocalTransport(view_path=tmp_path / JOURNAL_NAME)
    await first.start(_accept)
    thread = await first.open_thread(RADAR)
    ref = await first.post(thread, timed, key="row:1", retry=False)
    await first.show_roster([quill])
    await first.stop()
    second = LocalTransport(view_path=tmp_path / JOURNAL_NAME)
    await second.start(_accept)
    assert second.view.messages[ref].current == timed
    assert second.view.roster == [quill]
    assert state_json(second.view, user="owner")["members"][0]["open"] == 2
    await second.stop()


def test_the_inbox_roster_is_not_paced_like_a_platforms() -> None:
    """The inbox is a push to the page: its roster redraws at once, a platform's once a
    second at most."""
    store: Any = None
    local = OutboxDispatcher(store, LocalTransport(), CoreRenderer(store))
    paced = OutboxDispatcher(store, MemoryTransport("memory"), CoreRenderer(store))
    assert LocalTransport.limits.roster_interval == 0.0
    assert local._interval("roster") == 0.0
    assert paced._interval("roster") == 1.0
    assert local._interval("radar") == paced._interval("radar") == 0.0


async def test_a_login_token_is_printed_once_and_kept_hashed_off_loopback() -> None:
    """Bound to 0.0.0.0 the inbox makes a token, prints it at start, keeps only its hash."""
    printed: list[str] = []
    inbox = LocalTransport(host="0.0.0.0", announce=printed.append)
    assert inbox.requires_login
    await inbox.start(_accept)
    assert len(printed) == 1
    token = printed[0].rsplit(" ", 1)[-1]
    assert token.startswith("crw_l_") and inbox.check_login(token)
    assert token not in repr(vars(inbox)) and not inbox.check_login("crw_l_guess")
    await inbox.stop()
    quiet: list[str] = []
    await LocalTransport(host="127.0.0.1", announce=quiet.append).start(_accept)
    assert quiet == []


def test_build_reads_its_section_and_names_a_bad_key(tmp_path: Path) -> None:
    """``[local]`` takes ``user``; anything else is refused by name."""
    built = build(Config(data_dir=tmp_path, sections={"local": {"user": "alice"}}))
    assert (built.name, built.user, built.requires_login) == ("local", "alice", False)
    with pytest.raises(ConfigError) as bad:
        build(Config(data_dir=tmp_path, sections={"local": {"usr": "alice"}}))
    assert bad.value.details["key"] == "local.usr"
    with pytest.raises(ConfigError):
        build(Config(data_dir=tmp_path, sections={"local": {"user": "a b"}}))
    assert build(Config(data_dir=tmp_path, host="0.0.0.0")).requires_login


# --- the HTTP guards, on a running crewline -------------------------------------------------------


@pytest.fixture
async def served(config: Config) -> AsyncIterator[Crewline]:
    inbox = LocalTransport(view_path=config.data_dir / JOURNAL_NAME)
    async with Crewline(config, transports=[inbox], outbox_poll_interval=0.2) as running:
        await crew.add_member(
            running.store, slug="radar", name="Radar", owners=["local:owner"], transports=["local"]
        )
        yield running


@asynccontextmanager
async def _page(url: str) -> AsyncIterator[tuple[httpx.AsyncClient, str]]:
    """A client holding the page's session cookie, and the session's CSRF token."""
    async with httpx.AsyncClient(base_url=url, timeout=HTTP_TIMEOUT) as client:
        opened = await client.get("/")
        assert opened.status_code == 200
        yield client, (await client.get("/inbox/state")).json()["csrf"]


async def test_the_page_sets_a_strict_http_only_session_cookie_and_a_csp(served: Crewline) -> None:
    """The page comes with a SameSite=Strict, HttpOnly cookie and a CSP without inline code."""
    async with httpx.AsyncClient(base_url=served.url, timeout=HTTP_TIMEOUT) as client:
        page = await client.get("/")
    cookie = page.headers["set-cookie"]
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]


@pytest.mark.parametrize(
    ("headers", "body", "status", "code"),
    [
        ({}, {"thread": "radar", "text": "hi"}, 403, "bad_csrf"),
        ({"origin": "http://evil.example"}, {"thread": "radar", "text": "hi"}, 403, "cross_origin"),
        ({"sec-fetch-site": "cross-site"}, {"thread": "radar", "text": "hi"}, 403, "cross_origin"),
        ({}, {"thread": "radar", "text": "hi", "extra": 1}, 400, "unknown_field"),
        ({}, {"thread": "radar", "text": 7}, 400, "invalid_type"),
    ],
)
async def test_state_changing_requests_are_guarded(
    served: Crewline, headers: dict[str, str], body: dict[str, Any], status: int, code: str
) -> None:
    """Without the page's CSRF token, from another origin, or malformed: refused, nothing sent."""
    async with _page(served.url) as (client, csrf):
        sent = {"x-crewline-csrf": csrf, **headers} if code != "bad_csrf" else headers
        response = await client.post("/inbox/send", json=body, headers=sent)
    assert (response.status_code, response.json()["error"]["code"]) == (status, code)
    inbox = served.transport("local")
    assert isinstance(inbox, LocalTransport) and inbox.view.messages == {}


async def test_a_form_post_and_a_request_without_a_session_are_refused(served: Crewline) -> None:
    """A cross-site form cannot send JSON, and no session means no action."""
    async with _page(served.url) as (client, csrf):
        form = await client.post(
            "/inbox/click", data={"payload": "x"}, headers={"x-crewline-csrf": csrf}
        )
        assert form.status_code == 415
    async with httpx.AsyncClient(base_url=served.url, timeout=HTTP_TIMEOUT) as stranger:
        assert (await stranger.get("/inbox/state")).status_code == 401
        assert (await stranger.post("/inbox/click", json={"payload": "x"})).status_code == 401


async def test_a_strangers_page_cannot_log_the_owner_out(served: Crewline) -> None:
    """The attack replayed: a page the owner visits loads the inbox 260 times as an image
    (cross-site, no cookie), then 260 times more with no word of where it comes from. The
    first get no session; the others get one each, stored nowhere; the owner's, opened
    before, still reads and sends (when the newest 256 sessions were kept, the owner's was
    evicted: 401 login_required)."""
    async with _page(served.url) as (owner, csrf):
        async with httpx.AsyncClient(base_url=served.url, timeout=HTTP_TIMEOUT) as stranger:
            image = {"sec-fetch-site": "cross-site", "sec-fetch-dest": "image"}
            loads = []
            for _ in range(260):
                stranger.cookies.clear()  # a SameSite=Strict cookie is not sent cross-site
                loads.append(await stranger.get("/", headers=image))
            for _ in range(260):  # and from a browser that says nothing of where it is
                stranger.cookies.clear()
                opened = await stranger.get("/")
                assert "set-cookie" in opened.headers  # each opens a session: none is kept
        state = await owner.get("/inbox/state")
        assert (state.status_code, state.json().get("csrf")) == (200, csrf), state.text
        sent = await owner.post(
            "/inbox/send",
            json={"thread": "radar", "text": "still here"},
            headers={"x-crewline-csrf": csrf},
        )
    assert sent.status_code == 200, sent.text
    assert {page.status_code for page in loads} == {200}
    assert [page for page in loads if "set-cookie" in page.headers] == []


async def test_a_rebound_host_name_is_refused_on_loopback(served: Crewline) -> None:
    """A page whose own DNS name points at 127.0.0.1 gets nothing (DNS rebinding)."""
    async with httpx.AsyncClient(base_url=served.url, timeout=HTTP_TIMEOUT) as client:
        response = await client.get("/", headers={"host": "evil.example"})
    assert (response.status_code, response.json()["error"]["code"]) == (403, "bad_host")


async def test_the_live_channel_refuses_another_origin(served: Crewline) -> None:
    """The WebSocket handshake from another site's page is refused (no hijacking)."""
    async with _page(served.url) as (client, _):
        cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    live = "ws" + served.url.removeprefix("http") + "/inbox/live"
    with pytest.raises(InvalidStatus):
        async with connect(
            live, origin="http://evil.example", additional_headers={"Cookie": cookie}
        ):
            pass
    async with connect(live, origin=served.url, additional_headers={"Cookie": cookie}) as ok:
        assert "version" in await ok.recv()


async def test_the_agents_api_keeps_its_routes_and_error_shape_beside_the_inbox(
    served: Crewline,
) -> None:
    """Mounted at /, the inbox leaves /api, /healthz and /openapi.json to the API, and what
    neither serves answers in the API's own error shape."""
    async with httpx.AsyncClient(base_url=served.url, timeout=HTTP_TIMEOUT) as client:
        assert (await client.get("/healthz")).json() == {"status": "ok"}
        schema = (await client.get("/openapi.json")).json()
        assert not any(path.startswith("/inbox") for path in schema["paths"])
        wrong_method = await client.get("/api/session-control/escalate")
        unknown = await client.get("/api/nothing-here")
    assert (wrong_method.status_code, wrong_method.json()["error"]["code"]) == (
        405,
        "method_not_allowed",
    )
    assert (unknown.status_code, unknown.json()["error"]["code"]) == (404, "not_found")


async def test_a_webhook_mounted_beside_the_inbox_still_gets_its_requests(config: Config) -> None:
    """Whatever the order of the transports, the inbox's "/" comes after a webhook's path."""

    class Hooked(MemoryTransport):
        def http_mount(self) -> tuple[str, Any]:
            return "/hook", PlainTextResponse("the webhook")

    transports = [LocalTransport(view_path=config.data_dir / JOURNAL_NAME), Hooked("hooked")]
    async with (
        Crewline(config, transports=transports) as running,
        httpx.AsyncClient(base_url=running.url, timeout=HTTP_TIMEOUT) as client,
    ):
        assert (await client.post("/hook/events")).text == "the webhook"
        assert (await client.get("/")).status_code == 200


async def test_the_inbox_lists_the_crew_its_user_owns_as_the_api_does(config: Config) -> None:
    """A member bound to the inbox but owned by a Slack user is not the inbox user's: the
    page's roster leaves it out, as GET /api/members does for the inbox user's token."""
    inbox = LocalTransport(view_path=config.data_dir / JOURNAL_NAME)
    async with Crewline(config, transports=[inbox], outbox_poll_interval=0.2) as running:
        for slug, owner in (("radar", "local:owner"), ("scout", "slack:U012ABCDEF")):
            await crew.add_member(
                running.store, slug=slug, name=slug.title(), owners=[owner], transports=["local"]
            )
        token = await crew.issue_owner_token(running.store, owner="local:owner")
        async with httpx.AsyncClient(base_url=running.url, timeout=HTTP_TIMEOUT) as client:
            listed = await client.get("/api/members", headers={"Authorization": f"Bearer {token}"})
        assert [m["slug"] for m in listed.json()["members"]] == ["radar"]
        await running.outboxes["local"].wait_idle(timeout=WAIT)
        assert len(await running.store.members()) == 2, "precondition: scout is a member"
        page = state_json(inbox.view, user=inbox.user)
        assert [m["slug"] for m in page["members"]] == ["radar"]
