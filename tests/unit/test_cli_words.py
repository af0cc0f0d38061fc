"""What the crewline command says to a person, in-process: help in plain text, a roster
with a header, the transports it offers, and what to check when no crewline answers."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import pytest

from crewline import crew
from crewline.app.cli import _parser, main
from crewline.store.sqlite import SqliteStore
from tests.inprocess import logging_kept  # noqa: F401 (an autouse fixture)


def _helps(parser: argparse.ArgumentParser) -> list[str]:
    """The help of ``parser`` and of every command beneath it."""
    helps = [parser.format_help()]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                helps += _helps(sub)
    return helps


def test_every_help_is_plain_text() -> None:
    """crewline --help and every command's help: no reStructuredText markup."""
    helps = _helps(_parser())
    assert len(helps) > 20  # every command was reached
    assert [h.splitlines()[0] for h in helps if "``" in h] == []
    assert "The crewline command: serve, administer" in helps[0]


def test_member_list_has_a_header_and_no_unexplained_dash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The roster under a header; whether a member needs you says yes or no, and a member
    bound to no transport says none. An empty roster prints nothing on stdout and the
    command that adds a member on stderr."""
    assert main(["member", "list", "--data-dir", str(tmp_path)]) == 0
    empty = capsys.readouterr()
    assert empty.out == "" and "crewline member add" in empty.err

    async def enlist() -> None:
        async with SqliteStore.in_directory(tmp_path) as store:
            await crew.add_member(
                store, slug="radar", name="Radar", owners=["local:owner"], transports=["local"]
            )
            await crew.add_member(
                store, slug="scout", name="Scout", owners=["local:owner"], transports=[]
            )

    asyncio.run(enlist())
    assert main(["member", "list", "--data-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "MEMBER  NAME   NEEDS YOU  OPEN  TRANSPORTS",
        "radar   Radar  no         0     local",
        "scout   Scout  no         0     none",
    ]


def test_the_transports_offered_leave_out_the_test_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown transport is refused listing local, slack, telegram and discord: memory,
    the in-process one for tests, is never offered."""
    code = main(
        ["member", "add", "radar", "--name", "Radar", "--owner", "local:owner",
         "--transport", "carrier-pigeon", "--data-dir", str(tmp_path)]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert "(known: local, slack, telegram, discord)" in err and "memory" not in err


def test_an_unreachable_server_is_said_with_what_to_check(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Nothing listening at the URL: one line naming it and asking whether crewline serve
    runs there, where a bare ConnectError said nothing of what to do."""
    nowhere = "http://127.0.0.1:1"
    code = main(["post", "hi", "--key", "crw_s_x", "--url", nowhere])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err == (
        f"crewline: nothing answers at {nowhere} (ConnectError): is `crewline serve` running"
        f" at {nowhere}? (--url or $CREWLINE_URL names another) (unreachable)\n"
    )
