"""The Chinese edition (``zh-CN/``, built by ``tools/i18n.py build zh-CN``): in sync, the same
code and tests as the English edition, every translation entry fresh. No kernel, about a second.

A stale entry (its English cell edited since it was translated) fails
``test_every_translation_entry_is_fresh`` with the file, the cell id and the English lines that
changed; ``test_an_edited_english_cell_fails_naming_the_entry`` proves it on a temporary copy.
"""

from __future__ import annotations

import json
import re
import shutil
import sys

import nbformat
import pytest

from tools.course import solved_copy, solved_translated
from tools.notebooks import DAYS, ROOT, SOLUTIONS, nb_key, read, solution_notebooks, student_copy

sys.path.insert(0, str(ROOT / "tools"))
import i18n  # noqa: E402  (tools/i18n.py)

CJK = re.compile(r"[\u4e00-\u9fff]")

LANG = "zh-CN"
EDITION = ROOT / LANG
NOTEBOOKS = solution_notebooks()


def test_edition_is_what_build_writes():
    files = i18n.built_files(LANG)
    differ = [rel for rel, text in files.items()
              if not (ROOT / rel).exists() or (ROOT / rel).read_text(encoding="utf-8") != text]
    extra = [str(p.relative_to(ROOT)) for p in EDITION.glob("day*/*.ipynb") if str(p.relative_to(ROOT)) not in files]
    assert not differ and not extra, (f"{LANG}/ is out of date, run 'make release' (or python tools/i18n.py build "
                                      f"{LANG}): differ {differ}, not built any more {extra}")
    assert (EDITION / ".ptcourse-lang").read_text().strip() == LANG


def _cell(cell: dict) -> str:
    return json.dumps(cell, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_code_tests_and_nbgrader_metadata_are_the_english_ones(path):
    """Byte for byte: every code cell (source and metadata) and every cell's metadata and id; free
    code cells and answer scaffolds may differ in comments only; markdown only in its text; a test
    cell only in its docstring (the check's title, from the catalogue), with nbgrader's checksum
    of the translated cell, so Validate sees it as released (the grader runs the course's own test
    code in any case)."""
    from nbgrader.utils import compute_checksum

    english = json.loads(student_copy(path).read_text(encoding="utf-8"))
    chinese = json.loads((EDITION / path.parent.name / path.name).read_text(encoding="utf-8"))
    assert len(english["cells"]) == len(chinese["cells"]), "not the same cells"
    for en, zh in zip(english["cells"], chinese["cells"], strict=True):
        where = f"{nb_key(path)} cell {en.get('id')}"
        if i18n.is_test(en):
            en_lines, zh_lines = i18n._source(en).split("\n"), i18n._source(zh).split("\n")
            assert zh_lines[1:] == en_lines[1:], f"{where}: a test cell's code differs from the English edition"
            title = i18n.translated_title_line(i18n._source(en), en["metadata"]["nbgrader"]["grade_id"], LANG)
            assert zh_lines[0] == (title or en_lines[0]) and CJK.search(zh_lines[0]), \
                f"{where}: the docstring should be the catalogue's Chinese title: {zh_lines[0]}"
            assert zh["metadata"]["nbgrader"].pop("checksum") == compute_checksum(nbformat.from_dict({**zh, "source": i18n._source(zh)})), where
            en["metadata"]["nbgrader"].pop("checksum")
        assert {k: v for k, v in en.items() if k != "source"} == {k: v for k, v in zh.items() if k != "source"}, where
        if i18n.is_test(en):
            continue
        if en["cell_type"] == "code" and i18n.is_scaffold(en):  # an answer scaffold: comments may be translated
            assert i18n.strip_comments(i18n._source(en)) == i18n.strip_comments(i18n._source(zh)), \
                f"{where}: the Chinese answer scaffold changes code, not only comments"
        elif en["cell_type"] == "code" and (en["metadata"].get("nbgrader") or _cell(en) == _cell(zh)):
            assert _cell(en) == _cell(zh), f"{where}: an nbgrader cell differs from the English edition"
        elif en["cell_type"] == "code":
            assert i18n.strip_comments(i18n._source(en)) == i18n.strip_comments(i18n._source(zh)), \
                f"{where}: the Chinese free code cell changes code, not only comments"
    meta = dict(chinese["metadata"])
    assert meta.pop("ptcourse") == {"lang": LANG}
    assert meta == english["metadata"]


def test_every_translation_entry_is_fresh():
    found = i18n.problems(LANG)
    assert not found, (f"{len(found)} stale or orphan translation entries (update the text and its en: hash, "
                       "python tools/i18n.py extract gives the new hash):\n" + "\n".join(found))


def test_an_edited_english_cell_fails_naming_the_entry(tmp_path):
    """On a temporary copy: translate a notebook, edit one English cell, see the named failure,
    and see that the build leaves that cell in English rather than show an outdated translation."""
    rel = "day1/00_environment.ipynb"
    for folder in ("solutions", ""):
        (tmp_path / folder / "day1").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / folder / rel, tmp_path / folder / rel)
    (tmp_path / "i18n" / LANG / "day1").mkdir(parents=True)
    skeleton = i18n.skeleton(SOLUTIONS / rel).replace("# Day 1 · 00 — Is PyTorch ready?", "# 第 1 天 · 00 —— 环境")
    (tmp_path / "i18n" / LANG / "day1" / "00_environment.md").write_text(skeleton)
    assert i18n.problems(LANG, root=tmp_path) == []

    for folder in ("solutions", ""):  # the author edits the title and runs make release
        nb = json.loads((tmp_path / folder / rel).read_text())
        title = nb["cells"][0]
        assert title["id"] == "c000"
        title["source"] = "".join(title["source"]).replace("Checking your environment", "Checking your set-up")
        (tmp_path / folder / rel).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    found = i18n.problems(LANG, root=tmp_path, history=ROOT)
    assert len(found) == 1, found
    assert found[0].startswith("i18n/zh-CN/day1/00_environment.md: stale entry cell c000: the English of "
                               "solutions/day1/00_environment.ipynb cell c000 changed: ")
    assert "-# Day 1 · 00 — Is PyTorch ready? Checking your environment" in found[0]
    assert "+# Day 1 · 00 — Is PyTorch ready? Checking your set-up" in found[0]
    with pytest.raises(AssertionError, match="stale entry cell c000"):
        assert not found, "\n".join(found)
    built = json.loads(i18n.built_files(LANG, root=tmp_path)[f"{LANG}/{rel}"])
    assert "".join(built["cells"][0]["source"]).startswith("# Day 1 · 00 — Is PyTorch ready? Checking your set-up")


def test_a_translated_code_cell_may_change_comments_only():
    code = 'x = "# not a comment"  # a comment\n# a line of comment\ny = x * 2\n'
    assert i18n.strip_comments(code) == i18n.strip_comments('x = "# not a comment"  # 注释\n\ny = x * 2  # 再乘二\n')
    assert i18n.strip_comments(code) != i18n.strip_comments('x = "# 不是注释"  # a comment\ny = x * 2\n')
    nb = {"cells": [{"cell_type": "code", "id": "c1", "metadata": {}, "source": code, "outputs": []}], "metadata": {}}
    entry = i18n.Entry("c1", i18n.en_hash(code), True, code.replace("y = x * 2", "y = x * 3  # 乘三"))
    with pytest.raises(ValueError, match="changes the code, not only its comments"):
        i18n.translate_notebook(nb, {"c1": entry}, LANG, "demo")


def test_homes_link_each_other_and_tables_are_generated():
    english = (ROOT / "HOME.ipynb").read_text(encoding="utf-8")
    assert "](zh-CN/HOME.ipynb)" in english, "the English home should link to the Chinese home"
    home = json.loads((EDITION / "HOME.ipynb").read_text(encoding="utf-8"))
    assert home["metadata"]["ptcourse"] == {"lang": LANG}
    text = "\n".join(i18n._source(c) for c in home["cells"])
    for day in DAYS:
        for nb in solution_notebooks(day):
            assert f"]({day}/{nb.name})" in text, f"the Chinese home should link {day}/{nb.name}"
            assert (EDITION / day / nb.name).exists()
    from tools import home as en_home

    translated = {c for c, s, _ in i18n.translatable(ROOT / "HOME.ipynb")
                  if c in i18n._fresh_entries(ROOT / "i18n" / LANG / "HOME.md", ROOT / "HOME.ipynb")}
    for cell in home["cells"]:
        for m in i18n.TABLE.finditer(i18n._source(cell)):
            if cell["id"] in translated:  # the same minutes and points as the English table, in Chinese words
                assert m["body"] == en_home.table(m["day"], en_home.rows(m["body"], loose=True), lang=LANG)
                assert "分钟" in m["body"] and "| 笔记本 | 你将学到 | 时间 | 分数 |" in m["body"]


def test_solved_chinese_copy_is_the_english_solution():
    """tools for the tests and grading proofs: the zh solved copy has the English solved copy's code."""
    path = SOLUTIONS / "day1" / "00_environment.ipynb"
    zh, en = solved_translated(path), solved_copy(read(student_copy(path)), read(path))
    assert zh.metadata["ptcourse"]["lang"] == LANG
    for a, b in zip(zh.cells, en.cells, strict=True):
        if i18n.is_test(b):  # the docstring is translated (test_code_tests_and_nbgrader_metadata_are_the_english_ones)
            assert a.source.split("\n")[1:] == b.source.split("\n")[1:]
        elif b.cell_type == "code":
            assert i18n.strip_comments(a.source) == i18n.strip_comments(b.source)
    assert "NotImplementedError" not in "\n".join(c.source for c in zh.cells if c.cell_type == "code")


def test_translation_counts(capsys):
    """Not a check: the numbers for the closing note (cells translated, left in English)."""
    rows = i18n.status(LANG)
    ok = sum(len(r["ok"]) for r in rows.values())
    missing = sum(len(r["missing"]) for r in rows.values())
    total = sum(sum(1 for _, _, code in i18n.translatable(nb) if not code) for nb in [*NOTEBOOKS, ROOT / "HOME.ipynb"])
    with capsys.disabled():
        print(f"\n{LANG}: {ok} cells translated and fresh, {missing} missing in {len(rows)} files; "
              f"{total} markdown cells in the course")


def test_answer_scaffolds_speak_chinese_and_keep_their_code():
    """Every answer stub's ``# YOUR CODE HERE`` is in Chinese (the catalogue's ``edition.code_stub``);
    a scaffold's own comments are translated like a free code cell's; graded cells never."""
    from ptcourse.messages import msg_in

    stub = msg_in(LANG, "edition.code_stub")
    for path in NOTEBOOKS:
        chinese = json.loads((EDITION / path.parent.name / path.name).read_text(encoding="utf-8"))
        scaffolds = [i18n._source(c) for c in chinese["cells"] if i18n.is_scaffold(c)]
        assert all(i18n.STUB_COMMENT not in s for s in scaffolds), f"{nb_key(path)}: an English answer stub"
        assert any(stub in s for s in scaffolds), f"{nb_key(path)}: no translated answer stub"
    tensors = json.loads((EDITION / "day1" / "01_tensors.ipynb").read_text(encoding="utf-8"))
    assert "# True：结果与 x 共享内存。False：结果是副本。" in "".join(i18n._source(c) for c in tensors["cells"])
    graded = {"cell_type": "code", "id": "g", "metadata": {"nbgrader": {"grade": True, "solution": True}},
              "source": "x = 1  # a\n", "outputs": []}
    nb = {"cells": [graded], "metadata": {}}
    with pytest.raises(ValueError, match="graded or locked"):
        i18n.translate_notebook(nb, {"g": i18n.Entry("g", "0" * 12, True, "x = 1  # 一\n")}, LANG, "demo")
