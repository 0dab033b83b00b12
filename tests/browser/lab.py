"""A throw-away copy of the course served by JupyterLab, started the way ``make lab`` starts it.

The copy holds the working tree's files (tracked and untracked, not ignored) and a symlink to
``.venv``, so the browser tests never change the repository. JupyterLab gets ``make lab``'s
own flags (``make -s lab-flags``) plus a free loopback port, a random token and ``--no-browser``;
its user settings, workspaces and runtime files live in the copy, so nothing a person clicked
in their own JupyterLab changes what the tests see.
"""

from __future__ import annotations

import json
import os
import secrets
import shlex
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from tools.notebooks import ROOT

VENV = ROOT / ".venv"


def copy_course(dest: Path) -> Path:
    """Copy the course's files (as ``git ls-files`` sees them) into ``dest``; link ``.venv``."""
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if not src.is_file() or src.is_symlink():
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)
    (dest / ".venv").symlink_to(VENV.resolve(), target_is_directory=True)
    return dest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def lab_flags(course: Path) -> list[str]:
    """The flags ``make lab`` passes to ``jupyter lab``, as the Makefile prints them."""
    out = subprocess.run(["make", "-s", "lab-flags"], cwd=course, capture_output=True, text=True, check=True)
    return shlex.split(out.stdout)


class LabServer:
    """``jupyter lab`` on ``127.0.0.1:<free port>`` with a token, serving ``course``."""

    def __init__(self, course: Path, log: Path, args: list[str] | None = None,
                 prefix: list[str] | None = None, env: dict[str, str] | None = None):
        self.course = course
        self.extra_env = dict(env or {})  # more environment (e.g. a student edition's JUPYTER_CONFIG_PATH)
        self.args = list(args or [])  # more server flags (e.g. a short culling timeout)
        self.prefix = list(prefix or [])  # a command the server runs under (e.g. into a cgroup)
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.log_path = log
        self.proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str = "/lab") -> str:
        sep = "&" if "?" in path else "?"
        return f"{self.base}{path}{sep}token={self.token}"

    def env(self) -> dict[str, str]:
        state = self.course / ".lab-state"
        env = {
            **os.environ,
            "PATH": str(VENV / "bin") + os.pathsep + os.environ.get("PATH", ""),
            "PTCOURSE_DEVICE": os.environ.get("PTCOURSE_DEVICE", "cpu"),
            "JUPYTERLAB_SETTINGS_DIR": str(state / "user-settings"),
            "JUPYTERLAB_WORKSPACES_DIR": str(state / "workspaces"),
            "JUPYTER_RUNTIME_DIR": str(state / "runtime"),
            "JUPYTER_CONFIG_DIR": str(state / "config"),
        }
        env.pop("MPLBACKEND", None)  # a learner's kernel picks matplotlib's inline backend itself
        return {**env, **self.extra_env}

    def start(self, timeout: float = 120) -> LabServer:
        flags = lab_flags(self.course)
        assert any(f.startswith("--ServerApp.ip=127.0.0.1") for f in flags), f"make lab must bind loopback: {flags}"
        cmd = [
            *self.prefix, str(VENV / "bin" / "jupyter"), "lab", *flags,
            f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}", "--no-browser", *self.args,
        ]
        self.log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(cmd, cwd=self.course, env=self.env(), stdout=self.log,
                                     stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited ({self.proc.returncode}):\n{self.log_path.read_text()}")
            try:
                with urllib.request.urlopen(self.url("/api/status"), timeout=5) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"jupyter lab did not answer within {timeout:.0f} s:\n{self.log_path.read_text()}")

    def kernels(self) -> list[dict]:
        """The kernels the server runs (REST API)."""
        with urllib.request.urlopen(self.url("/api/kernels"), timeout=10) as r:
            return json.load(r)

    def shutdown_kernels(self) -> None:
        """End every session and its kernel (REST API), so each notebook starts a fresh one."""
        with urllib.request.urlopen(self.url("/api/sessions"), timeout=10) as r:
            sessions = json.load(r)
        for s in sessions:
            req = urllib.request.Request(self.url(f"/api/sessions/{s['id']}"), method="DELETE")
            try:
                urllib.request.urlopen(req, timeout=30).close()
            except urllib.error.HTTPError as err:
                if err.code != 404:  # 404: it ended meanwhile (its notebook closed, JupyterLab shut it down)
                    raise

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if getattr(self, "log", None):
            self.log.close()
