"""Build the course as a web book: a static site of the learner's notebooks, in English and Chinese.

    python tools/book.py [--out DIR] [--repo OWNER/NAME] [--no-execute] [--lang en --lang zh-CN]
    (make book [REPO=owner/name] [BOOK_EXECUTE=0])

``DIR`` (default ``book/_build/html``) gets ``en/`` and ``zh-CN/``, one Sphinx site each (MyST-NB,
the Sphinx Book Theme, its offline search), an ``index.html`` that leads to ``en/HOME.html``, and
``.nojekyll`` (GitHub Pages then serves the ``_static`` folders). The pages are the **learner's
copies** (``HOME.ipynb``, ``dayN/*.ipynb`` and ``zh-CN/``: exercises empty, no hidden test) in
reading order, and the glossary ``i18n/zh-CN/GLOSSARY.md``. Every page has a switch to the same
page in the other language; each notebook page a box with a download of its learner's copy, a
Binder launch of the student edition (``OWNER/NAME``, as ``make student-edition``) and the
two-line set-up.

Outputs: each learner's copy is run in a kernel (nbclient, in its own folder, as a learner would);
the outputs of its demo cells that ran without an error are kept, and nothing of an exercise or a
test cell (empty exercises fail, and so do the cells that need them). Runs are cached by content
hash in ``book/_build/cache`` (the notebook, ``src/ptcourse``, ``data/`` and the versions of
Python and torch), so a rebuild runs only what changed. A notebook that cannot be run is named
on stderr, its page has no outputs and the build exits 1.

Before it says "done", the build checks the site: no broken internal link or anchor, no asset
from the network, no solution or hidden-test line (:func:`edition.solution_lines`, searched in
each page's text and in the downloads), no image without alt text, and the size budget
(:data:`BUDGET`). Any finding: exit 1.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import importlib.metadata
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: tools/edition.py and ptcourse by their package names
    sys.path.insert(0, str(ROOT))

from ptcourse.messages import msg_in  # noqa: E402
from tools import edition  # noqa: E402

BOOK = ROOT / "book"
OUT = BOOK / "_build" / "html"
CACHE = BOOK / "_build" / "cache"
DAYS = ("day1", "day2", "day3")
GLOSSARY = "i18n/zh-CN/GLOSSARY.md"
CELL_TIMEOUT = 600  # seconds a demo cell may run (day 2's CNN trains for about a minute on 2 cores)
BINDER = "https://mybinder.org/v2/gh/{repo}/HEAD?urlpath={path}"
MATHJAX = ("tex-chtml.js", "output/chtml/fonts/woff-v2")  # of sphinx-mathjax-offline's MathJax 3.2.2


@dataclass(frozen=True)
class Budget:
    """Sizes the built site stays under (tests/test_book.py and every ``make book`` check them)."""
    page_bytes: int = 1_000_000      # one HTML page, figures (base64 PNGs) included: 250 kB at most now
    site_bytes: int = 40_000_000     # everything, both languages: 26 MB now, 16 MB of it the theme


BUDGET = Budget()


@dataclass(frozen=True)
class Lang:
    code: str       # the site's folder and the HTML lang: en, zh-CN
    prefix: str     # where its learner's copies lie in the repository: "" or "zh-CN/"
    sphinx: str     # Sphinx's language (its own words: search, navigation)
    other: str      # the language the switch leads to


LANGS = {"en": Lang("en", "", "en", "zh-CN"), "zh-CN": Lang("zh-CN", "zh-CN/", "zh_CN", "en")}


@dataclass(frozen=True)
class Page:
    name: str       # the page's name in its site: HOME, day1/01_tensors, GLOSSARY
    source: str     # the learner's copy, relative to the repository: zh-CN/day1/01_tensors.ipynb

    @property
    def notebook(self) -> bool:
        return self.source.endswith(".ipynb")


@dataclass
class Report:
    """What one build did and found."""
    seconds: float = 0.0
    executed: list[str] = field(default_factory=list)     # notebooks run now (not from the cache)
    cached: list[str] = field(default_factory=list)
    not_run: list[str] = field(default_factory=list)      # "page: why": shown without outputs
    problems: list[str] = field(default_factory=list)     # broken links, leaks, budget: the build fails

    @property
    def ok(self) -> bool:
        return not self.not_run and not self.problems


def pages(lang: Lang, root: Path = ROOT) -> list[Page]:
    """The pages of ``lang``'s site in reading order: the home, each day's notebooks, the glossary."""
    found = [Page("HOME", f"{lang.prefix}HOME.ipynb")]
    for day in DAYS:
        found += [Page(f"{day}/{p.stem}", f"{lang.prefix}{day}/{p.name}")
                  for p in sorted((root / lang.prefix / day).glob("*.ipynb"))]
    return found + [Page("GLOSSARY", GLOSSARY)]


# --- the pages' text ------------------------------------------------------------------------------

MD_LINK = re.compile(r"\[(?P<text>[^\]\n]*)\]\((?P<target>[^)\s#]+)(?P<anchor>#[^)\s]*)?\)")


def relinked(text: str, page: Page, lang: Lang, sites: dict[str, tuple[str, str]], repo: str) -> str:
    """Markdown ``text`` of ``page`` with each relative link that leaves the site made absolute: to
    the other language's page (an HTML link: MyST checks Markdown links against this site's pages)
    or to the file in the student edition on GitHub."""
    here = posixpath.dirname(page.source)
    up = "../" * page.name.count("/")

    def one(match: re.Match) -> str:
        target, anchor = match["target"], match["anchor"] or ""
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
            return match[0]
        full = posixpath.normpath(posixpath.join(here, unquote(target)))
        site, name = sites.get(full, (None, None))
        if site == lang.code:
            return match[0]
        if site is not None:
            href = html.escape(f"{up}../{site}/{name}.html{anchor}")
            return f'<a href="{href}" hreflang="{site}" lang="{site}">{match["text"]}</a>'
        return f"[{match['text']}](https://github.com/{repo}/blob/HEAD/{quote(full)}{anchor})"
    return MD_LINK.sub(one, text)


def toctree(lang: Lang, site: list[Page]) -> str:
    """The hidden tables of contents (the theme's sidebar): one per day, then the reference pages."""
    groups: dict[str, list[str]] = {}
    for page in site[1:]:
        day = page.name.split("/")[0]
        caption = msg_in(lang.code, "book.day", n=day[3:]) if day in DAYS else msg_in(lang.code, "book.reference")
        groups.setdefault(caption, []).append(page.name)
    return "\n\n".join(f"```{{toctree}}\n:hidden:\n:caption: {caption}\n\n" + "\n".join(names) + "\n```"
                       for caption, names in groups.items())


def page_text(page: Page, text: str, lang: Lang, site: list[Page], sites: dict, repo: str) -> str:
    """The source Sphinx reads for ``page``: links relocated, and the home holds the contents."""
    if not page.notebook:  # the glossary: its avoid list is a fenced block Pygments has no lexer for
        return relinked(re.sub(r"^```avoid$", "```text", text, flags=re.M), page, lang, sites, repo)
    nb = json.loads(text)
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            cell["source"] = relinked("".join(cell["source"]), page, lang, sites, repo)
    if page.name == "HOME":
        nb["cells"].append({"cell_type": "markdown", "id": "book-contents", "metadata": {},
                           "source": toctree(lang, site)})
    return json.dumps(nb, ensure_ascii=False, indent=1)


def practise_box(page: Page, lang: Lang, repo: str, executed: bool) -> str:
    """The box above a notebook: download the learner's copy, open it on Binder, or set it up."""
    up = "../" * page.name.count("/")
    name = posixpath.basename(page.source)
    binder = BINDER.format(repo=repo, path=quote(f"lab/tree/{page.source}", safe=""))
    setup = (f"git clone https://github.com/{repo}.git pytorch-in-three-days && cd pytorch-in-three-days\n"
             "make lab")
    m = lambda key, **v: html.escape(msg_in(lang.code, key, **v))  # noqa: E731
    note = f'<p class="book-outputs">{m("book.outputs")}</p>' if executed else ""
    return (f'<aside class="admonition tip book-practise" aria-label="{m("book.practise")}">'
            f'<p class="admonition-title">{m("book.practise")}</p><ul>'
            f'<li><a href="{up}notebooks/{page.name}.ipynb" download="{html.escape(name)}">'
            f'{m("book.download", name=name)}</a></li>'
            f'<li><a href="{html.escape(binder)}">{m("book.binder")}</a></li></ul>'
            f'<p>{m("book.local", path=html.escape(page.source))}</p>'
            f'<pre><code>{html.escape(setup)}</code></pre>{note}</aside>')


# --- running the learner's copies (cached by content hash) ---------------------------------------

def _environment_hash(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted((root / "src" / "ptcourse").rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + path.read_bytes())
    for path in sorted((root / "data").rglob("*")):
        if path.is_file():
            digest.update(f"{path.relative_to(root).as_posix()}:{path.stat().st_size}".encode())
    digest.update(f"{sys.version}:{importlib.metadata.version('torch')}:{CELL_TIMEOUT}".encode())
    return digest.hexdigest()


def kept_outputs(nb: dict) -> dict:
    """``nb`` with only the outputs a reader should see: those of demo cells that ran without an
    error, without stderr and widget views (their scripts would load from the network)."""
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        grading = cell.get("metadata", {}).get("nbgrader", {})
        failed = any(o.get("output_type") == "error" for o in cell.get("outputs", []))
        if grading.get("solution") or grading.get("grade") or failed:
            cell["outputs"] = []
        cell["outputs"] = [o for o in cell.get("outputs", [])
                           if not (o.get("output_type") == "stream" and o.get("name") == "stderr")]
        for output in cell["outputs"]:
            output.get("data", {}).pop("application/vnd.jupyter.widget-view+json", None)
        cell["outputs"] = [o for o in cell["outputs"] if o.get("output_type") == "stream" or o.get("data")]
    nb.get("metadata", {}).pop("widgets", None)
    return nb


def run_notebook(text: str, folder: Path) -> str:
    """``text`` (a learner's copy) run in a fresh kernel in ``folder``, past errors, outputs kept
    by :func:`kept_outputs`. Raises what nbclient raises when the kernel dies or a cell times out."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.reads(text, as_version=4)
    with tempfile.TemporaryDirectory(prefix="book-run-") as scratch:
        saved = {k: os.environ.get(k) for k in ("PTCOURSE_PROGRESS", "MPLBACKEND")}
        os.environ["PTCOURSE_PROGRESS"] = str(Path(scratch) / "progress.json")  # not the learner's
        os.environ.pop("MPLBACKEND", None)
        try:
            NotebookClient(nb, timeout=CELL_TIMEOUT, allow_errors=True, kernel_name="python3",
                           store_widget_state=False, resources={"metadata": {"path": str(folder)}}).execute()
        finally:
            for key, value in saved.items():
                os.environ.pop(key, None) if value is None else os.environ.__setitem__(key, value)
    out = kept_outputs(json.loads(nbformat.writes(nb)))
    return json.dumps(out, ensure_ascii=False, indent=1)


def executed(page: Page, text: str, root: Path, cache: Path, env_hash: str, report: Report) -> str | None:
    """``page``'s learner's copy with its outputs, from the cache or run now; None when it could not run."""
    key = hashlib.sha256((env_hash + page.source + text).encode()).hexdigest()
    stored = cache / f"{key}.ipynb"
    if stored.exists():
        report.cached.append(page.source)
        return stored.read_text(encoding="utf-8")
    print(f"book: running {page.source} ...", file=sys.stderr, flush=True)
    try:
        result = run_notebook(text, root / posixpath.dirname(page.source))
    except Exception as error:  # noqa: BLE001 - any failure: that page without outputs, named, exit 1
        report.not_run.append(f"{page.source}: {type(error).__name__}: {str(error).splitlines()[0][:200]}")
        return None
    if str(root) in result or str(Path.home()) in result:
        report.not_run.append(f"{page.source}: an output shows a path of this machine; shown without outputs")
        return None
    cache.mkdir(parents=True, exist_ok=True)
    stored.write_text(result, encoding="utf-8")
    report.executed.append(page.source)
    return result


# --- one language's site ---------------------------------------------------------------------------

def stage(lang: Lang, src: Path, repo: str, root: Path, execute: bool, report: Report) -> dict[str, str]:
    """Write ``lang``'s Sphinx sources into ``src``; returns the practise box of each notebook page."""
    site = pages(lang, root)
    sites = {p.source: (code, p.name) for code, other in LANGS.items() for p in pages(other, root)
             if p.source != GLOSSARY or code == lang.code}
    env_hash = _environment_hash(root) if execute else ""
    boxes = {}
    for page in site:
        text = (root / page.source).read_text(encoding="utf-8")
        # the home's only code cell is the learner's own progress table: a reader of the site has none
        run = execute and page.notebook and page.name != "HOME"
        ran = executed(page, text, root, CACHE, env_hash, report) if run else None
        target = src / (page.name + Path(page.source).suffix)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page_text(page, ran or text, lang, site, sites, repo), encoding="utf-8")
        if page.notebook:
            boxes[page.name] = practise_box(page, lang, repo, ran is not None)
    return boxes


def build_lang(lang: Lang, out: Path, repo: str, root: Path, execute: bool, report: Report) -> None:
    """``lang``'s site into ``out/<lang>``: staged sources, Sphinx (warnings are errors), downloads."""
    work = out.parent / "src" / lang.code
    shutil.rmtree(work, ignore_errors=True)
    boxes = stage(lang, work, repo, root, execute, report)
    shutil.copy(BOOK / "conf.py", work / "conf.py")
    context = {"title": msg_in(lang.code, "book.title"), "sphinx_language": lang.sphinx, "other": lang.other,
               "switch_text": msg_in(lang.code, "book.switch"), "switch_label": msg_in(lang.code, "book.switch_label"),
               "templates": str(BOOK / "_templates"), "static": str(BOOK / "_static"), "boxes": boxes}
    (work / "book_context.json").write_text(json.dumps(context, ensure_ascii=False), encoding="utf-8")
    site = out / lang.code
    shutil.rmtree(site, ignore_errors=True)
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q", "-E",
               "-d", str(out.parent / "doctrees" / lang.code), str(work), str(site)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"error: Sphinx failed on the {lang.code} pages (warnings count as errors):\n"
                         + (done.stderr or done.stdout)[-4000:])
    for page in pages(lang, root):
        if page.notebook:
            (site / "notebooks" / page.name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / page.source, site / "notebooks" / f"{page.name}.ipynb")
    _copy_mathjax(site / "_static" / "mathjax")


def _copy_mathjax(target: Path) -> None:
    dist = importlib.metadata.distribution("sphinx-mathjax-offline")
    script = next(f for f in dist.files if f.name == "tex-chtml.js")
    source = Path(dist.locate_file(script)).parent
    target.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source / MATHJAX[0], target / MATHJAX[0])
    shutil.copytree(source / MATHJAX[1], target / MATHJAX[1], dirs_exist_ok=True)


def write_index(out: Path) -> None:
    """The site's root: straight on to the English home, with a link to each language."""
    (out / ".nojekyll").write_text("")
    (out / "index.html").write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<title>{html.escape(msg_in("en", "book.title"))}</title>'
        '<meta http-equiv="refresh" content="0; url=en/HOME.html"></head>\n'
        f'<body><p><a href="en/HOME.html">{html.escape(msg_in("en", "book.title"))}</a> · '
        f'<a href="zh-CN/HOME.html" lang="zh-CN" hreflang="zh-CN">{html.escape(msg_in("zh-CN", "book.title"))}</a>'
        '</p></body></html>\n', encoding="utf-8")


# --- checks of the built site ---------------------------------------------------------------------

class _Links(HTMLParser):
    """The links, asset sources, element ids and text of one HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.refs: list[tuple[str, str]] = []   # (tag, url)
        self.ids: set[str] = set()
        self.text: list[str] = []
        self.no_alt: list[str] = []             # images without a text alternative

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        for name in ("href", "src"):
            if values.get(name):
                self.refs.append((tag, values[name]))
        if values.get("id"):
            self.ids.add(values["id"])
        if tag == "img" and not (values.get("alt") or "").strip():
            self.no_alt.append((values.get("src") or "")[:60])
        if values.get("name") and tag == "a":
            self.ids.add(values["name"])

    def handle_data(self, data):
        self.text.append(data)


def _parsed(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return parser


def broken_links(site: Path) -> list[str]:
    """``page: url`` for each link or asset of the site's pages that leads nowhere inside the site
    (a missing file, or an anchor no element of the target page has), and each asset (script,
    style, image, font) that would load from the network."""
    parsed = {p: _parsed(p) for p in sorted(site.rglob("*.html")) if "_static" not in p.relative_to(site).parts}
    found = []
    for page, links in parsed.items():
        for tag, url in links.refs:
            parts = urlsplit(url)
            if parts.scheme in ("http", "https") or url.startswith("//"):
                if tag in ("script", "link", "img", "source", "iframe"):
                    found.append(f"{page.relative_to(site)}: {url} (loads from the network)")
                continue
            if parts.scheme or not (parts.path or parts.fragment):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file() or site.resolve() not in target.parents:
                found.append(f"{page.relative_to(site)}: {url}")
            elif parts.fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else _parsed(target).ids
                if unquote(parts.fragment) not in ids:
                    found.append(f"{page.relative_to(site)}: {url} (no such anchor)")
    return found


def _collapsed(text: str) -> str:
    return " ".join(text.split())


def solution_lines(root: Path = ROOT) -> set[str]:
    """:func:`edition.solution_lines`, less the lines the course shows anyway once a page renders
    its prose: a line that the notebooks' text outside the solution and hidden-test blocks holds
    wrapped over two lines (HTML joins them: "then `save_checkpoint(ckpt_path, run,` / `epoch)`")."""
    shown = _collapsed("\n".join(edition.BLOCK.sub("", source) for source in edition._cell_sources(root)))
    return {line for line in edition.solution_lines(root) if _collapsed(line) not in shown}


def leaks(site: Path, root: Path = ROOT) -> list[str]:
    """``file: line`` for each solution or hidden-test line in the site: in the text of each page
    (tags and syntax highlighting stripped, entities decoded) and in every other file as it is."""
    with tempfile.TemporaryDirectory(prefix="book-text-") as mirror:
        for path in site.rglob("*"):
            if not path.is_file():
                continue
            target = Path(mirror) / path.relative_to(site)
            target.parent.mkdir(parents=True, exist_ok=True)
            if path.suffix == ".html":
                target.write_text("".join(_parsed(path).text), encoding="utf-8")
            else:
                shutil.copyfile(path, target)
        return [f"{where}: {line}" for where, line in edition.find_leaks(Path(mirror), solution_lines(root))]


def over_budget(site: Path, budget: Budget = BUDGET) -> list[str]:
    """The pages over ``budget.page_bytes``, and the whole site when over ``budget.site_bytes``."""
    files = [p for p in site.rglob("*") if p.is_file()]
    found = [f"{p.relative_to(site)}: {p.stat().st_size:,} bytes (a page may have {budget.page_bytes:,})"
             for p in files if p.suffix == ".html" and p.stat().st_size > budget.page_bytes]
    total = sum(p.stat().st_size for p in files)
    if total > budget.site_bytes:
        found.append(f"the site: {total:,} bytes (it may have {budget.site_bytes:,})")
    return found


def missing_alt(site: Path) -> list[str]:
    """``page: src`` of each image of the site's pages without a text alternative (a figure's
    ``alt``, from ``ptcourse.plotting.describe``; README, "Every figure has a text alternative")."""
    return [f"{page.relative_to(site)}: {src}" for page in sorted(site.rglob("*.html"))
            if "_static" not in page.relative_to(site).parts for src in _parsed(page).no_alt]


def check(site: Path, root: Path = ROOT) -> list[str]:
    """Every problem the built site has: broken links, network assets, leaks, images without
    words, sizes."""
    return ([f"broken link: {x}" for x in broken_links(site)] + [f"solution text: {x}" for x in leaks(site, root)]
            + [f"image without alt text: {x}" for x in missing_alt(site)]
            + [f"over budget: {x}" for x in over_budget(site)])


# --- the command -----------------------------------------------------------------------------------

def build(out: Path = OUT, repo: str = edition.PLACEHOLDER_REPO, langs: tuple[str, ...] = tuple(LANGS),
          execute: bool = True, root: Path = ROOT) -> Report:
    """Both languages' sites into ``out``, then :func:`check` them."""
    started, report = time.monotonic(), Report()
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", repo):
        raise SystemExit(f"error: --repo should be OWNER/NAME as on GitHub, got {repo!r}")
    out.mkdir(parents=True, exist_ok=True)
    for code in langs:
        build_lang(LANGS[code], out, repo, root, execute, report)
    write_index(out)
    report.problems = check(out, root)
    report.seconds = time.monotonic() - started
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make book", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the site's folder (default book/_build/html)")
    parser.add_argument("--repo", help="the student edition on GitHub, OWNER/NAME (default: this checkout's origin)")
    parser.add_argument("--no-execute", action="store_true", help="pages without outputs (no kernel runs)")
    parser.add_argument("--lang", action="append", choices=tuple(LANGS), help="only this language (repeatable)")
    args = parser.parse_args(argv)
    repo = args.repo or edition.github_remote() or edition.PLACEHOLDER_REPO
    report = build(args.out, repo, tuple(args.lang or LANGS), not args.no_execute)
    for line in report.not_run:
        print(f"book: not run, shown without outputs: {line}", file=sys.stderr)
    for line in report.problems:
        print(f"book: {line}", file=sys.stderr)
    print(f"book: {args.out / 'index.html'} in {report.seconds:.0f} s ({len(report.executed)} notebooks run, "
          f"{len(report.cached)} from the cache{', outputs off' if args.no_execute else ''})")
    if not args.repo and repo != edition.PLACEHOLDER_REPO:
        print(f"book: the Binder launches and clone commands name {repo}, this checkout's git remote 'origin' "
              "(REPO=owner/name to change): publish the site only if that is the student edition "
              "(make student-edition), never a repository with solutions/", file=sys.stderr)
    if repo == edition.PLACEHOLDER_REPO:
        print("\n" + "!" * 78 + f"\nWARNING: the pages' Binder launch and clone command name the placeholder "
              f"{repo}:\nthey lead nowhere. Rebuild with REPO=owner/name (make book REPO=owner/name) "
              "before you publish it.\n" + "!" * 78, file=sys.stderr)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
