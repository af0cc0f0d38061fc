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
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from crewline.policy.clauses import Shape, shape_of
from crewline.policy.lemmas import lemma, root, stem, tokens
from crewline.policy.values import Kind, Value, values_in
from crewline.policy.wording import code_form, injection, word_set

__all__ = [
    "NOUN_VERBS",
    "Fact",
    "FleetReading",
    "ValueAsk",
    "about",
    "candidates",
    "contradicted",
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
    "rate percentage percent ratio share",
    "staging stage",
    "production prod live",
    "dependency dep package library",
    "restart reboot",
    "environment env",
)


def _group_table() -> dict[str, frozenset[int]]:
    table: dict[str, set[int]] = {}
    for n, group in enumerate(_GROUPS):
        for word in group.split():
            table.setdefault(root(word), set()).add(n)
    return {k: frozenset(v) for k, v in table.items()}


_GROUP_OF = _group_table()
_GROUP_WORDS = tuple(tuple(g.split()) for g in _GROUPS)


def _near(a: str, b: str) -> bool:
    """Same root, the same group of the thesaurus, or one a short form of the other ("dep"
    and "depend", "repo" and "repositori", "env" and "environ")."""
    if a == b or _GROUP_OF.get(a, frozenset()) & _GROUP_OF.get(b, frozenset()):
        return True
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 3 and long.startswith(short) and short.isalpha()


# Words that say little about which thing is meant ("the staging *service*", "the new *app*"):
# a row need not repeat them.
_GENERIC_WORDS = frozenset(
    root(w)
    for w in [
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
        "new",
        "old",
        "main",
        "default",
        "actual",
        "real",
        "final",
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
        "live",
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
    ]
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
    ("throughput rps qps", (Kind.NUMBER,)),
    ("uptime availability cpu utilisation utilization usage", (Kind.PERCENT,)),
    ("checksum digest", (Kind.COMMIT, Kind.ID)),
    ("path", (Kind.PATH, Kind.URL_PATH)),
    ("directory dir folder location", (Kind.PATH,)),
    ("branch", (Kind.PATH, Kind.ID, Kind.WORD)),
    (
        "duration time timeout latency runtime p50 p90 p95 p99 p999 median lag delay",
        (Kind.DURATION,),
    ),
    ("memory ram heap rss", (Kind.SIZE,)),
    ("count number total amount", (Kind.NUMBER,)),
    ("size", (Kind.SIZE,)),
    ("rate percentage percent ratio coverage share", (Kind.PERCENT,)),
    ("date day", (Kind.DATE, Kind.TIME)),
    ("region zone", (Kind.REGION,)),
    (
        "id identifier name key ticket issue pr runner job pod node queue bucket test image "
        "cluster namespace table index topic channel user account owner",
        (
            Kind.ID,
            Kind.PATH,
            Kind.NUMBER,
            Kind.WORD,
        ),
    ),
):
    for _word in _words.split():
        _NOUN_KINDS[_word] = _kinds
_NAMING = frozenset({"id", "identifier", "name", "key", "number"})
_GENERIC = (
    Kind.ID,
    Kind.PATH,
    Kind.WORD,
    Kind.NUMBER,
    Kind.SIZE,
    Kind.DURATION,
    Kind.PERCENT,
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
    "how often": (Kind.NUMBER,),
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
}
# Words that only ask ("did the probe find", "can you tell me"), never what it is about.
_ASKING = word_set(
    """find report say see get measure show tell know need give use take land end come return
    observe record note log mention detect discover spot run do be have go make look point
    sit live happen want remind anyone anybody someone somebody we you i me us they it one
    count listen serve answer respond bind peak hit reach"""
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
    around near inside outside instead"""
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
    if at == 0 or before in _FILLER_WORDS or before in _KNOW:
        return True
    if clause_start:
        return not after_noun  # "…, which only prints" after a noun is a relative
    if before in ("on", "at", "in", "from", "to", "for", "with", "by", "under", "of"):
        return at == 1 or words[at - 2] in _FILLER_WORDS or at + 2 >= len(words)
    return at + 2 >= len(words)  # "the nightly build passed on which sha?"


# Words that are verbs and nouns alike ("search service host?", "health check port?").
NOUN_VERBS = word_set(
    """search check load build test run release deploy review audit scan probe import export
    backup cache queue index health trace profile benchmark bench lint"""
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
        if text in ("which", "what", "whats", "where", "when", "how") and _requests(
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
            if t.lemma in _NOUN_KINDS and t.lemma not in ("day", "date", "time", "number")
        ]
        acting = any(
            (t.lemma in verbs or t.text in verbs)
            and ((i + 1 < len(texts) and texts[i + 1] in objects) or (i == 0 and len(texts) == 1))
            for i, t in enumerate(all_words)
        ) or (
            bool(texts)
            and (all_words[0].lemma in verbs or texts[0] in verbs)
            and texts[0] not in NOUN_VERBS
        )
        if named_at and not acting and not any(t in _VERBISH for t in texts):
            start, head_text = -1, "terse"
    if start == -1:
        start = 0
        words = all_words
    elif start is None:
        m = re.search(
            r"\b(?:tell me|remind me|need|give me|send me|got|have|know|share|find|idea of|post)"
            r"\s+(the|its|their|our)\b",
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
    lemmas = [w.lemma for w in words]
    # the noun phrase after the question word; its last word that names a kind of value
    phrase: list[str] = []
    for w in words[skip:]:
        glued = w.start > 0 and code[w.start - 1] == "-" and code[w.end : w.end + 1] == "-"
        if w.text in _NP_STOP and phrase and not glued:
            break
        if w.text in _NP_STOP:
            continue
        phrase.append(w.lemma)
        if len(phrase) >= 4:
            break
    noun = "value"
    counted: set[str] = set()
    named = [p for p in phrase if p in _NOUN_KINDS]
    if head_text.startswith(("how many", "how much")):
        texts_after = [w.text for w in words[skip:]]
        if texts_after[:1] == ["of"] and texts_after[-2:-1] in (["are"], ["were"], ["is"]):
            noun = lemma(texts_after[-1])  # "how many of the vulnerable packages are critical"
            counted = {root(noun)}
        elif phrase:
            counted = {root(p) for p in phrase if p not in _STOP}
            noun = phrase[-1]
            rest = [w.lemma for w in words[skip + len(phrase) :]]
            if len(rest) == 1 and rest[0] not in _STOP and rest[0] not in _ASKING:
                counted.add(root(rest[0]))  # "how many e2e tests failed": "3 failed"
    elif head_text.startswith("how often"):
        counted = {root("time")}
    elif named and not kinds:
        noun = named[-1]
        kinds = _NOUN_KINDS[noun]
    elif named and set(_NOUN_KINDS[named[-1]]) & set(kinds):
        noun = named[-1]
    if head_text == "terse":
        named_terse = [
            w.lemma
            for w in words
            if w.lemma in _NOUN_KINDS and w.lemma not in ("day", "date", "time", "number")
        ]
        noun = named_terse[-1]
        kinds = _NOUN_KINDS[noun]
        named = [noun]
    if not kinds:
        if head_text == "need":
            return None  # "I need the…" names no kind of value: not a request for one
        content = [p for p in phrase if p not in _STOP and p not in _ASKING]
        if not content:
            return None
        noun = content[-1]
        kinds = _GENERIC
    also_named = set(named) if not head_text.startswith(("how", "where", "when")) else set()
    named = [p for p in named if set(_NOUN_KINDS[p]) & set(kinds)]
    cues = {root(noun)} if noun != "value" else set()
    cues |= {root(p) for p in named}
    for n in _GROUP_OF.get(root(noun), ()):
        if noun in _GROUP_WORDS[n] and noun in _NOUN_KINDS:
            cues |= {root(w) for w in _GROUP_WORDS[n] if w in _NOUN_KINDS}
    clause_from = start
    while clause_from > 0 and not shaped[clause_from].clause_start:
        clause_from -= 1
    subject: list[str] = []
    for w in [*all_words[clause_from:start], *words[skip:]]:
        r = root(w.lemma)
        if (
            w.text in _STOP
            or w.lemma in _STOP
            or w.lemma in _ASKING
            or w.lemma == noun
            or w.lemma in named
            or w.lemma in also_named
            or r in counted
            or len(w.text) < 2
        ):
            continue
        if r not in subject:
            subject.append(r)
    cue_stems = {stem(noun)} if noun != "value" else set()
    cue_stems |= {stem(p) for p in named}
    for n in _GROUP_OF.get(root(noun), ()):
        if noun in _GROUP_WORDS[n] and noun in _NOUN_KINDS:
            cue_stems |= {stem(w) for w in _GROUP_WORDS[n] if w in _NOUN_KINDS}
    return ValueAsk(
        kinds=kinds,
        cues=frozenset(cues),
        cue_stems=frozenset(cue_stems),
        subject=tuple(subject),
        counted=frozenset(counted),
        noun=noun,
        words=tuple(dict.fromkeys(x for x in lemmas if x not in _STOP and len(x) > 1)),
        text_words=tuple(w.text for w in all_words[clause_from:]),
        decides=bool(
            re.search(
                r"\b(?:should|shall|would you|do you want|do you prefer|prefer|ought)\b",
                " ".join(w.text for w in all_words[clause_from:]),
            )
        ),
    )


def value_ask(shape: Shape) -> ValueAsk | None:
    """The value the asking sentence requests, if it requests one."""
    for sentence in reversed(shape.asking):
        ask = _value_ask(sentence.text)
        if ask is not None:
            return ask
    return None


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
        for n in _GROUP_OF.get(root(word), ()):
            for other in _GROUP_WORDS[n]:
                add(other)
    for word in ask.words:
        add(word)
    return tuple(terms[:16])


# ---------------------------------------------------------------- reading the rows


@dataclass(frozen=True, kw_only=True, slots=True)
class _Row:
    fact: Fact
    roots: frozenset[str]
    text: str
    covered: int  # how many of the subject's roots the row (and its member's name) has
    score: float  # the same, a thesaurus neighbour counting half


def _roots_of(text: str, member: str) -> frozenset[str]:
    words = [t for t in tokens(code_form(text))]
    found = {t.stem for t in words} | {root(t.text) for t in words}
    slug = member.lower()
    found |= {root(part) for part in re.split(r"[-_]", slug) if part}
    found.add(re.sub(r"[-_]", "", slug))
    return frozenset(found)


def _coverage(subject: Sequence[str], roots: frozenset[str], text: str) -> tuple[int, float]:
    """How many subject roots the row has (exactly or by a neighbour; a generic word the row
    does not repeat counts as had), and a score where a neighbour counts half and an
    unrepeated generic word nothing."""
    joined = set()
    words = [t.text for t in tokens(code_form(text))]
    for i in range(len(words) - 1):
        joined.add(words[i] + words[i + 1])
    n, score = 0, 0.0
    for term in subject:
        if term in roots or term in joined:
            n, score = n + 1, score + 1
        elif any(_near(term, r) for r in roots):
            n, score = n + 1, score + 0.5
        elif term in _GENERIC_WORDS:
            n += 1
    return n, score


def _covered(subject: Sequence[str], roots: frozenset[str], text: str) -> int:
    return _coverage(subject, roots, text)[0]


def _allowed_misses(n: int) -> int:
    return 0 if n <= 3 else (n - 1) // 3


_NEGATED = re.compile(
    r"(?:\bnot|\binstead of|\bfrom|\bold|\bpreviously|\bno longer|\bexcept|\bnor)\s+$", re.I
)


def _label_stems(text: str, value: Value) -> set[str]:
    """The stems of the three words before a value and the one after it (as
    ``_label_roots``), compared with the asked noun's own stem ("runner" is not "run")."""
    before = list(tokens(code_form(text[: value.start]))[-3:])
    rest = text[value.end : value.end + 32]
    after = list(tokens(code_form(rest))[:1])
    if after and re.match(r"[\s,;:]*[\w-]+\s+[\d/#]", rest):
        after = []
    return {t.stem for t in (*before, *after)}


def _label_roots(text: str, value: Value) -> set[str]:
    """The roots of the three words before a value, and of the word after it unless that
    word labels the next value (what the row says the value is)."""
    before = list(tokens(code_form(text[: value.start]))[-3:])
    rest = text[value.end : value.end + 32]
    after = list(tokens(code_form(rest))[:1])
    if after and re.match(r"[\s,;:]*[\w-]+\s+[\d/#]", rest):
        after = []
    return {t.stem for t in (*before, *after)} | {root(t.text) for t in (*before, *after)}


def _count_value(text: str, counted: frozenset[str]) -> str | None:
    """The number counted: "1834 files", "3 of 40 pods" (→ 3), "27 warnings", "2 of them
    critical", "about 12k keys"."""
    for m in re.finditer(r"(?<![\w.#])(\d+(?:[.,]\d+)?(?:k|m)?)(?![\w.%])", text, re.IGNORECASE):
        rest = re.sub(r"^\s+of\s+(?:\d[\d,.]*|them|those|these|which|all)\b", "", text[m.end() :])
        following = [
            w
            for w in re.findall(r"[a-z0-9][a-z0-9-]*", rest.lower()[:48])[:4]
            if w not in ("with", "known", "new", "total", "more", "are", "were", "have", "had")
        ][:2]
        nouns = [w for w in following if not w[0].isdigit()][: len(following)]
        if following and following[0][0].isdigit():
            continue
        for n in nouns:
            r = root(lemma(n))
            if r in counted or any(_near(r, c) for c in counted):
                return m.group(1)
    return None


def _candidates(ask: ValueAsk, row: _Row) -> list[Value]:
    text = unicodedata.normalize("NFKC", row.fact.text)
    out = []
    values = values_in(text)
    lowered = text.lower()
    for value in values:
        if value.kind not in ask.kinds:
            continue
        if _NEGATED.search(text[: value.start]):
            continue
        labels = _label_roots(text, value)
        stems = _label_stems(text, value)
        cue_next = bool(stems & ask.cue_stems)
        generic = ask.kinds == _GENERIC
        named_by_subject = ask.noun in _NAMING and bool(labels & set(ask.subject))
        if generic and not cue_next and not named_by_subject:
            continue  # a value for "what's the X?" stands next to X
        if value.kind not in _STRONG and not cue_next and not named_by_subject:
            continue
        out.append(value)
    del lowered
    return out


def _pick(ask: ValueAsk, row: _Row, values: list[Value]) -> Value | None:
    """The value a row gives for the ask: the one labelled by the asked noun or the
    subject, else the only one, else the first unlabelled by another measure."""
    if not values:
        return None
    text = row.fact.text
    scored = []
    for order, value in enumerate(values):
        labels = _label_roots(text, value)
        own = sum(1 for s in ask.subject if s in labels or s in value.text.lower())
        cue = 1 if _label_stems(text, value) & ask.cue_stems else 0
        kind = len(ask.kinds) - ask.kinds.index(value.kind)
        scored.append((cue, own, kind, -order, value))
    scored.sort(key=lambda s: s[:4], reverse=True)
    return scored[0][4]


def read_fleet(ask: ValueAsk, facts: Sequence[Fact]) -> FleetReading:
    """What ``facts`` say about ``ask``: one agreed value and its rows, or why none."""
    usable: list[_Row] = []
    ignored: list[Fact] = []
    for fact in facts:
        if injection(code_form(fact.text)) is not None:
            ignored.append(fact)
            continue
        roots = _roots_of(fact.text, fact.member)
        covered, score = _coverage(ask.subject, roots, fact.text)
        usable.append(_Row(fact=fact, roots=roots, text=fact.text, covered=covered, score=score))
    if not ask.subject and ask.decides:
        # "where should the new config file live?": a decision asked of you, about nothing
        # a row can be known to answer
        return FleetReading(found="it asks you to decide, about nothing the fleet said")
    need = len(ask.subject) - _allowed_misses(len(ask.subject))
    # (value, row, labelled by the asked noun) for every row about all of it
    found: list[tuple[str, _Row, bool]] = []
    near: dict[str, tuple[str, _Row]] = {}
    for row in usable:
        if ask.subject and row.score == 0:
            continue
        if not ask.subject and not (row.roots & ask.cues):
            continue
        if ask.counted:
            value_text = _count_value(row.fact.text, ask.counted)
            labelled = value_text is not None
        else:
            picked = _pick(ask, row, _candidates(ask, row))
            value_text = picked.text if picked else None
            labelled = picked is not None and bool(_label_roots(row.fact.text, picked) & ask.cues)
        if value_text is None:
            continue
        if row.covered >= need:
            found.append((value_text, row, labelled))
        else:
            near[row.fact.member] = (value_text, row)
    marked = _marked_sources(ask)
    if marked and not _named_members(ask, [row.fact for row in usable]):
        who = ", ".join(sorted(marked))
        return FleetReading(
            found=f"it asks what {who} said, and {who} said nothing about it",
            ignored=tuple(ignored),
        )
    named = _named_members(ask, [r.fact for _, r, _ in found])
    if named:
        found = [f for f in found if f[1].fact.member in named]
    if found:
        best = max(r.score for _, r, _ in found)
        found = [f for f in found if f[1].score >= best - 0.5]
    if any(labelled for _, _, labelled in found):
        found = [f for f in found if f[2]]  # where the row names the asked noun, only those
    latest: dict[str, tuple[str, _Row]] = {}
    for value_text, row, _ in found:
        held = latest.get(row.fact.member)
        if held is None or row.fact.at >= held[1].fact.at:
            latest[row.fact.member] = (value_text, row)
    if not latest:
        return FleetReading(found=_nothing(ask, usable, near), ignored=tuple(ignored))
    said = tuple((v, r.fact) for v, r in sorted(latest.values(), key=lambda p: p[1].fact.at))
    if len({v.casefold() for v, _ in said}) > 1:
        listed = "; ".join(f"{f.member} said {v} at {f.at:%H:%M}" for v, f in said)
        return FleetReading(
            said=said, found=f"the fleet disagrees: {listed}", ignored=tuple(ignored)
        )
    value, source = max(said, key=lambda p: p[1].at)
    return FleetReading(
        answer=value,
        source=source,
        evidence=tuple(f for _, f in said),
        said=said,
        ignored=tuple(ignored),
    )


_SOURCE_MARK = re.compile(
    r"\b(?:the\s+)?([a-z0-9][a-z0-9 -]{0,40}?)\s+(?:session|member|agent|bot)\b"
    r"|\b(?:according to|per|from)\s+(?:the\s+)?([a-z0-9][a-z0-9-]*)"
)


def _marked_sources(ask: ValueAsk) -> frozenset[str]:
    """The names the request marks as a source ("the radar session", "according to scout"),
    as said."""
    said = " ".join(ask.text_words)
    marked = set()
    for m in re.finditer(r"\bthe ([a-z0-9]+) (?:session|member|agent|bot)\b", said):
        if m.group(1) not in _STOP:
            marked.add(m.group(1))
    return frozenset(marked)


def _named_members(ask: ValueAsk, facts: Sequence[Fact]) -> frozenset[str]:
    """The members the request names: "the schema session", "according to probe", or a
    member's whole name among its words."""
    members = {f.member for f in facts}
    said = " " + " ".join(ask.text_words) + " "
    marked: set[str] = set()
    for m in _SOURCE_MARK.finditer(said.strip()):
        name = (m.group(1) or m.group(2) or "").strip()
        for member in members:
            spelled = member.replace("-", " ")
            if name == spelled or name.endswith(" " + spelled):
                marked.add(member)
    if marked:
        return frozenset(marked)
    return frozenset(m for m in members if f" {m.replace('-', ' ')} " in said)


def _nothing(ask: ValueAsk, rows: Sequence[_Row], near: dict[str, tuple[str, _Row]]) -> str:
    """What the card says when no row answers."""
    if near:
        listed = "; ".join(f"{r.fact.member} said {v}" for v, r in near.values())
        return f"no row is about all of it; closest: {listed}"
    about = [r for r in rows if r.covered]
    if about:
        members = ", ".join(sorted({r.fact.member for r in about}))
        return f"{members} said something about it, but no {ask.noun} in it"
    return f"no member has said a {ask.noun} for it"


def injection_in(text: str) -> bool:
    """Does a row carry instructions to the concierge (so it is never evidence)?"""
    return injection(code_form(text)) is not None


def about(ask: ValueAsk, fact: Fact) -> bool:
    """Is the row about what the request is about — every word of it that is not a generic
    one ("service", "new"), exactly or by a thesaurus neighbour, its member's name counting,
    as the offline reader requires — or, for a request about nothing more, does it name the
    asked noun?"""
    roots = _roots_of(fact.text, fact.member)
    specific = [t for t in ask.subject if t not in _GENERIC_WORDS]
    if not specific:
        return bool(roots & ask.cues)
    covered = _covered(specific, roots, fact.text)
    return covered >= len(specific) - _allowed_misses(len(specific))


def candidates(ask: ValueAsk, fact: Fact) -> list[Value]:
    """The values of a row the offline reader would take for the request: of the asked kind,
    not negated, and — a bare number or word — next to the asked noun."""
    roots = _roots_of(fact.text, fact.member)
    covered, score = _coverage(ask.subject, roots, fact.text)
    return _candidates(
        ask, _Row(fact=fact, roots=roots, text=fact.text, covered=covered, score=score)
    )


def loose_ask(code: str) -> ValueAsk:
    """A request read loosely, for checking a model's fleet answer to a question the offline
    path did not read as one: any kind of value, next to one of the question's words or a
    thesaurus neighbour of one ("where staging listens" takes "port 4321"), about the
    question's content words."""
    words = [t for t in tokens(code) if t.text not in _STOP and t.lemma not in _ASKING]
    subject = tuple(dict.fromkeys(root(t.lemma) for t in words if len(t.text) > 1))
    near = {t.lemma for t in tokens(code) if t.text not in _STOP}
    for word in list(near):
        for n in _GROUP_OF.get(root(word), ()):
            near |= set(_GROUP_WORDS[n])
    return ValueAsk(
        kinds=_GENERIC,
        cues=frozenset(root(w) for w in near),
        cue_stems=frozenset(stem(w) for w in near),
        subject=subject,
        words=tuple(dict.fromkeys(t.lemma for t in words)),
    )


def contradicted(ask: ValueAsk, cited: Fact, value: str, facts: Sequence[Fact]) -> bool:
    """Does another row about the same thing give another value of the same kind, said the
    same way ("port 4321" in one row, "port 4400" in another)?"""
    found = next((v for v in values_in(cited.text) if v.text == value), None)
    if found is None:
        return False
    labels = _label_stems(cited.text, found) - _LABEL_NOISE
    for fact in facts:
        if fact.row_id == cited.row_id or injection_in(fact.text):
            continue
        roots = _roots_of(fact.text, fact.member)
        if not any(term in roots for term in ask.subject):
            continue
        for other in values_in(fact.text):
            if other.kind is not found.kind or other.text.casefold() == value.casefold():
                continue
            if labels & _label_stems(fact.text, other):
                return True
    return False


_LABEL_NOISE = frozenset({"on", "at", "is", "in", "to", "the", "a", "of", "and", "for", "it"})
