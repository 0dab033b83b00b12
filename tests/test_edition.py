"""The student edition (``make student-edition OUT=DIR``): built, searched for solutions, checked
from a fresh clone.

The edition is built once per module in a temporary folder (a few seconds, no kernel). The
slow tests clone it with ``git clone`` and run its ``make check`` with the project's
``.venv`` (``VIRTUAL_ENV``: nothing is installed), as a learner's checkout would.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import nbformat
import pytest

from tests.harness import links
from tools.course import solved_copy
from tools.notebooks import DAYS, ROOT, SOLUTIONS, read, solution_notebooks

sys.path.insert(0, str(ROOT / "tools"))
import edition  # noqa: E402  (tools/edition.py)

REPO = "course-org/pytorch-three-days-2027"
CHECKED = "day1/00_environment"  # the quickest notebook (make bench)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("edition") / "student"
    info = edition.build(out, repo=REPO)
    return out, info


def git(cwd, *args) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


def test_edition_is_one_commit_with_the_student_files(built):
    out, info = built
    assert git(out, "rev-list", "--count", "HEAD").strip() == "1", "the edition should be one commit"
    assert not git(out, "status", "--porcelain"), "everything the build wrote should be committed"
    files = set(git(out, "ls-files").split())
    wanted = {"HOME.ipynb", "README.md", "LICENSE", "Makefile", "pyproject.toml", "environment.yml",
              "requirements.txt", "postBuild", "tools/lab_setup.py", "tools/lab-overrides.json", "tools/course-edition.json",
              "src/ptcourse/__init__.py", "src/ptcourse/selfcheck.py", "src/ptcourse/checks.py",
              "data/README.md", "data/LICENSE-MNIST.txt", ".gitignore"}
    wanted |= {f"{day}/{nb.name}" for day in DAYS for nb in solution_notebooks(day)}
    wanted |= {f"zh-CN/{day}/{nb.name}" for day in DAYS for nb in solution_notebooks(day)} | {"zh-CN/HOME.ipynb"}
    assert wanted <= files, f"missing from the edition: {sorted(wanted - files)}"
    forbidden = [f for f in files if re.match(r"(solutions|grader|tests|tools/(edition|bench))", f)
                 or "mutant" in f or f.endswith(".db") or "gradebook" in f]
    assert not forbidden, f"instructor files in the edition: {forbidden}"
    assert info["files"] == len(files) and info["bytes"] > 1e6


def test_student_notebooks_are_the_released_copies(built):
    out, _ = built
    for day in DAYS:
        for nb in solution_notebooks(day):
            assert (out / day / nb.name).read_bytes() == (ROOT / day / nb.name).read_bytes(), f"{day}/{nb.name}"


def test_readme_badge_makefile_and_lab_setup(built):
    out, _ = built
    readme = (out / "README.md").read_text()
    assert f"mybinder.org/v2/gh/{REPO}/HEAD?urlpath=lab/tree/HOME.ipynb" in readme, "Binder badge for the repository"
    assert f"git clone https://github.com/{REPO}.git" in readme and "make lab" in readme
    for words in ("make check NB=", "hidden tests", "Download", "Submit", "don't"):
        assert words in readme, f"the student README should say {words!r}"
    flags = subprocess.run(["make", "-s", "lab-flags"], cwd=out, capture_output=True, text=True, check=True).stdout
    assert "--ServerApp.ip=127.0.0.1" in flags and "HOME.ipynb" in flags
    setup = (out / "tools" / "lab_setup.py").read_text()
    assert '"tools" / "lab-overrides.json"' in setup and not re.search(r"(?<!\w)grader\b", setup)
    assert "tools/lab_setup.py" in (out / "postBuild").read_text()
    usage = subprocess.run(["make", "-s", "check"], cwd=out, capture_output=True, text=True,
                           env={**os.environ, "VIRTUAL_ENV": str(ROOT / ".venv")})
    assert usage.returncode == 2 and "usage: make check NB=" in usage.stdout


def test_edition_installs_what_learners_need_only(built):
    """The edition's pins are the learner's requirements, and its package is ptcourse alone."""
    import tomllib

    out, _ = built
    pins = {line.split("==")[0].lower() for line in (out / "requirements.txt").read_text().splitlines()
            if line and not line.startswith("#")}
    assert {"torch", "jupyterlab", "nbgrader", "matplotlib"} <= pins
    for tool in ("pytest", "pytest-xdist", "ruff", "playwright", "dask", "distributed"):
        assert tool not in pins, f"learners should not install {tool}"
    assert not (out / "requirements-dev.txt").exists() and not (out / "requirements-grader.txt").exists()
    project = tomllib.loads((out / "pyproject.toml").read_text())
    setuptools = project["tool"]["setuptools"]
    assert setuptools["package-dir"] == {"ptcourse": "src/ptcourse"}
    assert "grader" not in " ".join(setuptools["packages"]["find"]["include"])
    assert not project["tool"]["setuptools"].get("package-data")
    for module in ("nbformat", "matplotlib", "torchvision", "nbclient"):
        assert any(dep.startswith(module) for dep in project["project"]["dependencies"]), module


def test_no_solution_or_hidden_test_line_anywhere(built):
    """Every non-trivial solution and hidden-test line is searched in every file and git object."""
    out, _ = built
    lines = edition.solution_lines()
    assert len(lines) > 500, f"only {len(lines)} solution lines to search for: the search would prove little"
    objects = subprocess.run(["git", "cat-file", "--batch-all-objects", "--batch-check"], cwd=out,
                             capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(objects) > 60, objects
    leaks = edition.find_leaks(out, lines)
    assert not leaks, "solution text in the student edition:\n" + "\n".join(f"{w}: {line}" for w, line in leaks[:20])


def test_leak_search_finds_solutions_in_files_and_git_history(built, tmp_path):
    """The search itself can fail: a solution notebook in a file, or only in git history, is found."""
    out, _ = built
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(out), str(clone))
    shutil.copyfile(SOLUTIONS / "day1" / "01_tensors.ipynb", clone / "day1" / "extra.ipynb")
    assert any(w == "day1/extra.ipynb" for w, _ in edition.find_leaks(clone, edition.solution_lines()))
    git(clone, "add", "day1/extra.ipynb")
    (clone / "day1" / "extra.ipynb").unlink()  # gone from the files, still a git object
    found = edition.find_leaks(clone, edition.solution_lines())
    assert found and {w for w, _ in found} == {"<git objects>"}, found


def test_build_refuses_a_folder_in_use(built):
    out, _ = built
    with pytest.raises(SystemExit, match="not empty"):
        edition.build(out)


# -- slow: a learner's fresh clone -------------------------------------------------------------
def make_check(clone, notebook: str) -> str:
    env = {**os.environ, "VIRTUAL_ENV": str(ROOT / ".venv"), "PTCOURSE_DEVICE": "cpu"}
    env.pop("PTCOURSE_PROGRESS", None)
    env.pop("PYTHONPATH", None)
    proc = subprocess.run(["make", "check", f"NB={notebook}"], cwd=clone, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def clone(built, tmp_path_factory):
    out, _ = built
    dest = tmp_path_factory.mktemp("learner") / "pytorch-in-three-days"
    git(dest.parent, "clone", "-q", str(out), str(dest))
    return dest


@pytest.mark.slow
def test_fresh_clone_check_untouched_says_not_done_yet(clone):
    text = make_check(clone, f"{CHECKED}.ipynb")
    assert "not done yet" in text and "✔" not in text, text
    assert "hidden tests run when your instructor grades" in text, text
    assert re.search(r"0 of \d+ visible checks passed", text), text


@pytest.mark.slow
def test_fresh_clone_check_solved_passes_every_visible_check(clone):
    solved = solved_copy(read(clone / f"{CHECKED}.ipynb"), read(SOLUTIONS / f"{CHECKED}.ipynb"))
    nbformat.write(solved, str(clone / f"{CHECKED}.ipynb"))
    text = make_check(clone, f"{CHECKED}.ipynb")
    found = re.search(r"(\d+) of (\d+) visible checks passed", text)
    assert found and found[1] == found[2] != "0" and "✘" not in text, text
    progress = subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-c",
                               "import ptcourse; print(ptcourse.__file__); print(ptcourse.show_progress())"],
                              cwd=clone, env={**os.environ, "PYTHONPATH": str(clone / "src")},
                              capture_output=True, text=True, check=True).stdout
    assert progress.startswith(str(clone / "src")), "the clone's own package should be the one used"
    assert re.search(rf"{CHECKED}\.ipynb +{found[1]}/{found[2]} checks passed, last checked", progress), progress
    assert "day1/01_tensors.ipynb" in progress and "not checked yet" in progress
    assert not git(clone, "status", "--porcelain", "--", ".ptcourse-progress.json"), "the progress file is git-ignored"


# -- the Chinese edition (make student-edition LANG=zh-CN) ---------------------------------------
@pytest.fixture(scope="module")
def built_zh(tmp_path_factory):
    out = tmp_path_factory.mktemp("edition-zh") / "student"
    info = edition.build(out, repo=REPO, lang="zh-CN")
    return out, info


def test_chinese_edition_holds_the_chinese_notebooks_home_and_language(built_zh):
    out, info = built_zh
    files = set(git(out, "ls-files").split())
    assert not [f for f in files if f.startswith("zh-CN/")], "the Chinese notebooks replace dayN/, no zh-CN/ folder"
    for day in DAYS:
        for nb in solution_notebooks(day):
            assert (out / day / nb.name).read_bytes() == (ROOT / "zh-CN" / day / nb.name).read_bytes(), f"{day}/{nb.name}"
    # the Chinese home, its links and self-check paths relocated (test_chinese_edition_names_its_own_paths)
    assert (out / "HOME.ipynb").read_text() == edition.translated("zh-CN")[0]["HOME.ipynb"]
    assert (out / ".ptcourse-lang").read_text().strip() == "zh-CN" and ".ptcourse-lang" in files
    assert "apt.txt" in files and "fonts-noto-cjk" in (out / "apt.txt").read_text()
    readme = (out / "README.md").read_text()
    assert f"mybinder.org/v2/gh/{REPO}/HEAD?urlpath=lab/tree/HOME.ipynb" in readme and "{repo}" not in readme
    # the README is Chinese once i18n/zh-CN/README.md has a fresh entry, English until then
    assert info["readme_lang"] == ("zh-CN" if edition.translated("zh-CN")[1] else "en")
    if info["readme_lang"] == "zh-CN":
        assert re.search(r"[\u4e00-\u9fff]", readme), "the Chinese README should be in Chinese"


# -- links and self-check paths of both student editions -----------------------------------------
@pytest.mark.parametrize("which", ["built", "built_zh"])
def test_every_relative_link_resolves_inside_the_edition(which, request):
    out, _ = request.getfixturevalue(which)
    files = git(out, "ls-files").split()
    dead = {name: found for name in files if name.endswith((".ipynb", ".md"))
            if (found := links.dead_links(out / name, out))}
    assert not dead, f"links that leave the {which} student edition or name no file: {dead}"


def test_chinese_edition_names_its_own_paths(built_zh):
    out, _ = built_zh
    home = "".join("".join(c["source"]) for c in json.loads((out / "HOME.ipynb").read_text())["cells"])
    assert "NB=day1/01_tensors.ipynb" in home and "zh-CN/" not in home, "the Chinese edition's HOME names its paths"
    assert "../" not in home, "no link out of the edition"
    assert edition.relocated_line("[HOME.ipynb](../HOME.ipynb)（英文版）", "HOME.ipynb", "zh-CN", {"data/x.csv"}) is None
    assert edition.relocated_line("[数据](../data/x.csv)", "day1/a.ipynb", "zh-CN", {"data/x.csv"}) == \
        "[数据](../data/x.csv)"
    assert edition.relocated_line("[数据](../../data/x.csv#r)", "day1/a.ipynb", "zh-CN", {"data/x.csv"}) == \
        "[数据](../data/x.csv#r)"
    assert edition.relocated_line("`make check NB=zh-CN/day1/a.ipynb`", "HOME.ipynb", "zh-CN", set()) == \
        "`make check NB=day1/a.ipynb`"


def test_chinese_edition_makefile_speaks_chinese(built, built_zh):
    """The opening comment and `make check`'s usage line in the edition's language; the English
    edition's Makefile is the template as it is."""
    assert (built[0] / "Makefile").read_text() == (edition.FILES / "Makefile").read_text()
    out, _ = built_zh
    head = (out / "Makefile").read_text().split("\nPYTHON ?=")[0]
    assert re.search(r"[\u4e00-\u9fff]", head) and "every set-up" not in head, head
    env = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MAKELEVEL", "MFLAGS"}}
    env["VIRTUAL_ENV"] = str(ROOT / ".venv")
    proc = subprocess.run(["make", "--no-print-directory", "check"], cwd=out, env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2 and "用法：make check NB=day1/01_tensors.ipynb" in proc.stdout.splitlines(), proc.stdout


def _lab_setup(out):
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"lab_setup_{out.parent.name}", out / "tools" / "lab_setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _nbgrader_plugin_ids() -> set[str]:
    static = ROOT / ".venv" / "share" / "jupyter" / "labextensions" / "@jupyter" / "nbgrader" / "static"
    return {m for f in static.glob("*.js") for m in re.findall(r'"(@jupyter/nbgrader:[\w-]+)"', f.read_text())}


@pytest.mark.parametrize("which, locale", [("built", None), ("built_zh", "zh_CN")])
def test_edition_lab_is_the_learners_interface(which, locale, request, tmp_path):
    """The edition's lab set-up (its `make lab` and Binder's postBuild) switches off nbgrader's instructor
    interface (Create Assignment, Formgrader, Course List and their server extensions) and keeps Validate
    and the Assignment List (the Nbgrader menu then holds only it); the Chinese edition's JupyterLab opens in Chinese (a setting the
    learner can switch back). Every plugin and extension named is one the pinned nbgrader has."""
    import importlib.util

    out, _ = request.getfixturevalue(which)
    setup = _lab_setup(out)
    assert setup.edition() == {"lang": "en" if locale is None else "zh-CN"}
    setup.install_lab_settings(tmp_path), setup.install_page_config(tmp_path), setup.install_server_config(tmp_path)
    off = json.loads((tmp_path / "etc/jupyter/labconfig/page_config.json").read_text())["disabledExtensions"]
    plugins = _nbgrader_plugin_ids()
    assert set(off) == set(setup.INSTRUCTOR_PLUGINS) <= plugins, (set(off), plugins)
    kept = {f"@jupyter/nbgrader:{name}" for name in ("validate-assignment", "assignment-list", "menu")}
    assert plugins - set(off) == kept, "Validate and the Assignment List (the exchange's hand-in) stay, and only they"
    server = json.loads((tmp_path / "etc/jupyter/jupyter_server_config.json").read_text())
    extensions = server["ServerApp"]["jpserver_extensions"]
    assert extensions == dict.fromkeys(setup.INSTRUCTOR_SERVER_EXTENSIONS, False)
    assert all(importlib.util.find_spec(name) for name in extensions), "an extension the pinned nbgrader lacks"
    assert server["MappingKernelManager"]["cull_idle_timeout"] > 0, "the kernel culling stays"
    overrides = json.loads((tmp_path / "share/jupyter/lab/settings/overrides.json").read_text())
    assert overrides.get("@jupyterlab/translation-extension:plugin", {}).get("locale") == locale
    assert overrides["@jupyterlab/notebook-extension:tracker"]["kernelShutdown"] is True


def test_course_repository_lab_keeps_the_instructor_interface(tmp_path):
    """The instructor's checkout (no tools/course-edition.json) keeps nbgrader's whole interface, in English."""
    setup = _lab_setup(ROOT)
    assert setup.edition() is None and setup.install_page_config(tmp_path) is None
    setup.install_lab_settings(tmp_path), setup.install_server_config(tmp_path)
    assert "ServerApp" not in json.loads((tmp_path / "etc/jupyter/jupyter_server_config.json").read_text())
    overrides = json.loads((tmp_path / "share/jupyter/lab/settings/overrides.json").read_text())
    assert "@jupyterlab/translation-extension:plugin" not in overrides


@pytest.mark.parametrize("url, repo", [
    ("https://github.com/course-org/pytorch-3d.git", "course-org/pytorch-3d"),
    ("git@github.com:course-org/pytorch-3d.git", "course-org/pytorch-3d"),
    ("ssh://git@github.com/course-org/pytorch-3d", "course-org/pytorch-3d"),
    ("https://gitlab.com/course-org/pytorch-3d.git", None),
    (None, None),
])
def test_edition_badge_takes_the_github_remote_or_warns_loudly(url, repo, tmp_path, monkeypatch, capsys):
    """Without REPO=, the badge names the checkout's GitHub remote; with none, the build says loudly
    (on stderr) that the README names a placeholder."""
    subprocess.run(["git", "init", "-q", str(tmp_path / "checkout")], check=True)
    if url:
        subprocess.run(["git", "-C", str(tmp_path / "checkout"), "remote", "add", "origin", url], check=True)
    assert edition.github_remote(tmp_path / "checkout") == repo
    monkeypatch.setattr(edition, "github_remote", lambda root=ROOT: repo)
    monkeypatch.setattr(edition, "build", lambda out, r, lang="en": {
        "path": str(out), "files": 1, "bytes": 1, "seconds": 0.1, "lang": lang, "readme_lang": lang, "repo": r})
    assert edition.main([str(tmp_path / "out")]) == 0
    said = capsys.readouterr()
    if repo:
        assert repo in said.out and "WARNING" not in said.err
    else:
        assert "WARNING" in said.err and edition.PLACEHOLDER_REPO in said.err
