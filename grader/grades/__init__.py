"""The grader's grades stage (CONTRIBUTING.md, "A map of the grader")."""
