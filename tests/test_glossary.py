"""The Chinese glossary's decisions hold everywhere: no "avoid" spelling of
``i18n/zh-CN/GLOSSARY.md`` (its ```avoid block: a regular expression ``=>`` what to write
instead) in the Chinese prose of the translation files or in the zh_CN message catalogue.
No kernel, about a second."""

from __future__ import annotations

import importlib
import io
import pkgutil
import re
import sys
import tokenize
from dataclasses import dataclass

import pytest

from tools.notebooks import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import i18n  # noqa: E402  (tools/i18n.py)

GLOSSARY = ROOT / "i18n" / "zh-CN" / "GLOSSARY.md"
BLOCK = re.compile(r"^```avoid\n(.*?)^```", re.S | re.M)
FENCE = re.compile(r"^\s*```.*?^\s*```", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")


@dataclass(frozen=True)
class Avoid:
    """One avoided spelling: where it matches and what to write instead."""

    pattern: re.Pattern
    instead: str


def avoid_list(text: str) -> list[Avoid]:
    block = BLOCK.search(text)
    assert block, f"{GLOSSARY.name}: no ```avoid block"
    rules = []
    for line in block[1].splitlines():
        if line.strip():
            pattern, _, instead = line.partition(" => ")
            rules.append(Avoid(re.compile(pattern), instead.strip()))
    return rules


AVOID = avoid_list(GLOSSARY.read_text(encoding="utf-8"))


def _comments(code: str) -> str:
    try:
        tokens = tokenize.generate_tokens(io.StringIO(code + "\n").readline)
        return "\n".join(tok.string for tok in tokens if tok.type == tokenize.COMMENT)
    except (tokenize.TokenError, SyntaxError):
        return "\n".join(ln.split("#", 1)[1] for ln in code.splitlines() if "#" in ln)


def prose(entry: i18n.Entry) -> str:
    """What a learner reads of a translation entry: markdown outside code, or a code cell's comments."""
    if entry.code:
        return _comments(entry.text)
    return CODE_SPAN.sub(" ", FENCE.sub(" ", entry.text))


def chinese_texts() -> dict[str, str]:
    """``{where: text}`` of every translation entry and every zh_CN catalogue message."""
    texts = {}
    for path in sorted((ROOT / "i18n" / "zh-CN").rglob("*.md")):
        if path != GLOSSARY:
            for cell, entry in i18n.parse(path.read_text(encoding="utf-8")).items():
                texts[f"{path.relative_to(ROOT)} cell {cell}"] = prose(entry)
    package = importlib.import_module("ptcourse.catalogue.zh_CN")
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for key, text in module.MESSAGES.items():
            texts[f"catalogue zh_CN/{info.name}.py {key}"] = text
    return texts


TEXTS = chinese_texts()


@pytest.mark.parametrize("rule", AVOID, ids=lambda r: r.pattern.pattern[:40])
def test_no_avoided_spelling(rule):
    found = [f"{where}: «{text[max(0, m.start() - 15):m.end() + 15]}»"
             for where, text in TEXTS.items() for m in rule.pattern.finditer(text)]
    assert not found, f"glossary: write {rule.instead} instead of /{rule.pattern.pattern}/:\n" + "\n".join(found)


def test_the_avoid_list_is_read_and_catches_the_old_spellings():
    assert len(AVOID) >= 10 and len(TEXTS) > 500
    old = ["显存", "GPU 上内存不足", "丢弃（dropout）和批归一化", "模型中有 dropout 时", "激活检查点", "每个块都设检查点",
           "启动一个 GPU 内核", "CPU 上优化过的卷积核（oneDNN）", "一次全规约", "0.43 百万次乘加",
           r"\text{mean loss of micro-batch } i"]
    caught = [text for text in old if any(rule.pattern.search(text) for rule in AVOID)]
    assert caught == old[1:], "the first is allowed, every other one should be caught"
    allowed = ["并丢弃最后不完整的批次", "不丢弃", "其余输出已被丢弃", "重启内核", "`nn.Dropout(p)`", r"\text{loss}_i",
               "梯度检查点", "保存一个检查点", "全归约", "约 43 万次"]
    assert not [t for t in allowed if any(rule.pattern.search(CODE_SPAN.sub(" ", t)) for rule in AVOID)]
    assert prose(i18n.Entry("c1", "0" * 12, True, "x = dropout(y)  # 丢弃（dropout）\n")).strip() == "# 丢弃（dropout）"
