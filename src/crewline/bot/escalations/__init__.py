"""Escalations (SPEC §1, §2): the ``session_escalate`` verb, the per-member index kept from
the transcript, reply matching, and veto windows."""

from crewline.bot.escalations.feature import (
    DELIVERY_WAIT,
    EscalationReceipt,
    Escalations,
    PostedCheck,
)
from crewline.bot.escalations.reconcile import ReconcileReport
from crewline.bot.escalations.records import (
    answer_escalation,
    close_window,
    confirm_default,
    escalation_from_card,
    hold_window,
    reopen,
    retract,
    withdraw,
)
from crewline.bot.escalations.requests import (
    Delivery,
    EscalationRequest,
    Routing,
    ValidEscalation,
    agent_note,
    parse_deadline,
    record_escalation,
    route,
    validate,
)

__all__ = [
    "DELIVERY_WAIT",
    "Delivery",
    "EscalationReceipt",
    "EscalationRequest",
    "Escalations",
    "PostedCheck",
    "ReconcileReport",
    "Routing",
    "ValidEscalation",
    "agent_note",
    "answer_escalation",
    "close_window",
    "confirm_default",
    "escalation_from_card",
    "hold_window",
    "parse_deadline",
    "record_escalation",
    "reopen",
    "retract",
    "route",
    "validate",
    "withdraw",
]
