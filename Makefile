# PyTorch in Three Days: every set-up and check goes through this file.
#   make lab      install into .venv if needed, open JupyterLab on the course
#   make test     install if needed, run the whole test suite (what CI runs)
#   make quick    the fast tests only (no notebook execution, no nbgrader round trip)
#   make release  regenerate the student notebooks dayN/ from solutions/dayN/
#   make bench    time and measure every solution notebook (DAY=day1 for one day)
#   make points   recompute the points table in README.md

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
DAYS   := day1 day2 day3
LAB_ARGS ?=
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings/overrides.json
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

.PHONY: install lab test quick release bench points lint

install: $(STAMP)

$(STAMP): requirements.txt pyproject.toml grader/lab-overrides.json
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	@mkdir -p $(dir $(LAB_SETTINGS)) && cp grader/lab-overrides.json $(LAB_SETTINGS)
	@touch $(STAMP)

lab: install
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=$(CURDIR) $(ROOT_FLAG) $(LAB_ARGS)

test: install
	$(PY) -m pytest -q

quick: install
	$(PY) -m pytest -q -m "not slow"

lint: install
	$(VENV)/bin/ruff check src tests tools grader solutions data

release: install
	@for d in $(DAYS); do \
	  if ls solutions/$$d/*.ipynb >/dev/null 2>&1; then \
	    $(VENV)/bin/nbgrader generate_assignment $$d --force --log-level=WARN || exit 1; \
	  fi; \
	done

bench: install
	$(PY) -m tests.bench $(DAY)

points: install
	@$(PY) -m tests.harness.points --write
