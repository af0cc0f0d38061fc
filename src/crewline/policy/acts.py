"""The acts the careful judgement knows: what cannot be taken back, in words and in code.

Two lexicons, both read by ``policy/careful/``: shell, git, SQL and money spellings in the
code form (``CODE_ACTS``, patterns), and word families over lemmas (``WORD_ACTS``, single
words and phrases; some count only in a context, such as "cancel" with a customer's thing in
its object). Each act carries the words a person recognises it by — the verb as the reason
will say it ("drops", "force-pushes") — never the word matched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "AUDIENCE",
    "CODE_ACTS",
    "CUSTOMER_THINGS",
    "DATABASE_TASKS",
    "DATABASE_TOOLS",
    "FAMILY_SAYS",
    "MONEY_WORDS",
    "NON_PROD",
    "OUTSIDE_PARTIES",
    "PACKAGE_CACHE_CLEARS",
    "PAYMENT_SCHEMES",
    "PROD_WORDS",
    "PUBLIC_TARGETS",
    "REGISTRIES",
    "SCHEMA_LOADS",
    "SCHEMA_LOAD_DOES",
    "SPELLED",
    "SUBCOMMAND_ACTS",
    "WORD_ACTS",
    "CodeAct",
    "WordAct",
    "third_person",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class CodeAct:
    """A command or statement spelled in code, and how the reason says what it does."""

    family: str
    pattern: re.Pattern[str]
    says: str  # "deletes files", "drops {1}" ({n}: the pattern's group n)


@dataclass(frozen=True, kw_only=True, slots=True)
class WordAct:
    """A word (or phrase, lemmas space-separated) that names an act, its family, and the
    context its object must show for it to count (None: it always counts)."""

    lemmas: tuple[str, ...]
    family: str
    needs: str | None = None  # "audience" | "money" | "customer" | "merge" | "data" | ...
    noun: bool = False  # a nominal ("the cleanup of …"), not a verb


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


# A table's name in SQL is never an article: "truncate the then_logs table" is English, and
# its word act says what it truncates.
_NOT_AN_ARTICLE = r"(?!(?:the|a|an|this|that|these|those|my|our|your|all|every)\b)"
_CURRENCY_PREFIXES = (
    "usd|eur|gbp|jpy|cny|rmb|inr|chf|cad|aud|nzd|sek|nok|dkk|pln|czk|huf|brl|mxn|zar|rub"
    "|krw|sgd|hkd|ils|aed|sar|thb|idr|vnd|ngn|uah|btc|usdt|usdc|xmr"
)
_CURRENCY_CODES = f"{_CURRENCY_PREFIXES}|try|php|eth|sol|doge"
_CURRENCY_WORDS = (
    "dollars?|bucks|euros?|pounds? sterling|quid|yen|yuan|renminbi|rupees?|francs?"
    "|pesos?|reais|rubles?|roubles?|liras?|kronor|krona|kroner|zloty|shekels?|dirhams?|baht"
    "|rupiah|satoshis?|bitcoins?"
)
_SYMBOLS = "$€£¥₹₽₩₿₺₪₫₴₦₱฿₸₡"

# A path to a file that holds secrets: a credential file of a tool's own dotted folder
# (`~/.aws/credentials`, `~/.kube/config`, `~/.docker/config.json`), a folder of keys
# (`~/.ssh`, not its `config`), a login file (`~/.netrc`, `~/.pgpass`), an env file in a
# folder (`/etc/app/sap.env`), a key store (`server.key`, `private-key.pem`, `store.p12`), a
# file named a secret in a folder (`/etc/billing/token`, `/run/secrets/db`,
# `credentials.json`). Never a page about them (`docs/secrets.md`) nor source code
# (`secrets_loader.py`).
_SECRET_FILE = (
    r"(?:~|\b)?[\w./-]{0,120}\.(?:aws/credentials|kube/config|docker/config\.json"
    r"|(?:ssh|gnupg)(?!/(?:config|known_hosts)\b)(?:/[\w.-]+)?)\b"
    r"|(?:~/|(?<![\w.]))\.(?:netrc|pgpass|npmrc|pypirc|htpasswd|git-credentials)\b"
    r"|/etc/shadow\b|[\w.~/-]{0,120}/[\w-]+\.env(?![\w-]|\.\w)"
    r"|\b(?:[\w-]+\.(?:key|p12|pfx|jks|keystore)|[\w-]*(?:key|private)[\w-]*\.pem)(?![\w(-]|\.\w)"
    r"|[\w.~/-]{0,120}/(?:tokens?|secrets?|credentials|passwords?|passwd)(?![\w-]|\.\w)"
    r"|\b(?:credentials|secrets?|service[-_]account)\.(?:json|ya?ml|toml)\b"
)

# A file's path in a command line: with a folder (`/var/log/app.log`, `~/x`) or a name and an
# extension (`orders.csv`), never a number (`2.5`).
_PATH = r"(?:~?[\w.-]*/[\w./-]*\w|[\w-]+\.[a-z][a-z0-9]{0,4})(?![\w./-])"

CODE_ACTS: tuple[CodeAct, ...] = (
    CodeAct(
        family="delete",
        pattern=_c(
            r"\brm\s+-\w*[rf]\w*\s+[^\s`?]+|\brm\s+[~/.*\w][^\s`?]*|\brmdir\b"
            r"|\bdd\s+(?:if|of|bs)=[^\n`?]*|\bmkfs\S*(?:\s+/dev/\S+)?|\bfdisk\b|\bwipefs\b|\bshred\b|\btruncate\s+-s|\bfind\b[^\n`]*\s-delete\b"
            r"|\bxargs\s+(?:-\S+\s+)*rm\b|>\s*/dev/(?:sd|nvme|hd|disk|mmcblk)|:\(\)\s*\{"
            r"|\bformat\s+[a-z]:|\bdel\s+/[sfq]|\brd\s+/s"
        ),
        says="runs `{0}`, which deletes files for good",
    ),
    # A single letter's flag names no act a reader can see: `crontab -r` removes every job
    # of the user's crontab, with no copy kept.
    CodeAct(
        family="delete",
        pattern=_c(r"\bcrontab\s+(?:-u\s+\S+\s+)?-\w*r\w*"),
        says="runs `{0}`, which deletes every scheduled job in the crontab",
    ),
    # Taking a compose project down keeps its data, but `-v`/`--volumes` deletes the named
    # volumes with it: the databases and uploads they hold.
    CodeAct(
        family="delete",
        pattern=_c(
            r"\b(?:docker[- ]compose|podman[- ]compose)\b[^\n`?]*?\bdown\b[^\n`?]*?"
            r"(?:\s-[a-z]*v[a-z]*\b|\s--volumes\b)(?:\s+-{1,2}[\w=-]+)*"
        ),
        says="runs `{0}`, which deletes its volumes and the data in them",
    ),
    CodeAct(
        family="push",
        pattern=_c(
            r"\bgit\s+push\b[^\n`?]*|\bgit\s+reset\s+(?:--)?hard[^\n`?]*"
            r"|\bgit\s+clean\s+-\w*[fdx]\w*|\bgit\s+checkout\s+(?:--\s+)?\.(?=\s|$|`)"
            r"|\bgit\s+restore\b|\bgit\s+branch\s+-(?:d|-delete)\b[^\n`?]*"
            r"|\bgit\s+stash\s+(?:drop|clear)|\bgit\s+filter-(?:branch|repo)\b|\bgit\s+rebase\b"
            r"|\bgit\s+commit\s+--amend|\bgit\s+tag\s+-d\b|\bgit\s+gc\s+--prune"
            r"|\bgit\s+update-ref\s+-d|\bpush\b[^\n`]*\s-f\b|\bpush\s+--force(?:-with-lease)?\b"
        ),
        says="runs `{0}`, which rewrites or discards git history",
    ),
    # `--force` outside a git command rewrites no history: it overrides the tool's own check
    # (a file in the way, a peer dependency, a guard against data loss). What it forces is
    # not known to the gate, so it stays careful, said as what it is; the command line in
    # code is read whole ("`npm install --force`"), a bare flag as itself.
    CodeAct(
        family="force",
        pattern=_c(
            r"`[^`\n]*?(?<![\w-])--force(?:-[\w-]+)?\b[^`\n]*`|(?<![\w-])--force(?:-[\w-]+)?\b"
        ),
        says="runs `{0}`, which overrides the tool's own safety check",
    ),
    CodeAct(
        family="push",
        pattern=_c(r"--no-verify\b|--no-gpg-sign\b|\[skip ci\]|--skip-ci\b|\bgit\s+push\s+--admin"),
        says="skips the checks (`{0}`)",
    ),
    CodeAct(
        family="access",
        pattern=_c(
            r"\bchmod\b[^\n`?]*|\bchown\b[^\n`?]*|\bsetfacl\b|\bsudo\b[^\n`?]*|\bsu\s+-|\bvisudo\b|\busermod\b"
        ),
        says="runs `{0}`, which changes permissions or runs as root",
    ),
    CodeAct(
        family="access",
        pattern=_c(
            r"\b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+)?(?:ba|z|k|da)?sh\b|\beval\s+\"?\$\(curl"
        ),
        says="runs code fetched from the network (`{0}`)",
    ),
    CodeAct(
        family="infrastructure",
        pattern=_c(
            r"\bterraform\s+(?:destroy|apply|import|state\s+rm)[^\n`?]*|\bkubectl\s+(?:delete|drain"
            r"|apply|scale|rollout|replace|patch|cordon)[^\n`?]*|\bhelm\s+(?:uninstall|delete"
            r"|upgrade|install|rollback)[^\n`?]*|\bdocker\s+(?:system\s+prune|rm|rmi|volume\s+rm"
            r"|push)[^\n`?]*|\baws\s+\S+\s+(?:rm|rb|delete|terminate)[^\n`?]*|\bgsutil\s+(?:-m\s+)?rm"
            r"|\bgcloud\b[^\n`?]*\bdelete|\bnpm\s+(?:publish|unpublish|deprecate)|\btwine\s+upload"
            r"|\bcargo\s+(?:publish|yank)|\bgh\s+(?:release\s+create|repo\s+(?:delete|edit|archive))"
            r"|\bflyctl?\s+deploy|\bvercel\b[^\n`?]*--prod|\bheroku\s+\S+:(?:destroy|reset)"
            r"|\bsystemctl\s+(?:stop|disable|mask|restart)[^\n`?]*|\bshutdown\b|\breboot\b"
            r"|\bkill\s+-9|\bpkill\b|\bkillall\b"
        ),
        says="runs `{0}`, which changes shared infrastructure or publishes",
    ),
    CodeAct(
        family="sql",
        pattern=_c(
            r"\bdrop\s+(table|database|schema|index|view|column|collection)\s+"
            rf"(?:if\s+exists\s+)?{_NOT_AN_ARTICLE}([\w.\"`]+)"
        ),
        says="drops the {2} {1}",
    ),
    CodeAct(
        family="sql",
        pattern=_c(rf"\bdelete\s+from\s+{_NOT_AN_ARTICLE}([\w.\"`]+)"),
        says="deletes rows from {1}",
    ),
    CodeAct(
        family="sql",
        pattern=_c(rf"\btruncate\s+(?:table\s+)?{_NOT_AN_ARTICLE}([\w\"`][\w.\"`]*)"),
        says="empties the table {1}",
    ),
    CodeAct(
        family="sql",
        pattern=_c(r"\bupdate\s+([\w.\"`\[\]]+)\s+set\b(?![^;]*\bwhere\b)"),
        says="changes every row of {1} (an UPDATE without WHERE)",
    ),
    CodeAct(
        family="sql",
        pattern=_c(
            r"\bupdate\s+[\w.\"`\[\]]+\s+set\b|\binsert\s+(?:or\s+\w+\s+)?into\b|\balter\s+(?:table"
            r"|database|user|role)\b|\bgrant\s+\w+\s+on\b|\brevoke\s+\w+\s+on\b|\breplace\s+into\b"
            r"|\bmerge\s+into\b|\bdrop\s+(?:user|role|trigger|function|constraint)\b|\bflushall\b"
            r"|\bflushdb\b|\bdropdatabase\b|\.(?:drop|remove|deletemany|delete_many|deleteone"
            r"|delete_one|updatemany|update_many)\s*\(|\bvacuum\s+full\b"
        ),
        says="runs `{0}`, which changes data in a database",
    ),
    CodeAct(
        family="money",
        pattern=_c(
            rf"[{_SYMBOLS}]\s*\d[\d,.]{{0,40}}(?:\s*(?:k|m|bn)\b)?|\d[\d,.]{{0,40}}\s*(?:k|m|bn|mm)?\s*[{_SYMBOLS}]"
            rf"|\b\d[\d,.]{{0,40}}\s*(?:k|m|bn|mm|thousand|million|billion)?\s*(?:{_CURRENCY_CODES})\b"
            rf"|\b(?:{_CURRENCY_PREFIXES})\s*\d[\d,.]{{0,40}}|\b\d[\d,.]{{0,40}}\s*(?:{_CURRENCY_WORDS})\b"
        ),
        says="moves money ({0})",
    ),
    CodeAct(
        family="credentials",
        pattern=_c(
            r"\b\w*(?:_token|_key|_secret|_password|_passwd|_pwd|_apikey|_credentials?)\b"
            r"|\b(?:secret|password|passwd|token|apikey|api_key)_\w+|(?:^|[\s/`])\.env\b|\bid_rsa\b"
            r"|\bid_ed25519\b|-----begin|\bsk-[a-z0-9]{6,}|\bghp_\w+|\bxox[bpa]-\S+"
            # a file that holds secrets by where it lives or what it is named: the cloud's and
            # the shell's credential files, an env file, a key file, a file named a secret
            rf"|{_SECRET_FILE}"
        ),
        says="touches a secret ({0})",
    ),
    CodeAct(
        family="overwrite",
        pattern=_c(r"\bsed\s+-i[^\n`?]*|\b(?:echo|cat|printf|tee)\b[^|\n`]*[^>]>(?!>)\s*\S+"),
        says="runs `{0}`, which overwrites a file in place",
    ),
    # What puts nothing in place of a file: a redirection with no writer or a no-op one
    # (`> app.log`, `: > orders.csv`), the null device copied over a file or a thing moved
    # into it. Never output sent to a file (`pytest > out.txt`) or to the null device (`make
    # 2> /dev/null`).
    CodeAct(
        family="overwrite",
        pattern=_c(
            rf"(?:^|(?<=[`;&|(\n]))\s*(?:(?::|true)\s*)?>(?!>)\s*(?!/dev/){_PATH}"
            rf"|\bcp\s+/dev/null\s+{_PATH}|\bmv\s+(?:-\S+\s+)*\S+\s+/dev/null\b"
        ),
        says="runs `{0}`, which leaves nothing of what it names",
    ),
    # A file read into itself: the shell empties `a.csv` before `sort a.csv > a.csv` reads it.
    # Each stretch is bounded (300 characters): unbounded, the two lazy stretches and the
    # back-reference scan a long command once per path in it, quadratic in its length.
    CodeAct(
        family="overwrite",
        pattern=_c(
            rf"(?:^|(?<=[`;&|(\n]))\s*[\w.-]+\s[^`\n>|;]{{0,300}}?(?<![\w./-])({_PATH})"
            rf"[^`\n>|;]{{0,300}}?(?<![0-9&])>(?!>)\s*\1(?![\w./-])"
        ),
        says="writes {1} over itself (`{0}`), which empties it before it is read",
    ),
)

# ---------------------------------------------------------------- word families

PROD_WORDS = frozenset(["prod", "production", "prd"])
NON_PROD = frozenset(
    [
        "staging",
        "stage",
        "dev",
        "development",
        "test",
        "testing",
        "qa",
        "sandbox",
        "preview",
        "local",
        "localhost",
        "branch",
        "ci",
    ]
)
PUBLIC_TARGETS = frozenset(
    [
        "prod",
        "production",
        "prd",
        "live",
        "public",
        "publicly",
        "customer",
        "client",
        "user",
        "everyone",
        "main",
        "master",
        "store",
        "npm",
        "pypi",
        "crates",
        "marketplace",
        "world",
        "internet",
    ]
)
# Where a package or an app is published for everyone.
REGISTRIES = frozenset(
    [
        "npm",
        "pypi",
        "crates",
        "rubygems",
        "cran",
        "maven",
        "nuget",
        "packagist",
        "homebrew",
        "dockerhub",
        "registry",
        "marketplace",
        "store",
        "appstore",
        "testflight",
        "play",
    ]
)
MONEY_WORDS = frozenset(
    [
        "customer",
        "client",
        "card",
        "account",
        "invoice",
        "bill",
        "balance",
        "debt",
        "fee",
        "amount",
        "sum",
        "funds",
        "money",
        "payment",
        "dues",
        "deposit",
        "wallet",
        "bank",
        "expense",
        "salary",
        "payroll",
        "budget",
        "billing",
        "subscription",
        "tier",
        "seat",
        "license",
        "licence",
        "pricing",
    ]
)
# The schemes a bank's payment files go through (and the instruction "direct debit").
PAYMENT_SCHEMES = frozenset(["bacs", "sepa", "ach", "chaps", "nacha", "fedwire", "bpay", "giro"])
CUSTOMER_THINGS = frozenset(
    [
        "customer",
        "client",
        "user",
        "account",
        "subscription",
        "order",
        "contract",
        "membership",
        "booking",
        "reservation",
        "plan",
        "licence",
        "license",
        "seat",
        "tenant",
        "organization",
        "organisation",
        "org",
        "workspace",
        "trial",
        "deal",
        "shipment",
        "renewal",
        "domain",
    ]
)
# The state's bodies: what is filed with, sent or reported to one is on its record for good.
STATE_BODIES = frozenset(
    [
        "authority",
        "court",
        "tribunal",
        "government",
        "ministry",
        "ombudsman",
        "inspectorate",
        "registrar",
        "police",
        "council",
    ]
)
AUDIENCE = frozenset(
    [
        "customer",
        "client",
        "user",
        "subscriber",
        "public",
        "publicly",
        "everyone",
        "everybody",
        "staff",
        "company",
        "external",
        "externals",
        "outsider",
        "partner",
        "vendor",
        "supplier",
        "investor",
        "press",
        "media",
        "journalist",
        "regulator",
        "twitter",
        "linkedin",
        "facebook",
        "instagram",
        "mastodon",
        "bluesky",
        "reddit",
        "community",
        "forum",
        "blog",
        "website",
        "social",
        "upstream",
        "github",
        "support",
        "helpdesk",
        "board",
        "ceo",
        "recipient",
        "reporter",
        "contact",
        "lead",
        "prospect",
        "audience",
        "follower",
        "general",
        "announcement",
        "world",
        "internet",
        "newsletter",
        "channel",
        "list",
        # parties outside the company a message to cannot be taken back from
        "carrier",
        "courier",
        "shipper",
        "merchant",
        "seller",
        "buyer",
        "reseller",
        "distributor",
        "affiliate",
        "agency",
        "insurer",
        "reinsurer",
        "lawyer",
        "counsel",
        "auditor",
        "payee",
        "donor",
        "shareholder",
        "stakeholder",
        "applicant",
        "patient",
        "bank",
        # the people a school, a ward, a hotel, a ship or a landlord serves: a message to
        # them leaves the organisation ("send the grades to parents", "notify the tenants")
        "parent",
        "guardian",
        "family",
        "relative",
        "guest",
        "passenger",
        "tenant",
        "resident",
        *STATE_BODIES,
    ]
)

# The parties outside the company a thing reported, referred or handed over to is theirs for
# good: the state's bodies and the regulator, the auditor, the press, customers and the
# public, an insurer or a reinsurer, investors. Never a team or a person inside it ("flag it
# to the on-call", "hand it over to support", "report back to the lead").
OUTSIDE_PARTIES = frozenset(
    [
        "regulator",
        *STATE_BODIES,
        "auditor",
        "taxman",
        "press",
        "media",
        "journalist",
        "newspaper",
        "customer",
        "client",
        "subscriber",
        "policyholder",
        "public",
        "everyone",
        "everybody",
        "insurer",
        "reinsurer",
        "underwriter",
        "investor",
        "shareholder",
    ]
)


def _acts(
    family: str, words: str, *, needs: str | None = None, noun: bool = False
) -> list[WordAct]:
    return [
        WordAct(
            lemmas=tuple(w.replace("_", " ").replace("-", " ").split()),
            family=family,
            needs=needs,
            noun=noun,
        )
        for w in words.split()
    ]


WORD_ACTS: tuple[WordAct, ...] = (
    # deleting or destroying
    *_acts(
        "delete",
        """delete undelete remove erase nuke purge truncate drop destroy obliterate shred expunge
        prune discard trash scrap zap annihilate eradicate decommission deprovision terminate
        kill uninstall reset revert rollback unpublish retract scrub flush toss sunset
        rm rmdir
        nix axe cull raze evict unlink wipe get_rid_of tear_down clear_out
        throw_away blow_away do_away_with roll_back zero_out hard_delete start_over
        fresh_start clean_slate clean_house
        dispose dispose_of pulp""",
    ),
    # getting rid of a thing, said the way a kitchen, a shop floor or a ward says it: "bin
    # the stale bread", "chuck out the sour milk", "ditch the old rota" — "dispose" in other
    # words; the words that are mostly things ("the recycling bin", "label the bins", "move
    # the junk") count only where a verb stands, with its object
    *_acts("delete", "chuck ditch throw_out chuck_out chuck_away toss_out"),
    *_acts("delete", "bin junk bin_off", needs="verb_object"),
    *_acts("delete", "clear empty", needs="object"),
    # storage freed is what filled it deleted: "… to free disk", "free up some space"
    *_acts("delete", "free free_up reclaim", needs="storage"),
    # what wipes data, on code is an edit: "reformat the data disk", "reformat `rules.py`"
    *_acts("delete", "clean_up clean_out reformat", needs="not_code"),
    *_acts("delete", "squash", needs="not_local"),
    *_acts(
        "delete",
        """deletion removal teardown wipeout purge rollback destruction termination erasure""",
        noun=True,
    ),
    *_acts("delete", "cleanup", noun=True, needs="not_code"),  # "the cleanup of unused imports"
    # pushing, forcing, landing on a shared branch
    *_acts("push", "force_push push force rewrite_history"),
    *_acts("push", "merge squash_merge rebase_merge", needs="not_local"),
    *_acts("push", "land commit sync merge squash_merge rebase_merge", needs="shared_branch"),
    # deploying, releasing, publishing
    *_acts(
        "deploy",
        """deploy redeploy ship release publish republish launch promote hotfix cutover go_live
        roll_out rollout cut_over""",
        needs="not_only_non_prod",
    ),
    *_acts(
        "deploy",
        "deployment rollout launch publication hotfix cutover traffic",
        noun=True,
        needs="not_only_non_prod",
    ),
    *_acts("deploy", "flip toggle enable turn_on switch_on", needs="everyone"),
    *_acts("deploy", "upload submit get_out", needs="registry"),  # "upload 2.8.1 to PyPI"
    # exposing it to users: "put it in front of users", "set the flag to 100%"
    *_acts("deploy", "make_available", needs="audience"),
    *_acts("deploy", "front", needs="in_front_of_audience"),
    *_acts("deploy", "set ramp raise bump increase", needs="wide_rollout"),
    # what every customer pays for, changed for them: "bump everyone's plan to premium",
    # "change every subscriber's plan to the new tier"
    *_acts(
        "money",
        "change switch move bump upgrade set raise lower update",
        needs="customers_plan",
    ),
    # a live setting changed for everyone, however small: "set the multiplier to 0.1 in live"
    *_acts(
        "live_setting",
        """set change lower raise bump increase decrease reduce cut double halve tweak adjust
        update modify switch""",
        needs="live_setting",
    ),
    # what a running system holds, changed there: "modify the target list on the mediation
    # function", "update the routes on the edge firewall" — in force at once, unreviewed
    *_acts(
        "held_data",
        "modify edit update change alter amend adjust tweak add append insert extend rewrite",
        needs="held_on_a_system",
    ),
    *_acts("deploy", "floodgate big_red_button red_button", noun=True),
    # telling the world the service's state: the public status page
    *_acts("send", "update edit change post write set put", needs="public_page"),
    # a euphemism for the same: made live, or taken off the air
    *_acts(
        "deploy",
        "make_live put_live push_live set_live take_live bring_live bring_online",
        needs="not_only_non_prod",
    ),
    *_acts("infrastructure", "take_offline take_down bring_down knock_over knock_out"),
    # a system switched off for good, said as a plug pulled ("pull the plug on v1"; not on
    # the asker's own)
    *_acts("infrastructure", "pull_the_plug", needs="not_own"),
    # telling customers or the public
    *_acts("send", "email mail tweet announce broadcast spam sms blast"),
    *_acts("send", "newsletter mailshot announcement press_release", noun=True),
    *_acts(
        "send",
        """send post share notify message dm reply respond forward contact reach_out submit
        upload leak cc bcc ping tell inform write_to call text comment""",
        needs="audience",
    ),
    *_acts("send", "file lodge", needs="verb_audience"),
    # what is got or put out to customers or the public reaches them: "get the release out to
    # customers", "put the new prices out to subscribers" (never "out to the team")
    *_acts("send", "get_out put_out", needs="audience"),
    # what is reported, referred or flagged to an outside party is told to them for good:
    # "report the ring to the police", "refer the complaint to the ombudsman" (never "report
    # back to the lead", "refer to the docs")
    *_acts("send", "report refer flag escalate", needs="outside_party"),
    # handed over by a phrasal verb, as "submit" or "send" hands it: "get the return over to
    # the regulator", "fire the figures off to the press", "pass the file across to the
    # auditors" (never "hand the pager over to the next on-call")
    *_acts(
        "send",
        """get_over get_across get_off pass_over pass_across pass_on hand_over hand_across
        hand_off fire_off fire_over fire_across""",
        needs="outside_party",
    ),
    # what is let out or put up where people see it: "put the warning up on the public
    # website", "let the bulletin go out to subscribers" (made to go out: "the newsletter
    # goes out on which day?" only asks)
    *_acts("send", "put_up", needs="audience"),
    *_acts("send", "go_out", needs="caused_audience"),
    # a return or a declaration handed in is on the state's record: "submit the VAT return",
    # "file the customs declaration" (never a draft, a test one, or code for review)
    *_acts("filing", "submit file lodge efile", needs="official_filing"),
    # handed in by a phrasal verb, whoever it goes to: "get the complaints return over to the
    # FCA", "hand in the VAT return", "fire off the customs declaration"
    *_acts(
        "filing",
        """get_over get_across get_off get_in hand_in hand_over pass_over pass_across fire_off
        fire_over fire_across""",
        needs="official_filing",
    ),
    # money
    *_acts(
        "money",
        """pay repay prepay refund reimburse remit invoice purchase buy donate withdraw
        top_up subscribe tip bid invest sponsor fund finance wire_transfer""",
    ),
    *_acts(
        "money",
        """charge settle transfer wire bill credit debit approve process collect move send
        release upgrade spend""",
        needs="money",
    ),
    *_acts("money", "payment refund invoice expense payout payroll salary bonus", noun=True),
    # a money-moving run named by what it moves, whatever verb runs it: "run the direct debit
    # collection", "kick off the disbursement run", "charge back the disputed transactions"
    *_acts("money", "disbursement remittance", noun=True),
    *_acts("money", "debit", noun=True, needs="direct_debit"),
    *_acts("money", "charge_back"),
    # a collection or a settlement is one of money where a word of money names what it is of
    # ("the premium collection", "the card settlement run"), never "the customers collection"
    # of a database or "the settlement period" a fleet reports
    *_acts("money", "collection settlement", noun=True, needs="money_modifier"),
    *_acts("money", "renew", needs="money"),
    # a debt or a charge given up is money the company will not collect: "write off the 212
    # rejected direct debits", "waive the late fees" (never code given up on: "write off the
    # flaky test as noise")
    *_acts("money", "write_off writeoff", needs="not_code"),
    *_acts("money", "write_off writeoff", noun=True, needs="not_code"),
    *_acts("money", "waive forgive", needs="money"),
    # a payment file handed to a payment scheme pays or collects at once: "submit this
    # cycle's Bacs file", "send the SEPA batch"
    *_acts("money", "submit send transmit upload lodge", needs="payment_scheme"),
    # a retention, a TTL or a lifetime cut (or changed, which way unsaid) deletes what falls
    # out of it: "set the lake retention to 1 year", "shorten the TTL of the audit rows";
    # lengthening it ("extend", "raise") keeps more
    *_acts(
        "retention",
        """set change lower reduce shorten cut decrease halve trim drop adjust update modify
        tweak""",
        needs="shorter_retention",
    ),
    # credentials and secrets
    *_acts(
        "credentials",
        """password passwd passphrase passcode secret credential creds token bearer jwt otp
        2fa mfa totp keychain keystore keyring vault kms pem pfx p12 dotenv
        seed_phrase recovery_code recovery_key private_key ssh_key api_key access_key
        secret_key signing_key encryption_key master_key root_key deploy_key gpg_key pgp_key
        licence_key license_key""",
        noun=True,
    ),
    *_acts("credentials", "rotate rekey"),
    # "the key rotation plan" is that act; "the on-call rotation" is a schedule
    *_acts("credentials", "rotation rekeying", noun=True, needs="secret_modifier"),
    # overwriting
    *_acts("overwrite", "overwrite clobber write_over force_write"),
    *_acts("overwrite", "replace restore", needs="data"),
    # access and permissions
    *_acts(
        "access",
        """permission perms acl iam rbac privilege sudoers allowlist whitelist firewall
        ownership write_access admin_access root_access admin_rights""",
        noun=True,
    ),
    *_acts("access", "grant invite elevate revoke unprotect expose impersonate make_public"),
    *_acts("access", "give add open share disable enable make", needs="access"),
    # cancelling a customer's thing
    *_acts(
        "cancel",
        """deactivate suspend unsubscribe close ban block downgrade void freeze lock
        offboard churn end stop pause disable""",
        needs="customer",
    ),
    # calling off anything booked, scheduled or running that is not the asker's own draft or
    # local run: a ferry, a shift, a batch, an order — whoever counted on it loses it
    *_acts("cancel", "cancel abort call_off rescind", needs="not_own_run"),
    # stopping or recreating shared things
    *_acts(
        "infrastructure",
        """shut_down shutdown power_off turn_off switch_off scale_down stop recreate reinstall
        reprovision rebuild_from_scratch failover fail_over restart reboot archive downgrade
        upgrade""",
        needs="shared_thing",
    ),
    *_acts("infrastructure", "dns nameserver", noun=True),
    # recreating anything not the asker's own throws away what was there
    *_acts("delete", "recreate", needs="not_own"),
    # database migrations and backfills
    *_acts("migrate", "migrate backfill reindex", needs="not_code"),
    *_acts("migrate", "migration backfill", noun=True, needs="not_code"),
    # approving someone's change (a pull request) lets it land
    *_acts("push", "approve", needs="pr_in_sentence"),
    # deciding what others asked for: an application, a case, a claim or a request approved
    # is theirs from then on ("approve all" the cases in review)
    *_acts("decision", "approve", needs="not_said"),
    # agreements
    *_acts("agreement", "sign accept agree commit", needs="agreement"),
    *_acts("agreement", "docusign e_sign esign"),
    # a commitment to someone outside: "confirm the booking with the caterer", "book the
    # photographer", "RSVP yes to the merchant's tasting" — they count on it from then on
    *_acts(
        "commitment",
        "confirm reconfirm book prebook reserve rsvp hire accept sign agree",
        needs="commits_to_party",
    ),
    # an operation on a vehicle or a machine in the physical world: a burn fired, a
    # manoeuvre flown, a deorbit begun cannot be taken back ("execute the orbit-raise burn",
    # "start passivation", "fire the thrusters"); a simulation of one only reads
    *_acts("physical", "deorbit passivate jettison detonate scuttle"),
    *_acts(
        "physical",
        """burn manoeuvre maneuver deorbit passivation jettison reentry re_entry liftoff
        lift_off splashdown detonation""",
        noun=True,
        needs="operation",
    ),
    *_acts("physical", "fire ignite", needs="machine"),
    # an asset taken out of service for good: "retire the old storage array" (never code or
    # words retired: "retire the flaky test", "retire the old wording")
    *_acts("delete", "retire", needs="asset"),
    # an operation committed to: "commit EOS-04 to the manoeuvre", "commit the fleet to the
    # new route" (never a change committed to a branch or a repository)
    *_acts("physical", "commit", needs="committed_to"),
    # the question's own word
    *_acts(
        "own_word",
        """irreversible irreversibly irrevocable irrevocably permanent permanently unrecoverable
        destructive cannot_be_undone can_t_be_undone no_going_back point_of_no_return
        one_way_door for_good""",
        noun=True,
    ),
)

# What a command line's subcommand does when it is run, for the words that name a destructive
# act only as a subcommand ("`migrate:fresh`", "`db:seed:replant`", "`gem yank`", "`etcdctl
# del`"): in prose each is harmless ("a fresh batch", "yank the cable"), so none is a word
# act. The reason says what the command does to what it names.
SUBCOMMAND_ACTS: dict[str, str] = {
    "fresh": "drops everything in what it names and builds it afresh",
    "replant": "empties what it names and seeds it again",
    "yank": "withdraws a published release",
    "del": "deletes what it names",
    "undefine": "deletes what it names",
}

# A database's tools, and the namespaces of their tasks (`rake db:…`, `mix ecto.…`,
# `redis-cli`, `flyway`): a task run under one works on the database's own tables and rows.
DATABASE_TOOLS = frozenset(
    [
        "db",
        "database",
        "schema",
        "structure",
        "migrate",
        "migration",
        "migrations",
        "ecto",
        "flyway",
        "liquibase",
        "prisma",
        "knex",
        "sequelize",
        "typeorm",
        "doctrine",
        "alembic",
        "dbmate",
        "goose",
        "sqitch",
        "diesel",
        "atlas",
        "psql",
        "mysql",
        "mysqladmin",
        "mariadb",
        "mongo",
        "mongosh",
        "redis",
        "memcached",
        "sqlcmd",
        "cqlsh",
        "sqlite3",
        "pg",
    ]
)

# What a database tool's task does when its name, harmless elsewhere ("make clean", "a fresh
# setup", "refresh the page", "undo the edit"), is run under one: each throws the data away.
DATABASE_TASKS: dict[str, str] = {
    "clean": "drops every table, view and row in the database",
    "setup": "loads the schema over the database, which recreates its tables empty",
    "refresh": "rolls back every migration and runs them again, which drops the rows they held",
    "redo": "rolls back the last migration and runs it again, which drops what it held",
    "undo": "rolls back what was migrated or seeded, which drops the rows it made",
}

# A migration tool's task that applies the pending migrations: run, it changes the
# database's schema, as "run the migration" does in prose (`rails db:migrate`, `flyway
# migrate`, `php artisan migrate`, `alembic upgrade head`, `goose up`, `liquibase update`,
# `typeorm migration:run`, `atlas migrate apply`). The task's word → the tools it applies
# migrations under, one of which names the command line before it.
MIGRATION_RUNS: dict[str, frozenset[str]] = {
    "migrate": DATABASE_TOOLS | {"artisan", "manage"},
    "upgrade": frozenset(["alembic"]),
    "up": frozenset(["goose", "dbmate", "migrate"]),  # golang-migrate: `migrate … up`
    "update": frozenset(["liquibase"]),
    "run": frozenset(["migration", "migrations"]),
    "apply": frozenset(["migrate", "migration", "migrations"]),
    "latest": frozenset(["migrate"]),  # `knex migrate:latest`
}
MIGRATION_RUN_DOES = "applies the pending migrations, which changes the database's schema"

# A schema loaded (`db:schema:load`, `db:structure:load`) recreates every table it names,
# empty: what the tables held is gone.
SCHEMA_LOADS = frozenset(["schema", "structure"])
SCHEMA_LOAD_DOES = "loads the schema over the database, which recreates its tables empty"

# A package manager's own download cache: what it holds is a copy of what the registry keeps,
# fetched again on the next install, and the tool asks `--force` only because clearing it is
# rarely needed. Cleared on the asker's machine, nothing is lost.
PACKAGE_CACHE_CLEARS = re.compile(
    r"\b(?:npm|yarn|pnpm|pip3?|poetry|conda|gem|composer|bun)\s+"
    r"(?:cache\s+(?:clean|clear|purge|prune|verify|rm|remove)|clear-cache|clearcache)\b"
)

# How the reason spells a phrase's verb.
SPELLED = {"force push": "force-push", "e sign": "e-sign", "top up": "top up"}

# What the reason calls each family, after the act's own words.
FAMILY_SAYS = {
    "delete": "deletes something for good",
    "push": "changes a shared branch",
    "deploy": "deploys, releases or publishes",
    "send": "tells customers or the public",
    "money": "moves money",
    "credentials": "touches a secret",
    "overwrite": "overwrites what is there",
    "access": "changes who has access",
    "cancel": "calls off what others count on",
    "migrate": "changes a database",
    "agreement": "signs or accepts an agreement",
    "commitment": "commits the owner to someone outside",
    "decision": "decides for others what they asked for",
    "own_word": "cannot be undone, it says",
    "production": "changes production",
    "live_setting": "changes a live setting for everyone",
    "held_data": "changes what a running system holds",
    "identified_person": "acts on one identified person's line or account",
    "infrastructure": "changes shared infrastructure",
    "checks": "skips the checks",
    "sql": "changes data in a database",
    "force": "overrides a tool's own safety check",
    "unread_text": "does what a text says, and the gate has not read it",
    "filing": "hands a filing to an authority, which cannot be unsent",
    "physical": "acts on a vehicle or a machine in the physical world, which cannot be undone",
    "retention": "shortens or changes how long data is kept, and what falls out is deleted",
}


def third_person(verb: str) -> str:
    """'drop' → 'drops', 'push' → 'pushes', 'apply' → 'applies', 'get rid of' → 'gets rid of'."""
    first, _, rest = verb.partition(" ")
    if first in ("have", "be"):
        first = {"have": "has", "be": "is"}[first]
    elif first.endswith(("s", "sh", "ch", "x", "z", "o")):
        first += "es"
    elif first.endswith("y") and len(first) > 1 and first[-2] not in "aeiou":
        first = first[:-1] + "ies"
    else:
        first += "s"
    return f"{first} {rest}".strip()
