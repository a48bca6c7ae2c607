# Two commands on a fresh machine (Python 3.11 and root):
#   make run   - the service on http://127.0.0.1:5000 (SQLite under instance/)
#   make test  - the whole test suite, browser tests included
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 5000
WORKERS ?= 2

.PHONY: run thinkers test lint format bench chromium postgresql wrk settings native

# The compiled copies of the hot modules (games/native.py: mypyc, used only while they match
# their source; needs gcc and Python's headers): the modules that carry games.native's line.
NATIVE := build/native/.built
NATIVE_SOURCES := $(shell grep -rlx --include='*.py' '\# games.native: compiled' games)

$(VENV)/.run-installed: requirements.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(VENV)/.run-installed $@

$(NATIVE): $(VENV)/.run-installed games/native.py $(NATIVE_SOURCES)
	$(PY) -m games.native
	touch $@

native: $(NATIVE)

run: $(VENV)/.run-installed $(NATIVE)
	mkdir -p instance
	$(VENV)/bin/gunicorn --config gunicorn.conf.py --bind $(HOST):$(PORT) --workers $(WORKERS) \
		--access-logfile - 'app:create_app()'

# Thinkers alone (no HTTP): this machine's cores for the bots of the games another server serves
# on the same PostgreSQL (TOBAGO_DATABASE=postgresql://...; PROCESSES: default the cores).
thinkers: $(VENV)/.run-installed $(NATIVE)
	$(PY) -m web.thinkers $(if $(PROCESSES),--processes $(PROCESSES))

# Debian's Chromium for the browser tests, and Noto CJK so that their Chinese screenshots show
# the characters (without it every one is an empty box).
chromium:
	@command -v chromium >/dev/null 2>&1 || test -x /usr/bin/chromium || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)
	@test -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk)

# The store tests run a throw-away PostgreSQL cluster (tests/pg_support.py): Debian's server.
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql)

# The HTTP benches load the server with Debian's wrk (bench/http_load.py).
wrk:
	@command -v wrk >/dev/null 2>&1 || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk)

test: $(VENV)/.dev-installed $(NATIVE) chromium postgresql wrk
	$(PY) -m pytest

# ruff (lint and format), mypy, and vulture's dead-code check (pyproject.toml, vulture_whitelist.py).
lint: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check . && $(VENV)/bin/mypy && \
		$(VENV)/bin/vulture

# Every setting, its variable and default (web/config.py): the README's "Settings" table.
settings: $(VENV)/.run-installed
	@$(PY) -c 'from web.config import print_table; print_table()'

format: $(VENV)/.dev-installed
	$(VENV)/bin/ruff format . && $(VENV)/bin/ruff check --fix .

# Every bench, one table, bench/results.json and the README's figures (bench/run.py);
# QUICK=1: a tiny run that only checks the benches work; ONLY=solver,http: those benches.
bench: $(VENV)/.dev-installed $(NATIVE) wrk
	$(PY) bench/run.py $(if $(QUICK),--quick) $(if $(ONLY),--only $(ONLY))
