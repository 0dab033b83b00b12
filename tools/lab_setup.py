"""Set up JupyterLab for the course inside the running Python's environment (``sys.prefix``).

Used by ``make install`` and by Binder's ``postBuild``:

- copies ``grader/lab-overrides.json`` to ``share/jupyter/lab/settings/overrides.json``
  (no "get notified about Jupyter news" pop-up, no update check);
- renames the ``python3`` kernel shown in JupyterLab to "PyTorch course (Python X.Y)". The
  kernel's *name* stays ``python3``, the name every notebook's metadata uses.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARE = Path(sys.prefix) / "share" / "jupyter"
DISPLAY_NAME = "PyTorch course (Python {}.{})".format(*sys.version_info[:2])


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


if __name__ == "__main__":
    print(install_lab_settings())
    print(name_kernel())
