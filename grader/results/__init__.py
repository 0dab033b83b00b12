"""The grader's results stage (CONTRIBUTING.md, "A map of the grader")."""
