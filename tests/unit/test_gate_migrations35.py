"""A migration applied by its tool's command line (`rails db:migrate`, `alembic upgrade head`,
`flyway migrate`, `goose up`, `liquibase update`) stays with the human, as "run the migration"
in prose does: it changes the database's schema. A task of the same tools that reads, lists,
writes a migration file or only shows its help goes on.

Words of a bakery, a hospital ward, a shipping line, a school, a dairy, a theatre, a vineyard,
a brewery, a ski resort and a print shop: no development set's.
"""

from __future__ import annotations

import pytest

from crewline.policy import judge
from crewline.policy.careful import careful as careful_act
from tests.unit.gate_kit import goes_on, irreversible


@pytest.mark.parametrize(
    "question",
    [
        "Run `rails db:migrate` on the dairy dev box?",
        "ok to do `bundle exec rake db:migrate` for the bakery orders app now?",
        "Shall I run `alembic upgrade head` against the ward rota database?",
        "`python manage.py migrate` on the school's timetable server — go?",
        "Can I run `php artisan migrate --force` on the print shop's order DB?",
        "Run `npx knex migrate:latest` for the vineyard cellar app?",
        "Run `mix ecto.migrate` on the theatre box office db?",
        "Apply the pending changes with `flyway migrate` on the dairy herd DB?",
        "Run `liquibase update` on the shipping line's booking schema?",
        "Run `goose up` on the ski-pass database pls?",
        "Run `dbmate up` on the kennel bookings DB?",
        "me run `npx sequelize-cli db:migrate` on florist orders db, ok?",
        "Run `npx typeorm migration:run` for the brewery's stock service?",
        "Next: `atlas migrate apply` on the ferry manifest schema. Continue?",
        "run rails db:migrate on the ward roster app?",
        "The new allergen column is ready. Run `bin/rails db:migrate` on the bakery's shared db?",
    ],
)
def test_a_migration_applied_by_its_tool_stays_with_the_human(question: str) -> None:
    irreversible(question)


def test_the_reason_names_the_command_and_what_it_does() -> None:
    why = irreversible("Run `rails db:migrate` on the dairy dev box?")
    assert "`rails db:migrate`" in why and "migrations" in why and "schema" in why, why


@pytest.mark.parametrize(
    "question",
    [
        "Run `rails db:migrate:status` on the bakery app?",
        "Run `alembic history` to list the ward rota migrations?",
        "Run `alembic current` on the ward rota db?",
        "Run `flyway info` on the dairy DB?",
        "Run `python manage.py makemigrations` for the school app?",
        "Run `python manage.py showmigrations` on the timetable server?",
        "Run `rails db:migrate --help`?",
        "Run `npx knex migrate:list` for the vineyard app?",
        "Run `goose status` on the ski-pass db?",
        "Run `liquibase validate` on the theatre changelog?",
        "Run `docker compose up` for my local copy of the bakery app?",
        "Run `terraform plan` for the brewery's cold store?",
        "Run `pip install --upgrade pip` in my venv?",
    ],
)
def test_a_look_at_the_migrations_goes_on(question: str) -> None:
    goes_on(question)


def test_a_migration_command_asked_about_is_no_step() -> None:
    question = "What does `flyway migrate` do to the dairy herd schema?"
    assert careful_act(question) is None
    assert not judge(question).final
