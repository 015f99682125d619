# Two commands on a fresh machine with python3 and make: `make run`, `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test quick lint bench install clean screenshots

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/keeltui $(ARGS)

test: $(STAMP)
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

# The edit loop: everything but the slow fault tests (kill -9 twenty times and the like).
quick: $(STAMP)
	$(BIN)/python -m pytest -q -m 'not slow' $(PYTEST_ARGS)

# Static checks (CI runs them before the tests): style, types, the layer rules.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .ruff_cache .import_linter_cache

screenshots: $(STAMP)
	$(BIN)/python docs/make_screenshots.py
