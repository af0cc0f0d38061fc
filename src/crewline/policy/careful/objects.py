"""The act's object and phrases: where the object of an act ends, whether it shows what the act
needs to count (production, shared things, everyone, the asker's own place), and the words a
reason quotes for it, in the asker's own wording."""

from __future__ import annotations

import collections
import contextvars
import itertools
import re

from crewline.policy.acts import (
    AUDIENCE,
    CUSTOMER_THINGS,
    MONEY_WORDS,
    NON_PROD,
    OUTSIDE_PARTIES,
    PAYMENT_SCHEMES,
    PROD_WORDS,
    PUBLIC_TARGETS,
    REGISTRIES,
    SPELLED,
    WordAct,
    third_person,
)
from crewline.policy.careful.commitments import commits_to_party
from crewline.policy.careful.operations import (
    asset_retired,
    committed_to,
    fires_a_machine,
    operation_named,
)
from crewline.policy.careful.positions import (
    acting_clause_end,
    caused_by,
    causes,
    clause_end,
    clause_of,
    verb_position,
)
from crewline.policy.careful.words import (
    ACCESS_OBJECT,
    ACTS_BY_FIRST,
    AGREEMENT_OBJECT,
    ARTIFACTS,
    CHANGES,
    CLAUSE_SUBJECTS,
    CODE_WORDS,
    COPULAS,
    DATA_OBJECT,
    DETERMINERS,
    DOC_HEADS,
    HELPING_VERBS,
    LIVE_NOUNS,
    OBJECT_STOP,
    ORDINALS,
    PREPOSITIONS,
    PRONOUNS,
    SHARED_BRANCH,
    SHARED_THINGS,
    TIME_WORDS,
    VERB_LIKE,
    WH,
)
from crewline.policy.clauses import BOUNDARY_WORDS, FILLERS, Shape, Word
from crewline.policy.wording import deobfuscated_form, word_set

# The question as written (same length as its code form, case kept) while one is read, so a
# reason quotes the asker's words; None when its normal form is not the same length.
DISPLAY: contextvars.ContextVar[str | None] = contextvars.ContextVar("display", default=None)


def object_end(shape: Shape, start: int, *, limit: int = 8) -> int:
    """One past the last word of the object that starts at word ``start``."""
    words = shape.words
    end = start
    if 0 < start < len(words) and words[start].sentence != words[start - 1].sentence:
        return start  # "Merge? Tests pass.": the next sentence is not the object
    while end < len(words) and end - start < limit:
        w = words[end]
        if end > start and (w.clause_start or w.sentence != words[start].sentence):
            break
        if not w.ident and (
            w.text in TIME_WORDS or w.text in OBJECT_STOP or w.text in BOUNDARY_WORDS
        ):
            break  # a stop word inside a name ("please_table", "then_logs") is the name's
        end += 1
    return end


def object_lemmas(shape: Shape, start: int, *, limit: int = 8) -> set[str]:
    """The object's lemmas, without a relative clause's subject and verb ("the helper
    functions I wrote": no "write"; "the account I created admin rights": "admin rights")."""
    words = shape.words[start : object_end(shape, start, limit=limit)]
    skipped = {
        k + n for k, w in enumerate(words) if k > 0 and w.text in CLAUSE_SUBJECTS for n in (0, 1)
    }
    return {w.lemma for k, w in enumerate(words) if k not in skipped}


def _clause_lemmas(shape: Shape, i: int) -> set[str]:
    """The lemmas of word ``i``'s clause."""
    return {w.lemma for w in clause_of(shape, i)}


# The words of an act that say where it goes, never a place the question names.
_OWN_LIVE: collections.defaultdict[tuple[str, ...], frozenset[str]] = collections.defaultdict(
    frozenset, {("go", "live"): frozenset(["live"]), ("make", "live"): frozenset(["live"])}
)


# What a board of people is named with ("the company board", "the advisory board").
_PEOPLES_BOARDS = word_set("company advisory executive supervisory school governing our their")


def _people_board(shape: Shape, i: int) -> bool:
    """Is a "board" in word ``i``'s clause one of people — "the board", "the company
    board", "the board of directors" — not one named for what it shows ("the grafana
    board", "the jira board")?"""
    for w in clause_of(shape, i):
        if w.lemma != "board":
            continue
        k = w.index
        before = shape.words[k - 1] if k > 0 and not w.clause_start else None
        after = shape.words[k + 1] if k + 1 < len(shape.words) else None
        if before is None or before.text in DETERMINERS or before.lemma in _PEOPLES_BOARDS:
            return True
        if after is not None and after.text == "of" and not after.clause_start:
            return True
    return False


# What marks a run, a job or a message as the asker's own, which nobody else counts on ("my
# local test run", "the draft").
_ASKERS_OWN = word_set("my mine own local locally localhost laptop draft")
# What marks a thing as the asker's own machine's ("my local venv", "the docker container").
_OWN = word_set("local localhost my dev laptop docker container")
# The ending of a file of source code or prose a person edits: a path ending in one names
# code ("reformat `moderation/rules.py`"); data files (.sql dumps, .csv, .db) are not.
SOURCE_ENDINGS = word_set(
    "py pyi ts tsx js jsx mjs go rs rb java kt swift c h cc cpp hpp cs php md rst"
)


def _source_file(shape: Shape, start: int) -> bool:
    """Does the object that starts at word ``start`` name a file of source code by its path
    ("`moderation/rules.py`", "src/app/main.ts")?"""
    words = shape.words[start : object_end(shape, start, limit=6)]
    return any(
        w.text in SOURCE_ENDINGS
        and k > 0
        and w.ident
        and words[k - 1].ident
        and shape.text[w.start - 1] == "."
        for k, w in enumerate(words)
    )


# Verbs whose object is a word to say ("answer APPROVE", "reply approve").
_SAY_VERBS = word_set("answer reply respond say type write output print return")

# What a rotation rotates when it is a credentials act, besides the secrets' own words.
_ROTATED_SECRETS = word_set("key keys cert certs certificate certificates credential")


# What a merge of data points combines, and the statistics it combines them by: "how to
# merge duplicate telemetry rows: `mean` (default) / `last` / `max`?" asks how an analysis
# sums rows up, no branch landed. Records, accounts and customers are no data points (a
# CRM's duplicates merged are gone), and a production word keeps it careful.
_DATA_POINTS = word_set("row reading sample measurement datapoint observation")
_STATISTICS = word_set("mean median sum average avg max min maximum minimum")


def _combines_data_points(shape: Shape, after: set[str]) -> bool:
    """Is the merge one of data points by a statistic the question names, nowhere in
    production?"""
    said = {w.lemma for w in shape.words} | {w.text for w in shape.words}
    return bool(after & _DATA_POINTS) and bool(said & _STATISTICS) and not (said & PROD_WORDS)


# What a customer pays for, and the words by which a clause reaches every one of those who
# pay ("every subscriber's plan", "the plan for all customers", "everyone's tier").
_PLANS = frozenset(["plan", "tier", "subscription", "pricing", "billing"])
_PAYING_EVERYONE = frozenset(
    ["everyone", "everybody", "customer", "subscriber", "member", "player", "client"]
)


def context_holds(
    shape: Shape, i: int, length: int, act: WordAct, money: bool, *, obj: set[str] | None = None
) -> bool:
    """Does the object (or the clause) show what ``act`` needs to count? ``obj``: the
    object's lemmas when it does not follow the act's words (a phrasal verb split by it)."""
    after = object_lemmas(shape, i + length) if obj is None else obj
    clause = _clause_lemmas(shape, i)
    text = shape.text
    match act.needs:
        case None:
            return True
        case "object":
            return bool(after)
        case "verb_object":
            # "bin the stale bread", never "in the recycling bin", "label the bins": a word
            # that is mostly a thing counts only where a verb stands, with its object
            before = shape.words[i - 1].text if i else ""
            return (
                bool(after)
                and verb_position(shape, i)
                and before not in DETERMINERS | ORDINALS
                and not shape.words[i].text.endswith("s")
            )
        case "audience" | "verb_audience" | "caused_audience":
            if act.needs == "caused_audience" and caused_by(shape, i) is None:
                return False  # "the newsletter goes out on which day?": no one makes it
            before = shape.words[i - 1].text if i else ""
            if act.needs == "verb_audience" and (
                not verb_position(shape, i) or before in DETERMINERS | ORDINALS
            ):
                return False  # "the next file in the list": a thing, not filing
            clause_text = text[shape.words[i].start :]
            if _told_to_asker(shape, i + length):
                return False  # "send me the url of the public dashboard": the asker is told
            own = {x.lemma for x in shape.words[i : i + length]}
            if not _people_board(shape, i):
                own.add("board")  # "the grafana board": a dashboard, nobody on it
            # "who do I contact about the outage?": the act's own word is no audience
            return bool((clause - own) & AUDIENCE) or bool(re.search(r"#[a-z][\w-]*", clause_text))
        case "money":
            return (
                money
                or bool(after & MONEY_WORDS)
                or (act.lemmas in _MOVERS and _moved_elsewhere(shape, i, length, after))
            )
        case "payment_scheme":
            return _to_a_payment_scheme(shape, i)
        case "outside_party":  # "report the ring to the police", "get it over to the regulator"
            return _to_an_outside_party(shape, i, length)
        case "direct_debit":  # "the direct debit collection", "the direct-debit run"
            return i > 0 and shape.words[i - 1].lemma == "direct" and not shape.words[i].ident
        case "money_modifier":  # "the direct debit collection", "the card settlement run"
            return _of_money(shape, i, length)
        case "official_filing":
            return _an_official_filing(shape, i)
        case "machine":  # "fire the thrusters"
            return fires_a_machine(shape, i, length)
        case "committed_to":  # "commit EOS-04 to the manoeuvre"
            return committed_to(shape, i)
        case "operation":  # "execute the orbit-raise burn", never "the customer burns 20 GB"
            return operation_named(shape, i)
        case "asset":  # "retire the old storage array", never "retire the flaky test"
            return asset_retired(shape, i, length)
        case "shorter_retention":
            return _retention_cut(shape, i + length)
        case "customer":
            return bool(after & CUSTOMER_THINGS) or _anothers(shape, i + length)
        case "not_own_run":  # "cancel the 07:10 ferry"; "cancel my local test run" is the asker's
            if after & CUSTOMER_THINGS or _anothers(shape, i + length):
                return True
            if not after and obj is None:
                after = object_lemmas(shape, _past_when(shape, i + length))
            if after and after <= PRONOUNS:
                # "find the first ferry and cancel it": whose it is was said before the verb
                after |= {
                    w.lemma for w in shape.sentence_words(shape.words[i].sentence) if w.index < i
                }
            return bool(after) and not (after & _ASKERS_OWN)
        case "shared_branch":
            return bool(clause & SHARED_BRANCH)
        case "not_local":  # "merge the two helper functions" is an edit; "merge the bump" is not
            if after & {"local", "locally"}:
                return False
            if _combines_data_points(shape, after):
                return False  # "merge duplicate rows: `mean` / `max`?": how rows are summed up
            # The words as written too: the lemmatiser reads "fixes" as "fixe".
            said = clause | {w.text for w in shape.words[i : object_end(shape, i + length)]}
            return bool(said & CHANGES) or not (after & (CODE_WORDS | {"feature"}))
        case "not_only_non_prod":
            # the act's own "live" ("go live", "make it live") is no public place it names:
            # "make my branch go live in my dev environment" names only the asker's own
            return not (clause & NON_PROD) or bool(
                (clause - _OWN_LIVE[act.lemmas]) & PUBLIC_TARGETS
            )
        case "data":
            return bool(after & DATA_OBJECT)
        case "storage":
            return _storage_first(shape, i + length)
        case "held_on_a_system":
            return _held_on_a_system(shape, i + length)
        case "access":
            if act.lemmas == ("make",) and causes(shape, i):
                return False  # "make my branch go live": what the branch does, no access given
            args = _command_arguments(shape, i, length)
            if args is not None:
                # "`make test` passed on my branch": a program named in backticks, its object
                # the arguments it is given, never the words after the command
                return bool(args & ACCESS_OBJECT)
            if obj is None:
                after = object_lemmas(shape, i + length, limit=_own_destination(shape, i + length))
            if _a_branch_made(shape, i + length):
                after = after - {"branch"}  # "make a local branch called `x`": a branch made
            return bool(after & ACCESS_OBJECT) and not _told_to_asker(shape, i + length)
        case "not_code":
            return not (
                (obj or object_lemmas(shape, i + length, limit=6)) & CODE_WORDS
                or _source_file(shape, i + length)
            )
        case "agreement":
            return bool(after & AGREEMENT_OBJECT)
        case "commits_to_party":  # "confirm the booking with the caterer"
            return commits_to_party(shape, i, length, capital=_written_capitalised)
        case "registry":
            return bool(clause & REGISTRIES) and not (clause & NON_PROD)
        case "shared_thing":
            return bool(after & SHARED_THINGS) and not (after & _OWN)
        case "not_own":  # "recreate the users table"; "recreate my local venv" is the asker's
            return bool(after) and not (after & (_OWN | {"venv", "virtualenv", "sandbox"}))
        case "everyone":
            wide = {"all", "everyone", "everybody", "customer", "globally", "100", "public"}
            return bool(clause & (wide | PROD_WORDS))
        case "customers_plan":  # "bump everyone's plan to premium": what they pay, changed
            return bool(clause & _PLANS and clause & _PAYING_EVERYONE)
        case "wide_rollout":  # "set the flag to 100%", "ramp the rollout to everyone"
            wide = {"all", "everyone", "everybody", "customer", "globally", "100", "public"}
            return bool(clause & {"flag", "rollout", "traffic", "canary"} and clause & wide)
        case "live_setting":  # "set `iap_price_multiplier` to 0.1 in live for everyone"
            return _reaches_everyone(shape, i) and _sets_a_value(shape, i + length)
        case "in_front_of_audience":  # "put it in front of users"
            before = shape.words[i - 1].text if i else ""
            return before == "in" and bool(clause & AUDIENCE)
        case "public_page":  # "update the status page to say we're down"
            return "statuspage" in after or {"status", "page"} <= after
        case "secret_modifier":  # "the key rotation": what is rotated, said right before
            rotated = shape.words[i - 1].lemma if i else ""
            return rotated in _ROTATED_SECRETS or any(
                a.family == "credentials" for a in ACTS_BY_FIRST.get(rotated, ())
            )
        case "not_said":  # "answer APPROVE": the word to be said, not an approval given
            verb = shape.words[i - 1] if i else None
            return verb is None or not {verb.lemma, deobfuscated_form(verb.text)} & _SAY_VERBS
        case "pr_in_sentence":
            sentence = {x.lemma for x in shape.sentence_words(shape.words[i].sentence)}
            return bool(sentence & {"pr", "pull", "mr", "merge", "changeset", "patch"})
    return True


def _written_capitalised(w: Word) -> bool:
    """Did the asker write the word with a capital (a name: "DHL", "Maersk")?"""
    display = DISPLAY.get()
    return display is not None and display[w.start : w.start + 1].isupper()


def _command_arguments(shape: Shape, i: int, length: int) -> set[str] | None:
    """The lemmas of the arguments a program named in a code span is given ("`make test`":
    {"test"}), when the act's word at ``i`` is that program with arguments after it in the
    same span; None when it is a word of the sentence."""
    words = shape.words
    k = i + length
    if not words[i].code or k >= len(words) or not words[k].code or "`" in shape.gap(k):
        return None
    args = set()
    while k < len(words) and words[k].code and "`" not in shape.gap(k):
        args.add(words[k].lemma)
        k += 1
    return args


# What says a thing is brought into being, not one that is there ("a local branch", "a new
# branch", "a draft branch").
_INDEFINITE = word_set("a an another new")


def _a_branch_made(shape: Shape, start: int) -> bool:
    """Does the object from ``start`` make a new branch ("make a local branch called `x`",
    "open a draft branch `fix/y` locally")? A branch that is not there yet gives nobody
    access; "open the branch to the contractors", "make my branch the new main" name one that
    is, and stay read as before."""
    words = shape.words
    if start >= len(words) or words[start].text not in _INDEFINITE:
        return False
    for k in range(start + 1, min(start + 4, len(words))):
        w = words[k]
        if w.sentence != words[start].sentence or w.clause_start:
            return False
        if w.lemma == "branch":
            return True
        if w.lemma in ACCESS_OBJECT or w.text in PREPOSITIONS:
            return False
    return False


# What is submitted for a person to review, never a payment instruction.
_REVIEWED = word_set("pr prs mr mrs patch diff commit branch ticket issue bug review feedback")


def _to_a_payment_scheme(shape: Shape, i: int) -> bool:
    """Is the verb at ``i`` handing something to a payment scheme: its clause names one
    ("submit this cycle's Bacs file", "send the SEPA batch") or a direct debit ("submit the
    direct-debit file")? What a bank's scheme is given, it pays or collects."""
    if not verb_position(shape, i):
        return False  # "the send button", "the upload page"
    if i + 1 < len(shape.words) and shape.words[i + 1].text in ("me", "us"):
        return False  # "send me the Bacs file spec": the asker is given it
    if object_lemmas(shape, i + 1) & (CODE_WORDS | _REVIEWED):
        return False  # "submit the PR with the SEPA schema fix for review"
    clause = clause_of(shape, i)
    if any(w.lemma in PAYMENT_SCHEMES or w.text in PAYMENT_SCHEMES for w in clause):
        return True
    return any(a.lemma == "direct" and b.lemma == "debit" for a, b in itertools.pairwise(clause))


# What a party is named after "to" with ("to the financial conduct authority", "to our
# auditors", "to HM Revenue's inspectorate"): words of it, up to its head.
_PARTY_STOP = PREPOSITIONS | TIME_WORDS | OBJECT_STOP | word_set("and or but now asap yes ok")


def _to_an_outside_party(shape: Shape, i: int, length: int) -> bool:
    """Is the verb at ``i`` (a verb, not a noun: "the report for the regulator") telling or
    handing its object to a party outside the company: a "to" after it in its clause whose
    phrase's head is one ("report the ring to the police today", "get the return over to the
    regulator", "refer the complaint to the financial ombudsman")? Never to the asker ("report
    back to me"), to a team or a person inside ("flag it to the customer success team": its
    head is the team), nor a "to" that opens a verb ("report it to get the refund moving")."""
    words = shape.words
    end = acting_clause_end(shape, i, length)
    if end is None:
        return False
    for k in range(i + length, end):
        if words[k].text != "to" or words[k].ident:
            continue
        if k + 1 < end and words[k + 1].lemma in VERB_LIKE:
            continue  # "report it to get the refund moving": an infinitive, no party
        head = None
        for w in words[k + 1 : min(end, k + 6)]:
            if w.text in _PARTY_STOP:
                break
            head = w
        if head is not None and head.lemma in OUTSIDE_PARTIES and not head.ident:
            return True
    return False


# What a run of money moves, named before its noun: "the direct debit collection", "the
# premium collection", "the card settlement", "the Bacs settlement".
_PAID = PAYMENT_SCHEMES | word_set(
    """debit premium premiums payment payments card payroll payout refund salary wage wages
    invoice fee fees bill rent cash money fund funds"""
)


def _of_money(shape: Shape, i: int, length: int) -> bool:
    """Is the noun at ``i`` (a collection, a settlement) one of money: a word of money among
    the words before it in its phrase ("the 15 December direct debit collection", "the card
    settlement run") or in the "of" phrase after it ("the collection of this month's
    premiums")? "the customers collection" of a database, "the settlement period" are none."""
    words = shape.words
    start, _ = noun_phrase(shape, i, length)
    said = {w.lemma for w in words[start:i]} | {w.text for w in words[start:i]}
    k = i + length
    if k < len(words) and words[k].text == "of" and not words[k].clause_start:
        said |= object_lemmas(shape, k + 1, limit=5)
    return bool(said & _PAID)


# What is filed with the state when it is handed in: a (tax) return, a declaration.
_FILINGS = word_set("return declaration filing")
# What is not the filing itself yet, or is only tried out.
_NOT_FILED = word_set("draft preview sample dummy mock test template example")


def _an_official_filing(shape: Shape, i: int) -> bool:
    """Is the verb at ``i`` handing in a filing — its object's head, the last word before a
    preposition, a return or a declaration ("submit the VAT return to HMRC", "file the
    customs declaration")? Never a draft or a test one, code or a change for review ("submit
    the PR that fixes the return"), nor what the asker is given ("send me the return")."""
    words = shape.words
    if not verb_position(shape, i) or i + 1 >= len(words):
        return False
    if words[i + 1].text in ("me", "us"):
        return False
    obj = words[i + 1 : object_end(shape, i + 1)]
    head = None
    for w in obj:
        if w.text in PREPOSITIONS and head is not None:
            break
        head = w
    if head is None or head.lemma not in _FILINGS or head.ident:
        return False
    said = {w.lemma for w in obj}
    return not said & (_NOT_FILED | CODE_WORDS | _REVIEWED)


# How long stored data is kept: cut, what falls out of it is deleted.
_RETENTIONS = word_set("retention ttl lifetime expiry expiration")


def _retention_cut(shape: Shape, start: int) -> bool:
    """Is the object that starts at word ``start`` how long data is kept — a retention, a
    TTL, a lifetime, its head before a preposition ("the lake retention for raw EM data",
    "the TTL of the audit rows")? The verbs that ask for it cut it or change it either way
    unsaid; what lengthens it ("extend", "raise") is no such verb."""
    head = None
    kept = False
    for w in shape.words[start : object_end(shape, start)]:
        if w.text in PREPOSITIONS and head is not None:
            break
        kept = kept or (w.lemma in _RETENTIONS and not w.ident)
        head = w
    return (
        head is not None and kept and (head.lemma in _RETENTIONS or head.lemma in _RETENTION_HEADS)
    )


# What a retention is set as ("the retention period", "the TTL setting").
_RETENTION_HEADS = word_set("period policy window setting value time limit rule")


# What a store holds room in: what frees it deletes what filled it.
_STORAGE = word_set("disk disks space storage inode inodes")
# What may stand before the storage freed: "up some", "40 GB of", "more".
_AMOUNT = word_set("up some more much enough of gb tb mb gib tib mib percent")


def _storage_first(shape: Shape, start: int) -> bool:
    """Is the object that starts at word ``start`` storage, its first noun ("free disk",
    "free up some space", "reclaim 40 GB of disk")? Never a thing in another role ("free
    the worker", "free memory"), nor what is saved somewhere ("save the report to disk")."""
    if start >= len(shape.words):
        return False
    if any(w.text in COPULAS for w in clause_of(shape, start) if w.index >= start):
        return False  # "free disk on builder is 12 GB": a state said, the word an adjective
    for w in shape.words[start : start + 5]:
        if w.clause_start and w.index > start:
            return False
        if w.text in DETERMINERS or w.text in _AMOUNT or w.text[:1].isdigit():
            continue
        return w.lemma in _STORAGE and not w.ident and not w.code
    return False


# What a system holds as entries, read by whatever runs on it: a list, a rule set, a table.
_HELD = word_set(
    """list lists table tables rule rules ruleset entry entries record records mapping
    mappings route routes acl acls allowlist blocklist denylist whitelist blacklist zone
    zones catalog catalogue registry roster inventory directory config configuration
    settings policy policies"""
)
# Where on a page or in a document a thing stands, never a system: "on the third line".
_SPOTS = word_set(
    """line lines page pages top bottom left right side screen fly way tab row column cell
    sheet spreadsheet board slide file files folder copy version"""
)


def _held_on_a_system(shape: Shape, start: int) -> bool:
    """Is the object that starts at word ``start`` — or the phrase it adds to or takes from —
    a collection a system holds (a list, a rule set, a table, a configuration), changed
    "on"/"across" the system it lives on: a
    machine named like a host, or a phrase a determiner opens whose head names no document,
    file, spot on a page, branch or the asker's own place ("the target list on the LI
    mediation function", "the routes on the edge firewall"; not "on my branch", "on the
    wiki page", "on the third line")?"""
    words = shape.words
    head = None
    for w in words[start : start + 9]:
        if w.index > start and (w.clause_start or w.sentence != words[start].sentence):
            return False
        if w.text in ("on", "across"):
            held = head is not None and head.lemma in _HELD and not (head.ident or head.code)
            return held and _names_a_system(shape, w.index + 1)
        # "add two entries | to the price table | on …": the phrase before "on" is what holds
        head = None if w.text in PREPOSITIONS else w
    return False


def _names_a_system(shape: Shape, start: int) -> bool:
    """Does the place phrase at ``start`` name a running system (see ``_held_on_a_system``)?"""
    rest = shape.words[start : start + 6]
    if not rest or rest[0].clause_start:
        return False
    if _host_name(rest):
        return True
    if rest[0].text not in DETERMINERS or rest[0].lemma in _OWN:
        return False
    said: list[Word] = []
    for w in rest[1:]:
        if w.clause_start or w.text in PREPOSITIONS or w.text in OBJECT_STOP:
            break
        said.append(w)
    if not said:
        return False
    plain = DOC_HEADS | _OWN | NON_PROD | SHARED_BRANCH | _SPOTS | TIME_WORDS
    return not any(w.ident or w.code or w.lemma in plain or w.text in plain for w in said)


# The verbs that move a thing to another holder and, without a word of money, still may move
# money or ownership: "transfer it to the agency", "wire it to the supplier".
_MOVERS = frozenset({("transfer",), ("wire",)})
# What is held by an owner, so moved to another it changes hands: "transfer the domain to
# the new registrar", "transfer the repo to the client".
_OWNED = word_set(
    """domain domains repo repos repository repositories org orgs organisation organization
    organisations organizations trademark trademarks copyright patent patents deed title
    shares equity stake stakes property vehicle"""
)
# The endings a domain name is written with ("example.org", "shop.co.uk").
_TLDS = word_set("com org net io dev app co uk de eu fr ch nl ai info biz me us")
# How much a sum comes to, asked before the step that moves it ("how much to transfer").
_AMOUNTS = word_set(
    """much cost costs price share total owe owed due proceeds takings revenue earnings
    donation donations profit profits payout"""
)
# The verbs that only ever move money, said before the step ("what to pay", "the refund").
_PAYING = frozenset(
    a.lemmas[0]
    for acts in ACTS_BY_FIRST.values()
    for a in acts
    if a.family == "money" and a.needs is None and not a.noun and len(a.lemmas) == 1
)
# Words before a step that name nothing it could stand for ("Shall I transfer it …").
_NO_ANTECEDENT = word_set(
    """i we you me us to shall should can could may might will would must do does please pls
    ok okay so then and also just now go ahead yes hey hi quick question"""
)


def _moved_elsewhere(shape: Shape, i: int, length: int, after: set[str]) -> bool:
    """Does "transfer"/"wire" at ``i`` (a verb) move money or ownership though its object has
    no word of money: what changes hands (a domain, a repository, an organisation, a domain
    name) moved to someone ("transfer the domain to the new registrar"), or a pronoun whose
    antecedent is a sum ("work out the fee and wire it to the agency", "figure out how much to
    transfer and transfer it") or is named nowhere before it ("Shall I transfer it to the
    agency?": fail closed)?"""
    words = shape.words
    if not verb_position(shape, i) or words[i].ident or words[i].code:
        return False
    start = i + length
    if start >= len(words) or words[start].sentence != words[i].sentence:
        return False
    obj = words[start : max(start + 1, object_end(shape, start))]
    if (
        "to" in {w.text for w in obj[1:]}
        and "ownership" not in after
        and (
            (after | {w.text for w in obj}) & _OWNED
            or any(w.text in _TLDS and w.ident and shape.text[w.start - 1] == "." for w in obj)
        )
    ):
        return True  # "transfer the domain to …", "transfer example.org to …"
    if obj[0].text not in PRONOUNS or obj[0].ident:
        return False
    if start + 1 < len(words) and words[start + 1].text == "up":
        return False  # "wire it up to the router": a connection made, no payment
    before = [w for w in words[:i] if not w.code]
    said = {w.lemma for w in before} | {w.text for w in before}
    if said & MONEY_WORDS or said & _AMOUNTS:
        return True  # the pronoun stands for a sum named before it
    if any(w.lemma in _PAYING and verb_position(shape, w.index) for w in before):
        return True  # "work out what to pay and transfer it"
    # nothing before it names what it stands for: an unclear object of a money verb
    return all(w.text in _NO_ANTECEDENT | PRONOUNS | DETERMINERS | WH for w in before)


def _past_when(shape: Shape, start: int) -> int:
    """Where the object that starts at word ``start`` begins after the day it is on, said as
    its owner ("tomorrow's site visit", "Friday's shift"): the day is no object."""
    words = shape.words
    if start + 2 < len(words) and words[start].text in TIME_WORDS and words[start + 1].text == "s":
        return start + 2
    if (
        start + 1 < len(words)
        and words[start].text in _BARE_WHEN
        and words[start + 1].text in DETERMINERS
        and not words[start + 1].clause_start
    ):
        return start + 1  # "we confirm now the reservation": a learner's order of words
    return start


# A time said bare between a verb and its object ("confirm now the reservation").
_BARE_WHEN = word_set("now today tonight")


# Whose a thing is when it is another person's: "her jobs", "his reservation".
_THEIR = word_set("her his their")


def _anothers(shape: Shape, start: int) -> bool:
    """Does the object that starts at word ``start`` belong to another person ("cancel all
    her jobs", "suspend his runs")? What is stopped or cancelled of someone else's is theirs
    to lose; "my stuck job" is the asker's own."""
    return any(
        w.text in _THEIR and not w.ident and not w.code
        for w in shape.words[start : object_end(shape, start)]
    )


# Whom a live setting reaches: "all users", "every player", "each customer".
_PEOPLE = word_set(
    """user player customer client account tenant subscriber visitor shopper buyer gamer
    member driver rider guest"""
)
_EVERYONE = word_set("everyone everybody globally worldwide")
_ALL = word_set("all every each")
# Who "everyone" is when it is the team: "for everyone on the team" reaches no user.
_TEAM = word_set("team squad crew channel office staff engineer dev developer colleague")
# Nouns that hold a setting's value ("the price multiplier", "the session timeout").
SETTING_NOUNS = word_set(
    """config configuration setting value flag parameter param variable option multiplier
    rate limit threshold timeout price cap quota level size weight percentage ratio factor
    odds chance reward bonus cost fee"""
)
_WHERE = word_set("in on into to at")


def live_place(shape: Shape, i: int) -> bool:
    """Is word ``i`` "live" named as the place a thing runs: "in live", "on live", "the live
    config", "the live servers"? ("go live" and "make it live" are deploy acts of their own;
    "where does the config live?" is a verb.)"""
    words = shape.words
    if words[i].text != "live" or words[i].ident:
        return False
    # the next word of its clause (a new sentence starts a clause)
    after = words[i + 1] if i + 1 < len(words) and not words[i + 1].clause_start else None
    if after is not None and (
        after.text in LIVE_NOUNS or after.lemma in SETTING_NOUNS or after.code
    ):
        return True
    if i == 0 or words[i - 1].text not in _WHERE:
        return False
    # "in live", "on live for everyone": a place, where no noun follows it
    return after is None or after.text in PREPOSITIONS


def _reaches_everyone(shape: Shape, i: int) -> bool:
    """Does word ``i``'s clause say its change reaches everyone: all users, every player,
    everyone, 100 %, live or production (what production serves, everyone gets: "from 5 to
    3 in the production config")? Never where it also names the asker's own or a
    non-production place ("in my local config", "in staging", "for all the tests"), nor the
    team."""
    clause = clause_of(shape, i)
    lemmas = {w.lemma for w in clause}
    if lemmas & (NON_PROD | _OWN | {"locally", "fixture"}) and not lemmas & PROD_WORDS:
        return False
    for k, w in enumerate(clause):
        nxt = [x.lemma for x in clause[k + 1 : k + 4]]
        if w.text in _EVERYONE:
            if nxt[:1] and nxt[0] in PREPOSITIONS and set(nxt[1:]) & _TEAM:
                continue  # "everyone on the team"
            return True
        if w.text in _ALL and set(nxt) & _PEOPLE:
            return True  # "all users", "every single player", "all our customers"
        if w.text == "100" and ("%" in shape.text[w.end : w.end + 2] or "percent" in nxt[:1]):
            return True
        if live_place(shape, w.index) or (w.text in PROD_WORDS and not w.ident):
            return True
        if _live_thing(clause, k):
            return True  # "to 30 MW on the live plant controller": what everyone runs on
        if _on_a_shared_machine(clause, k):
            return True  # "raise MaxTime to 72h on hpc-ctl01": what everyone's work runs on
    return False


# Where a setting is changed when it is changed on a machine ("on hpc-ctl01", "across the
# cluster"), not in a file or a document ("in config.yaml").
_ON = word_set("on across at")
# What runs for everyone who uses it: a value set on one is in force at once, unreviewed.
_MACHINES = word_set(
    """server servers cluster clusters database databases db host hosts machine machines node
    nodes instance instances controller controllers gateway gateways broker brokers primary
    replica replicas fleet router routers firewall balancer switch device devices appliance
    plc scada"""
)


def _on_a_shared_machine(clause: tuple[Word, ...], k: int) -> bool:
    """Is word ``k`` of a clause that sets a value "on"/"across"/"at" a running machine: one
    named like a host ("on hpc-ctl01", "on web-03", "at INV-14": a name with a digit, glued
    by a dash or ending in digits) or a machine's noun heading its phrase ("on the primary
    database", "across all nodes")? Never a document or ticket named so ("on ticket
    OPS-12", "on PR 482"): the noun before the name says what it is."""
    if clause[k].text not in _ON or clause[k].ident:
        return False
    rest = clause[k + 1 : k + 5]
    at = 0
    while at < len(rest) and rest[at].text in DETERMINERS | _ALL:
        at += 1
    if at == len(rest):
        return False
    first = rest[at]
    if first.lemma in DOC_HEADS:
        return False  # "on the ticket OPS-12", "on PR 482"
    if _host_name(rest[at:]):
        return True
    # the phrase's head: its last word before a preposition or the clause's end
    head = first
    for w in rest[at + 1 :]:
        if w.text in PREPOSITIONS or w.text in _WHERE:
            break
        head = w
    return head.lemma in _MACHINES and not head.ident and not head.code


def _host_name(words: tuple[Word, ...]) -> bool:
    """Do ``words`` start with a machine's name: two letters or more, then a digit, in one
    word or over words glued by dashes ("hpc-ctl01", "web-03", "db01"), never a bare number
    ("on 3 nodes"), a version ("on 8.11") or a percentile ("at p95")?"""
    name = [words[0]]
    for w in words[1:]:
        if not w.dash_prev:
            break
        name.append(w)
    said = "-".join(w.text for w in name)
    return bool(re.fullmatch(r"[a-z]{2,}[a-z0-9-]*\d[a-z0-9]*", said)) and not any(
        w.code for w in name
    )


def _live_thing(clause: tuple[Word, ...], k: int) -> bool:
    """Is word ``k`` of a clause that sets a value "live" said of the thing set, after a
    determiner and before its noun ("the live plant controller", "our live oven line")?
    Any such thing is the one in use, whatever its noun; "live-reload" is one word."""
    w = clause[k]
    return (
        w.text == "live"
        and not w.ident
        and 0 < k < len(clause) - 1
        and clause[k - 1].text in DETERMINERS
        and not clause[k + 1].clause_start
    )


def _sets_a_value(shape: Shape, start: int) -> bool:
    """Does the clause from ``start`` name a setting or the value it is set to: a name in
    code, a number with or without its unit ("to 72h", "to 50m"), or a setting's noun ("the
    price multiplier to 0.1", "the rate limit")?"""
    return any(
        w.code or w.ident or w.text[:1].isdigit() or w.lemma in SETTING_NOUNS
        for w in shape.words[start : clause_end(shape, start)]
    )


def _own_destination(shape: Shape, start: int, limit: int = 8) -> int:
    """How far an access act's object reaches before a destination that is the asker's
    own ("add it | to my alert rule"): what is added to it grants nobody anything."""
    words = shape.words
    for k in range(start, min(start + limit, len(words) - 1)):
        if words[k].clause_start and k > start:
            break
        if words[k].text in ("to", "into", "in") and words[k + 1].text == "my":
            return max(1, k - start)
    return limit


# What the asker may be given to read: a value or a pointer to one, never a right.
_INFO_NOUNS = word_set(
    """link links url urls address name names path location date time number figure value
    id list summary count version port hostname doc docs page"""
)


def _told_to_asker(shape: Shape, at: int) -> bool:
    """Is the giving verb's object, after the asker ("give me", "send us"), a value or a
    pointer to one ("the link to the status page"), so that the asker is told a thing, not
    given a right ("give me access", "give me the key")?"""
    words = shape.words
    if at >= len(words) or words[at].text not in ("me", "us"):
        return False
    k = at + 1
    while k < len(words) and words[k].text in DETERMINERS and not words[k].clause_start:
        k += 1
    return k < len(words) and words[k].text in _INFO_NOUNS and not words[k].clause_start


# Chat filler at a phrase's edge is no part of what is done ("drops the staging table pls").
_CHAT_FILLER = word_set("pls plz please thx thanks thank ty tia")


def _filler(w: Word) -> bool:
    return w.text in _CHAT_FILLER and not w.ident and not w.code


def phrase_of(shape: Shape, start: int, end: int) -> str:
    """The words ``start`` to ``end`` as written (the asker's case where it can be kept),
    without chat filler at either edge."""
    while end > start and _filler(shape.words[end - 1]):
        end -= 1
    while start < end and _filler(shape.words[start]):
        start += 1
    if start >= end:
        return ""
    a, b = shape.words[start].start, shape.words[end - 1].end
    # a name in code quotes said whole: "`iap_price_multiplier`", never half its quotes
    if shape.words[start].code and shape.text[a - 1 : a] == "`":
        a -= 1
    if shape.words[end - 1].code and shape.text[b : b + 1] == "`":
        # closed only where it was opened in the phrase: "makes drop_db", never "drop_db`"
        b += shape.text[a:b].count("`") % 2
    elif shape.text[a : a + 1] == "`" and "`" not in shape.text[a + 1 : b]:
        # a phrase that opens a name in code closes it: "`purge_old_cdrs`", never "`purge"
        close = shape.text.find("`", b)
        b = close + 1 if close != -1 else b
    display = DISPLAY.get()
    said = display[a:b] if display is not None and len(display) == len(shape.text) else None
    if said is None:
        return shape.text[a:b]
    first, _, rest = said.partition(" ")
    if first in ("The", "A", "An", "This", "That", "These", "Those", "My", "Our"):
        said = f"{first.lower()} {rest}"  # mid-sentence in the reason
    return said.replace("**", "").replace("__", "")


def verb_says(shape: Shape, i: int, length: int, verb: str, *, limit: int = 8) -> str:
    start = _past_when(shape, i + length)
    end = said_end(shape, start, object_end(shape, start, limit=limit), limit)
    said = phrase_of(shape, i + length, end)
    named = _antecedent(shape, i, i + length) if said in _BARE_OBJECTS else None
    if named is not None:
        said = f"{said} ({named})"  # "cancels it (the 07:40 ferry)"
    return f"{third_person(SPELLED.get(verb, verb))} {said}".strip()


_BARE_OBJECTS = {"it": False, "them": True}  # the pronoun, and whether it stands for several
_NAMING = word_set("the my our your their this that these those which")


def _antecedent(shape: Shape, i: int, pronoun: int) -> str | None:
    """What the bare pronoun at ``pronoun``, the object of the verb at ``i``, stands for,
    where the question named it before: the nearest noun phrase before the verb that opens
    with a determiner, is no preposition's object and agrees with the pronoun in number
    ("The prod replica is a mess. Wipe it?" → "the prod replica"; "find which ferry leaves
    first and cancel it" → "the ferry"). A verb said in its form ("the job runs") ends the
    phrase; "the fee schedule" goes on. None where the question names nothing so ("Ship
    it?", "keep Python 3.9 in the SDK or drop it": "the SDK" is where, not what)."""
    words = shape.words
    plural = _BARE_OBJECTS[words[pronoun].text]
    for d in range(i - 1, -1, -1):
        if words[d].text not in _NAMING or words[d].ident:
            continue
        if d > 0 and words[d - 1].text in PREPOSITIONS and not words[d].clause_start:
            continue
        if words[d].text == "which":  # "which ferry leaves first": its noun, then its verb
            end = d + 2
        else:
            end = said_end(shape, d + 1, object_end(shape, d + 1, limit=6), 6)
            end = next(
                (
                    k
                    for k in range(d + 1, end)
                    if (words[k].lemma in VERB_LIKE and words[k].text != words[k].lemma)
                    or words[k].text in PREPOSITIONS | COPULAS | DETERMINERS
                ),
                end,
            )
        if end > i or end - d < 2:
            continue
        head = words[end - 1]
        if (head.text != head.lemma and head.text.endswith("s")) == plural:
            named = phrase_of(shape, d + 1, end)
            return f"the {named}" if words[d].text == "which" else phrase_of(shape, d, end)
    return None


def glued(shape: Shape, k: int) -> bool:
    """Is word ``k`` written on to the word before it, with no space between ("14:00",
    "€4,800", "release/2.8", "es-news-prod"): one written token."""
    words = shape.words
    if not 0 < k < len(words):
        return False
    between = shape.text[words[k - 1].end : words[k].start]
    return not any(c.isspace() for c in between)


# Where an object said in a reason may not end: it would end mid-phrase ("… through the").
# "them all", "the two of them both" end whole.
_OPEN_ENDS = (DETERMINERS - word_set("all both each")) | PREPOSITIONS | word_set("and or but")


def said_end(shape: Shape, start: int, end: int, limit: int = 8) -> int:
    """Where the object a reason says ends: never inside a written token — a time, an
    amount, a version, a path or a host cut at its colon, comma, dot or dash ("the 14" of
    "the 14:00 standup"); a token counts once against the limit, as it is read — and never on
    a word that opens what it cut ("… through the")."""
    for _ in range(4):  # each pass counts the tokens the wider object holds
        written_on = sum(glued(shape, k) for k in range(start + 1, end))
        wider = object_end(shape, start, limit=limit + written_on)
        if wider == end:
            break
        end = wider
    if end < len(shape.words) and end > start and glued(shape, end):
        while end < len(shape.words) and glued(shape, end):
            end += 1  # "the 14:00": the time whole, then the object goes on after it
        end = max(end, object_end(shape, end - 1, limit=max(1, limit - (end - 1 - start))))
    while end - 1 > start and shape.words[end - 1].text in _OPEN_ENDS:
        end -= 1
    return end


def noun_phrase(shape: Shape, i: int, length: int) -> tuple[int, int]:
    """The noun phrase around the act's noun at ``i``: back to its determiner, on through
    the nouns after it and one prepositional phrase ("the cleanup of the old s3 buckets",
    "the orders migration", "the cleanup script on the shared nfs volume")."""
    words = shape.words
    start = i
    for j in range(i - 1, max(-1, i - 4), -1):
        w = words[j]
        if words[j + 1].clause_start or w.sentence != words[i].sentence:
            break
        if (
            w.lemma in VERB_LIKE
            or w.text in PREPOSITIONS
            or w.text in WH
            or (w.lemma in ACTS_BY_FIRST and verb_position(shape, j))
        ):
            break
        start = j
        if w.text in DETERMINERS:
            break
    end = i + length
    while end < len(words) and end - (i + length) < 2:
        w = words[end]
        if w.clause_start or w.sentence != words[i].sentence or w.text in PREPOSITIONS:
            break
        if w.lemma in DOC_HEADS | ARTIFACTS:
            end += 1
            break
        break
    if end < len(words) and words[end].text in PREPOSITIONS and not words[end].clause_start:
        end = object_end(shape, end)
    return start, end


def noun_says(shape: Shape, i: int, length: int, *, modifier: bool = False) -> tuple[str, bool]:
    """What the reason says of an act named by a noun, and whether it starts with a verb:
    with the verb that governs it ("runs the data backfill on prod"), "asks for" in a
    question for it ("what is the production database password"), else the phrase alone.
    A ``modifier`` (a participle before its noun) is said with the whole phrase it opens
    ("starts the mailing campaign to all 40k customers")."""
    words = shape.words
    start, end = noun_phrase(shape, i, length)
    if modifier:
        end = said_end(shape, i, object_end(shape, i), 8)
    phrase = phrase_of(shape, start, end)
    clause = []
    for j in range(start - 1, -1, -1):
        if words[j + 1].clause_start or words[j].sentence != words[i].sentence:
            break
        clause.append(j)
    # a verb the gate knows first ("print the private half of the key": print, not
    # "private"), else a word standing where a verb stands
    for known in (True, False):
        for j in clause:
            w = words[j]
            if w.text in WH:
                return f"asks for {phrase}", True
            if w.text in PREPOSITIONS or w.text in FILLERS or w.text in HELPING_VERBS:
                continue
            verb = w.lemma in VERB_LIKE or any(not a.noun for a in ACTS_BY_FIRST.get(w.lemma, ()))
            if verb if known else verb_position(shape, j):
                said = phrase_of(shape, j + 1, end)
                return f"{third_person(w.lemma)} {said}", True
    return phrase, False
