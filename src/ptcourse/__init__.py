"""Shared code for *PyTorch in Three Days*.

Notebooks import from here instead of copying cells:

* :func:`setup` - seed, thread count and device in one call (the notebooks' first cell);
* :mod:`ptcourse.checks` - the check helpers the test cells use, with friendly messages;
* :mod:`ptcourse.data` - the bundled datasets (MNIST sample);
* :mod:`ptcourse.plotting` - small plotting helpers.
"""

from ptcourse.env import default_device, setup

__all__ = ["default_device", "setup"]
__version__ = "0.1.0"
