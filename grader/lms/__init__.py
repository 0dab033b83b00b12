"""The learning platforms: each one (Canvas, Moodle) an object behind one interface
(:class:`grader.lms.platform.LearningPlatform`), listed once in :mod:`grader.lms.registry`: its
download's names, its class lists and group files, its grade import file.

A stage of the grader: CONTRIBUTING.md, "A map of the grader".
"""
