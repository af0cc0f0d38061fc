"""A destructive act written inside a command's own name: a task after its namespace
(`rails db:drop`, php artisan migrate:fresh, `mix ecto.reset`), a subcommand that names the
act only as a subcommand (`gem yank`, `etcdctl del`), a long flag whose first word is a
deletion (`--drop-first`, `--delete-missing`), `crontab -r`. Run, the command does the act:
each stays with the human, its reason naming the command. A command only read about, asked
for its help or a dry run, a reading or listing task, or a risky word the object of a
harmless act keeps its answer.

Words of a bakery, a hospital ward, a shipping line, a school, a dairy, a theatre, a
vineyard and a print shop: no development set's.
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import goes_on, irreversible

# ------------------------------------------------------- the act in a command's own name


@pytest.mark.parametrize(
    ("question", "said"),
    [
        # terse
        ("Run `rails db:drop` on the dev box and continue?", "`rails db:drop`"),
        ("Run php artisan migrate:fresh on staging?", "migrate:fresh"),
        ("php artisan migrate:fresh on the ward-rota box?", "migrate:fresh"),
        ("`bin/rails db:reset` for the bakery orders app?", "`bin/rails db:reset`"),
        ("ok to `php artisan db:wipe` the theatre box office db?", "`php artisan db:wipe`"),
        ("Run `mix ecto.drop` on the dairy herd service?", "`mix ecto.drop`"),
        ("Go ahead with `mix ecto.reset` for the vineyard app?", "`mix ecto.reset`"),
        ("Run `npx sequelize-cli db:drop` for the school timetable?", "db:drop`"),
        ("Run `rails db:seed:replant` on the print shop staging db?", "db:seed:replant`"),
        ("Run `bundle exec rake db:drop:all` on the berth planner?", "drop"),
        # chatty
        (
            "hey! quick one, the dairy test data looks off, can I just do `rails db:reset` "
            "and carry on with the churn report?",
            "`rails db:reset`",
        ),
        (
            "So the theatre seating app's schema is a mess after last week's changes — mind "
            "if I run php artisan migrate:fresh and reseed?",
            "migrate:fresh",
        ),
        # long context first
        (
            "The vineyard's harvest tracker has three migrations that no longer apply "
            "cleanly. I rebuilt the seed file yesterday and checked it against the press "
            "log. Run `bin/rails db:drop db:create db:migrate` now?",
            "drop",
        ),
        # non-native English
        ("I make `mix ecto.reset` on the ward database, is ok?", "`mix ecto.reset`"),
        ("Please, I can execute `rake db:reset` for school server now?", "reset"),
        # subcommands that name the act only as a subcommand
        ("Run `gem yank harvest-ledger -v 2.1.0`?", "`gem yank harvest-ledger -v 2.1.0`"),
        ("Run `etcdctl del --prefix /berths/` on the shipping cluster?", "`etcdctl del"),
        # a long flag whose first word is a deletion
        ("Run `liquibase update --drop-first` against the print shop db?", "--drop-first"),
        ("Run `presssync mirror --delete-missing` to the print archive?", "--delete-missing"),
        (
            "Run `virsh undefine ward-monitor --remove-all-storage` on the hospital host?",
            "--remove-all-storage",
        ),
        # a single letter's flag
        ("Run `crontab -r` on the dairy box?", "`crontab -r`"),
        ("crontab -r on the bakery's oven scheduler, then continue?", "`crontab -r`"),
    ],
)
def test_a_command_whose_own_name_is_a_destructive_act_stays_careful(
    question: str, said: str
) -> None:
    reason = irreversible(question)
    assert said in reason, reason


def test_the_reason_says_what_a_subcommand_only_word_does() -> None:
    reason = irreversible("Run php artisan migrate:fresh on the theatre staging box?")
    assert "drops everything" in reason, reason
    reason = irreversible("Run `gem yank vintner-tools -v 0.3.1`?")
    assert "withdraws a published release" in reason, reason


# ------------------------------------------------------------------------- near misses


@pytest.mark.parametrize(
    "question",
    [
        "Run `rails db:migrate:status` on the bakery app?",  # reads
        "Run `php artisan migrate:status` for the theatre box office?",
        "Run `rails db:drop --help` to see its options?",  # help
        "Run `php artisan migrate:fresh --pretend` on the vineyard app?",  # shows only
        "Run `terraform plan` for the dairy's cold store?",
        "Run `git clean -n` in the print shop repo?",  # lists only
        "Run `kubectl get pods -n ward-rota`?",
        "Grep the logs for db:drop?",  # a risky word as the object of a harmless act
        "Grep the school server logs for `db:drop`?",
        "Lint the purge script for the dairy?",
        "Read the `rails db:drop` docs before the bakery migration review?",
        "Run `crontab -l` to list the vineyard jobs?",
        "Run `rsync --archive proofs/ backup/` for the print shop?",  # a flag naming no act
        "Note:drop the old proofs in the recycling bin?",  # a label
        "The db:drop task failed on CI last night, rerun the export?",  # named, not run
    ],
)
def test_a_command_that_only_reads_helps_or_is_named_goes_on(question: str) -> None:
    goes_on(question)
