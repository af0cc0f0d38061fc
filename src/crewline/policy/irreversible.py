"""The irreversible detector: does a question (or an option, or a default) ask for something
that cannot be taken back?

It wins over every routine kind and every policy. It reads three ways: shell and SQL
spellings and amounts of money in the code form (punctuation kept, never masked); word
families with their stems, synonyms and paraphrases in the words form (plain tokens, and
again with obfuscation undone); and a few families that only count in context ("charge" with
money, "cancel" with a customer's thing, "post" with a public audience). A risky word that
only names a test or a document ("run the delete-branch unit tests", "read the deploy docs")
is masked first; nothing else is, so when in doubt the question stays careful.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from crewline.policy.wording import deobfuscated_form, words_form

__all__ = ["Marker", "find_irreversible", "mentions_sensitive_target", "without_harmless_mentions"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Marker:
    """What made a text irreversible: the family (said to the human) and the words found."""

    family: str
    found: str


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _top_level(pattern: str) -> list[str]:
    """The alternatives of a pattern's outermost ``|``."""
    parts, current, depth, in_class, i = [], "", 0, False, 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            current += pattern[i : i + 2]
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char in "()":
            depth += 1 if char == "(" else -1
        elif char == "|" and depth == 0:
            parts.append(current)
            current, i = "", i + 1
            continue
        current += char
        i += 1
    return [*parts, current]


def _trigger(alternative: str) -> str | None:
    """The letters an alternative's match must start a word with, or None when unknown."""
    body = alternative.removeprefix("\\b")
    run = re.match(r"[a-z0-9]+", body)
    if run is None:
        return None
    word = run.group(0)
    if body[len(word) : len(word) + 1] in {"?", "*", "{"}:
        word = word[:-1]  # the last letter is optional
    return word[:_MAX_TRIGGER] or None


_MAX_TRIGGER = 16


class _Markers:
    """A family's pattern split into its alternatives, each searched only when some word of
    the text starts with the letters it must start with: the same matches as the whole
    pattern, without trying every alternative at every position of every question."""

    __slots__ = ("_alternatives", "_always", "triggers")

    def __init__(self, pattern: re.Pattern[str], *, wrapped: bool) -> None:
        source = pattern.pattern
        if wrapped:  # \\b(?:A|B|…)\\b: split the inner alternation, keep the boundaries
            assert source.startswith("\\b(?:") and source.endswith(")\\b"), source
            compiled = [
                (_trigger(alt), re.compile(f"\\b(?:{alt})\\b")) for alt in _top_level(source[5:-3])
            ]
        else:
            compiled = [(_trigger(alt), re.compile(alt)) for alt in _top_level(source)]
        self._alternatives = tuple(compiled)
        self._always = any(trigger is None for trigger, _ in compiled)
        self.triggers = frozenset(trigger for trigger, _ in compiled if trigger is not None)

    def search(self, text: str, starts: frozenset[str]) -> re.Match[str] | None:
        if not self._always and self.triggers.isdisjoint(starts):
            return None
        for trigger, alternative in self._alternatives:
            if trigger is None or trigger in starts:
                found = alternative.search(text)
                if found is not None:
                    return found
        return None


class _Starts:
    """Which triggers of a set of families begin some word of a text."""

    __slots__ = ("_lengths", "_triggers")

    def __init__(self, markers: Iterable[_Markers]) -> None:
        self._triggers = frozenset(t for m in markers for t in m.triggers)
        self._lengths = tuple(sorted({len(t) for t in self._triggers}))

    def of(self, text: str) -> frozenset[str]:
        found: set[str] = set()
        for word in set(_WORD.findall(text)):
            for n in self._lengths:
                if n > len(word):
                    break
                if word[:n] in self._triggers:
                    found.add(word[:n])
        return frozenset(found)


_WORD = re.compile(r"\w+")


# ---------------------------------------------------------------- code form (never masked)

# Codes that are also common words or names ("try", "php", "eth0") are left out of the
# code-before-amount form and kept in the amount-before-code form.
_CURRENCY_PREFIXES = (
    "usd|eur|gbp|jpy|cny|rmb|inr|chf|cad|aud|nzd|sek|nok|dkk|pln|czk|huf|brl|mxn|zar|rub"
    "|krw|sgd|hkd|ils|aed|sar|thb|idr|vnd|ngn|uah|btc|usdt|usdc|xmr"
)
_CURRENCY_CODES = f"{_CURRENCY_PREFIXES}|try|php|eth|sol|doge"
_CURRENCY_WORDS = (
    "dollars?|bucks|euros?|pounds?|quid|sterling|yen|yuan|renminbi|rupees?|francs?|cents?"
    "|pence|pesos?|reais|reals?|rubles?|roubles?|lira|liras|kronor|krona|kroner|zloty|rand"
    "|shekels?|dirhams?|baht|rupiah|satoshis?|sats|bitcoins?|ether"
)
_CODE_FAMILIES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "a destructive shell command",
        _c(
            r"\brm\s+-|\brm\s+[~/.*\w]|\brmdir\b|\bdd\s+(?:if|of|bs)=|\bmkfs\b|\bfdisk\b"
            r"|\bparted\b|\bwipefs\b|\bshred\b|\btruncate\s+-s|\bfind\b[^\n]*\s-delete\b"
            r"|\bxargs\s+(?:-\S+\s+)*rm\b|>\s*/dev/(?:sd|nvme|hd|disk|mmcblk)|:\(\)\s*\{"
            r"|\bformat\s+[a-z]:|\bdel\s+/[sfq]|\brd\s+/s"
        ),
    ),
    (
        "a history-rewriting or destructive git command",
        _c(
            r"\bgit\s+push\b|--force(?:-with-lease)?\b|\bgit\s+reset\s+(?:--)?hard|--hard\b"
            r"|\bgit\s+clean\s+-\w*[fdx]|\bgit\s+checkout\s+(?:--\s+)?\.(?:\s|$)"
            r"|\bgit\s+restore\b|\bgit\s+branch\s+-(?:d|-delete)\b|\bgit\s+stash\s+(?:drop|clear)"
            r"|\bgit\s+filter-(?:branch|repo)\b|\bgit\s+rebase\b|\bgit\s+commit\s+--amend"
            r"|\bgit\s+tag\s+-d\b|\bgit\s+gc\s+--prune|\bgit\s+update-ref\s+-d|\bpush\b.*\s-f\b"
        ),
    ),
    (
        "a command that changes permissions or runs as root",
        _c(r"\bchmod\b|\bchown\b|\bsetfacl\b|\bsudo\b|\bsu\s+-|\bvisudo\b|\busermod\b"),
    ),
    (
        "a command that runs code fetched from the network",
        _c(r"\b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+)?(?:ba|z|k|da)?sh\b|\beval\s+\"?\$\(curl"),
    ),
    (
        "a command that changes infrastructure or publishes a package",
        _c(
            r"\bterraform\s+(?:destroy|apply|import|state\s+rm)|\bkubectl\s+(?:delete|drain"
            r"|apply|scale|rollout|replace|patch|cordon)|\bhelm\s+(?:uninstall|delete|upgrade"
            r"|install|rollback)|\bdocker\s+(?:system\s+prune|rm|rmi|volume\s+rm|push)"
            r"|\baws\s+\S+\s+(?:rm|rb|delete|terminate)|\bgsutil\s+(?:-m\s+)?rm|\bgcloud\b.*\bdelete"
            r"|\bnpm\s+(?:publish|unpublish|deprecate)|\btwine\s+upload|\bcargo\s+(?:publish|yank)"
            r"|\bgh\s+(?:release\s+create|repo\s+(?:delete|edit|archive))|\bflyctl?\s+deploy"
            r"|\bvercel\b.*--prod|\bheroku\s+\S+:(?:destroy|reset)|\bsystemctl\s+(?:stop|disable"
            r"|mask|restart)|\bshutdown\b|\breboot\b|\bkill\s+-9|\bpkill\b|\bkillall\b"
        ),
    ),
    (
        "an SQL UPDATE without a WHERE clause",
        _c(r"\bupdate\s+[\w.\"`\[\]]+\s+set\b(?![^;]*\bwhere\b)"),
    ),
    (
        "an SQL statement that changes or destroys data",
        _c(
            r"\bdrop\s+(?:table|database|schema|index|view|column|user|role|collection|trigger"
            r"|function|constraint|if\s+exists)\b|\bdelete\s+from\b|\btruncate\s+(?:table\s+)?[\w\"`]"
            r"|\bupdate\s+[\w.\"`\[\]]+\s+set\b|\binsert\s+(?:or\s+\w+\s+)?into\b|\balter\s+(?:table"
            r"|database|user|role)\b|\bgrant\s+\w+|\brevoke\s+\w+|\breplace\s+into\b|\bmerge\s+into\b"
            r"|\bflushall\b|\bflushdb\b|\bdropdatabase\b|\.(?:drop|remove|deletemany|delete_many"
            r"|deleteone|delete_one|updatemany|update_many)\s*\(|\bvacuum\s+full\b"
        ),
    ),
    (
        "money",
        _c(
            r"[$€£¥₹₽₩₿₺₪₫₴₦₱฿₸₡]\s*\d[\d,.]*(?:\s*(?:k|m|bn)\b)?|\d[\d,.]*\s*(?:k|m|bn|mm)?\s*[$€£¥₹₽₩₿₺₪₫₴₦₱฿₸₡]"
            rf"|\b\d[\d,.]*\s*(?:k|m|bn|mm|thousand|million|billion)?\s*(?:{_CURRENCY_CODES})\b"
            rf"|\b(?:{_CURRENCY_PREFIXES})\s*\d|\b(?:{_CURRENCY_WORDS})\b"
        ),
    ),
    (
        "credentials",
        _c(
            r"(?:_token|_key|_secret|_password|_passwd|_pwd|_apikey|_credentials?)\b"
            r"|\b(?:secret|password|passwd|token|apikey|api_key)_\w+|(?:^|[\s/])\.env\b|\bid_rsa\b"
            r"|\bid_ed25519\b|-----begin|\bsk-[a-z0-9]{6,}|\bghp_\w+|\bxox[bpa]-"
        ),
    ),
    ("an in-place overwrite", _c(r"\bsed\s+-i|\b(?:echo|cat|printf|tee)\b[^|\n]*[^>]>(?!>)\s*\S")),
)

# ---------------------------------------------------------------- words form (masked)

_PROD_WORDS = (
    r"prod|production|prd|live (?:site|system|server|servers|database|db|environment|traffic"
    r"|data|cluster)|the live"
)
_PROD = rf"\b(?:{_PROD_WORDS})\b"
_NON_PROD = (
    r"\b(?:staging|stage|dev|development|test|testing|qa|sandbox|preview|local|localhost"
    r"|my machine|a branch|feature branch|ci)\b"
)
_PUBLIC = (
    r"\b(?:prod|production|prd|live|public|publicly|customers?|clients?|users|everyone|main"
    r"|master|store|app store|play store|npm|pypi|crates|marketplace|world|internet)\b"
)
_MONEY_CTX = (
    r"\b(?:customers?|clients?|cards?|accounts?|invoices?|bills?|balance|debts?|fees?|amounts?"
    r"|sums?|funds|money|payments?|dues|deposits?|wallets?|bank|\d+)\b"
)
_CUSTOMER_THING = (
    r"\b(?:customers?|clients?|users?|accounts?|subscriptions?|orders?|contracts?|memberships?"
    r"|bookings?|reservations?|plans?|licen[cs]es?|seats?|tenants?|organi[sz]ations?|orgs?"
    r"|workspaces?|trials?|polic(?:y|ies)|deals?|shipments?|renewals?|domains?)\b"
)
_AUDIENCE = (
    r"\b(?:customers?|clients?|users|subscribers?|public|publicly|everyone|everybody|all staff"
    r"|all hands|whole (?:company|team|org)|company|externals?|external|outsiders?|partners?"
    r"|vendors?|suppliers?|investors?|press|media|journalists?|regulators?|twitter|x com|linkedin"
    r"|facebook|instagram|mastodon|bluesky|reddit|hacker news|hn|community|forum|blog|status page"
    r"|website|social|mailing list|upstream|github|stack overflow|support|helpdesk|board|ceo"
    r"|recipients?|contacts|leads|prospects|audience|followers|general|announcements|world"
    r"|internet|the list|all users|every user|newsletter)\b"
)

# (family, marker, context that must also be present for the marker to count, or None)
_WORD_FAMILIES: tuple[tuple[str, re.Pattern[str], re.Pattern[str] | None], ...] = (
    (
        "a push or a force",
        _c(
            r"\b(?:force ?push\w*|push|pushes|pushed|pushing|forc(?:e|ed|es|ing|ibly)"
            r"|merg(?:e|es|ed|ing) (?:\w+ ){0,3}(?:into|to|in|onto)"
            r" (?:main|master|trunk|release|prod\w*|live)"
            r"|land(?:s|ed|ing)? (?:\w+ ){0,3}(?:on|in|into) (?:main|master|trunk)"
            r"|commit\w* (?:\w+ ){0,2}(?:to|on|into) (?:main|master|trunk)"
            r"|sync\w* (?:\w+ ){0,2}(?:to|with) (?:origin|remote|upstream|main|master))\b"
        ),
        None,
    ),
    (
        "deleting or destroying something",
        _c(
            r"\b(?:delet\w*|undelet\w*|remov(?:e|es|ed|ing|al|als)|rm|rmdir|del|unlink\w*"
            r"|wip(?:e|es|ed|ing)|wipeout|eras(?:e|es|ed|ing|ure)|nuk(?:e|es|ed|ing)|purg(?:e|es|ed|ing)"
            r"|truncat\w*|drop|drops|dropped|dropping|destr(?:oy|oys|oyed|oying|uction|uctive)"
            r"|obliterat\w*|shred\w*|expung\w*|prun(?:e|es|ed|ing)|discard\w*|trash(?:ed|es|ing)?"
            r"|scrap|scrapped|scrapping|zap|zapped|annihilat\w*|eradicat\w*|clear (?:out|down"
            r"|all|the|everything|every|it|them|its)|clearing|cleanup|clean (?:up|out)"
            r"|cleaning (?:up|out)|get rid of|tear(?:ing)? down|teardown|tore down"
            r"|decommission\w*|deprovision\w*|terminat(?:e|es|ed|ing|ion)|kill|kills|killed"
            r"|killing|uninstall\w*|empty(?:ing)? (?:the|out)|reset|resets|resetting"
            r"|factory reset|rewrit\w* (?:\w+ )?history|squash\w*|revert\w*|roll(?:ing|ed)? ?back"
            r"|rollback|rollbacks|reformat\w*|format(?:ting)? the (?:disk|drive|partition|volume"
            r"|server|machine|database)|unpublish\w*|retract\w*|dispose\w*|scrub\w*"
            r"|zero(?:es|ed|ing)? out|blow(?:ing|n)? away|flush\w*|throw(?:ing|n)? (?:away|out)"
            r"|toss|tossed|tossing|nix|nixed|axe|axed|cull\w*|raze\w*|evict\w*|do away with)\b"
        ),
        None,
    ),
    (
        "deploying, releasing or publishing",
        _c(
            r"\b(?:deploy\w*|redeploy\w*|ship|ships|shipped|shipping|releas(?:e|es|ed|ing)"
            r"|publish\w*|republish\w*|go(?:es|ing)? live|went live|golive|launch\w*"
            r"|roll(?:ing|ed|s)? ?out|rollout|promot(?:e|es|ed|ing)|cut (?:a |the )?release"
            r"|hotfix\w*|cutover|cut over|make (?:it |this )?(?:available|live)|go to prod\w*)\b"
        ),
        None,
    ),
    (
        "sending to customers or the public",
        _c(
            r"\b(?:e ?mail(?:s|ed|ing)?|mail(?:s|ed|ing)?|mailout|tweet\w*|newsletter\w*|announc\w*"
            r"|broadcast\w*|mass mail|blast(?:s|ed|ing)?|sms|text message|press release|mailshot"
            r"|spam\w*)\b"
        ),
        None,
    ),
    (
        "sending to customers or the public",
        _c(
            r"\b(?:send\w*|sent|post|posts|posted|posting|shar(?:e|es|ed|ing)|notif(?:y|ies|ied|ying"
            r"|ication|ications)|messag(?:e|es|ed|ing)|dm|reply|replies|respond\w*|forward\w*"
            r"|contact\w*|reach(?:ing)? out|submit\w*|upload\w*|leak\w*|cc|bcc|ping|tell|inform\w*"
            r"|write to|call)\b"
        ),
        _c(_AUDIENCE),
    ),
    (
        "paying, refunding or moving money",
        _c(
            r"\b(?:pay|pays|paid|paying|payment\w*|payout\w*|repay\w*|prepay\w*|refund\w*"
            r"|reimburs\w*|remit\w*|invoic\w*|purchas\w*|buy|buys|buying|bought|spend|spends"
            r"|spending|spent|donat\w*|withdraw\w*|wire (?:transfer|money|funds|the|it)"
            r"|top up|topup|subscrib\w*"
            r"|upgrade (?:the |our |my )?(?:plan|subscription|tier|account)"
            r"|place (?:the |an |a )?order|credit card|debit card|bank (?:account|transfer|details)"
            r"|iban|swift code|routing number|payroll|salary|salaries|bonus|bonuses|money|funds"
            r"|cash|crypto|bitcoin|stripe|paypal|venmo|escrow|expens(?:e|es|ed)|billing|tip the"
            r"|bid|bids|bidding|compensat\w*|invest|invests|invested|investing|investment\w*|sponsor\w*"
            r"|budget\w*|pric(?:e|es|ed|ing)|discount\w*|coupons?|fund|financ\w*)\b"
        ),
        None,
    ),
    (
        "paying, refunding or moving money",
        _c(
            r"\b(?:charg(?:e|es|ed|ing)|settl(?:e|es|ed|ing|ement)|transfer\w*|wire|wired|bill"
            r"|bills|billed|credit|debit|approve|process|send|move|release|collect)\b"
        ),
        _c(_MONEY_CTX),
    ),
    (
        "credentials or secrets",
        _c(
            r"\b(?:passwords?|passwd|pwd|passphrases?|passcodes?|secrets?|credentials?|creds"
            r"|api ?keys?|apikeys?|access ?keys?|private ?keys?|secret ?keys?|ssh ?keys?"
            r"|signing ?keys?|encryption ?keys?|gpg ?keys?|pgp ?keys?|master ?keys?|root ?keys?"
            r"|licen[cs]e ?keys?|deploy ?keys?|keys? (?:to|for) (?:prod\w*|the server|the database"
            r"|aws|gcp|azure)|tokens?|bearer|oauth|jwt|session (?:cookies?|ids?)|cookies?|otp"
            r"|2fa|mfa|totp|one time (?:codes?|passwords?)|recovery (?:codes?|phrase|key)"
            r"|seed phrase|mnemonic|pin code|pin number|keychain|keystore|keyring|vault|kms|pem"
            r"|pfx|p12|certificates?|certs?|dotenv|env file|login details|sign in details"
            r"|security questions?|rotat(?:e|es|ed|ing|ion)|rekey\w*)\b"
        ),
        None,
    ),
    (
        "overwriting something",
        _c(
            r"\b(?:overwrit\w*|over write\w*|clobber\w*|write over|replac(?:e|es|ed|ing)"
            r" (?:the |all |every |existing |current |our |my )*(?:file|files|contents?|data"
            r"|database|db|config\w*"
            r"|table|tables|records?|rows?|values?|settings|env|production|prod|backups?|image"
            r"|binary|lockfile|history|branch)|in place|force write)\b"
        ),
        None,
    ),
    (
        "granting access or changing permissions",
        _c(
            r"\b(?:grant\w*|give (?:\w+ ){0,3}(?:access|permissions?|rights|admin|ownership|write"
            r"|role|keys?)|giving (?:\w+ ){0,3}access|invit(?:e|es|ed|ing|ation|ations)"
            r"|add(?:ing)? (?:\w+ ){0,3}(?:as )?(?:a |an )?(?:collaborators?|admins?|owners?"
            r"|maintainers?|guests?|contractors?)|make (?:it |this |them |the \w+ )?(?:public"
            r"|world readable|open)|made public|public (?:repo|repository|link|bucket|access)"
            r"|visibility|open source (?:it|this)|anyone with the link|permissions?|perms|acl|acls"
            r"|iam|rbac|privileges?|sudoers|allowlist\w*|whitelist\w*|firewall|security groups?"
            r"|0 0 0 0|elevat\w*|admin rights|owner rights|ownership|revok\w*|unprotect\w*"
            r"|expos(?:e|es|ed|ing)|open (?:the |a )?port|disabl\w* (?:\w+ ){0,2}(?:2fa|mfa|auth\w*"
            r"|security|ssl|tls|https|firewall|logging|audit\w*|protection|checks|ci|encryption)"
            r"|as root|root access|impersonat\w*|share (?:it |this |the \w+ )?(?:publicly"
            r"|with anyone|with everyone|with outsiders?|externally))\b"
        ),
        None,
    ),
    (
        "cancelling a customer's thing",
        _c(
            r"\b(?:cancel\w*|deactivat\w*|suspend\w*|unsubscrib\w*|close|closes|closing|closed"
            r"|ban|bans|banned|banning|block|blocks|blocked|blocking|downgrad\w*|void|voids|voided"
            r"|freez\w*|froze|frozen|lock|locks|locked|locking|offboard\w*|churn\w*|end|ends|ending"
            r"|stop|stops|stopped|stopping|pause|paused|pausing|disabl\w*)\b"
        ),
        _c(_CUSTOMER_THING),
    ),
    (
        "changing production",
        _c(_PROD),
        _c(
            r"\b(?:chang\w*|modif\w*|updat\w*|edit\w*|migrat\w*|restart\w*|reboot\w*|stop\w*"
            r"|shut\w* down|shutdown|run|runs|running|ran|execut\w*|appl(?:y|ies|ied|ying)|alter\w*"
            r"|patch\w*|scal(?:e|es|ed|ing)|configur\w*|toggl\w*|flip\w*|enabl\w*|disabl\w*"
            r"|turn(?:ed|ing)? (?:on|off)|switch\w*|seed\w*|load\w*|import\w*|fail ?over\w*"
            r"|touch\w*|write|writing|set|setting|backfill\w*|reindex\w*|resiz\w*|upgrad\w*"
            r"|downgrad\w*|install\w*|move|moving|rename\w*|fix|fixing|test|testing)\b"
        ),
    ),
    (
        "signing or accepting an agreement",
        _c(
            r"\b(?:sign(?:s|ed|ing)? (?:the |this |an? |our )?(?:[a-z0-9]+ ){0,2}(?:contract"
            r"|agreement|nda|lease|offer"
            r"|deal|terms|document|paperwork|petition|off on)|accept\w* (?:the |this |their |an? )?"
            r"(?:offer|terms|contract|agreement|deal|quote|invitation)|agree\w* to (?:the )?"
            r"(?:terms|contract|conditions|deal)|e ?sign\w*|docusign|legally binding)\b"
        ),
        None,
    ),
    (
        "something the question itself says cannot be undone",
        _c(
            r"\b(?:irreversibl\w*|irrevocabl\w*|permanent|permanently|cannot be undone"
            r"|can t be undone|cant be undone|can not be undone|no going back|no way back"
            r"|point of no return"
            r"|unrecoverabl\w*|non ?recoverable|destructive|one way door|forever|for good"
            r"|hard delete)\b"
        ),
        None,
    ),
)
_DEPLOY_FAMILY = "deploying, releasing or publishing"
_CODE_MARKERS = tuple((family, _Markers(p, wrapped=False)) for family, p in _CODE_FAMILIES)
_WORD_MARKERS = tuple(
    (family, _Markers(p, wrapped=True), needs) for family, p, needs in _WORD_FAMILIES
)
_CODE_STARTS = _Starts(markers for _, markers in _CODE_MARKERS)
_WORD_STARTS = _Starts(markers for _, markers, _ in _WORD_MARKERS)

# ---------------------------------------------------------------- harmless mentions

_TEST_IDENTIFIER = _c(
    r"\btest_[a-z0-9_]+|\b[a-z0-9_]+_tests?\b|\b[\w./-]*\btests?/[\w/.-]+"
    r"|\b[\w-]+\.(?:spec|test)\.[a-z]+\b|\b[\w-]+_test\.[a-z]+"
)
_STOP_IN_PHRASE = (
    r"(?!(?:and|then|to|on|in|into|against|with|for|from|or|but|after|before|also|so|plus)\b)"
)
_TEST_MENTION = _c(
    r"\b(the|a|an|our|my|your|this|these|those|its|all|all the|run|rerun|re run|execute|running"
    r"|fix|fixing|debug|debugging|write|writing|add|adding)"
    rf"((?: {_STOP_IN_PHRASE}[a-z0-9]+){{0,4}}?)"
    r" ((?:unit |integration |e2e |regression |smoke |snapshot |end to end )?"
    r"(?:test suites?|testsuites?|test cases?|tests?|specs?|fixtures?))\b"
)
_DOC_VERB = (
    r"(?:read|reads|reading|review|reviewing|skim|skimming|open|opening|look at|looking at|check"
    r"|checking|proofread\w*|study|studying|summari[sz]\w*|write|writing|draft|drafting|update"
    r"|updating|edit|editing|improve|improving|translate|translating|fix|fixing|go through"
    r"|going through|understand|search|searching|find|finding|tidy|tidying|reword|rewording)"
)
_DOC_MENTION = _c(
    rf"\b({_DOC_VERB}(?:(?: {_STOP_IN_PHRASE}[a-z0-9]+){{1,3}} (?:in|of|from|on|into|to))?"
    r" (?:the |a |an |our |my |your |this |these |those )?)"
    rf"((?:{_STOP_IN_PHRASE}[a-z0-9]+ ){{1,4}}?)"
    r"((?:docs|documentation|doc|guide|guides|readme|notes|runbook|playbook|manual|tutorial"
    r"|changelog|faq|wiki|article|diagram|docstrings?|comments?|typos?|wording)\b)"
)
_CREDENTIAL_FAMILY = "credentials or secrets"


def _masked(words: str) -> str:
    """The words form with risky words that only name a test suite or a document removed."""

    def keep_production(m: re.Match[str]) -> str:
        # Tests run against production are not harmless: "run the prod load tests".
        return m.group(0) if re.search(_PROD, m.group(2)) else f"{m.group(1)} tests"

    words = _TEST_MENTION.sub(keep_production, words)

    def keep_secrets(m: re.Match[str]) -> str:
        if _family_hit(_CREDENTIAL_FAMILY, m.group(2)):
            return m.group(0)
        return f"{m.group(1)}{m.group(3)}"

    return _DOC_MENTION.sub(keep_secrets, words)


def _family_hit(name: str, words: str) -> bool:
    starts = _WORD_STARTS.of(words)
    return any(
        family == name and markers.search(words, starts) for family, markers, _ in _WORD_MARKERS
    )


def _word_marker(words: str) -> Marker | None:
    starts = _WORD_STARTS.of(words)
    for family, markers, needs in _WORD_MARKERS:
        found = markers.search(words, starts)
        if found is None or (needs is not None and not needs.search(words)):
            continue
        if (
            family == _DEPLOY_FAMILY
            and re.search(_NON_PROD, words)
            and not re.search(_PUBLIC, words)
        ):
            continue
        return Marker(family=family, found=found.group(0))
    return None


def find_irreversible(code: str) -> Marker | None:
    """The first irreversible marker in a code-form text, or None when it carries none."""
    starts = _CODE_STARTS.of(code)
    for family, markers in _CODE_MARKERS:
        found = markers.search(code, starts)
        if found is not None:
            return Marker(family=family, found=found.group(0).strip())
    plain = _TEST_IDENTIFIER.sub(" ", code)
    for words in {words_form(plain), deobfuscated_form(plain)}:
        marker = _word_marker(_masked(words))
        if marker is not None:
            return marker
    return None


def without_harmless_mentions(code: str) -> str:
    """The words form with test identifiers said as "tests" and harmless mentions masked."""
    return _masked(words_form(_TEST_IDENTIFIER.sub(" tests ", code)))


_SENSITIVE = _c(
    rf"\b(?:{_PROD_WORDS}|live|customers?|clients?|public|publicly|billing|payroll|legal"
    r"|everyone|external|outsiders?|personal data|pii|gdpr)\b"
)


def mentions_sensitive_target(words: str) -> bool:
    """Production, customers, the public, billing: a routine kind never answers about these."""
    return _SENSITIVE.search(words) is not None
