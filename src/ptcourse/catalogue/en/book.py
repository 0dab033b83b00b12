"""Messages of the course's web book (tools/book.py, ``make book``): the language switch and the
box on each page that says how to practise the notebook."""

MESSAGES = {
    "book.title": "PyTorch in Three Days",
    "book.day": "Day {n}",
    "book.reference": "Reference",
    "book.switch": "中文",
    "book.switch_label": "Read this page in Chinese",
    "book.practise": "Practise this notebook",
    "book.download": "Download this notebook ({name})",
    "book.binder": "Open it on Binder: in your browser, nothing to install",
    "book.local": "Or on your computer (Python 3.11, make and git; about 6 GB of disk), then open {path}:",
    "book.outputs": (
        "What the cells print comes from running this learner's copy while the site was built. "
        "The exercises are still empty, so their checks, and the cells that need their answers, show nothing."
    ),
}
