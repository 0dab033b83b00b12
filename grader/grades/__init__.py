"""Grades: nbgrader's gradebook (templates, one-notebook gradebooks, merging, reading scores), late
penalties, hand-in times and due dates.

A stage of the grader: CONTRIBUTING.md, "A map of the grader".
"""
