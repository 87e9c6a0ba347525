# Combat Codex: `make` lists the targets. `make serve` and `make test` install everything first.
SHELL := /bin/bash
.DEFAULT_GOAL := help
PY := .venv/bin/python
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PORT ?= 8000

.PHONY: help install data check-data build serve test test-quick lint js unit e2e bench calc-bench calc-bench-pyodide clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/\$$(PORT)/$(PORT)/g' | awk -F':.*## ' '{printf "  make %-11s %s\n", $$1, $$2}'

install: .venv/.installed node_modules/.installed /usr/bin/chromium /usr/bin/pdftotext ## Install Python, npm and Debian (chromium, poppler-utils) dependencies

.venv/.installed: requirements.txt requirements-dev.txt
	python3 -m venv .venv
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

/usr/bin/chromium:
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium

# pdftotext measures the printed GM screens' word heights (tests/site/test_touch_and_print.py).
/usr/bin/pdftotext:
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq poppler-utils

data: .venv/.installed ## Validate rules_data/ and export calc/rules.json
	$(PY) -m macros.export

check-data: .venv/.installed ## Validate rules_data/ (errors name file:line:field)
	$(PY) -m macros.check

build: install ## Build the deployable site into site/ (mkdocs build --strict + Pyodide bundle)
	$(PY) tools/build_site.py

# `serve` builds with site_url = the served URL: Material's instant navigation needs it to match.
serve: install ## Build, then serve the full site on http://127.0.0.1:$(PORT)
	SITE_URL=http://127.0.0.1:$(PORT)/ $(PY) tools/build_site.py
	$(PY) -m http.server $(PORT) --bind 127.0.0.1 --directory site

lint: .venv/.installed node_modules/.installed ## Ruff, ESLint, and mypy on the engine contract
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	node_modules/.bin/eslint .
	$(PY) tools/check_types.py

js: node_modules/.installed data ## Unit tests of the pure browser modules (node --test; needs calc/rules.json)
	node --test tests/js/*.test.mjs

# The inner loop: no browser, no site build, no lint. Tests marked `slow` (pyproject.toml) are
# left to the whole suite (`make test`, CI), which runs them all.
test-quick: .venv/.installed node_modules/.installed data ## Engines, data and JS unit tests, no browser (the inner loop)
	node --test tests/js/*.test.mjs
	$(PY) -m pytest -q tests/calc tests/data -m "not slow"

unit: install data ## Engines, data and site-build tests (no browser)
	$(PY) -m pytest -q tests --ignore=tests/e2e

e2e: install data ## Node smoke and snapshot tests of the wheel under Pyodide, then the browser tests
	$(PY) tools/build_site.py --wheel-only
	node tests/node/smoke.mjs
	node tests/node/snapshot.mjs
	$(PY) -m pytest -q tests/e2e

test: install lint data js ## Everything CI runs: lint, JS unit, unit, data, site, Node smoke and browser tests
	$(PY) tools/build_site.py --wheel-only
	node tests/node/smoke.mjs
	node tests/node/snapshot.mjs
	$(PY) -m pytest -q tests

calc-bench: install data ## Time every calculator in CPython (typical and limit inputs)
	$(PY) -m calc.benchmark

calc-bench-pyodide: install data ## Time every calculator inside Pyodide in Node (least and median of 15)
	$(PY) tools/build_site.py --wheel-only
	node bench/pyodide_compute.mjs

bench: install ## Start-up benchmark in headless Chromium; writes bench-results.json
	$(PY) -m bench

clean: ## Remove generated files (keeps .venv and node_modules)
	rm -rf site build dist calc/rules.json bench-results.json .pytest_cache
