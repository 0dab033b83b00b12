"""The grader's intake stage (CONTRIBUTING.md, "A map of the grader")."""
