"""Entry point nbgrader finds at the course root; the real configuration is in grader/."""

import os

c = get_config()  # noqa: F821
load_subconfig(os.path.join(os.path.dirname(os.path.abspath(__file__)), "grader", "nbgrader_config.py"))  # noqa: F821
