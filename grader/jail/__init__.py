"""The grader's jail stage (CONTRIBUTING.md, "A map of the grader")."""
