"""``crewline eval concierge``: the eval files run through a real crewline.

Each run starts crewline (store, Hub, memory transport, HTTP API) in a temporary data
directory under the chosen policy; the fleet members say their lines first, then each
question is escalated by a member of its own (so no backlog ceiling and no earlier answer
can touch it), and once the concierge has judged everything, each question's outcome is
read back from the index: answered by the concierge (and with what), or not, and whether a
suggestion was on its card (a pick to send, or only why the question needs the human). The
figures are given per category of question (SPEC §4's), with the wrong facts counted apart.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from crewline import crew as crew_admin
from crewline.bot.escalations import EscalationRequest
from crewline.config import Config
from crewline.models import AnsweredBy, AnswerPolicy, EscalationState
from crewline.policy.eval_file import EvalFile, EvalQuestion, Outcome, Summary, score
from crewline.transports.memory import MemoryTransport

__all__ = ["EvalRun", "category_table", "lines_of", "run_eval"]

OWNER = "memory:owner"
DEFAULT_WINDOW = "PT1H"  # a question with a default is a veto window: it needs a deadline


@dataclass(frozen=True, kw_only=True, slots=True)
class EvalRun:
    policy: AnswerPolicy
    runs: list[list[Outcome]]
    name: str = ""  # the file's name, as given on the command line
    llm: str = "off"  # off | right | hostile | confused: the scripted endpoint's mode

    @property
    def summary(self) -> Summary:
        """The summary over every run."""
        return score([o for run in self.runs for o in run])

    def as_json(self, *, questions: bool = True) -> dict[str, Any]:
        """The summary over every run, each run's, and (``questions``) each question's
        outcome in the last run."""
        view: dict[str, Any] = {
            "file": self.name,
            "policy": self.policy.value,
            "llm": self.llm,
            "runs": len(self.runs),
            "summary": self.summary.as_json(),
            "per_run": [score(run).as_json() for run in self.runs],
        }
        if questions:
            view["questions"] = [_outcome_view(o) for o in self.runs[-1]] if self.runs else []
        return view

    def lines(self, *, questions: bool = True) -> list[str]:
        """Each question's outcome in the last run (``questions``), then the summary over
        all runs: a line of totals and a table of the categories."""
        out = [_outcome_line(o) for o in self.runs[-1]] if self.runs and questions else []
        summary = self.summary
        totals = {k: v for k, v in summary.as_json().items() if k != "categories"}
        head = f"{self.name} · " if self.name else ""
        llm = f", llm {self.llm}" if self.llm != "off" else ", offline"
        out.append(
            f"{head}policy {self.policy.value}{llm}, {len(self.runs)} run(s): "
            + ", ".join(f"{k} {v}" for k, v in totals.items())
        )
        out += category_table(summary)
        return out


def category_table(summary: Summary) -> list[str]:
    """The summary's categories as a plain-text table, one line each."""
    rows = [("category", "kind", "answered", "wrong facts", "picks")]
    for c in summary.categories:
        share = f" ({c.answered / c.questions:.0%})" if c.questions else ""
        rows.append(
            (
                c.category,
                "routine" if c.routine else "careful",
                f"{c.answered} of {c.questions}{share}",
                str(c.wrong_facts),
                str(c.suggested),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  " + "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)) for r in rows
    ]


async def run_eval(
    file: EvalFile, *, policy: AnswerPolicy, runs: int = 1, name: str = "", llm: str = "off"
) -> EvalRun:
    """Run ``file`` ``runs`` times under ``policy``; ``llm`` (right | hostile | confused)
    configures the LLM brain against the scripted loopback endpoint of
    ``crewline.ops.evals_llm``."""
    outcomes = [await _one_run(file, policy, llm) for _ in range(runs)]
    return EvalRun(policy=policy, runs=outcomes, name=name, llm=llm)


LLM_KEY_ENV = "CREWLINE_EVAL_LLM_KEY"


@asynccontextmanager
async def _configured(config: Config, file: EvalFile, llm: str) -> AsyncIterator[Config]:
    """``config`` with ``[concierge.llm]`` on the scripted endpoint (served meanwhile)."""
    if llm == "off":
        yield config
        return
    from crewline.app.server import HttpServer
    from crewline.brains import LlmSettings
    from crewline.ops.evals_llm import scripted_app

    os.environ.setdefault(LLM_KEY_ENV, "eval-key")
    async with HttpServer(scripted_app(llm, file), host="127.0.0.1", port=0) as endpoint:
        settings = LlmSettings(
            base_url=f"http://127.0.0.1:{endpoint.port}/v1",
            model=f"scripted-{llm}",
            api_key_env=LLM_KEY_ENV,
            timeout=10.0,
        )
        yield replace(config, concierge_llm=settings)


async def _one_run(file: EvalFile, policy: AnswerPolicy, llm: str = "off") -> list[Outcome]:
    from crewline.app.server import Crewline

    with tempfile.TemporaryDirectory(prefix="crewline-eval-") as tmp:
        base = Config(data_dir=Path(tmp), port=0, transports=(), concierge_answer=policy.value)
        async with (
            _configured(base, file, llm) as config,
            Crewline(config, transports=[MemoryTransport()]) as running,
        ):
            bot, store = running.bot, running.store
            speakers = {}
            for line in file.fleet:
                if line.member not in speakers:
                    created = await crew_admin.add_member(
                        store,
                        slug=line.member,
                        name=line.member,
                        owners=[OWNER],
                        transports=["memory"],
                    )
                    speakers[line.member] = created.session
                await bot.messages.post(speakers[line.member], line.says)
            asked: list[tuple[EvalQuestion, str]] = []
            for index, question in enumerate(file.questions):
                asker = await crew_admin.add_member(
                    store,
                    slug=f"asker-{index}",
                    name=f"Asker {index}",
                    owners=[OWNER],
                    transports=["memory"],
                )
                receipt = await bot.escalations.escalate(asker.session, _request(question))
                asked.append((question, receipt.escalation.id))
            await bot.concierge.idle()
            suggested = {
                e.record_id
                for e in await store.ledger(limit=len(asked) * 4 + 100)
                if e.decision == "suggested"
            }
            return [
                await _outcome(running, q, escalation_id, suggested=escalation_id in suggested)
                for q, escalation_id in asked
            ]


def _request(question: EvalQuestion) -> EscalationRequest:
    return EscalationRequest(
        message=question.ask,
        options=list(question.options) or None,
        deadline=DEFAULT_WINDOW if question.default else None,
        default_action=question.default,
    )


async def _outcome(
    running: Any, question: EvalQuestion, escalation_id: str, *, suggested: bool
) -> Outcome:
    record = await running.store.escalation(escalation_id)
    answered = (
        record.answer
        if record is not None
        and record.state is EscalationState.ANSWERED
        and record.answered_by is AnsweredBy.CONCIERGE
        else None
    )
    kept = await running.store.suggestion(escalation_id) if answered is None else None
    return Outcome(
        question=question,
        answered=answered,
        suggested=kept is not None and bool(kept.text),
        reason_only=kept is not None and not kept.text,
    )


def _outcome_view(o: Outcome) -> dict[str, Any]:
    return {
        "ask": o.question.ask,
        "category": o.question.category,
        "expect": o.question.expect.value,
        "answered": o.answered,
        "wrong_fact": o.wrong_fact,
        "suggested": o.suggested,
    }


def _outcome_line(o: Outcome) -> str:
    got = f"answered {o.answered!r}" if o.answered is not None else "escalated"
    hint = " (suggestion on the card)" if o.suggested else ""
    wrong = " WRONG FACT" if o.wrong_fact else ""
    kind = f"{o.question.category}, " if o.question.category else ""
    return f"[{kind}expect {o.question.expect.value}] {o.question.ask} → {got}{hint}{wrong}"


def lines_of(results: Sequence[EvalRun], *, questions: bool = True) -> list[str]:
    return [line for result in results for line in [*result.lines(questions=questions), ""]]
