# Wayfinder developer commands. `make test` and `make demo` work from a fresh clone:
# they create .venv, install the project with its dev extras and provision a browser first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup browser test lint demo bench clean

setup: $(STAMP) browser

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

browser: $(STAMP)
	$(PY) -m agent.browser.provision

test: setup
	$(PY) -m ruff check agent tests
	$(PY) -m pytest -q

lint: $(STAMP)
	$(PY) -m ruff check agent tests
	$(PY) -m ruff format --check agent tests

demo: setup
	$(PY) -m agent demo

bench: setup
	$(PY) -m pip install --quiet --no-deps 'miniwob==1.1.0'
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) runs .pytest_cache .ruff_cache .hypothesis
