"""What words are, by lemma: the heads that only describe (docs, tests, reports), the artifacts
that run, the verbs that read, run, proceed or edit, and the small closed classes
(determiners, prepositions, subjects, particles) the judgement reads a question with."""

from __future__ import annotations

from crewline.policy.acts import (
    WORD_ACTS,
    WordAct,
)
from crewline.policy.wording import (
    word_set,
)

# Heads whose words only describe: what they name is read or written about, never done.
DOC_HEADS = word_set(
    """test tests testcase suite spec specs fixture mock stub docs doc documentation guide
    readme note notes manual tutorial changelog faq wiki article diagram docstring comment
    typo wording message section chapter page pr diff issue ticket bug report incident
    postmortem retro log example sample hint annotation description summary dashboard draft
    spelling grammar translation screenshot mockup design proposal rfc adr slide deck video
    demo graph chart metric trace flamegraph output error warning stacktrace traceback
    dry_run preview simulation benchmark coverage reference explanation question session
    member agent bot review linter checker analyzer analyser"""
)
# Doc heads under which even production is only read about.
PROD_DOC_HEADS = word_set(
    """docs doc documentation guide readme note notes manual runbook playbook changelog faq
    wiki article diagram report incident postmortem retro dashboard log summary metric
    graph chart trace"""
)
# Things that do something when run: named by an act's word, they do that act when executed.
ARTIFACTS = word_set(
    """script command job endpoint route function method helper module class code codebase
    file flow feature flag option button form screen ui component tool generator workflow
    pipeline guard handler hook webhook service api library package calculator logic path
    cli runbook playbook checklist query statement call worker cron config
    configuration setting prompt modal dialog page template macro rule policy middleware
    controller view model schema validator parser util utility wrapper client sdk plugin
    extension action target recipe alias function test plan build step stage task phase"""
)
# Secrets sit in these: a credential word in front of one names the secrets themselves.
SECRET_HOLDERS = word_set("note notes file files list sheet txt vault store dump export backup env")
READ_VERBS = word_set(
    """read review skim study proofread render preview plot display show print simulate
    inspect check lint
    grep search browse examine explore
    investigate analyze analyse diagnose debug profile benchmark reproduce look summarize
    summarise explain translate understand diff list count compare audit trace watch monitor
    observe verify validate describe outline document annotate typecheck type_check find
    locate identify spot spell learn query view"""
)
# A command line's verb that only reports what is there: a tool's subcommand ("`git status`",
# "`kubectl get pods`", "`ceph df`") or the command itself ("`df -h`", "`SELECT count(*)`").
READING_COMMANDS = word_set(
    """status get show list ls describe df du log logs diff select count cat head tail top
    ps health info inspect version explain stat plan"""
)
EXEC_VERBS = word_set(
    """run rerun execute trigger invoke call start kick launch fire hit apply enable use
    schedule perform do carry process submit restart reboot activate load import seed
    install upgrade downgrade scale resize switch toggle flip set configure operate"""
)
# A thing that includes a unit that is run runs it ("`make all` includes the deploy target").
INCLUDES = word_set("include contain chain wrap bundle")
RUN_UNITS = word_set("target step stage task job recipe phase")
PROCEED_VERBS = word_set(
    """proceed continue go keep resume begin finish complete wrap get press move follow
    stick implement pursue tackle handle"""
)
EDIT_VERBS = word_set(
    """fix update change edit modify refactor rename add write improve comment format tidy
    rewrite adjust tweak draft create make build rebuild compile split extract inline
    simplify clean move bump pin prepare propose sketch outline spec scaffold mock stub"""
)
VERB_LIKE = READ_VERBS | EXEC_VERBS | PROCEED_VERBS | EDIT_VERBS | INCLUDES
SUBJECTS = word_set("i we you he she it they this that there one who which what")
DETERMINERS = word_set(
    """the a an this that these those my our your their its his her some any all every each
    no another other both either s"""
)
PREPOSITIONS = word_set(
    """of for to in on at by with from into onto about against over under through behind
    across around via per as between without within inside outside after before during
    near"""
)
VERB_POSITION_BEFORE = word_set(
    """to i we you please pls plz can could shall should will would may might must let lets
    me us and then ll d also just now first go ahead or but so quickly simply actually
    really gonna wanna be been being get have has had ve already"""
)
ORDINALS = word_set("next last first previous other same each every")
COPULAS = word_set("is are was were be being been")
NEGATORS = word_set("no not never without nothing none neither nor cannot dont don doesn didn won")
PAST_IRREGULAR = word_set(
    """was were had did went ran wrote took made found got sent put built began left saw
    said told gave broke fixed tore torn done gone shipped pushed dropped deleted removed
    paid kept held brought"""
)
PERFECT = word_set("have has had ve already just recently previously earlier")
TIME_WORDS = word_set(
    """now tonight today tomorrow later asap immediately soon first again please yesterday
    afterwards ok okay right yes thanks thx quickly"""
)
OBJECT_STOP = word_set("so because since as unless until while when whenever if that which who")
# A subject after the object opens a relative clause of its own ("the helpers I wrote"): it
# and its verb ("wrote") are no part of the object.
CLAUSE_SUBJECTS = word_set("i we they he she")

CODE_WORDS = word_set(
    """call calls import imports code function functions test tests helper helpers component
    components class classes module modules doc docs type types usage usages api client
    library logging config syntax style linter framework python node typescript javascript
    dependency dependencies package packages endpoint endpoints version handler handlers
    decorator decorators hook hooks snippet snippets"""
)
# What a merge of is a change to the shared code, whatever part of the code it touches: "merge
# the dependency bump", "merge the docs typo fix".
CHANGES = word_set(
    """bump bumps fix fixes change changes update updates upgrade upgrades patch patches hotfix
    hotfixes bugfix bugfixes"""
)
SHARED_BRANCH = word_set(
    "main master trunk release prod production origin remote upstream pr pull mr develop"
)
DATA_OBJECT = word_set(
    """file files content contents data database db config configuration table tables record
    records row rows value values setting settings env production prod backup backups
    snapshot snapshots image binary lockfile history branch dump over onto golden"""
)
ACCESS_OBJECT = word_set(
    """access permission permissions right rights admin ownership owner write role key keys
    collaborator maintainer guest public publicly world readable port 2fa mfa auth
    authentication security ssl tls https firewall logging audit protection encryption sso
    root sudo alert alerts alerting monitoring monitor backup backups paging pager oncall
    rate limit limiting branch contractor intern vendor auditor freelancer consultant
    outsider external"""
)
AGREEMENT_OBJECT = word_set(
    """contract agreement nda lease offer deal term terms document paperwork petition dpa msa
    sow quote invitation condition conditions off"""
)
SHARED_THINGS = word_set(
    """server servers service services cluster clusters database databases db dbs instance
    instances node nodes host hosts machine machines vm vms worker workers queue queues
    pipeline pipelines site website api gateway broker brokers replica replicas primary
    production prod staging environment infra infrastructure fleet everything all index
    indexes indices volume volumes bucket buckets network vpc dns repo repository
    repositories postgres postgresql mysql redis kafka elasticsearch"""
)
LIVE_NOUNS = word_set("site system server servers database db environment traffic data cluster")


def _acts_by_first() -> dict[str, tuple[WordAct, ...]]:
    table: dict[str, list[WordAct]] = {}
    for act in WORD_ACTS:
        table.setdefault(act.lemmas[0], []).append(act)
    return {k: tuple(sorted(v, key=lambda a: -len(a.lemmas))) for k, v in table.items()}


ACTS_BY_FIRST = _acts_by_first()


# The particles of phrasal acts, which may stand after the object ("turn the old cluster
# off", "make the pricing page live", "tear the stack down").
PARTICLES = word_set("off on out down up away back over across live offline online")

PRONOUNS = word_set("it they them this that these those one")

WH = word_set("what which where when who whom whose how whats")
# Prepositions that open a fronted adverbial ("After the last migration, which revision …",
# "In the load test, what p95 …"): the clause after its comma is the sentence's main one.
# A fronted condition ("If …, which …") is not read so: what is done under it may be the act,
# and what holds under it no plain fact.
# What follows a relative "which" as its verb ("…, which took 3 min, …"), never the noun
# of a question word.
AUXILIARIES = word_set("is are was were has have had does did do will would can could")
# Words that stand where a verb stands but only help one ("Can I read …", "Should the bonus
# reset …", "Which port does the gateway listen on?"): never the act a reason names.
HELPING_VERBS = AUXILIARIES | word_set("should shall may might must")
# The helping verbs a main verb follows ("can I read …", "does the gateway listen …"), not a
# copula's "is" ("the next command is overwrite …").
MODAL_VERBS = word_set("can could should shall may might must will would do does did")
IRREGULAR_PAST = word_set("ran took went got found made wrote broke left sent built saw kept came")
FRONTING = word_set(
    """after before in for besides beside during since with without from on at by per
    apart except following until across within"""
)
