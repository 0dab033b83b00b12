#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (Ubuntu; see the
# README's "Grading on Gradescope"). It installs the course's pinned packages, with the CPU-only
# PyTorch wheels, into /autograder/source/.venv. Nothing is downloaded while a submission is graded.
set -euo pipefail
cd /autograder/source
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends python3 python3-venv python3-pip ca-certificates
# The course is tested on Python 3.11: Ubuntu 22.04 has it as python3.11 (its python3 is 3.10).
apt-get install -y -q --no-install-recommends python3.11 python3.11-venv || true
# bubblewrap: the grader's sandbox. Gradescope's containers usually forbid the namespaces it
# needs; run_autograder tries it before each run and, where it cannot run, grades without it and
# says so in the staff output (/autograder/results/stdout).
apt-get install -y -q --no-install-recommends bubblewrap || true
PY=$(command -v python3.11 || command -v python3.12 || command -v python3)
"$PY" -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check --upgrade pip
# The CPU wheels (torch==X resolves to X+cpu there): a few hundred MB instead of the CUDA build.
.venv/bin/pip install -q --disable-pip-version-check \
    --extra-index-url https://download.pytorch.org/whl/cpu -r requirements.txt
.venv/bin/pip install -q --disable-pip-version-check --no-deps -e .
.venv/bin/pip uninstall -q -y rfc3987-syntax || true  # a slow import nothing here needs (Makefile: SLOW_IMPORT)
# The day's template gradebook, built once here rather than for every submission.
PYTHONPATH=/autograder/source:/autograder/source/src .venv/bin/python -m grader.run.gradescope prepare --day {{ day }}
