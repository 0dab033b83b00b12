"""Shared code for *PyTorch in Three Days*.

Notebooks import from here instead of copying cells:

* :func:`setup` - seed, thread count and device in one call (the notebooks' first cell);
* :mod:`ptcourse.checks` - the check helpers the test cells use, with friendly messages;
* :mod:`ptcourse.data` - the bundled datasets (MNIST sample);
* :mod:`ptcourse.plotting` - small plotting helpers;
* :func:`show_progress` - the learner's last self-check per notebook (the course home's cell);
* :mod:`ptcourse.selfcheck` - ``python -m ptcourse.selfcheck NOTEBOOK``: the visible tests.

``setup`` is imported on first use, so ``import ptcourse`` alone (as on the course home) does
not load torch.

The package holds no answers: nothing public in it computes what an exercise asks the learner to
write (tests/test_package_answers.py).
"""

from ptcourse.progress import show_progress

__all__ = ["setup", "show_progress"]
__version__ = "0.1.0"


def __getattr__(name: str):
    if name == "setup":
        from ptcourse import env

        return getattr(env, name)
    raise AttributeError(f"module 'ptcourse' has no attribute {name!r}")
