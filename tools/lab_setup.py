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
- gives ``HOME.ipynb`` the notebook metadata this environment's kernel reports (kernel display
  name, ``language_info`` with the Python version), so JupyterLab opens it without marking it
  modified. It writes only when they differ: with the pinned environment, never.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARE = Path(sys.prefix) / "share" / "jupyter"
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


def install_lab_settings() -> Path:
    target = SHARE / "lab" / "settings" / "overrides.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(ROOT / "grader" / "lab-overrides.json", target)
    return target


def name_kernel() -> Path:
    """Write the ``python3`` kernelspec into ``sys.prefix`` with the course's display name."""
    from ipykernel.kernelspec import get_kernel_dict

    target = SHARE / "kernels" / "python3" / "kernel.json"
    spec = json.loads(target.read_text()) if target.exists() else get_kernel_dict()
    spec["argv"][0] = "python"  # jupyter_client runs its own interpreter for "python"
    spec["display_name"] = DISPLAY_NAME
    spec.setdefault("language", "python")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(spec, indent=1) + "\n")
    return target


def install_server_config() -> Path:
    """Merge :data:`SERVER_CONFIG` into the config ``jupyter lab`` of this environment reads.

    (Files in ``jupyter_server_config.d/`` only enable server extensions: other settings
    there are ignored.)
    """
    target = Path(sys.prefix) / "etc" / "jupyter" / "jupyter_server_config.json"
    config = json.loads(target.read_text()) if target.exists() else {}
    for section, values in SERVER_CONFIG.items():
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
    if stamp_home():
        print("HOME.ipynb: kernel metadata set to this environment's")
