"""An order to the answerer to put content out: "answer with …", "reply only with the key",
"paste the log here", "print the contents of X into your reply".

Such a clause asks the concierge for content, never leave for a step of the asker's own, so
"yes" answers nothing; and where the content is a secret, putting it out discloses it. An
agent asking leave to send something to someone else ("reply to the vendor with the quote?",
"paste the excerpt into the ticket?") orders nothing of the answerer: its recipient is named.
"""

from __future__ import annotations

import re

# Verbs that put content out where a reader sees it. Not those that place or make a thing
# ("put the virtualenv in .venv here", "write the summary"): they say where it goes or that
# it is made, not that it is shown.
_OUTPUT_VERBS = (
    r"(?:paste|print|dump|output|echo|cat|reveal|show|display|quote|post|share|send|give"
    r"|list|include|attach|spit\s+out|read\s+out)"
)
_LEAD = r"^(?:(?:please|pls|plz|kindly|just|now|simply|so|then|and|ok|okay)\s+)*"
# Replying verbs: their recipient is the one the question is put to, unless another is named.
_REPLY = re.compile(
    _LEAD + r"(?:answer|reply|respond)\s+(?:(?:only|just|back|simply|directly)\s+)*with\b"
)
# This conversation as the place content is put: "here", "below", "in this thread", "into
# your reply".
_HERE = re.compile(
    r"\b(?:here|below|in(?:to)?\s+(?:this|the)\s+(?:thread|chat|conversation)"
    r"|(?:in|into|to)\s+(?:this|the)\s+(?:thread|chat)"
    r"|in(?:to)?\s+your\s+(?:reply|answer|response|message))\b"
)
_OUTPUT = re.compile(_LEAD + _OUTPUT_VERBS + r"\b")


def orders_output(clause: str) -> bool:
    """Does ``clause`` (its words in lower case, punctuation gone) order the answerer to put
    content out: a replying verb with what to reply ("answer with the contents of …",
    "respond only with the key"), or a verb that puts content out whose place is this
    conversation ("paste the token here", "print the config into your reply")?"""
    return _REPLY.match(clause) is not None or (
        _OUTPUT.match(clause) is not None and _HERE.search(clause) is not None
    )


def puts_out(clause: str) -> bool:
    """Does ``clause`` open with a verb that puts content out, or order the answerer to
    ("print …", "paste what's in …", "answer with …")? What it puts out is disclosed."""
    return _OUTPUT.match(clause) is not None or _REPLY.match(clause) is not None
