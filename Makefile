# PyTorch in Three Days: every set-up and check goes through this file.
#   make lab      install into .venv if needed, open JupyterLab on the course
#   make test     install if needed, run the whole test suite (what CI runs)
#   make quick    the fast tests only (no notebook execution, no nbgrader round trip)
#   make test-cpu the whole suite, with each test file's true CPU-seconds (bench-results/suite-cpu.json)
#   make release  regenerate the student notebooks dayN/ from solutions/dayN/ (and zh-CN/ from i18n/zh-CN/)
#   make regen    rebuild every generated file, in order: messages (tools/msgify.py), release, points, zh-CN
#   make bench    time and measure every solution notebook (DAY=day1 for one day)
#   make points   recompute the points tables in README.md and HOME.ipynb (HOME's times too; zh-CN/HOME.ipynb)
#   make nb       the loop for one notebook: NB=day1/01_tensors (execution, mutants, round trip, grader check)
#   make times    the estimated time of every notebook and day, term by term (tools/times.py)
#   make msgids   message ids in use against the catalogue: problems, and the unused ids (tools/msgids.py)
#   make browser  the browser tests only (JupyterLab in headless Chromium; screenshots in artifacts/browser/)
#   make a11y     axe-core on every executed notebook page of both editions (artifacts/a11y/summary.txt)
#   make grade    grade a class: DAY=day1 [ARGS="--submissions DIR --workers N ..."] (python -m grader)
#   make check    grade your own notebook with the hidden tests: NB=day1/01_tensors.ipynb
#   make bench-grading  the class grader against sequential nbgrader autograde, and through Dask local:2 (STUDENTS=30 DAY=day1)
#   make student-edition OUT=DIR [REPO=owner/name] [LANG=zh-CN]  the students' repository: notebooks, no solutions
#   make gradescope DAY=day1  the autograder zip for Gradescope (gradescope/day1-autograder.zip)
#   make soak     the grader under CPU pressure: a few hundred notebooks of mixed quality, zero lost grades,
#                 nothing left behind, flat driver memory (STUDENTS=300 RUNS=1 HOGS=2; 3 minutes on 2 busy cores)
#   make stress   the lost-grade stress test: a small class graded 20 times in a row under CPU pressure (12-15 min)
#   make book     the course as a web book, both languages, into book/_build/html [REPO=owner/name] [BOOK_EXECUTE=0]
#   make gpu-check  on an NVIDIA GPU: every notebook and the grader on CUDA, AMP/compile/checkpointing table

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
DAYS   := day1 day2 day3
LAB_ARGS ?=
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)
# `make lab` (and the browser tests, through `make lab-flags`): loopback only, token on, course home.
LAB_FLAGS := --ServerApp.root_dir=$(CURDIR) --ServerApp.ip=127.0.0.1 \
             --LabApp.default_url=/lab/tree/HOME.ipynb $(ROOT_FLAG)
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

.PHONY: install lab lab-flags test test-cpu quick browser a11y release bench bench-grading grade check points lint student-edition
.PHONY: times nb gpu-check regen gradescope soak stress msgids book

install: $(STAMP)

# rfc3987-syntax comes with jupyter-events' jsonschema[format-nongpl]. It builds an Earley parser
# when imported: 1.5-2.5 s for every process that imports nbformat (each nbgrader and grader run,
# JupyterLab). It only checks "iri" formats, which nothing in the course validates; without it
# jsonschema skips that format. So it is uninstalled (grader/run/worker_setup.py does the same).
SLOW_IMPORT := rfc3987-syntax

$(STAMP): requirements.txt requirements-grader.txt requirements-dev.txt requirements-book.txt pyproject.toml grader/lab-overrides.json tools/lab_setup.py Makefile
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	@$(PY) -m pip uninstall --quiet --yes $(SLOW_IMPORT)  # see SLOW_IMPORT above
	@$(PY) tools/lab_setup.py >/dev/null  # lab settings, kernel display name (Binder: postBuild)
	@touch $(STAMP)

lab: install
	$(VENV)/bin/jupyter lab $(LAB_FLAGS) $(LAB_ARGS)

lab-flags:
	@echo '$(LAB_FLAGS)'

# Two test processes (pytest-xdist); tests/conftest.py keeps what shares a kernel or fixture together.
TEST_JOBS ?= 2
XDIST := -n $(TEST_JOBS) --dist loadgroup

test: install
	$(PY) -m pytest -q $(XDIST)

quick: install
	$(PY) -m pytest -q -m "not slow" $(XDIST)

# make test, with the CPU every test file really costs (tools/suite_cpu.py: cpuacct cgroups count every
# process the tests start; /usr/bin/time counts about half) -> bench-results/suite-cpu.json
test-cpu: install
	$(PY) -m pytest -q -p tools.suite_cpu $(XDIST)

browser: install
	$(PY) -m pytest -q tests/browser

# axe-core on every executed notebook page of both editions (the browser suite checks one per day and language)
a11y: install
	PTCOURSE_A11Y_ALL=1 $(PY) -m pytest -q -n 0 tests/browser/test_a11y_pages.py

lint: install
	$(VENV)/bin/ruff check src tests tools grader solutions data

release: install
	@for d in $(DAYS); do \
	  if ls solutions/$$d/*.ipynb >/dev/null 2>&1; then \
	    $(VENV)/bin/nbgrader generate_assignment $$d --force --log-level=WARN || exit 1; \
	  fi; \
	done
	@$(PY) tools/i18n.py build zh-CN  # zh-CN/: the Chinese edition, from dayN/ and i18n/zh-CN/

bench: install
	$(PY) -m tools.bench $(DAY)

bench-grading: install
	$(PY) tools/bench_grading.py --day $(or $(DAY),day1) --students $(or $(STUDENTS),30)

soak: install
	$(PY) -m tools.soak --students $(or $(STUDENTS),300) --runs $(or $(RUNS),1) --hogs $(or $(HOGS),2)

stress: install
	$(PY) -m pytest -q -m soak tests/test_soak.py

gpu-check: install
	$(PY) tools/gpu_check.py $(ARGS)

grade: install
	@test -n "$(DAY)" || { echo 'usage: make grade DAY=day1 [ARGS="--submissions DIR ..."]'; exit 2; }
	$(PY) -m grader grade $(DAY) $(ARGS)

gradescope: install
	@test -n "$(DAY)" || { echo 'usage: make gradescope DAY=day1 [OUT=DIR]'; exit 2; }
	$(PY) -m grader.run.gradescope build $(DAY) $(if $(OUT),--out $(OUT))

check: install
	@test -n "$(NB)" || { echo 'usage: make check NB=day1/01_tensors.ipynb'; exit 2; }
	$(PY) -m grader check $(NB) $(ARGS)

points: install
	@$(PY) -m tools.points --write
	@$(PY) -m tools.home --write
	@$(PY) tools/i18n.py build zh-CN >/dev/null  # the Chinese home's tables too

# Every generated file, in the order they depend on each other: the test cells' prose becomes catalogue
# entries (messages), the student copies are made from the sources (release), then the points and
# times tables and the Chinese edition (points). Run it after merging branches that touch notebooks.
regen: install
	$(PY) tools/msgify.py
	$(MAKE) --no-print-directory release
	$(MAKE) --no-print-directory points

times: install
	@$(PY) -m tools.times

msgids: install
	@$(PY) -m tools.msgids

nb: install
	@test -n "$(NB)" || { echo 'usage: make nb NB=day1/01_tensors'; exit 2; }
	$(PY) -m tools.nbloop $(NB)

student-edition: install
	@test -n "$(OUT)" || { echo 'usage: make student-edition OUT=DIR [REPO=owner/name] [LANG=zh-CN]'; exit 2; }
	$(PY) tools/edition.py $(OUT) $(if $(REPO),--repo $(REPO)) $(if $(filter command line,$(origin LANG)),--lang $(LANG))

# The web book (tools/book.py; Sphinx, MyST-NB and the Sphinx Book Theme from requirements-book.txt,
# which requirements-dev.txt includes). Notebook runs are cached by content hash in book/_build/cache.
book: install
	$(PY) tools/book.py $(if $(REPO),--repo $(REPO)) $(if $(filter 0,$(BOOK_EXECUTE)),--no-execute)
