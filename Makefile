# Segnalino. `make run` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
export DJANGO_SETTINGS_MODULE := config.settings

.PHONY: run dev test setup lint format messages bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install --disable-pip-version-check -q -r requirements.txt
	touch $@

setup: $(VENV)/.installed
	$(BIN)/python manage.py compilemessages --ignore=.venv -v 0
	$(BIN)/python manage.py migrate --noinput -v 0
	$(BIN)/python manage.py load_catalogs
	$(BIN)/python manage.py collectstatic --noinput -v 0

# The table's network: all interfaces, DEBUG off; prints the address (and a QR
# code) phones on the same Wi-Fi open. SEGNALINO_PUBLIC_URL overrides the address.
run: setup
	$(BIN)/python -m config.serve --port $(PORT)

# Developing: the loopback debug server (this machine only).
dev: setup
	@echo "Segnalino (debug, this machine only) on http://127.0.0.1:$(PORT)/"
	DJANGO_DEBUG=1 $(BIN)/daphne -b 127.0.0.1 -p $(PORT) config.asgi:application

test: $(VENV)/.installed
	$(BIN)/python manage.py compilemessages --ignore=.venv -v 0
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

format:
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

messages:
	$(BIN)/python manage.py makemessages -l it -l en --ignore=.venv --ignore=staticfiles --ignore=benchmarks
	$(BIN)/python manage.py compilemessages --ignore=.venv

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/latency.py
	$(BIN)/python benchmarks/page_size.py
	$(BIN)/python benchmarks/search.py
	$(BIN)/python benchmarks/plastic_attack_engine.py

clean:
	rm -rf $(VENV) staticfiles db.sqlite3
