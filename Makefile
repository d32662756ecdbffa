# Two commands do all set-up on a fresh Debian machine with Python 3.11:
#   make run   - virtual environment, install, migrate, demo event, gunicorn
#   make test  - install what the tests need, lint, run the whole suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000
WORKERS ?= 2
THREADS ?= 16

export HOST PORT

.PHONY: run test lint

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/pip install -q -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(BIN)/flask --app answerdesk db upgrade
	@$(BIN)/flask --app answerdesk demo --once
	$(BIN)/gunicorn -k gthread -w $(WORKERS) --threads $(THREADS) -b $(HOST):$(PORT) wsgi:app

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .

test: lint
	$(BIN)/python -m pytest
