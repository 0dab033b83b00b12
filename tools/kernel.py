"""A Jupyter kernel driven from Python: run code, get back errors and output as text."""

from __future__ import annotations

import os
import queue
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from jupyter_client.manager import KernelManager

ANSI = re.compile(r"\x1b\[[0-9;]*m")

# Turns PyTorch's deprecation warnings into errors inside the kernel, so a solution that uses a
# deprecated API fails the suite. Warnings raised inside the Jupyter machinery are left alone.
STRICT_WARNINGS = """
import warnings as _w
_w.filterwarnings("error", category=DeprecationWarning)
_w.filterwarnings("error", category=FutureWarning)
for _m in ("ipykernel", "IPython", "jupyter_client", "zmq", "traitlets", "tornado", "comm",
           "matplotlib_inline", "dateutil", "pkg_resources", "setuptools", "nbformat"):
    _w.filterwarnings("ignore", category=DeprecationWarning, module=_m)
    _w.filterwarnings("ignore", category=FutureWarning, module=_m)
del _w, _m
"""


@dataclass
class Result:
    """What one execution produced."""

    ok: bool
    ename: str = ""
    evalue: str = ""
    traceback: str = ""
    stdout: str = ""
    stderr: str = ""
    outputs: list = field(default_factory=list)

    @property
    def message(self) -> str:
        """The error as a learner would read it: ``Name: value``."""
        return f"{self.ename}: {self.evalue}" if self.ename else ""


class Kernel:
    """A fresh ``python3`` kernel in ``cwd``; use as a context manager."""

    def __init__(self, cwd: Path | str, env: dict[str, str] | None = None, strict: bool = True):
        self.cwd = str(cwd)
        self.env = {**os.environ, **(env or {})}
        self.env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
        self.strict = strict
        self.km: KernelManager | None = None
        self.kc = None

    def __enter__(self) -> Kernel:
        # Local IPC sockets (no TCP port, no "running over TCP" warning), at an absolute path
        # because the kernel runs in the notebook's folder.
        self._sockets = tempfile.mkdtemp(prefix="ptk-")
        # Its temporary folder too (private, removed in close): a kernel stopped with now=True runs no
        # clean-up of its own, and the notebooks' demo folders (ptcourse-ckpt-*...), torch's error files
        # and multiprocessing's pymp-* would stay in the shared /tmp.
        os.mkdir(os.path.join(self._sockets, "tmp"))
        self.km = KernelManager(kernel_name="python3", transport="ipc", ip=os.path.join(self._sockets, "k"))
        self.km.start_kernel(cwd=self.cwd, env={**self.env, "TMPDIR": os.path.join(self._sockets, "tmp")})
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=120)
        if self.strict:
            result = self.run(STRICT_WARNINGS)
            assert result.ok, result.message
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Stop the kernel."""
        if self.kc is not None:
            self.kc.stop_channels()
        if self.km is not None and self.km.has_kernel:
            self.km.shutdown_kernel(now=True)
        self.kc = self.km = None
        shutil.rmtree(getattr(self, "_sockets", ""), ignore_errors=True)

    @property
    def pid(self) -> int | None:
        """The kernel process id (for memory measurement)."""
        process = getattr(getattr(self.km, "provisioner", None), "process", None)
        return getattr(process, "pid", None)

    def peak_rss_mb(self) -> float | None:
        """Peak resident memory of the kernel so far (VmHWM), in MiB; None off Linux."""
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            return None
        return None

    def run(self, code: str, timeout: float = 300, silent: bool = False) -> Result:
        """Execute ``code``; collect stdout, stderr and the error if any. ``silent``: a silent request, as
        the grader arms a cell (no history, no display hook, no ``*_run_cell`` events: cheaper for helper
        code between the cells under test; its error comes back in the reply)."""
        assert self.kc is not None, "kernel not started"
        result = Result(ok=True)

        def hook(msg: dict) -> None:
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                if content["name"] == "stdout":
                    result.stdout += content["text"]
                else:
                    result.stderr += content["text"]
            elif kind == "error":
                result.ok = False
                result.ename = content["ename"]
                result.evalue = ANSI.sub("", content["evalue"])
                result.traceback = ANSI.sub("", "\n".join(content["traceback"]))
            if kind in ("stream", "error", "execute_result", "display_data"):
                result.outputs.append(msg)

        try:
            # stop_on_error=False: each request waits for the one before, so none is queued that the kernel
            # should abort after an error; with True, ipykernel 7 aborts requests that arrive before its
            # (asynchronous) end of aborting, and a cell run right after a failing one could come back
            # "aborted" without running, under load (seen: a solution put back after a failing candidate).
            reply = self.kc.execute_interactive(code, silent=silent, output_hook=hook, timeout=timeout,
                                                 allow_stdin=False, stop_on_error=False)
        except (TimeoutError, queue.Empty):
            self.km.interrupt_kernel()
            return Result(ok=False, ename="Timeout", evalue=f"cell ran longer than {timeout} s")
        if reply["content"]["status"] != "ok" and result.ok:
            result.ok = False
            status = reply["content"]["status"]
            result.ename = reply["content"].get("ename", "Aborted" if status == "aborted" else "Error")
            result.evalue = reply["content"].get("evalue", "")
        return result
