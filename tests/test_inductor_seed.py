"""The Inductor seed a grading job gets (grader/jail/inductor.py): torch.compile's CPU checks only,
answering every one of them, and planted only where a notebook may compile."""

from __future__ import annotations

import os
import subprocess
import sys

import nbformat
import pytest

from grader.grades import gradebook
from grader.jail import inductor


def _notebook(*sources: str):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("`torch.compile` is explained here"),
                *(nbformat.v4.new_code_cell(s) for s in sources)]
    return nb


def test_only_a_notebook_that_may_compile_gets_the_seed(tmp_path, monkeypatch):
    fake = tmp_path / "seed"
    (fake / "ab").mkdir(parents=True)
    (fake / "ab" / "cab.so.load_ok").write_text("")
    monkeypatch.setattr(inductor, "seed", lambda cache: fake)
    assert not inductor.plant(_notebook("x = 1"), tmp_path, tmp_path / "plain")
    assert not (tmp_path / "plain").exists()
    assert inductor.plant(_notebook("f = torch.compile(model)"), tmp_path, tmp_path / "kernel")
    assert (tmp_path / "kernel" / "ab" / "cab.so.load_ok").exists()


def test_a_failing_probe_leaves_no_seed_and_no_litter(tmp_path, monkeypatch):
    monkeypatch.setattr(inductor, "PROBE", "raise SystemExit(1)")
    assert inductor._find_or_make(tmp_path) is None
    assert [p.name for p in tmp_path.iterdir()] == ["inductor.lock"]


def test_the_fingerprint_names_this_machine_the_same_way_twice():
    assert inductor.fingerprint() == inductor.fingerprint()
    assert len(inductor.fingerprint()) == 16


@pytest.mark.slow
def test_the_seed_holds_the_isa_checks_only_and_answers_them_all(tmp_path):
    """Made once per machine (shared with the grading tests); a kernel given a copy compiles no check again."""
    seed = inductor.seed(gradebook.CACHE)
    assert seed is not None and seed.name == f"inductor-{inductor.fingerprint()}"
    files = sorted(p.relative_to(seed).as_posix() for p in seed.rglob("*") if p.is_file())
    assert files and all(f.split("/")[-1].startswith("c") and f.endswith((".cpp", ".so", ".so.load_ok"))
                         for f in files), files  # no FX graph, no compiled kernel, no lock
    planted = tmp_path / "kernel"
    assert inductor.plant(_notebook("torch.compile(f)"), gradebook.CACHE, planted)
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(planted), "OMP_NUM_THREADS": "1"}
    subprocess.run([sys.executable, "-c", inductor.PROBE], env=env, check=True, timeout=300)
    after = sorted(p.relative_to(planted).as_posix() for p in planted.rglob("*")
                   if p.is_file() and p.parent.name != "locks")
    assert after == files, "the kernel compiled checks the seed should have answered"
