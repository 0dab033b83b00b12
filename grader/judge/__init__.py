"""The grader's judge stage (CONTRIBUTING.md, "A map of the grader")."""
