"""``python -m grader``: see :mod:`grader.run.cli`."""

from grader.run.cli import main

raise SystemExit(main())
