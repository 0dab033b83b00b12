"""Intake: a class's files found and checked before any of their code runs: downloads unpacked safely,
submissions attributed, each rebuilt on the course's structure (repair), read for what a human should see
(scan), and each student's extensions and hand-in checks.

A stage of the grader: CONTRIBUTING.md, "A map of the grader".
"""
