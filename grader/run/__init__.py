"""The grader's run stage (CONTRIBUTING.md, "A map of the grader")."""
