"""The grading machine's paths never reach a learner: grader.security.scrub, and who imports it."""

from __future__ import annotations

import ast

from grader import security
from tools.notebooks import ROOT


def test_scrub_keeps_file_names_only():
    private = ["/srv/course", "/home/teacher"]
    text = "error in /srv/course/grader/run/jobs.py line 3; see /tmp/ptg-ab12/j-x/cwd/data.csv and /home/teacher"
    assert security.scrub(text, private) == "error in jobs.py line 3; see data.csv and …"
    assert security.scrub("", private) == ""


def test_the_cluster_scrubs_without_the_html_module():
    """A security function lives apart from the pages: the cluster imports it, not grader.report."""
    tree = ast.parse((ROOT / "grader" / "run" / "cluster.py").read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module == "grader"
                for alias in node.names}
    assert "security" in imported and "report" not in imported
