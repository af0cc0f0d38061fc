"""The blocking client is the async client's verbs, not a copy of them."""

from __future__ import annotations

import inspect

from crewline.client import Client, SyncClient


def _verbs(cls: type) -> set[str]:
    return {
        name
        for name, member in vars(cls).items()
        if not name.startswith("_") and inspect.iscoroutinefunction(member)
    }


def test_every_async_verb_has_a_blocking_face() -> None:
    """A verb added to Client without its one line in SyncClient fails here."""
    verbs = _verbs(Client) - {"aclose"}
    assert "escalate" in verbs  # the precondition: the verbs were found
    missing = {v for v in verbs if not callable(getattr(SyncClient, v, None))}
    assert missing == set()


def test_a_blocking_verb_keeps_the_async_verbs_signature_and_words() -> None:
    """Each blocking verb takes the same arguments and carries the same docstring."""
    for verb in _verbs(Client) - {"aclose"}:
        blocking, awaited = getattr(SyncClient, verb), getattr(Client, verb)
        assert inspect.signature(blocking) == inspect.signature(awaited), verb
        assert blocking.__doc__ == awaited.__doc__, verb
