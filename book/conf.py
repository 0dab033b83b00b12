"""Sphinx configuration of the course's web book, one language at a time.

tools/book.py lays out each language's pages (the learner's copies) in a folder, copies this file
there and writes ``book_context.json`` beside it: the language, the page titles, the language
switch and the "practise this notebook" box of each page. Build with ``make book``, not by hand.
"""

import json
from pathlib import Path

CONTEXT = json.loads((Path(__file__).parent / "book_context.json").read_text(encoding="utf-8"))

project = CONTEXT["title"]
author = ""
copyright = ""
language = CONTEXT["sphinx_language"]
root_doc = "HOME"
extensions = ["myst_nb"]
templates_path = [CONTEXT["templates"]]
exclude_patterns = ["_build", "**.ipynb_checkpoints", "book_context.json"]

# The pages are executed by tools/book.py (a cache by content hash; the learner's copy, outputs of
# its demo cells only): Sphinx renders the stored outputs and never starts a kernel.
nb_execution_mode = "off"
nb_output_stderr = "remove"
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3
# Notebooks say "see the cell above" in prose, not with Sphinx labels.
suppress_warnings = ["myst.header"]

html_theme = "sphinx_book_theme"
html_title = CONTEXT["title"]
html_copy_source = False       # each page offers the learner's copy itself (tools/book.py)
html_show_sourcelink = False
html_show_sphinx = False
html_last_updated_fmt = None
html_static_path = [CONTEXT["static"]]
html_css_files = ["book.css"]
# MathJax 3.2.2 from the sphinx-mathjax-offline package (copied into _static/mathjax by tools/book.py):
# nothing loads from a CDN.
mathjax_path = "mathjax/tex-chtml.js"
html_theme_options = {
    "use_download_button": False,   # the practise box has the learner's copy
    "use_fullscreen_button": False,
    "use_repository_button": False,
    "launch_buttons": {},
    "show_toc_level": 2,
    "article_header_end": ["lang-switch.html", "article-header-buttons.html"],
}


def page_context(app, pagename, templatename, context, doctree):
    """The language switch (every page) and the practise box (each notebook) of ``pagename``."""
    depth = pagename.count("/")
    context["book_switch"] = {
        "href": "../" * depth + "../" + CONTEXT["other"] + "/" + pagename + ".html",
        "text": CONTEXT["switch_text"], "label": CONTEXT["switch_label"], "lang": CONTEXT["other"],
    }
    box = CONTEXT["boxes"].get(pagename)
    if box and "body" in context:  # under the page's title, or on top of a page without one
        body = context["body"]
        context["body"] = body.replace("</h1>", "</h1>" + box, 1) if "</h1>" in body else box + body


def _chinese_search_stemmer() -> None:
    """Sphinx 9.0.4's Chinese search ships the English stemmer (sphinx/search/zh.py:
    ``js_stemmer_rawcode = 'english-stemmer.js'``) but names it after the language
    (sphinx/search/__init__.py, ``get_js_stemmer_code``: ``window.Stemmer = ChineseStemmer``), so
    the search page stops with "ChineseStemmer is not defined". The same class, named for the
    stemmer it ships. tests/test_book.py searches the Chinese site in Chromium."""
    from sphinx import search
    from sphinx.search.zh import SearchChinese

    class ChineseWithEnglishStemmer(SearchChinese):
        language_name = "English"

    search.languages["zh"] = ChineseWithEnglishStemmer


def setup(app):
    if language.startswith("zh"):
        _chinese_search_stemmer()
    app.connect("html-page-context", page_context)
    return {"parallel_read_safe": True}
