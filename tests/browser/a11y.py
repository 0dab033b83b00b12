"""Accessibility checks with axe-core (Deque), run in the page by Playwright.

axe-core comes vendored in the ``axe-playwright-python`` package (pinned in requirements-dev.txt):
nothing is downloaded. The rules are WCAG 2.0/2.1 A and AA; a page passes when no violation is
"serious" or "critical". In JupyterLab only the notebook itself is checked (the course's
content: its rendered markdown, code and outputs), not JupyterLab's own menus and panels.
"""

from __future__ import annotations

from dataclasses import dataclass

WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = ("serious", "critical")


@dataclass(frozen=True)
class Violation:
    rule: str
    impact: str
    help: str
    nodes: int
    example: str

    def __str__(self) -> str:
        return f"{self.impact} {self.rule} ({self.nodes}x): {self.help}; e.g. {self.example}"


def violations(page, context: str | None = None, best_practice: bool = False) -> list[Violation]:
    """Every WCAG 2.1 A/AA violation axe-core finds on ``page`` (within ``context``, a CSS selector),
    and with ``best_practice`` the violations of axe's best practices too (landmarks, headers)."""
    from axe_playwright_python.sync_playwright import Axe

    tags = WCAG_AA + (["best-practice"] if best_practice else [])
    options = {"runOnly": {"type": "tag", "values": tags}, "resultTypes": ["violations"]}
    found = Axe().run(page, context=context, options=options).response["violations"]
    return [Violation(v["id"], v.get("impact") or "", v["help"], len(v["nodes"]), v["nodes"][0]["html"][:160])
            for v in found]


def blocking(found: list[Violation]) -> list[Violation]:
    return [v for v in found if v.impact in BLOCKING]
