"""Values by their type: the ports, counts, hosts, durations, versions, commits, paths and
URL paths an agent's finding states, each found where it stands in the text.

A fleet answer is extracted by the type of value the question asks for ("which port" → a
number next to "port"; "which commit" → a hex id; "how long" → a duration): pure pattern
work over the row as written, so the answer quotes the member exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from crewline.policy.lemmas import lemma

__all__ = [
    "Kind",
    "Value",
    "unit_of",
    "units_named",
    "values_in",
    "whole_name",
    "with_counted_noun",
    "with_label_noun",
    "with_weekday",
]


class Kind(StrEnum):
    PORT = "port"
    COUNT = "count"
    DURATION = "duration"
    RATE = "rate"
    VERSION = "version"
    COMMIT = "commit"
    PATH = "path"
    URL = "url"
    URL_PATH = "url path"
    HOST = "host"
    IP = "ip address"
    PERCENT = "percentage"
    TEMPERATURE = "temperature"
    PRESSURE = "pressure"
    FREQUENCY = "frequency"
    BITRATE = "bit rate"
    VOLTAGE = "voltage"
    SPEED = "speed"
    LENGTH = "length"
    ANGLE = "angle"
    AREA = "area"
    PROBABILITY = "probability"
    MONEY = "amount of money"
    SIZE = "size"
    DATE = "date"
    TIME = "time"
    REGION = "region"
    MACHINE = "machine type"
    EMAIL = "email address"
    CRON = "cron expression"
    QUALIFIED = "qualified name"
    ID = "identifier"
    PERSON = "person's name"
    NUMBER = "number"
    WORD = "name"


@dataclass(frozen=True, kw_only=True, slots=True)
class Value:
    """A value found in a text: as written, its kind, and where it stands."""

    text: str
    kind: Kind
    start: int
    end: int


_FILE_EXT = (
    "py|pyi|md|rst|txt|js|mjs|cjs|ts|tsx|jsx|json|yaml|yml|toml|cfg|ini|conf|sh|bash|sql|csv"
    "|tsv|log|html|htm|css|scss|rs|go|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|lock|env|xml"
    "|png|jpg|jpeg|svg|gif|pdf|zip|gz|tgz|tar|whl|db|sqlite|parquet|ipynb|proto|tf|hcl"
    "|dockerfile|nvmrc|gitignore|patch|diff|out|bin|exe|so|dll|jar|war|pem|crt|key"
)
_HOST_TLD = (
    "internal|local|localhost|lan|corp|com|net|org|io|dev|test|example|cloud|svc|cluster|intra"
    "|home|app|ai|co|uk|de|fr|eu|us|info|biz|me|sh|tech|site|online|xyz|private|invalid"
)
# The labels a network names its own hosts under ("db1.prod.internal.acme.games")
_NETWORK_LABEL = "internal|svc|cluster|corp|intra|lan|local|private"
# a capital M is a million ("1.1M objects"), never minutes; a retention, a lead time, a
# warranty in months or years is a duration too ("kept 12 months", "retention is 7 years")
_DURATION_UNIT = (
    r"(?:ms|msec|milliseconds?|µs|us|microseconds?|ns|s|secs?|seconds?|(?-i:m)|mins?|minutes?|h|hrs?"
    r"|hours?|d|days?|w|wks?|weeks?|months?|yrs?|years?)"
)
# one field of a cron schedule: "*", "*/15", "0", "1-5", "MON,WED", "0-30/10"
_CRON_NAME = r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun"
_CRON_ONE = rf"(?:\d{{1,2}}|{_CRON_NAME})(?:-(?:\d{{1,2}}|{_CRON_NAME}))?"
_CRON_FIELD = rf"(?:\*|{_CRON_ONE})(?:/\d{{1,2}})?(?:,{_CRON_ONE})*"
_CRON_MINUTE = r"(?:\*|\d{1,2}(?:-\d{1,2})?)(?:/\d{1,2})?(?:,\d{1,2}(?:-\d{1,2})?)*"
_RATE_UNIT = r"s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|d"
_MONTH = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
    "|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
)
# a temperature's unit: a degree sign before its scale, the scale's sign or its name after
# "degrees" — never "deg" alone (an angle: "tilt 4 deg"), nor a bare K (a thousand: "12K");
# after the sign in either case, as a question's code form writes it lower ("150 °c")
_TEMPERATURE_UNIT = (
    r"(?:[°º]\s?[CFK]|\u2103|\u2109"
    r"|deg(?:rees?)?\s(?:(?-i:[CF])|celsius|fahrenheit|kelvin)|degrees\s+(?:celsius|fahrenheit))"
)
_TEMPERATURE = re.compile(
    rf"(?<![\w.])\d[\d,]*(?:\.\d+)?\s?{_TEMPERATURE_UNIT}(?!\w)(?!/[a-z])", re.IGNORECASE
)
# a pressure's unit ("Pa" as written: "pa" is no unit), never one per a time ("0.9 mbar/min"
# is a rate)
_PRESSURE = re.compile(
    r"(?<![\w.])\d[\d,]*(?:\.\d+)?\s?(?:(?-i:[kMh]?Pa)|mbar|bar[ag]?|psi[ag]?|torr|mmhg|inhg"
    r"|mmh2o|inh2o|inwc)(?!\w)(?!/[a-z])",
    re.IGNORECASE,
)
# A physical measure by its unit, each its own kind: a frequency ("8.2 GHz", "2025.5 MHz"), a
# data rate ("64 kbps", "320 Mbps", "1 Gbit/s"), a voltage ("28.4 V", "33 kV"; the unit as
# written: "v2" is a version), a speed ("0.35 m/s", "80 km/h"), a length or a distance ("412 m",
# "31.4 km", "300mm"; a bare "m" only apart from its number, never after hours nor "took":
# "14m", "2h 14m", "took 14 m" are minutes), an angle ("63°", "12 deg"; never a temperature's
# "°C"), an area ("1,840 km²") — and a number in scientific notation ("Pc 3.1e-5", "1e-4"), a
# probability or a rate too small to write out. One value, never a bare number, a version
# ("8.2") or nothing.
_NUM = r"(?<![\w.])\d[\d,]*(?:\.\d+)?"
_FREQUENCY = re.compile(rf"{_NUM}\s?(?-i:[kMGT]?Hz)(?![\w/])", re.IGNORECASE)
_BITRATE = re.compile(
    rf"{_NUM}\s?(?:(?-i:[kKMGT]?bps)|(?-i:[kKMGT]?b(?:it)?/s)|(?-i:[kKMGT]?bits?\s(?:per|a)\s)"
    r"(?:second|sec|s)\b|baud)(?![\w/])",
)
_VOLTAGE = re.compile(rf"{_NUM}\s?(?-i:[mk]?V|VDC|VAC|V[dD][cC])(?![\w/])")
_SPEED = re.compile(
    rf"{_NUM}\s?(?:(?-i:[kc]?m/s)|(?-i:km/h)|kph|mph|knots?|kts?)(?![\w/])", re.IGNORECASE
)
_AREA = re.compile(rf"{_NUM}\s?(?:(?-i:[kc]?m)(?:²|2\b)|sq\.?\s?(?:km|m|mi|ft)\b|hectares?\b)")
_LENGTH = re.compile(
    rf"(?<!\dh\s)(?<!\dh)(?<!\d\sh\s)(?<!\btook\s)(?<!\blasted\s){_NUM}(?:\s?(?-i:km|cm|mm|nmi|NM)|\s(?-i:m)|\s?(?:metres?|meters?"
    r"|kilomet(?:re|er)s?))(?![\w/²%])"
)
_ANGLE = re.compile(
    rf"{_NUM}\s?(?:[°º](?!\s?[CFK]\b)|deg(?:rees?)?\b(?!\s+(?:(?-i:[CF])\b|celsius"
    r"|fahrenheit|kelvin)))",
    re.IGNORECASE,
)
_SCIENTIFIC = re.compile(
    r"(?<![\w.])\d+(?:\.\d+)?(?:[eE][-+\u2212]?\d+|\s?[\u00d7x]\s?10(?:\^|\*\*)[-\u2212]?\d+)(?![\w.])"
)
_PATTERNS: tuple[tuple[Kind, re.Pattern[str]], ...] = (
    (Kind.URL, re.compile(r"\b[a-z][a-z0-9+.-]{1,15}://[^\s,;)\"'<>`]+", re.IGNORECASE)),
    (
        Kind.EMAIL,
        re.compile(
            r"(?<![\w.%+-])[a-z0-9][\w.%+-]*@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,24}\b", re.I
        ),
    ),
    # a schedule in cron's five (or six) fields, one of them a star ("0 0 * * 1",
    # "*/15 * * * *"; ``values_in`` drops one without), or its named form ("@daily"): one
    # value, never numbers and a route
    (
        Kind.CRON,
        re.compile(
            rf"(?<![\w*/,@-])(?:{_CRON_MINUTE})(?: (?:{_CRON_FIELD})){{4,5}}"
            r"(?![\w*/-])(?!,\S)"
            r"|(?<![\w@])@(?:yearly|annually|monthly|weekly|daily|midnight|hourly)\b",
            re.IGNORECASE,
        ),
    ),
    # a cloud's machine type: AWS "m5.xlarge", "db.r6g.large"; GCP "n2-standard-8";
    # Azure "Standard_D4s_v5" — one name, never a host, a number or an identifier's piece
    (
        Kind.MACHINE,
        re.compile(
            r"(?<![\w./-])(?=(?:(?:db|cache|ml|search)\.)?[a-z]{1,3}\d|standard_)"
            r"(?:(?:(?:db|cache|ml|search)\.)?[a-z]{1,3}\d[a-z0-9-]*"
            r"\.(?:\d*x?large|\d+xl|medium|small|micro|nano|metal(?:-\d+xl)?)"
            r"|[a-z]\d[a-z]?-(?:standard|highmem|highcpu|megamem|ultramem|highgpu|ultragpu"
            r"|micro|small|medium)(?:-\d+[a-z]?)?"
            r"|Standard_[A-Z][A-Za-z0-9]*(?:_v\d+)?)(?![\w.-])",
            re.IGNORECASE,
        ),
    ),
    # an address ending its sentence ("… sits at 172.20.14.30.") is one too
    (Kind.IP, re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?!\w)(?!\.\w)")),
    (
        Kind.HOST,
        re.compile(
            rf"(?<![\w./@-])[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9-]+)*\.(?:{_HOST_TLD})"
            r"(?![\w-])(?!\.\w)",
            re.IGNORECASE,
        ),
    ),
    # a host under a name of no known domain ("mm-staging.internal.kraken.games"): by the
    # port glued after it, or by a network's own label inside it
    (
        Kind.HOST,
        re.compile(
            rf"(?<![\w./@-])(?=[\w.-]*?(?::\d|\.(?:{_NETWORK_LABEL})\.))"
            r"(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9-]+)*"
            rf"\.(?!(?:{_FILE_EXT})\b)[a-z]{{2,24}}(?=:\d{{2,5}}(?!\d)(?!\.\d))"
            r"|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9-]+)*"
            rf"\.(?:{_NETWORK_LABEL})(?:\.[a-z0-9-]+)*\.(?!(?:{_FILE_EXT})\b)[a-z]{{2,24}}"
            r"(?![\w-])(?!\.\w))",
            re.IGNORECASE,
        ),
    ),
    (Kind.DATE, re.compile(r"(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)")),
    # a date with its month named, as a member writes it ("March 3", "3 March 2025")
    (
        Kind.DATE,
        re.compile(
            rf"\b(?:{_MONTH})\.? \d{{1,2}}(?:st|nd|rd|th)?(?:,? \d{{4}})?(?![\w:])"
            rf"|(?<![\w.])\d{{1,2}}(?:st|nd|rd|th)? (?:{_MONTH})\.?(?: \d{{4}})?\b"
        ),
    ),
    (
        Kind.TIME,
        re.compile(r"(?<![\d:])\d{1,2}:\d{2}(?::\d{2})?(?:\s?(?:utc|gmt|z))?(?![\d:])", re.I),
    ),
    (Kind.PORT, re.compile(r"(?:(?<=[a-z0-9])|(?<=\s)):(\d{2,5})(?!\d)", re.IGNORECASE)),
    (Kind.PROBABILITY, _SCIENTIFIC),
    (Kind.FREQUENCY, _FREQUENCY),
    (Kind.BITRATE, _BITRATE),
    (Kind.VOLTAGE, _VOLTAGE),
    (Kind.SPEED, _SPEED),
    (Kind.AREA, _AREA),
    (Kind.LENGTH, _LENGTH),
    (Kind.ANGLE, _ANGLE),
    # so much per unit of time ("120 requests per minute", "60 req/min", "800 rps"): one
    # value, never a count and a path
    (
        Kind.RATE,
        re.compile(
            rf"(?<![\w.])\d[\d,]*(?:\.\d+)?\s?(?:[a-z]+\.?\s?)?(?:/\s?|\bper\s|\ban?\s)"
            rf"(?:{_RATE_UNIT})\b"
            r"|(?<![\w.])\d[\d,]*(?:\.\d+)?\s?(?:rps|qps|rpm|tps)\b",
            re.IGNORECASE,
        ),
    ),
    (
        Kind.DURATION,
        re.compile(
            rf"(?<![\w.])\d[\d,]*(?:\.\d+)?\s?{_DURATION_UNIT}"
            rf"(?:\s?\d+(?:\.\d+)?\s?{_DURATION_UNIT})*(?![\w%])",
            re.IGNORECASE,
        ),
    ),
    # a physical measure by its unit ("-32 °C", "121.4 °C", "15 Pa", "0.1 mbar", "2.5 bar"):
    # one value, never a bare number and a word, nor a version ("0.1")
    (Kind.TEMPERATURE, _TEMPERATURE),
    (Kind.PRESSURE, _PRESSURE),
    (Kind.PERCENT, re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?%")),
    (
        Kind.MONEY,
        re.compile(
            r"[$€£¥]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|bn)\b)?"
            r"|(?<![\w.,])\d[\d,]*(?:\.\d+)?\s?(?:k|m|bn)?\s?(?:usd|eur|gbp|chf|jpy|cad|aud|dollars|euros|pounds)\b"
            r"|\b(?:usd|eur|gbp|chf|jpy|cad|aud)\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|bn)\b)?",
            re.IGNORECASE,
        ),
    ),
    (
        Kind.SIZE,
        re.compile(
            r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?\s?(?:[kmgtp]i?b|bytes?)(?!\w)"
            r"|(?<![\w.,])\d+(?:\.\d+)?\s?(?:[kmgtp]i?b|bytes?)(?!\w)",
            re.IGNORECASE,
        ),
    ),
    (
        Kind.REGION,
        re.compile(
            r"(?<![\w-])(?:us|eu|ap|sa|ca|me|af|il|mx|cn|uk|au|jp|kr|in|de|fr|br|asia|europe)"
            r"-[a-z]+-\d(?![\w-])"
        ),
    ),
    (
        Kind.URL_PATH,
        re.compile(
            r"(?<![\w.~/:-])/(?!(?:etc|var|usr|home|tmp|opt|srv|mnt|dev|bin|root)\b)"
            r"[a-z0-9_~{}:-]+(?:/[a-z0-9_.~{}:-]*)*",
            re.IGNORECASE,
        ),
    ),
    (
        Kind.PATH,
        re.compile(
            r"(?<![\w/:.-])(?:~|\.{1,2})?/?[\w.-]+(?:/[\w.:-]+)+/?(?:::[\w\[\]-]+)*"
            rf"|(?<![\w/.-])\.?[\w-]+(?:\.[\w-]+)*\.(?:{_FILE_EXT})(?![\w])(?:::[\w\[\]-]+)*"
            rf"|(?<![\w/.-])\.(?:{_FILE_EXT}|[a-z]+rc)(?![\w.])",
            re.IGNORECASE,
        ),
    ),
    (
        Kind.VERSION,
        re.compile(
            # a firmware's letter after its dotted number ("V92.21.23Z") is the version's own
            # but never a name's tail, glued to it by a hyphen ("template SPN-v3"): the name
            # whole is the value
            r"(?<![\w.])(?<!\w-)v\d+(?:(?:\.\d+)+[a-z]?)?(?:[-+][0-9a-z.]+)?(?!\w)(?!\.\w)"
            # a build's letter and number after the last part ("2022.3.41f1", "2.0.0b3")
            r"|(?<![\w.,])\d+\.\d+(?:\.\d+)*(?:[a-z]{1,2}\d+)?(?:[-+][0-9a-z.]+)?(?![\w])",
            re.IGNORECASE,
        ),
    ),
    (
        Kind.COMMIT,
        re.compile(r"(?<![\w-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w-])"),
    ),
    # a dotted name with a digit or an underscore in it (a topic "icu.vitals.v2", a table
    # "billing.order_lines_v3", a package "com.acme.gems.500"): one name, whole
    (
        Kind.QUALIFIED,
        re.compile(
            r"(?<![\w./-])(?=[a-z0-9_.]*[\d_])[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+(?![\w/-])(?!\.\w)",
            re.IGNORECASE,
        ),
    ),
    (
        Kind.ID,
        re.compile(
            r"(?<![\w./-])(?:#\d+|[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+|[a-z]+\d[\w-]*"
            r"|\d+(?:[-_][a-z0-9]+)*[-_][a-z][a-z0-9]*(?:[-_][a-z0-9]+)*"
            # a code of digits joined by hyphens ("LOINC 2823-3", "ticket 4410-17"): one
            # identifier, never the number before its hyphen
            r"|\d+(?:-\d+)+)(?![\w/-])"
            r"(?!\.\w)",
            re.IGNORECASE,
        ),
    ),
    # a name set in code quotes ("behind flag `driver.offline_v2`"): one identifier, as
    # written, whatever its dots and underscores
    (Kind.ID, re.compile(r"(?<=`)[a-z_][\w.:-]*[\w](?=`)", re.IGNORECASE)),
    (
        # a person's name as written: two or three capitalised words ("Priya Raman", "Tomasz
        # Wójcik"), never a word in capitals ("CODEOWNERS") nor one glued to a name
        Kind.PERSON,
        re.compile(
            r"(?<![\w@/.-])(?!(?:The|A|An|This|That|Our|My|Its|Their|Her|His)\b)"
            r"[A-Z][^\W\d_A-Z][^\W\d_]*(?:[ ][A-Z][^\W\d_A-Z][^\W\d_]*){1,2}(?![\w@/-])"
        ),
    ),
    (
        Kind.NUMBER,
        re.compile(
            r"(?<![\w.#])(?<!\w-)\d+(?:[.,]\d+)*(?:k|m)?(?![\w%])(?!\.\d)(?!-\w)", re.IGNORECASE
        ),
    ),
)


_RANGE_END = re.compile(r"\d\s?[-\u2013]\s?$")
# A minus glued before a value's digits, after a space, a bracket or a label's colon — never a
# hyphen inside a name ("GW-17") nor the dash of a range ("10 -15" is read above).
_MINUS = re.compile(r"(?:^|(?<=[\s(=:]))[-\u2212]$")
_SIGNED = frozenset(
    {
        Kind.NUMBER,
        Kind.PERCENT,
        Kind.DURATION,
        Kind.RATE,
        Kind.SIZE,
        Kind.TEMPERATURE,
        Kind.PRESSURE,
        Kind.VOLTAGE,
        Kind.SPEED,
        Kind.LENGTH,
        Kind.ANGLE,
    }
)
_GLUED_AFTER = re.compile(r"[._-](?!\d{4}-\d{2}-\d{2})\w")
_FRACTION = re.compile(r"\d+/\d+")
# A currency's sign right before a number ("£3.8m", "$ 40m"): the number is an amount of
# money, its "m" a million — never minutes, nor metres.
_CURRENCY_BEFORE = re.compile(r"[$€£¥]\s?$")
_READ_AS_MONEY = frozenset({Kind.DURATION, Kind.LENGTH})


def values_in(text: str) -> list[Value]:
    """Every typed value in ``text``, in order; where two overlap, the more specific kind
    (the earlier pattern) keeps the span ("gw-2.internal.example:9443" is a host and a port,
    not a path; "2.4 s" is a duration, not a version)."""
    taken: list[tuple[int, int]] = []
    found: list[Value] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            group = 1 if pattern.groups else 0
            start, end = m.span(group)
            raw = m.group(group).rstrip(".,;:")
            end = start + len(raw)
            if not raw or any(a < end and start < b for a, b in taken):
                continue
            if kind is Kind.HOST and raw.count(".") == 1 and raw.split(".")[0].isdigit():
                continue
            if kind is Kind.CRON and "*" not in raw and not raw.startswith("@"):
                continue  # "scored 1 2 3 4 5": numbers in a row, no schedule
            if kind is Kind.DATE and (
                text[start - 1 : start] in ("/", "-", "_") or _GLUED_AFTER.match(text, end)
            ):
                # ".../extracts/2026-12-04/cohort_b.parquet", "paper-low-2026-12-05.csv":
                # a piece of a path's or a file's name, not a date of its own
                continue
            if kind is Kind.PATH and _FRACTION.fullmatch(raw):
                continue  # "312/312 tests green": so many of so many, no path
            if kind in _READ_AS_MONEY and _CURRENCY_BEFORE.search(text[:start]):
                continue  # "total reserve now £3.8m": money, read below
            if _RANGE_END.search(text[:start]):
                continue  # "10-15 minutes": the end of a range, never a value of its own
            if kind in _SIGNED and _MINUS.search(text[:start]):
                # "RSSI around -112 dBm", "offset -42 ms": below zero, with its sign
                start -= 1
                raw = text[start:end]
            taken.append((start, end))
            found.append(Value(text=raw, kind=kind, start=start, end=end))
    return ports_by_place(text, sorted(found, key=lambda v: v.start))


# A port said by its place after its host, with no word "port" and no colon: "endorsement
# service is pas-endo-01.ins.internal on 8210" (a host, "on" or "at", the number ending its
# clause), "SIP trunk terminates on sbc-edge-03, 5061 over TLS" (a machine's name, and the
# protocol the number is of after it). A number that counts a thing after it ("on dwh-etl-01,
# 212 tables"), one after a name that is no host with no protocol after it, and one past a
# port's range stay numbers.
_HOST_TO_PORT = re.compile(r"\s+(?:on|at)\s+|,\s*")
_PORT_PROTOCOL = re.compile(
    r"\s*(?:/\s*|\b(?:over|via|for)\s+)?(?:tls|ssl|tcp|udp|https?|grpc|sip|smtp|mllp|ssh|sftp)\b",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"\s*(?:$|[;.)]|,\s|\s[-\u2013\u2014]\s)")


def ports_by_place(text: str, found: list[Value]) -> list[Value]:
    """``found`` with each bare number said as its host's port (``_HOST_TO_PORT``) read as a
    port."""
    out = list(found)
    for k in range(1, len(out)):
        host, value = out[k - 1], out[k]
        if value.kind is not Kind.NUMBER or not re.fullmatch(r"\d{2,5}", value.text):
            continue
        if not 0 < int(value.text) < 65536 or not _HOST_TO_PORT.fullmatch(
            text[host.end : value.start]
        ):
            continue
        protocol = _PORT_PROTOCOL.match(text, value.end) is not None
        if not protocol and 1900 <= int(value.text) <= 2100:
            continue  # "moved to db-2.internal in 2024": a year, more likely than a port
        named = host.kind is Kind.ID and re.search(r"[a-z]-?\d+$", host.text) is not None
        if (
            host.kind in (Kind.HOST, Kind.IP) and (protocol or _CLAUSE_END.match(text, value.end))
        ) or (named and protocol):
            out[k] = Value(text=value.text, kind=Kind.PORT, start=value.start, end=value.end)
    return out


# A weekday right before a time, as a member writes the two ("handover Monday 09:00", "Tue at
# 08:00"): capitalised, the word whole, at most "at" between it and the time.
_WEEKDAY_BEFORE = re.compile(
    r"(?<![\w-])(?:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun|Monday|Tuesday|Wednesday"
    r"|Thursday|Friday|Saturday|Sunday)\.?,?\s+(?:at\s+)?$"
)


def with_weekday(text: str, value: Value) -> Value:
    """A time with the weekday ``text`` writes right before it ("Monday 09:00"): the two are
    one moment, and the time alone would place it on any day. Any other value as it is."""
    if value.kind is not Kind.TIME:
        return value
    day = _WEEKDAY_BEFORE.search(text[: value.start])
    if day is None:
        return value
    return Value(
        text=text[day.start() : value.end], kind=Kind.TIME, start=day.start(), end=value.end
    )


# A measure's unit, by the scale it names: the gate converts none ("-32 °C" is no answer "in
# °F", "15 Pa" none "in mbar").
_UNITS = (
    # a question's code form writes "in °F" as "in , f"
    (
        "c",
        re.compile(
            r"[°º]\s?c\b|\u2103|\bdeg(?:rees?)?\s+c\b|\bcelsius\b|\bcentigrade\b"
            r"|\bin\s+(?:[°º,]\s?)?c\b"
        ),
    ),
    (
        "f",
        re.compile(
            r"[°º]\s?f\b|\u2109|\bdeg(?:rees?)?\s+f\b|\bfahrenheit\b|\bin\s+(?:[°º,]\s?)?f\b"
        ),
    ),
    ("k", re.compile(r"[°º]\s?k\b|\bkelvin\b|\bin\s+[°º,]\s?k\b")),
    ("kpa", re.compile(r"(?<![\w.])\d*\s?kpa\b|\bkilopascals?\b")),
    ("hpa", re.compile(r"(?<![\w.])\d*\s?hpa\b|\bhectopascals?\b")),
    ("mpa", re.compile(r"(?<![\w.])\d+\s?mpa\b|\bmegapascals?\b")),
    ("pa", re.compile(r"(?<![\w.])\d+\s?pa\b|\bin\s+pa\b|\(pa\)|\bpascals?\b")),
    ("mbar", re.compile(r"(?<![\w.])\d*\s?mbar\b|\bmillibars?\b")),
    ("bar", re.compile(r"(?<![\w.])\d+\s?bar[ag]?\b|\bin\s+bar\b|\(bar\)")),
    ("psi", re.compile(r"(?<![\w.])\d*\s?psi[ag]?\b")),
    ("torr", re.compile(r"(?<![\w.])\d*\s?torr\b")),
    ("mmhg", re.compile(r"(?<![\w.])\d*\s?mmhg\b")),
    ("inhg", re.compile(r"(?<![\w.])\d*\s?inhg\b")),
    ("mmh2o", re.compile(r"(?<![\w.])\d*\s?mmh2o\b")),
    ("inh2o", re.compile(r"(?<![\w.])\d*\s?(?:inh2o|inwc)\b")),
)


def unit_of(value: Value) -> str | None:
    """The unit a temperature or a pressure is said in ("c", "f", "pa", "mbar" …), or None."""
    if value.kind not in (Kind.TEMPERATURE, Kind.PRESSURE):
        return None
    return next((u for u, p in _UNITS if p.search(value.text.lower())), None)


def units_named(question: str) -> frozenset[str]:
    """The units of temperature or pressure a question names ("in °F", "in fahrenheit", "in
    mbar", "(Pa)"): a value of that measure in another unit answers it not."""
    said = question.lower()
    return frozenset(u for u, p in _UNITS if p.search(said))


# A bare number and the word the row writes right after it: what the number counts, where
# that word is a plural noun ("capped at 40 rooms per night", "40 scenes in the order").
_BARE_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")
_WORD_AFTER = re.compile(r" ([A-Za-z][a-z]{2,})\b(?![-/.@:]\w)")
# Words that end as a plural does but count nothing: verbs of the third person, pronouns
_NOT_COUNTED = frozenset(
    ["does", "goes", "gets", "was", "has", "its", "this", "thus", "plus", "less", "yes"]
)


def with_counted_noun(text: str, value: str, asked: frozenset[str] = frozenset()) -> str:
    """A bare number as the row ``text`` says it with the plural noun it counts, written
    right after it ("40 rooms" of "capped at 40 rooms per night"): the count's answer
    names what it counts, as the row writes it, where the question's words (``asked``,
    lemmas) do not already say it ("how many rooms …?": "40"). The value as it is where it
    is no bare number, where the word after it is no plural noun, or where the row writes
    it twice with different words after it."""
    if _BARE_NUMBER.fullmatch(value) is None:
        return value
    after: set[str] = set()
    for m in re.finditer(rf"(?<![\w.,/:-]){re.escape(value)}(?![\w.,%/:-])", text):
        next_word = _WORD_AFTER.match(text, m.end())
        after.add(next_word.group(1) if next_word is not None else "")
    if len(after) != 1:
        return value
    (word,) = after
    low = word.lower()
    base = lemma(low)
    if not word or low in _NOT_COUNTED or not low.endswith("s") or base == low:
        return value
    if not low.startswith(base):
        return value  # "was", "has": a verb's form, never a plural noun
    if base in asked:
        return value  # "how many rooms …?": the question says what the number counts
    return f"{value} {word}"


# A label: a number or a short code of letters and digits that names one of a kind of thing
# by its noun written before it ("dock 4", "gate B12", "line 3", "bay 12A").
_LABEL = re.compile(r"[A-Za-z]{0,2}\d{1,4}[A-Za-z]?")
_NOUN_BEFORE = re.compile(r"([A-Za-z][a-z]{2,})\s$")


def with_label_noun(text: str, value: str, nouns: frozenset[str]) -> str:
    """A label as the row ``text`` names it: with the noun written right before it where
    that noun is the asked one (``nouns``, by ``noun_form``): "dock 4" of "dock 4 was the
    slow one" — the label alone ("4") names nothing. The value as it is where it is no
    label, where the word before it is another, or where the row writes it twice and not
    each time after that noun."""
    if _LABEL.fullmatch(value) is None:
        return value
    before: set[str] = set()
    for m in re.finditer(rf"(?<![\w.,/:-]){re.escape(value)}(?![\w.,%/:-])", text):
        noun = _NOUN_BEFORE.search(text[max(0, m.start() - 40) : m.start()])
        before.add(noun.group(1) if noun is not None else "")
    if len(before) != 1:
        return value
    (word,) = before
    if not word or noun_form(word) not in nouns:
        return value
    return f"{word} {value}"


def noun_form(word: str) -> str:
    """A noun's lemma, lower: "Docks" and "dock" name one noun."""
    return lemma(word.lower())


# A name of pieces joined by hyphens or underscores, the value its last piece or pieces
# ("rules-2024.06.3", "api_v2.3.1", "release-2024.06"): the name is the value whole.
_NAME_PIECES = r"[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*[-_]"


def whole_name(text: str, value: str) -> str:
    """The value as the row ``text`` writes it inside a name joined by hyphens or
    underscores: the whole name ("rules-2024.06.3" of "tagged rules-2024.06.3", for a tag,
    an image, an artifact or a branch, which is that name, not its number). The value as it
    is where the row writes it alone, or inside two different names."""
    names = {
        m.group(0)
        for m in re.finditer(
            rf"(?<![\w./:@-]){_NAME_PIECES}{re.escape(value)}(?![\w-])(?!\.\w)", text
        )
    }
    alone = re.search(rf"(?<![\w./:@-]){re.escape(value)}(?![\w-])(?!\.\w)", text)
    if len(names) != 1 or alone is not None:
        return value
    return names.pop()
