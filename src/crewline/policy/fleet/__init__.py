"""Fleet facts by meaning: which row another member said answers a request for a value.

A question that asks for a value ("which port did the scan land on?", "how long did the load
test take?", "I need the staging DB hostname") is read into a ``ValueAsk``: the kind of value
wanted (by the asked noun and a small domain thesaurus: port/host/address/endpoint,
version/release/tag, commit/sha/revision, file/path/doc, duration/time/took, count/how many…)
and what it is about (its other words, as roots, so "the migration" matches the migrator's
rows and "the scan" the probe's). A row answers when it is about all of that — its words and
its member's name together — and holds a value of the wanted kind where the row says it
("port 4321, not 8080" gives 4321). Rows that disagree, or no value of the wanted kind, give
no answer, and the reading says what was found. A row that carries instructions to the
concierge is never evidence.

``search_terms`` gives the words the store retrieves candidate rows with (engine-neutral:
plain terms, any of which may match), with the slugs of the members whose role the
request names (``named_members``: "the scan" the probe); ``retraction_terms`` the values by
which a second read finds the rows that take a retrieved value back ("02:00, not 01:30
anymore"), and ``retracts`` which of them do.
"""

from crewline.policy.fleet.asking import (
    NOUN_VERBS,
    ValueAsk,
    loose_ask,
    names_a_number,
    search_terms,
    value_ask,
)
from crewline.policy.fleet.citing import (
    Chooser,
    Cited,
    Refusal,
    check_cited,
    cite,
    dispute,
    injection_in,
)
from crewline.policy.fleet.reading import FleetReading, read_fleet
from crewline.policy.fleet.rivals import retraction_terms, retracts
from crewline.policy.fleet.roles import named_members
from crewline.policy.fleet.rows import Fact

__all__ = [
    "NOUN_VERBS",
    "Chooser",
    "Cited",
    "Fact",
    "FleetReading",
    "Refusal",
    "ValueAsk",
    "check_cited",
    "cite",
    "dispute",
    "injection_in",
    "loose_ask",
    "named_members",
    "names_a_number",
    "read_fleet",
    "retraction_terms",
    "retracts",
    "search_terms",
    "value_ask",
]
