# Two commands on a fresh machine: `make run` (set up and play) and `make test` (set up and test).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run play test setup lint typecheck check clean bench bench-server browser

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,ray,env]'
	touch $(STAMP)

setup: $(STAMP)

# The game in a browser: starts the server (SQLite in the user's data folder) and prints the address.
run: $(STAMP)
	$(BIN)/shanghai serve

# The game in this terminal, against computer players.
play: $(STAMP)
	$(BIN)/shanghai play

test: $(STAMP) browser
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/mypy
	$(BIN)/python -m pytest src tests

# The browser tests (tests/test_browser.py) need Debian's chromium: installed here where missing and we are
# root; otherwise they fail saying how to install it (SHANGHAI_SKIP_BROWSER=1 skips them, never by default).
browser:
	@command -v chromium >/dev/null 2>&1 || [ "$$SHANGHAI_SKIP_BROWSER" = 1 ] || [ "$$(id -u)" != 0 ] || \
		{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; }

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

# Speed figures, with the peers (RLCard, OpenSpiel) in an environment of their own.
BENCH_VENV := .venv-bench
$(BENCH_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(BENCH_VENV)/bin/python -m pip install --quiet -e '.[env]' 'rlcard==1.2.0' 'open_spiel==2.0.2' 'numpy<3'
	touch $(BENCH_VENV)/.installed

bench: $(BENCH_VENV)/.installed
	$(BENCH_VENV)/bin/python benchmarks/bench.py
	$(BENCH_VENV)/bin/python benchmarks/bench_env.py
	$(BENCH_VENV)/bin/python benchmarks/bench_players.py
	$(BENCH_VENV)/bin/python benchmarks/bench_table.py --json benchmarks/results_table.json

# Load on the game server: TABLES tables of four WebSocket players on loopback (a benchmark, not a test).
TABLES ?= 500
bench-server: $(STAMP)
	$(BIN)/python benchmarks/bench_server.py --tables $(TABLES) --seconds 30

clean:
	rm -rf $(VENV) $(BENCH_VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
