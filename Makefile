# Two commands do all set-up on a fresh Debian machine with Python 3.11:
#   make run   - virtual environment, install, migrate, demo event, gunicorn
#   make test  - install what the tests need, lint (ruff, mypy), run the whole suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000
WORKERS ?= 4
THREADS ?= 48

export HOST PORT WORKERS THREADS

.PHONY: run test lint translations messages lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# Installs come from the lock files (exact versions with their hashes), then the
# project itself without resolving anything; `make lock` writes them anew.
$(VENV)/.installed: requirements.lock pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q --require-hashes -r requirements.lock
	$(BIN)/pip install -q --no-deps -e .
	touch $@

$(VENV)/.installed-test: requirements-test.lock $(VENV)/.installed
	$(BIN)/pip install -q --require-hashes -r requirements-test.lock
	touch $@

lock: | $(BIN)/python
	$(BIN)/pip install -q pip-tools
	$(BIN)/pip-compile -q --generate-hashes --strip-extras --allow-unsafe -o requirements.lock pyproject.toml
	$(BIN)/pip-compile -q --generate-hashes --strip-extras --allow-unsafe --extra test \
		-o requirements-test.lock pyproject.toml

# Server settings: gunicorn.conf.py (threaded workers, keep-alive, preloaded app).
run: $(VENV)/.installed translations
	$(BIN)/flask --app answerdesk db upgrade
	@$(BIN)/flask --app answerdesk demo --once
	$(BIN)/gunicorn wsgi:app

# The .po catalogues are in the repository; their compiled .mo files are not.
translations: $(VENV)/.installed
	$(BIN)/pybabel -q compile -d answerdesk/translations

# Re-extract the English msgids and merge them into the catalogues (then translate).
# A refusal's first argument is its msgid (answerdesk/errors.py), so the error
# classes are keywords too.
ERROR_KEYWORDS := DeskError NotFound Conflict RoundLocked NameTaken Unauthorized NotAllowed \
	BidRefused WrongTeam \
	TooLarge RateLimited PackError NotInvited BadPack AlreadyPressed BuzzerNotArmed WindowClosed \
	TeamIsOut OnlyFirstCounts QuestionNotOpen PlayerRemoved NotYourTurn BetRefused \
	ChoiceRefused StakeRefused SecretRefused WrongQuestionType \
	LateJoinClosed JoinBetweenQuestions AuthorsTheme ProtestRefused ProtestWindowClosed ProtestPending \
	GameFull Banned NotCaptain PlayerRequired GamePaused GameStopped PauseRefused \
	InvitationRequired NotReserved Busy WriterBusy
messages: $(VENV)/.installed
	$(BIN)/pybabel extract -F babel.cfg -k lazy_gettext -k _l -k N_ -k NP_:1,2 $(ERROR_KEYWORDS:%=-k %) \
		--no-location --sort-output \
		-o answerdesk/translations/messages.pot .
	$(BIN)/pybabel update -i answerdesk/translations/messages.pot -d answerdesk/translations \
		--no-fuzzy-matching --ignore-obsolete --no-wrap

# mypy's settings are in pyproject.toml ([tool.mypy]: answerdesk/, zero errors).
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/mypy
	PYTHONPATH=tests $(BIN)/lint-imports --no-cache

# The browser tests drive Debian's Chromium (Playwright's own download does not
# work here); as root, make installs it, otherwise it says what to run.
CHROMIUM ?= /usr/bin/chromium
$(CHROMIUM):
	@if [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else echo "The browser tests need Chromium: sudo apt-get install chromium" >&2; exit 1; fi

test: lint translations $(CHROMIUM)
	CHROMIUM=$(CHROMIUM) $(BIN)/python -m pytest
