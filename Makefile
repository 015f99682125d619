# Two commands on a fresh machine with python3 and make: `make run`, `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test quick fuzz lint bench install clean screenshots lock

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Installed within the versions requirements.lock names (what the tests last passed on).
$(STAMP): pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/python -m pip install --quiet -c requirements.lock -e '.[test,dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/keeltui $(ARGS)

# Two workers: most tests wait on tmux, a pty or the loopback server, not the CPU,
# so two at a time take about two thirds of the time even on a 2-core machine.
# `make test JOBS=0` runs in one process (e.g. to read a test's output in order).
JOBS ?= 2
XDIST = $(if $(filter 0,$(JOBS)),,-n $(JOBS))

test: $(STAMP)
	$(BIN)/python -m pytest -q $(XDIST) $(PYTEST_ARGS)

# The edit loop: everything but the slow fault tests (kill -9 twenty times and the like)
# and the tests that drive the real app in tmux (marked e2e by tests/conftest.py).
quick: $(STAMP)
	$(BIN)/python -m pytest -q $(XDIST) -m 'not slow and not e2e' $(PYTEST_ARGS)

# The property tests with new examples each run (`make test` draws the same ones every
# run); a failure prints the example to keep as an @example. `make fuzz RUNS=20` for more.
RUNS ?= 5
fuzz: $(STAMP)
	for i in $$(seq $(RUNS)); do KEEL_HYPOTHESIS=explore $(BIN)/python -m pytest -q -x $(XDIST) tests/unit || exit 1; done

# Static checks (CI runs them before the tests): style, types, the layer rules.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(STAMP)
	$(BIN)/python -m bench

# Refresh requirements.lock: a fresh venv, the newest versions pyproject.toml allows, frozen.
lock:
	rm -rf .lock-venv
	$(PY) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/python -m pip install --quiet -e '.[test,dev]'
	( echo '# make lock: every package `make install` may install, at the version last tested.'; \
	  .lock-venv/bin/python -m pip freeze --exclude-editable ) > requirements.lock
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .ruff_cache .import_linter_cache

screenshots: $(STAMP)
	$(BIN)/python docs/make_screenshots.py
