# Two entry points for a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test test-fast lint bench stress clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@

demo: $(BIN)/.installed
	$(BIN)/gitmem demo

# Every test. Property tests run under the Hypothesis profile "ci" (tests/conftest.py):
# a fixed seed and no deadline, so a loaded machine cannot fail them.
test: $(BIN)/.installed
	$(BIN)/python -m pytest

# The inner loop: the tests not marked slow (over ~1.5 s idle, or real-subprocess suites).
test-fast: $(BIN)/.installed
	$(BIN)/python -m pytest -m "not slow"

lint: $(BIN)/.installed
	$(BIN)/ruff check gitmem tests benchmarks
	$(BIN)/ruff format --check gitmem tests benchmarks
	$(BIN)/mypy

bench: $(BIN)/.installed
	$(BIN)/python benchmarks/bench_brief.py
	$(BIN)/python benchmarks/bench_hooks.py
	$(BIN)/python benchmarks/bench_rebase.py
	$(BIN)/python benchmarks/bench_import.py
	$(BIN)/python benchmarks/bench_verifier.py
	$(BIN)/python benchmarks/bench_sync.py
	$(BIN)/python benchmarks/bench_export.py
	$(BIN)/python benchmarks/bench_recall.py
	$(BIN)/python benchmarks/bench_purge.py

# Not in CI: kills mid-operation, concurrent writers, fuzz, planted secrets (a few minutes;
# `make stress STRESS=--quick` for well under one).
stress: $(BIN)/.installed
	$(BIN)/python benchmarks/stress.py $(STRESS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
