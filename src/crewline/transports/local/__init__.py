"""The local web inbox: crewline's embedded default surface, served at ``/``.

A transport like any platform (it passes the Transport contract suite): a page per
member's thread with cards and real buttons, a composer for replies, commands and edits,
the bell drawer, the roster, live over a WebSocket. It ships as plain HTML, CSS and
JavaScript inside the package: no CDN, no build step.
"""

from crewline.transports.local.transport import DEFAULT_USER, JOURNAL_NAME, LocalTransport, build
from crewline.transports.local.view import InboxView

__all__ = ["DEFAULT_USER", "JOURNAL_NAME", "InboxView", "LocalTransport", "build"]
