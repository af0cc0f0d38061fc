"""The concierge (SPEC §4): a suggestion on every card, routine answers under the owner's
policy, undo; the ``hub_*`` verbs of an external concierge; the owner's buttons and
``/concierge``. It reaches the core only through what it registers."""

from crewline.bot.concierge.feature import Concierge, ConciergeSettings, Undone, answer_allowed
from crewline.bot.concierge.human import CONCIERGE_PRESS, USAGE, undo_notice
from crewline.bot.concierge.verbs import ActReceipt, ConciergeVerbs

__all__ = [
    "CONCIERGE_PRESS",
    "USAGE",
    "ActReceipt",
    "Concierge",
    "ConciergeSettings",
    "ConciergeVerbs",
    "Undone",
    "answer_allowed",
    "undo_notice",
]
