"""The grader's lms stage (CONTRIBUTING.md, "A map of the grader")."""
