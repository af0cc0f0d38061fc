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
plain terms, any of which may match).
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from crewline.policy.clauses import Shape, Word, shape_of
from crewline.policy.lemmas import Token, known, lemma, root, stem, tokens
from crewline.policy.values import Kind, Value, values_in
from crewline.policy.wording import code_form, injection, word_set

__all__ = [
    "NOUN_VERBS",
    "Fact",
    "FleetReading",
    "ValueAsk",
    "check_cited",
    "dispute",
    "injection_in",
    "loose_ask",
    "read_fleet",
    "search_terms",
    "value_ask",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class Fact:
    """One fleet row retrieved for the question (the core retrieves them by full-text)."""

    row_id: str
    member: str
    text: str
    at: datetime


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
    terse: bool = False  # named by a noun alone ("staging api port?"), with no question word
    modifier: str = ""  # the word right before the asked noun ("branch" coverage)
    outcome: frozenset[str] = frozenset()  # "how many jobs failed": what the count is of
    pair: tuple[str, ...] = ()  # "which host and port …": the two things asked, when two


@dataclass(frozen=True, kw_only=True, slots=True)
class FleetReading:
    """What the rows say: the answer and the rows it rests on, or why there is none."""

    answer: str | None = None
    source: Fact | None = None
    evidence: tuple[Fact, ...] = ()
    said: tuple[tuple[str, Fact], ...] = ()  # every member's value, when they disagree
    found: str = ""  # what was found, said for the card when there is no answer
    ignored: tuple[Fact, ...] = field(default=())  # rows that carried instructions

    @property
    def disagree(self) -> bool:
        return len({v.casefold() for v, _ in self.said}) > 1


# ---------------------------------------------------------------- the thesaurus

_GROUPS = (
    "port host hostname address endpoint server machine box domain listen bind serve answer",
    "version release tag rc build",
    "commit sha hash revision rev",
    "file path doc document written write put save store place folder directory dir location "
    "create generate produce output",
    "test suite spec",
    "flaky flake intermittent",
    "duration time took take long timeout latency runtime wall elapsed",
    "count number many total",
    "throughput rps qps",
    "status code return returned result",
    "scan probe check scanner prober checker",
    "migration migrate migrator schema",
    "database db postgres postgresql mysql sqlite",
    "ci pipeline build job nightly runner workflow",
    "review reviewer pr pull approve",
    "bench benchmark perf load performance",
    "deploy deployment release ship rollout",
    "cache redis memcached",
    "doc docs documentation reference guide",
    "lint linter ruff flake8 warning",
    "snapshot backup",
    "query sql slow",
    "error failure fail",
    "url link site address",
    "route endpoint path api",
    "size big large space disk",
    "limit max maximum cap ceiling quota",
    "rate percentage percent ratio share",
    "staging stage",
    "production prod live",
    "dependency dep package library",
    "restart reboot",
    "environment env",
    "person people owner reviewer approver assignee maintainer engineer contact lead",
    "team squad",
    "own owns owned assign assigned give gave hand handed belong",
    "agree agreed settle settled decide decided",
    "guarantee sla",
    "expire expiry valid validity",
)


# The tables built from roots and stems are built at their first use, not at import: a root
# reads the lemmatiser's dictionary (about 30 MiB and a second), which a process that never
# judges a question (the CLI, a server with the concierge off) need not hold.
@functools.cache
def _group_of() -> dict[str, frozenset[int]]:
    """The thesaurus: each word's root to the groups it is in."""
    table: dict[str, set[int]] = {}
    for n, group in enumerate(_GROUPS):
        for word in group.split():
            table.setdefault(root(word), set()).add(n)
    return {k: frozenset(v) for k, v in table.items()}


_GROUP_WORDS = tuple(tuple(g.split()) for g in _GROUPS)


def _near(a: str, b: str) -> bool:
    """Same root, the same group of the thesaurus, or one a short form of the other ("dep"
    and "depend", "repo" and "repositori", "env" and "environ")."""
    if a == b or _group_of().get(a, frozenset()) & _group_of().get(b, frozenset()):
        return True
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 3 and long.startswith(short) and short.isalpha()


# Words that say little about which thing is meant ("the staging *service*", "the new *app*"):
# a row need not repeat them.
@functools.cache
def _generic_words() -> frozenset[str]:
    """The roots of ``_GENERIC_WORDS``."""
    return frozenset(root(w) for w in _GENERIC_WORDS)


_GENERIC_WORDS = (
    # light verbs whose meaning the noun carries: a row says "holds 37 messages" for
    # "how many messages are sitting …", "goes through" for "which host we send through"
    "sit",
    "sitting",
    "stuck",
    "wait",
    "waiting",
    "send",
    "receive",
    "received",
    "sustain",
    "sustained",
    "hold",
    "handle",
    "carry",
    "introduce",
    "introduced",
    "land",
    "stand",
    "news",
    "day",
    "days",
    "week",
    "today",
    "info",
    "word",
    "update",
    "updates",
    "service",
    "app",
    "application",
    "server",
    "system",
    "instance",
    "environment",
    "env",
    "box",
    "machine",
    "cloud",
    "thing",
    "stuff",
    "project",
    "repo",
    "repository",
    "setup",
    "side",
    "part",
    "area",
    "component",
    "module",
    "code",
    "tool",
    "team",
    "job",
    "process",
    "run",
    "result",
    "results",
    "output",
    "status",
    "state",
    "current",
    "latest",
    "actual",
    "real",
    "underlying",
    "overall",
    "total",
    "whole",
    "full",
    "exposed",
    "expose",
    "reachable",
    "available",
    "located",
    "locate",
    "stored",
    "store",
    "kept",
    "keep",
    "published",
    "running",
    "deployed",
    "set",
    "configured",
    "configure",
    "pinned",
    "pin",
    "used",
    "use",
    "get",
    "got",
    "put",
    "right",
    "correct",
    "exact",
    "specific",
    "particular",
)


# ---------------------------------------------------------------- what the question asks

# The asked noun → the kinds of value that answer it, best first.
_NOUN_KINDS: dict[str, tuple[Kind, ...]] = {}
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
    ("throughput rps qps", (Kind.RATE, Kind.NUMBER)),
    # a limit is of whatever it limits: a rate, a size, a time, an amount
    (
        "limit quota cap ceiling maximum max",
        (Kind.RATE, Kind.SIZE, Kind.DURATION, Kind.MONEY, Kind.PERCENT, Kind.NUMBER),
    ),
    ("uptime availability cpu utilisation utilization usage", (Kind.PERCENT,)),
    ("checksum digest", (Kind.COMMIT, Kind.ID)),
    ("path", (Kind.PATH, Kind.URL_PATH)),
    # "files under /outbound/invoices": a folder off the system's own is written as a route
    ("directory dir folder location", (Kind.PATH, Kind.URL_PATH)),
    ("branch", (Kind.PATH, Kind.ID, Kind.WORD)),
    (
        "duration time timeout latency runtime p50 p90 p95 p99 p999 median lag delay",
        (Kind.DURATION,),
    ),
    ("memory ram heap rss", (Kind.SIZE,)),
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
        _NOUN_KINDS[_word] = _kinds
_NAMING = frozenset({"id", "identifier", "name", "key", "number"})
# The words that name a kind of value itself ("ip", "url", "host"), not a measure of one
# ("median" is a duration, but not every duration is the median)
_KIND_NAMES = frozenset(kind.value.split()[0] for kind in Kind)
_GENERIC = (
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
_STRONG = frozenset(Kind) - {Kind.NUMBER, Kind.WORD, Kind.ID}

_WH_KINDS: dict[str, tuple[Kind, ...]] = {
    "how long": (Kind.DURATION,),
    "how many": (Kind.NUMBER,),
    "how much": (Kind.NUMBER, Kind.SIZE, Kind.PERCENT),
    "how often": (Kind.RATE, Kind.NUMBER),
    "how big": (Kind.SIZE,),
    "how large": (Kind.SIZE,),
    "how fast": (Kind.DURATION,),
    "how slow": (Kind.DURATION,),
    "how full": (Kind.PERCENT, Kind.SIZE),
    "how busy": (Kind.PERCENT,),
    "how old": (Kind.DURATION, Kind.DATE, Kind.VERSION),
    "how high": (Kind.PERCENT, Kind.NUMBER, Kind.SIZE),
    "where": (Kind.PATH, Kind.URL_PATH, Kind.URL, Kind.HOST),
    "when": (Kind.DATE, Kind.TIME),
    "who": (Kind.PERSON, Kind.ID),
}
# Words that only ask ("did the probe find", "can you tell me"), never what it is about.
_ASKING = word_set(
    """find report say see get measure show tell know need give use take land end come return
    observe record note log mention detect discover spot run do be have go make look point
    sit live happen want remind anyone anybody someone somebody we you i me us they it one
    count listen serve answer respond bind peak hit reach define hold contain include
    reference produce create generate write make"""
)
_STOP = word_set(
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
_REQUEST = re.compile(
    r"\b(?:which|what|whats|where|when|how (?:long|many|much|often|big|large|fast|slow))\b"
    r"|\b(?:tell me|remind me|need|want|give me|share|send me|know)\s+"
    r"(?:the|what|which|its|their)\b"
)
_SPLIT = re.compile(r"\b(?:which|what|whats|where|when|how)\b")


_NP_STOP = word_set(
    """is are was were be been did does do has have had can could should shall will would may
    might must of in on at by for with from to into about as that which who whom where when
    the a an this these those s"""
)
_RELATIVE_NEXT = word_set("only just also still then never always already")


def _requests(words: Sequence[str], at: int, clause_start: bool, after_noun: bool) -> bool:
    """Is the question word at ``at`` a request, not a relative ("pick up where I left off",
    "…script, which only prints")?"""
    before = words[at - 1] if at > 0 else ""
    after = words[at + 1] if at + 1 < len(words) else ""
    if after in _RELATIVE_NEXT or after in ("i", "we", "you", "it", "they", "he", "she"):
        return False
    if at == 0 or before in _FILLER_WORDS or before in _KNOW or (at == 1 and not after_noun):
        return True  # "yo what port…": a word of greeting before it
    if words[at] == "which" and after in _NOUN_KINDS:
        return True  # "the ticket, which number?": a relative "which" is not before a noun
    if clause_start:
        return not after_noun  # "…, which only prints" after a noun is a relative
    if before in ("on", "at", "in", "from", "to", "for", "with", "by", "under", "of"):
        return at == 1 or words[at - 2] in _FILLER_WORDS or at + 2 >= len(words)
    return at + 2 >= len(words)  # "the nightly build passed on which sha?"


# Words that are verbs and nouns alike ("search service host?", "health check port?").
NOUN_VERBS = word_set(
    """search check load build test run release deploy review audit scan probe import export
    backup cache queue index health trace profile benchmark bench lint link port tag"""
)
_VERBISH = word_set(
    """shall should can could may might must will would do does did is are was were am have
    has had ok okay continue proceed go run keep use deploy push delete merge ship start
    let please pls"""
)
_FILLER_WORDS = word_set(
    """ok okay so hey hi hello quick one q question also and but then now well btw fyi again
    thanks sorry just"""
)
_KNOW = word_set("know tell remind idea sure wonder remember say find check me us")


@functools.lru_cache(maxsize=4096)
def _value_ask(code: str) -> ValueAsk | None:
    shaped = shape_of(code).words
    all_words = tokens(code)
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
        if text in ("which", "what", "whats", "where", "when", "how", "who") and _requests(
            texts, i, shaped[i].clause_start, after_noun
        ):
            nxt = texts[i + 1] if i + 1 < len(texts) else ""
            if text == "how" and f"how {nxt}" not in _WH_KINDS:
                continue
            start, head_text = i, f"{text} {nxt}" if text == "how" else text
            break
    if start is None and len(texts) <= 12 and code.rstrip().endswith("?"):
        # terse: "staging api port?", "p95 for the load test?" — a phrase naming a value
        from crewline.policy.careful import EDIT_VERBS, EXEC_VERBS, PROCEED_VERBS, READ_VERBS

        verbs = READ_VERBS | EDIT_VERBS | EXEC_VERBS | PROCEED_VERBS
        objects = {"the", "a", "an", "this", "that", "these", "those", "it", "them", "to", "my"}
        named_at = [
            i
            for i, t in enumerate(all_words)
            if t.lemma in _NOUN_KINDS and t.lemma not in ("day", "time", "number")
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
        if named_at and not acting and not any(t in _VERBISH for t in texts):
            start, head_text = -1, "terse"
    if start == -1:
        start = 0
        words = all_words
    elif start is None:
        m = re.search(
            r"\b(?:(?:tell|remind|give|send|show) (?:me|us)|need|got|have|know|share|find|idea of"
            r"|post)"
            r"\s+(the|its|their|our|a|an)\b",
            code,
        )
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
    phrase: list[str] = []
    for w in words[skip:]:
        glued = w.start > 0 and code[w.start - 1] == "-" and code[w.end : w.end + 1] == "-"
        if w.text == "s" and code[w.start - 1 : w.start] == "'":
            continue  # "the canary's error rate": the phrase goes on
        if w.text in _NP_STOP and phrase and not glued:
            break
        if w.text in _NP_STOP:
            continue
        if (
            head_text in ("which", "what", "who")
            and len(phrase) == 1
            and phrase[0] in _NOUN_KINDS
            and _verb_form(w)
        ):
            break  # "which team owns the module": the phrase ends at its verb
        phrase.append(w.lemma)
        if len(phrase) >= 4:
            break
    # "some underlying table — which one?": "one" stands for the noun named before it
    antecedent = None
    if head_text == "which" and texts[start + 1 : start + 2] in (["one"], ["ones"]):
        antecedent = next(
            (k for k in range(start - 1, -1, -1) if all_words[k].lemma in _NOUN_KINDS), None
        )
        if antecedent is None:
            return None
        phrase, skip = [all_words[antecedent].lemma], 2
    noun = "value"
    counted: set[str] = set()
    outcome: set[str] = set()
    named = [p for p in phrase if p in _NOUN_KINDS]
    measured = head_text == "how much" and named and set(_NOUN_KINDS[named[-1]]) - {Kind.NUMBER}
    share_of = (
        head_text == "how much"
        and [w.text for w in words[skip : skip + 1]] == ["of"]
        and [w.text for w in words][-2:-1] not in (["are"], ["were"], ["is"])
    )
    if share_of:  # "how much of this month's error budget have we used?": a share of it
        noun, kinds = "share", (Kind.PERCENT,)
    elif measured:  # "how much memory…": a size, not a count of memories
        noun = named[-1]
        kinds = _NOUN_KINDS[noun]
    elif head_text.startswith(("how many", "how much")):
        texts_after = [w.text for w in words[skip:]]
        if texts_after[:1] == ["of"] and texts_after[-2:-1] in (["are"], ["were"], ["is"]):
            noun = lemma(texts_after[-1])  # "how many of the vulnerable packages are critical"
            counted = {root(noun)}
        elif phrase:
            # the counted noun: the phrase's last noun before its verb ("how many lint
            # errors did…": errors, not warnings; "how many pods restarted during…": pods)
            at = skip
            while at + 1 < len(words) and (
                _noun_goes_on(words[at], words[at + 1])
                or code[words[at].end : words[at].end + 1] == "-"
            ):
                at += 1
            noun = words[at].lemma
            counted = {root(noun)}
            verb = words[at + 1] if at + 1 < len(words) else None
            if verb is not None and _past(verb) and verb.lemma not in _ASKING:
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
        kinds = _NOUN_KINDS[noun]
    elif named and set(_NOUN_KINDS[named[-1]]) & set(kinds):
        noun = named[-1]
    if head_text == "who":
        if re.search(r"\b(?:should|shall|would|could|can|will|must|ought)\b", code):
            return None  # "who should review it?": a decision asked of you, not a fact
        if noun == "value":
            noun = "person"
    verb_cues: set[str] = set()
    if head_text == "what" and texts[start + 1 : start + 2] and texts[start + 1] in _DO_AUX:
        # "what did the health check return?": what follows the verb in a row
        verb = next((w for w in reversed(words[skip:]) if w.text not in _NP_STOP), None)
        if verb is not None and not kinds and not named:
            noun, kinds, phrase = verb.lemma, _GENERIC, [verb.lemma]
            verb_cues = {stem(verb.lemma)}  # the value follows the verb: not a noun's cue
    if head_text == "terse":
        # the phrase's head: its last noun of a kind of value before its first preposition
        # ("link to the partner portal status page?", "protobuf version in the lockfile?")
        head_end = next(
            (k for k, w in enumerate(words) if k and w.text in _TERSE_PREPOSITIONS), len(words)
        )
        named_terse = [
            w.lemma
            for w in words[:head_end]
            if w.lemma in _NOUN_KINDS and w.lemma not in ("day", "time", "number")
        ] or [
            w.lemma
            for w in words
            if w.lemma in _NOUN_KINDS and w.lemma not in ("day", "time", "number")
        ]
        noun = named_terse[-1]
        if texts[1:2] == ["of"] and texts[0] in ("count", "number", "total"):
            noun = texts[0]  # "number of open issues tagged …?"
        kinds = _NOUN_KINDS[noun]
        named = [noun]
        of = next((k for k, w in enumerate(words) if w.lemma == noun), 0) + 1
        if noun in ("count", "number", "total") and texts[start + of : start + of + 1] == ["of"]:
            # "count of open bug issues in the repo?": a count of the phrase's last noun
            end = next(
                (
                    k
                    for k in range(of + 1, len(words))
                    if words[k].text in _TERSE_PREPOSITIONS or _past(words[k])
                ),
                len(words),
            )
            if end > of + 1:
                counted = {root(words[end - 1].lemma), root(noun)}  # the "count" is no topic
                noun, kinds = words[end - 1].lemma, (Kind.NUMBER,)
    pair = _two_asked(code, words[skip:])
    if pair and _one_value(pair):
        noun, kinds = "address", (Kind.HOST, Kind.IP)  # "host and port": "mm.internal:7450"
    if not kinds:
        if head_text == "need":
            return None  # "I need the…" names no kind of value: not a request for one
        content = [p for p in phrase if p not in _STOP and p not in _ASKING]
        if not content:
            return None
        noun = content[-1]
        kinds = _GENERIC
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
        if before in by:
            asked = noun
            noun, kinds = by[before]
            kind_words = {asked} - {noun}  # "email address": the address is the email
    # a noun that names another kind of thing stays what the request is about ("which Node
    # version": node); one of the asked kind is the asked noun again ("host:port"), and so is
    # the name of a kind the asked ones hold ("the IP address": any address said is an IP's)
    also_named = (
        {
            p
            for p in named
            if p == noun
            or _group_of().get(root(p), frozenset()) & _group_of().get(root(noun), frozenset())
            or (p in _KIND_NAMES and set(_NOUN_KINDS[p]) <= set(kinds))
        }
        | set(pair)
        | kind_words
    )
    named = [p for p in named if set(_NOUN_KINDS[p]) & set(kinds)]
    cues = {root(noun)} if noun != "value" else set()
    cues |= {root(p) for p in named}
    for n in _group_of().get(root(noun), ()):
        if noun in _GROUP_WORDS[n] and noun in _NOUN_KINDS:
            cues |= {root(w) for w in _GROUP_WORDS[n] if w in _NOUN_KINDS}
    clause_from = start
    while clause_from > 0 and not shaped[clause_from].clause_start:
        clause_from -= 1
    topic = clause_from - 1
    while topic > 0 and not shaped[topic].clause_start:
        topic -= 1
    if (
        clause_from > 0
        and clause_from - topic <= 6
        and code[all_words[clause_from - 1].end : all_words[clause_from].start].strip() == ","
        and not any(
            w.text in _VERBISH | _DO_AUX | _ASKING or w.lemma in _ASKING
            for w in all_words[topic:clause_from]
        )
    ):
        clause_from = topic  # "the ticket for the flaky login test, which number?"
    if antecedent is not None:
        clause_from = 0  # what "one" stands for is said before it
    subject: list[str] = []
    clause = [*all_words[clause_from:start], *words[skip:]]
    # with "did", "does" … an asking word is the verb ("what did the probe record?"), else
    # it may be a noun ("the TTL on the A record")
    verbal = any(w.text in _DO_AUX for w in clause) or head_text == "need"
    # an asking word between an article and a noun names a thing, never asks: "the logging
    # cluster", "our reporting DB" are other things than "the cluster", "our DB"
    determined = {
        all_words[k].start
        for k in range(1, len(all_words) - 1)
        if all_words[k - 1].text in _ARTICLES
        and all_words[k].lemma in _ASKING
        and code[all_words[k].end : all_words[k + 1].start] == " "
        and all_words[k + 1].text not in _STOP
    }
    glued_to_noun = {
        all_words[k].lemma
        for k in range(len(shaped) - 1)
        if shaped[k].ident
        and shaped[k + 1].ident
        and noun in (all_words[k].lemma, all_words[k + 1].lemma)
    }
    # "the US cluster": a country after a determiner, not the pronoun
    country = {
        all_words[k].start
        for k in range(1, len(all_words))
        if all_words[k].text == "us" and all_words[k - 1].text in ("the", "a", "an")
    }
    # a word inside a hyphenated name ("the acme-logs bucket") names the thing, never asks
    # ("end-to-end", with a word of grammar in it, is a phrase, not a name)
    hyphenated = {
        w.start
        for run in re.finditer(r"(?<![\w-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\w-])", code)
        if not any(part in _STOP for part in run.group(0).split("-"))
        for w in clause
        if run.start() <= w.start < run.end()
    }
    for w in clause:
        r = root(w.lemma)
        if w.start in hyphenated and w.lemma in _ASKING and w.text not in _STOP:
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
            or w.text in _STOP
            or w.lemma in _STOP
            or (
                w.lemma in _ASKING
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
        if all(t.lemma in _NOUN_KINDS or t.text in _STOP for t in tokens(run)):
            continue  # "host:port": the asked nouns, not a name
        subject = [t for t in subject if t not in pieces] + [run]
    cue_stems = {stem(noun)} if noun != "value" and not verb_cues else set()
    cue_stems |= {stem(p) for p in named}
    for n in _group_of().get(root(noun), ()):
        if noun in _GROUP_WORDS[n] and noun in _NOUN_KINDS:
            cue_stems |= {stem(w) for w in _GROUP_WORDS[n] if w in _NOUN_KINDS}
    cue_stems |= {stem(w) for w in _STATED_BY.get(noun, ())}
    modifier = ""
    for k in range(1, len(all_words)):
        if all_words[k].lemma == noun and k - 1 >= start + skip:
            left = all_words[k - 1]
            plain = code[left.end : all_words[k].start] == " " and code[
                left.start - 1 : left.start
            ] in ("", " ")
            if (
                plain
                and left.text.isalpha()
                and left.text not in _STOP
                and left.lemma not in _ASKING
            ):
                modifier = left.lemma  # "the branch coverage", not "checkout's p95"
            break
    return ValueAsk(
        modifier=modifier,
        pair=pair,
        terse=head_text == "terse",
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
                w.lemma
                for w in all_words[clause_from:]
                if w.lemma not in _STOP and len(w.lemma) > 1
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
_KIND_BY_MODIFIER: dict[str, dict[str, tuple[str, tuple[Kind, ...]]]] = {
    "rate": {
        **{w: ("rate", (Kind.PERCENT,)) for w in _SHARES},
        **{w: ("rate", (Kind.RATE,)) for w in _FLOWS},
    },
    "address": {w: ("email", (Kind.EMAIL,)) for w in ("email", "e-mail", "mail")},
    "schedule": {w: ("cron", (Kind.CRON,)) for w in ("cron", "crontab")},
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
        if w.text in _NP_STOP and not phrase:
            continue  # "what's the host:port": its article
        if w.text in _NP_STOP or (phrase and w.text in _TERSE_PREPOSITIONS):
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
        asked = next((w for w in after if w.lemma in _NOUN_KINDS), None)
        if asked is not None and left.text not in _STOP and left.lemma != asked.lemma:
            return left.lemma, asked.lemma
    return ()


def _one_value(pair: tuple[str, ...]) -> bool:
    """Is what a request asks two things of one value a row writes whole ("host and port")?"""
    first, second = pair
    return any(first in a and second in b for a, b in _ONE_VALUE)


def _both_given(ask: ValueAsk, value: Value) -> bool:
    """Does a value answer all a request asks: for a request of two things, the whole that
    gives both ("mm.internal:7450" for "host and port", never "7450")?"""
    if not ask.pair:
        return True
    parts = [v.kind for v in values_in(value.text)]
    return _one_value(ask.pair) and any(parts == [one, two] for one, _, two in _WHOLES)


# A partitive put first: "of the TODOs someone counted, how many are FIXMEs?" asks "how many
# of the TODOs someone counted are FIXMEs?".
_FRONTED_PART = re.compile(
    r"^\s*of\s+((?:the|these|those|all|our|its)\s+[^,;]{1,60}),\s*(how many|how much)\s+(.*)$"
)


# A courtesy that ends a request ("hostname of the staging Orthanc pls"): the request is the
# phrase before it, asked as a question.
_COURTESY_END = re.compile(r"[\s,]+(?:pls|plz|please|thanks|thx|ty)\s*[?!.]*\s*$")


def value_ask(shape: Shape) -> ValueAsk | None:
    """The value the asking sentence requests, if it requests one."""
    for sentence in reversed(shape.asking):
        fronted = _FRONTED_PART.match(sentence.text)
        said = _COURTESY_END.sub("?", sentence.text)
        if fronted:
            whole, how, rest = fronted.groups()
            said = f"{how} of {whole} {rest}"
        ask = _value_ask(said)
        if ask is not None:
            return replace(ask, question=shape.text)
    return None


_PAST = word_set("ran took went got found made wrote broke left sent built saw kept came")
_TERSE_PREPOSITIONS = word_set("of in on for at from to under with behind inside")


def _verb_form(word: Token) -> bool:
    """Is ``word`` a verb's inflected form ("owns", "keeps", "failed"), not a noun of a
    kind of value ("numbers", "files")?"""
    if word.lemma in _NOUN_KINDS or word.lemma == word.text:
        return False
    return _past(word) or (word.text.endswith("s") and not word.text.endswith("ss"))


def _past(word: Token) -> bool:
    return word.text in _PAST or (word.text.endswith("ed") and word.text != word.lemma)


def _noun_goes_on(word: Token, after: Token) -> bool:
    """Does the noun phrase go on past ``word`` to ``after`` ("lint errors"), rather than end
    at a verb or a preposition ("pods restarted", "errors did", "tables in")?"""
    return not (_past(after) or after.text in _NP_STOP or after.text in _MORE_PREPOSITIONS)


_MOMENT = re.compile(r"\s*(?:ago|back|earlier)\b")
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
}
_DO_AUX = word_set("did does do will would can could should has have had")
# Asking words that are nouns too, in their base form ("the TTL on the A record").
_ARTICLES = word_set("the a an our your its their my his her")
_NOUNABLE = word_set("record report log note count point peak hit run")


def search_terms(ask: ValueAsk, member_words: Sequence[str] = ()) -> tuple[str, ...]:
    """The words to retrieve candidate rows with, any of which may match: what the request
    is about, then its asked noun, then the thesaurus's neighbours of what it is about; at
    most 16."""
    terms: list[str] = []

    def add(word: str) -> None:
        if re.fullmatch(r"[a-z0-9]+", word) and word not in terms and word not in _STOP:
            terms.append(word)

    about = [w for w in ask.words if root(w) in ask.subject or w in ask.subject]
    for word in (*about, *member_words):
        add(word)
    if ask.noun != "value":
        add(ask.noun)
    for word in about:
        for n in _group_of().get(root(word), ()):
            for other in _GROUP_WORDS[n]:
                add(other)
    for word in ask.words:
        add(word)
    return tuple(terms[:16])


# ---------------------------------------------------------------- reading the rows
#
# A row answers only what it states as a fact. Each value of the asked kind is read with the
# words of its own clause ("error rate 0.3%", not the "5% of traffic" before it), and is no
# answer when that clause negates it ("not 8080"), says it is gone ("was on 8080 until
# Tuesday", "down from 530 MB"), not yet so ("next planned", "not confirmed") — unless the
# question asks about the plan — or a secret ("password for app_rw is …"), or when the
# question itself says it. A row with several such values answers only when the question's
# own words pick one. A question's specific values ("PR #483", "products_v6", "30 days")
# must be in the row; a member it names must be the one that said it. Strict to answer,
# loose to abstain: a row that is only partly about the question still counts against an
# answer when it gives another value of the same kind.


@dataclass(frozen=True, kw_only=True, slots=True)
class _Row:
    fact: Fact
    roots: frozenset[str]
    covered: int  # how many of the subject's roots the row (and its member's name) has
    score: float  # the same, a thesaurus neighbour counting half
    exact: int  # how many of the subject's specific roots it has as they are
    in_text: int  # the same, in its text alone (its member's name aside)


@dataclass(frozen=True, kw_only=True, slots=True)
class _Said:
    """A live value of the asked kind in a row, with the words of its own clause."""

    value: Value
    labels: frozenset[str]  # roots and stems of its clause's words
    cue: bool  # the asked noun (or a word that says it) stands right by it
    near: frozenset[str] = frozenset()  # the lemmas of the words right by it
    clause: str = ""  # its clause's text, lower case, for names said whole ("src/api")
    planned: bool = False  # said as a plan ("next planned migration is …")
    parallel: bool = False  # said without its noun, beside one said with it ("… and 3 on …")
    moment: bool = False  # a duration that places a moment ("2 days ago"): disputes only


def _roots_of(text: str, member: str) -> frozenset[str]:
    words = [t for t in tokens(code_form(text))]
    found = {t.stem for t in words} | {root(t.text) for t in words}
    slug = member.lower()
    found |= {root(part) for part in re.split(r"[-_]", slug) if part}
    found.add(re.sub(r"[-_]", "", slug))
    return frozenset(found)


def _coverage(subject: Sequence[str], roots: frozenset[str], text: str) -> tuple[int, float, int]:
    """How many subject roots the row has (exactly or by a neighbour; a generic word the row
    does not repeat counts as had), a score where a neighbour counts half and an unrepeated
    generic word nothing, and how many specific roots it has exactly."""
    joined = set()
    words = [t.text for t in tokens(code_form(text))]
    for i in range(len(words) - 1):
        joined.add(words[i] + words[i + 1])
    n, score, exact = 0, 0.0, 0
    lowered = text.lower()
    for term in subject:
        if not term.isalnum():
            literal = _says(lowered, term)
            n, score, exact = (n + 1, score + 1, exact + 1) if literal else (n, score, exact)
            continue
        if term in roots or term in joined:
            n, score = n + 1, score + 1
            exact += term not in _generic_words()
        elif term not in _generic_words() and (
            any(_near(term, r) for r in roots) or _same_qualifier(term, lowered)
        ):
            n, score = n + 1, score + 0.5  # a generic word counts only as it is ("repo")
        elif term in _generic_words():
            n += 1
    return n, score, exact


def _same_qualifier(term: str, text: str) -> bool:
    """Does the row say the asked qualifier in other words ("finish" by "wrapped up", one
    of the end's words)?"""
    words = set(re.findall(r"[a-z]+", text))
    for n, table in enumerate(_EXCLUSIVE):
        group = next((g for w, g in table.items() if root(w) == term), None)
        if group is not None and any(table.get(w) == group for w in words):
            return True
        if group is not None and n == _BOUNDARY and _SPAN.search(text):
            return True  # "runs from 2026-12-18 to 2027-01-04" says its start and its end
    return False


_SPAN = re.compile(r"\bfrom\s+\S*\d\S*\s+(?:to|until|till|through)\s+\S*\d")


def _row(ask: ValueAsk, fact: Fact) -> _Row:
    roots = _roots_of(fact.text, fact.member)
    covered, score, exact = _coverage(ask.subject, roots, fact.text)
    in_text = _coverage(ask.subject, _roots_of(fact.text, ""), fact.text)[2]
    return _Row(fact=fact, roots=roots, covered=covered, score=score, exact=exact, in_text=in_text)


def _strictly_about(ask: ValueAsk, row: _Row) -> bool:
    n = len(ask.subject)
    if not n:
        return bool(row.roots & ask.cues)
    return row.score > 0 and row.covered >= n  # a word the row lacks may be another thing


def _specific(ask: ValueAsk) -> list[str]:
    return [t for t in ask.subject if t not in _generic_words()]


_CLAUSE_END = re.compile(r"[;,()\[\]]|[.!?](?=\s|$)|\s[-\u2013\u2014]+\s|\b(?:and|but|while)\b")
_NEGATION = re.compile(
    r"\b(?:not|no longer|never|isn'?t|wasn'?t|aren'?t|except|instead of|rather than|nor)\b"
    r"(?:\s+\S+){0,2}\s*$"
)
_GONE = re.compile(r"\b(?:until|previously|formerly|used to|no longer|superseded|replaced)\b")
_GONE_FROM = re.compile(
    r"\b(?:down|up|changed|moved|migrated|increased|decreased|dropped|rose|fell|went|bumped"
    r"|switched|upgraded|downgraded)\s+from\s+(?:[a-z]+\s+)?$"
)
_UNSETTLED = re.compile(
    r"\b(?:plan|plans|planned|planning|next|will|going to|scheduled|proposed|tentative"
    r"|tentatively|expected|expect|estimated?|should be|might|maybe|probably|pending|not yet"
    r"|waiting|tbd|target|unconfirmed|confirm|confirmed|guess|assume|assuming)\b"
)
# An estimate is no fact, whatever the question asks ("about 14 minutes, maybe 15",
# "estimated at roughly 40 GB").
_HEDGE = re.compile(
    r"\b(?:estimated?|estimates?|roughly|approximately|approx|maybe|probably|perhaps|guess"
    r"|guessing|might|somewhere between|ballpark)\b"
)
# A plan word that names a thing ("route-plan", "route planning") or a schedule that recurs
# ("scheduled at 03:15 every Sunday") states what is so, not what may be.
_NAMING_PLAN = re.compile(
    r"\w[-_]plan\w*|\bplan\w*[-_]\w|\b([a-z]+)\s+planning\b(?!\s+(?:to|on|for)\b)"
)
_PLANNER = word_set("are is am was were be been being re m s still currently now also we i they")
_RECURS = re.compile(r"\b(?:every|each|nightly|daily|weekly|hourly|monthly)\b")


def _without_named_plans(text: str) -> str:
    """``text`` without the plan words that name a thing ("route-plan", "route planning")."""
    return _NAMING_PLAN.sub(lambda m: m.group(0) if m.group(1) in _PLANNER else " ", text)


def _unsettled(text: str) -> bool:
    """Does ``text`` say its value is not settled yet (planned, expected, a guess)?"""
    kept = _without_named_plans(text)
    if _RECURS.search(kept):
        kept = re.sub(r"\bscheduled\b", " ", kept)
    return bool(_UNSETTLED.search(kept))


_ASKS_PLAN = re.compile(
    r"\b(?:plan|plans|planned|next|will|going to|scheduled|upcoming|expected|proposed)\b"
)
_UPDATE = re.compile(r"\b(?:now|actually|correction|update|updated|instead|changed|moved)\b")
_SECRET_WORD = re.compile(
    r"\b(?:password|passwd|passphrase|secret|token|api[ _-]?key|access[ _-]?key|private[ _-]?key"
    r"|secret[ _-]?key|credentials?|vault|pat)\b"
)
_SECRET_FORM = re.compile(
    r"^(?:AKIA|ASIA)[A-Z0-9]{8,}$|^sk-|^ghp_|^gho_|^xox[bpa]-|^-----BEGIN|^eyJ[\w-]{10,}"
)


def _clause(text: str, value: Value) -> tuple[str, str]:
    """The text of the value's clause before it, and after it."""
    before = text[: value.start]
    after = text[value.end :]
    start = max((m.end() for m in _CLAUSE_END.finditer(before)), default=0)
    end_at = _CLAUSE_END.search(after)
    return before[start:], after[: end_at.start()] if end_at else after


def _status(ask: ValueAsk, text: str, value: Value) -> str | None:
    """How the row states the value: "fact", "plan" (asked about a plan), "gone" (no
    longer so), or None when it is negated, unsettled or a secret."""
    before, after = (part.lower() for part in _clause(text, value))
    whole = f"{before} {after}"
    if _NEGATION.search(before):
        return None
    if _GONE.search(whole) or _GONE_FROM.search(before):
        return "gone"
    if (
        re.search(r"\bfrom\s+(?:[a-z]+\s+)?$", before)
        and re.match(r"\s*to\b", after)
        and value.kind not in (Kind.DATE, Kind.TIME)
    ):
        return "gone"  # "from 530 MB to 412 MB"; "from 12-18 to 01-04" is a span
    if _SECRET_WORD.search(whole) or _SECRET_FORM.search(value.text):
        return None
    heading = text.lower().split(": ", 1)[0] if ": " in text else ""
    if _HEDGE.search(text.lower()):
        return None
    if _unsettled(whole) or _unsettled(heading):
        return "plan" if _ASKS_PLAN.search(_without_named_plans(ask.question)) else None
    return "fact"


# Qualifiers of which a thing has one: a value said of one is not a value of another.
_EXCLUSIVE = tuple(
    {w: n for n, group in enumerate(groups.split("|")) for w in group.split()}
    for groups in (
        "prod production prd live|staging stage stg preprod|dev development|qa uat|canary"
        "|sandbox|local",
        "hourly|nightly daily|weekly|monthly|quarterly|yearly annual annually",
        "start starts started begin begins began kick kicks kicked opens|end ends ended finish"
        " finishes finished expire expires expired close closes closed stop stops wrapped"
        " lift lifts lifted",
        "pass passed passes passing succeeded green|fail failed fails failing broke broken"
        " errored red|skip skipped skips skipping",
    )
)


@functools.lru_cache(maxsize=4096)
def _qualifier_of(word: str) -> tuple[tuple[int, int], ...]:
    """The (table, group) of each exclusive qualifier a word is, or is derived from
    ("failures" of "fail", "successful" of "succeeded")."""
    mine = root(word)
    return tuple(
        (n, group)
        for n, table in enumerate(_EXCLUSIVE)
        for w, group in table.items()
        if root(w) != mine and _derived(root(w), mine)
    )  # a word of the same root is no qualifier: "week" is not "weekly"


def _derived_qualifiers(text: str) -> list[set[int]]:
    """``_qualifiers`` with a word's derivations too, for a model's cited row: "Sync
    failures last week" says the "failed" a question asks."""
    out = _qualifiers(text)
    for word in set(re.findall(r"[a-z]{4,}", text.lower())):
        for n, group in _qualifier_of(word):
            out[n].add(group)
    return out


def _qualifiers(text: str) -> list[set[int]]:
    words = re.findall(r"[a-z]+", text.lower())
    return [{table[w] for w in words if w in table} for table in _EXCLUSIVE]


def _other_qualifier(ask: ValueAsk, text: str, value: Value) -> bool:
    """Does the row say the value of another one of a thing the question qualifies ("the
    prod schema" of a row about dev, "weekly" of "nightly", the end of what "starts", the
    passed of what "failed"), or names it with another label than the question's? Its
    clause's qualifiers count, else the row's; a model's cited value is held to the same."""
    if _other_label(ask, value):
        return True
    clause = " ".join(_clause(text, value))
    said_by = _qualifiers(clause)
    span = _span_end(text, value)
    if span is not None:
        said_by[_BOUNDARY] = {span}  # "runs from 2026-12-18 to 2027-01-04": which end
    for n, (asked, said, whole) in enumerate(
        zip(_qualifiers(_request_sentence(ask)), said_by, _qualifiers(text), strict=True)
    ):
        if asked and not asked & (said or whole):
            # an environment or a cadence the question names must be the row's own
            return bool(said or whole) or n < _BOUNDARY
    return False


# The states a version or a build is in, one at a time: live (deployed, released, current),
# in review, staged, draft. A question that asks one is not answered by a row that states
# another ("which build is live?" of "build 4182 is in TestFlight review").
_STATES = tuple(
    re.compile(p)
    for p in (
        r"\b(?:(?:is|are|was|were|be|been|being|went|gone|goes|go|going|now|the|a|our|its)"
        r"\s+(?:[a-z]+ly\s+)?live|deployed|released|shipped|published|rolled out|current)\b",
        r"\b(?:review|reviewing|submitted|testflight|beta)\b",
        r"\bstaged\b",
        r"\b(?:draft|drafted|unreleased|unpublished)\b",
    )
)


def _other_label(ask: ValueAsk, value: Value) -> bool:
    """Does the value name the asked thing with another one-letter or numbered label than
    the question's ("cohort_b.parquet" for "the cohort A extract", "wave-3" for "wave 2")?"""
    words = ask.text_words
    said = value.text.lower()
    for thing, label in itertools.pairwise(words):
        if len(thing) < 3 or not thing.isalpha() or not re.fullmatch(r"[a-z]|\d+", label):
            continue
        glued = re.search(rf"(?<![a-z0-9]){thing}[_-]([a-z]|\d+)(?![a-z0-9])", said)
        if glued and glued.group(1) != label:
            return True
    return False


def _states(text: str) -> set[int]:
    lowered = text.lower()
    return {n for n, pattern in enumerate(_STATES) if pattern.search(lowered)}


def _other_state(ask: ValueAsk, text: str, value: Value) -> bool:
    """Does the row state the value in another state than the one the question asks
    ("which version is deployed?" of "v2.3 is staged"; "the current build" of "build 4182
    is in TestFlight review")? Its clause's states count, else the row's."""
    sentences = re.split(r"(?<=[.?!])\s+", ask.question)
    asked = _states(next((x for x in sentences if ask.noun in x), ask.question))
    if not asked:
        return False
    said = _states(" ".join(_clause(text, value))) or _states(text)
    return bool(said) and not asked & said


_COPULA = word_set("is are was were be been being has have had sits lives runs uses")


def _of_other_subject(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is the value said of another subject in its own clause, while another clause of the
    row names as much of the asked one, and a word of it this clause lacks ("Which
    warehouse do the dashboards use?" of "dbt runs on warehouse ETL_WH_L; the dashboards
    use a separate one")? The clause's subject is the words before its first verb; one the
    question says in no word nor neighbour of a word ("dbt") makes the value its own."""
    head, tail = _clause(text, value)
    start = value.start - len(head)
    end = value.end + len(tail)
    qualifiers = {root(w) for table in _EXCLUSIVE for w in table}
    wanted = [t for t in _specific(ask) if t.isalpha() and t not in qualifiers]

    def said(part: str) -> set[str]:
        found = tokens(code_form(part))
        roots = {root(t.lemma) for t in found} | {t.stem for t in found}
        return {t for t in wanted if t in roots}

    elsewhere, own = said(f"{text[:start]} {text[end:]}"), said(text[start:end])
    if not elsewhere - own or len(elsewhere) < len(own):
        return False  # no other clause says as much of the asked subject, and more
    words = tokens(code_form(head))
    verb = next(
        (k for k, t in enumerate(words) if k and (t.text in _COPULA or _verb_form(t))), None
    )
    if verb is None:
        return False
    asked = {root(t.lemma) for t in tokens(code_form(ask.question))}
    return any(
        t.text.isalpha()
        and t.text not in _STOP | _NP_STOP
        and root(t.lemma) not in qualifiers
        and not any(_near(root(t.lemma), a) for a in asked)
        for t in words[:verb]
    )


def _request_sentence(ask: ValueAsk) -> str:
    """The question's sentence that names the asked noun (the request), not its context
    ("Which branch has the fix? I'd like to base my local work on it.")."""
    sentences = re.split(r"(?<=[.?!])\s+", ask.question)
    asked = next((x for x in sentences if ask.noun in x), ask.question)
    return _LIVES.sub(" ", asked)  # "where does the config live?": a place, not production


_LIVES = re.compile(r"\blive(?=\s*(?:[?.!,;]|$|(?:in|on|at|under|inside|now)\b))")


_BOUNDARY = 2  # the table of a thing's start and end in ``_EXCLUSIVE``


def _span_end(text: str, value: Value) -> int | None:
    """Which end of a span a date or a time is ("from 2026-12-18 to 2027-01-04": the start,
    then the end), by the word right before it; None when it is no span's."""
    if value.kind not in (Kind.DATE, Kind.TIME):
        return None
    before = text[: value.start].lower()
    table = _EXCLUSIVE[_BOUNDARY]
    if re.search(r"\b(?:from|between)\s+$", before) and re.match(
        r"\s*(?:to|until|till|through|and)\b", text[value.end :].lower()
    ):
        return table["start"]
    if re.search(r"\b(?:to|until|till|through|and)\s+$", before) and re.search(
        r"\b(?:from|between)\s+\S+\s+(?:to|until|till|through|and)\s+$", before
    ):
        return table["end"]
    return None


def _words_near(text: str, value: Value) -> tuple[list[str], list[str]]:
    """The stems of the three words before a value and of the one after it, unless that
    word labels the next value."""
    head, tail = _clause(text, value)
    if re.fullmatch(r"\s*(?:on|at)\s*", head):
        head = text[: value.start]  # "is listening, on 9187": the comma sets off the place
    before = [t.stem for t in tokens(code_form(head))[-3:]]
    after = [t.stem for t in tokens(code_form(tail))[:1]]
    if after and re.match(r"[\s,;:]*[\w-]+\s+[\d/#]", tail[:32]):
        after = []
    return before, after


# Verbs that place a service at a port: "the admin UI sits on 8443", "it lives at 9000".
_PLACING = ("sit", "live", "run", "be", "listen", "serve", "answer")
_NOT_A_PORT_NEXT = re.compile(r"\s*(?:[.,;:)!?]|$|(?:with|and|but|for|in|on|now|since|behind)\b)")


@functools.cache
def _placed() -> frozenset[str]:
    return frozenset(stem(w) for w in _PLACING)


def _placed_at_port(ask: ValueAsk, text: str, value: Value, before: list[str]) -> bool:
    """Is a bare number a port because the row places the asked thing at it ("sits on 8443
    with a self-signed cert") — a verb of place, "on" or "at", and no noun it counts after
    it ("runs on 3 nodes")?"""
    return (
        Kind.PORT in ask.kinds
        and value.kind is Kind.NUMBER
        and re.fullmatch(r"\d{2,5}", value.text) is not None
        and 0 < int(value.text) < 65536
        and before[-1:] in (["on"], ["at"])
        and len(before) >= 2
        and before[-2] in _placed()
        and _NOT_A_PORT_NEXT.match(text[value.end :]) is not None
    )


def _said(ask: ValueAsk, fact: Fact) -> list[_Said]:
    """The live values of the asked kind in a row, each with its clause's words."""
    text = unicodedata.normalize("NFKC", fact.text)
    out = []
    for value in _with_ports(ask, text, _read_whole(ask, text, values_in(text))):
        status = _status(ask, text, value) if value.kind in ask.kinds else None
        if status in (None, "gone") or _in_question(ask, value.text):
            continue  # not a fact here, or the question's own value ("acme.io's MX")
        # "rebooted 2 days ago": a moment, not how long something lasts — no answer to
        # "how long", but it disputes one ("uptime: 41 days")
        moment = value.kind is Kind.DURATION and bool(_MOMENT.match(text[value.end :]))
        if _other_qualifier(ask, text, value) or _other_state(ask, text, value):
            continue
        before, after = _words_near(text, value)
        cue = bool(set(before + after) & ask.cue_stems) or bool(set(before[-2:]) & ask.verb_cues)
        cue = cue or _placed_at_port(ask, text, value, before)
        if not cue:  # "Owner of the billing DB is Daniel Cho", "MAU in March was 1.2M": the
            # asked noun heads the clause
            role = _ROLE_OF.match(_clause(text, value)[0].lower())
            cue = role is not None and stem(role.group(1)) in ask.cue_stems
        if value.kind is Kind.ID and not cue:
            # a name that says what it is ("team-ledger" for the team, "ci-runner-07" for
            # the runner)
            cue = any(t.stem in ask.cue_stems for t in tokens(value.text.lower()))
        if value.kind is Kind.ID and not cue:
            cue = _ticket_for(ask, value)  # "tracked in OPS-4471" for "which ticket"
        if value.kind is Kind.PERSON and not cue and all(known(w) for w in value.text.split()):
            continue  # "Google Cloud Monitoring": words of the language, not a person's name
        labels = _labels(text, value)
        if ask.kinds == _GENERIC and not cue:
            continue  # a value for "what's the X?" stands next to X
        near = {root(w) for w in before} | labels
        named_by_subject = ask.noun in _NAMING and bool(near & set(ask.subject))
        if value.kind not in _STRONG and not cue and not named_by_subject:
            continue  # a bare number or word counts only by the asked noun ("port 4321")
        out.append(
            _Said(
                value=value,
                labels=labels,
                cue=cue,
                near=_lemmas_near(text, value),
                planned=status == "plan",
                clause=" ".join(_clause(text, value)).lower(),
                moment=moment,
            )
        )
    return out


# A tracker's id has the tracker's key in capitals before its number ("OPS-4471",
# "INC-20931"): by its shape it is the ticket asked for, wherever the row says it.
_TICKET_ID = re.compile(r"[A-Z][A-Z0-9]{1,9}-\d+")
_TICKET_NOUNS = frozenset({"ticket", "incident", "issue", "jira", "case"})


def _ticket_for(ask: ValueAsk, value: Value) -> bool:
    """Is the value a tracker's id and the asked noun a ticket (or an incident, an issue)?"""
    asked = ask.noun in _TICKET_NOUNS or (ask.noun in _NAMING and ask.modifier in _TICKET_NOUNS)
    return asked and _TICKET_ID.fullmatch(value.text) is not None


def _tracker_words_aside(ask: ValueAsk) -> ValueAsk:
    """A request for a ticket, the words that name the ticket ("the *Jira* ticket", "the
    *incident* number") aside from what it is about: the id's shape says them."""
    if not (ask.noun in _TICKET_NOUNS or (ask.noun in _NAMING and ask.modifier in _TICKET_NOUNS)):
        return ask
    aside = {root(w) for w in (*_TICKET_NOUNS, ask.modifier) if w}
    return replace(ask, subject=tuple(t for t in ask.subject if t not in aside))


_ROLE_OF = re.compile(
    r"\s*(?:the\s+|our\s+)?([a-z]+)\s+(?:of|in|for)\s+[^.;:]*?\b(?:is|are|was|were)\s*$"
)


def _with_ports(ask: ValueAsk, text: str, values: list[Value]) -> list[Value]:
    """The values, and for a request of a port, the port a URL or host names after its
    colon ("served at https://mirth-admin.example:8443": 8443) — in a row that states no
    port of its own ("the api listens on port 4321; its docs are at …:8443": 4321 alone)."""
    if Kind.PORT not in ask.kinds or Kind.URL in ask.kinds or Kind.HOST in ask.kinds:
        return values
    if _PORT_WORD.search(text) or any(v.kind is Kind.PORT for v in values):
        return values
    out = []
    for value in values:
        out.append(value)
        port = _PORT_IN.search(value.text) if value.kind in (Kind.URL, Kind.HOST) else None
        if port is not None:
            start = value.start + port.start(1)
            out.append(
                Value(
                    text=port.group(1), kind=Kind.PORT, start=start, end=start + len(port.group(1))
                )
            )
    return out


def _read_whole(ask: ValueAsk, text: str, values: list[Value]) -> list[Value]:
    """The values, a value the row states whole across two of them (a host with its port:
    "mm-staging.internal:7450"; a date with its time) read as one — but where the asked
    noun asks a part ("which port", "what date"). A request of both ("host and port") is
    answered by a whole alone: a host without its port answers half of it."""
    out: list[Value] = []
    k = 0
    while k < len(values):
        first = values[k]
        second = values[k + 1] if k + 1 < len(values) else None
        joined = second is not None and any(
            first.kind is one
            and second.kind is two
            and first.kind in ask.kinds
            and ask.noun not in _PART_NOUNS[one] | _PART_NOUNS[two]
            and gap.fullmatch(text[first.end : second.start])
            for one, gap, two in _WHOLES
        )
        if joined and second is not None:
            whole = text[first.start : second.end]
            out.append(Value(text=whole, kind=first.kind, start=first.start, end=second.end))
            k += 2
            continue
        if not (ask.pair and first.kind in ask.kinds):
            out.append(first)
        k += 1
    return out


_PORT_WORD = re.compile(r"\bports?\b", re.IGNORECASE)
_PORT_IN = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?[^/:@\s]+:(\d{2,5})(?=/|$)", re.IGNORECASE)


def _lemmas_near(text: str, value: Value) -> frozenset[str]:
    """The lemmas of the two words before a value and of the one after it, in its clause."""
    head, tail = _clause(text, value)
    before = tokens(code_form(head))[-2:]
    after = tokens(code_form(tail))[:1]
    return frozenset(t.lemma for t in (*before, *after))


def _owned_by_another(ask: ValueAsk, text: str, said: _Said) -> bool:
    """Is the value named by a noun the question does not say, right before it ("Migration
    0042_add_invoices", "Postgres 15.4"): that thing's value, not one of what is asked?"""
    if said.cue:
        return False
    return _naming_noun(ask, text, said.value) is not None


# Words that say when a value held, never whose it is ("false positives last week: 0.8%",
# "p99 over the last hour: 180 ms").
_WHEN_NOUNS = word_set(
    """hour hours day days week weeks month months quarter year night sprint weekend morning
    evening afternoon today yesterday tonight"""
)


def _naming_noun(ask: ValueAsk, text: str, value: Value) -> Token | None:
    """The word right before the value in its clause when it can be a noun naming the
    value's owner, one the question does not say ("Postgres" in "Postgres 15.4")."""
    head, _ = _clause(text, value)
    left = tokens(code_form(head))[-1:]
    if not left:
        return None
    word = left[0]
    named = (
        word.text.isalpha()
        and word.text not in _STOP | _NP_STOP | _VERBISH | _WHEN_NOUNS
        and word.lemma not in _ASKING
        and not _past(word)
        and word.text not in ask.question
    )
    return word if named else None


def _in_question(ask: ValueAsk, value: str) -> bool:
    pattern = rf"(?<![a-z0-9]){re.escape(value.lower())}(?![a-z0-9])"
    return bool(ask.question) and re.search(pattern, ask.question) is not None


def _labels(text: str, value: Value) -> frozenset[str]:
    head, tail = _clause(text, value)
    words = tokens(code_form(f"{head} {tail}"))
    return frozenset({t.stem for t in words} | {root(t.text) for t in words})


def _counted(ask: ValueAsk, fact: Fact) -> list[_Said]:
    """The numbers that count the asked noun: "1834 files", "3 of 40 pods" (→ 3), "27
    warnings" — the noun itself (or a short form of it), never a neighbour of it."""
    text = fact.text
    out: list[_Said] = []
    counting = False  # the last number counted the asked noun ("57 TODOs, 12 of them…")
    number = (
        r"(?<![\w.#])(?<!\w-)(?<!\d\u2013)(\d[\d,]*(?:\.\d+)?(?:k|m)?)(?![\w.%])(?![-\u2013]\w)"
    )
    for m in re.finditer(number, text, re.I):
        if re.search(r"\d\s*(?:of|out of|/)\s*$", text[: m.start()]):
            continue  # "3 of 40 pods": 40 is the whole, 3 the count
        scale = re.match(r"\s+(?:thousand|million|billion|trillion)\b", text[m.end(1) :], re.I)
        end = m.end(1) + (scale.end() if scale else 0)
        value = Value(text=text[m.start(1) : end], kind=Kind.NUMBER, start=m.start(1), end=end)
        if re.match(r"\s+of\s+(?:them|those|these)\b", text[m.end() :]) and counting:
            out += _counted_value(ask, text, value)  # "57 TODOs, 12 of them in src/api"
            continue
        rest = re.sub(r"^\s+of\s+(?:\d[\d,.]*|them|those|these|which|all)\b", "", text[end:])
        following = [
            w
            for w in re.findall(r"[a-z0-9][a-z0-9-]*", rest.lower()[:48])[:4]
            if w not in ("with", "known", "new", "total", "more", "are", "were", "have", "had")
        ][:2]
        if not following or following[0][0].isdigit():
            counting = False
            continue
        if counting and following[0] in ("on", "in", "at", "for", "from", "under", "across"):
            # "12 failing tests on main and 3 on the release branch": 3 counts them too
            out += [replace(v, parallel=True) for v in _counted_value(ask, text, value)]
            continue
        for word in following:
            r = root(lemma(word))
            if any(_same_noun(r, c) for c in ask.counted):
                counting = True
                out += _counted_value(ask, text, value)
                break
        else:
            counting = False
    return out


def _counted_value(ask: ValueAsk, text: str, value: Value) -> list[_Said]:
    status = _status(ask, text, value)
    if status in (None, "gone") or _in_question(ask, value.text):
        return []
    if _other_qualifier(ask, text, value) or _other_state(ask, text, value):
        return []
    if _of_another_outcome(ask, text, value):
        return []  # "ran 41 jobs" for "how many jobs failed?"
    return [
        _Said(
            value=value,
            labels=_labels(text, value),
            cue=True,
            near=_lemmas_near(text, value),
            planned=status == "plan",
            clause=" ".join(_clause(text, value)).lower(),
        )
    ]


def _same_noun(a: str, b: str) -> bool:
    """The same noun, or one a short form of the other ("doc" and "document")."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return a == b or (len(short) >= 3 and long.startswith(short) and short.isalpha())


def _values(ask: ValueAsk, fact: Fact) -> list[_Said]:
    if not ask.counted:
        return _said(ask, fact)
    if Kind.RATE in ask.kinds:
        # "how often": so much per unit of time, whole ("3 times a day"), never its number
        rates = [
            s for s in _said(replace(ask, counted=frozenset()), fact) if s.value.kind is Kind.RATE
        ]
        if rates:
            return rates
    return _counted(ask, fact)


def _of_another(ask: ValueAsk, fact: Fact, said: _Said) -> bool:
    """Is the answer a row gives said of another thing than the one asked: the asked noun
    with another modifier in the row and never the question's ("Line coverage …" for "the
    branch coverage"), or another one of a thing the row names twice ("the users table has
    23 columns and the orders table has 41": 23 is not the orders')? Only ever a reason
    not to answer."""
    text = code_form(fact.text)
    words = tokens(text)
    asked = set(re.findall(r"[a-z0-9]+", ask.question))
    if ask.modifier:
        modifiers = {
            words[k - 1].lemma
            for k in range(1, len(words))
            if words[k].lemma == ask.noun
            and words[k - 1].text.isalpha()
            and words[k - 1].text not in _STOP | _NP_STOP
            and not text[words[k - 1].end : words[k].start].strip()
        }
        if modifiers and ask.modifier not in modifiers and not modifiers & asked:
            return True
    if _another_named(ask, said.clause):
        return True
    for value in values_in(ask.question):
        name = re.escape(value.text.lower())
        whole = re.search(rf"(?<![\w.-]){name}(?![\w.-])", said.clause)
        longer = re.search(rf"(?<![\w.-]){name}[_-]\w", said.clause)
        if value.kind is Kind.ID and longer and not whole:
            return True  # "search_docs" asked, the value said of "search_docs_v2"
    for term in ask.subject if ask.counted else ():
        if not term.isalnum() or _said_has(said, term):
            continue
        for part in _CLAUSE_END.split(fact.text.lower()):
            if said.value.text.lower() in part or not re.match(r"\s*\d", part):
                continue  # only a clause that counts something else ("17 were rejected")
            words = tokens(code_form(part))
            if term in {root(t.lemma) for t in words} | {t.stem for t in words}:
                return True  # "how many did it reject?" of "812 went in, 17 were rejected"
    said_lemmas = {t.lemma for t in tokens(code_form(said.clause))} - _STOP
    for term in _specific(ask):
        if _said_has(said, term) or any(_near(term, label) for label in said.labels):
            continue
        for k, t in enumerate(words):
            if not (t.text == term or root(t.lemma) == term):
                continue
            beside = {
                w.lemma
                for w in (words[k - 1] if k else None, words[k + 1] if k + 1 < len(words) else None)
                if w is not None
                and w.text.isalpha()
                and not _CLAUSE_END.search(text[min(w.end, t.end) : max(w.start, t.start)])
            } - _STOP
            if beside & said_lemmas:
                return True  # the row names the asked one beside a noun the value's has
    return False


def _another_named(ask: ValueAsk, clause: str) -> bool:
    """Does the value's own clause name a word of the request after another name than the
    question's, and never the question's ("the Westbrook clinic" asked, the value said of
    "the Eastfield clinic"): that one's value, whatever the rest of the row says?"""
    question = code_form(ask.question)
    asked = tokens(question)
    specific = set(_specific(ask))
    words = tokens(clause)
    roots = {root(t.lemma) for t in words} | {t.text for t in words}

    def named(t: Token) -> bool:  # a name, not a word of the language ("Westbrook")
        return t.text.isalpha() and len(t.text) > 2 and not known(t.text)

    for mod, head in itertools.pairwise(asked):
        if question[mod.end : head.start].strip() or not named(mod):
            continue
        if root(head.lemma) not in specific or root(mod.lemma) not in specific:
            continue
        if root(mod.lemma) in roots or mod.text in roots:
            continue  # the question's own word is the value's too
        for other, word in itertools.pairwise(words):
            if (
                word.lemma == head.lemma
                and named(other)
                and not clause[other.end : word.start].strip()
                and other.text not in ask.question
            ):
                return True
    return False


def _said_has(said: _Said, term: str) -> bool:
    if term.isalnum():
        return term in said.labels
    return re.search(rf"(?<![a-z0-9_]){re.escape(term)}(?![a-z0-9_])", said.clause) is not None


def _former(ask: ValueAsk, fact: Fact) -> bool:
    """Does the row give a value of the asked kind that is not a present fact (a former one,
    "down from 530 MB"; a planned one, "bump to 6.0.0 next sprint") beside its present one,
    while the question does not ask for the present one? Which it asks is then a guess."""
    if _PRESENT.search(ask.question):
        return False
    text = unicodedata.normalize("NFKC", fact.text)
    return any(v.kind in ask.kinds and _not_present(ask, text, v) for v in values_in(text))


def _not_present(ask: ValueAsk, text: str, value: Value) -> bool:
    """A value the row gives as former or unsettled (planned, when the question does not
    ask about a plan) — not one it denies ("4321, not 8080": that row picks 4321 itself)."""
    status = _status(ask, text, value)
    if status is None:
        before, after = (part.lower() for part in _clause(text, value))
        return not _NEGATION.search(before) and _unsettled(f"{before} {after}")
    return status == "gone"  # "plan": the question asks about the plan it states


_PRESENT = re.compile(r"\b(?:now|currently|current|today|latest|still|these days|at the moment)\b")


def _pick(ask: ValueAsk, row: _Row, values: list[_Said]) -> _Said | str | None:
    """The value a row gives: the only one, or the one the question's words mark there —
    its asked noun when that names one measure ("p99", "digest"), a plan when it asks about
    one, the kind it asks for first ("when": a date before a time), then the one value
    whose own clause states every word of the question any value's clause says (the one
    label the question names, or none); "several" when not exactly one does."""
    if _former(ask, row.fact):
        return "several"  # "what's the image size?" of a row that gives it then and now
    if root(ask.noun) not in _group_of() and any(v.cue for v in values):
        # "the p99": the value "p99" labels — but not over one said in a clause that names
        # no other measure ("lag on db-2 is 3s; on db-3 it's 45s": which is asked?)
        values = [v for v in values if v.cue or _unlabelled(v)]
    if any(v.planned for v in values):
        values = [v for v in values if v.planned]
    if values:
        first = min(ask.kinds.index(v.value.kind) for v in values)
        kept = [v for v in values if ask.kinds.index(v.value.kind) == first]
        if not any(v.cue for v in kept) and any(v.cue for v in values if v not in kept):
            # "Postgres sits at :5432 and the api on port 4321": the value by the asked noun
            # is not dropped for another's kind
            return "several"
        values = kept
    if len({v.value.text.casefold() for v in values}) <= 1:
        return values[0] if values else None
    asked = _qualifiers(ask.question)
    for n, group in enumerate(zip(*(_qualifiers(v.clause) for v in values), strict=True)):
        if not asked[n] and len({frozenset(g) for g in group if g}) > 1:
            return "several"  # "4.2.0 in staging and 4.1.7 in production": which?
    # what tells the values apart: the question's words, not the member's name nor the
    # row's heading ("Profiling /api/search: p95 …, p99 …" heads both), and only those some
    # value's own clause says (a word said only elsewhere in the row tells none apart)
    member = {root(p) for p in re.split(r"[-_]", row.fact.member.lower()) if p}
    heading = row.fact.text.lower().split(": ", 1)[0] if ": " in row.fact.text else ""

    def has(said: _Said, term: str) -> bool:
        return term in said.labels if term.isalnum() else term in said.clause

    wanted = {t for t in ask.subject if t not in member and t not in heading}
    if any(v.parallel or _unlabelled(v) for v in values):
        # a value said without its noun cannot show the question's words that its noun
        # phrase held: only words the other clauses lack tell them apart
        labelled = [v for v in values if not (v.parallel or _unlabelled(v))]
        wanted = {t for t in wanted if not any(has(v, t) for v in labelled)}
    wanted = {t for t in wanted if any(has(v, t) for v in values)}

    def states_all(said: _Said, shared: frozenset[str] = frozenset()) -> bool:
        near = {root(w) for w in said.near}
        return all(t in near or has(said, t) for t in wanted - shared)

    # each value's own label ("p50 is 80 ms", "91% on db-2", "main sits at 79.1%"): the
    # question names exactly one value's, or, when every value has a label and the question
    # names none, none is the answer ("checkout latency" of "p50 … 80 ms, p99 … 900 ms")
    own = _own_labels(ask, row.fact, values)
    hits = {v.value.text.casefold(): v for v, label in own if _names_label(ask, label)}
    if len(hits) == 1:
        hit = next(iter(hits.values()))
        # the words that name the measure ("search latency is 120 ms at p50 and 700 ms at
        # p99") are every labelled value's, said once
        words = tokens(code_form(row.fact.text))
        named = frozenset(
            root(words[k - 1].lemma) for k in range(1, len(words)) if words[k].lemma == ask.noun
        )
        named |= _coordinated_head(row.fact.text, hit, own)
        if not states_all(hit, named) or _outsaid(ask, row, hit, values):
            return "several"  # "pinned pydantic to 2.7.4 because 2.8 breaks our validators"
        return hit
    if hits or all(label for _, label in own) or not wanted:
        return "several"
    # else exactly one value whose own clause states every one of those words
    told = {v.value.text.casefold(): v for v in values if states_all(v)}
    return next(iter(told.values())) if len(told) == 1 else "several"


# Words a question may say of a whole count that its row need not: the whole itself, the
# present, and the verbs that only report a count ("found", "have", "there are").
_OF_THE_WHOLE = word_set(
    """many much number total all altogether overall whole entire in now right currently today find
    found count counted report reported see saw show list have has had there get got"""
)


def _whole_for_a_part(ask: ValueAsk, text: str, picked: Value) -> bool:
    """Is the pick the whole of a row that gives a part of it too ("250 seats, 231 of them
    in use"), asked with a word the row does not say ("how many seats are taken?"): a word
    that may name the part in other words, so which count is asked is a guess?"""
    if picked.kind not in _AMOUNTS:
        return False  # "n2-standard-8 machines, 12 of them": a name is no count's whole
    parts = [m.start() for m in _PART.finditer(text)]
    return bool(parts) and picked.start not in parts and _unsaid(ask, text)


_PART = re.compile(r"(?<![\w.])\d[\d,]*(?=\s+(?:of|out of)\s+(?:them|those|these|which)\b)")


def _unsaid(ask: ValueAsk, text: str) -> bool:
    """Does the question say a word the row does not, beside the words of any question and
    of a whole count? Of a row giving a whole and a part of it, such a word ("taken", "free",
    "left") may name the part in other words: which count is asked is then a guess."""
    said = _roots_of(text, "")  # the row's own words, not its member's name
    for t in tokens(code_form(ask.question)):
        if t.text in _STOP or t.text in _OF_THE_WHOLE or t.lemma in _OF_THE_WHOLE:
            continue
        if not {root(t.lemma), root(t.text), t.stem} & said:
            return True
    return False


def _coordinated_head(
    text: str, hit: _Said, own: Sequence[tuple[_Said, frozenset[str]]]
) -> frozenset[str]:
    """The words a value joined to the row's first one shares with it: "The ETL image pins
    Python 3.11.9 and pandas 2.2.2" says of pandas too what it says before Python — when the
    joined value's clause holds nothing but its label ("and pandas"), so no subject of its
    own ("and the API image pandas 2.2.2" shares none)."""
    first = min(v.value.start for v, _ in own)
    if hit.value.start == first:
        return frozenset()
    label = next(lab for v, lab in own if v is hit)
    head = _clause(text, hit.value)[0].lower()
    rest = [w for w in _LABEL_WORDS.findall(head) if w not in _STOP and w not in label]
    if rest or not label:
        return frozenset()
    firsts = [lab for v, lab in own if v.value.start == first]
    before = tokens(code_form(text[:first]))
    return frozenset(root(t.lemma) for t in before if t.text not in firsts[0]) | frozenset(
        t.stem for t in before if t.text not in firsts[0]
    )


def _outsaid(ask: ValueAsk, row: _Row, hit: _Said, values: Sequence[_Said]) -> bool:
    """Does another value's own clause say more of what the request is about than the one
    its label picked ("which pydantic release breaks our validators?" of "pinned pydantic
    to 2.7.4 because 2.8 breaks our validators": the label "pydantic" picks 2.7.4, the
    words pick 2.8)? Then the label only said whose value it is, and which is a guess."""
    member = {root(p) for p in re.split(r"[-_]", row.fact.member.lower()) if p}
    wanted = [t for t in _specific(ask) if t not in member]
    text = unicodedata.normalize("NFKC", row.fact.text)

    def said(v: _Said) -> int:
        after = _clause(text, v.value)[1].lower()
        own = re.split(r"\b(?:because|although|though|whereas|unless|since|as)\b", after)[0]
        for other in values:
            if other is not v and other.value.text.lower() in own:
                own = own.split(other.value.text.lower(), 1)[0]
        words = {t.stem for t in tokens(own)} | {root(t.text) for t in tokens(own)}
        return sum(t in words for t in wanted)

    return any(said(v) > said(hit) for v in values if v is not hit)


# What stands between a value and the word that labels it ("p99 is at 900 ms").
_LINKING = word_set(
    "is are was were be been sits sit stands reads shows at to now currently down up of by "
    "around about just only still the a an its our it s"
)
_LABEL_AFTER = word_set("at on in for under with per across of")
_WHEN_WORDS = word_set("before after previously earlier ago today yesterday now")


def _own_labels(
    ask: ValueAsk, fact: Fact, values: Sequence[_Said]
) -> list[tuple[_Said, frozenset[str]]]:
    """Each value with the words that tell it apart from the row's other values of its
    kind: up to two content words right before it ("p50 is 80 ms", "cold start takes 4.2
    s", "main sits at 79.1%") back to the asked noun, and the phrase right after it ("91% on
    db-2", "900 ms at p99", "640 MB before") — less the member's name and the words every
    value's label has."""
    text = unicodedata.normalize("NFKC", fact.text)
    member = {p for p in re.split(r"[-_]", fact.member.lower()) if p}
    if ": " in text:  # the row's heading heads every value ("Checkout: p50 is …")
        member |= set(_LABEL_WORDS.findall(text.lower().split(": ", 1)[0]))
    labels = []
    for said in values:
        head, tail = (part.lower() for part in _clause(text, said.value))
        label: set[str] = set()
        for word in reversed(_LABEL_WORDS.findall(head)):
            skip = word in _LINKING or lemma(word) in _ASKING
            if skip and not label:
                continue
            asked_noun = (root(word) in ask.cues or stem(word) in ask.cue_stems) and (
                root(word) in _group_of() or root(word) == root(ask.noun)
            )
            if skip or word in _STOP or asked_noun:
                break
            label.add(word)
            if len(label) == 2:
                break
        after = [w for w in _LABEL_WORDS.findall(tail) if w not in ("the", "a", "an")]
        if len(after) >= 2 and after[0] in _LABEL_AFTER:
            label.add(after[1])
        elif after and after[0] in _WHEN_WORDS:
            label.add(after[0])
        else:  # a participle ending its clause: "212 MB uncompressed, 61 MB once gzipped"
            state = [w for w in after if w not in ("once", "when", "if", "being", "still")]
            if len(state) == 1 and state[0].endswith("ed") and state[0] not in _STOP:
                label.add(state[0])
        bracketed = re.match(r"\s*\(([a-z0-9][\w.-]*)\)", text[said.value.end :].lower())
        if bracketed:
            label.add(bracketed.group(1))  # "900 ms (p99)"
        labels.append(frozenset(label - member))
    common = frozenset.intersection(*labels) if labels else frozenset()
    return [(v, label - common) for v, label in zip(values, labels, strict=True)]


_LABEL_WORDS = re.compile(r"[a-z0-9][a-z0-9_./-]*[a-z0-9]|[a-z0-9]")


def _names_label(ask: ValueAsk, label: frozenset[str]) -> bool:
    """Does the question say one of a value's label words: the word whole, or two of the
    parts of a compound one ("billing v2" for "feature/billing-v2")?"""
    said = set(_LABEL_WORDS.findall(ask.question))
    parts = {p for w in said for p in re.split(r"[-_./]", w) if p}
    roots = {root(w) for w in said | parts}
    for word in label:
        pieces = [p for p in re.split(r"[-_./]", word) if p]
        if word in said or root(word) in roots:
            return True
        if len(pieces) > 1 and sum(p in parts for p in pieces) >= 2:
            return True
    return False


def _unlabelled(said: _Said) -> bool:
    """Is the value said with no word of its own before it but function words and names
    ("on db-3 it's 45s"): a parallel of the labelled one?"""
    head = said.clause.split(said.value.text.lower(), 1)[0]
    words = re.findall(r"[a-z][a-z0-9_-]*", head)
    return bool(words) and all(
        w in _STOP or w in _NP_STOP or re.fullmatch(r"[a-z0-9]+(?:[-_.][a-z0-9]+)+", w)
        for w in words
    )


def _sources(ask: ValueAsk, members: Sequence[str]) -> frozenset[str] | str | None:
    """The members whose word the question asks for — called a source ("the radar
    session", "according to scout") or an agent ("did the prober find", "did deployer-2
    build"), by its whole name or a part of it ("prober": prober-eu and prober-us) — None
    when it names none, or the name as said when it names one no member of the rows is."""
    slugs = {m: " ".join(re.findall(r"[a-z0-9]+", m.lower())) for m in members}
    found: set[str] = set()
    marks = [m for pattern in _SOURCE_MARKS for m in pattern.finditer(ask.question)]
    for m in marks:
        name = next(g for g in m.groups() if g)
        spelled = " ".join(re.findall(r"[a-z0-9]+", name))
        exact = {x for x, s in slugs.items() if s == spelled or spelled.endswith(" " + s)}
        matched = exact or {x for x, s in slugs.items() if spelled in s.split()}
        if matched:
            found |= matched
        elif m.re is _SOURCE_MARKS[0] or _AGENT_NAME.fullmatch(name):
            return name  # "the probe-eu session", "deployer-2": a member the rows lack
    return frozenset(found) or None


_SOURCE_MARKS = (
    re.compile(r"\bthe\s+([a-z0-9][a-z0-9-]{0,40})\s+(?:session|member|agent|bot)\b"),
    re.compile(r"\b(?:according to|per)\s+(?:the\s+)?([a-z0-9][a-z0-9-]*)"),
    re.compile(
        r"\b(?:did|does|has|have|had|will|would)\s+(?:the\s+)?"
        r"([a-z][a-z0-9]*(?:er|or|bot|agent)(?:-[a-z0-9]+)*|[a-z][a-z0-9]*-[a-z0-9-]+)\s+"
        r"(?!(?:be|been|get|go|session|member|agent|bot)\b)[a-z]+"
    ),
)
# A name as agents are named: "deployer-2", "billing-agent".
_AGENT_NAME = re.compile(r"[a-z]+(?:er|or)-[a-z0-9]+|[a-z0-9]+-(?:bot|agent|session|worker)")


def _mentioned(ask: ValueAsk, members: Sequence[str]) -> frozenset[str]:
    """The members whose whole name the question says ("how many did billing-bot draft?")."""
    said = f" {' '.join(re.findall(r'[a-z0-9]+', ask.question))} "
    return frozenset(
        m for m in members if f" {' '.join(re.findall(r'[a-z0-9]+', m.lower()))} " in said
    )


def _has_specifics(ask: ValueAsk, fact: Fact) -> bool:
    """Does the row hold every specific value the question names ("PR #483", "30 days",
    "products_v6") — a member's name aside, and a guess of the asked kind aside?"""
    row = f"{fact.text} {fact.member}".lower()
    for value in values_in(ask.question):
        text = value.text.lower()
        if value.kind in ask.kinds or value.kind is Kind.WORD:
            continue
        if value.kind is Kind.ID and not re.search(r"\d|_|#", text):
            continue  # a hyphenated word ("read-only") is what a row is about, not a value
        if not _says(row, text):
            return False
    return True


# A cohort's age as analytics labels it, in full or short: "Day-7", "day 7", "D7"; "W4",
# "M3".
_AGE_LABEL = re.compile(r"(day|week|month|d|w|m)[- ]?(\d{1,3})")
_AGE_UNITS = {"d": "day", "w": "week", "m": "month"}


def _says(text: str, term: str, *, edge: str = "a-z0-9") -> bool:
    """Does a lower-case text say a lower-case term of the question whole (no character of
    ``edge`` either side), as the question writes it or, for a cohort's age, in its other
    form ("d7" for "day-7")?"""
    age = _AGE_LABEL.fullmatch(term)
    forms: tuple[str, ...] = (term,)
    if age is not None:
        short, number = age.group(1)[0], age.group(2)
        forms = tuple(  # "d7", "d-7", "day7", "day-7", "day 7": never "d 7", a letter apart
            f"{unit}{gap}{number}"
            for unit, gaps in ((short, ("", "-")), (_AGE_UNITS[short], ("", "-", " ")))
            for gap in gaps
        )
    return any(re.search(rf"(?<![{edge}]){re.escape(f)}(?![{edge}])", text) for f in forms)


def read_fleet(ask: ValueAsk, facts: Sequence[Fact]) -> FleetReading:
    """What ``facts`` say about ``ask``: one agreed value and its rows, or why none."""
    return _reading(ask, facts)


def _reading(ask: ValueAsk, facts: Sequence[Fact]) -> FleetReading:
    """The reading of ``facts``: by the rows strictly about the question; any other row
    about most of it that gives another value of the asked kind, by the asked noun or by the
    question's words, disputes the answer."""
    usable = [f for f in facts if not injection_in(f.text)]
    ignored = tuple(f for f in facts if injection_in(f.text))
    ask = _tracker_words_aside(ask)
    if not ask.subject and ask.decides:
        # "where should the new config file live?": a decision asked of you, about nothing
        # a row can be known to answer
        return FleetReading(found="it asks you to decide, about nothing the fleet said")
    if ask.pair and not _one_value(ask.pair):
        # "which version and commit …": one of the two is a partial answer
        first, second = ask.pair
        return FleetReading(
            found=f"it asks two things, the {first} and the {second}, and a value answers one",
            ignored=ignored,
        )
    members = sorted({f.member for f in usable})
    sources = _sources(ask, members)
    if isinstance(sources, str):
        return FleetReading(
            found=f"it asks what {sources} said, and no member of that name said a thing about it",
            ignored=ignored,
        )
    rows = [
        _row(ask, f)
        for f in usable
        if (sources is None or f.member in sources) and _has_specifics(ask, f)
    ]
    specific = _specific(ask)
    answering: list[tuple[_Said, _Row]] = []
    against: list[tuple[_Said, _Row]] = []
    several: list[_Row] = []
    rivals: list[tuple[str, Fact]] = []  # the rows disputing a row read as a citation
    for row in rows:
        values = _values(ask, row.fact)
        if row.covered:
            against += [(v, row) for v in values if v.moment]
        values = [v for v in values if not v.moment]
        if not values:
            continue
        picked = (
            None
            if _another_time(ask, row.fact) or _period_contradicted(ask, row.fact)
            else _pick(ask, row, values)
        )
        if not _strictly_about(ask, row):
            # a row short of a word of the question answers where a model's citation of its
            # value would hold: about the thing as ``check_cited`` reads it (the relation
            # asked, a noun the value's form proves, words of time and degree need not be
            # said) and passing every check of it; rows disputing it are said on the card
            cited = picked if isinstance(picked, _Said) else None
            picked = None
            if cited is not None and _about_entity(
                ask, row.fact, cited.value.kind, value=cited.value
            ):
                found = _rivals(ask, row.fact, cited.value, usable)
                rivals += [(cited.value.text, row.fact), *found] if found else []
                if check_cited(ask, usable, row.fact.row_id, cited.value.text) is not None:
                    picked = cited
        if picked is not None:
            if isinstance(picked, _Said) and _of_another(ask, row.fact, picked):
                picked = "several"
            if isinstance(picked, _Said) and _of_other_subject(ask, row.fact.text, picked.value):
                picked = None  # "dbt runs on warehouse ETL_WH_L; the dashboards use another"
            if isinstance(picked, _Said) and _whole_for_a_part(ask, row.fact.text, picked.value):
                picked = "several"
            if isinstance(picked, _Said):
                answering.append((picked, row))
                continue  # its other values are the pick's neighbours, not a dispute
            if picked == "several":
                several.append(row)
        # a row about all but one of its specific words (any row, when it names nothing
        # specific) disputes with a value said by the asked noun or by the question's words
        if not specific:
            # "which version is running?": whose? Every row disputes — but where the request
            # names what it is about in generic words ("the newest tag on the repo"), a row
            # that says none of them nor the asked noun is of another thing ("Postgres 14.9")
            if not ask.subject or row.score > 0 or root(ask.noun) in row.roots:
                against += [(v, row) for v in values]
        elif row.exact or sources is not None:
            against += [(v, row) for v in values if v.cue or v.labels & set(specific)]
    if several and not answering:
        listed = "; ".join(f"{r.fact.member} said “{_short(r.fact.text)}”" for r in several)
        return FleetReading(
            found=f"a row gives several values and the question does not say which: {listed}",
            ignored=ignored,
        )
    if answering:
        named = _mentioned(ask, [r.fact.member for _, r in answering])
        if named:  # "what did billing-bot draft?": that member's rows
            answering = [(v, r) for v, r in answering if r.fact.member in named]
            against = [(v, r) for v, r in against if r.fact.member in named]
        best = max(r.score for _, r in answering)
        against += [(v, r) for v, r in answering if r.score < best]
        answering = [(v, r) for v, r in answering if r.score >= best]
    if not answering and rivals:
        every = sorted(dict.fromkeys(rivals), key=lambda p: p[1].at)
        return FleetReading(said=tuple(every), found=_disagreement(every), ignored=ignored)
    if not answering:
        return FleetReading(found=_nothing(ask, rows), ignored=ignored)
    if any(v.cue for v, _ in answering):
        # "port 4321" over ":5432" in a row; another row's value said without the asked
        # noun still disputes ("latest release is v4.12.1" against "release tag … v4.12.3")
        cued_rows = {r.fact.row_id for v, r in answering if v.cue}
        against += [(v, r) for v, r in answering if r.fact.row_id not in cued_rows]
        answering = [(v, r) for v, r in answering if v.cue]
    if not all(_owned_by_another(ask, r.fact.text, v) for v, r in answering):
        # "staging got v2.14.0" over "Postgres 15.4" for the version staging got
        answering = [(v, r) for v, r in answering if not _owned_by_another(ask, r.fact.text, v)]
    if ask.subject:
        # "Postgres 15.4" is Postgres's version, not the asked thing's — but a request that
        # names nothing ("which version is running?") may mean any of them
        against = [(v, r) for v, r in against if not _owned_by_another(ask, r.fact.text, v)]
    if specific and all(v.cue for v, _ in answering):
        # a value said by the asked noun is disputed only by another said the same way,
        # not by one of another thing's ("Postgres 15.4 … :5432")
        against = [(v, r) for v, r in against if v.cue or _said_of_same(ask, v)]
    if specific:
        # a dispute comes from a row as much about the question's specific words as the
        # answer's ("809 tests passed" against "812 tests passed", both on main)
        least = min(r.in_text for _, r in answering)
        owners = {o for v, _ in answering if (o := _owner(v)) and root(o) not in ask.cues}
        against = [
            (v, r)
            for v, r in against
            if r.in_text >= max(1, least)
            # about every word of the question, some in other words ("Owner of the billing
            # DB is …" against "who owns the billing database?")
            or _about_in_other_words(ask, r)
            # one specific word short, but the value named by the same asked word:
            # "Postgres 15.4" against "Postgres 14.9" for the staging database's
            or (r.in_text >= max(1, least - 1) and _owner(v) in owners & _asked_words(ask))
            # or said in a clause of its own about all but one of them, three or more:
            # "caps uploads at 25 MB for the web service" against "the web service's max
            # upload size is 50 MB"
            or _said_of_same(ask, v)
        ]
    said = _latest(answering)
    agreed = {v.casefold() for v, _ in said}
    against_facts = [(v.value.text, r.fact) for v, r in against]
    against_facts += _said_in_other_words(ask, answering, rows)
    others = [
        (v, f) for v, f in against_facts if v.casefold() not in agreed and not _updated_by(f, said)
    ]
    if len(agreed) > 1 or others:
        every = sorted(dict.fromkeys([*said, *others]), key=lambda p: p[1].at)
        return FleetReading(said=tuple(every), found=_disagreement(every), ignored=ignored)
    value, source = max(said, key=lambda p: p[1].at)
    return FleetReading(
        answer=value,
        source=source,
        evidence=tuple(f for _, f in said),
        said=said,
        ignored=ignored,
    )


def _said_in_other_words(
    ask: ValueAsk, answering: Sequence[tuple[_Said, _Row]], rows: Sequence[_Row]
) -> list[tuple[str, Fact]]:
    """The values other rows give of the same thing in other words: a row that names the
    question's thing (all its distinguishing words but one, and every name of it whole) and
    states, whatever its verb, another live value of the answer's kind ("the broker
    throttles us at 60 req/min" against "the broker API limit is 120 requests per minute";
    "cut-off moved to 15:00" against "the cut-off is 14:30"). A bare number, name or
    identifier counts only where the row says it by the asked noun, as an answer would, or
    where it supersedes the answer: the answer's own form with other digits
    ("game_events_v4" for "game_events_v3"), or said by a word of change ("dashboards now
    read …", "we cut over"). A row that supersedes may name the thing without the relation
    asked (the dashboards "query" or "read" a dataset), and one that says the answer itself
    is retired ("v3 is frozen") disputes it with no value of its own."""
    kinds = {v.value.kind for v, _ in answering}
    given = {v.value.text.casefold() for v, _ in answering}
    sources = {r.fact.row_id for _, r in answering}
    qualifiers = {root(w) for table in _EXCLUSIVE for w in table}
    entity = [t for t in _specific(ask) if t not in ask.cues and t not in qualifiers]
    if not entity:
        return []
    thing = [t for t in entity if t not in _relation_words(ask)] or entity
    out: list[tuple[str, Fact]] = []
    for row in rows:
        text = unicodedata.normalize("NFKC", row.fact.text)
        if row.fact.row_id in sources:
            continue
        named = _names_thing(ask, entity, _unvalued(text))
        if not named and (thing == entity or not _names_thing(ask, thing, _unvalued(text))):
            continue
        out += [(said, row.fact) for said in _retired(ask, text, given)]
        cued = {s.value.text.casefold() for s in _values(ask, row.fact) if s.cue}
        for value in values_in(text):
            if value.kind not in kinds or value.text.casefold() in given:
                continue
            sibling = _sibling(value, given)
            superseding = sibling or _said_changed(text, value)
            if not named and not superseding:
                continue
            if value.kind in _WEAK and value.text.casefold() not in cued and not superseding:
                continue
            if _status(ask, text, value) not in ("fact", "plan") or _in_question(ask, value.text):
                continue
            if _MOMENT.match(text[value.end :]):
                continue  # "2 days ago": a moment, not a length
            if _other_qualifier(ask, text, value):
                continue
            if not sibling and _named_by_other(ask, text, value):
                continue  # "Postgres 15.4"; but "read `game_events_v4`" of "game_events_v3"
            if _other_state(ask, text, value):
                continue  # "3.5.0 is in review" disputes no live version
            if _another_named(ask, " ".join(_clause(text, value)).lower()):
                continue
            if not _names_before(thing, _unvalued(_clause(text, value)[0])):
                continue  # "Pipeline #8812 went green in 17 minutes on runner …": its own
            out.append((value.text, row.fact))
    return out


# Words by which a row says a thing's value changed ("dashboards *now* read v4", "we *cut
# over*", "*moved to*"), and words that say a value is no longer the thing's ("v3 is
# *frozen*").
_CHANGED = re.compile(
    r"\b(?:now|cut\s*over|cutover|moved|migrated|switched|replaced|renamed|rolled|upgraded"
    r"|bumped|no longer|instead|since)\b"
)
_RETIRED = re.compile(
    r"\b(?:frozen|deprecated|retired|decommissioned|no longer|replaced|superseded|obsolete"
    r"|outdated|read-only|sunset|sunsetted|archived|legacy)\b"
)


def _form(text: str) -> str:
    """A value's form, its digits aside: "game_events_v#" of "game_events_v3"."""
    return re.sub(r"\d+", "#", text.casefold())


def _sibling(value: Value, given: set[str]) -> bool:
    """Is ``value`` a name of an answer's own form with other digits ("exports_2026" for
    "exports_2025"): the same kind of thing, whatever word names it? (Bare numbers share
    their form with every other number.)"""
    form = _form(value.text)
    return re.search(r"[a-z]", form) is not None and any(form == _form(g) for g in given)


def _said_changed(text: str, value: Value) -> bool:
    """Does the value's clause say a change ("now writes to …", "we cut over: …")?"""
    before, after = _clause(text, value)
    return _CHANGED.search(f"{before} {after}".lower()) is not None


def _retired(ask: ValueAsk, text: str, given: set[str]) -> list[str]:
    """The clauses of the row that say an answer, or the numbered end of its name ("v3" of
    "game_events_v3"), is retired ("v3 is frozen", "3.8.2 is deprecated") — of the asked
    thing, not of another environment."""
    out: list[str] = []
    lowered = text.lower()
    for answer in given:
        ends = re.split(r"[-_./]", answer)
        pieces = {answer} | {p for p in (ends[0], ends[-1]) if re.search(r"\d", p) and len(p) > 1}
        for piece in pieces:
            for m in re.finditer(rf"(?<![\w./-]){re.escape(piece)}(?![\w/-]|\.\w)", lowered):
                mention = Value(
                    text=text[m.start() : m.end()], kind=Kind.ID, start=m.start(), end=m.end()
                )
                before, after = _clause(text, mention)
                if _RETIRED.search(f"{before} {after}".lower()) is None:
                    continue
                if _other_qualifier(ask, text, mention):
                    continue  # "4.2.1 is gone from staging" of production's
                out.append(f"{mention.text}{after}".strip())
    return out


def _rivals(
    ask: ValueAsk, cited: Fact, value: Value, usable: Sequence[Fact]
) -> list[tuple[str, Fact]]:
    """The other rows' values that dispute a model's cited ``value``: of a row that says the
    same thing in other words or supersedes it (``_said_in_other_words``), or of a row of
    any member about the thing asked — by every word, or all but one where it names no
    other thing in that word's place — that gives another live value of its kind ("25 MB"
    against "50 MB" for the web service's limit; "the search endpoint's p99" is no rival of
    the login one's)."""
    quoted = (_Said(value=value, labels=frozenset(), cue=False), _row(ask, cited))
    out = _said_in_other_words(ask, [quoted], [_row(ask, f) for f in usable])
    members = frozenset(root(p) for f in usable for p in re.split(r"[-_]", f.member.lower()) if p)
    specific = _specific(ask)
    for other in usable:
        if other.row_id == cited.row_id:
            continue
        if not _about_all(ask, other, besides=members):
            unsaid = _entity_unsaid(ask, other, value.kind, besides=members)
            if not _nearly_about(unsaid) or (
                unsaid is not None
                and unsaid[0]
                and _another_beside(ask, specific, specific, set(unsaid[0]), other.text)
            ):
                continue
        out += [
            (v.text, other)
            for v in values_in(other.text)
            if v.kind is value.kind
            and v.text.casefold() != value.text.casefold()
            and _status(ask, other.text, v) == "fact"
        ][:1]
    return out


def dispute(ask: ValueAsk, facts: Sequence[Fact], row_id: str, answer: str) -> str:
    """What the fleet says against a model's answer citing ``row_id``, for the card: the
    rows that dispute it ("the fleet disagrees: analytics said game_events_v3 at 09:33;
    data-eng said game_events_v4 at 09:38"), or "" when none does."""
    usable = [f for f in facts if not injection_in(f.text)]
    cited = next((f for f in usable if f.row_id == row_id), None)
    value = _value_cited(cited.text, answer) if cited is not None and answer else None
    if cited is None or value is None:
        return ""
    rivals = _rivals(ask, cited, value, usable)
    return _disagreement([(value.text, cited), *rivals]) if rivals else ""


def _disagreement(said: Sequence[tuple[str, Fact]]) -> str:
    """The card's words for rows that disagree, in the order they were said."""
    every = sorted(dict.fromkeys(said), key=lambda p: p[1].at)
    return "the fleet disagrees: " + "; ".join(
        f"{f.member} said {v} at {f.at:%H:%M}" for v, f in every
    )


def _names_thing(ask: ValueAsk, entity: Sequence[str], text: str) -> bool:
    """Does a row name the thing the question is about, as it is said: every name of it
    whole ("orion-3") and all its other distinguishing words but one, at least one of them
    — and, one short, none of them beside a noun the question does not say ("the staging
    API" is another thing than "the staging database")?"""
    lowered = text.lower()
    words = tokens(code_form(text))
    found = {root(t.lemma) for t in words} | {t.stem for t in words} | {t.text for t in words}
    # a name ("orion-3", "radiology-reporting", "Siemens") is said whole, never left out
    joined = re.findall(r"(?<![\w.-])[a-z0-9]+(?:[-_][a-z0-9]+)+(?![\w-])", ask.question)
    # ("end-to-end", with a word of grammar inside, is a phrase, not a name)
    joined = [j for j in joined if not any(p in _STOP for p in re.split(r"[-_]", j)[1:-1])]
    names = [t for t in entity if not t.isalnum()] + joined
    pieces = {root(lemma(p)) for j in joined for p in re.split(r"[-_]", j)}
    plain = [t for t in entity if t.isalnum() and t not in pieces]
    if not all(re.search(rf"(?<![a-z0-9]){re.escape(t)}(?![a-z0-9])", lowered) for t in names):
        return False
    have = [t for t in plain if t in found]
    if (not have and not names) or len(have) < len(plain) - 1:
        return False
    if len(have) == len(plain):
        return True
    return not _another_beside(ask, entity, have, set(plain) - set(have), text)


def _another_beside(
    ask: ValueAsk, entity: Sequence[str], have: Sequence[str], missing: set[str], text: str
) -> bool:
    """Does a row that names the asked thing but for the ``missing`` words name, right
    beside a word of it it ``has``, a noun the question does not say: another thing ("the
    staging API" for "the staging database", "the search endpoint" for the login one)? A
    heading's word before a colon is none ("last week: dashboards …")."""
    words = tokens(code_form(text))
    question = tokens(code_form(ask.question))
    asked = {t.text for t in question}
    # the present word heads a compound with the missing one in the question ("the schema
    # generator"): in the row it must not head another ("schema version v2")
    compound = {
        root(a.lemma)
        for a, b in itertools.pairwise(question)
        if root(a.lemma) in have and root(b.lemma) in missing
    }
    for k, t in enumerate(words):
        if root(t.lemma) not in have and t.text not in have:
            continue
        for n in (k - 1, k + 1):
            if not 0 <= n < len(words):
                continue
            between = text[min(t.end, words[n].end) : max(t.start, words[n].start)]
            if _CLAUSE_END.search(between) or ":" in between:
                continue
            other = words[n]
            if (
                other.text.isalpha()
                and (other.text not in asked or (n > k and root(t.lemma) in compound))
                and root(other.lemma) not in entity
                and other.text not in _STOP | _NP_STOP | _VERBISH
                and other.lemma not in _ASKING
                and not _verb_form(other)
                # "the broker throttles", "intake caps bodies": a verb after its subject
                and not (n > k and other.text.endswith("s") and not other.text.endswith("ss"))
            ):
                return True  # "the staging API" for "the staging database"
    return False


def _unvalued(text: str) -> str:
    """The text with its typed values blanked: a word inside a host or a path
    ("search-qa.internal") names no thing a row is about."""
    for value in reversed(values_in(text)):
        if value.kind not in _WEAK:
            text = text[: value.start] + " " * (value.end - value.start) + text[value.end :]
    return text


def _names_before(entity: Sequence[str], head: str) -> bool:
    """Does the value's clause name a word of the asked thing before the value — as its
    subject ("the broker throttles us at 60 req/min"), not as a place after it?"""
    words = tokens(code_form(head))
    found = {root(t.lemma) for t in words} | {t.stem for t in words} | {t.text for t in words}
    lowered = head.lower()
    return any(
        t in found if t.isalnum() else re.search(rf"(?<![a-z0-9]){re.escape(t)}", lowered)
        for t in entity
    )


def _named_by_other(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is the value named by a noun right before it that the question does not say
    ("Postgres 15.4", "Migration 0042"): that thing's value, not a dispute of the asked
    one's?"""
    noun = _naming_noun(ask, text, value)
    return noun is not None and not _verb_form(noun) and root(noun.lemma) not in ask.cues


def _about_in_other_words(ask: ValueAsk, row: _Row) -> bool:
    """Does the row's own text say every word of the request, one at least as it is and the
    others by a neighbour ("Owner of the billing DB" for "who owns the billing
    database?"): as much about the asked thing as a row that says them all as they are?"""
    covered, _, exact = _coverage(ask.subject, _roots_of(row.fact.text, ""), row.fact.text)
    return bool(ask.subject) and covered >= len(ask.subject) and exact >= 1


def _said_of_same(ask: ValueAsk, said: _Said) -> bool:
    """Does the value's own clause say all but one of the request's specific words, where
    it has three or more — the same thing, whatever noun it is said by? One short, the
    clause must not name another thing in the missing word's place ("the search endpoint
    p99" for the login endpoint's)."""
    specific = _specific(ask)
    said_words = sum(_said_has(said, t) for t in specific)
    if len(specific) < 3 or said_words < len(specific) - 1:
        return False
    return said_words == len(specific) or not _other_modifier_in_place(ask, said.clause)


def _other_modifier_in_place(ask: ValueAsk, clause: str) -> bool:
    """Does the clause name a thing by a modifier the question does not say, right after a
    determiner (or the clause's start) and before a word of the request: "the *search*
    endpoint" of "the login endpoint"? ("the config caps request bodies" has none: "caps"
    follows no determiner.)"""
    words = tokens(code_form(clause))
    asked = {t.text for t in tokens(code_form(ask.question))}
    specific = set(_specific(ask))
    for k, (word, head) in enumerate(itertools.pairwise(words)):
        if k and words[k - 1].text not in _DETERMINERS:
            continue
        if (
            word.text.isalpha()
            and word.text not in asked
            and word.text not in _STOP | _NP_STOP
            and root(word.lemma) not in specific
            and root(head.lemma) in specific
            and not clause[word.end : head.start].strip()
        ):
            return True
    return False


def _owner(said: _Said) -> str:
    """The word right before a value in its clause ("Postgres" of "Postgres 15.4")."""
    head = said.clause.split(said.value.text.lower(), 1)[0]
    words = _LABEL_WORDS.findall(head)
    return words[-1] if words else ""


def _asked_words(ask: ValueAsk) -> set[str]:
    return set(_LABEL_WORDS.findall(ask.question))


# Words that place a value in time: a question that says one asks of that time only.
_TIME_WORDS = re.compile(
    r"\b(?:before last|ago|yesterday|today|tonight|previous|prior|earlier|original|initial"
    r"|former|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|morning"
    r"|evening|afternoon)\b"
)


def _another_time(ask: ValueAsk, fact: Fact) -> bool:
    """Does the question place what it asks in a time the row does not say ("the night
    before last" of "last night's backup")?"""
    asked = set(_TIME_WORDS.findall(ask.question))
    return bool(asked - set(_TIME_WORDS.findall(fact.text.lower())))


_PERIOD = re.compile(
    r"\b(this|last|next|previous|past|coming|current)\s+"
    r"(week|month|quarter|year|night|sprint|weekend|release)\b"
)
_SAME_PERIOD = {"previous": "last", "past": "last", "coming": "next", "current": "this"}


def _periods(text: str) -> set[tuple[str, str]]:
    return {(_SAME_PERIOD.get(w, w), p) for w, p in _PERIOD.findall(text.lower())}


def _another_period(ask: ValueAsk, fact: Fact) -> bool:
    """Does the question name a period the row does not ("last week" of a row about this
    week, "next month" of one that names no month)? "This week" asked of a row naming no
    other week is the row's present."""
    said = _periods(fact.text)
    return _period_contradicted(ask, fact) or any(
        which != "this" and (which, period) not in said for which, period in _periods(ask.question)
    )


def _period_contradicted(ask: ValueAsk, fact: Fact) -> bool:
    """Does the row name another period of the scale the question names ("last month's
    spend" for "this month so far")? A row naming none of that scale contradicts nothing:
    "the nightly ETL" is a schedule, no other night than "last night's"."""
    said = _periods(fact.text)
    return any(
        (which, period) not in said and any(p == period for _, p in said)
        for which, period in _periods(ask.question)
    )


def _of_another_outcome(ask: ValueAsk, text: str, value: Value) -> bool:
    """Does the question count things of an outcome ("how many jobs *failed*", "timed
    out") that the value's own clause does not say ("the queue ran 41 jobs"): a count of
    all of them, not of those?"""
    if not ask.outcome:
        return False
    clause = " ".join(_clause(text, value)).lower()
    said = {root(t.lemma) for t in tokens(code_form(clause))} | {t.stem for t in tokens(clause)}
    return not any(_derived(o, r) for o in ask.outcome for r in said)


def _latest(found: list[tuple[_Said, _Row]]) -> tuple[tuple[str, Fact], ...]:
    """Each member's value: its newest row's when that row says it changed ("now",
    "actually"), else every value it gave."""
    out: list[tuple[str, Fact]] = []
    by_member: dict[str, list[tuple[str, Fact]]] = {}
    for v, r in found:
        by_member.setdefault(r.fact.member, []).append((v.value.text, r.fact))
    for said in by_member.values():
        said.sort(key=lambda p: p[1].at)
        newest = said[-1]
        if len({v.casefold() for v, _ in said}) > 1 and _UPDATE.search(newest[1].text.lower()):
            out.append(newest)
        else:
            out += list(dict.fromkeys(said))
    return tuple(sorted(out, key=lambda p: p[1].at))


def _updated_by(fact: Fact, said: Sequence[tuple[str, Fact]]) -> bool:
    """Is ``fact`` an older row of a member whose newer row says its value changed?"""
    return any(
        f.member == fact.member and f.at > fact.at and _UPDATE.search(f.text.lower())
        for _, f in said
    )


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _nothing(ask: ValueAsk, rows: Sequence[_Row]) -> str:
    """What the card says when no row answers."""
    about = [r for r in rows if r.covered]
    if about:
        members = ", ".join(sorted({r.fact.member for r in about}))
        asked = re.findall(r"[a-z]+", _request_sentence(ask))
        said = [set().union(*(_qualifiers(r.fact.text)[n] for r in about)) for n in (0, 1)]
        unsaid = [
            w for w in asked for n in (0, 1) if _EXCLUSIVE[n].get(w, -1) not in said[n] | {-1}
        ]
        if unsaid:
            return f"{members} said something about it, but not of the {unsaid[0]} one"
        return f"{members} said something about it, but no {ask.noun} in it stated as a fact"
    return f"no member has said a {ask.noun} for it"


def injection_in(text: str) -> bool:
    """Does a row carry instructions to the concierge (so it is never evidence)?"""
    return injection(code_form(text)) is not None


def check_cited(ask: ValueAsk, facts: Sequence[Fact], row_id: str, answer: str) -> str | None:
    """A model's fleet answer, checked in code for what makes it safe, not for the offline reader's
    own reading of the question: the model does the matching. The question asks for a fact,
    not a decision; the value is said verbatim in the row it cites (a typed value, or a name
    of at most four words that is no piece of one), is of the asked kind (a bare number,
    name or identifier only in a row that names the asked noun; an amount never for "which
    <thing>", never a name for "how many"; a moment never for "how long"; for a noun of no
    known kind, "DAU", only in a row that says it or the thing besides its time), is no
    label of a word of the question ("D1" of "D1 retention"), is a live fact there (not
    negated, former, planned, hedged or a secret) and not a value the question itself
    states; the row was retrieved, carries no instructions, is by the member the question
    names, of the time and period it asks, holds the question's specific values, qualifiers
    ("staging", "nightly") and every word of the thing it is about — but the relation asked
    (its verbs, by where they stand: "receives", "are taken", "does … begin"), a noun that
    only names a kind of value the value's form proves ("IP"), and words of time and
    hedging, and a plain head word the row names by its modifier ("the grafana *board*":
    ``_about_mostly``), or but one plain word the row leaves out where it is the retrieved
    row most about the question by a margin (``_ranked_first``) — each name ("orion-3") in
    the value's own clause, no other modifier of the asked noun there ("line" for "branch
    coverage") and no other thing of a noun the question names bare ("the image" of "Docker
    image" and "build image"); a row giving several values of that kind is answered only
    where the question's words pick the model's there (or it is the part of a whole asked in
    a word the row does not say); and no other row about the question, by every word, by the
    thing alone or by all of it but one word, gives another value of that kind. A value the
    row states whole (a date and time, a host and port) is given whole, but where its own
    noun asks a piece. A count is of the outcome its question names ("failed"). The value,
    or None."""
    if ask.decides:
        return None  # "what should I call the new service?" asks a decision, not a fact
    usable = [f for f in facts if not injection_in(f.text)]
    cited = next((f for f in usable if f.row_id == row_id), None)
    if cited is None:
        return None
    sources = _sources(ask, sorted({f.member for f in usable}))
    if isinstance(sources, str) or (sources is not None and cited.member not in sources):
        return None  # "what did the prober find?" of a row no member of that name said
    value = _value_cited(cited.text, answer)
    value = _whole_cited(ask, cited.text, value, answer) if value is not None else None
    if value is None or not _of_kind(ask, value) or _in_question(ask, value.text):
        return None
    if not _both_given(ask, value):
        return None  # "7450" for "which host and port": half of what is asked
    if value.kind is Kind.DURATION and _MOMENT.match(cited.text[value.end :]):
        return None  # "rebooted 2 days ago" places a moment: no answer to "how long"
    if not _kind_said(ask, cited):
        return None  # "1.7%" of "Refund rate for November" for "what was DAU in November?"
    if _labels_the_thing(ask, cited.text, value):
        return None  # "D1" of "D1 retention for …": the name of what is asked, not its value
    if value.kind not in _AMOUNTS | {Kind.RATE} and _HOW_MUCH.search(_request_sentence(ask)):
        return None  # "GDPR" for "after how many days …?": a name is no amount
    if value.kind in _AMOUNTS and _asks_a_thing(ask):
        return None  # "which part of checkout …?" asks a thing, not "1.9 s"
    if value.kind is Kind.WORD and not _a_name(cited.text, value):
        return None  # "Current" of "Current web-tier base AMI: …" is no name
    if _former_asked(ask, cited, value):
        return None  # "what was it before the cache change?" of the value it went to
    if value.kind in _WEAK and not _by_its_noun(ask, cited, value):
        return None  # "3 of 40 pods" is no port: a bare value counts by its noun
    if (
        value.kind in _AMOUNTS
        and _counted_by(cited.text[value.end :], _noun_heads(ask), tokens(ask.question)) is False
    ):
        return None  # "12 failed builds" for "how many builds ran?": another thing counted
    if _of_another_outcome(ask, cited.text, value):
        return None  # "ran 41 jobs" for "how many jobs failed?"
    if _cited_status(ask, cited.text, value) != "fact" or _other_qualifier(ask, cited.text, value):
        return None
    if _another_time(ask, cited) or _another_period(ask, cited):
        return None  # "the night before last" of "last night's backup"; "last week" of this
    if not (_about_mostly(ask, cited, value, usable) or _ranked_first(ask, cited, value, usable)):
        return None  # the thing asked about, with its qualifiers, is not this row's
    if not _names_in_clause(ask, cited.text, value):
        return None  # "search_docs_v2" is another table than "search_docs"
    if _another_modifier(ask, cited, value, usable):
        return None  # "branch coverage" of "line coverage"; "the image" of two images
    if _several(ask, cited, value):
        return None
    if _another_named(ask, " ".join(_clause(cited.text, value)).lower()):
        return None  # "the Eastfield clinic"'s value for "the Westbrook clinic"
    if _whole_for_a_part(ask, cited.text, value):
        return None  # the whole of "250 seats, 231 of them in use" for "how many are taken?"
    if _other_state(ask, cited.text, value) or _of_other_subject(ask, cited.text, value):
        return None  # "in TestFlight review" for "live"; "dbt runs on X; the dashboards …"
    if _rivals(ask, cited, value, usable):
        return None  # "throttles us at 60 req/min" against the cited "limit is 120 …"
    return value.text


# Where a word the status reading keys on is no status of the value, by where it stands: a
# thing named by a determiner after the value ("to solve the Monday route *plan*", "within
# the *target*"), the state of the things a count counts ("312 messages *waiting* in the
# DLQ"), a hedge in another sentence, a secret's word beside a value no secret can be.
_NOUN_AFTER = re.compile(
    r"\b(?:the|a|an|our|its|their|this|that|each)\s+(?:[\w-]+\s+){0,3}?"
    r"(plan|target|estimate|guess)\b(?!\s*(?:is|are|was|were|:|to|of|for)\b|\s*:)"
)
_COUNT_STATE = re.compile(r"^\s*[a-z][\w-]*\s+(waiting|pending|queued|sitting)\b")
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
_NO_SECRET = frozenset(
    {
        Kind.HOST,
        Kind.IP,
        Kind.PORT,
        Kind.DURATION,
        Kind.DATE,
        Kind.TIME,
        Kind.SIZE,
        Kind.COUNT,
        Kind.PERCENT,
        Kind.VERSION,
        Kind.REGION,
    }
)


def _cited_status(ask: ValueAsk, text: str, value: Value) -> str | None:
    """``_status`` of the value a model cites, with the words it keys on that are no status
    of that value masked out by structure (``_NOUN_AFTER``, ``_COUNT_STATE``, a hedge of
    another sentence, "vault" beside a host): "took 38.6 s to solve the route plan" and
    "Vault is up at vault-02.internal" are facts. The offline reader keeps its own reading."""
    status = _status(ask, text, value)
    if status == "fact":
        return status
    chars = list(text)

    def mask(start: int, end: int) -> None:
        chars[start:end] = "x" * (end - start)

    _, after = _clause(text, value)
    at = value.end + text[value.end :].find(after) if after else value.end
    for found in _NOUN_AFTER.finditer(after.lower()):
        mask(at + found.start(1), at + found.end(1))
    counting = _COUNT_STATE.match(after.lower())
    if counting and value.kind in (Kind.COUNT, Kind.NUMBER):
        mask(at + counting.start(1), at + counting.end(1))
    starts = [0, *(m.end() for m in _SENTENCE_END.finditer(text))]
    begin = max(s for s in starts if s <= value.start)
    finish = next((m.end() for m in _SENTENCE_END.finditer(text, value.end)), len(text))
    for found in _HEDGE.finditer(text.lower()):
        if found.end() <= begin or found.start() >= finish:
            mask(found.start(), found.end())
    if value.kind in _NO_SECRET or (value.kind is Kind.URL and not re.search(r"[=@]", value.text)):
        for found in _SECRET_WORD.finditer(text.lower()):
            mask(found.start(), found.end())
    masked = "".join(chars)
    return status if masked == text else _status(ask, masked, value)


# Words that only place a question in time or hedge it: what it is about without them.
_UNTIMING = "moment days roughly actually overall really exactly currently still now atm rn right"


@functools.cache
def _untimed() -> frozenset[str]:
    """The roots of ``_UNTIMING`` (built at first use, as the thesaurus is)."""
    return frozenset(root(w) for w in word_set(_UNTIMING))


_WEAK = frozenset({Kind.NUMBER, Kind.ID, Kind.WORD})
_MEASURES = frozenset({Kind.COUNT, Kind.PERCENT, Kind.SIZE, Kind.PORT})


def _value_cited(text: str, answer: str) -> Value | None:
    """The value of ``text`` the model's ``answer`` holds: its longest typed value the
    answer says whole; else the one typed value whose number the answer is ("310" of "310
    ms"); else the answer itself (a name of at most four words) said whole in the row and
    overlapping none of its typed values."""
    said = answer.strip().casefold()
    typed = values_in(text)
    held = [
        v for v in typed if re.search(rf"(?<![\w.-]){re.escape(v.text.casefold())}(?![\w-])", said)
    ]
    if held:
        return max(held, key=lambda v: len(v.text))
    said = said.rstrip(".").strip()
    if not said or len(said) > 60 or len(said.split()) > 4:
        return None
    if re.fullmatch(r"[$€£]?\d[\d,.]*", said):
        led = [v for v in typed if re.match(rf"[$€£]?{re.escape(said)}(?![\d.,])", v.text)]
        return led[0] if len(led) == 1 else None
    found = re.search(rf"(?<![\w./-]){re.escape(said)}(?![\w/-])", text.casefold())
    if found is None or any(v.start < found.end() and found.start() < v.end for v in typed):
        return None
    return Value(
        text=text[found.start() : found.end()], kind=Kind.WORD, start=found.start(), end=found.end()
    )


# Values the row states whole across two of the reader's values: a moment (a date and its
# time of day: "2026-12-05 03:12 UTC") and an address (a host with its port:
# "sftp.example:2222"); and the nouns that ask for one part alone.
_WHOLES = (
    (Kind.DATE, re.compile(r"\s+(?:at\s+)?|T"), Kind.TIME),
    (Kind.HOST, re.compile(":"), Kind.PORT),
    (Kind.IP, re.compile(":"), Kind.PORT),
)
_PART_NOUNS = {
    Kind.DATE: word_set("date day"),
    Kind.TIME: word_set("time"),
    Kind.HOST: word_set("host hostname server machine box domain"),
    Kind.IP: word_set("ip"),
    Kind.PORT: word_set("port"),
}


def _whole_cited(ask: ValueAsk, text: str, value: Value, answer: str) -> Value | None:
    """The cited value as the row states it: a part of a whole value (the date of a date and
    time, the host of a host and port) answers only a question that asks that part by its
    own noun ("what date …?", "which port …?"); for any other ("when …?", "host and port
    …?") the answer must give the whole, and the whole is the value. A part given for the
    whole is not the row's value: None."""
    said = answer.casefold()
    typed = values_in(text)
    for first, second in itertools.pairwise(typed):
        joined = next(
            (
                gap
                for one, gap, two in _WHOLES
                if first.kind is one
                and second.kind is two
                and gap.fullmatch(text[first.end : second.start])
            ),
            None,
        )
        if joined is None or value.start not in (first.start, second.start):
            continue
        if ask.noun in _PART_NOUNS[value.kind]:
            return value  # "which port is it on?" of "sftp.example:2222": the port
        if first.text.casefold() in said and second.text.casefold() in said:
            whole = text[first.start : second.end]
            return Value(text=whole, kind=first.kind, start=first.start, end=second.end)
        return None
    return value


def _kind_said(ask: ValueAsk, fact: Fact) -> bool:
    """For a noun the reader knows no kind of ("DAU", "MAU"), which any kind may answer:
    does the row say that noun (by itself or a neighbour), or a word of the thing asked
    besides its time? A row that shares only the question's month or period with it
    ("Refund rate for November …" for "what was DAU in November?") gives a value of another
    thing, whatever its kind."""
    if ask.noun == "value" or ask.kinds != _GENERIC:
        return True
    roots = _roots_of(fact.text, fact.member)
    if any(_derived(w, r) for w in _wanted_nouns(ask) for r in roots):
        return True
    timeless = _untimed() | _period_roots()
    return any(_coverage((t,), roots, fact.text)[0] for t in ask.subject if t not in timeless)


_MONTHS = word_set(
    """january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec"""
)


@functools.cache
def _period_roots() -> frozenset[str]:
    """The roots of the months and of the words of a period ("week", "quarter")."""
    return frozenset(root(w) for w in _MONTHS | _PERIOD_WORDS)


def _labels_the_thing(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is a name or an identifier the row gives (any value, for a question that names no
    kind of value) the label of a word of the question's subject, right before it ("*D1*
    retention", "the *December 1* cohort"): part of what the question names, not the
    value it asks? A label of the asked noun itself ("the orders-dlq *topic*" for "which
    topic", "the legacy_id *field*" for "which field …") names the asked thing: the
    answer."""
    if value.kind not in (Kind.ID, Kind.WORD) and ask.kinds != _GENERIC:
        return False  # a question that names the kind it asks reads a date as its value
    after = re.match(r" +([a-z][a-z0-9]*)\b", text[value.end :].lower())
    if after is None:
        return False
    forms = _forms(tokens(after.group(1))[0])
    asked = _wh_head(ask) | (_wanted_nouns(ask) if ask.noun != "value" else set())
    return not forms & asked and bool(forms & set(ask.subject))


# A request for an amount: "how many …", "how far behind …", "how long …".
_HOW_MUCH = re.compile(
    r"\bhow\s+(?:many|much|far|long|big|large|small|often|fast|slow|wide|full|high|low|deep)\b"
)


# Kinds of value that measure or count, never name a thing.
_AMOUNTS = frozenset({Kind.DURATION, Kind.SIZE, Kind.PERCENT, Kind.MONEY, Kind.COUNT, Kind.NUMBER})


def _a_name(text: str, value: Value) -> bool:
    """Is a value read as a name one: it has a capital, a digit or a joining mark, and when
    it is made of words of the language only, it does not merely start a sentence ("Current
    web-tier base AMI: …", "Indexed 18432 documents …")?"""
    said = value.text
    if not re.search(r"[A-Z0-9_.@/-]", said):
        return False
    words = re.findall(r"[A-Za-z]+", said)
    if words and all(known(w) for w in words) and not re.search(r"[0-9_.@/-]", said):
        return not re.search(r"(?:^|[.!?:;]\s+)$", text[: value.start])
    return True


_FORMER_ASKED = re.compile(r"\b(?:before|previously|originally|formerly|used to|prior to)\b")


def _former_asked(ask: ValueAsk, fact: Fact, value: Value) -> bool:
    """Does the question ask what a thing was before a change ("what was p95 before the
    cache change?") of a row that gives a former value of the kind beside the live one
    cited ("went from 310 ms down to 245 ms")?"""
    if not _FORMER_ASKED.search(_request_sentence(ask)):
        return False
    return any(
        v.kind is value.kind and _status(ask, fact.text, v) == "gone"
        for v in values_in(fact.text)
        if v.start != value.start
    )


def _asks_a_thing(ask: ValueAsk) -> bool:
    """Does the request ask which thing ("which part of checkout", "what tool"), by a noun
    that names no kind of value: its answer names a thing, never an amount?"""
    noun = ask.noun
    if noun == "value" or noun in _NOUN_KINDS or not noun.isalpha():
        return False
    return bool(re.search(rf"\b(?:which|what)\s+{re.escape(noun)}\b", ask.question))


# Nouns of a place in a tree of files: a path, a URL's path or a URL with one answers them.
_FOLDER_NOUNS = word_set("folder directory dir path prefix location")
_URL_WITH_PATH = re.compile(r"^[a-z][a-z0-9+.-]*://[^/\s]+/\S*[^/\s.]\S*", re.IGNORECASE)


def _of_kind(ask: ValueAsk, value: Value) -> bool:
    """Is the cited value of the kind the request asks, by the asked noun's kinds (a loose
    noun's by the kinds its neighbours name; a bare number for a measure), and a folder's
    by a path in any form: "/data/exports/nightly", "s3://acme-archive/daily/"?"""
    if value.kind in ask.kinds:
        return True
    pathed = value.kind is Kind.URL_PATH or (
        value.kind is Kind.URL and bool(_URL_WITH_PATH.match(value.text))
    )
    if pathed and Kind.PATH in ask.kinds and ask.noun in _FOLDER_NOUNS:
        return True  # "which folder do the exports land in?" of a URL's path
    if ask.noun in _LOOSE_NOUNS and value.kind in _named_kinds(tokens(ask.question)):
        return True  # "availability … what number did it get?": the availability's kind
    return value.kind is Kind.NUMBER and bool(set(ask.kinds) & _MEASURES)


def _by_its_noun(ask: ValueAsk, fact: Fact, value: Value) -> bool:
    """Is a bare value (a number, a name, an identifier) said by the asked noun, as the
    offline reader finds one ("port 9464", "team-ledger owns"), where the row names it?"""
    if _proven_by_form(ask, value):
        return True  # "INC-2231" for "the incident number"; "c6i.4xlarge" for "instance type"
    wanted = _wanted_nouns(ask)
    heads = _noun_heads(ask)
    if value.kind is not Kind.WORD and _beside_noun(fact.text, value, heads, tokens(ask.question)):
        return True  # "iOS build 4182", "1,204 stops solved", "failures last week: 19"
    roots = _roots_of(fact.text, fact.member)
    if not roots & wanted:
        return value.kind is Kind.WORD and _beside_noun(
            fact.text, value, heads, tokens(ask.question)
        )
    if value.kind is Kind.WORD:
        return True  # a name the reader has no pattern for: the row names what is asked
    return any(s.value.text.casefold() == value.text.casefold() for s in _values(ask, fact))


def _wanted_nouns(ask: ValueAsk) -> set[str]:
    """The roots of the asked noun, its cues and the noun a count counts."""
    wanted = set(ask.cues) | set(ask.counted)
    if ask.noun != "value":
        wanted.add(root(ask.noun))
    return wanted


def _noun_heads(ask: ValueAsk) -> set[str]:
    """``_wanted_nouns`` and the words that head the asked noun phrase: what a bare value
    is said beside."""
    heads = _wanted_nouns(ask) | _head_words(ask) | _wh_head(ask)
    if Kind.PORT in ask.kinds:
        heads.add(root("listener"))  # a listener is what a port is of: "TLS listener on 8883"
    return heads


_WH = word_set("which what whats")
_WH_SKIP = word_set("s is the a an our your its their")


def _wh_head(ask: ValueAsk) -> set[str]:
    """The root of the head of the request's wh-phrase: its last word before a verb ("which
    *field* disappeared", "what's the newest *migration* applied"), where the reader took
    the verb for the asked noun. Empty where the phrase meets no verb by its form."""
    words = tokens(_request_sentence(ask))
    for i, t in enumerate(words):
        if t.text not in _WH:
            continue
        run: list[Token] = []
        for w in words[i + 1 :]:
            if (w.text in _WH_SKIP or w.text.endswith("est")) and not run:
                continue  # "what's the newest …": a superlative before the head
            if w.text in _STOP or w.text in _AUX:
                break
            if run and (w.text.endswith("ed") or (w.text != w.lemma and not w.text.endswith("s"))):
                return {root(run[-1].lemma)}  # the verb after the phrase: its last word heads it
            run.append(w)
        return set()
    return set()


def _derived(a: str, b: str) -> bool:
    """Are two roots one word's, or derived one from the other by an ending ("fail" and
    "failur", "sign" and "signatur", "deploy" and "deployment"), or two endings of one
    stem of five letters ("success" and "succeed")?"""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 4 and long_.startswith(short) and long_[len(short) :] in _ENDINGS:
        return True
    shared = len(os.path.commonprefix([short, long_]))  # noqa: RUF071 - letters, not paths
    return shared >= 5 and len(short) - shared <= 2 and len(long_) - shared <= 3


_ENDINGS = word_set("atur ation at ment ur ful ing ion ed er or abl iv iti e s y")


def _head_words(ask: ValueAsk) -> set[str]:
    """The root of the word before a noun that only names ("*build* number", "*flag* key",
    "*instance* type"): what the value is the name of, which a row names it by."""
    if ask.noun not in _NAMING and ask.noun != "type":
        return set()
    words = tokens(_request_sentence(ask))
    return {
        root(words[i - 1].lemma)
        for i in range(1, len(words))
        if words[i].lemma == ask.noun and words[i - 1].text not in _STOP
    }


# Between a noun and the value it names, or a heading's noun and its value.
_NOUN_TO_VALUE = re.compile(r"^\s*(?:[:=#]\s*|is\s+|of\s+|on\s+|at\s+)?`?\s*$")


def _beside_noun(text: str, value: Value, wanted: set[str], asked: Sequence[Token]) -> bool:
    """Is the bare value said right beside a word of the asked noun: after it ("build
    4182", "listener on 8883", "flag `x.y_v2`"), before it ("1,204 stops", "19 failures",
    or with the question's own modifiers between, ``asked`` being its roots: "617 stale
    feature flags" for "how many stale feature flags"), or after a heading of its clause
    that names it ("Sync failures last week: 19")?"""
    before = text[: value.start]
    after = text[value.end :]
    if _counted_by(after, wanted, asked):
        return True
    lead = re.search(
        r"([A-Za-z][\w-]*)([^A-Za-z0-9]*(?:\b(?:is|of|on|at)\b)?[^A-Za-z0-9]*)$", before
    )
    if lead and _NOUN_TO_VALUE.match(lead.group(2)) and _wanted_word(lead.group(1), wanted):
        return True
    trail = re.match(r"`?\s*([A-Za-z][\w-]*)", after)
    if trail and _wanted_word(trail.group(1), wanted):
        return True
    clause, _ = _clause(text, value)
    heading = re.fullmatch(r"(.*?):\s*`?", clause)
    return heading is not None and any(
        _wanted_word(t.text, wanted) for t in tokens(heading.group(1).lower())
    )


def _counted_by(after: str, wanted: set[str], asked: Sequence[Token]) -> bool | None:
    """Reading the words right after a number up to a word of the asked noun (three words
    between at most): True when the question says those words and the noun in a row
    (``asked``: its words), "617 *stale feature* flags" for "how many stale feature flags";
    False when it does not, "12 *failed* builds" for "how many builds" (it counts another
    thing), "617 stale feature flags" for "how many feature flags, stale or not?"; None when
    no word of the noun follows before a word like "is" or "in"."""
    run = re.match(r"(?:\s+[A-Za-z][\w-]*){1,4}", after)
    said = tokens(run.group(0).lower()) if run else ()
    if said and _wanted_word(said[0].text, wanted):
        return None  # "40 pods" of "3 of 40 pods": right beside it, no modifier to read
    for n in range(1, len(said)):
        if said[n - 1].text in _STOP:
            return None  # "4182 is in TestFlight review": no noun of the number's own
        if _wanted_word(said[n].text, wanted):
            return any(
                all(_forms(said[k]) & _forms(asked[at + k]) for k in range(n + 1))
                for at in range(len(asked) - n)
            )
    return None


def _forms(word: Token) -> frozenset[str]:
    """A word's stem and roots: what two words are compared by."""
    return frozenset((word.stem, root(word.lemma), root(word.text)))


def _wanted_word(word: str, wanted: set[str]) -> bool:
    found = tokens(word.lower())
    return bool(found) and any(
        _derived(r, w) for t in found for r in (root(t.lemma), root(t.text)) for w in wanted
    )


# Forms that prove what a value names: a ticket's key ("INC-2231", "OPS-4411") for a
# ticket's, an incident's or an issue's number; a cloud instance type ("c6i.4xlarge").
_TICKET_FORM = re.compile(r"[A-Z][A-Z0-9]{1,9}-\d+")
_TICKET_NOUNS = word_set("ticket incident issue bug case jira")
_INSTANCE_FORM = re.compile(
    r"[a-z][a-z0-9-]*\d[a-z0-9-]*\.(?:\d*x?large|medium|small|micro|nano|metal)", re.IGNORECASE
)


def _proven_by_form(ask: ValueAsk, value: Value) -> bool:
    """Does the value's form prove it the asked noun's: a ticket key for a ticket, incident
    or issue (or its number or id), an instance type for an instance type?"""
    asked = {ask.noun} | {t.lemma for t in tokens(_request_sentence(ask))}
    if _TICKET_FORM.fullmatch(value.text):
        return ask.noun in _TICKET_NOUNS or (
            ask.noun in _NAMING and bool(_head_words(ask) & {root(w) for w in _TICKET_NOUNS})
        )
    if _INSTANCE_FORM.fullmatch(value.text):
        return ask.noun == "type" and "instance" in asked
    return False


def _about_all(
    ask: ValueAsk,
    fact: Fact,
    *,
    besides: frozenset[str] = frozenset(),
    derived: frozenset[str] = frozenset(),
) -> bool:
    """Is the row about all the question is about: its specific values, its qualifiers and
    every word of its subject (by a neighbour too), but for words of time and hedging (and
    ``besides``: the members' names, for a row that disputes)?"""
    unsaid = _subject_unsaid(ask, fact, besides=besides, derived=derived)
    return unsaid is not None and not unsaid[0]


def _subject_unsaid(
    ask: ValueAsk,
    fact: Fact,
    *,
    besides: frozenset[str] = frozenset(),
    derived: frozenset[str] = frozenset(),
) -> tuple[tuple[str, ...], int] | None:
    """The words of the question's subject the row does not say (``_about_all``'s reading)
    and how many it does; None when it is about another thing by a qualifier or a specific
    value, or says nothing of the subject."""
    asked = _qualifiers(ask.question)
    if any(a and not a & s for a, s in zip(asked, _derived_qualifiers(fact.text), strict=True)):
        return None
    if not _has_specifics(ask, fact):
        return None
    row = _row(ask, fact)
    spared = _untimed() | besides
    terms = [t for t in ask.subject if t not in spared]
    if not terms:
        return ((), 0) if bool(row.roots & ask.cues) or not ask.subject else None
    if row.score <= 0:
        return None
    missing = tuple(
        t for t in terms if t not in derived and not _coverage((t,), row.roots, fact.text)[0]
    )
    return missing, len(terms) - len(missing)


def _about_entity(
    ask: ValueAsk,
    fact: Fact,
    kind: Kind,
    *,
    besides: frozenset[str] = frozenset(),
    value: Value | None = None,
) -> bool:
    """Is the row about the thing the question asks of — its specific values, qualifiers and
    every word of its subject but the words of the relation asked (its verbs, read from
    where they stand: "which team *receives* the alerts", "how many seats are *taken*",
    "when does the cutover *begin*") and a word of the asked noun that only names the kind
    of value the model gave ("IP" of an IP address)? The relation is the model's reading;
    the thing is not: a name, a modifier or a qualifier the row does not say refuses."""
    unsaid = _entity_unsaid(ask, fact, kind, besides=besides, value=value)
    return unsaid is not None and not unsaid[0]


def _entity_unsaid(
    ask: ValueAsk,
    fact: Fact,
    kind: Kind,
    *,
    besides: frozenset[str] = frozenset(),
    value: Value | None = None,
) -> tuple[tuple[str, ...], int] | None:
    """``_subject_unsaid`` of the thing asked about, as ``_about_entity`` reads it."""
    spared = _relation_words(ask) | _kind_words(ask, kind) | _verbs_anywhere(ask)
    spared |= _degree_words(ask, fact)
    if value is not None and _proven_by_form(ask, value):
        spared |= _head_words(ask)  # "incident" of "incident number" for "INC-2231"
    roots = _roots_of(fact.text, fact.member)
    initials = _initials(fact.text)
    derived = frozenset(
        t
        for t in ask.subject
        if t.isalpha()
        and (
            any(_derived(t, r) for r in roots)
            or (3 <= len(t) <= 5 and not known(t) and t in initials)
        )
    )  # "successful" of "succeeded", "signatures" of "signing", "DLQ" of "dead-letter queue"
    return _subject_unsaid(ask, fact, besides=besides | spared, derived=derived)


def _nearly_about(unsaid: tuple[tuple[str, ...], int] | None) -> bool:
    """Is a row, by ``_entity_unsaid``, about the thing asked but for one word at most, of
    two thirds of its words at least? Such a row disputes a cited value: a row the model
    might have cited with a paraphrase of the thing ("throttles us at 60 requests/minute"
    beside "rate limit is 120 requests per minute") gives a rival answer."""
    if unsaid is None:
        return False
    missing, said = unsaid
    return not missing or (len(missing) == 1 and said >= 2)


def _about_mostly(ask: ValueAsk, cited: Fact, value: Value, usable: Sequence[Fact]) -> bool:
    """Is the cited row about the thing asked, as the model read it: ``_about_entity``, or a
    row that says its qualifiers, specific values and names and at least two thirds of the
    words of its subject (two at least), leaving out only plain head words the row names by
    their modifier ("the grafana *board*", "the planner *host*": ``_renamed_head``) and
    saying no other word in their place — and no other retrieved row says as many of them,
    or a word this one leaves out (whatever its values: it is the row about the thing). A
    paraphrase is the model's to read; the thing is not: a name is never left out, and a
    row another row rivals is refused."""
    unsaid = _entity_unsaid(ask, cited, value.kind, value=value)
    if unsaid is None:
        return False
    missing, said = unsaid
    if not missing:
        return True
    if said < 2 or said < 2 * len(missing):
        return False
    words = tokens(ask.question)
    said_roots = _roots_of(cited.text, cited.member)
    for term in missing:
        at = [i for i, w in enumerate(words) if term in _forms(w)]
        if not at or not all(
            _plain_noun(ask.question, words[i])
            and _renamed_head(ask.question, words, i, said_roots)
            for i in at
        ):
            return False  # "k8s", "ledger-api", "fixed", "the *staging* service": not a head
    if _said_instead(ask.question, cited.text, missing):
        return False  # "the search *primary*" for "the search replica": another thing
    for other in usable:
        if other.row_id == cited.row_id:
            continue
        theirs = _entity_unsaid(ask, other, value.kind)
        if theirs is not None and (theirs[1] >= said or set(missing) - set(theirs[0])):
            return False  # another row is as much about it, or says what this one leaves out
    return True


# How many more of the question's words the cited row must say than any other retrieved row
# for the one word it leaves out to be forgiven (``_ranked_first``), measured with
# scripts/cited-exhaustive over the dev sets (docs/concierge.md).
_RANK_MARGIN = 1


def _ranked_first(ask: ValueAsk, cited: Fact, value: Value, usable: Sequence[Fact]) -> bool:
    """Is the cited row, by how many words of the thing asked it says (``_entity_unsaid``:
    its qualifiers and specific values all said), the one retrieved row most about the
    question, ahead of every other by ``_RANK_MARGIN`` at least, saying two words of it or
    more and the asked noun, and leaving out one word only, a forgivable one
    (``_forgivable``)? Then that word is the model's to read as a paraphrase ("the depot
    geocoding cache on the planner *host*" of a row about the planner's cache): the row the
    question is about is this one, whatever it calls the thing. By rank, not phrasing."""
    unsaid = _entity_unsaid(ask, cited, value.kind, value=value)
    if unsaid is None:
        return False
    missing, said = unsaid
    if len(missing) != 1 or said < 2 or not _forgivable(ask, missing[0]):
        return False
    if _said_instead(ask.question, cited.text, missing):
        return False  # "the *Lisbon* lab" for "the Porto lab": another thing of the family
    if ask.noun != "value" and ask.noun not in _KIND_NAMES:
        roots = _roots_of(cited.text, cited.member)
        if not any(_derived(w, r) for w in _wanted_nouns(ask) for r in roots):
            return False  # "RSS peaks at 1.7 GiB" for "what memory limit": not the noun asked
    rivals = (_entity_unsaid(ask, other, value.kind) for other in usable if other is not cited)
    best = max((theirs[1] for theirs in rivals if theirs is not None), default=0)
    return said - best >= _RANK_MARGIN


def _forgivable(ask: ValueAsk, term: str) -> bool:
    """May a row leave out this word of the question, wherever the question says it: a
    plain word of the language (``_plain_noun``: no name, no participle), in its own form
    or a plural (no verb's inflection: "shrank", "went"), no month, no part of the asked
    noun's phrase ("*ticket* number", "*host* and port") and modifying no word after it
    ("the *test* environment", "*median* latency", the "*farm*'s" build time): what tells
    one thing from its near miss is never left out."""
    if not term.isalpha():
        return False
    question = ask.question
    words = tokens(question)
    phrase = _asked_phrase(ask)
    at = [i for i, w in enumerate(words) if term in _forms(w)]
    for i in at:
        word = words[i]
        if not _plain_noun(question, word) or i in phrase or word.lemma in _MONTHS:
            return False
        if word.text != word.lemma and not word.text.endswith("s"):
            return False
        after = words[i + 1] if i + 1 < len(words) else None
        if question[word.end : word.end + 1] == "'" or (
            after is not None
            and after.text not in _STOP
            and not _GAP.search(question[word.end : after.start])
        ):
            return False
    return bool(at)


def _asked_phrase(ask: ValueAsk) -> frozenset[int]:
    """The indexes in the question's words of the asked noun's phrase: the noun and the
    words joined to it with no stop word or mark between, and a noun coordinated with it
    ("host and port")."""
    question = ask.question
    words = tokens(question)

    def joined(i: int, j: int) -> bool:
        return not _GAP.search(question[words[i].end : words[j].start])

    out: set[int] = set()
    for i, w in enumerate(words):
        if w.lemma != ask.noun and w.text != ask.noun:
            continue
        lo = hi = i
        while lo > 0 and words[lo - 1].text not in _STOP and joined(lo - 1, lo):
            lo -= 1
        while hi + 1 < len(words) and words[hi + 1].text not in _STOP and joined(hi, hi + 1):
            hi += 1
        for conj, other in ((lo - 1, lo - 2), (hi + 1, hi + 2)):
            if (
                0 <= other < len(words)
                and words[conj].text in ("and", "or")
                and words[other].text not in _STOP
            ):
                out.add(other)  # "host and port": both are asked
        out.update(range(lo, hi + 1))
    return frozenset(out)


def _plain_noun(question: str, word: Token) -> bool:
    """Is a word of the question a plain word of the language that may name the thing in
    other words ("board", "host", "envelope"): a known word, no verb's participle ("fixed",
    "issued", "running": the relation asked is the row's to state) and no part of a name
    joined by a mark ("ledger" of "ledger-api", "orders" of "orders_v2")?"""
    joined = question[max(0, word.start - 1) : word.start] + question[word.end : word.end + 1]
    return (
        known(word.text)
        and not word.text.endswith(("ed", "ing"))
        and not re.search(r"[-_./@:]\w", question[word.end : word.end + 2])
        and not re.search(r"\w[-_./@:]$", question[max(0, word.start - 2) : word.start])
        and "`" not in joined
    )


def _renamed_head(question: str, words: Sequence[Token], i: int, said: frozenset[str]) -> bool:
    """Is ``words[i]`` the head of a noun phrase whose modifier right before it the row says
    (``said``: its roots), "the grafana *board*", "the planner *host*": the row names the
    thing by its modifier and calls it otherwise? A modifier itself ("the *staging*
    service", "*median* latency", "the *April* export") or a word after a preposition
    ("the table for *December*") is what tells one thing from its near miss: never left out.
    """
    if (
        i == 0
        or words[i - 1].text in _STOP
        or _GAP.search(question[words[i - 1].end : words[i].start])
    ):
        return False
    before = words[i - 1]
    if not _forms(before) & said:
        return False
    after = words[i + 1] if i + 1 < len(words) else None
    return (
        after is None
        or after.text in _STOP
        or bool(_GAP.search(question[words[i].end : after.start]))
    )


def _said_instead(question: str, text: str, missing: Sequence[str]) -> bool:
    """Does the row say another word where the question says one the row leaves out: beside
    the same neighbour, on the same side ("search *primary*" where the question asks of the
    "search *replica*", "invoice *export*" for "invoice import")? Then the row names another
    thing of the same family, not the asked one in other words. Words inside the row's
    values (a URL's "grafana") stand beside nothing."""

    def adjacent(words: Sequence[Token], said: str, i: int, j: int) -> bool:
        return (
            min(i, j) >= 0
            and max(i, j) < len(words)
            and not _GAP.search(said[words[min(i, j)].end : words[max(i, j)].start])
        )

    asked = tokens(question)
    asked_roots = frozenset(r for w in asked for r in _forms(w))
    spans = [(v.start, v.end) for v in values_in(text)]
    lowered = text.lower()
    row = [w for w in tokens(lowered) if not any(a <= w.start and w.end <= b for a, b in spans)]
    for i, word in enumerate(asked):
        if not _forms(word) & set(missing):
            continue
        for side in (-1, 1):
            if not adjacent(asked, question, i, i + side):
                continue
            neighbour = _forms(asked[i + side])
            if asked[i + side].text in _STOP:
                continue
            for k, said in enumerate(row):
                if not _forms(said) & neighbour or not adjacent(row, lowered, k, k - side):
                    continue
                other = row[k - side]
                if (
                    other.text not in _STOP
                    and other.text.isalpha()
                    and len(other.text) > 2
                    and not _forms(other) & asked_roots
                ):
                    return True
    return False


def _initials(text: str) -> frozenset[str]:
    """The initials of each run of three to five consecutive words of ``text``, none a stop
    word and no punctuation between ("dlq" of "dead-letter queue", "sla" of "service level
    agreement"): an acronym, a word of no dictionary, the question uses for them."""
    out: set[str] = set()
    for run in re.split(r"[^a-z0-9 -]+", text.lower()):
        words = re.findall(r"[a-z][a-z0-9]*", run)
        for i in range(len(words)):
            for n in range(3, 6):
                part = words[i : i + n]
                if len(part) == n and not any(w in _STOP for w in part):
                    out.add("".join(w[0] for w in part))
    return frozenset(out)


_RELATIVE = word_set("that which who whom")
_AFTER_PARTICIPLE = word_set(
    "up down on off out in into to through at for from over with by under within onto as"
)


def _verbs_anywhere(ask: ValueAsk) -> frozenset[str]:
    """The roots of the request's verbs where they stand outside its main clause: a verb
    after a relative pronoun ("the service that *checks* signatures") and a participle after
    a noun and before a particle ("messages *sitting* in the DLQ", "logs *shipped* by"). A
    participle before a noun is a modifier ("the *failed* jobs") and one that ends the
    clause is its event ("when was the cert *issued*?" of one that expires): both stay the
    thing's, as an outcome verb (``_TELLING``) does."""
    sentence = _request_sentence(ask)
    words = tokens(sentence)
    named = _asked_lemmas(ask)
    found: set[int] = set()
    for i in range(1, len(words)):
        t, prev = words[i], words[i - 1]
        if t.text in _STOP or t.lemma in named or t.lemma in _TELLING:
            continue
        if _GAP.search(sentence[prev.end : t.start]):
            continue
        inflected = t.text != t.lemma or t.text.endswith(("ing", "ed"))
        head = words[i - 2].text if i >= 2 else ""
        if prev.text in _RELATIVE and inflected and (head == "one" or (head and head not in _STOP)):
            found.add(i)  # "that checks", "which sits"
            continue
        nxt = words[i + 1] if i + 1 < len(words) else None
        ends = nxt is None or bool(_GAP.search(sentence[t.end : nxt.start]))
        participle = t.text.endswith("ing") or (t.text != t.lemma and not t.text.endswith("s"))
        if (
            participle
            and prev.text not in _STOP
            and not ends
            and nxt is not None
            and nxt.text in _AFTER_PARTICIPLE
        ):
            found.add(i)  # "messages sitting in", "the job closed as"
    return frozenset(
        r for i in found for r in (root(words[i].lemma), root(words[i].text), words[i].stem)
    )


# Words of degree: a hedge of how often ("usually"), or the bound asked ("max", "at worst"),
# which a row's single value answers unless it says the other bound.
_HEDGING_DEGREE = word_set("usually typically normally generally ordinarily far")
_UPPER = word_set("max maximum most worst peak peaks highest top upper cap capped ceiling")
_LOWER = word_set("min minimum least lowest floor lower bottom")


def _degree_words(ask: ValueAsk, fact: Fact) -> frozenset[str]:
    """The roots of the request's words of degree the row's value answers: a hedge of how
    often or "how far", and a bound ("max", "at worst") when the row says no other bound."""
    said = {t.text for t in tokens(fact.text.lower())}
    out: set[str] = set()
    for t in tokens(_request_sentence(ask)):
        if t.text in _HEDGING_DEGREE or t.lemma in _HEDGING_DEGREE:
            out.add(root(t.lemma))
        elif (t.text in _UPPER and not said & _LOWER) or (t.text in _LOWER and not said & _UPPER):
            out |= {root(t.lemma), root(t.text)}  # "max" of a row saying one bound
    return frozenset(out)


# Verbs of an outcome that tells a row's values apart ("how many were rejected?", "which
# sha fixed it?" of the one that caused it): never the model's reading, a row must say them
# (the exclusive qualifiers — passed, failed, started, finished — are checked as such).
_TELLING = word_set(
    """reject accept refuse deny drop add remove lose gain miss block allow approve decline
    retry skip fail pass succeed break fix introduce cause revert regress resolve"""
)
_BE = word_set("is are was were be been being")
_AUX = word_set("do does did will would can could should shall may might must has have had")
_DETERMINERS = word_set("the a an its their our your my his her this that these those")
_PARTICLES = word_set(
    "up down on off out in into to through at for from over with by under within onto"
)
_GAP = re.compile(r"[,;:?.!()\[\]]|\s[-\u2013\u2014]\s")


@functools.lru_cache(maxsize=4096)
def _relation_words_of(sentence: str, named: frozenset[str]) -> frozenset[str]:
    """The roots of the verbs of ``sentence``'s relation, by where they stand: a participle
    after a form of "be" ("are taken", "is waiting"); the verb that ends the subject of an
    inverted question ("does the billing DB cutover begin?", "must the vendor react to");
    an inflected verb before its object or particle ("receives the alerts", "turned on").
    A word of a name (glued by "-", "_", ".") or of ``named`` (the asked noun's) is none."""
    words = tokens(sentence)
    n = len(words)

    def glued(i: int) -> bool:
        t = words[i]
        return sentence[t.start - 1 : t.start] in ("-", "_", ".", "/") or sentence[
            t.end : t.end + 1
        ] in ("-", "_", ".", "/")

    def ends(i: int) -> bool:  # no word after, or punctuation between it and the next
        return i + 1 >= n or bool(_GAP.search(sentence[words[i].end : words[i + 1].start]))

    def inflected(t: Token) -> bool:
        return t.text != t.lemma and not t.text.endswith("s")  # "taken", "stuck", "turned"

    found: set[int] = set()
    for i, t in enumerate(words):
        if (t.text in _STOP and t.text not in _AUX) or glued(i) or t.lemma in named:
            continue
        prev = words[i - 1].text if i > 0 and not ends(i - 1) else ""
        nxt = words[i + 1].text if not ends(i) else ""
        if prev in _BE and (inflected(t) or t.text.endswith("ing")):
            found.add(i)  # "are taken", "is waiting"
        elif (
            inflected(t)
            and prev
            and prev not in _DETERMINERS
            and (nxt in _DETERMINERS or nxt in _PARTICLES)
        ):
            found.add(i)  # "turned on", "went through the"
        elif t.text.endswith("s") and t.text != t.lemma and nxt in _DETERMINERS and prev:
            found.add(i)  # "receives the", "carries the"
    for a, t in enumerate(words):
        if t.text not in _AUX or ends(a):
            continue
        verb = _inverted_verb(words, a + 1, ends)
        if verb is None or glued(verb) or words[verb].lemma in named:
            continue
        last = words[verb]
        perfect = t.text in ("has", "have", "had")
        if (perfect and inflected(last)) or (not perfect and last.text == last.lemma):
            found.add(verb)  # "does the cutover begin", "has the flag turned on"
    return frozenset(
        r
        for i in found
        for r in (root(words[i].lemma), root(words[i].text), words[i].stem)
        if words[i].lemma not in _TELLING
    )


_PRONOUNS = word_set("i we you they it he she")


def _inverted_verb(words: Sequence[Token], at: int, ends: Callable[[int], bool]) -> int | None:
    """The verb after an auxiliary's subject, from ``at``: the word after a pronoun ("do we
    *map* sodium to"); else the last word of a noun phrase (a determiner, words, "of" and
    another phrase) that ends the clause or meets a particle or an object's determiner ("does
    the billing DB cutover *begin*?", "did the tracer *write* its flamegraph"). None where
    the phrase stops at any other word ("does the cluster have …", "find most expensive")."""
    if at >= len(words):
        return None
    if words[at].text in _PRONOUNS:
        nxt = at + 1
        ok = nxt < len(words) and not ends(at) and words[nxt].text not in _STOP
        return nxt if ok else None
    run: list[int] = []
    j = at
    while j < len(words):
        w = words[j]
        if w.text in _DETERMINERS and (not run or words[j - 1].text == "of"):
            pass  # the subject's own determiner, or one after "of"
        elif (w.text == "of" and run) or (w.text in _RELATIVE_NEXT and run):
            pass  # "of" and a phrase, or an adverb ("did shipwright just cut")
        elif w.text in _STOP or root(w.text) in _untimed():
            stop = w.text in _DETERMINERS or w.text in _PARTICLES or root(w.text) in _untimed()
            return run[-1] if stop and len(run) >= 2 and words[j - 1].text != "of" else None
        else:
            run.append(j)
        if ends(j):
            return run[-1] if len(run) >= 2 and j == run[-1] else None
        j += 1
    return None


def _relation_words(ask: ValueAsk) -> frozenset[str]:
    """The roots of the request's relation words (``_relation_words_of``)."""
    sentence = _request_sentence(ask)
    if not (_REQUEST.search(sentence) or _HOW_SOON.search(sentence) or _WHO.search(sentence)):
        return frozenset()  # no request for a value ("Shall I retire the v1 endpoints?")
    return _relation_words_of(sentence, frozenset(_asked_lemmas(ask))) | _condition(sentence)


_CONDITION = re.compile(r"^\s*(?:if|unless|once|when|in case)\b([^,;:?]*),")


def _condition(sentence: str) -> frozenset[str]:
    """The roots of a leading condition ("If the primary is away, who …?"): when the asker
    would need the value, not what it is of — where the rest still names a thing."""
    found = _CONDITION.match(sentence)
    if found is None:
        return frozenset()
    rest = tokens(sentence[found.end() :])
    named = any(
        a.text in _DETERMINERS and b.text not in _STOP and b.text not in _PERIOD_WORDS
        for a, b in itertools.pairwise(rest)
    )
    if not named:
        return frozenset()  # "If the billing API is down, who gets paged?": the API is asked
    kept = {root(t.lemma) for t in rest}
    return frozenset(root(t.lemma) for t in tokens(found.group(1)) if t.text not in _STOP) - kept


_PERIOD_WORDS = word_set("week month quarter year night sprint weekend day morning")


def _asked_lemmas(ask: ValueAsk) -> set[str]:
    """The lemmas of the asked noun and of the counted one: never a relation word."""
    out = {ask.noun}
    out |= {t.lemma for t in tokens(_request_sentence(ask)) if root(t.lemma) in ask.counted}
    return out


def _kind_words(ask: ValueAsk, kind: Kind) -> frozenset[str]:
    """The roots of the question's nouns that name only a kind of value a form proves ("IP",
    "URL", "path"), when the value is of such a kind: its form says what the noun does."""
    if kind not in _FORMS:
        return frozenset()  # "median", "uptime", "coverage" name a measure, not a form
    return frozenset(
        r
        for t in tokens(_request_sentence(ask))
        if set(_NOUN_KINDS.get(t.lemma, (Kind.WORD,))) <= _FORMS
        for r in (root(t.lemma), root(t.text), t.stem)
    )


# Kinds whose form says what the value is: an IP address, a URL, a path, a commit.
_FORMS = frozenset(
    {Kind.IP, Kind.URL, Kind.URL_PATH, Kind.HOST, Kind.PATH, Kind.COMMIT, Kind.VERSION}
)


def _modifiers(text: str, term: str) -> frozenset[str]:
    """The roots of the words right before ``term`` wherever ``text`` says it as a word of
    its own ("line" of "Line coverage", "build" of "the build image"): no stop word, number
    or punctuation before it, no piece of a name ("db-stage", "acme-artifacts")."""
    lowered = code_form(text)
    words = tokens(lowered)
    out = set()
    for i, t in enumerate(words[1:], 1):
        if term not in (root(t.lemma), root(t.text), t.stem):
            continue
        prev = words[i - 1]
        if _GLUED.search(lowered[t.start - 1 : t.start]) or _GLUED_AFTER.match(lowered, t.end):
            continue
        if lowered[prev.end : t.start] != " ":
            continue
        if prev.text in _STOP or prev.text in _QUANTITY or not prev.text.isalpha():
            continue
        out.add(root(prev.lemma))
    return frozenset(out)


_QUANTITY = word_set("many much few more less")
_GLUED = re.compile(r"[-_./]")
_GLUED_AFTER = re.compile(r"[-_/]|\.\w")


def _another_modifier(ask: ValueAsk, cited: Fact, value: Value, usable: Sequence[Fact]) -> bool:
    """Is the cited value of another one of the thing asked: the question modifies the asked
    noun ("branch coverage") and the value's own clause says it only with another modifier
    ("Line coverage"); or the question names a noun of its subject bare ("the image size")
    while the cited row and another retrieved row about it say that noun with different
    modifiers ("Docker image", "build image"): which one is asked is a guess."""
    asked = _request_sentence(ask)
    if ask.noun in _NOUN_KINDS:
        noun = root(ask.noun)
        wanted = _modifiers(asked, noun)
        before, after = _clause(cited.text, value)
        mine = _modifiers(f"{before}{value.text}{after}", noun)
        theirs = _modifiers(cited.text, noun)
        if wanted and mine and not any(_derived(w, m) for w in wanted for m in theirs):
            return True  # ("replica lag" is the "replication lag": one word's derivations)
    for noun in dict.fromkeys(t for t in ask.subject if t.isalpha()):
        mine = _modifiers(cited.text, noun)
        if not mine or _modifiers(asked, noun) or noun in _generic_words():
            continue
        for other in usable:
            if other.row_id == cited.row_id:
                continue
            theirs = _modifiers(other.text, noun)
            if theirs and not theirs & mine and not (theirs | mine) & set(ask.subject):
                return True
    return False


def _names_in_clause(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is each name of the question ("orion-3", "search_docs") said whole in the value's own
    clause ("search_docs_v2" is another table)?"""
    before, after = _clause(text, value)
    clause = f"{before}{value.text}{after}".lower()
    return all(_says(clause, t, edge=r"\w-") for t in ask.subject if not t.isalnum())


def _several(ask: ValueAsk, fact: Fact, value: Value) -> bool:
    """Does the row give other live values of the value's kind, among which the question's
    words do not pick this one (the offline reader's pick, over every one of them)?"""
    others = {
        v.text.casefold()
        for v in values_in(fact.text)
        if v.kind is value.kind and not _within(v, value) and _status(ask, fact.text, v) == "fact"
    } - {value.text.casefold()}
    if not others:
        return False
    if _the_part(ask, fact.text, value):
        return False  # "231 of them in use" for "how many are taken?": the part, by the model
    heads, asked = _noun_heads(ask), tokens(ask.question)
    if _counted_by(fact.text[value.end :], heads, asked) and not any(
        _counted_by(fact.text[v.end :], heads, asked)
        for v in values_in(fact.text)
        if v.kind is value.kind and v.text.casefold() in others
    ):
        return False  # "617 stale feature flags across 38 services": what the question counts
    said = [s for s in _values(ask, fact) if not s.moment]
    if others <= {s.value.text.casefold() for s in said}:
        picked = _pick(ask, _row(ask, fact), said)
        if isinstance(picked, _Said) and picked.value.text.casefold() == value.text.casefold():
            return False
    # else the value whose own clause says more of what the question is about than every
    # other one's ("search API error rate … 0.7%" over "budget is 1%"), its member aside
    member = frozenset(root(p) for p in re.split(r"[-_]", fact.member.lower()) if p)
    # a heading ("Profiling /api/search: p95 … 212ms, p99 480ms") is every value's
    member |= _words_about(ask, _heading(fact.text, value.kind))
    mine = _clause_about(ask, fact.text, value) - member
    return not all(
        mine > _clause_about(ask, fact.text, v) - member
        for v in values_in(fact.text)
        if v.kind is value.kind
        and not _within(v, value)
        and v.text.casefold() != value.text.casefold()
        and _status(ask, fact.text, v) == "fact"
    )


def _within(part: Value, whole: Value) -> bool:
    """Is ``part`` a piece of ``whole`` as the row states it (the date of a date and time)?"""
    return whole.start <= part.start and part.end <= whole.end


def _heading(text: str, kind: Kind) -> str:
    """A row's heading: what it says before its first colon and space, when that holds no
    value of ``kind`` and the first value after it has words of its own ("Profiling
    /api/search: p95 latency 212ms, p99 480ms"), not when it labels the value that follows
    it ("error rate over the last day: 0.4%, budget is 2%")."""
    head, colon, _ = text.partition(": ")
    if not colon or any(v.kind is kind for v in values_in(head)):
        return ""
    after = len(head) + len(colon)
    first = next((v for v in values_in(text) if v.kind is kind and v.start >= after), None)
    own = text[after : first.start] if first is not None else ""
    return head if re.search(r"[a-z]", own, re.IGNORECASE) else ""


def _the_part(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is the value the part of a whole the row gives before it ("250 seats …, 231 of them in
    use"), every other value of its kind before it, asked with a word the row does not say
    ("taken")? Which of the two is asked is then the model's reading of that word."""
    if value.start not in {m.start() for m in _PART.finditer(text)}:
        return False
    before = [v for v in values_in(text) if v.kind is value.kind and v.start != value.start]
    return all(v.end <= value.start for v in before) and _unsaid(ask, text)


def _clause_about(ask: ValueAsk, text: str, value: Value) -> frozenset[str]:
    """The specific words of the question that the value's own clause says."""
    return _words_about(ask, " ".join(_clause(text, value)))


def _words_about(ask: ValueAsk, clause: str) -> frozenset[str]:
    """The specific words of the question that ``clause`` says."""
    roots = _roots_of(clause, "")
    return frozenset(
        t for t in _specific(ask) if _coverage((t,), roots, clause)[0] and t not in _untimed()
    )


def _named_kinds(words: Sequence[Token]) -> tuple[Kind, ...]:
    """The kinds the question's own nouns name ("hostname" a host, "version" a version), in
    order; none when it names no kind. A question read loosely still asks what its nouns
    say: a version is no answer to "hostname of the staging box?"."""
    kinds: dict[Kind, None] = {}
    for t in words:
        if t.lemma in _NOUN_KINDS and t.lemma not in _LOOSE_NOUNS:
            kinds.update(dict.fromkeys(_NOUN_KINDS[t.lemma]))
    return tuple(kinds)


# Nouns too general to say what kind of value is asked ("the day", "the result").
_LOOSE_NOUNS = frozenset({"day", "time", "number", "result", "status", "code"})


_HOW_SOON = re.compile(r"\bhow (?:quickly|soon)\b")
_WHO = re.compile(r"\bwho\b")
_HOW_WORDS = word_set("quickly soon")


def loose_ask(code: str) -> ValueAsk:
    """A request read loosely, for checking a model's fleet answer to a question the offline
    path did not read as one: any kind of value, next to one of the question's words or a
    thesaurus neighbour of one ("where staging listens" takes "port 4321"), about the
    question's content words."""
    words = [
        t
        for t in tokens(code)
        if t.text not in _STOP and t.lemma not in _ASKING and t.text not in _HOW_WORDS
    ]
    subject = tuple(dict.fromkeys(root(t.lemma) for t in words if len(t.text) > 1))
    near = {t.lemma for t in tokens(code) if t.text not in _STOP}
    for word in list(near):
        for n in _group_of().get(root(word), ()):
            near |= set(_GROUP_WORDS[n])
    kinds = _named_kinds(words) or _GENERIC
    if _HOW_SOON.search(code):
        kinds = (Kind.DURATION,)  # "how quickly must the vendor react to a P1 ticket?"
    elif _WHO.search(code) and Kind.PERSON not in kinds:
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
