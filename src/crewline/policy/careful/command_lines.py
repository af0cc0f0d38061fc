"""What a command line in a question does not do, though its words would say so: a package
manager's cache cleared (`npm cache clean --force`), a plain push to the asker's own branch,
and a command asked about rather than run ("What does `rails db:drop` do?"); and one thing it
does though no act's word says so: a migration tool's task that applies the pending
migrations (`rails db:migrate`). The command finders (``finding``) read each act; these say
where none of them counts, or where one does."""

from __future__ import annotations

import re

from crewline.policy.acts import (
    MIGRATION_RUN_DOES,
    MIGRATION_RUNS,
    PACKAGE_CACHE_CLEARS,
)
from crewline.policy.careful.governors import pronoun_step_after
from crewline.policy.careful.positions import verb_position
from crewline.policy.careful.words import EXEC_VERBS, PREPOSITIONS, PROCEED_VERBS, WH
from crewline.policy.clauses import Shape
from crewline.policy.wording import word_set

# What a question about a command line asks for itself: a secret's value ("What does `cat
# .env` print?" asks for what the file holds) and a sum of money.
ASKED_FOR_ITSELF = frozenset({"credentials", "money"})


def code_start(shape: Shape, k: int) -> int:
    """The first word of the code span word ``k`` stands in (``k`` itself outside code)."""
    words = shape.words
    while k > 0 and words[k].code and words[k - 1].code and "`" not in shape.gap(k):
        k -= 1
    return k


def cleared_spans(shape: Shape, code: str) -> list[tuple[int, int]]:
    """Where a command line does nothing careful that its words would otherwise be read as:
    a package manager's download cache cleared, `--force` and all ("`npm cache clean
    --force`"), and a plain push to the asker's own branch ("`git push` to my own feature
    branch"). No act found inside one counts; an act beside it on the line (`&& rm -rf …`)
    or elsewhere in the question still does."""
    return _cache_clears(code) + _pushes_to_own_branch(shape, code)


# Where a command line ends: its code span's backtick, a chain (`&&`, `||`, `;`, `|`), or
# the clause's punctuation in prose.
_LINE_END = re.compile(r"`|&&|\|\||[;|,?!\n]|\.(?:\s|$)")
# What a cache clear may carry on its line and still do nothing else: flags.
_ONLY_FLAGS = re.compile(r"(?:\s+-{1,2}[\w-]+)*\s*")


def _cache_clears(code: str) -> list[tuple[int, int]]:
    """The package manager's cache clears in ``code`` ("`npm cache clean --force`", "pip cache
    purge"), each from its opening backtick to its line's end, when nothing but flags follows
    it there. Its cache is a copy of what the registry keeps, fetched again by the next
    install: nothing is lost, and `--force` there guards nothing else."""
    spans = []
    for m in PACKAGE_CACHE_CLEARS.finditer(code):
        end = _LINE_END.search(code, m.end())
        stop = end.start() if end else len(code)
        if _ONLY_FLAGS.fullmatch(code[m.end() : stop]) is None:
            continue  # `npm cache clean --force rm -rf …`: more than the cache
        start = m.start()
        while start > 0 and code[start - 1] in " `":
            start -= 1
        spans.append((start, stop + 1))
    return spans


# A push forced, a tag or everything pushed, a refspec onto another branch, or a shared
# branch named: never a plain push of the asker's own branch.
_PUSH_BEYOND_ITS_BRANCH = re.compile(
    r"(?<![\w-])-\w*f\w*\b|--force|--tags|--all|--mirror|--delete|\btags?\b|\s:\S|"
    r"\b[\w/-]+:[\w/-]+|\b(?:main|master|trunk|release|prod|production|develop|staging|live"
    r"|shared|public|mirror|upstream|everyone)\b|\bforce"
)
# The asker's own branch, said as such: "my own feature branch", "my branch fsw-notes".
# Only a target said ("to my own feature branch", "it's my own branch"): "push my branch"
# says where from, not where to.
_OWN_BRANCH = re.compile(
    r"\b(?:to|onto|into|is|it'?s|it\s+s)\s+my\s+(?:own\s+)?"
    r"(?:(?:feature|topic|personal|work|wip|private)\s+)?branch\b"
)
# A shared thing set aside after a negation ("not main", "no force"): named only to be kept
# out of the push.
_SET_ASIDE = re.compile(r"\b(?:not|no|never|nor|without)\s+(?:to\s+|on\s+|a\s+)?$")


def _pushes_to_own_branch(shape: Shape, code: str) -> list[tuple[int, int]]:
    """The plain pushes (`git push`, or "push" as a verb) in a sentence that says where they
    go is the asker's own branch ("Can I `git push` to my own feature branch fsw-notes? not
    main, no force"): only the asker's commits land, on a branch nobody else builds on, and
    nothing is rewritten or discarded. The push's sentence and the one after it are read for
    a force, a tag, a refspec or a shared branch, which keep it careful, unless a negation
    sets it aside ("not main")."""
    spans = []
    for w in shape.words:
        if w.text != "push" or (not w.code and not verb_position(shape, w.index)):
            continue
        if w.code and (w.index == 0 or shape.words[w.index - 1].text != "git"):
            continue  # in code only `git push` is the push
        sentences = [n for n in (w.sentence, w.sentence + 1) if n < len(shape.sentences)]
        said_from = shape.words[w.index - 1].start if w.code else w.start
        said_to = max(shape.words[shape.sentences[n].end - 1].end for n in sentences)
        said = code[said_from:said_to]
        if _OWN_BRANCH.search(said) is None or any(
            _SET_ASIDE.search(said[: x.start()]) is None
            for x in _PUSH_BEYOND_ITS_BRANCH.finditer(said)
        ):
            continue
        spans.append((said_from, w.end))  # the push alone: any other act still counts
    return spans


# The helping verbs a question about a command opens with ("What does `rails db:drop` do?",
# "Will `flyway clean` drop the views?", "Is `rails db:drop` reversible?").
_ASKING_AUXILIARIES = word_set("do does did will would is")
# What a question says of a command it asks about: never a leave to run it ("Is `db:drop` ok
# now?", "Would `flyway clean` be fine?").
_PROPERTIES = word_set(
    """reversible irreversible destructive idempotent recoverable undoable dangerous risky
    safe slow"""
)
_LEAVE_WORDS = word_set("ok okay fine alright good allowed acceptable cool right")
_ASKING_WH = WH | word_set("why")


def asked_about(shape: Shape, first: int) -> bool:
    """Is the command line starting at word ``first`` the subject of a question about it — a
    question word, then a helping verb and the command ("What does `rails db:drop` do?", "What
    flags does `liquibase dropAll` take?", "How does `flyway clean` work?"), or a helping verb
    opening the sentence ("Does `rails db:setup` wipe the rows?", "Is `rails db:drop`
    reversible?")? Then it is asked about, not run — unless anything after it in its sentence
    runs, goes on or asks leave ("Is `flyway clean` safe to run now?", "Is `db:drop` ok?"), or
    a later step does something to it by a pronoun ("… do? Run it after.")."""
    words = shape.words
    if first == 0 or words[first - 1].sentence != words[first].sentence:
        return False
    aux = words[first - 1]
    if aux.text not in _ASKING_AUXILIARIES:
        return False
    before = [w for w in words[: aux.index] if w.sentence == aux.sentence]
    if before and not (
        before[0].text in _ASKING_WH and all(not w.clause_start for w in before[1:])
    ):
        return False  # "Run it and what does …": only a question word may lead the helper
    # what follows it, to the question's end: "Does `db:drop` work on the ward db? go"
    after = [w for w in words[first + 1 :] if not w.code]
    if aux.text == "is" and not (after and after[0].text in _PROPERTIES):
        return False  # "Is `db:drop` the next step?": a thing said to be, not asked about
    if any(
        w.text in _LEAVE_WORDS
        or (
            w.lemma in EXEC_VERBS | PROCEED_VERBS
            and w.lemma != "do"
            and verb_position(shape, w.index)
        )
        or (
            w.text == "do" and w.index != after[-1].index and not _closes_a_question(shape, w.index)
        )
        for w in after
    ):
        return False
    return not pronoun_step_after(shape, first)


def _closes_a_question(shape: Shape, k: int) -> bool:
    """Is the "do" at ``k`` the main verb of "what does X do", a preposition or a clause's
    end after it ("what would `mix ecto.reset` do to the herd table?")?"""
    nxt = shape.words[k + 1] if k + 1 < len(shape.words) else None
    return (
        nxt is None
        or nxt.clause_start
        or nxt.sentence != shape.words[k].sentence
        or (nxt.text in PREPOSITIONS)
    )


def migration_run_does(shape: Shape, k: int, span: list[int]) -> str | None:
    """What word ``k`` of the command line ``span`` does as a migration tool's task that
    applies the pending migrations (`rails db:migrate`, `alembic upgrade head`, `goose up`),
    named after one of its tools: it changes the database's schema, as "run the migration"
    does in prose. Never the tool's own name, a flag, nor a task whose name goes on to
    another: the part after it decides (`db:migrate:status` reads, `migrate:fresh` drops,
    `migrate:latest` applies)."""
    words = shape.words
    tools = MIGRATION_RUNS.get(words[k].text)
    if tools is None or k == span[0] or shape.gap(k).endswith("-"):
        return None
    if not tools & {words[j].text for j in span if j < k}:
        return None
    if k + 1 in span and shape.gap(k + 1) in (":", "."):
        return None
    return MIGRATION_RUN_DOES
