"""Which caller kind may use which verb: the one classification table.

Every verb is classified here explicitly; a verb missing from the table is refused for
everyone (``authorize`` never falls back to another verb's row). Letting channel agents
escalate would be a deliberate change to this table, not an accident of a shared name.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from crewline.models import CallerKind

__all__ = ["VERB_GRANTS", "Verb"]


class Verb(StrEnum):
    SESSION_SEND = "session_send"
    SESSION_ESCALATE = "session_escalate"
    SESSION_POST = "session_post"  # a session writes into its own (member's) thread
    ASK_QUESTION = "ask_question"
    READ_EVENTS = "read_events"
    CONFIRM_DEFAULT = "confirm_default"
    RETRACT_ESCALATION = "retract_escalation"  # a session withdraws its own open request
    HUB_SUGGEST = "hub_suggest"  # the concierge's verbs: a session of kind concierge only
    HUB_REPLY = "hub_reply"
    HUB_STOP = "hub_stop"
    HUB_RESPAWN = "hub_respawn"
    HUB_DISPATCH = "hub_dispatch"


_EVERYONE = frozenset(CallerKind)
# Channel agents are denied every path that reaches the human (the bell, a card, a row in a
# member's DM thread): that containment is what a channel agent is.
_NOT_CHANNEL = _EVERYONE - {CallerKind.CHANNEL}
_CONCIERGE = frozenset({CallerKind.CONCIERGE})

VERB_GRANTS: Mapping[Verb, frozenset[CallerKind]] = {
    Verb.SESSION_SEND: _NOT_CHANNEL,
    Verb.SESSION_ESCALATE: _NOT_CHANNEL,
    Verb.SESSION_POST: _EVERYONE,
    Verb.ASK_QUESTION: _NOT_CHANNEL,
    Verb.READ_EVENTS: _EVERYONE,
    Verb.CONFIRM_DEFAULT: _NOT_CHANNEL,
    Verb.RETRACT_ESCALATION: _NOT_CHANNEL,
    Verb.HUB_SUGGEST: _CONCIERGE,
    Verb.HUB_REPLY: _CONCIERGE,
    Verb.HUB_STOP: _CONCIERGE,
    Verb.HUB_RESPAWN: _CONCIERGE,
    Verb.HUB_DISPATCH: _CONCIERGE,
}
