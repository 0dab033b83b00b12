"""``python -m grader``: see :mod:`grader.cli`."""

from grader.cli import main

raise SystemExit(main())
