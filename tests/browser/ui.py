"""What a person does in JupyterLab, as Playwright steps: open, run all, validate, read outputs.

Selectors are JupyterLab 4's (``.jp-NotebookPanel``, ``.jp-OutputArea-output``, Lumino menus
and their item labels) and nbgrader 0.9's lab extension (``.validate-button``; its dialog body
carries ``validation-success`` / ``validation-failed``).
"""

from __future__ import annotations

import re
from pathlib import Path

CURRENT = ".jp-NotebookPanel:not(.lm-mod-hidden)"
# How often a wait_for_function checks its condition, in ms. Playwright's default polls at every
# animation frame (60 a second), which keeps Chromium painting and, for a condition reading
# ``innerText``, laying the page out each time: the renderer's largest cost over a run of the tests.
POLL = 100
STDERR = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'


def shot(page, artifacts: Path, name: str) -> Path:
    path = artifacts / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def open_lab(page, lab, path: str = "/") -> None:
    """Show ``path`` in JupyterLab and wait until its kernel is idle: a notebook (``/lab/tree/NAME``) as
    :func:`open_page` opens it, anything else (``/``: ``make lab``'s own URL) by loading JupyterLab at
    ``path`` with a fresh workspace."""
    if path.startswith("/lab/tree/") and "?" not in path:
        open_page(page, lab, path.removeprefix("/lab/tree/"))
    else:
        page.goto("about:blank")  # leave the old page before its kernels go
        lab.shutdown_kernels()
        sep = "&" if "?" in path else "?"
        page.goto(lab.url(f"{path}{sep}reset"))
    page.wait_for_selector(f"{CURRENT} .jp-Cell")
    idle(page)


def open_page(page, lab, rel: str, kernel: bool = True) -> None:
    """Show the notebook ``rel`` in JupyterLab, not waiting for its kernel. In a JupyterLab of ``lab``
    already loaded in ``page``, by JupyterLab's own command (``docmanager:open``; the test server exposes
    the app as ``window.jupyterapp``): what was open is closed unsaved and its kernels ended first, and
    the notebook is read from disk afresh. A JupyterLab is loaded (with a fresh workspace) only when
    ``page`` shows none of ``lab``'s: a page load costs Chromium seconds of CPU, the command a fraction.
    ``kernel=False``: the notebook opens with no kernel (:func:`open_document`), for a test that only
    reads what JupyterLab renders."""
    here = page.url.startswith(lab.base + "/lab") and page.evaluate("() => Boolean(window.jupyterapp)")
    if not here:
        page.goto("about:blank")  # leave the old page before its kernels go
        lab.shutdown_kernels()
        if kernel:
            page.goto(lab.url(f"/lab/tree/{rel}?reset"))
            return
        page.goto(lab.url("/lab?reset"))
        page.wait_for_function("() => Boolean(window.jupyterapp)", polling=POLL)
    page.evaluate("""async () => {
        const app = window.jupyterapp;
        await app.restored;
        for (const w of Array.from(app.shell.widgets('main'))) { if (w.context) w.context.model.dirty = false; }
        await app.commands.execute('application:close-all');
    }""")
    page.wait_for_function(f"() => !document.querySelector('{CURRENT}')", polling=POLL)
    lab.shutdown_kernels()
    open_document(page, rel, kernel)


def open_document(page, rel: str, kernel: bool = True) -> None:
    """``docmanager:open`` of ``rel`` in the JupyterLab loaded in ``page``. ``kernel=False``: with no
    kernel, as when a notebook's factory prefers none (the preference is read once, as the document
    opens): a page only read costs no kernel start (about a CPU-second each) nor its shutdown.
    ``LabServer.kernels`` tells whether one started all the same."""
    page.evaluate("""async ([path, kernel]) => {
        const app = window.jupyterapp;
        const factory = app.docRegistry.getWidgetFactory('Notebook');
        const prefer = factory._preferKernel;
        if (!kernel) {
            if (typeof prefer !== 'boolean') throw new Error('JupyterLab has no Notebook factory _preferKernel');
            factory._preferKernel = false;
        }
        try { await app.commands.execute('docmanager:open', {path}); }
        finally { factory._preferKernel = prefer; }
    }""", [rel, kernel])


def idle(page, timeout: float = 120_000) -> None:
    """Wait for the status bar to say the current notebook's kernel is idle (in English or, in the
    Chinese edition's JupyterLab, 空闲)."""
    page.wait_for_function(
        "() => /\\|\\s*(Idle|空闲)/.test(document.querySelector('#jp-main-statusbar')?.innerText || '')",
        timeout=timeout, polling=POLL,
    )


def menu(page, top: str, item: str) -> None:
    """Open a main-menu entry (``top``) and click its item labelled exactly ``item``."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{top}$")).click()
    page.locator(".lm-Menu-content .lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$")).click()


def run_all(page, timeout: float = 180_000) -> None:
    """Run → Run All Cells, then wait until no cell is running and the kernel is idle."""
    page.locator(f"{CURRENT} .jp-Notebook").click(position={"x": 5, "y": 5})
    menu(page, "Run", "Run All Cells")
    prompts = f"document.querySelectorAll('{CURRENT} .jp-InputArea-prompt')"
    page.wait_for_function(f"() => [...{prompts}].some(p => /\\[(\\d+|\\*)\\]/.test(p.textContent))", polling=POLL)
    page.wait_for_function(
        f"() => ![...{prompts}].some(p => p.textContent.includes('[*]'))", timeout=timeout, polling=POLL
    )
    idle(page, timeout)


def code_cells(page) -> tuple[int, int]:
    """(code cells, code cells that ran) in the current notebook."""
    prompts = texts(page, f"{CURRENT} .jp-CodeCell .jp-InputArea-prompt")
    return len(prompts), sum(bool(re.search(r"\[\d+\]", p)) for p in prompts)


def stderr_outputs(page) -> list[str]:
    """Every error, traceback or warning shown in the current notebook."""
    return texts(page, f"{CURRENT} {STDERR}")


def texts(page, selector: str) -> list[str]:
    """``textContent`` of every match: cells scrolled out of view (content-visibility) included."""
    return page.locator(selector).evaluate_all("els => els.map(e => e.textContent)")


def validate(page, timeout: float = 180_000) -> tuple[str, str]:
    """Press nbgrader's Validate button; return (result class, dialog text). The dialog stays open."""
    page.locator(f"{CURRENT} .validate-button").click()
    result = page.locator(".jp-Dialog [class*='validation-']").first
    try:
        result.wait_for(timeout=timeout)
    except Exception as exc:
        dialogs = page.locator(".jp-Dialog").all_inner_texts()
        raise AssertionError(f"Validate gave no result; dialogs shown: {dialogs}") from exc
    kind = next((c for c in (result.get_attribute("class") or "").split() if c.startswith("validation-")), "")
    return kind, page.locator(".jp-Dialog-content").inner_text()


def close_dialog(page) -> None:
    page.locator(".jp-Dialog .jp-mod-accept").click()
    page.locator(".jp-Dialog").wait_for(state="detached")


def rendered_markdown(page, cells: int, timeout: float = 60_000) -> list[str]:
    """The text of every rendered markdown cell of the current notebook, as the learner reads it:
    code spans, code blocks and typeset math left out (they may hold ``*`` or ``__``). JupyterLab
    renders a cell once it comes into view: scroll down a screen at a time until ``cells`` are."""
    rendered = f"{CURRENT} .jp-MarkdownCell .jp-RenderedMarkdown"
    page.wait_for_function(
        f"""() => {{ const s = document.querySelector('{CURRENT} .jp-WindowedPanel-outer');
          if (s) s.scrollTop += s.clientHeight;
          return document.querySelectorAll('{rendered}').length >= {cells}; }}""", timeout=timeout, polling=300)
    return page.locator(f"{CURRENT} .jp-MarkdownCell .jp-RenderedMarkdown").evaluate_all(
        "els => els.map(e => { const c = e.cloneNode(true);"
        " c.querySelectorAll('code, pre, mjx-container, .MathJax, script').forEach(x => x.remove());"
        " return c.textContent; })")
