# The two commands of the README, and the ones developers use.
# Each target creates the virtualenv and installs what it needs on first use.

VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin

.PHONY: demo run test check reliability bench bench-quick bench-smoke eval screenshot clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

# The demo runs crewline alone (the local inbox, SQLite): no extra, no test or bench tools.
$(BIN)/.demo: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

demo: $(BIN)/.demo               ## the local inbox with a demo crew, on 127.0.0.1
	$(BIN)/crewline demo

run: $(BIN)/.installed           ## crewline serve with the configured transports
	$(BIN)/crewline serve

test: $(BIN)/.installed          ## format, lint, types and the whole test suite
	scripts/ensure-browser
	scripts/ensure-postgresql
	PATH="$(abspath $(BIN)):$$PATH" scripts/check

reliability: $(BIN)/.installed   ## the reliability and security suite (docs/reliability.md)
	CREWLINE_RELIABILITY=$${CREWLINE_RELIABILITY:-ci} $(BIN)/python -m pytest -q -p no:cacheprovider \
		tests/reliability tests/security tests/e2e/test_backup.py \
		tests/e2e/test_crash_safety.py tests/e2e/test_webhook_crash.py \
		tests/e2e/test_slack_http.py tests/e2e/test_telegram_hostile.py \
		tests/e2e/test_discord_hostile.py tests/e2e/test_replica_rate_limits.py

$(BIN)/.peer: $(BIN)/.installed   # LangGraph, for the side-by-side benchmark only
	$(BIN)/python -m pip install --quiet -e '.[peer]'
	touch $@

bench: $(BIN)/.peer              ## every benchmark at full size, then the report
	$(BIN)/python -m bench.run

bench-quick: $(BIN)/.peer        ## every benchmark at --quick size, then the report
	$(BIN)/python -m bench.run --quick

# What `make test` runs in tests/bench (without the peer extra: crewline's side of the peer).
bench-smoke: $(BIN)/.installed   ## every benchmark at its smoke size: does each still run?
	scripts/ensure-postgresql
	$(BIN)/python -m bench.run --smoke

EVAL_RUNS ?= 3
EVAL_FLAGS ?= --summary
eval: $(BIN)/.installed          ## the concierge's eval: the development and held-out sets, each policy, per category
	$(BIN)/crewline eval concierge --questions evals/concierge/dev.yaml \
		--questions evals/concierge/test.yaml --questions evals/concierge/test-2.yaml \
		--llm off --llm right --llm hostile \
		--runs $(EVAL_RUNS) $(EVAL_FLAGS)

screenshot: $(BIN)/.installed    ## docs/img/inbox.png from a running demo
	$(BIN)/python scripts/screenshot

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache artifacts
