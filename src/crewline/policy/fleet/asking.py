"""What the question asks: the ``ValueAsk`` a request for a value is read into (the kinds
wanted, the asked noun, what it is about), the looser one a model's citation is checked
against (``loose_ask``), and the words the store retrieves candidate rows with
(``search_terms``)."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from crewline.policy.careful.words import ACTS_BY_FIRST, AUXILIARIES, FRONTING, IRREGULAR_PAST
from crewline.policy.clauses import Sentence, Shape, Word, shape_of
from crewline.policy.fleet.thesaurus import GROUP_WORDS, group_of
from crewline.policy.lemmas import Token, known, lemma, root, stem, tokens
from crewline.policy.values import Kind, Value, unit_of, units_named, values_in
from crewline.policy.wording import word_set


@dataclass(frozen=True, kw_only=True, slots=True)
class ValueAsk:
    """A request for a value: the kinds wanted (best first), the asked noun's roots (and
    its synonyms'), what it is about, and for a count the counted noun."""

    kinds: tuple[Kind, ...]
    cues: frozenset[str]
    subject: tuple[str, ...]  # roots, in the question's order
    counted: frozenset[str] = frozenset()
    noun: str = "value"  # how the suggestion names it ("port", "commit")
    cue_stems: frozenset[str] = frozenset()  # the asked noun's stems (and its synonyms')
    words: tuple[str, ...] = ()  # the request's content lemmas, for retrieval
    text_words: tuple[str, ...] = ()  # the request's words as written
    decides: bool = False  # "where should …", "what would you like …": a decision asked
    verb_cues: frozenset[str] = frozenset()  # "what did the check return?": "returned 200"
    question: str = ""  # the whole question (code form): its own values are no answer
    names: frozenset[str] = frozenset()  # what the asker capitalised as a name ("Argentina")
    terse: bool = False  # named by a noun alone ("staging api port?"), with no question word
    headed: bool = False  # terse, by its head alone: a noun the kinds table does not know
    modifier: str = ""  # the word right before the asked noun ("branch" coverage)
    outcome: frozenset[str] = frozenset()  # "how many jobs failed": what the count is of
    pair: tuple[str, ...] = ()  # "which host and port …": the two things asked, when two
    unit: str = ""  # "in milliseconds": the unit the question names, as written
    # "how many seconds …", "how much data …": the measure a count's noun names, and its unit
    # as written — what the offline reader reads it as (``as_measure``)
    measure: tuple[Kind, str] | None = None
    how_often: bool = False  # "how often does the mixer jam?": a rate, a share or a span


# A measure's nouns that name no unit: a limit is of whatever it limits (a rate, a size, a
# time, an amount, a count of things), and so is a measure's noun that names no unit — the
# unit the question names decides
UNITLESS = word_set("limit quota cap ceiling maximum max threshold cadence interval")
# Nouns of an event, asked by when it is: a row says the event by its verb ("expires on",
# "departs at", "is due"), beside the value (``picking``: a date by another verb is another
# event's, "issued on 2026-03-31").
EVENT_NOUNS = frozenset({"expiry", "departure", "arrival", "deadline"})
# The asked noun → the kinds of value that answer it, best first.
NOUN_KINDS: dict[str, tuple[Kind, ...]] = {}
for _words, _kinds in (
    ("port", (Kind.PORT, Kind.NUMBER)),
    ("host hostname server machine box domain", (Kind.HOST, Kind.IP, Kind.ID)),
    ("address", (Kind.HOST, Kind.IP, Kind.URL)),
    ("ip", (Kind.IP,)),
    ("endpoint", (Kind.URL_PATH, Kind.URL, Kind.HOST)),
    ("route", (Kind.URL_PATH,)),
    ("url link site", (Kind.URL,)),
    ("version release tag rc", (Kind.VERSION,)),
    ("commit sha hash", (Kind.COMMIT,)),
    ("revision rev", (Kind.COMMIT, Kind.VERSION)),
    (
        "file doc document module report config script artifact wheel tarball bundle archive "
        "binary dump log lockfile manifest",
        (Kind.PATH,),
    ),
    ("throughput rps qps", (Kind.RATE, Kind.BITRATE, Kind.NUMBER)),
    (
        " ".join(sorted(UNITLESS)),
        (Kind.RATE, Kind.SIZE, Kind.DURATION, Kind.MONEY, Kind.PERCENT, Kind.NUMBER),
    ),
    # a frequency in Hz is a radio's or a clock's; else how often, as a limit is
    (
        "frequency",
        (
            Kind.FREQUENCY,
            Kind.RATE,
            Kind.SIZE,
            Kind.DURATION,
            Kind.MONEY,
            Kind.PERCENT,
            Kind.NUMBER,
        ),
    ),
    ("uptime availability cpu utilisation utilization usage", (Kind.PERCENT,)),
    # a share of a whole is a percentage, however its noun says it: the rooms or seats
    # taken, a part of the items, the moisture in the air
    ("occupancy fraction proportion humidity", (Kind.PERCENT,)),
    ("checksum digest", (Kind.COMMIT, Kind.ID)),
    ("path", (Kind.PATH, Kind.URL_PATH)),
    # "files under /outbound/invoices": a folder off the system's own is written as a route
    ("directory dir folder", (Kind.PATH, Kind.URL_PATH)),
    # a location is a folder's place, or a store's written as a URL: "landing in
    # s3://scan-ingest/2024/", "docs live at https://wiki.example/uw/"
    ("location", (Kind.PATH, Kind.URL_PATH, Kind.URL)),
    ("branch", (Kind.PATH, Kind.ID, Kind.WORD)),
    (
        "duration time timeout latency runtime p50 p90 p95 p99 p999 median lag delay rtt",
        (Kind.DURATION,),
    ),
    ("memory ram heap rss", (Kind.SIZE,)),
    # a physical measure is read by its unit: a temperature in °C/°F/K, a pressure (a
    # differential one: "dP") in Pa/mbar/bar/psi — never a bare number beside the word
    # a noun's short form is the noun ("temp", "rtt": a round trip's time)
    ("temperature temp", (Kind.TEMPERATURE,)),
    ("pressure dp", (Kind.PRESSURE,)),
    # and so are a frequency's, a data rate's, a voltage's, a speed's, a length's, an
    # angle's, an area's measure, and a probability written in scientific notation
    ("bitrate bandwidth baud", (Kind.BITRATE,)),
    ("voltage", (Kind.VOLTAGE,)),
    # a link's speed is its data rate ("came up at 12 Mbps")
    ("speed velocity delta-v", (Kind.SPEED, Kind.BITRATE)),
    (
        "distance altitude height length width radius residual separation spacing visibility",
        (Kind.LENGTH,),
    ),
    # ("range", "heading", "bearing", "pc" name other things too: an IP range, a document's
    # heading, a machine's part, a computer)
    ("elevation azimuth angle inclination tilt", (Kind.ANGLE,)),
    ("area", (Kind.AREA,)),
    ("probability likelihood", (Kind.PROBABILITY, Kind.PERCENT)),
    ("count depth backlog", (Kind.NUMBER,)),
    ("number", (Kind.ID, Kind.NUMBER)),
    ("total amount cost price spend bill revenue", (Kind.MONEY, Kind.NUMBER)),
    ("status result", (Kind.NUMBER, Kind.WORD)),
    # a code may be a number ("exit code 137") or one of digits joined ("LOINC 2823-3")
    ("code", (Kind.NUMBER, Kind.ID, Kind.WORD)),
    ("size", (Kind.SIZE,)),
    # a rate is a share ("error rate 0.3%") or so much per unit of time ("450 req/s"),
    # told apart by what it is a rate of (``_KIND_BY_MODIFIER``)
    ("rate", (Kind.PERCENT, Kind.RATE)),
    ("percentage percent ratio coverage share retention churn conversion", (Kind.PERCENT,)),
    # the users active in a day, a week, a month: a count
    ("dau wau mau", (Kind.NUMBER,)),
    ("date day", (Kind.DATE, Kind.TIME)),
    # a noun of an event asks when it is ("the certificate's expiry", "the ferry's
    # departure"), and the row says it by the event's verb (``_STATED_BY``)
    (" ".join(sorted(EVENT_NOUNS)), (Kind.DATE, Kind.TIME)),
    ("region zone", (Kind.REGION,)),
    ("email e-mail mail inbox mailbox", (Kind.EMAIL,)),
    ("cron crontab", (Kind.CRON,)),
    ("schedule", (Kind.CRON, Kind.TIME)),
    # people, and the teams that own things: a person's name, or a team's slug
    (
        "person owner author reviewer approver assignee maintainer engineer contact",
        (Kind.PERSON, Kind.ID),
    ),
    ("team squad", (Kind.ID, Kind.PERSON)),
    (
        "id identifier name key ticket issue pr runner job pod node queue bucket test image "
        "cluster namespace table index topic channel user account",
        (
            Kind.ID,
            Kind.QUALIFIED,
            Kind.PATH,
            Kind.NUMBER,
            Kind.WORD,
        ),
    ),
    ("dataset schema", (Kind.QUALIFIED, Kind.ID, Kind.WORD)),
):
    for _word in _words.split():
        NOUN_KINDS[_word] = _kinds
NAMING = frozenset({"id", "identifier", "name", "key", "number"})
# The words that name a kind of value itself ("ip", "url", "host"), not a measure of one
# ("median" is a duration, but not every duration is the median)
KIND_NAMES = frozenset(kind.value.split()[0] for kind in Kind)
GENERIC = (
    Kind.ID,
    Kind.QUALIFIED,
    Kind.MACHINE,
    Kind.EMAIL,
    Kind.CRON,
    Kind.PATH,
    Kind.WORD,
    Kind.NUMBER,
    Kind.SIZE,
    Kind.DURATION,
    Kind.RATE,
    Kind.PERCENT,
    Kind.TEMPERATURE,
    Kind.PRESSURE,
    Kind.MONEY,
    Kind.VERSION,
    Kind.HOST,
    Kind.URL,
    Kind.URL_PATH,
    Kind.COMMIT,
    Kind.DATE,
    Kind.TIME,
)
# Kinds that stand on their own in a row; the others (a bare number, a word) only count
# right next to the asked noun ("port 4321", "runner ci-large-3").
STRONG = frozenset(Kind) - {Kind.NUMBER, Kind.WORD, Kind.ID}

_WH_KINDS: dict[str, tuple[Kind, ...]] = {
    "how long": (Kind.DURATION,),
    "how many": (Kind.NUMBER,),
    "how much": (Kind.NUMBER, Kind.SIZE, Kind.PERCENT),
    # "how often does the mixer jam?": so many per unit of time, a share of the occurrences
    # ("in 4% of batches") or the span it recurs at ("every 6 hours"; ``picking``)
    "how often": (Kind.RATE, Kind.PERCENT, Kind.DURATION, Kind.NUMBER),
    "how big": (Kind.SIZE,),
    "how large": (Kind.SIZE,),
    "how fast": (Kind.DURATION, Kind.SPEED, Kind.BITRATE),
    # "how far behind is the replica?": a lag, in time or in a count of what is behind; "how
    # far away": a distance
    "how far": (Kind.DURATION, Kind.NUMBER, Kind.SIZE, Kind.LENGTH),
    "how slow": (Kind.DURATION,),
    "how full": (Kind.PERCENT, Kind.SIZE),
    "how busy": (Kind.PERCENT,),
    "how old": (Kind.DURATION, Kind.DATE, Kind.VERSION),
    "how high": (Kind.PERCENT, Kind.NUMBER, Kind.SIZE, Kind.LENGTH, Kind.ANGLE),
    "how hot": (Kind.TEMPERATURE,),
    "how cold": (Kind.TEMPERATURE,),
    "how warm": (Kind.TEMPERATURE,),
    "how close": (Kind.LENGTH,),
    "how near": (Kind.LENGTH,),
    "how deep": (Kind.LENGTH,),
    "how tall": (Kind.LENGTH,),
    "how likely": (Kind.PROBABILITY, Kind.PERCENT),
    # "how loaded was the uplink?": its load, a share of its capacity; "how heavy is the JS
    # bundle?": its weight in bytes; "how quickly must the vendor react?": within how long
    "how loaded": (Kind.PERCENT,),
    "how heavy": (Kind.SIZE,),
    "how quickly": (Kind.DURATION,),
    "how soon": (Kind.DURATION,),
    "where": (Kind.PATH, Kind.URL_PATH, Kind.URL, Kind.HOST),
    "when": (Kind.DATE, Kind.TIME),
    "who": (Kind.PERSON, Kind.ID),
}
# Words that only ask ("did the probe find", "can you tell me"), never what it is about.
ASKING = word_set(
    """find report say see get measure show tell know need give use take land end come return
    observe record note log mention detect discover spot run do be have go make look point
    sit live happen want remind anyone anybody someone somebody we you i me us they it one
    count listen serve answer respond bind peak hit reach define hold contain include
    reference produce create generate write make"""
)
STOP = word_set(
    """a an the and or but if then so of to in on at by for with from into onto about as is
    are was were be been being am do does did doing done has have had having i me my we our
    you your he she it its they them their this that these those there here what which who
    whom whose where when why how whats s t d ll ve re shall should will would can could may
    might must please ok okay yes no not session sessions member members agent agents bot
    any some just now still also hey hi quick q thanks thx pls again currently actually
    exactly last latest new current one ones according per said says during after before
    behind under over across through via between against without within since until while
    around near inside outside instead up down out off yo something anything recent recently
    newest most moment atm rn nowadays roughly approximately approx usually typically normally
    generally"""
)
REQUEST = re.compile(
    r"\b(?:which|what|whats|where|when|how (?:long|many|much|often|big|large|fast|slow))\b"
    r"|\b(?:tell me|remind me|need|want|give me|share|send me|know)\s+"
    r"(?:the|what|which|its|their)\b"
)
_SPLIT = re.compile(r"\b(?:which|what|whats|where|when|how)\b")


NP_STOP = word_set(
    """is are was were be been did does do has have had can could should shall will would may
    might must of in on at by for with from to into about as that which who whom where when
    the a an this these those s"""
)
RELATIVE_NEXT = word_set("only just also still then never always already")


def _requests(
    code: str, words: Sequence[Token], at: int, shaped: Sequence[Word], after_noun: bool
) -> bool:
    """Is the question word at ``at`` a request, not a relative ("pick up where I left off",
    "…script, which only prints")?"""
    texts = [w.text for w in words]
    before = texts[at - 1] if at > 0 else ""
    after = texts[at + 1] if at + 1 < len(texts) else ""
    if after in RELATIVE_NEXT or after in ("i", "we", "you", "it", "they", "he", "she"):
        return False
    if (
        texts[at] in ("where", "when", "which")
        and at >= 2
        and texts[at - 2] in ("the", "a", "an")
        and (before not in STOP or before in ("one", "ones"))
        and code[words[at - 1].end : words[at].start] == " "
    ):
        return False  # "the one where the signs are blank": a relative of the noun before
    if at == 0 or before in _FILLER_WORDS or before in _KNOW or (at == 1 and not after_noun):
        return True  # "yo what port…": a word of greeting before it
    if before == "out" and texts[at - 2] in _FIND and texts[at - 3 : at - 2] in _FINDERS:
        # "did anyone find out how many …": the question another's finding answers — never
        # the asker's own step ("can I work out what the invoice would come to?")
        return True
    if texts[at] == "what" and shaped[at].clause_start and not _opinion(texts, at):
        # "I am writing the test for Onfido, what URL …": "what" is never a relative of the
        # noun before the comma, as "which", "where" or "who" may be
        return True
    if texts[at] == "which" and after in NOUN_KINDS:
        return True  # "the ticket, which number?": a relative "which" is not before a noun
    if texts[at] == "how" and shaped[at].clause_start:
        return True  # "the warm start, how long is that?": "how" is never a relative
    if shaped[at].clause_start and _fronted(code, words, at):
        return True  # "After the last migration, which revision is head?"
    if shaped[at].clause_start:
        return not after_noun  # "…, which only prints" after a noun is a relative
    if before in _CLAUSE_PREPOSITIONS:
        # "on which port…", "-- at what time did it…": a preposition opening its clause
        return (
            at == 1
            or texts[at - 2] in _FILLER_WORDS
            or shaped[at - 1].clause_start
            or (at + 2 >= len(texts))
        )
    if (
        texts[at] == "how"
        and at + 3 == len(texts)
        and texts[at + 2] not in STOP
        and (past(words[at - 1]) or before in _BE_PAST)
        and texts[0] not in VERBISH
    ):
        # "… the L2 step took how many minutes?": "how" and its noun in situ, after the verb
        # it asks of — never after "see", "no matter" or in a yes/no ("can I rerun the
        # tests and see how many pass?")
        return True
    return at + 2 >= len(texts)  # "the nightly build passed on which sha?"


# "How bad was the error rate …?": a grade asked of a measure the phrase names (the rate),
# which is the value asked; of anything else ("how bad is the outage?") it asks a judgement.
_GRADING = word_set("bad good")
# "…, what do you think?", "…, what next?", "…, what if I …?": the human's view or the next
# step asked, never a value
_OPINION_NEXT = word_set("next now else about if")
_DECIDING = word_set("should shall ought prefer")


def _opinion(texts: Sequence[str], at: int) -> bool:
    """Does the "what" at ``at`` ask the human's view, a decision or the next step, not a
    value?"""
    after = texts[at + 1 : at + 3]
    if any(t in _DECIDING for t in texts[at + 1 :]):
        return True  # "…, what port should I use?": a decision asked of the human
    return (bool(after) and after[0] in _OPINION_NEXT) or list(after) == ["do", "you"]


_ANAPHORS = word_set("it that this they them its")
# The pronouns that stand for a thing named before the request's clause.
_BACK_POINTERS = word_set("it they them its their he she him his her")
_BE_PAST = word_set("was were")
# How many words a topic without a verb may have before a request that points back at it.
_LONG_TOPIC = 10
# What ends a topic put before its request: a comma, a dash or a colon.
_TOPIC_ENDS = (",", "--", "-", "\u2013", "\u2014", ":")
_CLAUSE_PREPOSITIONS = word_set("on at in from to for with by under of")
_QUOTED = " `'\""


def _fronted(code: str, words: Sequence[Token], at: int) -> bool:
    """Does the question word at ``at`` open the main clause after the comma of a fronted
    adverbial (``FRONTING``), rather than follow a noun as a relative ("After the migration,
    which took 3 min, …")?"""
    if not words or words[0].text not in FRONTING or at < 2:
        return False
    if "," not in code[words[at - 1].end : words[at].start]:
        return False
    after = words[at + 1] if at + 1 < len(words) else None
    return after is not None and after.text not in AUXILIARIES and not past(after)


def _fronted_topic(code: str, words: Sequence[Token], at: int) -> bool:
    """Does a fronted adverbial before the question word at ``at`` name what is asked about
    ("In the Frankfurt failover drill, which region …?"), not the asker's own purpose ("Before I
    write the notes, which release …")?"""
    return _fronted(code, words, at) and not any(w.text in _ASKER for w in words[:at])


_ASKER = word_set("i we me us my our")


# Words that are verbs and nouns alike ("search service host?", "health check port?").
NOUN_VERBS = word_set(
    """search check load build test run release deploy review audit scan probe import export
    backup cache queue index health trace profile benchmark bench lint link port tag"""
)
VERBISH = word_set(
    """shall should can could may might must will would do does did is are was were am have
    has had ok okay continue proceed go run keep use deploy push delete merge ship start
    let please pls"""
)
_FILLER_WORDS = word_set(
    """ok okay so hey hi hello quick one q question also and but then now well btw fyi again
    thanks sorry just"""
)
_KNOW = word_set("know tell remind idea sure wonder remember say find check me us")
# "find out", "figure out", "work out": a finding whose object is the embedded question
_FIND = word_set("find found figure figured work worked")
_FINDERS = [[w] for w in ("anyone", "anybody", "someone", "somebody", "you", "they")]


@functools.lru_cache(maxsize=4096)
def kind_tokens(code: str) -> tuple[Token, ...]:
    """``tokens``, with the plural of a kind noun written as an acronym's ("IPs", "PRs",
    "SHAs": "ips", "prs", "shas", which the lemmatiser leaves as they are) read as that
    noun, as "hosts" and "ports" are."""
    return tuple(
        replace(t, lemma=t.text[:-1])
        if t.lemma not in NOUN_KINDS and t.text.endswith("s") and t.text[:-1] in NOUN_KINDS
        else t
        for t in tokens(code)
    )


# Adverbial phrases of time that say when a value is asked, never what it is of: "right now",
# "at the moment", "these days", "so far", "thus far", "to date", "for now", "as of now", "as of
# today", "at present", "by now", "as we speak". Their words are no asked noun ("what is it
# right now?" asks no "right") and no word a row must say ("flagged so far this week": no
# "far"). "Up to date" is no such phrase: it says a state.
ADVERBIAL = re.compile(
    r"\b(?:right now|just now|for now|by now|as of (?:now|today)|at (?:the moment|present)"
    r"|these days|(?:so|thus) far|(?<!up )to date|as we speak)\b"
)


def adverbial_words(code: str) -> frozenset[int]:
    """Where the words of an adverbial phrase of time (``ADVERBIAL``) start in ``code``."""
    return frozenset(
        m.start() + w.start() for m in ADVERBIAL.finditer(code) for w in re.finditer(r"\w+", m[0])
    )


def _value_ask(code: str, pointed: bool = False) -> ValueAsk | None:
    """The request ``code`` (one sentence) makes; ``pointed``: the phrase a later "what is
    it?" points back at, a request however long."""
    shaped = shape_of(code).words
    all_words = kind_tokens(code)
    texts = [w.text for w in all_words]
    start = None
    kinds: tuple[Kind, ...] = ()
    head_text = ""
    for i, text in enumerate(texts):
        after_noun = (
            i > 0
            and texts[i - 1] not in _FILLER_WORDS
            and code[all_words[i - 1].end : all_words[i].start].strip() in (",", "(")
            and i > 1
        )
        if text in ("which", "what", "whats", "where", "when", "how", "who", "whose") and _requests(
            code, all_words, i, shaped, after_noun
        ):
            nxt = texts[i + 1] if i + 1 < len(texts) else ""
            if text == "how" and f"how {nxt}" not in _WH_KINDS and nxt not in _GRADING:
                continue
            start, head_text = i, f"{text} {nxt}" if text == "how" else text
            break
    if (
        start is None
        and (_needed(code, pointed) is None if pointed else len(texts) <= 12)
        and code.rstrip().endswith("?")
    ):
        # terse: "staging api port?", "p95 for the load test?" — a phrase naming a value
        from crewline.policy.careful import EDIT_VERBS, EXEC_VERBS, PROCEED_VERBS, READ_VERBS

        verbs = READ_VERBS | EDIT_VERBS | EXEC_VERBS | PROCEED_VERBS
        objects = {"the", "a", "an", "this", "that", "these", "those", "it", "them", "to", "my"}
        named_at = [
            i
            for i, t in enumerate(all_words)
            if t.lemma in NOUN_KINDS and t.lemma not in ("day", "time", "number")
        ]
        acting = any(
            (t.lemma in verbs or t.text in verbs)
            and ((i + 1 < len(texts) and texts[i + 1] in objects) or (i == 0 and len(texts) == 1))
            for i, t in enumerate(all_words)
        ) or (
            bool(texts)
            and (all_words[0].lemma in verbs or texts[0] in verbs)
            and texts[0] not in NOUN_VERBS
            and texts[1:2] != ["of"]  # "count of open bugs?": a noun, never a step
        )
        if named_at and not acting and not any(t in VERBISH for t in texts):
            start, head_text = -1, "terse"
        elif not named_at and not acting and _phrase_head(all_words, verbs) is not None:
            start, head_text = -1, "terse"  # "Madrid ADR last week?": whatever its noun
    if start == -1:
        start = 0
        words = all_words
    elif start is None:
        m = _needed(code, pointed)
        if m is None:
            return None
        start = next(i for i, w in enumerate(all_words) if w.start >= m.start(1))
        head_text = "need"
    skip = 0 if head_text == "terse" else 2 if head_text.startswith("how") else 1
    for wh, wanted in _WH_KINDS.items():
        if head_text.startswith(wh):
            kinds = wanted
    words = all_words[start:]
    # the noun phrase after the question word; its last word that names a kind of value
    timed = adverbial_words(code)
    phrase: list[str] = []
    longest = 4
    hyphened = 0  # the phrase's words glued by a dash to the one before: "card-auth" is one
    per_unit = ""
    bare_subject = False
    ended_by_verb = False  # "which TrackWise record covers the …": its head before the verb
    for at, w in enumerate(words[skip:], start=skip):
        glued = w.start > 0 and code[w.start - 1] == "-" and code[w.end : w.end + 1] == "-"
        if w.text == "s" and code[w.start - 1 : w.start] == "'":
            # "the canary's error rate": the phrase goes on, its head after the possessor
            # however long that was ("the staging internal load balancer's IP")
            longest = len(phrase) + 4
            continue
        if phrase and w.start > 0 and code[w.start - 1] == "-" and w.text.isalpha():
            hyphened += 1  # "the EU card-auth tail latency": four words, not five
        if len(phrase) - hyphened >= longest:
            break
        if w.start in timed and phrase:
            break  # "what is the p95 right now?": the phrase ends where "right now" opens
        if w.start in timed:
            continue
        if w.text in NP_STOP and phrase and not glued:
            break
        if w.text in NP_STOP:
            # "what is requests pinned to?": after a bare verb, the phrase is no noun phrase
            # of its own but the subject the asked value is said of
            bare_subject = (bare_subject or w.text in _AUXILIARIES) and w.text not in _ARTICLES
            continue
        if w.text == "per" and phrase:
            # "the max size per photo": what follows "per" is the measure's unit
            per_unit = next((u.text for u in words if u.start > w.end), "")
            break
        if head_text in ("which", "what", "who") and (
            (len(phrase) == 1 and phrase[0] in NOUN_KINDS and verb_form(w))
            or (phrase and past(w) and w.lemma not in NOUN_KINDS and not bare_subject)
            or (len(phrase) > 1 and _verb_of_phrase(w, words[at + 1 : at + 2]))
        ):
            ended_by_verb = len(phrase) > 1 and _verb_of_phrase(w, words[at + 1 : at + 2])
            # "which team owns the module", "which field disappeared from …", "the newest
            # migration applied on staging": the phrase ends at its verb
            break
        phrase.append(w.lemma)
    # "some underlying table — which one?": "one" stands for the noun named before it
    antecedent = None
    if head_text == "which" and texts[start + 1 : start + 2] in (["one"], ["ones"]):
        antecedent = next(
            (k for k in range(start - 1, -1, -1) if all_words[k].lemma in NOUN_KINDS), None
        )
        if antecedent is None:
            return None
        phrase, skip = [all_words[antecedent].lemma], 2
    noun = "value"
    counted: set[str] = set()
    outcome: set[str] = set()
    measure: tuple[Kind, str] | None = None
    named = [p for p in phrase if p in NOUN_KINDS]
    if head_text.startswith("how") and head_text[4:] in _GRADING and not named:
        return None  # "how bad is the outage?": a judgement, unless a measure is named
    measured = head_text == "how much" and named and set(NOUN_KINDS[named[-1]]) - {Kind.NUMBER}
    stored = head_text == "how much" and not named and phrase[-1:] and phrase[-1] in _STORED
    share_of = (
        head_text == "how much"
        and [w.text for w in words[skip : skip + 1]] == ["of"]
        and [w.text for w in words][-2:-1] not in (["are"], ["were"], ["is"])
    )
    if share_of:  # "how much of this month's error budget have we used?": a share of it
        noun, kinds = "share", (Kind.PERCENT,)
    elif measured:  # "how much memory…": a size, not a count of memories
        noun = named[-1]
        kinds = NOUN_KINDS[noun]
    elif head_text.startswith(("how many", "how much")):
        texts_after = [w.text for w in words[skip:]]
        if texts_after[:1] == ["of"] and texts_after[-2:-1] in (["are"], ["were"], ["is"]):
            noun = lemma(texts_after[-1])  # "how many of the vulnerable packages are critical"
            counted = {root(noun)}
        elif phrase:
            # the counted noun: the phrase's last noun before its verb ("how many lint
            # errors did…": errors, not warnings; "how many pods restarted during…": pods)
            at = skip
            while (
                at + 1 < len(words)
                # "how many 10 mL vials (mat. 4000127) are …": an aside ends the phrase
                and "(" not in code[words[at].end : words[at + 1].start]
                and (
                    _noun_goes_on(words[at], words[at + 1])
                    or code[words[at].end : words[at].end + 1] == "-"
                )
            ):
                at += 1
            noun = words[at].lemma
            counted = {root(noun)}
            if at == skip and _counts_time_unit(code, words[at]):
                # "for how many seconds is the token valid?": a time in that unit ("TTL
                # 3600 s"), not a count of seconds — but "CPU-hours" count a resource
                measure = (Kind.DURATION, words[at].text)
            elif stored:
                measure = (Kind.SIZE, "")  # "how much data is in the bucket?"
            verb = words[at + 1] if at + 1 < len(words) else None
            if verb is not None and past(verb) and verb.lemma not in ASKING:
                outcome.add(root(verb.lemma))  # "how many e2e tests failed": "3 failed"
                counted |= outcome
    elif head_text.startswith("how often"):
        counted = {root("time")}
    elif head_text in ("what", "which") and phrase[:1] == ["time"]:
        noun, kinds = "time", (Kind.TIME, Kind.DATE)  # "what time does the cron run?"
    elif texts[-1] in ("called", "named") and head_text in ("what", "which"):
        noun, kinds = "name", (Kind.ID, Kind.PATH, Kind.WORD)  # "what's the db called?"
    elif named and not kinds:
        noun = named[-1]
        kinds = NOUN_KINDS[noun]
    elif named and set(NOUN_KINDS[named[-1]]) & set(kinds):
        noun = named[-1]
    if head_text == "who" and _WHOM_TO_MAIL.match(code, all_words[start].start):
        noun, kinds = "email", (Kind.EMAIL,)  # "who should I email at …?": their address
    elif head_text in ("who", "whose"):
        # "whose group does HU-S-20931 belong to?": the person it is of, as "who" asks
        if re.search(r"\b(?:should|shall|would|could|can|will|must|ought)\b", code):
            return None  # "who should review it?": a decision asked of you, not a fact
        if noun == "value":
            noun = "person"
    verb_cues: set[str] = set()
    if head_text == "what" and texts[start + 1 : start + 2] and texts[start + 1] in _DO_AUX:
        # "what did the health check return?": what follows the verb in a row
        verb = next((w for w in reversed(words[skip:]) if w.text not in NP_STOP), None)
        if verb is not None and not kinds and not named:
            noun, kinds, phrase = verb.lemma, GENERIC, [verb.lemma]
            verb_cues = {stem(verb.lemma)}  # the value follows the verb: not a noun's cue
    headed = False
    if head_text == "terse":
        # the phrase's head: its last noun of a kind of value before its first preposition
        # ("link to the partner portal status page?", "protobuf version in the lockfile?")
        head_end = next(
            (k for k, w in enumerate(words) if k and w.text in _TERSE_PREPOSITIONS), len(words)
        )
        named_terse = [
            w.lemma
            for w in words[:head_end]
            if w.lemma in NOUN_KINDS and w.lemma not in ("day", "time", "number")
        ] or [
            w.lemma
            for w in words
            if w.lemma in NOUN_KINDS and w.lemma not in ("day", "time", "number")
        ]
        headed = not named_terse
        head = None if named_terse else _phrase_head(words, verbs)
        noun = named_terse[-1] if named_terse else head.lemma if head is not None else "value"
        counting = next(
            (
                k
                for k in range(min(3, len(texts) - 1))
                if texts[k] in _COUNTS and texts[k + 1] == "of"
            ),
            None,
        )
        if counting is not None:
            noun = texts[counting]  # "number of open issues tagged …?", "total number of …"
        kinds = NOUN_KINDS.get(noun, GENERIC)
        named = [noun] if noun in NOUN_KINDS else []
        of = next((k for k, w in enumerate(words) if w.lemma == noun), 0) + 1
        if noun in ("count", "number", "total") and texts[start + of : start + of + 1] == ["of"]:
            # "count of open bug issues in the repo?": a count of the phrase's last noun
            end = next(
                (
                    k
                    for k in range(of + 1, len(words))
                    if words[k].text in _TERSE_PREPOSITIONS or past(words[k])
                ),
                len(words),
            )
            if end > of + 1:
                counted = {root(words[end - 1].lemma), root(noun)}  # the "count" is no topic
                noun, kinds = words[end - 1].lemma, (Kind.NUMBER,)
    pair = _two_asked(code, words[skip:])
    if head_text not in ("terse", "need") and _asks_again(texts, start):
        pair = (noun, "other value")  # "from when to when?": two values, never one answers
    if pair and one_value(pair):
        noun, kinds = "address", (Kind.HOST, Kind.IP)  # "host and port": "mm.internal:7450"
    if not kinds:
        if head_text == "need":
            return None  # "I need the…" names no kind of value: not a request for one
        content = [p for p in phrase if p not in STOP and p not in ASKING]
        if ended_by_verb and phrase[-1] not in STOP:
            content = phrase  # "which TrackWise record covers …": "record" is the noun here
        if not content:
            return None
        noun = content[-1]
        kinds = GENERIC
    kind_words: set[str] = set()  # the words that say which kind is asked ("instance type")
    machine = _MACHINE_ASKED.search(code)
    if machine is not None and noun in (*_MACHINES, "value", "type", "size"):
        kind_words = {machine.group(1), machine.group(2), noun}
        noun, kinds = "type", (Kind.MACHINE,)  # "which machine type", "VM size"
    if noun in _KIND_BY_MODIFIER:
        # "instance type", "email address", "ingest rate": the word before the noun says
        # which kind of it is asked
        by = _KIND_BY_MODIFIER[noun]
        before = next((w.lemma for w in reversed(all_words[: _at(all_words, noun)])), "")
        if before in by and not (noun == "time" and _STATISTIC.search(code)):
            asked = noun
            noun, kinds = by[before]
            if noun != asked:
                # "email address": the address is the email; "DNS name": both name the host
                kind_words = {asked, before} - {noun}
    whole = _counted_whole(head_text, noun, kinds, words[skip:])
    if whole:
        # "the peak size of the bulletin queue", "how deep is the backlog": a queue's size
        # is how many wait in it, a count beside its noun ("a backlog of 1204 messages"),
        # never bytes nor metres
        kind_words.add(noun)  # the size asked is the count: no word of what it is about
        noun, kinds = whole, (Kind.NUMBER,)
    if Kind.RATE in kinds and _scale(per_unit) in _TIME_SCALES:
        # "the request limit per minute": so much per unit of time, a rate
        kinds = tuple(k for k in kinds if k in (Kind.RATE, Kind.NUMBER))
    unit = _unit_named(code)
    if unit is not None:
        # "…, in percent?", "in m/s": the unit says the kind asked
        unit_kind, unit_word, _ = unit
        kind_words.add(unit_word)
        if noun in NOUN_KINDS and unit_kind not in NOUN_KINDS[noun]:
            noun = _head(code, words[skip:]) or "value"  # "Route 10 punctuality, in percent?"
        kinds = (unit_kind,)
        measure = None  # "how many seconds …, in ms?": the unit it names decides
    # a noun that names another kind of thing stays what the request is about ("which Node
    # version": node); one of the asked kind is the asked noun again ("host:port"), and so is
    # the name of a kind the asked ones hold ("the IP address": any address said is an IP's)
    also_named = (
        {
            p
            for p in named
            if p == noun
            or group_of().get(root(p), frozenset()) & group_of().get(root(noun), frozenset())
            or (p in KIND_NAMES and set(NOUN_KINDS[p]) <= set(kinds))
        }
        | set(pair)
        | kind_words
    )
    named = [p for p in named if set(NOUN_KINDS[p]) & set(kinds)]
    cues = {root(noun)} if noun != "value" else set()
    cues |= {root(p) for p in named}
    for n in group_of().get(root(noun), ()):
        if noun in GROUP_WORDS[n] and noun in NOUN_KINDS:
            cues |= {root(w) for w in GROUP_WORDS[n] if w in NOUN_KINDS}
    clause_from = start
    while clause_from > 0 and not shaped[clause_from].clause_start:
        clause_from -= 1
    own_clause = clause_from
    topic = clause_from - 1
    while topic > 0 and not shaped[topic].clause_start:
        topic -= 1
    # "the warm start, how long is that?", "Bus 4471 -- at what time did it stop?": a
    # pronoun the request's clause stands on is the thing named before it
    pronoun = any(w.text in _ANAPHORS for w in words[skip:]) or all(
        w.lemma in (noun, *kind_words) or w.text in STOP for w in words[skip:]
    )  # "cold start on the Pixel 6, how many seconds?": the request names nothing else
    verbless = not any(
        w.text in VERBISH | _DO_AUX | ASKING or w.lemma in ASKING
        for w in all_words[topic:clause_from]
    )
    aside: set[int] = set()  # the words of a statement before the request, past its subject
    thing = _thing_before(code, all_words, own_clause)
    if thing is not None and _points_back(words[skip:]):
        # "The staging Redis is not on 6379 — which port is it on?", "the scan service came
        # back after the outage, what port is it on?": a statement of one thing, and the
        # pronoun after it is that thing — never what the statement says of it
        clause_from = thing[0]
        aside = {w.start for w in all_words[thing[1] : own_clause]}
    elif (
        clause_from > 0
        # a topic of a noun phrase alone may be longer where the request points back at it
        # ("the pass success of Inuvik in last week, how much percent it was?"); one with a
        # verb is the asker's own doing ("I need to point my viewer at …, what port …?")
        and clause_from - topic <= (_LONG_TOPIC if pronoun and verbless else 6)
        # a name in code quotes ends where its quote does: "`ledger-api` — which `port`?"
        and code[all_words[clause_from - 1].end : all_words[clause_from].start].strip(_QUOTED)
        in _TOPIC_ENDS
        and (pronoun or verbless)
    ):
        clause_from = topic  # "the ticket for the flaky login test, which number?"
    if antecedent is not None or (start and _fronted_topic(code, all_words, start)):
        # what "one" stands for is said before it; a fronted clause names the thing asked
        # about ("If the billing API is down, who gets paged?")
        clause_from = 0
    if head_text == "need":
        clause_from = start  # "my smoke test needs the base URL": the URL's, not the test's
    elif (
        0 < clause_from == own_clause
        and topic < clause_from
        and (
            any(w.text in _BACK_POINTERS for w in words[skip:])
            or (head_text == "what" and all_words[topic].text in _AUXILIARIES)
        )
    ):
        # "I am setting up the tunnel for the metrics gateway, what port does it listen
        # on?": the asker's own clause is no topic, but what the pronoun stands for is in it —
        # the thing after its last preposition, or the clause whole; and so is what a "what"
        # run on from a question of its own is asked of ("Is the HES API still v3, what
        # endpoint do I call?": the v3 API's, never the v4 one a row names). A statement
        # before it is context ("DNS is flaky in the sandbox — what's the IP of the staging
        # broker?" asks the broker's IP, wherever the asker is)
        prepositions = [
            k for k in range(topic, clause_from - 1) if all_words[k].text in _CLAUSE_PREPOSITIONS
        ]
        clause_from = prepositions[-1] + 1 if prepositions else topic
    subject: list[str] = []
    clause = [w for w in all_words[clause_from:start] if w.start not in aside] + [*words[skip:]]
    # with "did", "does" … an asking word is the verb ("what did the probe record?"), else
    # it may be a noun ("the TTL on the A record")
    verbal = any(w.text in _DO_AUX for w in clause) or head_text == "need"
    # an asking word between an article and a noun names a thing, never asks: "the logging
    # cluster", "our reporting DB" are other things than "the cluster", "our DB"
    determined = {
        all_words[k].start
        for k in range(1, len(all_words) - 1)
        if all_words[k - 1].text in _ARTICLES
        and all_words[k].lemma in ASKING
        and code[all_words[k].end : all_words[k + 1].start] == " "
        and all_words[k + 1].text not in STOP
    }
    glued_to_noun = {
        all_words[k].lemma
        for k in range(len(shaped) - 1)
        if shaped[k].ident
        and shaped[k + 1].ident
        and noun in (all_words[k].lemma, all_words[k + 1].lemma)
    }
    # "the US cluster", "do US readers get …": a country after a determiner, or in the
    # subject an auxiliary opens, before its noun — the pronoun is never a subject ("we")
    country = {
        all_words[k].start
        for k in range(1, len(all_words))
        if all_words[k].text == "us"
        and (
            all_words[k - 1].text in ("the", "a", "an")
            or (
                all_words[k - 1].text in _AUXILIARIES
                and k + 1 < len(all_words)
                and all_words[k + 1].text.isalpha()
                and all_words[k + 1].text not in STOP
            )
        )
    }
    # a word inside a hyphenated name ("the acme-logs bucket") names the thing, never asks
    # ("end-to-end", with a word of grammar in it, is a phrase, not a name)
    hyphenated = {
        w.start
        for run in re.finditer(r"(?<![\w-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\w-])", code)
        if not any(part in STOP for part in run.group(0).split("-"))
        for w in clause
        if run.start() <= w.start < run.end()
    }
    for w in clause:
        r = root(w.lemma)
        if w.start in timed:
            continue  # "so far", "right now", "these days": when it is asked, never of what
        if w.start in hyphenated and w.lemma in ASKING and w.text not in STOP:
            if r not in subject:
                subject.append(r)
            continue
        if w.start in country:
            if "us" not in subject:
                subject.append("us")
            continue
        if (
            w.lemma in glued_to_noun  # "host:port"
            or (noun == "name" and w.text in ("called", "named"))
            or w.text in STOP
            or w.lemma in STOP
            or (
                w.lemma in ASKING
                and w.start not in determined
                and (verbal or w.text not in _NOUNABLE)
            )
            or w.lemma == noun
            or w.lemma in also_named
            or r in counted
            or len(w.text) < 2
        ):
            continue
        if r not in subject:
            subject.append(r)
    # a name glued with digits or dots ("api.acme.io", "eu-west-1", "products_v6") is one
    # thing: a row must say it whole, so it is one term, not its pieces
    for run in _glued_runs(code, shaped[clause_from:]):
        pieces = {root(t.lemma) for t in tokens(run)}
        if all(t.lemma in NOUN_KINDS or t.text in STOP for t in tokens(run)) or (
            lemma(run) in kind_words
        ):
            continue  # "host:port": the asked nouns, not a name; "in m/s": the unit
        subject = [t for t in subject if t not in pieces] + [run]
    cue_stems = {stem(noun)} if noun != "value" and not verb_cues else set()
    cue_stems |= {stem(p) for p in named}
    for n in group_of().get(root(noun), ()):
        if noun in GROUP_WORDS[n] and noun in NOUN_KINDS:
            cue_stems |= {stem(w) for w in GROUP_WORDS[n] if w in NOUN_KINDS}
    cue_stems |= {stem(w) for w in _STATED_BY.get(noun, ())}
    short = code_name_head(noun)
    if short:
        # "`targetSdkVersion` is what?" of "targetSdk bumped to 34": the setting by its head
        cues |= {root(short)}
        cue_stems |= {stem(short)}
    modifier = ""
    for k in range(1, len(all_words)):
        if all_words[k].lemma == noun and k - 1 >= start + skip:
            left = all_words[k - 1]
            plain = code[left.end : all_words[k].start] == " " and code[
                left.start - 1 : left.start
            ] in ("", " ")
            if plain and left.text.isalpha() and left.text not in STOP and left.lemma not in ASKING:
                modifier = left.lemma  # "the branch coverage", not "checkout's p95"
            break
    return ValueAsk(
        unit=unit[2] if unit is not None else "",
        measure=measure,
        how_often=head_text == "how often",
        modifier=modifier,
        pair=pair,
        terse=head_text == "terse",
        headed=headed,
        verb_cues=frozenset(verb_cues),
        kinds=kinds,
        cues=frozenset(cues),
        cue_stems=frozenset(cue_stems),
        subject=tuple(subject),
        counted=frozenset(counted),
        outcome=frozenset(outcome),
        noun=noun,
        words=tuple(
            dict.fromkeys(
                w.lemma for w in all_words[clause_from:] if w.lemma not in STOP and len(w.lemma) > 1
            )
        ),
        text_words=tuple(w.text for w in all_words[clause_from:]),
        decides=bool(
            re.search(
                r"\b(?:should|shall|would you|do you want|do you prefer|prefer|ought)\b",
                " ".join(w.text for w in all_words[clause_from:]),
            )
        ),
    )


# "Who should I email at Agrivista about tasking?", "who do we mail about the order?": the
# asker's own message, its recipient asked by the address to write to — an email address,
# never a name. A thing sent ("who do I email the notes to?") is no such request.
_WHOM_TO_MAIL = re.compile(
    r"who\s+(?:should|do|can|could|shall)\s+(?:i|we)\s+(?:e-?mail|mail)"
    r"(?:\s+(?:at|about|regarding|re|for|on)\b|\s*[?!.]*\s*$)"
)


_JOINING = word_set("to and or until till through")


def _asks_again(texts: Sequence[str], start: int) -> bool:
    """Does a second question word, joined to the first, ask a second value ("from when to
    when?", "where and when does it run?", "who and when?")?"""
    return any(
        texts[k] in ("which", "what", "where", "when", "who", "how") and texts[k - 1] in _JOINING
        for k in range(start + 2, len(texts))
    )


_NEEDED = re.compile(
    r"\b(?:(?:tell|remind|give|send|show|paste|forward|share|post|dm) (?:me|us)|need|got"
    r"|have|know|share|find|idea of|post)\s+(the|its|their|our|a|an)\b"
)
# "My smoke test needs the base URL … What is it?": a need stated, then pointed at
_NEEDED_POINTED = re.compile(r"\b(?:needs|needed)\s+(the|its|their|our|a|an)\b")


def _needed(code: str, pointed: bool) -> re.Match[str] | None:
    """Where a request said as a need or an ask to be told opens ("I need the …", "tell me
    the …"): its article."""
    return _NEEDED.search(code) or (_NEEDED_POINTED.search(code) if pointed else None)


# The physical measures a unit names, apart from a temperature and a pressure: a frequency,
# a data rate, a voltage, a speed, a length, an angle, an area, a probability
PHYSICAL = (
    Kind.FREQUENCY,
    Kind.BITRATE,
    Kind.VOLTAGE,
    Kind.SPEED,
    Kind.LENGTH,
    Kind.ANGLE,
    Kind.AREA,
    Kind.PROBABILITY,
)
# Kinds a unit names: a measure, never a thing counted ("in nodes").
_MEASURES = frozenset(
    {Kind.DURATION, Kind.RATE, Kind.SIZE, Kind.MONEY, Kind.PERCENT, Kind.TEMPERATURE, Kind.PRESSURE}
) | frozenset(PHYSICAL)
# "in ms", "(in m/s)": a unit the question names, not a place ("in the
# config"): no article before it, nothing glued after it, no number after it ("in week 51"
# names a week, a time)
_IN_UNIT = re.compile(r"\bin\s+([a-z%$\u20ac\u00a3]+(?:/[a-z]+)?)(?![\w./-])(?!\s*\d)")


def _unit_named(code: str) -> tuple[Kind, str, str] | None:
    """The kind a unit named in the question fixes, the unit's lemma and the unit as
    written: what the value reader makes of a number in that unit ("2 m/s" is a rate), or
    the one measure a noun of it names ("percent") — or the percent sign the question
    writes in a number's stead ("what % …", "the error %", "as % of …")."""
    for m in _IN_UNIT.finditer(code):
        said = m.group(1)
        read = values_in(f"2 {said}")
        if len(read) == 1 and read[0].text == f"2 {said}" and read[0].kind in _MEASURES:
            return read[0].kind, lemma(said), said
        kinds = NOUN_KINDS.get(lemma(said), ())
        if len(kinds) == 1 and kinds[0] in _MEASURES:
            return kinds[0], lemma(said), said
    if _SIGN_ASKED.search(code):
        return Kind.PERCENT, "percent", "%"
    return None


# A percent sign written where no number stands before it ("what % passed?", "the reject %",
# "what %MAC …"): the share asked names its kind by the sign. Never a number's sign ("at
# 91%", "100 %"), a format's placeholder ("%s", "%d") nor a variable's ("%APPDATA%").
_SIGN_ASKED = re.compile(r"(?<![\w.,%])(?<![\d.,] )%(?![\d%]|[a-z]\b)(?![a-z_]+%)")


_PHYSICAL_SPELT = {
    "metre": "m",
    "meter": "m",
    "metres": "m",
    "meters": "m",
    "kilometre": "km",
    "kilometer": "km",
    "kilometres": "km",
    "kilometers": "km",
    "degree": "deg",
    "degrees": "deg",
    "\u00b0": "deg",
    "\u00ba": "deg",
    "km2": "km\u00b2",
    "m2": "m\u00b2",
}


def _physical_unit(said: str) -> str:
    """A physical measure's unit as one spelling: "8.2 GHz" → "ghz", "412 metres" → "m"."""
    unit = re.sub(r"^[-\u2212]?[\d.,]+", "", said.strip()).strip().lower().replace(" ", "")
    return _PHYSICAL_SPELT.get(unit, unit)


# A time's or a size's units, each by its scale: a value in another scale than the one the
# question names is no answer ("30 s" to "in milliseconds?"), since the gate converts none.
_SCALES = {
    **dict.fromkeys(("us", "\u00b5s", "microsecond"), "us"),
    **dict.fromkeys(("ms", "msec", "millisecond"), "ms"),
    **dict.fromkeys(("s", "sec", "second"), "s"),
    **dict.fromkeys(("m", "min", "minute"), "min"),
    **dict.fromkeys(("h", "hr", "hour"), "h"),
    **dict.fromkeys(("d", "day"), "d"),
    **dict.fromkeys(("w", "wk", "week"), "w"),
    **dict.fromkeys(("month",), "mo"),
    **dict.fromkeys(("y", "yr", "year"), "y"),
    **dict.fromkeys(("b", "byte"), "b"),
    **dict.fromkeys(("kb", "kib", "kilobyte"), "kb"),
    **dict.fromkeys(("mb", "mib", "megabyte"), "mb"),
    **dict.fromkeys(("gb", "gib", "gigabyte", "g"), "gb"),
    **dict.fromkeys(("tb", "tib", "terabyte"), "tb"),
}
_UNIT_OF = re.compile(r"[\d.,]+\s*([a-z\u00b5]+)\s*$")


def _scale(unit: str) -> str | None:
    unit = unit.lower()
    return _SCALES.get(unit) or _SCALES.get(unit.removesuffix("s"))


def in_asked_unit(ask: ValueAsk, value: Value) -> bool:
    """Is ``value`` said in the unit the question names, where both units are of a known
    scale ("45 s" for "in seconds", never "30 s" for "in milliseconds")?"""
    if value.kind in (Kind.TEMPERATURE, Kind.PRESSURE):
        # "in °F", "in fahrenheit", "in mbar": a measure in another unit is no answer
        named = units_named(ask.question or " ".join(ask.text_words))
        return not named or unit_of(value) in named
    if not ask.unit:
        return True
    if value.kind in PHYSICAL:
        # "in MHz" of "8.2 GHz", "in km" of "412 m": another unit, none converted
        return _physical_unit(value.text) == _physical_unit(ask.unit)
    said = _UNIT_OF.search(value.text.lower())
    asked, given = _scale(ask.unit), _scale(said.group(1)) if said else None
    return asked is None or given is None or asked == given


# Things whose size or depth is how many are in them: a queue, a backlog, a batch, a pool.
_COUNTED_WHOLES = word_set("queue backlog batch pool")
# Words that make the size a measure after all: of the data, the disk, the memory it takes.
_SIZED_BY_BYTES = word_set("data disk space storage memory ram heap byte bytes volume file")


def _counted_whole(
    head_text: str, noun: str, kinds: tuple[Kind, ...], phrase: Sequence[Token]
) -> str:
    """The queue, backlog, batch or pool whose size the request asks ("what's the queue
    size?", "the size of the bulletin queue", "how deep is the backlog?"): a count of what
    is in it, not bytes nor a length. None ("") where the request names bytes' things too
    ("the size of the queue's disk") or asks no size."""
    sized = noun == "size" or (noun == "value" and head_text in ("how deep", "how big"))
    if not sized or kinds not in ((Kind.SIZE,), (Kind.LENGTH,)):
        return ""
    said: list[str] = []
    for w in phrase:
        if w.text in _MORE_PREPOSITIONS or w.text in ("in", "on", "at", "for", "from", "by"):
            break  # "the backlog on `bsm.inbound`": the thing is named, its place after it
        said.append(w.lemma)
    if any(w in _SIZED_BY_BYTES for w in said):
        return ""
    return next((w for w in reversed(said) if w in _COUNTED_WHOLES), "")


# What "how much" measures in bytes: the data stored, the disk or space it takes.
_STORED = word_set("data disk space storage")

_TIME_SCALES = frozenset({"us", "ms", "s", "min", "h", "d", "w", "mo", "y"})
# The units of time a count may name whole ("how many seconds", "how many days"), never a
# letter alone
_TIME_UNITS = word_set("second seconds minute minutes hour hours day days week weeks")


def as_measure(ask: ValueAsk) -> ValueAsk:
    """The request as the offline reader reads it: a count of a unit of time ("how many
    seconds …") as a time in that unit ("TTL 3600 s", never "2 min": the gate converts
    none), an amount of data, disk or space ("how much data …") as a size ("2.3 TB") — the
    row's measure whole, where a count reads only a number beside the counted noun. A
    model's citation is checked against the request as asked."""
    if ask.measure is None:
        return ask
    kind, unit = ask.measure
    if kind is Kind.DURATION:
        return replace(ask, kinds=(Kind.DURATION, Kind.NUMBER), unit=unit)
    return replace(ask, kinds=(kind,), counted=frozenset())


def _counts_time_unit(code: str, word: Token) -> bool:
    """Does the question count ``word``, a unit of time said whole and on its own ("how many
    seconds …"), not the tail of a compound ("how many CPU-hours …", "core-hours")?"""
    return word.text in _TIME_UNITS and code[word.start - 1 : word.start] != "-"


def time_scale(unit: str) -> str | None:
    """The scale of a unit of time ("seconds" → "s", "hrs" → "h"), or None; "m" is none
    (a metre as much as a minute)."""
    scale = _scale(unit) if unit.lower() != "m" else None
    return scale if scale in _TIME_SCALES else None


def rate_counted(ask: ValueAsk, value: Value) -> bool:
    """Does a request that counts a noun per unit of time ("how many requests per second
    …?", "how many calls per minute …?") ask ``value``, a rate per that very unit ("1850
    requests per second")? The gate converts none: "7200 per hour" is no answer to "per
    minute"."""
    if value.kind is not Kind.RATE or not ask.counted:
        return False
    words = ask.text_words
    per = next(
        (
            words[k + 2]
            for k in range(len(words) - 2)
            if lemma(words[k]) == ask.noun and words[k + 1] == "per"
        ),
        None,
    )
    said = _PER_UNIT.search(value.text.lower())
    scale = _scale(per) if per is not None else None
    return scale in _TIME_SCALES and said is not None and _scale(said.group(1)) == scale


# The unit of time a rate is said per: "1850 requests per second", "40 msgs/sec".
_PER_UNIT = re.compile(r"(?:\bper\s+|\ban?\s+|/\s*)([a-z]+)\s*$")


def _head(code: str, words: Sequence[Token]) -> str:
    """The head of the noun phrase ``words`` open: its last word before a preposition, a
    verb or a comma ("route 10 punctuality for November" → "punctuality")."""
    head = ""
    for k, w in enumerate(words):
        if w.text in NP_STOP or w.text in _TERSE_PREPOSITIONS or (k and past(w)):
            break
        if w.text.isalpha() and w.text not in STOP:
            head = w.lemma
        if code[w.end : w.end + 1] == ",":
            break
    return head


def _at(words: Sequence[Token], lemma: str) -> int:
    """Where the last word of ``lemma`` stands in ``words`` (0 when none does)."""
    return next((k for k in range(len(words) - 1, -1, -1) if words[k].lemma == lemma), 0)


# Asked nouns whose kind the word before them decides: the noun and kinds it asks then.
_SHARES = word_set(
    """error failure success refund retention hit miss churn conversion bounce click open pass
    drop loss crash abandonment cancellation return adoption positive negative utilisation
    utilization cache"""
)
_FLOWS = word_set(
    """request req message msg event ingest ingestion send write read publish arrival order
    call query transaction job poll polling refresh frame packet throughput"""
)
_BITS = word_set("bit data downlink uplink download upload link line symbol transfer baud")
# A statistic over many times ("the p95 report time", "average arrival time"): of durations.
_STATISTIC = re.compile(
    r"\b(?:p\d+|\d+(?:st|nd|rd|th) percentile|percentile|median|average|mean)\b"
)
# Events whose "time" is a time of day ("report time 05:25"), not a duration — never one
# whose time may be how long it took ("cold start time", "delivery time", "landing time")
_EVENTS = word_set(
    """report departure arrival closing opening cutover boarding meeting handover kickoff
    sunrise sunset"""
)
_KIND_BY_MODIFIER: dict[str, dict[str, tuple[str, tuple[Kind, ...]]]] = {
    "rate": {
        **{w: ("rate", (Kind.PERCENT,)) for w in _SHARES},
        **{w: ("rate", (Kind.RATE,)) for w in _FLOWS},
        # "bit rate", "downlink rate": bits a second ("64 kbps")
        **{w: ("rate", (Kind.BITRATE,)) for w in _BITS},
    },
    "address": {w: ("email", (Kind.EMAIL,)) for w in ("email", "e-mail", "mail")},
    # "the public DNS name", "its host name": a host's name is a host
    "name": {w: ("host", NOUN_KINDS["host"]) for w in ("dns", "host", "domain")},
    "schedule": {w: ("cron", (Kind.CRON,)) for w in ("cron", "crontab")},
    # "the report time", "departure time", "cutover time": the time of day an event is at,
    # never how long something takes ("build time", "response time" stay durations)
    "time": {w: ("time", (Kind.TIME,)) for w in _EVENTS},
    # "the version number", "which release number", "the port number": a number named by a
    # noun of a kind of value is a value of that kind
    "number": {
        w: (w, kinds)
        for w, kinds in NOUN_KINDS.items()
        if kinds[0] in (Kind.VERSION, Kind.PORT, Kind.COMMIT)
    },
    # "the commit id", "which release id": an id named by a kind's noun is of that kind too
    "id": {
        w: (w, kinds) for w, kinds in NOUN_KINDS.items() if kinds[0] in (Kind.VERSION, Kind.COMMIT)
    },
}
# "instance type", "machine type", "VM size", "node class": a cloud's machine type
_MACHINES = word_set("instance machine vm node server host")
_MACHINE_ASKED = re.compile(
    r"\b(instance|machine|vm|node|server|host)s?\s+(type|size|class|family|shape|flavou?r|sku)s?\b"
)


# What joins two asked things in one request ("host and port", "host & port", "host:port").
_JOINS = word_set("and plus")
_JOIN_MARKS = ("&", "+", ":")
# Two asked things a row writes as one value ("mm-staging.internal:7450"): the whole
# answers both.
_ONE_VALUE = ((word_set("host hostname server machine box domain ip address"), word_set("port")),)


def _two_asked(code: str, words: Sequence[Token]) -> tuple[str, ...]:
    """The two things a request's noun phrase joins ("which host and port", "p50 and p99
    latency?", "region & zone of …", "host:port"): the word before the join and the asked
    noun after it. Empty when it asks one thing."""
    phrase: list[Token] = []
    for w in words:
        if w.text in NP_STOP and not phrase:
            continue  # "what's the host:port": its article
        if w.text in NP_STOP or (phrase and w.text in _TERSE_PREPOSITIONS):
            break
        phrase.append(w)
    for k in range(1, len(phrase)):
        left = phrase[k - 1]
        if phrase[k].text in _JOINS:
            after = phrase[k + 1 :]
        elif code[left.end : phrase[k].start].strip() in _JOIN_MARKS:
            after = phrase[k:]
        else:
            continue
        asked = next((w for w in after if w.lemma in NOUN_KINDS), None)
        if asked is not None and left.text not in STOP and left.lemma != asked.lemma:
            return left.lemma, asked.lemma
    return ()


def one_value(pair: tuple[str, ...]) -> bool:
    """Is what a request asks two things of one value a row writes whole ("host and port")?"""
    first, second = pair
    return any(first in a and second in b for a, b in _ONE_VALUE)


def both_given(ask: ValueAsk, value: Value) -> bool:
    """Does a value answer all a request asks: for a request of two things, the whole that
    gives both ("mm.internal:7450" for "host and port", never "7450")?"""
    if not ask.pair:
        return True
    parts = [v.kind for v in values_in(value.text)]
    return one_value(ask.pair) and any(parts == [one, two] for one, _, two in WHOLES)


# A partitive put first: "of the TODOs someone counted, how many are FIXMEs?" asks "how many
# of the TODOs someone counted are FIXMEs?".
_FRONTED_PART = re.compile(
    r"^\s*of\s+((?:the|these|those|all|our|its)\s+[^,;]{1,60}),\s*(how many|how much)\s+(.*)$"
)


# A count of a part of a whole said with its verb: "how many of the scripts passed?" counts
# the scripts that passed — "how many scripts passed?", the number bound to that verb ("181
# passed"), never the whole ("184 test scripts"). A part named by a state ("how many of the
# packages are critical?") is read as it stands.
_PARTITIVE = re.compile(r"\bhow many of (?:the|these|those|its|their|our|all the|all)\s+")
_PART_BY_STATE = re.compile(r"\b(?:are|were|is|was)\s+[\w-]+\s*[?!.]*\s*$")


def _partitive_counted(said: str) -> str:
    """``said`` with a partitive count said by its verb read as a count of the noun."""
    m = _PARTITIVE.search(said)
    if m is None or _PART_BY_STATE.search(said, m.end()):
        return said
    return f"{said[: m.start()]}how many {said[m.end() :]}"


# A courtesy that ends a request ("hostname of the staging Orthanc pls"): the request is the
# phrase before it, asked as a question.
# (an emoji after it is read as a comma: "… build pls 🙏")
_COURTESY_END = re.compile(r"[\s,]+(?:pls|plz|please|thanks|thx|ty)[\s,?!.]*$")


# Someone else's asking reported in the third person, opening the sentence ("QA asks which
# build …", "the vendor asked what port …"): the question it reports is the one asked, about
# what it names — never the asker's own "should I ask which …", which asks leave to ask.
_REPORTED = re.compile(
    r"^(?!(?:i|we)\b)[\w .'-]{1,40}?\b"
    r"(?:asks|asked|wonders|wondered|wants to know|wanted to know)\s+"
    r"(?=(?:which|what|whats|where|when|who|how)\b)"
)


# "`targetSdkVersion` is what now?", "In release/7.14, the SDK level is what?": "what" in
# situ after the verb asks what "what is …?" asks; a fronted place goes after the phrase.
_IN_SITU = re.compile(
    r"^(?:(?P<front>[^,]{1,60}),\s*)?(?P<np>[^,]{1,80}?)\s+(?P<be>is|are|was|were)\s+what"
    r"(?:\s+(?:now|then|exactly|again|currently))?\s*\?+\s*$"
)


def _in_situ(said: str) -> str:
    """``said`` with a "what" in situ ("X is what now?") put first ("what is X?")."""
    m = _IN_SITU.match(said)
    if m is None:
        return said
    front, np, be = m.group("front"), m.group("np"), m.group("be")
    if front is None:
        return f"what {be} {np}?"
    if front.split(" ", 1)[0] in _CLAUSE_PREPOSITIONS:
        return f"what {be} {np} {front}?"  # "in release/7.14, X is what?"
    return f"{front}, what {be} {np}?"


# A noun's number abbreviated ("ticket no.", "approval nr.", "case num."), its dot read as a
# sentence's end: the sentence before is the noun the asking one goes on from ("ticket no.
# for the carlisle flood claims pls" asks the ticket's number, its id: "CLM-77310"). Never
# "no." said alone ("No. Which port …?") nor after a word of grammar or asking ("just say
# no.").
_NUMBER_ABBREVIATED = re.compile(
    r"^(?P<noun>(?:[\w-]+\s+){0,3}(?P<last>[a-z][\w-]*))\s+(?:no|nr|num)\.$"
)


def _numbered(shape: Shape, sentence: Sentence) -> str:
    """The asking sentence, with the sentence before it prefixed where that one is a noun and
    its number abbreviated (``_NUMBER_ABBREVIATED``), as its id: "ticket id for the … ?"."""
    n = shape.sentences.index(sentence)
    if n == 0:
        return sentence.text
    before = _NUMBER_ABBREVIATED.match(shape.sentences[n - 1].text.strip())
    if before is None:
        return sentence.text
    last = before["last"]
    if last in STOP or last in VERBISH or lemma(last) in ASKING:
        return sentence.text  # "just say no.": no noun numbered
    return f"{before['noun']} id {sentence.text}"


# A need stated after the asking clause, naming the kind of value wanted ("Who owns the
# catalogue? I need her email.", "who is on call, I need their email to cc", "Which van did
# they take? the tracker wants the id"): its noun, up to two words past the determiner.
_LATER_NEED = re.compile(
    r"\b(?:need|needs|want|wants|send|give|get|paste)\s+(?:me\s+|us\s+)?(?:just\s+|only\s+)?"
    r"(?:her|his|their|the|an?|its)\s+([a-z][\w-]*)(?:\s+([a-z][\w-]*))?"
)
# A clause's end inside the asking sentence: a need after it is a later clause of its own
_CLAUSE_BREAK = re.compile(r"[,;:]|\s[-\u2013\u2014]+\s|[\u2013\u2014]")


def _later_kind(shape: Shape, sentence: Sentence, ask: ValueAsk) -> ValueAsk:
    """``ask`` narrowed to the kind of value a later clause says it wants, where the asking
    clause named none but a person ("who", "the owner"), or a thing by a noun that names no
    kind of value ("which vehicle"). "Who owns the catalogue? I need her email." asks her email;
    "Just the name." keeps the person."""
    person = ask.kinds[:1] == (Kind.PERSON,)
    if not person and ask.kinds != GENERIC:
        return ask
    at = shape.text.find(sentence.text)
    brk = _CLAUSE_BREAK.search(sentence.text)
    if at < 0:
        return ask
    later = shape.text[at + (brk.end() if brk else len(sentence.text)) :]
    for m in _LATER_NEED.finditer(later):
        # the phrase's head: its second word where that names a kind ("its site code", "the
        # player id"), else its first ("the IP for …", "their email to cc")
        second = lemma(m.group(2)) if m.group(2) else ""
        noun = second if second in NOUN_KINDS else lemma(m.group(1))
        kinds = NOUN_KINDS.get(noun, ())
        if not kinds or Kind.PERSON in kinds or noun in ("name", "number"):
            continue
        if person and noun == "address":
            kinds = (Kind.EMAIL,)  # a person's address to write to
        return replace(
            ask,
            noun=noun,
            kinds=kinds,
            # "who is on call, I need their email": the noun wanted is no word of the thing
            subject=tuple(t for t in ask.subject if t != root(noun)),
            cues=ask.cues | {root(noun)},
            cue_stems=ask.cue_stems | {stem(noun)},
        )
    return ask


# The kind nouns a setting's code name may end in ("targetSdkVersion", "cueListId",
# "pressProfileNumber"), which a row may leave off ("targetSdk bumped to 34").
_CODE_NAME_TAILS = ("version", "id", "number")


def code_name_head(noun: str) -> str:
    """The head of a code name glued to a kind noun ("targetsdkversion" → "targetsdk"): no
    word of the dictionary ("conversion", "rapid"), its head of three letters or more and a
    code name itself — a plain word ("firmwareversion": "firmware") names too much to read a
    value by alone. "" for any other noun."""
    if not noun.isalpha() or known(noun):
        return ""
    for tail in _CODE_NAME_TAILS:
        head = noun.removesuffix(tail)
        if head != noun and len(head) >= 3 and not known(head):
            return head
    return ""


# A terse "<thing> number of …?" ("lot number of the Tuesday cheddar?", "run id of the proof
# test?", "work order number for the roller swap?"): the thing's own number or id, asked as
# "what is the lot number of …?" asks it — never a count of what follows "of" ("number of
# open issues?", "total number of …", with no thing before the noun).
_THING_NUMBERED = re.compile(
    r"^(?:the\s+)?(?P<np>(?:[a-z][\w-]*\s+){1,3}(?:number|id|no|nr))"
    r"\s+(?P<rest>(?:of|for|on|in)\s[^?]*\?+)\s*$"
)
_NOT_A_THING = word_set("total count average max min maximum minimum overall")


def _thing_numbered(said: str) -> str:
    """``said`` with a terse "<thing> number of …?" put as "what is the <thing> number
    of …?" (``_THING_NUMBERED``)."""
    m = _THING_NUMBERED.match(said)
    if m is None:
        return said
    words = m["np"].split()
    if any(w in STOP or w in _NOT_A_THING for w in words[:-1]):
        return said  # "what number of …", "total number of …": a count
    if words[0] in VERBISH and len(words) > 2:
        return said  # "run the number of …": a step; "run id of …" names the run's id
    return f"what is the {m['np']} {m['rest']}"


def names_a_number(said: str) -> bool:
    """Is ``said`` a terse "<thing> number / id of …?" (``_THING_NUMBERED``): a noun
    phrase, though its first word may be a verb ("run id of the proof test?", "work order
    number for …?")?"""
    return _thing_numbered(said) != said


# A request that names nothing but the member whose word it asks ("what did dairybot
# report?", "what number did uptime-reporter get?"), after a need or a topic put first and
# a dash, a comma or a colon: what is asked is what the need or the topic names, of that
# member's rows (``picking.sources_of`` reads the member's name in the question, and a name
# no member of the rows has leaves it unanswered).
VAGUE_REPORT = re.compile(
    r"(?:\s[-\u2013\u2014]+|[,:;])\s*(?:so\s+)?what\s+(?:(?:number|value|figure|result)\s+)?"
    r"(?:did|does|has|have)\s+(?:the\s+)?"
    r"(?P<who>[a-z][a-z0-9]*(?:er|or|bot|agent)(?:-[a-z0-9]+)*|[a-z][a-z0-9]*-[a-z0-9-]+)\s+"
    r"(?:report|reported|say|said|find|found|measure|measured|see|seen|get|got|record|log|note|show)"
    r"\s*\?+\s*$"
)


# The asker's own document a need is for, ending it ("I need the region for the terraform
# variable", "… for the ticket"): where the value goes, never what it is of.
_PURPOSE = re.compile(
    r"\s+for\s+(?:the|my|our|a|an|this)\s+(?:[\w-]+\s+){0,2}"
    r"(?:ticket|variable|runbook|doc|docs|notes?|form|comment|calendar|rota|record|log|"
    r"spreadsheet|sheet|template|changelog|pr|description|briefing|audit)\s*$"
)


def _vague_report(sentence: Sentence) -> ValueAsk | None:
    """The request a vague "what did <member> report?" makes of the need or the topic
    before it ("I need the cold room temperature — what did dairybot report?": the cold
    room's temperature), where that names a kind of value; None otherwise."""
    m = VAGUE_REPORT.search(sentence.text)
    if m is None:
        return None
    topic = _PURPOSE.sub("", sentence.text[: m.start()].strip())
    if not topic or topic.endswith("?"):
        return None
    ask = _value_ask(f"{topic}?", pointed=True)
    if ask is None or ask.kinds == GENERIC:
        return None  # the topic names no kind of value: nothing says what was asked
    return ask


def value_ask(shape: Shape) -> ValueAsk | None:
    """The value the asking sentence requests, if it requests one."""
    for sentence in reversed(shape.asking):
        fronted = _FRONTED_PART.match(sentence.text)
        said = _in_situ(_COURTESY_END.sub("?", _REPORTED.sub("", _numbered(shape, sentence))))
        if fronted:
            whole, how, rest = fronted.groups()
            said = f"{how} of {whole} {rest}"
        said = _thing_numbered(_partitive_counted(said))
        ask = _vague_report(sentence) or _value_ask(said)
        if ask is None:
            ask = _pointed_ask(shape, sentence)
        if ask is not None and _names_nothing(said, ask):
            ask = _pointed_back(shape, sentence, said, ask)
        if ask is not None:
            return replace(_later_kind(shape, sentence, ask), question=shape.text)
    return None


# A tag that makes a statement a yes/no question ("the engine came back, right?"): the
# statement stands as said.
_TAG = re.compile(r"[\s,]+(?:right|yes|no|correct|yeah|yep|ok|okay)\s*\?+\s*$")
# The words that join two things: a statement naming two ("staging and prod were both
# restarted") gives a pronoun after it no one thing to stand for.
_TWO_THINGS = word_set("and or both either nor each all")
_NEEDING = word_set("need needs needed want wants wanted require requires")
_DETERMINERS = word_set("the a an this that these those our your my its their")
_QUESTION_WORDS = word_set("which what whats where when who whose how why")
# A verb that takes no object ("is", "came back", "went down", "restarted"): what its
# subject is said to be or to have done is no second thing a pronoun could stand for.
_HELPING = word_set("is are was were has have had does did do will would can could may might")
_PARTICLES = word_set("back up down out over online offline again away")


def _thing_said_of(words: Sequence[Token]) -> tuple[int, int] | None:
    """Where the subject of the statement ``words`` is (its first word and the one past its
    last), where that subject is one thing its verb takes no object after ("the staging
    Redis *is* not on 6379", "the booking engine *came back* after the restart"); None where
    the statement is the asker's ("I", "my"), a need, names two things, or its verb acts on
    another thing ("SMA recommended some firmware": which is "it"?)."""
    if any(w.text in _TWO_THINGS or w.text in _NEEDING or w.text in _ASKER for w in words):
        return None
    start = 0
    while start < len(words) and words[start].text in _DETERMINERS:
        start += 1
    end = start
    while end < len(words) and not (
        words[end].text in NP_STOP
        or words[end].text in _HELPING
        or (past(words[end]) and words[end].text not in NOUN_VERBS)
        or words[end].text in _MORE_PREPOSITIONS
    ):
        end += 1
    if not 0 < end - start <= 5 or end == len(words):
        return None
    verb, after = words[end], words[end + 1 : end + 2]
    if verb.text in _HELPING:
        return start, end
    if past(verb) and (not after or after[0].text in _PARTICLES):
        return start, end
    return None


def _thing_before(code: str, words: Sequence[Token], at: int) -> tuple[int, int] | None:
    """The subject of the statement a comma, a dash or a colon ends just before the clause
    opening at ``at`` (``_thing_said_of``), as indices into ``words``."""
    if at < 2 or code[words[at - 1].end : words[at].start].strip() not in _TOPIC_ENDS:
        return None
    said_from = max(
        (
            k
            for k in range(1, at)
            if re.search(r"[,;:\u2013\u2014]|-\s", code[words[k - 1].end : words[k].start])
        ),
        default=0,
    )
    thing = _thing_said_of(words[said_from:at])
    return None if thing is None else (said_from + thing[0], said_from + thing[1])


def _points_back(words: Sequence[Token]) -> bool:
    """Does a pronoun in ``words`` stand for what the asked value is of: a possessive ("what's
    its size?") or the subject a helping verb asks of ("which port is it on?", "where are
    they?") — never one the asker acts on ("what do I tell them?")?"""
    return any(
        w.text in ("its", "their")
        or _asked_of_pronoun(words, k)
        or (  # "which port does *that one* use?"
            w.text in ("that", "this")
            and words[k + 1 : k + 2] != ()
            and words[k + 1].text == "one"
            and k > 0
            and words[k - 1].text in _HELPING
        )
        for k, w in enumerate(words)
    )


def _asked_of_pronoun(words: Sequence[Token], k: int) -> bool:
    """Is ``words[k]`` the subject pronoun a helping verb asks of ("which port is *it* on?",
    "when does *it* start?", "where are *they*?")?"""
    return words[k].text in ("it", "they") and k > 0 and words[k - 1].text in _HELPING


def _antecedent(said: str) -> str | None:
    """The one noun phrase a statement names that a pronoun in the next sentence stands for:
    its subject where that is one thing (``_thing_said_of``), or the thing the asker needs or
    acts on where the subject is the asker ("I need to query the production historian", "my
    test needs the staging database") — up to its first preposition or verb. None where the
    statement is a question, names two things, or no noun phrase."""
    text = _TAG.sub("", said).strip().rstrip(" .!")
    if not text or text.endswith("?"):
        return None
    clause = re.split(r"\s[-\u2013\u2014]+\s|[;:]", text)[-1]
    words = kind_tokens(clause)
    if not words or words[0].text in _QUESTION_WORDS or any(w.text in _TWO_THINGS for w in words):
        return None
    thing = _thing_said_of(words)
    if thing is not None:
        return clause[words[thing[0]].start : words[thing[1] - 1].end]
    needing = next((k for k, w in enumerate(words) if w.text in _NEEDING), None)
    if words[0].text not in _ASKER and needing is None:
        return None
    # the asker's own doing: the thing it acts on, after the last determiner
    opens = [k for k in range(needing or 0, len(words)) if words[k].text in _DETERMINERS]
    if not opens:
        return None
    start = opens[-1] + 1
    end = next(
        (
            k
            for k in range(start, len(words))
            if words[k].text in NP_STOP or words[k].text in _MORE_PREPOSITIONS or past(words[k])
        ),
        len(words),
    )
    phrase = words[start:end]
    if not phrase or len(phrase) > 5:
        return None
    return clause[phrase[0].start : phrase[-1].end]


def _names_nothing(said: str, ask: ValueAsk) -> bool:
    """Does the asking sentence name nothing its value is of: no subject at all, or only
    the words after the pronoun it points back with, which say what the thing does, not
    what it is ("when does it start?": "start" is no thing)?"""
    if not ask.subject:
        return True
    words = tokens(said)
    pointing = next((k for k in range(len(words)) if _asked_of_pronoun(words, k)), None)
    if pointing is None:
        return False
    after = words[pointing + 1 :]
    return set(ask.subject) <= {root(w.lemma) for w in after} | {w.text for w in after}


def _pointed_back(shape: Shape, sentence: Sentence, said: str, ask: ValueAsk) -> ValueAsk:
    """``ask``, read of what a pronoun in it stands for where the asking sentence names
    nothing it is about and the statement before names one thing ("I need to query the
    production historian. Which port does it listen on?": the historian's port)."""
    n = shape.sentences.index(sentence)
    if n == 0 or not _points_back(tokens(said)):
        return ask
    named = _antecedent(shape.sentences[n - 1].text)
    if named is None:
        return ask
    read = _value_ask(f"{named} - {said}")
    if read is None or read.noun != ask.noun or read.kinds != ask.kinds or not read.subject:
        return ask
    return read


# Nouns of a physical measure the reader knows no unit of ("wave height", "wind speed",
# "river level"): a quantity, whatever its unit — never a moment, nor how long something took.
_QUANTITIES = word_set(
    "height length width depth thickness speed velocity distance altitude elevation level "
    "weight mass visibility gust rainfall snowfall"
)
_NO_QUANTITY = frozenset({Kind.DATE, Kind.TIME, Kind.DURATION})
# A day named by a word ("Tuesday", "yesterday"): a moment too, whatever kind it is read as.
_DAY_NAME = re.compile(
    r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\.?|today|yesterday|tomorrow"
)


def moment_for_a_measure(ask: ValueAsk, value: Value) -> bool:
    """Is ``value`` a date, a time or a duration given for a request whose noun is a measure
    ("what was buoy 62149's last wave height?" of "stopped on Tuesday 14 May")? When it
    happened or how long it took is no quantity of the thing. A question asking the moment
    itself ("when did the level drop?") asks by another noun, and is left as it is. A day
    named by a word ("Tuesday") is a moment as much as "14 May"."""
    if ask.noun not in _QUANTITIES:
        return False
    return value.kind in _NO_QUANTITY or _DAY_NAME.fullmatch(value.text.lower()) is not None


# A request that names nothing but points back ("What is it?", "what was measured?", "which
# one is that?"): what it asks is the phrase said just before it.
_POINTING = re.compile(
    r"(?:^|(?:\s[-\u2013\u2014]+|:)\s*)(?:so\s+)?(?:what|which one)\s*(?:'s|is|was|are|were)\s+"
    r"(?:(?:it|that|this|they)(?:\s+(?:now|then|exactly|currently|today|right now|at the moment"
    r"|these days|so far|at present))?|(?:it\s+)?(?:measured|found|"
    r"recorded|reported|seen|observed|logged|set\s+to|configured))\s*\?+\s*$"
)


def _pointed_ask(shape: Shape, sentence: Sentence) -> ValueAsk | None:
    """A request pointing back at the phrase before it ("My smoke test needs the base URL of
    the staging planner. What is it?", "Median delay from ping to publish -- what was
    measured?"), read as that phrase asked: a need stated, or a noun phrase naming a
    value."""
    pointing = _POINTING.search(sentence.text)
    if pointing is None:
        return None
    topic = sentence.text[: pointing.start()].strip()
    if not topic:
        n = shape.sentences.index(sentence)
        if n == 0:
            return None
        topic = shape.sentences[n - 1].text.rstrip(" .!")
    if not topic or topic.endswith("?"):
        return None
    return _value_ask(f"{topic}?", pointed=True)


_AUXILIARIES = word_set("do does did is are was were will would can could should shall may")
# Where a verbless phrase's noun phrase ends: a word of time ("Madrid ADR last week?"), a
# courtesy ("… pls"), or a pronoun opening a clause of its own ("the lowest level we support").
_PHRASE_ENDS = word_set(
    """last this next previous yesterday today tonight tomorrow pls plz please i we you they
    he she onto into monday tuesday wednesday thursday friday saturday sunday"""
)
# A statistic naming how a measure is summed up ("average check", "turnaround avg"): the
# noun beside it is what is measured, an act's noun as much as any ("the average check").
_SUMMING = word_set("average avg mean median typical max min maximum minimum peak")
_GRAMMAR = STOP - _PHRASE_ENDS - _SUMMING
# Words saying a state a thing is in ("staging healthy?", "tests green?", "disk full?"): a
# phrase ending in one asks whether, never for a value.
_STATE_WORDS = word_set(
    """healthy unhealthy green red yellow amber ready done up down live stable unstable flaky
    broken fine good bad ok okay clean dirty full empty safe stale idle busy open closed free
    online offline active inactive complete valid invalid correct right wrong same different
    fixed ready set fast slow high low late early on off back over through there alive dead
    new old fresh current pending blocked"""
)
_STATE_ENDS = ("able", "ible", "ful", "less", "ous", "ish")
# "Markdown or HTML?" offers a choice; "Grafana's on 3300, yes?" checks what it says.
_CHOICE_OR_TAG = word_set("or and nor yes no yeah yep right correct")
_COURTESIES = word_set("please pls plz kindly bitte")


def _act(word: Token, acts: frozenset[str]) -> bool:
    """Is ``word`` a verb of a step or an act the careful judgement knows ("send", "sync")?"""
    return word.lemma in acts or word.text in acts or word.lemma in ACTS_BY_FIRST


_OBJECT_OPENERS = word_set("the a an my our your his her their this that these those it them")
_QUESTION_WORDS = word_set("what which whats where when who whom whose how why")


def _phrase_head(words: Sequence[Token], acts: frozenset[str]) -> Token | None:
    """The head of a verbless noun phrase asked with no question word ("refresh token
    lifetime?", "firmware of the controller?", "Madrid ADR last week?"): its last word before
    its first preposition, word of time or clause of its own, a statistic after it aside
    ("turnaround avg"). None where the phrase is one word ("Coffee?"), says a verb (a form of
    one, an auxiliary), or its head names an act ("prod deploy tonight?", "quick sync?") that
    no statistic makes a measure of: a go-ahead, never a request for a value."""
    if not words:
        return None  # "/?": no word, no phrase
    end = next(
        (
            k
            for k, w in enumerate(words)
            if k
            and (
                w.text in _TERSE_PREPOSITIONS
                or w.text in _MORE_PREPOSITIONS
                or w.text in _PHRASE_ENDS
                or w.lemma in _PHRASE_ENDS
            )
        ),
        len(words),
    )
    phrase = [w for w in words[:end] if w.text not in _GRAMMAR]
    if (
        any(w.text in _CHOICE_OR_TAG for w in words)
        or words[0].text in _COURTESIES
        or (len(words) > 1 and (words[1].text in _OBJECT_OPENERS or _act(words[0], acts)))
    ):
        # "Markdown or HTML?": a choice; "authorise the charge?", "send INC-4 to the CAA?",
        # "please rotate it?": a verb and its object, a step asked
        return None
    if any(
        w.text in VERBISH or w.text in _AUXILIARIES or w.text in _QUESTION_WORDS or past(w)
        for w in words[:end]
    ):
        return None
    content = [w for w in phrase if w.text not in _SUMMING]
    named = [w for w in words if w.text not in _GRAMMAR and w.text not in _PHRASE_ENDS]
    if len(named) < 2 or not content or not content[-1].text.isalpha():
        return None  # "flash firmware 4.12.3 onto …": a value the phrase names, not asks
    head = content[-1]
    if head.lemma == "time":
        return None  # "LOS time for the pass?": a moment or how long, the phrase says not which
    if head.text in _STATE_WORDS or head.text.endswith(_STATE_ENDS):
        return None  # "staging healthy now?": a yes or no about a state, no value's noun
    summed = any(w.text in _SUMMING for w in phrase)
    if head.text.endswith("ing") or (not summed and (_act(head, acts) or head.lemma in NOUN_VERBS)):
        return None
    return head


_TERSE_PREPOSITIONS = word_set("of in on for at from to under with behind inside")
_COUNTS = ("count", "number", "total")


def verb_form(word: Token) -> bool:
    """Is ``word`` a verb's inflected form ("owns", "keeps", "failed"), not a noun of a
    kind of value ("numbers", "files")?"""
    if word.lemma in NOUN_KINDS or word.lemma == word.text:
        return False
    return past(word) or (word.text.endswith("s") and not word.text.endswith("ss"))


def _verb_of_phrase(word: Token, after: Sequence[Token]) -> bool:
    """Is ``word`` a verb in its present form ending a noun phrase of two words or more, an
    article after it opening its object ("which TrackWise record *covers* the seal", "which
    feature flag *gates* the new maps"): the phrase's head is the word before it."""
    return verb_form(word) and not past(word) and bool(after) and after[0].text in _ARTICLES


def past(word: Token) -> bool:
    return word.text in IRREGULAR_PAST or (word.text.endswith("ed") and word.text != word.lemma)


def _noun_goes_on(word: Token, after: Token) -> bool:
    """Does the noun phrase go on past ``word`` to ``after`` ("lint errors"), rather than end
    at a verb or a preposition ("pods restarted", "errors did", "tables in")?"""
    return not (past(after) or after.text in NP_STOP or after.text in _MORE_PREPOSITIONS)


MOMENT = re.compile(r"\s*(?:ago|back|earlier)\b")
_MORE_PREPOSITIONS = word_set(
    "during since until after before across over under per without within via than"
)


def _glued_runs(code: str, words: Sequence[Word]) -> list[str]:
    """The names glued from words by dots, slashes, colons or underscores, or by dashes
    with a digit in them ("api.acme.io", "eu-west-1"), as written."""
    runs: list[str] = []
    start = None
    for i, w in enumerate(words):
        glued_next = i + 1 < len(words) and (w.dash_next or (w.ident and words[i + 1].ident))
        glued_next = glued_next and words[i + 1].start - w.end <= 1
        if start is None:
            start = w.start
        if not glued_next:
            run = code[start : w.end]
            if start != w.start and re.search(r"\d|[._/:]", run):
                runs.append(run)
            start = None
    return runs


# Verbs a row states a value of the noun with ("listening on 8443", "returned 503").
_STATED_BY = {
    "port": ("listen", "bind", "serve", "answer", "expose"),
    "status": ("return", "give", "respond", "answer"),
    "code": ("return", "give", "respond", "answer"),
    # an event's noun by its verb: "expires on 2027-03-31", "departs at 07:45", "due 12-10"
    "expiry": ("expire",),
    "departure": ("depart",),
    "arrival": ("arrive",),
    "deadline": ("due",),
}
_DO_AUX = word_set("did does do will would can could should has have had")
# Asking words that are nouns too, in their base form ("the TTL on the A record").
_ARTICLES = word_set("the a an our your its their my his her")
_NOUNABLE = word_set("record report log note count point peak hit run")


def search_terms(
    ask: ValueAsk, member_words: Sequence[str] = (), *, written: str = ""
) -> tuple[str, ...]:
    """The terms to retrieve candidate rows with, any of which may match, best first, at most
    ``MAX_TERMS``: the names the question writes whole, wherever it writes them ("INC-2291
    -- what time was it closed?", "feed_info's feed_version"), what the request is about
    and the slugs of the members whose role it names (``member_words``: "the scan" names
    the probe, whose rows the store finds by its slug), the asked noun and its synonyms of
    the kind it asks ("sha": "revision"), the thesaurus's neighbours of what it is about,
    the request's other words, and the words a row may write as one (``compounds``). A term
    is words only, one or several (a phrase on both engines); ``written`` is the question
    as asked, its case kept, for the names written in camel case."""
    terms: list[str] = []

    def add(word: str) -> None:
        if _TERM.fullmatch(word) and word not in terms and word not in STOP:
            terms.append(word)

    for name in _names(ask.question):
        add(name)
    about = [w for w in ask.words if root(w) in ask.subject or w in ask.subject]
    for word in (*about, *member_words):
        add(word)
    if ask.noun != "value":
        add(ask.noun)
    for word in synonyms(ask.noun, ask.kinds):
        add(word)
    for word in about:
        for n in group_of().get(root(word), ()):
            for other in GROUP_WORDS[n]:
                add(other)
    for word in ask.words:
        add(word)
    for word in compounds([w if lemma(w) in about else "" for w in ask.text_words], written):
        add(word)
    return tuple(terms[:MAX_TERMS])


# A term: a word, or words joined by spaces or by what glues a name ("inc-2291", "feed_info",
# "api.acme.io"), which both engines read as a phrase.
_TERM = re.compile(r"[a-z0-9]+(?:[ ._/:-][a-z0-9]+)*")
MAX_TERMS = 24
# A name glued from words by dashes, dots, underscores, slashes or colons, with a digit or
# an underscore, a dot, a slash or a colon in it ("inc-2291", "feed_version", "eu-west-1");
# a hyphenated phrase of plain words ("read-only") is its words.
_NAME = re.compile(r"(?<![\w.-])[a-z0-9]+(?:[._/:-]+[a-z0-9]+)+")


def _names(code: str) -> list[str]:
    """The names the question writes whole, as one term each: a row must say them whole."""
    return [
        m.group(0)
        for m in _NAME.finditer(code)
        if re.search(r"\d|[._/:]", m.group(0)) and not m.group(0).startswith(("http", "www"))
    ]


def synonyms(noun: str, kinds: Sequence[Kind]) -> list[str]:
    """The asked noun's thesaurus neighbours that ask for the kind of value it asks first
    ("sha": commit, hash, revision; "version": release, tag), and the verbs a row states
    its value with ("port": listening on)."""
    found: list[str] = []
    for n in group_of().get(root(noun), ()):
        found += [w for w in GROUP_WORDS[n] if NOUN_KINDS.get(w, ())[:1] == tuple(kinds[:1])]
    return [w for w in (*found, *_STATED_BY.get(noun, ())) if w != noun]


_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def compounds(words: Sequence[str], written: str = "") -> list[str]:
    """The words a row may write as one where the question writes them apart, or the other
    way round: two words of ``words`` side by side (the others blank) joined ("vehicle
    positions" as "VehiclePositions"), and a name the question writes in camel case taken
    apart and by its initials ("OpenTripPlanner": "open trip planner", "otp")."""
    # as written: each engine stems the joined word as it stems the row's ("positions")
    found = [
        left + right
        for left, right in itertools.pairwise(words)
        if left.isalpha() and right.isalpha()
    ]
    for camel in re.findall(r"\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b", written):
        parts = [p.lower() for p in _CAMEL.findall(camel)]
        if len(parts) >= 2:
            found.append(" ".join(parts))
        if len(parts) >= 3:
            found.append("".join(p[0] for p in parts))
    return found


# Values the row states whole across two of the reader's values: a moment (a date and its
# time of day: "2026-12-05 03:12 UTC") and an address (a host with its port:
# "sftp.example:2222"); and the nouns that ask for one part alone.
WHOLES = (
    (Kind.DATE, re.compile(r"\s+(?:at\s+)?|T"), Kind.TIME),
    (Kind.HOST, re.compile(":"), Kind.PORT),
    (Kind.IP, re.compile(":"), Kind.PORT),
)
PART_NOUNS = {
    Kind.DATE: word_set("date day"),
    Kind.TIME: word_set("time"),
    Kind.HOST: word_set("host hostname server machine box domain"),
    Kind.IP: word_set("ip"),
    Kind.PORT: word_set("port"),
}


def named_kinds(words: Sequence[Token]) -> tuple[Kind, ...]:
    """The kinds the question's own nouns name ("hostname" a host, "version" a version), in
    order; none when it names no kind. A question read loosely still asks what its nouns
    say: a version is no answer to "hostname of the staging box?"."""
    kinds: dict[Kind, None] = {}
    for t in words:
        if t.lemma in NOUN_KINDS and t.lemma not in LOOSE_NOUNS:
            kinds.update(dict.fromkeys(NOUN_KINDS[t.lemma]))
    return tuple(kinds)


# Nouns too general to say what kind of value is asked ("the day", "the result").
LOOSE_NOUNS = frozenset({"day", "time", "number", "result", "status", "code"})


HOW_SOON = re.compile(r"\bhow (?:quickly|soon)\b")
WHO = re.compile(r"\bwho\b")
_HOW_WORDS = word_set("quickly soon")


def loose_ask(code: str) -> ValueAsk:
    """A request read loosely, for checking a model's fleet answer to a question the offline
    path did not read as one: any kind of value, next to one of the question's words or a
    thesaurus neighbour of one ("where staging listens" takes "port 4321"), about the
    question's content words."""
    words = [
        t
        for t in kind_tokens(code)
        if t.text not in STOP and t.lemma not in ASKING and t.text not in _HOW_WORDS
    ]
    subject = tuple(dict.fromkeys(root(t.lemma) for t in words if len(t.text) > 1))
    near = {t.lemma for t in tokens(code) if t.text not in STOP}
    for word in list(near):
        for n in group_of().get(root(word), ()):
            near |= set(GROUP_WORDS[n])
    kinds = named_kinds(words) or GENERIC
    if HOW_SOON.search(code):
        kinds = (Kind.DURATION,)  # "how quickly must the vendor react to a P1 ticket?"
    elif WHO.search(code) and Kind.PERSON not in kinds:
        kinds = (Kind.PERSON, *kinds)  # "…, who is the backup on-call?"
    return ValueAsk(
        kinds=kinds,
        cues=frozenset(root(w) for w in near),
        cue_stems=frozenset(stem(w) for w in near),
        subject=subject,
        words=tuple(dict.fromkeys(t.lemma for t in words)),
        text_words=tuple(t.text for t in tokens(code)),
        question=code,
    )
