"""Set up JupyterLab for the course inside the running Python's environment (``sys.prefix``).

Used by ``make install`` and by Binder's ``postBuild``:

- copies ``grader/lab-overrides.json`` to ``share/jupyter/lab/settings/overrides.json``
  (no "get notified about Jupyter news" pop-up, no update check; closing a notebook's tab
  shuts its kernel down, which gives its memory back);
- renames the ``python3`` kernel shown in JupyterLab to "PyTorch course (Python X.Y)". The
  kernel's *name* stays ``python3``, the name every notebook's metadata uses;
- writes the server's kernel culling into ``etc/jupyter/jupyter_server_config.json`` (merged
  with what is there):
  a kernel idle for :data:`CULL_IDLE_MINUTES` minutes is shut down, even while its notebook is
  open, so the kernels of notebooks a learner has moved on from give their memory back (Binder
  has 2 GB for the server and every kernel). A culled kernel loses only what it held in
  memory; the saved notebook is untouched. Busy kernels (a long training run) are never culled;
- in a student edition (``tools/course-edition.json``, written by ``tools/edition.py``): switches off
  nbgrader's instructor interface (the Create Assignment sidebar, Formgrader and Course List,
  and their server extensions), keeping the Validate button and the Assignment List (the
  Nbgrader menu's only entry then: how learners hand in through nbgrader's exchange); in the
  Chinese edition, opens JupyterLab in Chinese by default (a learner switches back with
  Settings → Language);
- gives ``HOME.ipynb`` the notebook metadata this environment's kernel reports (kernel display
  name, ``language_info`` with the Python version), so JupyterLab opens it without marking it
  modified. It writes only when they differ: with the pinned environment, never.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EDITION = ROOT / "tools" / "course-edition.json"  # only in a student edition: {"lang": "en" | "zh-CN"}
# nbgrader's instructor interface, which learners never need: its lab plugins but "validate-assignment"
# (the Validate button), "assignment-list" and "menu" (Fetch and Submit through nbgrader's exchange), and
# the server extensions behind them.
INSTRUCTOR_PLUGINS = tuple(f"@jupyter/nbgrader:{name}" for name in
                           ("create-assignment", "formgrader", "course-list"))
INSTRUCTOR_SERVER_EXTENSIONS = tuple(f"nbgrader.server_extensions.{name}" for name in
                                     ("formgrader", "course_list"))
LAB_LOCALES = {"zh-CN": "zh_CN"}  # the edition's language → the JupyterLab language pack's locale
DISPLAY_NAME = "PyTorch course (Python {}.{})".format(*sys.version_info[:2])
CULL_IDLE_MINUTES = 15  # longer than Binder's 10 min idle cut-off: only a notebook you left is idle that long
SERVER_CONFIG = {
    "MappingKernelManager": {
        "cull_idle_timeout": CULL_IDLE_MINUTES * 60,
        "cull_interval": 60,
        "cull_connected": True,  # an open tab keeps its kernel connected: cull it all the same
        "cull_busy": False,
    }
}


def edition() -> dict | None:
    """The student edition's facts (``tools/course-edition.json``), or ``None`` in the course repository."""
    return json.loads(EDITION.read_text(encoding="utf-8")) if EDITION.exists() else None


def install_lab_settings(prefix: Path | None = None) -> Path:
    """The course's JupyterLab setting overrides; the Chinese edition's lab starts in Chinese."""
    target = (prefix or Path(sys.prefix)) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    settings = json.loads((ROOT / "grader" / "lab-overrides.json").read_text())
    locale = LAB_LOCALES.get((edition() or {}).get("lang", "en"))
    if locale:
        settings["@jupyterlab/translation-extension:plugin"] = {"locale": locale}
    target.write_text(json.dumps(settings, indent=2) + "\n")
    return target


def install_page_config(prefix: Path | None = None) -> Path | None:
    """In a student edition, switch off nbgrader's instructor plugins (``labconfig/page_config.json``)."""
    if edition() is None:
        return None
    target = (prefix or Path(sys.prefix)) / "etc" / "jupyter" / "labconfig" / "page_config.json"
    config = json.loads(target.read_text()) if target.exists() else {}
    config.setdefault("disabledExtensions", {}).update(dict.fromkeys(INSTRUCTOR_PLUGINS, True))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(config, indent=1) + "\n")
    return target


def name_kernel(prefix: Path | None = None) -> Path:
    """Write the ``python3`` kernelspec into ``sys.prefix`` with the course's display name."""
    from ipykernel.kernelspec import get_kernel_dict

    target = (prefix or Path(sys.prefix)) / "share" / "jupyter" / "kernels" / "python3" / "kernel.json"
    spec = json.loads(target.read_text()) if target.exists() else get_kernel_dict()
    spec["argv"][0] = "python"  # jupyter_client runs its own interpreter for "python"
    spec["display_name"] = DISPLAY_NAME
    spec.setdefault("language", "python")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(spec, indent=1) + "\n")
    return target


def install_server_config(prefix: Path | None = None) -> Path:
    """Merge :data:`SERVER_CONFIG` into the config ``jupyter lab`` of this environment reads; in a
    student edition, switch off nbgrader's instructor server extensions there too.

    (Files in ``jupyter_server_config.d/`` only enable server extensions: other settings
    there are ignored; this file, read after them, wins.)
    """
    target = (prefix or Path(sys.prefix)) / "etc" / "jupyter" / "jupyter_server_config.json"
    config = json.loads(target.read_text()) if target.exists() else {}
    wanted = dict(SERVER_CONFIG)
    if edition() is not None:
        wanted["ServerApp"] = {"jpserver_extensions": dict.fromkeys(INSTRUCTOR_SERVER_EXTENSIONS, False)}
    for section, values in wanted.items():
        config.setdefault(section, {}).update(values)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(config, indent=1) + "\n")
    return target


def home_metadata() -> dict:
    """``kernelspec`` and ``language_info`` exactly as JupyterLab sets them on opening a notebook.

    JupyterLab copies the kernel's spec (name, display name, language) and the kernel's
    ``language_info`` into the notebook; any difference marks the notebook modified.
    """
    from ipykernel.ipkernel import IPythonKernel

    return {
        "kernelspec": {"display_name": DISPLAY_NAME, "language": "python", "name": "python3"},
        "language_info": json.loads(json.dumps(IPythonKernel.language_info)),
    }


def stamp_home(path: Path = ROOT / "HOME.ipynb") -> bool:
    """Write :func:`home_metadata` into the course home where it differs; ``True`` if it did."""
    import nbformat

    if not path.exists():
        return False
    nb = nbformat.read(str(path), as_version=4)
    wanted = home_metadata()
    if all(nb.metadata.get(key) == value for key, value in wanted.items()):
        return False
    nb.metadata.update(wanted)
    nbformat.write(nb, str(path))
    return True


if __name__ == "__main__":
    print(install_lab_settings())
    print(name_kernel())
    print(install_server_config())
    if install_page_config():
        print("student edition: nbgrader's instructor interface switched off (Validate stays)")
    if stamp_home():
        print("HOME.ipynb: kernel metadata set to this environment's")
