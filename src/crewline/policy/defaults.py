"""The default a question states, if it states one: "the default is 8080", "3 (the default)",
"UTF-8 by default", "as usual", "the usual 4 workers", "keep the line length of 100?".

Pure text work over the question as written (its case kept, so the answer reads as the asker
wrote it). The asker's own ``default`` and ``options`` count too: a default must be one of
the options when there are options, and two different defaults are a conflict.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from crewline.policy.values import Kind, values_in
from crewline.policy.wording import word_set

__all__ = [
    "Conflict",
    "answers_itself",
    "beside_a_cue",
    "is_self_answer",
    "mentions_default",
    "no_value",
    "not_a_value",
    "not_stated",
    "of_the_step",
    "said_as_default",
    "stated",
    "taken_back",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class Conflict:
    """Defaults that cannot all hold; the reason says which."""

    reason: str


_UNIT = (
    r"(?:ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|days?|weeks?"
    r"|spaces?|tabs?|workers?|replicas?|threads?|jobs?|retries|tries|attempts?|items?|rows?"
    r"|lines?|chars?|characters?|columns?|cols?|[kmgt]i?b|bytes?|%|percent|x|processes"
    r"|connections?|shards?|partitions?|pods?|nodes?|gb|mb|pt|px|em|rem|dpi|ppi|fps|[kmg]?hz"
    r"|[kmg]bps|rpm|°[cf]?"
    # lengths, weights and volumes: "2 cm" is the option whole, never "2"
    r"|cm|mm|km|kg|mg|g|ml|cl|grams?|kilos?|litres?|liters?|metres?|meters?|inch(?:es)?)"
)
_TOKEN = r"(?:[/~]|\.{1,2}/?)?[\w][\w./:@+%~#=-]*"
_QUOTED = r"`[^`\n]+`|\"[^\"\n]+\"|'[^'\n]{1,60}'"
# A value: quoted or code, or a number with its unit, or one token.
_VALUE = rf"(?:{_QUOTED}|\d[\w./:%-]*(?:\s{_UNIT}\b)?|{_TOKEN})"
_NOT_VALUE = frozenset(
    [
        "the",
        "a",
        "an",
        "is",
        "was",
        "one",
        "it",
        "this",
        "that",
        "of",
        "to",
        "be",
        "which",
        "what",
        "and",
        "or",
        "for",
        "value",
        "option",
        "answer",
        "choice",
        "setting",
        "settings",
        "config",
        "configuration",
        "behaviour",
        "behavior",
        "here",
        "there",
        "ok",
        "okay",
        "as",
        "in",
        "on",
        "at",
        "by",
        "if",
        "i",
        "we",
        "you",
        "use",
        "using",
        "used",
        "should",
        "shall",
        "would",
        "will",
        "can",
        "could",
        "may",
        "might",
        "must",
        "do",
        "does",
        "did",
        "have",
        "has",
        "had",
        "are",
        "were",
        "am",
        "with",
        "stay",
    ]
)
# The noun a default is of, with a modifier of its own ("the default font for menus is …").
_NOUN = r"(?:[a-z][\w-]*\s){0,2}(?:(?:for|in|on)\s(?:the\s|our\s)?[a-z][\w-]*\s)?"
_AFTER = [
    # "same as last time (3.11)", "like before (v2)", "the default port (8080)",
    # "keep the default (json)"
    re.compile(
        r"\b(?:(?:as|like)\s+(?:last time|before|usual|always|now|the default)|(?:default|usual"
        rf"|standard)(?:\s+[a-z][\w-]*)?)\s*\(\s*(?P<v>{_QUOTED}|[^()\s][^()]{{0,30}}?)\s*\)",
        re.IGNORECASE,
    ),
    # "as last time: 3 retries", "like before, 8080", "same as before — CSV"
    re.compile(
        r"\b(?:as|like)\s+(?:last time|before|usual|always)\s*(?:[:,(=]|\s[-\u2013\u2014]+)\s*"
        rf"(?P<v>{_QUOTED}|\d[\w./:%-]*(?:\s{_UNIT}\b)?|{_TOKEN})",
        re.IGNORECASE,
    ),
    # "the default is 8080", "defaults to 127.0.0.1", "default: info", "default of 300 s",
    # "the default timeout of 30s", "default one 5432", "the default, 5s", "defaulting to 3.12";
    # a link is a whole word ("the default ISO weeks" links nothing to "O")
    re.compile(
        r"\bdefault(?:s|ing)?(?:\s+(?:value|answer|choice|option|one|setting))?\s*"
        rf"(?:{_NOUN}(?:(?:is|was|would be|will be|being|of|to|at)\b|=|:)\s*"
        # "the default, 5s" — but "32 is the default, 64 …" names its default before, as
        # "honey by default, maple on request" does, and "10 Hz (default, or 5 Hz if noisy)"
        # the word before its bracket
        r"|(?:[:=]|(?<!is the default)(?<!s the default)(?<!\(default)(?<!by default)"
        r"(?<!per default),)\s*)"
        rf"(?:(?:is|set to)\s+)?(?:the\s+(?=\S+\s))?(?P<v>{_VALUE})(?P<w>)",
        re.IGNORECASE,
    ),
    # a bare cue that opens its clause, its value after it: "Export format, default CSV,
    # ok?", "Simulator for the UI tests, default iPhone 15, ok?" — the cue reads forward,
    # never back to the thing the value is of ("the UI tests")
    re.compile(
        r"(?:^|[,:;(]|\s-+|\u2013|\u2014)\s*(?:default|usually|normally)\s+"
        r"(?P<v>(?!(?:is|was|to|of|for|on|in|at|by|the|a|an|we|i|it|you|they|would|will|be"
        r"|value|one|setting|option|config)\b)[\w][\w./:@+%~#-]*(?:\s[\w][\w./:@+%~#-]*){0,2}?)"
        r"(?=\s*(?:[,;?!)]|\.(?:\s|$)|$|\s(?:or|ok|okay|right|fine|please)\b))",
        re.IGNORECASE,
    ),
    # bare: "the default 80%", "(default 500)", "Default: info." — a value-like word only
    re.compile(
        rf"\bdefault(?:\s+one)?\s+(?P<v>{_QUOTED}|\d[\w./:%-]*(?:\s{_UNIT}\b)?)"
        rf"|(?<!the )(?<!a )(?<!our )(?<!its )(?<!your )(?<!my )(?<!their )\bdefault\s+"
        r"(?P<w>[\w][\w./:@+%~#-]*)(?=\s*(?:[.?!)]|$))",
        re.IGNORECASE,
    ),
    # "the default profile `LOCALDEV`", "our usual settings file conf/local.toml", "the
    # default seed 42": the noun phrase names the default's kind, then the value itself; a
    # conjunction starts the other option ("88 as the default or 120"), never the kind's words
    re.compile(
        r"\b(?:the|our|its|my|your|their)\s+(?:[a-z][\w-]*\s+)?(?:default|usual|standard"
        r"|recommended)\s+"
        rf"(?:(?!(?:or|vs|versus|nor|and|then|but|for|of|on|at)\b)[a-z][\w-]*\s+){{0,4}}?(?P<v>{_QUOTED}|\d[\w./:%-]*(?:\s{_UNIT}(?!\w))?"
        r"|(?:[/~]|\.{1,2}/?)?[\w][\w./:@+%~#=-]*(?:[\d/:_@]|\.(?=\w)|(?<=\w)-(?=\w))[\w./:@+%~#=-]*"
        r"|(?-i:[A-Z][A-Z\d_-]+))"
        r"(?=\s*(?:[,;:?!)]|\.(?:\s|$)|$|\s(?:for|in|on|at|as|to|from|with|unless|if|or|and"
        r"|instead|ok|okay|right|yes|fine|please)\b|\s*[^\w\s]+\s*$))",
        re.IGNORECASE,
    ),
    # "by default we use 4 spaces", "by default it's eu-west-1"
    re.compile(
        r"\b(?:by|per) default,?\s+(?:(?:we|i|it|you|they)\s+)?"
        rf"(?:(?:use|go with|pick|run|is|s|are|set|take|do)\s+)?(?P<v>{_VALUE})",
        re.IGNORECASE,
    ),
    # "I'd go with the default comma", "we'll use the usual tabs": the asker's proposal names
    # the default itself, the sentence's last word
    re.compile(
        r"\b(?:i|we)\s*(?:'d|d|would|'ll|ll|will)?\s+(?:go with|use|pick|take|stick with|choose)"
        r"\s+(?:the|our)\s+(?:default|usual|standard|recommended)\s+(?P<v>[\w][\w./:@+%~#-]*)"
        r"(?=\s*[.?!]*\s*$)",
        re.IGNORECASE,
    ),
    # "— standard 15 minutes?": a number with its unit named standard or usual, bare
    re.compile(
        rf"(?:^|[-:,\u2013\u2014]\s*)(?:usual|standard)\s+(?P<v>\d[\w./:%-]*(?:\s{_UNIT}\b)?)",
        re.IGNORECASE,
    ),
    # "the usual 4 workers", "our usual 3000", "the standard 2 replicas", "usual batch size
    # of 100"
    re.compile(
        rf"\b(?:the|our|its|my)\s+(?:usual|standard|normal|regular|recommended)\s+(?P<v>{_VALUE})",
        re.IGNORECASE,
    ),
    re.compile(rf"\busual\s+{_NOUN}(?:of|=|:|is)\s*(?P<v>{_VALUE})", re.IGNORECASE),
    # "the team standard of 90 %", "our convention: snake_case" — a value, never a word
    re.compile(
        rf"\b(?:standard|convention|norm)\s+{_NOUN}(?:of|=|:|is)\s*(?P<v>{_QUOTED}"
        rf"|\d[\w./:%-]*(?:\s?{_UNIT}(?!\w))?|[\w]+(?:[./:@_-][\w]+)+)",
        re.IGNORECASE,
    ),
    # "we usually use 20", "normally 2", "I normally go with X", "typically 10"
    re.compile(
        r"\b(?:usually|normally|typically|always|generally)\s+(?:(?:we|i|you|they)\s+)?"
        r"(?:(?:(?:use|go with|pick|run|set|take|keep|choose|do)\s+)(?:(?:it at|at|with)\s+)?"
        rf"(?P<v>{_VALUE})|(?:(?:it at|at|with)\s+)?(?P<w>{_QUOTED}|\d[\w./:%-]*"
        rf"(?:\s{_UNIT}\b)?|(?-i:[\w]*[A-Z\d][\w.+#-]*)|[\w]+(?:[./:@_][\w]+)+))",
        re.IGNORECASE,
    ),
    # "keep the current line length of 100?", "keep it at 10 min", "stay at 80%"
    re.compile(
        r"\b(?:keep|stay|stick|leave)(?:ing)?\s+(?:(?:it|this|that|the|our|with|at|as)\s+)*"
        r"(?:(?:current|existing|present|same)\s+)?(?:[a-z][\w'-]*\s){0,4}(?:of|at|as|=|to|on)\s+"
        rf"(?P<v>{_VALUE})",
        re.IGNORECASE,
    ),
    # "keep `pytest -q` as the test command?", "keep UTF-8?", "stick w/ the 'dev' profile?"
    re.compile(rf"\b(?:[Ss]tay|[Ss]tick)\s+(?:with|w/)\s+(?:the\s+|our\s+)?(?P<v>{_QUOTED})"),
    # "Plot colormap — viridis unless you object.", "pytest unless you say otherwise"
    re.compile(
        r"(?:^|[-:,.?!\u2013\u2014]\s)\s*(?P<v>[\w][\w./:@+%~#-]*(?:\s[\w][\w./:@+%~#-]*)?)"
        r"\s+unless\s+(?:you|u|someone|anyone)\s+(?:object|objects|say|says|tell|prefer)\b",
        re.IGNORECASE,
    ),
    # "stick with A4 for the timetable?": a preposition ends the value as a mark does
    re.compile(
        rf"\b(?:[Kk]eep|[Ss]tay with|[Ss]tick with|[Ll]eave)\s+(?P<v>{_QUOTED}|\d[\w./:%-]*"
        r"|[\w]*[A-Z\d][\w.+#-]*(?=\s*(?:[?.!,;)]|$)|\s+(?:as|for|in|on|at)\s))"
    ),
]
# The forms read before a plan or a value said before its cue: a cue followed by its value.
_FIRST_FORMS = 6
_BEFORE = [
    # "Monday (the usual day)", "commas (our standard delimiter)": the aside's noun is the
    # kind of thing the value before it is
    re.compile(
        rf"(?<![\w./:@+%~#-])(?P<u>{_QUOTED}|\d[\w./:%-]*(?:\s{_UNIT}\b)?|[\w][\w./:@+%~#-]*)"
        r"\s*\((?:the|our|its|my)\s+(?:usual|default|standard)\s+[a-z][\w-]*\)",
        re.IGNORECASE,
    ),
    # an aside in brackets that says "default" as one of its parts describes what stands
    # before it: "`-x` (stop at first failure, our default)", "10 Hz (default, or 5 Hz if
    # noisy)" — never a word inside the aside
    re.compile(
        rf"(?<![\w./:@+%~#-])(?P<u>{_QUOTED}|(?!(?:usual|always|before|time|standard|recommended)\b)"
        rf"(?:[/~]|\.{{1,2}}/?)?[\w][\w./:@+%~#-]*(?:\s{_UNIT}\b)?)\s*\((?:[^()]*?[,;]\s*)?(?:the\s+|our\s+|its\s+|my\s+)?default(?:\s*[,;][^()]*)?\)",
        re.IGNORECASE,
    ),
    # "plain is the default", "3 (the default)", "88 as the default", "commas (the default
    # delimiter)", "ISO 8601 (the default)", "UTF-8 by default", "build/ as usual", "main, as
    # always"
    re.compile(
        rf"(?P<v>{_QUOTED}|(?:[/~]|\.{{1,2}}/?)?[\w][\w./:@+%~#-]*(?:\s{_UNIT}\b)?)[\"'`]?,?\s*"
        r"(?:\(\s*)?"
        r"(?:which\s+)?(?:(?:is|being|will be|would be|stays|as)\s+)?(?:the\s+|our\s+|its\s+)?"
        # "standard" said of the value is its default as "default" is: "2 spaces (project
        # standard)", "UTC (standard for our logs)"; "which is the default one," too
        r"(?:(?!or\b|and\b|by\b|per\b|not\b|no\b|non\b)[a-z][\w-]*\s+)?(?:default|standard)\b"
        r"(?!\s*(?:is|was|would|will|=|:|of|to|value)\b)(?!\s*one\b(?!\s*[,;)]))"
        r"(?!\s+[a-z]+\s+(?:of|is|=|:|to)\b)"
        rf"|(?P<w>{_QUOTED}|(?:[/~]|\.{{1,2}}/)?[\w][\w./:@+%~#-]*(?:\s{_UNIT}\b)?)[\"'`]?,?\s+"
        r"(?:by|per) default\b"
        rf"|(?P<u>(?:[/~]|\.{{1,2}}/)?[\w][\w./:@+%~#-]*(?:\s{_UNIT}\b)?|`[^`\n]+`)[\"'`]?(?:,|\s[-\u2013\u2014]+)?\s+"
        r"(?:(?:as usual|as always"
        r"|like always|like usual|like now|like before|as before|like last time|as last time"
        r"|like the default|as is the default|as per usual|is (?:our|the) usual|is standard"
        # what is done by habit, said as a relative: "45 min, which is what we normally do",
        # "45 min (what we always use)", "CSV is what we use everywhere else"
        r"|(?:\(\s*|(?:which\s+)?is\s+|(?<=,\s))what\s+(?:we|i)\s+(?:always|usually|normally"
        r"|typically)\s+(?:use|do|pick)|(?:which\s+)?is\s+what\s+(?:we|i)\s+use\s+"
        r"(?:everywhere|elsewhere))\b"
        r"|\((?:the |our |as )?usual(?: one| choice)?\)|\(as always\)"
        # a recommendation stated is the pick the question offers: "12 pt (recommended)"
        r"|\((?:the\s+)?recommended(?:\s+(?:one|by\s[^()]{1,40}))?\)|is (?:the )?recommended\b)",
        re.IGNORECASE,
    ),
]
# Every form of _BEFORE ends in one of these words, so a text with none of them cannot match;
# and since those forms try each word of the text as the value, not running them on such a
# text (most questions) saves about half of the gate's time on a new wording.
_BEFORE_ANCHOR = re.compile(
    r"default|usual|always|normally|like now|before|last time|standard|recommended|typically"
    r"|everywhere|elsewhere",
    re.IGNORECASE,
)
_LEAD_WORD = re.compile(r"([A-Za-z]{2,})\s+$")
_STOP_LEAD = frozenset(
    [
        "the",
        "a",
        "an",
        "is",
        "was",
        "are",
        "be",
        "to",
        "of",
        "for",
        "in",
        "on",
        "at",
        "by",
        "with",
        "as",
        "use",
        "using",
        "set",
        "pick",
        "it",
        "this",
        "that",
        "and",
        "or",
        "but",
        "so",
        "use",
        "format",
        "level",
        "size",
        "port",
        "version",
        "value",
        "default",
        "usual",
        "stay",
    ]
)


def _display(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


def _clean(value: str) -> str | None:
    value = re.sub(r"^\s*default\s*[:=]\s*", "", value.strip(), flags=re.IGNORECASE)
    if "=" in value and not value.startswith(("`", '"', "'")):
        value = value.split("=", 1)[1]  # "defaults: region=eu-west-1"
    if value[:1] in "`\"'" and value[-1:] == value[:1] and len(value) > 2:
        value = value[1:-1].strip()  # quoted or code: as written, its punctuation kept
    else:
        value = value.strip("`\"'").rstrip(".,;:!?)")
    if not value or value.lower() in _NOT_VALUE:
        return None
    return value


def _alternative_words(text: str, at: int) -> int:
    """How many words the alternative after an " or " (after ``at``) has, 1 to 3."""
    m = re.search(r"\bor\s+([^?.,;]+)", text[at:])
    if m is None or re.match(
        r"(?:do|would|should|shall|can|somewhere|something|anything|another|a different|more"
        r"|less|else|not)\b",
        m.group(1),
        re.IGNORECASE,
    ):
        return 1
    return max(1, min(3, len(re.findall(r"[\w%/.-]+", m.group(1)))))


_PRONOUN = frozenset(["it", "s", "that", "this", "which"])


def _phrase_words(text: str, start: int, value: str) -> int:
    """How many plain words, up to 3, the phrase ending in ``value`` has back to a
    punctuation mark or a leading word ("— conventional commits" → 2)."""
    if not _plain(value):
        return 1
    before = re.split(r"[^\w\s-]|\s-+\s", text[:start])[-1].split()
    n = 1
    for said in reversed(before[-2:]):
        word = said.lower()  # "Dark theme as always, or light?": a capital opens the text
        if not _plain(word) or word in _STOP_LEAD | _NOT_VALUE | _TAKES_DEFAULT | _AUX_WORDS:
            break
        n += 1
    return n


# Words that take "the default" as their object ("we'll use the default", "go with the
# default"): the default is chosen, its value not said.
_TAKES_DEFAULT = frozenset(
    [
        "use",
        "using",
        "keep",
        "keeping",
        "with",
        "pick",
        "take",
        "choose",
        "stick",
        "want",
        "prefer",
        "apply",
        "follow",
        "leave",
        "stay",
        "accept",
        "select",
        "try",
        "go",
        "need",
    ]
)


def _before_value(text: str, m: re.Match[str]) -> str | None:
    group = next(g for g in ("v", "w", "u") if m.groupdict().get(g))
    value = m.group(group)
    start = m.start(group)
    if text[:start].endswith(("'", "\u2019")):
        return None  # "we'll use the default": a contraction's tail is no value
    if group == "v" and value.lower() in _TAKES_DEFAULT:
        return None
    if re.search(r"\bsame\s+$", text[:start], re.IGNORECASE) and _plain(value.lower()):
        # "Same font as last time for the menu, Georgia?": the noun of "same … as" is the
        # kind of thing; the value, if any, is said after
        return _value_after(text, m.end())
    if group == "v":
        between = text[m.end(group) : m.end()].lower()
        if "standard" in between and "(" not in between:
            return None  # "the bucket, standard procedure": "standard" a cue only in an aside
        said_as = re.search(r"[(,]|\b(?:is|being|will be|would be|stays|which|as)\b", between)
        if not said_as and (
            not re.search(r"\b(?:the|our|its)\s+default$", between)
            or re.match(r"\s+[a-z]", text[m.end() :])
        ):
            # "the project default", "use the default settings": a modifier of the word
            # "default", or "default" the modifier of a thing — no default said
            return None
    number = re.search(r"(\d[\d.,]*)\s+$", text[:start])
    if number and re.fullmatch(r"[A-Za-z]+", value):
        return f"{number.group(1)} {value}"  # "100 Hz is the default", "2 epochs as always"
    if value.lower() in _PRONOUN:
        # "Use 3.12? It's the default.": the value named just before
        earlier = re.findall(
            rf"{_QUOTED}|\d[\w./:%-]*|[\w][\w./:@+%~#-]*[\d/.:_-][\w./:@+%~#-]*", text[:start]
        )
        return _clean(earlier[-1]) if earlier else None
    # "newest first like the default, or oldest first": as many words as the other side;
    # "— conventional commits as usual": the plain phrase back to the clause's start
    wanted = max(_alternative_words(text, m.end()), _phrase_words(text, start, value))
    if wanted > 1 and _plain(value.lower()):
        # never back over the verb that takes the phrase: "I can use UTC (standard) or
        # local Zurich time" offers "UTC", not "can use UTC"
        # and never across a clause's mark: "… in the draft: two decimals (our default)"
        clause = _CLAUSE_MARK.split(text[:start])[-1]
        words = list(
            itertools.takewhile(
                lambda w: w.lower() not in _TAKES_DEFAULT | _AUX_WORDS,
                reversed(re.findall(r"[\w%./-]+", clause)[-(wanted - 1) :]),
            )
        )
        head = " ".join(reversed(words))
        value = f"{head} {value}" if head else value
        # "1 decimal place (default)": the phrase is counted, its number is of the value
        number = re.search(
            r"(?:^|(?<=\s))(\d[\d.,]*)\s+$", text[: start - len(head) - 1] if head else ""
        )
        if number:
            value = f"{number.group(1)} {value}"
    elif re.fullmatch(r"\d[\w./:%-]*(?:\s\S+)?", value):
        lead = _LEAD_WORD.search(text[:start])
        if (
            lead
            and lead.group(1).lower() not in _STOP_LEAD
            and (
                lead.group(1).isupper()
                or (lead.group(1)[0].isupper() and re.search(r"\w\W*$", text[: lead.start()]))
            )
        ):
            value = f"{lead.group(1)} {value}"  # "ISO 8601", "stick with Postgres 15"
    return _clean(value)


# A value as a reader tells it from a plain word: a number, a path, a quoted or code span,
# a name with capitals ("UTF-8", "Inter"), or a word glued with punctuation ("eu-west-1").
_VALUE_LIKE = re.compile(
    rf"{_QUOTED}|(?:[/~]|\.{{1,2}}/)?[\w][\w./:@+%~#=-]*\d[\w./:@+%~#=-]*(?:\s{_UNIT}\b)?"
    r"|\d[\w./:%-]*(?:\s" + _UNIT + r"\b)?|(?:[/~]|\.{1,2}/)[\w][\w./:@+%~#=-]*"
    r"|[\w]+(?:[./:@_][\w]+)+|[A-Z][\w+#-]*"
)
# What may stand between a plain word read as the value and the value that follows it
# ("same as usual, 45 min", "the usual batch size of 500", "the usual pattern: feat/x").
_LEADS_TO_VALUE = re.compile(
    r"(?:\s*(?:[,:=]|of\b|is\b|at\b|to\b)?\s*[a-z][\w-]*){0,3}?\s*(?:[,:=]|of\b|is\b|at\b)?"
    rf"\s*(?P<v>{_VALUE_LIKE.pattern})"
)


# A plain word after a cue's comma that is the question's tag ("…, right?") or the verb of
# the step it asks ("…, go with it?"), not the default's value.
_TAG_OR_STEP = re.compile(
    r"(?:right|correct|fine|alright|good|cool|agreed|yeah|yep)\s*[?!.]*\s*$"
    r"|[a-z]+\s+(?:with\s+)?(?:it|them)\b|[a-z]+\s+with\s+(?:that|this)\b",
    re.IGNORECASE,
)


def _plain(value: str) -> bool:
    return bool(re.fullmatch(r"[a-z][a-z-]*", value))


def _value_after(text: str, end: int) -> str | None:
    """A value-like token close after ``end`` in the same clause, for a plain word read as
    the value ("same as usual, 45 min" → 45 min)."""
    if re.match(r"[.!?](?:\s|$)", text[end - 1 : end + 1]):
        return None  # "By default, bash. Fine?": the sentence ended with the word read
    rest = re.split(r"[?!;]|\.(?:\s|$)", text[end:], maxsplit=1)[0][:60]
    found = _LEADS_TO_VALUE.match(rest)
    return _clean(found.group("v")) if found else None


# The nouns a value is of, never a value ("the standard port", "the usual path").
_KIND_NOUNS = frozenset(
    [
        "port",
        "host",
        "hostname",
        "address",
        "version",
        "path",
        "file",
        "folder",
        "directory",
        "location",
        "region",
        "timeout",
        "size",
        "name",
        # the manner's own noun: "the usual way", "the standard procedure" name how the step
        # is done by habit, no value ("Sort the manifests the usual way?" asks to go on)
        "way",
        "manner",
        "fashion",
        "method",
        "procedure",
        "routine",
    ]
)


# "black is the project default, ruff format is the alternative": the default was named
# before its cue, as its subject; what follows the comma is the next clause, another option.
_NAMED_BEFORE_THE_CUE = re.compile(
    r"\b(?:is|was|being|stays|remains)\s+(?:the|our|its|their|a)\s+(?:[\w-]+\s+){0,2}$",
    re.IGNORECASE,
)


def _after_a_default_named_before(text: str, m: re.Match[str]) -> bool:
    """Is the value read after "default," where the clause before already said what the
    default is ("X is the house default, Y …")?"""
    cue = text[m.start() : m.start("v") if m.group("v") else m.end()]
    return "," in cue and _NAMED_BEFORE_THE_CUE.search(text[: m.start()]) is not None


def _read_value(text: str, m: re.Match[str], value: str | None) -> str | None:
    said = m.groupdict().get("v") or m.groupdict().get("w") or ""
    at = m.start("v") if m.group("v") else m.start()
    if value is not None and _after_a_default_named_before(text, m):
        return None
    if value is not None and re.search(r"\b(?:is|was)\s+to\s+$", text[:at], re.IGNORECASE):
        return None  # "the default is to delete the bucket": a step, no value
    if value is None or not _plain(value) or re.fullmatch(_QUOTED, said.strip()):
        return value  # a quoted value is the value as said ("the default 'small' one")
    if _TAG_OR_STEP.match(text, m.start("v") if m.group("v") else m.start()):
        return None  # "12 pt like last time, right?", "by default, go with it?": no value
    return _value_after(text, m.end()) or (None if value in _KIND_NOUNS else value)


# ---------------------------------------------------------------- a plan open to a veto

# "unless you object", "unless you'd rather something else", "unless told otherwise", "if
# you don't mind": the speaker leaves a plan open to the human's veto, so what the plan
# names is the default the question asks to confirm.
_VETO = re.compile(
    r"\bunless\s+(?:(?:you|u|someone|anyone|somebody|anybody)\b[^.?!;]{0,40}?\b(?:object"
    r"|objects|objection|otherwise|prefer|rather|else|different|another|disagree|veto)\b"
    r"|(?:(?:i|we)\s*(?:['\u2019]?m|['\u2019]?re|am|are)\s+)?(?:told|instructed|advised)\s+otherwise"
    r"|(?:i|we)\s+hear\s+otherwise)"
    r"|\bif\s+(?:you|u)\s+(?:don['\u2019]?t|do\s+not)\s+mind\b"
    r"|\bif\s+(?:there\s+are\s+)?no\s+objections?\b|\bif\s+(?:nobody|no\s+one)\s+objects\b",
    re.IGNORECASE,
)
# Who plans: "I'll", "we will", "I'd", "I'm going to" — or a plan said as a gerund at a
# clause's start ("Going with UTC unless you say otherwise").
_PLANNER = (
    r"\b(?:i|we)\s*(?:['\u2019]?ll|['\u2019]d|\s(?:will|would|shall|plan\s+to|intend\s+to))"
    r"|\b(?:i|we)\s*(?:['\u2019]?m|['\u2019]re|\sam|\sare)\s+(?:going\s+to|gonna|about\s+to)"
)
# Verbs whose object is the value chosen ("go with Node 20", "use UTC"); a plain word is a
# value only after the verbs that choose ("go with pytest").
_CHOOSING = (
    r"go(?:ing)?\s+with|stick(?:ing)?\s+with|stay(?:ing)?\s+with|pick(?:ing)?|choos(?:e|ing)"
)
_OBJECT_VERBS = rf"{_CHOOSING}|us(?:e|ing)|tak(?:e|ing)|target(?:ing)?|default(?:ing)?\s+to"
# Verbs that name the value after their object ("call the file `a.md`", "name it fix/x").
_NAMING_VERBS = r"call(?:ing)?|nam(?:e|ing)"
# Verbs that place a thing at the value ("put the helper into utils/dates.py", "set it to 5").
_PLACING_VERBS = r"put(?:ting)?|writ(?:e|ing)|sav(?:e|ing)|stor(?:e|ing)|set(?:ting)?|pin(?:ning)?"
_PLAN = re.compile(
    rf"(?:(?:{_PLANNER})\s+(?:just\s+|simply\s+|probably\s+|then\s+)?|(?:^|[-:,;.?!(\u2013\u2014]\s*))"
    rf"(?:(?P<choose>{_CHOOSING})|(?P<object>{_OBJECT_VERBS})|(?P<name>{_NAMING_VERBS})"
    rf"|(?P<place>{_PLACING_VERBS}))\s+(?P<rest>[^\n]+)",
    re.IGNORECASE,
)
# Where the object of a plan's verb ends: a preposition, a clause's mark, the veto.
_OBJECT_END = re.compile(
    r"\s(?:for|in|into|on|at|as|to|from|with|under|unless|if|so|because|since|and|but|then"
    r"|when|instead|rather|by)\b|[,;:?!()]|\.(?:\s|$)|\s[-\u2013\u2014]+\s",
    re.IGNORECASE,
)
_DETERMINER = re.compile(r"^(?:the|a|an|our|my|your|its|their|this|that)\s+", re.IGNORECASE)
_CUES = frozenset(["default", "usual", "standard", "normal", "regular", "recommended"])
_PLAN_PRONOUN = frozenset(["it", "that", "this", "those", "them", "one", "that one", "this one"])


def _planned(text: str) -> str | None:
    """The value a plan open to a veto names: "Unless you object I'll go with Node 20 for
    the worker. OK?" → Node 20, "I'll call the file `report_v2.md` unless you'd rather
    something else — fine?" → report_v2.md, "… says 3.11, so I'd go with that unless told
    otherwise" → 3.11. The plan and its veto are said in one sentence."""
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if not _VETO.search(sentence):
            continue
        for m in _PLAN.finditer(sentence):
            value = _plan_value(sentence, m)
            if value is not None:
                return value
    return None


def _plan_value(sentence: str, m: re.Match[str]) -> str | None:
    rest = m.group("rest")
    if m.group("place"):
        # the value is where the thing is put: "into utils/dates.py", "to 30 s"
        at = re.match(
            r"(?:(?!unless\b|if\b)[^\s,;:?!]+\s+){0,4}?(?:to|into|in|under|as|at)\s+(?P<v>.+)",
            rest,
            re.IGNORECASE,
        )
        return _object_value(at.group("v"), plain=False) if at else None
    said = _object_value(rest, plain=bool(m.group("choose")))
    if said is not None and said.lower() in _PLAN_PRONOUN and not m.group("name"):
        # "… says 3.11, so I'd go with that": the value named just before, in the sentence
        earlier = [w for w in re.findall(rf"{_QUOTED}|[^\s,;:?!()]+", sentence[: m.start()])]
        named = [w for w in earlier if _valueish(w.rstrip("."))]
        return _clean(named[-1]) if named else None
    return None if said is not None and said.lower() in _PLAN_PRONOUN else said


def _valueish(word: str) -> bool:
    """A word a reader takes for a value, not a plain word: it has a digit, a capital, a
    mark inside ("en-US", "utils/dates.py", "UTC", "20"), or it is quoted or code."""
    return (
        bool(re.search(r"\w", word))
        and word not in ("I", "I'm", "I'll", "I'd")
        and not _plain(word)
    ) or bool(re.fullmatch(_QUOTED, word))


def _object_value(rest: str, *, plain: bool) -> str | None:
    """The value in a plan's object: a quoted or code span as written, else the phrase up to
    its end with its determiner and the plain words naming what it is dropped ("the default
    locale en-US" → en-US, "Node 20" kept whole); a plain phrase only when ``plain`` ("go
    with the local mock"); a pronoun as said, for the caller to resolve."""
    end = _OBJECT_END.search(rest)
    raw = (rest[: end.start()] if end else rest).strip()
    if raw.lower() in _PLAN_PRONOUN:
        return raw
    quoted = re.search(_QUOTED, raw)
    if quoted is not None:
        return _clean(quoted.group(0))
    words = _DETERMINER.sub("", raw).split()
    first = next((n for n, w in enumerate(words) if _valueish(w)), None)
    if first is not None:
        before = [w.lower() for w in words[:first]]
        if (
            before
            and re.fullmatch(r"\d[\d.]*", words[first])
            and not set(before) & _CUES
            and before[-1] not in _KIND_NOUNS | _NOT_VALUE
        ):
            first -= 1  # "pnpm 9", "python 3.11": a number names the version of a name
        kept = words[first:]
        if len(kept) > 3 or any(w.lower() in _NOT_VALUE for w in kept):
            kept = kept[:1]
        return _clean(" ".join(kept))
    if plain and 0 < len(words) <= 3 and all(_plain(w.lower()) for w in words):
        if words[-1].lower() in _NOT_VALUE or words[-1].lower() in _KIND_NOUNS:
            return None
        return " ".join(words)
    return None


# ---------------------------------------------------------------- a value by convention

_REFERENCE = (
    r"(?:yesterday\b|(?:the|our|every|all|each|its|their|other|last|previous|this|that)\b"
    r"[^,;:?!.()]{0,40}?)"
)
# Where a precedent's reference ends: a clause's mark, the text's end, trailing punctuation.
_PRECEDENT_END = r"\s*(?=[,;:?!)]|\.(?:\s|$)|$|[^\w\s]+\s*$)"
# A tail that says the value is what a convention or a precedent has: "like the rest of the
# repo", "as in the template default", "in line with the other services", "same as the last
# three reports", "per usual", "following the default naming", "as we always do".
_PRECEDENT_TAIL = re.compile(
    r"(?:,\s*|\s+)(?:just\s+)?(?:"
    rf"like\s+(?:in\s+|with\s+|for\s+|on\s+)?{_REFERENCE}"
    rf"|as\s+(?:in|with|for|on)\s+{_REFERENCE}"
    r"|as\s+(?:is\s+)?(?:the|our)\s+(?:[\w-]+\s+){0,2}(?:default|standard|convention)"
    rf"|(?:the\s+)?same\s+as\s+(?:in\s+)?{_REFERENCE}"
    rf"|(?:in\s+line|consistent|aligned|in\s+keeping)\s+(?:with|w/)\s+{_REFERENCE}"
    rf"|following\s+(?:the|our)\s+[^,;:?!.()]{{0,40}}?|matching\s+{_REFERENCE}"
    r"|(?:as\s+)?per\s+usual"
    r"|(?:as|like)\s+(?:we|i|you|they|everyone)\s+(?:always|usually|normally|typically)"
    r"(?:\s+(?:do|did|have|use|go|set\s+it))?)"
    rf"{_PRECEDENT_END}",
    re.IGNORECASE,
)
# "same 3.11 as the CI image": the value between "same" and the precedent.
_SAME_AS = re.compile(
    rf"\bsame\s+(?P<v>{_QUOTED}|[^\s,;:?!()]+(?:\s{_UNIT}(?!\w))?)\s+as\s+{_REFERENCE}"
    rf"{_PRECEDENT_END}",
    re.IGNORECASE,
)
_STATE_QUESTION = re.compile(
    r"^(?:(?:so|and|but|also|btw|hey|ok|okay|quick\s+q)\W+)*(?:is|are|was|were|does|did|has|have"
    r"|had)\b(?!\s+(?:it|that|this)\s+(?:ok|okay|fine|alright|good|cool|safe)\b)",
    re.IGNORECASE,
)
_ALTERNATIVE_OFFERED = re.compile(r"\b(?:or|vs|versus|instead|rather than)\b", re.IGNORECASE)


def _by_precedent(text: str) -> str | None:
    """The value a convention or precedent the question names is said to hold: "Line length
    100 like the rest of the repo?" → 100, "Encoding: utf-8 per usual?" → utf-8, "same 3.11
    as the CI image?" → 3.11. A value a reader tells from a word, or plain words right after
    a heading's mark ("Style — conventional commits as the repo default?"); never in a
    question about a state ("Is the API slow like the old one?"), never beside an
    alternative, and a precedent with no value named ("same as last time?") names none."""
    if _ALTERNATIVE_OFFERED.search(text):
        return None
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if _STATE_QUESTION.match(sentence):
            continue
        same = _SAME_AS.search(sentence)
        if same is not None and _valueish(same.group("v")):
            return _clean(same.group("v"))
        for m in _PRECEDENT_TAIL.finditer(sentence):
            value = _value_before(sentence[: m.start()])
            if value is not None:
                return value
    return None


def _value_before(head: str) -> str | None:
    """The value that ends ``head``: its last token when a reader tells it from a word (with
    the number before a unit: "4 spaces"), or up to four plain words after a mark."""
    clause = re.split(r"[;?!()]|:(?:\s|$)|\.\s|\s[-\u2013\u2014]+\s|[\u2013\u2014]|,", head)
    words = clause[-1].split()
    if not words:
        return None
    last = words[-1]
    if _valueish(last.rstrip(".")):
        if len(words) >= 2 and re.fullmatch(r"\d[\d.]*", last) and re.match(r"[A-Z]", words[-2]):
            return f"{words[-2]} {last}"  # "Node 20", "Python 3.12"
        return _clean(last)
    if len(words) >= 2 and re.fullmatch(r"\d[\d.,]*", words[-2]) and re.fullmatch(_UNIT, last):
        return f"{words[-2]} {last}"
    after_mark = len(clause) > 1 and len(words) <= 4
    said = [w.lower() for w in words]
    if (
        after_mark
        and all(_plain(w) for w in said)
        and not {said[0], said[-1]} & (_NOT_VALUE | _NOT_VALUE_BEFORE | _KIND_NOUNS)
        and not set(said) & _AUX_WORDS
    ):
        return " ".join(words)
    return None


# Words that make a phrase a clause, not a value ("is same like every month").
_AUX_WORDS = frozenset(
    [
        "am",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "do",
        "does",
        "did",
        "have",
        "has",
        "had",
        "shall",
        "should",
        "will",
        "would",
        "can",
        "could",
        "may",
        "might",
        "must",
    ]
)


# A phrase a preposition and a determiner open, right before a cue that follows its value,
# names the thing the value is of, never the value: "Georgia for the menu cards as usual",
# "4 workers for the thumbnail job as always", "Postgres 15 for the catalogue DB like last
# time" state Georgia, 4 workers, Postgres 15 — when what stands before it is the value: a
# word a reader tells from a plain one, a bare phrase with no determiner, or what a choosing
# verb takes ("use tabs in the Makefile"). After a verb and its object the phrase is the
# place the value is ("save the report in the shared folder as usual"), and a preposition
# with no determiner leads to the value itself ("in Garamond as usual").
_THING_BEFORE_CUE = re.compile(
    r"\s(?:for|in|on|of|at|to|into|from|with|across)\s(?:the|our|my|your|its|their|this|that"
    r"|these|those|a|an)\s(?:(?!\s[-\u2013\u2014]|[\u2013\u2014])(?:'s\b|[^,;:?!()\n`'\"\d])){1,40}?"
    r"(?=,?\s+(?:as\s+usual|as\s+always|like\s+always|like\s+usual|like\s+before|as\s+before"
    r"|like\s+last\s+time|as\s+last\s+time|as\s+per\s+usual|per\s+usual)\b"
    r"|\s*\((?:the\s+|our\s+|as\s+)?(?:default|usual|standard)\)(?!\s*or\s+(?:for|in|on|of|at"
    r"|to|into|from|with|across)\b)"
    r"|,?\s+(?:the\s+)?same\s+as\s+(?:last|before|usual|always|yesterday|the\s+last|the\s+previous)\b"
    # a precedent named: "like in the rest of the repo", "as with every other page"
    r"|,?\s+(?:like|as)\s+(?:in\s+|with\s+|for\s+|on\s+)?(?:the\s+(?:rest|other|last|previous)"
    r"|every|all\s+the\s+other|our\s+other)\b)",
    re.IGNORECASE,
)
_CLAUSE_MARK = re.compile(r"[,;:?!()]|\.(?:\s|$)|\s[-\u2013\u2014]+\s|[\u2013\u2014]")
# A choosing verb and its object, up to three words, ending the clause ("ok to use 4 spaces").
_CHOOSING_LEAD = re.compile(
    r"(?:^|\s)(?:use|go\s+with|stick\s+with|stay\s+with|keep|pick|choose|take)(?:\s+\S+){1,3}$",
    re.IGNORECASE,
)


def _the_value_before(text: str, at: int) -> bool:
    """Is what stands before ``at`` in its clause the value a cue reads past a phrase to?"""
    clause = _CLAUSE_MARK.split(text[:at])[-1].strip()
    words = clause.split()
    if not words:
        return False
    last = words[-1]
    if _valueish(last) and (len(words) > 1 or not _plain(last.lower())):
        return True  # "Postgres 15 for …", "Celsius on …", "A4 for …"
    bare = len(words) <= 3 and not any(
        w.lower() in _NOT_VALUE | _AUX_WORDS | _TAKES_DEFAULT for w in words
    )
    return bare or _CHOOSING_LEAD.search(clause) is not None


def _past_the_thing(text: str) -> str:
    """The text with a phrase naming what a value is of cut from before its cue."""
    return _THING_BEFORE_CUE.sub(
        lambda m: "" if _the_value_before(text, m.start()) else m.group(0), text
    )


# Words of no value: the articles, pronouns and possessives, prepositions, conjunctions and
# auxiliaries a cue reads when the clause around it names no value ("T130 was the usual until
# the mill changed" read as "until", "on my local copy" as "my"). "on", "off", "in", "out"
# are states a setting takes, and stay values.
_FUNCTION_WORDS = word_set(
    """a an the my our your their its his her me us him them i we you he she they it this
    that these those who whom whose which what of to for with from into onto about after
    before until till since during through across against among between by at under over
    via per and or but nor so yet though although unless because while whereas if than
    then otherwise whether else instead is was are were be been being am do does did has
    have had will would shall should can could may might must not next same other another
    each every"""
)
# A number's own unit or prefix: "180 C", "L204", "v2" — a letter glued to or set after it.
_NUMBER_BEFORE = re.compile(r"\d[\d.,]*\s*$")
_KEEP_GOING = re.compile(
    r"\b(?:keep|kept|keeping)\s+(?!(?:existing|using|it|them)\b)[a-z]+ing\b", re.IGNORECASE
)


def _no_value(text: str, value: str) -> str | None:
    """Why ``value``, read by a cue in ``text``, is no whole value of it, or None when it is
    one: a word of no value alone or at its end ("until", "204 was"), a piece of a token or
    of a number with its unit ("204" of "L204", "C" of "180 C"), words taken across a clause's
    mark, or the object of a step said with "keep …ing" (to go on doing it, no value kept)."""
    words = value.split()
    if len(words) == 1 and value.casefold() in _FUNCTION_WORDS:
        return f"“{value}” is a function word, not a value"
    if words and words[-1].casefold() in _FUNCTION_WORDS:
        return f"“{value}” ends in the function word “{words[-1]}”, not a value"
    places = [m.start() for m in re.finditer(re.escape(value), text)]
    if not places:
        return f"“{value}” is not said as one phrase in it"
    whole = [
        at
        for at in places
        if not re.search(r"\w$", text[:at])
        and not re.match(r"\w", text[at + len(value) :])
        and not (value[:1].isalpha() and _NUMBER_BEFORE.search(text[:at]))
    ]
    if not whole:
        return f"“{value}” is only a piece of a longer value in it"
    if _KEEP_GOING.search(text[: whole[0]]):
        return f"“{value}” is in the object of a step it asks to keep doing, not a value"
    return None


def not_a_value(question: str, value: str) -> str | None:
    """Why ``value``, a default read in ``question`` (a model's reading too), is no whole
    value of it ("C" of "Oven at 180 C, same as last week?"), or None."""
    return _no_value(_display(question), _display(value))


def no_value(question: str) -> str | None:
    """Why the default a cue reads in ``question`` is no value of it ("T130 was the usual
    until the mill changed" reads "until"), or None."""
    read, why = _in_text_read(question)
    other = _pinned_by_a_file(question) if read is None else _given_by_source(question, read)
    return why or (_no_value(_display(question), other) if other is not None else None)


def _in_text(question: str) -> str | None:
    return _in_text_read(question)[0]


@functools.lru_cache(maxsize=256)
def _in_text_read(question: str) -> tuple[str | None, str | None]:
    """The first whole value the patterns read, in their order ("default is X" forms first),
    and why the first reading refused was no value. Kept for the last questions read: both
    readings of a question's default ask it."""
    text = _past_the_thing(_display(question))
    refused: list[str] = []

    def kept(value: str | None) -> bool:
        if value is None or _only_the_cue(value):
            return False
        why = _no_value(text, value)
        if why is not None:
            refused.append(why)
        return why is None

    found = _first_read(text, kept)
    return found, (refused[0] if found is None and refused else None)


# "Stay (default) or leave?": one word marked "(default)" and set against another option is
# that option, whatever word it is — a keeping verb, or one the reader elsewhere takes for a
# function word — when it opens its clause, so that it is the whole option.
_MARKED_THEN_OTHER = re.compile(
    r"\s*\(\s*(?:the\s+|our\s+|my\s+)?default\s*\)\s*,?\s*(?:or|/)\s+\S", re.IGNORECASE
)
_OPENS_ITS_CLAUSE = re.compile(r"(?:^|[,:;(]|\s[-\u2013\u2014]+|->|\u2192)\s*$")
_NEVER_AN_OPTION = frozenset(["the", "a", "an", "it", "this", "that", "which", "what", "or", "and"])


def _marked_option(text: str, m: re.Match[str]) -> str | None:
    """The one word the match marks "(default)" as an option of a pair ("Stay (default) or
    leave?" → "Stay"), or None."""
    group = next((g for g in ("v", "w", "u") if m.groupdict().get(g)), None)
    if group is None:
        return None
    word = m.group(group)
    if not re.fullmatch(r"[A-Za-z][a-z-]*", word) or word.lower() in _NEVER_AN_OPTION:
        return None
    if not _MARKED_THEN_OTHER.match(text, m.end(group)):
        return None
    return word if _OPENS_ITS_CLAUSE.search(text[: m.start(group)]) else None


def _first_read(text: str, kept: Callable[[str | None], bool]) -> str | None:
    for pattern in _AFTER[:_FIRST_FORMS]:
        for m in pattern.finditer(text):
            groups = m.groupdict()
            value = _read_value(text, m, _clean(groups.get("v") or groups.get("w") or ""))
            if kept(value):
                return value
    planned = _planned(text)
    if kept(planned):
        return planned
    for pattern in _BEFORE if _BEFORE_ANCHOR.search(text) else ():
        for m in pattern.finditer(text):
            value = _before_value(text, m) or _marked_option(text, m)
            if value is not None and value.lower() in _NOT_VALUE_BEFORE:
                value = value if _kept_as_an_option(text, m, value) else _value_after(text, m.end())
            if value is not None and re.fullmatch(r"[a-z][a-z -]*", value.lower()):
                value = _cued_in_phrase(text, m.start()) or value
            if kept(value):
                return value
    by_precedent = _by_precedent(text)
    if kept(by_precedent):
        return by_precedent
    for pattern in _AFTER[_FIRST_FORMS:]:
        for m in pattern.finditer(text):
            value = _read_value(text, m, _clean(m.group("v") or m.groupdict().get("w") or ""))
            if kept(value):
                return value
    return None


# "keep (default) or archive?": the keeping verb is itself the option marked, the other one
# said after "or" — never "keep 8080 (the default)", where what is kept is the value.
_OR_THE_OTHER = re.compile(r"\s*,?\s*(?:or|/)\s+[a-z]", re.IGNORECASE)


def _kept_as_an_option(text: str, m: re.Match[str], value: str) -> bool:
    return (
        value.lower() in _KEEPING_OPTIONS
        and m.group(0).rstrip().endswith(")")
        and _OR_THE_OTHER.match(text, m.end()) is not None
    )


_KEEPING_OPTIONS = frozenset(["keep", "stay"])


# A cue inside the noun phrase a plain word heads, a value after it: "the standard 30-day
# loan period as usual" states 30-day, not "loan period".
_CUE_IN_PHRASE = re.compile(
    r"\b(?:the|our|its|my|your|their)\s+(?:usual|standard|default|normal|regular)\s+"
    rf"(?P<v>{_VALUE_LIKE.pattern}|[-+]\d[\w./:%+-]*)(?:\s[a-z][\w-]*){{1,3}}\s*$",
    re.IGNORECASE,
)


def _cued_in_phrase(text: str, end: int) -> str | None:
    """The value a cue names inside the phrase that ends at ``end``, in its clause: a plain
    word read before "as usual" is the thing the value is of."""
    clause = re.split(r"[,;:?!()]|\.(?:\s|$)|\s[-\u2013\u2014]+\s", text[:end])[-1]
    found = _CUE_IN_PHRASE.search(clause.rstrip() + " ")
    return _clean(found.group("v")) if found else None


def _only_the_cue(value: str) -> bool:
    """Is the value read only the cue's own word ("ISO 8601 as usual (default)" read as
    "default")?"""
    return _MARKED.sub("", value).strip(" ()'\"`").casefold() in ("", "default", "the default")


# Words a phrase before "as usual" may end with that are not the value ("same as usual, 45
# min", "like before: 3").
_NOT_VALUE_BEFORE = frozenset(["same", "it", "that", "this", "them", "one", "keep", "stay"])


_SELF_ANSWER = frozenset(
    [
        "yes",
        "y",
        "ok",
        "okay",
        "approve",
        "approved",
        "proceed",
        "allow",
        "allowed",
        "accept",
        "accepted",
        "confirm",
        "confirmed",
        "true",
        "sure",
        "do",
        "it",
        "ahead",
    ]
)


def answers_itself(question: str) -> str | None:
    """A default the question states that is an answer to it ("the default is yes"): a
    claim of the asker, never evidence. The phrase, or None."""
    value = _in_text(question)
    if value is None:
        return None
    said = re.sub(r"^\s*default\s*[:=]\s*", "", value.strip(), flags=re.IGNORECASE)
    return value if is_self_answer(said) else None


def is_self_answer(said: str) -> bool:
    """Is ``said``, a default's value, an answer to the question ("yes", "ok", "go ahead")?"""
    said = said.strip().casefold()
    words = said.replace(",", " ").split()
    return said in _SELF_ANSWER or bool(words and len(words) <= 3 and words[-1] in _SELF_ANSWER)


def _mentions_default(question: str) -> bool:
    return bool(
        re.search(
            r"\bdefault|\busual\b|\bas always\b|\blike always\b|\bnormally\b|\busually\b"
            r"|\bstandard\b|\blast time\b|\bas before\b|\brecommended\b",
            question,
            re.IGNORECASE,
        )
    )


# The default itself is what is asked: "set the default region to …", "which should be the
# default", "should the CLI default to JSON or table?", "Default to dark or light mode?".
_DECIDES_DEFAULT = re.compile(
    r"\b(?:set|change|make|pick|choose|select|switch|update|decide on)\s+(?:\w+\s+)?"
    r"(?:the|a|our|its|their)\s+(?:new\s+)?(?:[\w-]+\s+)?default\b"
    r"|\b(?:should|would|shall|will|could)\s+(?:\w+\s+){0,2}?be\s+(?:the|our|its|a)\s+"
    r"(?:new\s+)?default\b"
    r"|\bwhat\s+(?:should|would|shall)\s+(?:the|our|its)\s+(?:new\s+)?(?:[\w-]+\s+)?default\b"
    r"|\bas\s+the\s+(?:new\s+)?default\b[^.?!]*\bor\b"
    r"|(?:\b(?:should|shall|do|does|will|would)\s+(?:[\w'-]+\s+){1,3}?|^\s*|[.?!:]\s+)"
    r"default\s+to\b[^.?!]*\bor\b",
    re.IGNORECASE,
)

# The states a setting takes, named as its value: "on by default, or off?" offers a state.
_STATE = (
    r"on|off|enabled|disabled|opt-?in|opt-?out|shown|hidden|visible|invisible|allowed|blocked"
    r"|public|private|true|false|locked|unlocked|muted|unmuted|active|inactive|required"
    r"|optional|mandatory|checked|unchecked|open|closed"
)
# A cue that says a default is wanted, not which: "by default", "as the default", "for the
# default".
_DEFAULT_CUE = (
    r"(?:by|per)\s+default|as\s+(?:the\s+|our\s+|its\s+|a\s+)?(?:new\s+)?default"
    r"|for\s+(?:the|our|a)\s+(?:new\s+)?default"
)
# "Default" names the decision, not its answer: the choice is what the default should be.
# - the cue follows the whole alternative in its clause ("PNG or SVG by default?", "Cash or
#   card as the default?"); a bracket, a dash or a comma before it makes it the asker's
#   aside on one side ("info or debug (default: info)?", "Inter or Roboto — default Inter")
# - a state of a setting is set by default against another state ("comments enabled by
#   default, or disabled?"): the setting's default is chosen, where a value said by default
#   before its alternative ("ISO 8601 by default, or US style?") is the asker's own
# - the default is made or given to others: "make dark mode the default?", "default new
#   accounts to private or public?", "autosave by default for new documents?"
# - the default is the subject asked about: "should the default be A or B?", "which as
#   default, A or B?"
_DEFAULT_IS_THE_CHOICE = re.compile(
    rf"\b(?:or|vs\.?|versus)\s+[^.?!;:,()\u2013\u2014]*?\b(?:{_DEFAULT_CUE})\b"
    rf"|\b(?:{_STATE})\s+(?:by|per)\s+default\b[^.?!;]*?\b(?:or|vs|versus)\s+"
    rf"(?:(?:be|stay|keep\s+it|leave\s+it|left|turned|switched|set)\s+)?(?:{_STATE})\b"
    r"|\bmake\s+(?:(?!(?:sure|certain|of|from|in|into|to|with|for|on|at)\b)[^\s.?!,;:]+\s+){1,4}?"
    r"(?:the|our|its|their)\s+(?:new\s+)?default\b"
    r"|(?:\b(?:should|shall|do|does|will|would)\s+(?:[\w'-]+\s+){1,3}?|^\s*|[.?!:]\s+)"
    r"default\s+(?:[\w'-]+\s+){1,3}?to\b[^.?!]*\b(?:or|vs|versus)\b"
    r"|\b(?:by|per)\s+default\s+for\s+(?:(?:all\s+)?new\s+\w+|everyone|everybody"
    r"|every\s+(?:new\s+)?\w+)"
    r"|\b(?:should|would|shall|will)\s+(?:the|our|its|their)\s+(?:[\w'-]+\s+)?default\s+"
    r"(?:[\w-]+\s+)?be\b"
    r"|\bwhich\s+(?:one\s+)?(?:as|by|for)\s+(?:the\s+)?default\b",
    re.IGNORECASE,
)


def _asks_the_default(text: str) -> bool:
    """Is the default what the question asks to decide ("what should the default be", "on
    by default, or off?", "PNG or SVG by default?", "make X the default?")?"""
    return bool(_DECIDES_DEFAULT.search(text) or _DEFAULT_IS_THE_CHOICE.search(text))


# ---------------------------------------------------------------- a default taken back

# What sets a thing aside when it stands before it in its clause: "not the default 18 min",
# "instead of the usual T55", "anything but the usual gauze", "we won't use the default".
_SETS_ASIDE = re.compile(
    r"\b(?:not|never|no\s+longer|instead\s+of|rather\s+than|other\s+than|anything\s+but"
    r"|except|avoid(?:ing)?|unlike|without|besides|apart\s+from)\b|n['\u2019]t\b",
    re.IGNORECASE,
)
# What narrows a default said before it to some cases, in its sentence: "honey by default,
# but not for vegan orders", "8 h except on nights".
_EXCEPTED = re.compile(
    r"^[^.?!;]*?\b(?:but\s+not|except|apart\s+from|other\s+than|save\s+for)\b", re.IGNORECASE
)
# Doubt of what is said, before or after it in its sentence: "I think", "not sure", "if I
# remember", "may have changed"; a default of the past: "used to be", "formerly".
_DOUBT = (
    r"\bnot\s+(?:sure|certain)\b|\b(?:unsure|uncertain|iirc|formerly|previously)\b"
    r"|\bi\s+(?:think|believe|guess)\b|\bif\s+i\s+(?:remember|recall)\b|\bused\s+to\b"
    r"|\b(?:may|might|could)\s+have\s+changed\b|\b(?:has|have|had)\s+(?:since\s+)?changed\b"
    r"|\bunless\s+(?:that|it|this|they)\s+(?:has\s+|have\s+)?changed\b"
)
_HEDGED = re.compile(_DOUBT, re.IGNORECASE)
# ... and what withdraws it, said after it: "or was it changed?", "no longer", "actually,
# scratch that", "no wait", "maybe not", "outdated".
_WITHDRAWN = re.compile(
    rf"{_DOUBT}|\bor\s+(?:was|is|has|did|does|were)\s+(?:it|that|this|they|the|someone)\b"
    r"|\bno\s+longer\b|\bnot\s+any\s*more\b|\b(?:outdated|deprecated|obsolete|superseded)\b"
    r"|\bout\s+of\s+date\b|\bscratch\s+that\b|\bactually\b|\b(?:no|hmm+|hm|oh)\W+wait\b"
    r"|\bmaybe\s+not\b|\bon\s+second\s+thought",
    re.IGNORECASE,
)
# Where a clause ends: its punctuation, or a dash between spaces.
_CLAUSE_END = re.compile(r"[,;:?!()]|\.(?:\s|$)|\s[-\u2013\u2014]+\s|[\u2013\u2014]")
# The thing a question asks its value for: "… for the sourdough?", "… in year 11?".
_ASKED_FOR = re.compile(
    r"\b(?:for|in|on|at)\s+(?:(?:the|our|this|that|these|those|a|an|each|every|my|your)\s+)?"
    r"(?P<t>[\w'-]+(?:\s+[\w'-]+){0,3})\s*[?.!]*\s*$",
    re.IGNORECASE,
)
# ... and the noun a wh-word asks for: "which proof time?", "what glaze for the buns?".
_ASKED_NOUN = re.compile(
    r"^\W*(?:now\W+)?(?:which|what)\s+(?P<t>(?!(?:one|ones|of|is|are|was|do|does|should|would"
    r"|will|shall|can|could)\b)[\w'-]+(?:\s+(?!(?:for|in|on|at|of|to|is|are|should|would|do"
    r"|does|will|shall|can|could|then|now|please)\b)[\w'-]+){0,2})",
    re.IGNORECASE,
)
# An asking clause that takes the default along by a pronoun ("Use that for the seed?"), or
# picks among what was set out ("Which one for the local test?").
_REFERS_BACK = re.compile(
    r"\b(?:that|it|this|the\s+same|the\s+default)\b"
    r"(?!\s+(?!(?:for|in|on|at|to|as|too|again|here|there)\b)[a-z])",
    re.IGNORECASE,
)
_PICKS = re.compile(
    r"^\W*(?:which|what|either)\b(?!\s+(?!(?:one|for|in|on|at)\b)[a-z])", re.IGNORECASE
)
_NOT_A_THING = frozenset(["it", "them", "this", "that", "now", "then", "here", "there", "me", "us"])


def _said(value: str) -> str:
    return rf"(?<![\w.-]){re.escape(value)}(?![\w-])"


def _set_aside(text: str, value: str) -> str | None:
    """A word before the value in its clause that sets it aside ("not the default 18 min"),
    or one after it in its sentence that keeps some cases from it ("but not for …")."""
    for m in re.finditer(_said(value), text, re.IGNORECASE):
        aside = _SETS_ASIDE.search(_CLAUSE_END.split(text[: m.start()])[-1])
        if aside is not None:
            return f"it sets its default {value!r} aside ({aside.group(0)!r} before it)"
        excepted = _EXCEPTED.match(text[m.end() :])
        if excepted is not None:
            return (
                f"it says its default {value!r} does not hold everywhere "
                f"({excepted.group(0).strip(' ,')!r})"
            )
        other = _other_case(text[m.end() :], value)
        if other is not None:
            return f"it gives its default {value!r} and another value for some cases ({other!r})"
    return None


# A case a value is said for: "60 min in winter", "24 h for burns", "7 when it's busy".
_FOR_A_CASE = re.compile(
    r"\s*(?:[a-z]+\s+)?(?:for|on|in|at|during|when|if|with|under|over)\b", re.IGNORECASE
)


def _other_case(rest: str, value: str) -> str | None:
    """Another value of the default's kind said for some case after it in its sentence
    ("45 min by default, 60 min in winter"): the default holds only outside that case."""
    kinds = {v.kind for v in values_in(value)} - {Kind.WORD, Kind.PERSON}
    sentence = re.split(r"[.?!](?:\s|$)", rest, maxsplit=1)[0]
    for other in values_in(sentence):
        between = sentence[: other.start]
        if (
            other.kind in kinds
            and not _same(other.text, value)
            and re.search(r"[,;]", between)  # its own clause, not an option: "X or Y for …"
            and not _ALTERNATIVE_OFFERED.search(between)
            # the default's own aside notes it: "10 Hz (default, stop at 5 Hz if noisy)"
            and between.count("(") <= between.count(")")
        ):
            case = _FOR_A_CASE.match(sentence, other.end)
            if case is not None:
                return f"{other.text}{sentence[other.end : case.end()]}"
    return None


def _doubted(text: str, value: str) -> str | None:
    """Doubt in the value's sentence ("I think the default is 5 mg"), or doubt or a
    withdrawal anywhere after it ("… — or was it changed?", "actually, scratch that")."""
    for m in re.finditer(_said(value), text, re.IGNORECASE):
        start = re.split(r"(?<=[.!?])\s+", text[: m.start()])[-1]
        doubt = _HEDGED.search(start) or _WITHDRAWN.search(text[m.end() :])
        if doubt is not None:
            return f"it doubts or takes back its default {value!r} ({doubt.group(0)!r})"
    return None


def _of_another_thing(text: str, value: str) -> str | None:
    """The question asks, after the sentence that gives the default, for a thing that
    sentence does not name: "for the sourdough" of "rye bakes at 230 °C by default",
    "which proof time?" of "default 200 °C" — unless it takes the default along ("use that
    for the seed?") or picks among what was set out ("1x (default) or 10x. Which one for
    the local test?")."""
    parts = [p for p in re.split(r"(?<=[.!?])\s+|;\s*|\s[-\u2013\u2014]+\s", text) if p.strip()]
    asking = next((p for p in reversed(parts) if p.rstrip().endswith("?")), None)
    if asking is None or re.search(_said(value), asking, re.IGNORECASE):
        return None
    before = parts[: parts.index(asking)]
    own = [p for p in before if re.search(_said(value), p, re.IGNORECASE)]
    if not own or _REFERS_BACK.search(asking):
        return None
    if _PICKS.match(asking) and _ALTERNATIVE_OFFERED.search(" ".join(before)):
        return None
    for form, where in ((_ASKED_FOR, own[-1]), (_ASKED_NOUN, " ".join(before))):
        wanted = form.search(asking)
        if wanted is None:
            continue
        thing = [w for w in wanted.group("t").split() if w.casefold() not in _NOT_A_THING]
        named = [w for w in thing if re.search(rf"\b{re.escape(w[:5])}", where, re.IGNORECASE)]
        # a place asked must be the default's own; a noun asked, said anywhere before
        if thing and (len(named) < len(thing) if form is _ASKED_FOR else not named):
            return (
                f"its default {value!r} is said of another thing than the one it asks "
                f"({wanted.group(0).strip(' ?.!')!r})"
            )
    return None


def taken_back(question: str, value: str) -> str | None:
    """Does the question itself take back the default ``value`` it names — set it aside
    ("not the default 18 min", "honey by default, but not for vegan orders"), doubt or
    withdraw it ("5 mg by default, I think", "08:45 as usual — or was it changed?"), or
    give it of one thing and ask for another ("rye bakes at 230 °C by default. Which
    temperature for the sourdough?")? What it found, in words for a person, or None."""
    value = _MARKED.sub("", value).strip()
    text = _display(question)
    if not value or not re.search(_said(value), text, re.IGNORECASE):
        return None
    return _set_aside(text, value) or _doubted(text, value) or _of_another_thing(text, value)


def _no_default(question: str, value: str) -> str | None:
    """Why ``value``, read by a default's cue, is no default the question states, or None."""
    if _asked(question, value):
        return "it asks for that value"  # "which commit is the default branch at?"
    if _in_state_question(question, value):
        return "it asks whether that is so"  # "is the default port 8080?": a claim asked about
    if _set_before_a_wh_question(question, value):
        # "… on the regular A100 partition. What is the time cap there?"
        return "it sets the scene of a question for another value"
    if _kept_as_an_alternative(question, value):
        # "Rust, Go, or stay with Python?": the status quo offered, no default
        return "it is one of the alternatives offered"
    return None


def _second_default(question: str, read: tuple[str, str | None]) -> str | None:
    """A default another clause of the question states, not the same as ``value``: "the
    default glaze is honey; the bakery default is maple", "default berth 4, terminal default
    berth 7". Each clause read alone, as the reader reads a whole question."""
    text = _display(question)
    pieces = [p for p in re.split(r"[;,]\s*|(?<=[.!?])\s+|\s[-\u2013\u2014]+\s", text) if p.strip()]
    if len(pieces) < 2:
        return None
    for piece in pieces:
        typed = [v.text for v in values_in(piece) if v.kind not in (Kind.WORD, Kind.PERSON)]
        for other in (_in_text(piece), *typed):
            if other is None:
                continue
            if (
                not _only_the_cue(other)
                and not _ORDINAL.fullmatch(other.strip())
                and not any(_same(other, r) for r in read if r is not None)
                and beside_a_cue(piece.rstrip(".!?"), other)
                and _no_default(question, other) is None
            ):
                return other
    return None


def _typed(value: str) -> bool:
    """Is ``value`` a value of a kind (a number, a time, an identifier…), not a plain word?"""
    return any(v.kind not in (Kind.WORD, Kind.PERSON) for v in values_in(value))


def _names_the_marked(question: str, value: str, marked: str) -> bool:
    """Is ``value`` the value the cue marks, or that value with the words the question says
    right before it ("hall B" where the reader marks "B" in "… hall B, same as last term"),
    or its last words ("json" where the reader marks "stick with json")?"""
    if not marked:
        return False
    said, mark = value.casefold(), marked.casefold()
    if said == mark or mark.endswith(f" {said}"):
        return True
    return said.endswith(f" {mark}") and (
        re.search(rf"(?<!\w){re.escape(said)}(?!\w)", question.casefold()) is not None
    )


def not_stated(question: str, value: str) -> str | None:
    """Why ``value`` — a model's reading of the default — is not one the question states
    even where a cue stands by it: the question takes it back (``taken_back``), asks for it
    or about it, or offers it as an alternative. What was found, or None."""
    value = value.strip()
    if not value:
        return None
    found = taken_back(question, value)
    if found is not None:
        return found
    marked = _MARKED.sub("", _in_text(question) or "").strip()
    if marked and not _typed(value) and not _names_the_marked(question, value, marked):
        # "I'd normally go with the usual 45 min" read as "go", "48 h as usual, fine?" as
        # "fine": where the cue marks a value, a word by it is no default unless it is that
        # value (where it marks none, the model reads what the reader could not: "we
        # normally go with the house vinaigrette")
        return f"{value!r} is a word of the question, not the value its cue marks"
    reason = _no_default(question, value)
    return f"{reason} ({value!r}), it states no default" if reason is not None else None


def stated(
    question: str, *, options: Sequence[str] = (), default: str | None = None
) -> str | Conflict | None:
    """The default the question states (as one of ``options`` when it has options), None
    when it states none, or a ``Conflict``."""
    offered = [o.strip() for o in options if o.strip()]
    given = default.strip() if default is not None and default.strip() else None
    if given is None and _asks_the_default(_display(question)):
        return Conflict(reason="it asks what the default should be")
    marked = [o for o in offered if _MARKED.search(o)]
    if given is not None and marked and not any(_same(o, given) for o in marked):
        return Conflict(reason="its default is not the option marked as the default")
    in_text = _in_text(question)
    if in_text is not None and _no_default(question, in_text) is not None:
        in_text = None
    if in_text is not None:
        found = taken_back(question, in_text)
        if found is not None:
            return Conflict(reason=found)
    if in_text is not None and _ORDINAL.fullmatch(in_text.strip()):
        # "a.md or b.md? I'll keep the first one by default": the option in that place
        in_text = _option_in_place(question, in_text, offered)
        if in_text is None and given is not None:
            return Conflict(reason="its default names an option by a place that is not clear")
    source = in_text
    if in_text is not None:
        in_text = _given_by_source(question, in_text) or in_text
    elif given is None:
        in_text = _pinned_by_a_file(question)
    if in_text is not None and _no_value(_display(question), in_text) is not None:
        in_text = None  # "… unless the kitchen says otherwise" read as "otherwise"
    habit = _named_by_habit(question) if given is None else ()
    if habit is None:
        return Conflict(reason="it sets its habit aside for this time")
    if len(habit) > 1 or (habit and in_text is not None and not _same(habit[0], in_text)):
        return Conflict(reason="it names two different options as its habit")
    if habit and in_text is None:
        found = taken_back(question, habit[0])  # "Not sure, but 12 is our house style"
        if found is not None:
            return Conflict(reason=found)
        in_text = source = habit[0]  # "Font size 11 or 12? 12 is our house style."
    if given is None and in_text is not None and _another_stated(question, in_text, source):
        return Conflict(reason="it states two different defaults")
    second = (
        _second_default(question, (in_text, source))
        if given is None and in_text is not None
        else None
    )
    if second is not None:
        return Conflict(reason=f"it states two different defaults ({in_text!r} and {second!r})")
    if given is not None and in_text is not None and _short_for(in_text, given):
        in_text = given  # "md is the default" of the option Markdown
    if given is not None and in_text is not None and not _same(given, in_text):
        if _states_a_value(question, in_text, offered) and not _misread_beside_the_given(
            question, in_text, given, offered
        ):
            return Conflict(reason="it states two different defaults")
        # a word read by the cue that is no value ("720p (the default of the preview tool)"
        # read as "preview"): it contests nothing, and the asker's own default stands
        in_text = None
    chosen = given or in_text
    if chosen is None:
        if len(offered) == 1:
            return offered[0]  # the only option offered
        return marked[0] if len(marked) == 1 else None  # "3.12 (default)"
    if offered:
        exact = [o for o in offered if _MARKED.sub("", o).strip().casefold() == chosen.casefold()]
        near = [o for o in offered if _same(o, chosen)]
        # the option that is the default as said, else the only one that holds it: "main"
        # among "main-v2" and "main" is "main", and among "main-v2" and "main-v3" none
        match = exact[0] if len(exact) == 1 else near[0] if len(near) == 1 else None
        short = [o for o in offered if _short_for(chosen, o)]
        if match is None and not near and len(short) == 1:
            match = short[0]  # "md is the default" names the option Markdown, and no other
        if match is None and len(near) > 1:
            return Conflict(reason="its default matches more than one of its options")
        if match is None:
            if given is None:
                return None  # a word read near "default" that is no option: not a default
            return Conflict(reason="its default is not one of its options")
        return match
    return chosen


# ------------------------------------------------ an option named by a habit after the choice
#
# "Font size 11 or 12? 12 is our house style.", "Two is standard here.", "Green unless told
# otherwise.", "date is what the team prefers": a clause after the choice names one of its
# options as what is done here by rule or habit. Only a habit of the house counts: one
# person's liking ("Sam likes 12"), a fact ("12 is bigger"), a past one-off, a question ("is
# 12 our house style?"), a rule that was or will be, or a rule of another thing ("… for the
# wine list") is none, and the choice stays open.

# What an option is, as the choice writes it: a time whole ("9:00"), a number with its unit
# ("2 cm"), or one token — its last mark the sentence's, never its own ("kegs.").
_OPTION = (
    rf"(?:\d+(?::\d\d)+|\d+(?:[.,]\d+)*(?:\s?{_UNIT}(?![\w]))?"
    r"|[A-Za-z](?:[\w/+#-]|\.(?=\w))*)"
)
_OR_WORD = re.compile(r"\s+or\s+", re.IGNORECASE)
_LEFT_OPTION = re.compile(rf"(?<![\w./:+#-])(?P<o>{_OPTION})\s*,?$")
# The option after "or", past its determiner or preposition ("or the green", "or by name").
_RIGHT_OPTION = re.compile(
    r"(?:(?:the|a|an|by|in|with|at|to|on|as|for)\s+)*"
    rf"(?P<o>{_OPTION})(?![\w./:+#-])",
    re.IGNORECASE,
)
# Where a clause after the choice opens: a new sentence, a dash, or "but"/"and" after a comma.
_HABIT_OPENS = r"(?:(?<=[?.!;])\s+|\s[-\u2013\u2014]+\s+|,\s+(?:but|and|while|though)\s+)"
_HABIT_X = rf"(?:the\s+)?(?P<x>{_OPTION})"
# What a habit of the house is called: "our house style", "the usual choice", "standard".
_HOUSE_WORD = (
    r"(?:house\s+(?:style|rule|default|choice)|usual(?:\s+(?:choice|pick|one))?|standard"
    r"|norm|rule|convention|custom|habit)"
)
# The place a habit holds: here, for us — never another thing's ("for the wine list").
_HABIT_TAIL = (
    r"(?:\s+(?:here|for\s+us|(?:a)?round\s+here|in\s+(?:this|our)\s+(?:house|team|shop)"
    r"|these\s+days|as\s+always))?\s*(?=[.!?,;]|\s[-\u2013\u2014]|$)"
    # a tag asking to be told it is so ("…, right?") states nothing
    r"(?!\s*,\s*(?:right|correct|no|yes|isn't\s+it|is\s+it|true)\s*\?)"
)
_COLLECTIVE = r"(?:we|the\s+(?:whole\s+)?team|our\s+team|the\s+house|everyone|everybody)"
_HABITS = [
    # "12 is our house style", "Two is standard here", "Grey is cheaper and the usual choice"
    re.compile(
        rf"{_HABIT_OPENS}{_HABIT_X}\s+(?:is|are|'s)\s+"
        r"(?:(?:(?!not\b|never\b|no\b)[a-z]+\s+){1,3}and\s+)?(?:(?:our|the)\s+)?"
        rf"{_HOUSE_WORD}{_HABIT_TAIL}",
        re.IGNORECASE,
    ),
    # "date is what the team prefers", "week is what we always use"
    re.compile(
        rf"{_HABIT_OPENS}{_HABIT_X}\s+(?:is|are|'s)\s+what\s+{_COLLECTIVE}\s+"
        r"(?:(?:always|usually|normally|generally)\s+)?(?:prefers?|uses?|picks?|go(?:es)?\s+with)"
        rf"{_HABIT_TAIL}",
        re.IGNORECASE,
    ),
    # "Green unless told otherwise", "tape unless I hear otherwise"
    re.compile(
        rf"{_HABIT_OPENS}{_HABIT_X},?\s+unless\s+(?:(?:I\s+am|I'm|we\s+are|we're)\s+)?"
        r"(?:told|instructed|asked|I\s+hear|we\s+hear)\s+otherwise\s*(?=[.!?,;]|$)",
        re.IGNORECASE,
    ),
    # "We stick to skim", "we always stick with kegs"
    re.compile(
        rf"{_HABIT_OPENS}we\s+(?:(?:always|usually|normally)\s+)?(?:stick|keep)\s+(?:to|with)\s+"
        rf"{_HABIT_X}{_HABIT_TAIL}",
        re.IGNORECASE,
    ),
]
_NUMBER_WORDS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "twenty": "20", "thirty": "30", "forty": "40", "fifty": "50", "hundred": "100",
}  # fmt: skip


def _options_of_the_choice(head: str) -> list[str]:
    """Every option an "X or Y" of ``head`` sets side by side, as written ("9:00", "2 cm")."""
    found: list[str] = []
    for m in _OR_WORD.finditer(head):
        left = _LEFT_OPTION.search(head[: m.start()])
        right = _RIGHT_OPTION.match(head, m.end())
        found += [o.group("o") for o in (left, right) if o is not None]
    return found


def _as_figure(said: str) -> str:
    """A number said as a word is its figure ("Two" → "2"); any other word as it is."""
    return _NUMBER_WORDS.get(said.casefold(), said.casefold())


def _option_named(said: str, options: Sequence[str]) -> str | None:
    """The one option ``said`` names: the same word, a number's word for its figure, or the
    number of an option with its unit ("2" of "2 cm")."""
    said = _as_figure(re.sub(r"\s+", "", said))
    named = {
        o
        for o in options
        if re.sub(r"\s+", "", o).casefold() == said
        or (re.fullmatch(r"\d[\d.,]*", said) and re.match(rf"{re.escape(said)}\s?[^\d\s.,:]", o))
    }
    return named.pop() if len(named) == 1 else None


# A choice that asks what something is or was ("Is it 11 or 12?", "What size did the
# designer use, 11 or 12?"): a habit of the house is no evidence of a fact.
_ASKS_WHAT_IT_IS = re.compile(
    r"^\W*(?:what|which|who|when|where|how)\b[^,?]*?\b(?:did|does|is|was|were|are|has|had)\b",
    re.IGNORECASE,
)


def _asks_what_it_is(head: str) -> bool:
    """Does the sentence of the choice ending ``head`` ask a state, not a pick?"""
    sentence = re.split(r"(?<=[.!?])\s+", head.strip())[-1]
    return bool(_STATE_QUESTION.match(sentence) or _ASKS_WHAT_IT_IS.match(sentence))


# What sets this time against the habit, said after it: "…, but the client wants gloss",
# "… though this job is special", "this time", "except for".
_HABIT_SET_ASIDE = re.compile(
    r"\b(?:but|though|although|however|except|yet|this\s+time|not\s+for|instead)\b",
    re.IGNORECASE,
)


def _set_against_the_habit(rest: str, option: str, options: Sequence[str]) -> bool:
    """Does what follows the habit set it aside, or name another option of the choice ("Matte
    is our house style. This client wants gloss.")?"""
    if _HABIT_SET_ASIDE.search(rest):
        return True
    others = [o for o in options if o.casefold() != option.casefold()]
    return any(re.search(rf"(?<![\w.:-]){re.escape(o)}(?![\w:-])", rest, re.I) for o in others)


def _named_by_habit(question: str) -> tuple[str, ...] | None:
    """The options of the question's choice that a clause after it names as the habit of the
    house, each once, as the choice writes it; none when no such clause names an option, and
    None when what follows a habit sets it aside for this time."""
    text = _display(question)
    named: list[str] = []
    for pattern in _HABITS:
        for m in pattern.finditer(text):
            head = text[: m.start()]
            if _asks_what_it_is(head):
                continue
            options = _options_of_the_choice(head)
            option = _option_named(m.group("x"), options)
            if option is None:
                continue
            if _set_against_the_habit(text[m.end() :], option, options):
                return None
            if option not in named:
                named.append(option)
    return tuple(named)


# An option named by its place among the options: "the first one", "the second", "the latter".
_ORDINAL = re.compile(
    r"(?:the\s+)?(?P<n>first|second|third|fourth|last|former|latter)(?:\s+(?:one|option))?",
    re.IGNORECASE,
)
_PLACES = {"first": 0, "second": 1, "third": 2, "fourth": 3, "former": 0, "last": -1}


def _option_in_place(question: str, ordinal: str, offered: Sequence[str]) -> str | None:
    """The option an ordinal default names ("I'll keep the first one by default"), counted
    in the order the question says the options, or None: no options, an option the text
    does not say or says twice, two said at one place, a place past the last ("the third"
    of two), or "former"/"latter" of more than two."""
    m = _ORDINAL.fullmatch(ordinal.strip())
    if m is None or len(offered) < 2:
        return None
    text = _display(question).casefold()
    at: list[tuple[int, str]] = []
    for option in offered:
        found = list(re.finditer(rf"(?<![\w.-]){re.escape(option.casefold())}(?![\w-])", text))
        if len(found) != 1:
            return None  # unsaid, or said twice: its place is not one
        at.append((found[0].start(), option))
    if len({start for start, _ in at}) < len(at):
        return None
    ordered = [option for _, option in sorted(at)]
    word = m.group("n").casefold()
    if word in ("former", "latter") and len(ordered) != 2:
        return None
    place = len(ordered) - 1 if word in ("last", "latter") else _PLACES[word]
    return ordered[place] if place < len(ordered) else None


# Keeping what is there, said as one of the alternatives: "…, or stay with Python?", "keep
# tabs, or switch to spaces?".
_KEEP_VERB = r"\b(?:keep|stay|stick|leave)(?:ing|s)?\b"


def _kept_as_an_alternative(question: str, value: str) -> bool:
    """Is ``value`` one of the alternatives of a sentence where keeping what is there is one
    too ("Pipeline rewrite: Rust, Go, or stay with Python?", "Keep Helvetica or move to
    Inter?")? The status quo named as an option is no default, nor is the change offered
    beside it, unless a default's cue or a precedent says so ("keep furo (default) or
    switch", "linear as usual, or leave them empty?")."""
    text = _display(question)
    if _PRECEDENT.search(text):
        return False
    said = rf"(?<![\w.-]){re.escape(value.strip())}(?![\w-])"
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if not re.search(said, sentence, re.IGNORECASE):
            continue
        for kept in re.finditer(_KEEP_VERB, sentence, re.IGNORECASE):
            before = sentence[: kept.start()]
            after = sentence[kept.end() :]
            if re.search(r"\b(?:or|vs|versus)\s*(?:just\s+|simply\s+)?$", before, re.IGNORECASE):
                return True  # "…, or stay with Python?"
            if re.match(r"[^.?!]*?\b(?:or|vs|versus)\b", after, re.IGNORECASE):
                return True  # "keep Python or move to Rust?"
    return False


def _states_a_value(question: str, read: str, offered: Sequence[str]) -> bool:
    """Is what the text was read to state as its default a value that can contest the asker's
    own: one of the options, a value of a kind (a number, a path, code, a version…), or a
    word the question links to a default's cue ("the default is postgres")? A plain word
    the reader took near the cue ("the default of the preview tool", "default TTL of the
    helper") is none."""
    if any(_same(option, read) for option in offered):
        return True
    if any(v.kind not in (Kind.WORD, Kind.PERSON) for v in values_in(read)):
        return True
    return beside_a_cue(question, read)


# How far (in words) the asker's own default may stand from the question's one default cue
# and still be what the cue marks: "1 decimal place (the default)", "4 spaces per our style
# guide (default)".
_NEAR_THE_CUE = 5
_CUE_WORD = re.compile(r"\bdefault\b", re.IGNORECASE)
# Words that set what follows against what came before: "tabs, not the default".
_SETS_AGAINST = word_set("not instead rather unlike but except than over")


def _misread_beside_the_given(question: str, read: str, given: str, offered: Sequence[str]) -> bool:
    """Is a plain word the reader took by the cue only a neighbour of the asker's own default,
    which the same sentence says right by that one cue — the words between them ("1 *decimal
    place* (the default)"), its source ("(default *from the template*)") or what stands
    before the cue ("*Convention here* (default) is test_pairings.py")? Then it is no second
    default. A word the cue links to ("the default is mysql"), an option, a typed value, and
    another option or a word that sets one thing against another between the given and the
    cue still contest it."""
    if any(_same(option, read) for option in offered):
        return False
    if any(v.kind not in (Kind.WORD, Kind.PERSON) for v in values_in(read)):
        return False
    text = _display(question)
    cues = list(_CUE_WORD.finditer(text))
    if len(cues) != 1:
        return False
    cue = cues[0]
    linked = rf"\bdefault\s+(?:[\w-]+\s+)?(?:is|was|=|:)\s*[\"'`(]?\s*{re.escape(read)}"
    if re.search(linked, text, re.IGNORECASE):
        return False  # "the default is mysql": stated, whatever the asker's default says
    others = [o for o in offered if not _same(o, given)]
    for said in re.finditer(rf"(?<![\w.-]){re.escape(given)}(?![\w-])", text, re.IGNORECASE):
        if said.end() <= cue.start():
            between = text[said.end() : cue.start()]
        else:
            between = text[cue.end() : said.start()]
        words = re.findall(r"[\w'-]+", between)
        if (
            len(words) <= _NEAR_THE_CUE
            and not re.search(r"[.?!;]", between)
            and not _SETS_AGAINST & {w.casefold() for w in words}
            and not any(o.casefold() in between.casefold() for o in others)
        ):
            return True
    return False


def _another_stated(question: str, value: str, source: str | None = None) -> bool:
    """Does the question state another value beside a default's cue too ("keep 8080 as
    usual, or switch to 9090 like the default config?") — not the source the value was
    read from ("the default pattern is feature/<ticket>, so `feature/NB-1182`")?"""
    return any(
        not _same(other.text, value)
        and not (source is not None and source != value and _same(other.text, source))
        and beside_a_cue(question, other.text)
        for other in values_in(_display(question))
        if other.kind not in (Kind.WORD, Kind.PERSON)
    )


# What a default's source yields, said after it in its sentence: ".python-version (the
# default) says 3.12", "the default pattern is feature/<ticket>, so `feature/NB-1182`".
_YIELDS = re.compile(
    r"^[^.?!;]{0,40}?(?:\b(?:says|gives|pins|specifies|reads)\s+|,\s*so\s+)"
    rf"(?P<v>{_QUOTED}|\d[\w./:%-]*(?:\s{_UNIT}\b)?|{_TOKEN})",
    re.IGNORECASE,
)
# A file the repo keeps that pins a value, and the asker's proposal to go with it: "the
# .nvmrc says 20, go with that?"; "`fix/x` as suggested by the template, ok?".
_PINNED = re.compile(
    r"(?:^|\s)`?(?:\.[\w.-]+|[\w-]+\.(?:toml|json|ya?ml|cfg|ini|txt|lock|nvmrc))`?\s+"
    rf"(?:says|pins|specifies|gives)\s+(?P<v>{_QUOTED}|\d[\w./:%-]*|{_TOKEN}),?\s+"
    r"(?:(?:shall|should|can)\s+(?:i|we)\s+)?(?:go\s+with|use|keep|take|stick\s+with)"
    r"\s+(?:that|it|this)\b"
    rf"|(?P<w>{_QUOTED}|{_TOKEN})\s+as\s+(?:suggested|recommended|proposed|given)\s+by\s+"
    r"(?:the|our)\s+(?:[\w-]+\s+)?(?:template|config|configuration|convention|style\s+guide"
    r"|readme|docs|linter)\b",
    re.IGNORECASE,
)


def _given_by_source(question: str, read: str) -> str | None:
    """The value a default's source yields, when what the cue read is a file or a pattern
    whose value the question then says (".python-version (the default) says 3.12")."""
    text = _display(question)
    at = text.find(read)
    if at < 0:
        return None
    rest = re.sub(r"^[^\s,]*\s*(?:\([^()]*\)\s*)?", "", text[at + len(read) :])
    m = _YIELDS.match(rest)
    return _clean(m.group("v")) if m is not None else None


def _pinned_by_a_file(question: str) -> str | None:
    """The value a file the repo keeps pins or a template suggests, which the asker proposes
    to go with ("the .nvmrc says 20, go with that?")."""
    m = _PINNED.search(_display(question))
    if m is None:
        return None
    return _clean(m.group("v") or m.group("w") or "")


def _in_state_question(question: str, value: str) -> bool:
    """Is the value read as the default said in a question about a state ("Is the default
    port 8080?", "Was the build green as usual?", "Does the repo use 4 spaces like the
    other services?"): a claim asked about, for the fleet or the human, not a default?"""
    said = _MARKED.sub("", value).strip().casefold()
    return any(
        said in sentence.casefold() and _STATE_QUESTION.match(sentence) is not None
        for sentence in re.split(r"(?<=[.!?])\s+", _display(question))
    )


# A question for a value, not a pick among what was set out ("Which one?", "Which bin count?")
_WH_SENTENCE = re.compile(r"^\W*(?:what|whats|whose|when|where|how)\b", re.IGNORECASE)


def _set_before_a_wh_question(question: str, value: str) -> bool:
    """Is the value read as the default said only in a sentence that sets the scene before a
    wh-question that asks something else of it ("A user wants a job on the regular A100
    partition. What is the hard time cap there?"): the scene's words describe, and the
    question, asking a value, states none? A default said after the question ("Which
    Node version? We usually use 20.") answers it, and one the scene sets out for a pick
    ("32 is the default, 64 would be faster. Which one?", "1x (default) or 10x") is a
    choice's: both stand."""
    said = _MARKED.sub("", value).strip().casefold()
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", _display(question).strip()) if s]
    if len(sentences) < 2 or not sentences[-1].rstrip().endswith("?"):
        return False
    if _WH_SENTENCE.match(sentences[-1]) is None or said in sentences[-1].casefold():
        return False
    if _ALTERNATIVE_OFFERED.search(" ".join(sentences[:-1])):
        return False  # "It can replay at 1x (default) or 10x. What for the test?": a choice
    return all(said not in s.casefold() or not s.rstrip().endswith("?") for s in sentences[:-1])


def _asked(question: str, value: str) -> bool:
    """Is the value read as the default what the question asks for, not a value it states:
    a wh-word's phrase ("which commit", "what region") or a word of it?"""
    said = re.escape(_MARKED.sub("", value).strip())
    text = _display(question)
    return bool(said) and (
        re.search(r"\b(?:which|what|whose|how\s+many|how\s+much)\b", value, re.IGNORECASE)
        is not None
        or re.search(
            rf"\b(?:which|what|whose)\s+(?:[\w-]+\s+)?{said}(?![\w.-])", text, re.IGNORECASE
        )
        is not None
        # a cue in the wh-word's own clause is a word of what is asked: "what's the BIN of
        # the standard debit card?" asks of that card, "how long does Kafka keep messages on
        # `avl.positions.v2`?" asks how long; neither states a default. A dash ends the
        # clause as a comma does: "which reviewers — the default CODEOWNERS or …?" offers
        # one, its default stated
        or re.search(
            r"\b(?:which|what|whats|whose|when|where|how)\b(?:(?!\s[-\u2013\u2014]+\s)[^,;:?!()])*?"
            rf"\b(?:{'|'.join(sorted(_CUES | _KEEPING))})\b[^,;:?!()]*?(?<![\w.-]){said}(?![\w.-])",
            text,
            re.IGNORECASE,
        )
        is not None
        # the cue after the value, still in the wh-word's clause: "how much RAM do staff
        # servers get on the hub by default?" asks the default RAM, it states no "hub"
        or re.search(
            rf"\b(?:which|what|whats|whose|when|where|how)\b{_IN_CLAUSE}*?(?<![\w.-]){said}"
            rf"(?![\w.-]){_IN_CLAUSE}*?\b(?:by|per|as)\s+(?:the\s+)?(?:default|usual)\b",
            text,
            re.IGNORECASE,
        )
        is not None
    )


# A character of the same clause: no clause's punctuation, no dash between spaces.
_IN_CLAUSE = r"(?:(?!\s[-\u2013\u2014]\s)[^,;:?!()])"
_KEEPING = frozenset(["keep", "keeps", "stay", "stays", "stick", "sticks"])
_MARKED = re.compile(
    r"\((?:the\s+)?(?:default|recommended)\)|\[(?:default|recommended)\]"
    r"|\s-\s*(?:default|recommended)$",
    re.IGNORECASE,
)


def _short_for(short: str, long: str) -> bool:
    """Is ``short`` a short form of the one-word option ``long``: its letters in order from
    the first ("md" of Markdown, "py" of Python), or a clipping ("docx" is none: a word of
    its own)? Two to four letters; which option it names is the caller's to check."""
    a, b = short.strip().casefold(), _MARKED.sub("", long).strip().casefold()
    if not (a.isalpha() and b.isalpha()) or not 2 <= len(a) <= 4 or len(b) <= len(a):
        return False
    if a[0] != b[0]:
        return False
    rest = iter(b[1:])
    return all(letter in rest for letter in a[1:])


def _same(a: str, b: str) -> bool:
    """The same default, said whole or inside the other ("use page size 50" and "50",
    "3.12 (default)" and "3.12"), a compound hyphenated or not ("conventional-commits style"
    and "conventional commits")."""
    x, y = (
        re.sub(r"(?<=[a-z])-(?=[a-z])", " ", _MARKED.sub("", v).strip().casefold()) for v in (a, b)
    )
    if x == y:
        return True
    short, long = sorted((x, y), key=len)
    return bool(short) and re.search(rf"(?<![\w.]){re.escape(short)}(?![\w.])", long) is not None


def beside_a_cue(question: str, value: str) -> bool:
    """Does the question state ``value`` as its default: the value is a value (not a word
    of the question's grammar), said right by a default's cue ("8080 (the default)", "the
    default is 8080", "tabs as usual", "keep UTF-8")?"""
    value = value.strip()
    if not value or value.lower() in _NOT_VALUE or value.lower() in _STOP_LEAD:
        return False
    said = re.escape(value)
    text = _display(question)
    cue_after = (
        r"[\"'`]?(?:,\s*\(?|\s*\()?\s*(?:(?:is|being|will be|would be)\s+)"
        r"(?:the\s+|our\s+)?default\b"
        r"|[\"'`]?(?:,\s*\(?|\s*\()\s*(?:the\s+|our\s+)?default\b"
        # a word right before "default" with no mark or link may be what it is the default
        # of: "the bakery default is maple", "terminal default berth 7"
        r"|[\"'`]?\s+(?:the\s+|our\s+)?default\b(?!\s*(?:is|was|=|:)|\s+[a-z])"
        r"|[\"'`]?,?\s+(?:by default|as usual|as always|like always|as before|like before"
        r"|like last time|as last time|as per usual|like the default|as in the default)\b"
        r"|[\"'`]?,?\s*(?:\(\s*|\s(?:is|being)\s+(?:the\s+)?)recommended\b"
    )
    # a plain word needs the cue's own link ("the default is tabs"), not just a neighbour
    # ("the default timeout" names no default)
    link = (
        r"\s*(?:is|was|of|=|:|to|at)" if _plain(value.lower()) else r"\s*(?:is|was|of|=|:|to|at)?"
    )
    # the default's noun is a word, never a conjunction: "md5 as usual or sha256" states
    # no sha256, "the default or 4" no 4
    noun = r"(?:\s+(?!(?:or|nor|and|vs|versus|but|then)\b)[a-z][\w-]*)?"
    cue_before = (
        rf"\b(?:default(?:s|ing)?{noun}(?:{link}|\s+(?:says|uses|has))"
        rf"|usual{noun}{link}|(?:as|like)\s+(?:usual|always|before"
        r"|last time)\s*[:,(]|keep|stay with|stick with|normally|usually)\s*[\"'`(]?\s*"
    )
    return bool(
        # a unit is a part of its number's value, never the value: "50 min by default"
        re.search(rf"(?<![\w.-])(?<!\d\s){said}(?:{cue_after})", text, re.IGNORECASE)
        or re.search(rf"(?:{cue_before}){said}(?![\w.-])", text, re.IGNORECASE)
    )


# What a question says a value is by precedent: "same as the last three reports", "like every
# week", "like in every other repo", "per usual", "the usual one", "the default of …".
_PRECEDENT = re.compile(
    r"\bdefault|\busual(?:ly)?\b|\bas always\b|\blike always\b|\bnormally\b|\bstandard\b"
    r"|\brecommended\b"
    r"|\blast time\b|\bas before\b|\bsame as\b|\blike (?:every|in every|all|the other|the last"
    r"|last)\b|\bas (?:in|with) (?:every|all|the other)\b|\bas we (?:always|usually) do\b",
    re.IGNORECASE,
)
_ALTERNATIVE = re.compile(r"\b(?:or|vs|versus|instead|rather than|either)\b", re.IGNORECASE)


# How many words may stand between a default's or a precedent's cue and the value a model
# reads by it, in its clause: "default -@ 4", "Inter, same as the last three reports".
_NEAR_A_CUE = 3


def _near_the_cue(clause: str, said: str) -> bool:
    """Is the value said within a few words of a cue in this clause — not any word of a
    sentence that says "default" ("the default replica count for staging is 2")?"""
    for value in re.finditer(said, clause, re.IGNORECASE):
        for cue in _PRECEDENT.finditer(clause):
            if cue.end() <= value.start():
                between = clause[cue.end() : value.start()]
            elif value.end() <= cue.start():
                between = clause[value.end() : cue.start()]
            else:
                continue
            if len(re.findall(r"[\w'-]+", between)) <= _NEAR_A_CUE:
                return True
    return False


def said_as_default(question: str, value: str) -> bool:
    """Does the question say ``value`` is the default or what was done before — a model's
    reading, checked in the text: the value is said whole in a clause that names a default
    or a precedent, a few words from it ("Inter, same as the last three reports?"), the
    question offers
    no alternative ("or", "instead"), names no second value of the value's kind ("the usual
    30 days; legal wants 90"), and does not ask what the default should be?"""
    value = value.strip()
    if not value or value.lower() in _NOT_VALUE or value.lower() in _STOP_LEAD:
        return False
    text = _display(question)
    if _ALTERNATIVE.search(text) or _asks_the_default(text):
        return False
    said = rf"(?<![\w.-]){re.escape(value)}(?![\w-])"
    clauses = re.split(r"[;?!]|[.:](?:\s|$)|\s[-\u2013\u2014]+\s|[\u2013\u2014]", text)
    if not any(_near_the_cue(c, said) for c in clauses):
        return False
    kinds = {v.kind for v in values_in(value) if v.text.casefold() == value.casefold()}
    others = {
        v.text.casefold()
        for v in values_in(text)
        if v.kind in kinds and v.text.casefold() != value.casefold()
    }
    return not others


def mentions_default(question: str) -> bool:
    """Does the question speak of a default or of what is usual at all?"""
    return _mentions_default(question)


# ---------------------------------------------------------------- a word of the step, no value

# The words that may lead a step's verb: a courtesy, or the asker's question of leave.
_STEP_LEAD = (
    r"(?:(?:please|pls|just|ok|okay|ok\s+to|okay\s+to|shall\s+i|shall\s+we|should\s+i"
    r"|should\s+we|can\s+i|can\s+we|i'll|we'll)\s+)*"
)

# What stands right before a word of the step itself: the determiner that opens the object of
# the step's verb, with up to two modifiers ("Print the menus as usual?", "Use the usual
# font?"), or a recipient's preposition ("Send the grades to parents as usual?", "Share it
# with the guests as always?"). Where the step's verb opens the sentence, after a lead or not.
_STEP_OBJECT_BEFORE = re.compile(
    r"(?:^|[.!?]\s+)"
    + _STEP_LEAD
    + r"[a-z]+\s+(?:the|our|my|all\s+the)\s+(?:[a-z][\w-]*\s+){0,2}$",
    re.IGNORECASE,
)
# ("with" only after a sharing verb: "go with", "stick with" choose the value that follows)
_RECIPIENT_BEFORE = re.compile(
    r"(?:\bto|\bshar(?:e|es|ing)\s+(?:[\w'-]+\s+){0,4}?with)\s+(?:the\s+|our\s+|all\s+(?:the\s+)?)?$",
    re.IGNORECASE,
)


# What the step is done for, after its verb and object: a "for" phrase whose words name a
# party, an occasion or a place of work ("Print the menus for the guests as usual?", "Label
# the crates for the Dover run like last time?", "Ring the bell for assembly as always?").
# The step's verb opens its clause; the value stands inside the phrase, after "for" and its
# determiner or a word of its own — never a number said right after "for" ("set the timer for
# 40 minutes as usual" times the step: a value).
_FOR_WHOM_BEFORE = re.compile(
    r"(?:^|[.!?]\s+|[,:;]\s+|\s[-\u2013\u2014]+\s)"
    + _STEP_LEAD
    + r"[a-z]+(?:\s+(?:up|out|off|down|away))?\s+(?:the|our|my|all\s+the)\s+"
    r"(?:[^\s,;:?!()]+\s+){0,3}?"
    r"for\s+(?:(?:the|our|my|a|an|this|next|each|every|tonight's|today's)\s+)?"
    r"(?:[\w'-]+\s+){0,2}$",
    re.IGNORECASE,
)
_WORDS_OF_A_PHRASE = re.compile(r"[A-Za-z][A-Za-z'-]*(?:\s[A-Za-z][A-Za-z'-]*){0,2}")


def _for_whom(before: str, value: str) -> bool:
    """Is the value, standing after ``before``, inside the "for" phrase of a step its verb
    opens: what or whom the step is done for, not a value chosen?"""
    return bool(_WORDS_OF_A_PHRASE.fullmatch(value)) and _FOR_WHOM_BEFORE.search(before) is not None


def of_the_step(question: str, value: str) -> bool:
    """Is ``value``, read as the default of a step asked "as usual", a word of the step itself
    — the thing its verb acts on or whom it goes to — rather than a value chosen? "Print the
    menus as usual?" asks to print them the usual way: "menus" answers nothing, and the
    answer to the step is "yes" (or the human's, where the step is careful). A value a reader
    tells from a word ("the default profile `LOCALDEV`", "45 min", "Georgia") and a place the
    step puts its work ("in the shared folder") are values, and stay."""
    text = _display(question)
    if not _WORDS_OF_A_PHRASE.fullmatch(value):
        return False
    if _ALTERNATIVE_OFFERED.search(text) or _CUE_WORD.search(text):
        # "to the kitchen printer (default) or the office one?" is a choice, and "Sort the
        # entries newest first (the default)?" marks a value: only a habit ("as usual",
        # "the usual font") is the step's own
        return False
    plain = re.fullmatch(r"[a-z][a-z-]*(?:\s[a-z][a-z-]*){0,2}", value) is not None
    for m in re.finditer(rf"\b{re.escape(value)}\b", text):
        before = text[: m.start()]
        if plain and (_STEP_OBJECT_BEFORE.search(before) or _RECIPIENT_BEFORE.search(before)):
            return True
        if _for_whom(before, value):
            return True
    return False
