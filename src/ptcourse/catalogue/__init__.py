"""Message catalogues, one folder per language (see :mod:`ptcourse.messages`)."""
