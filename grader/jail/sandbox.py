"""Run a student's kernel where it can do little harm.

Layers, each used where the machine offers it:

* **bubblewrap** (``bwrap``, Debian package ``bubblewrap``): the kernel sees an allow-list, not
  the machine: read-only, the system (:data:`SYSTEM_DIRS`, the parts of ``/etc`` in
  :data:`ETC_ENTRIES`), the Python installation and environment (:func:`environment_dirs`,
  wherever they live), the course package and its bundled data (``KernelJail.read_only``);
  writable, the notebook's own folder, its runtime folder and an empty ``/tmp``. Nothing else
  exists in it: no home folder, no other checkout of the course, no ``/srv``, ``/opt``, ``/var``
  or ``/run`` unless the environment lives there. ``hide`` hides more, even inside those. No
  network (a private loopback only), no view of other processes.
* **a memory cgroup** (v2 ``memory.max`` or v1 ``memory.limit_in_bytes``): the kernel and every
  process it starts share one memory limit; past it the kernel is killed, not the machine.
  Address-space limits (``RLIMIT_AS``) are not used: they break ``import torch``.
* **a pids cgroup** (v2 ``pids.max`` in the same cgroup, or a v1 pids group of its own): at most
  :data:`TASKS_PER_KERNEL` processes and threads, so a fork bomb cannot fill the machine's
  process table (and stop the other students' kernels from starting).
* **a disk watch** (:func:`disk_used`, polled by the grading job): the files a kernel writes on
  disk are measured and the kernel is stopped past ``--disk``.
* **a watchdog** where no cgroup can be made: the resident memory of the kernel's process
  tree is polled and the tree is killed past the limit; where no pids cgroup can be made, the
  kernel's tasks are counted the same way.

:func:`probe` says which layers are available; the grader prints a warning for each missing one.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import sys
import time
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass, field
from pathlib import Path

from grader import settings

CGROUP_ROOT = Path("/sys/fs/cgroup")
TASKS_PER_KERNEL = 512  # processes and threads a kernel may hold at once: a fork bomb stops there


@dataclass
class Isolation:
    """What this machine can do to isolate a kernel."""

    bwrap: str | None
    cgroup: str | None  # "v2" or "v1"
    cgroup_base: Path | None
    pids: str | None = None  # "v2": pids.max in the kernel's own cgroup; "v1": a cgroup of its own
    pids_base: Path | None = None  # where v1 pids cgroups are made

    def warnings(self) -> list[str]:
        """Plain-words warnings for each missing layer (empty when fully isolated)."""
        out = []
        if not self.bwrap:
            out.append(
                "bubblewrap (bwrap) not found: student code runs WITHOUT filesystem or network "
                "isolation, as your user. Install it (Debian/Ubuntu: apt-get install bubblewrap)."
            )
        if not self.cgroup:
            out.append(
                "no writable memory cgroup: the memory limit is enforced by polling instead "
                "(a fast enough memory bomb can still hurt the machine)."
            )
        return out


def _own_cgroup_v1(controller: str = "memory") -> Path | None:
    """This process's cgroup in the v1 hierarchy of ``controller`` (mounted under its own name)."""
    try:
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if controller in controllers.split(","):
                return CGROUP_ROOT / controllers / path.lstrip("/")
    except OSError:
        return None
    return None


def _own_cgroup_v2() -> Path | None:
    try:
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            if line.startswith("0::"):
                path = line[3:].lstrip("/")
                for base in (CGROUP_ROOT, CGROUP_ROOT / "unified"):
                    if (base / "cgroup.controllers").exists() and "memory" in (
                        base / "cgroup.controllers"
                    ).read_text().split():
                        return base / path
    except OSError:
        return None
    return None


def _writable_dir(path: Path | None) -> bool:
    if path is None or not path.is_dir():
        return False
    probe_dir = path / f"ptgrade-probe-{os.getpid()}"
    try:
        probe_dir.mkdir()
        probe_dir.rmdir()
        return True
    except OSError:
        return False


def probe(use_bwrap: bool = True, use_cgroup: bool = True) -> Isolation:
    """Find out which isolation layers work here (cheap: no process is started)."""
    bwrap = shutil.which("bwrap") if use_bwrap else None
    cgroup, base = None, None
    # PTGRADE_CGROUP=off (the grader's own environment) lets the tests run the polling watchdog
    # that machines without a writable cgroup get; PTGRADE_CGROUP=memory, a memory cgroup only.
    layers = settings.environment().cgroup
    if use_cgroup and layers != "off":
        v2 = _own_cgroup_v2()
        if v2 is not None and _writable_dir(v2) and (v2 / "cgroup.subtree_control").exists():
            # v2 needs the memory controller enabled for children of our own group.
            try:
                if "memory" in (v2 / "cgroup.subtree_control").read_text().split():
                    cgroup, base = "v2", v2
            except OSError:
                pass
        if cgroup is None:
            v1 = _own_cgroup_v1()
            if _writable_dir(v1):
                cgroup, base = "v1", v1
    pids, pids_base = None, None
    if layers == "memory":
        pass
    elif cgroup == "v2" and base is not None:
        try:
            if "pids" in (base / "cgroup.subtree_control").read_text().split():
                pids = "v2"
        except OSError:
            pass
    elif cgroup == "v1":
        own = _own_cgroup_v1("pids")
        if _writable_dir(own):
            pids, pids_base = "v1", own
    return Isolation(bwrap=bwrap, cgroup=cgroup, cgroup_base=base, pids=pids, pids_base=pids_base)


# What a student's kernel may see of the grader's environment: what Python, PyTorch and the course
# need. Everything else (the instructor's tokens, cloud credentials, paths) stays out.
ENV_ALLOWED = {
    "PATH", "HOME", "LANG", "LANGUAGE", "TERM", "TZ", "TMPDIR", "USER", "LOGNAME", "SHELL",
    "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED", "PYTHONIOENCODING", "PYTHONUTF8",
    "MPLBACKEND", "MPLCONFIGDIR", "IPYTHONDIR", "JUPYTER_RUNTIME_DIR",
    "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE",
    "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR", "CUDA_VISIBLE_DEVICES", "CUDA_HOME",
    "CC", "CXX", "LD_LIBRARY_PATH", "SSL_CERT_FILE",
}
ENV_PREFIXES = ("PTCOURSE_", "LC_", "NVIDIA_")


def kernel_env(env: dict[str, str], extra: dict[str, str]) -> dict[str, str]:
    """The allow-listed part of ``env``, plus the jail's own settings."""
    kept = {k: v for k, v in env.items() if k in ENV_ALLOWED or k.startswith(ENV_PREFIXES)}
    return {**kept, **extra}


# What every jail shows of the machine, read-only (KernelJail.wrap): its programs, libraries, headers and the C
# compiler (torch.compile's inductor builds C++ on the CPU: cc, as and ld in /usr/bin, /usr/include,
# /usr/lib/gcc, /usr/libexec/gcc), and /sys (CPU topology, cgroup limits: PyTorch's cpuinfo prints errors on
# stderr without it, and the GPU runtime reads the PCI tree). A link (/lib -> usr/lib on merged-/usr systems)
# is made as the same link.
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/sys")
# The parts of /etc a kernel needs: the dynamic linker's cache, the alternatives behind /usr/bin/cc, the
# user and group names (getpass, inductor's cache folder), name service and host files (the loopback), time
# zone, certificates (read, never used: there is no network), fonts and MIME types (matplotlib), the OS name
# (platform, torch.utils.collect_env).
ETC_ENTRIES = (
    "alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "passwd", "group", "nsswitch.conf", "hosts",
    "host.conf", "gai.conf", "localtime", "timezone", "ssl", "ca-certificates", "ca-certificates.conf", "fonts",
    "mime.types", "os-release", "lsb-release", "debian_version", "protocols", "services",
)


def system_binds() -> list[str]:
    """bubblewrap arguments that show the machine's part of the allow-list (:data:`SYSTEM_DIRS`,
    :data:`ETC_ENTRIES`): each existing folder or file read-only, each link as the same link."""
    args: list[str] = []
    for path in (*SYSTEM_DIRS, *(f"/etc/{entry}" for entry in ETC_ENTRIES)):
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.exists(path):
            args += ["--ro-bind", path, path]
    return args


def environment_dirs() -> list[str]:
    """Where this Python lives, as real paths, outermost only: its installation (``sys.base_prefix``,
    under /usr, /opt, /srv or a home folder's ``.pyenv`` alike), the environment (``sys.prefix``: a
    virtual environment wherever it is, a conda prefix), their standard library, headers and
    site-packages, and the user's site-packages where Python reads it. Not ``sys.path`` (the grader's
    own ``PYTHONPATH`` names the course checkout) and not folders that ``.pth`` files add."""
    import site
    import sysconfig

    found = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             os.path.dirname(os.path.realpath(sys.executable)), *sysconfig.get_paths().values(),
             *site.getsitepackages()]
    if site.ENABLE_USER_SITE and site.getusersitepackages():
        found.append(site.getusersitepackages())
    return outermost(found)


def outermost(paths) -> list[str]:
    """The existing ``paths`` as real paths, none inside another, never the root itself."""
    real = sorted({os.path.realpath(p) for p in paths if p and os.path.exists(p)} - {"/"}, key=len)
    out: list[str] = []
    for path in real:
        if not any(path == o or path.startswith(o.rstrip("/") + "/") for o in out):
            out.append(path)
    return out


@dataclass
class KernelJail:
    """How one notebook's kernel is confined; written as JSON for the nbgrader process."""

    cwd: str  # the kernel's working folder (writable)
    runtime: str  # connection file and IPC sockets (writable)
    hide: list[str] = field(default_factory=list)  # more to hide: replaced by empty folders, even inside the system's
    read_only: list[str] = field(default_factory=list)  # shown read-only: Python, the course package, its data
    bwrap: str | None = None
    cgroup: str | None = None  # the kernel's own cgroup folder
    pids_cgroup: str | None = None  # its v1 pids cgroup, where the machine has one
    pids_in_cgroup: bool = False  # v2: ``cgroup`` itself holds the pids.max
    memory_bytes: int = settings.MEMORY_BYTES
    output_bytes: int = settings.OUTPUT_BYTES
    disk_bytes: int = settings.DISK_BYTES  # what the kernel may write to disk in ``writable``
    writable: list[str] = field(default_factory=list)  # its folders on disk (a tmpfs counts as memory)
    env: dict[str, str] = field(default_factory=dict)
    gpu: bool = False  # expose the NVIDIA devices (/dev/nvidia*) to the kernel: opt-in (grade --gpu)
    zygote: str | None = None  # the socket of this worker's warm-kernel zygote (grader/jail/zygote.py), if any

    def to_dict(self) -> dict:
        return asdict(self)

    def wrap(self, cmd: list[str], extra: list[str] = ()) -> list[str]:
        """The kernel command, run inside bubblewrap and the cgroup where they are available.
        ``extra``: more bubblewrap arguments, after the job's own folders."""
        if self.bwrap:
            # An allow-list: bubblewrap starts from an empty root, and only what is named here exists in it.
            args = [self.bwrap, *system_binds(), "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
            if self.gpu:
                for device in sorted(glob.glob("/dev/nvidia*")):
                    args += ["--dev-bind", device, device]
            around, inside = self._hidden()
            for path in around:  # emptied, then what is shown inside them is put back
                args += ["--tmpfs", path]
            for path in self.read_only:
                args += ["--ro-bind", path, path]
            for path in inside:  # hidden even inside what is shown (PTGRADE_HIDE)
                args += ["--tmpfs", path]
            for path in (self.cwd, self.runtime):
                args += ["--bind", path, path]
            args += list(extra)
            # The empty root and hidden folders: nothing is written beside what is shown. Not those under /tmp (the
            # scratch folder, which ``extra`` may replace: a warm kernel's slot, grader/jail/zygote.py).
            for path in ("/", *(p for p in (*around, *inside) if not p.startswith("/tmp/"))):
                args += ["--remount-ro", path]
            args += [
                "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
                "--die-with-parent", "--chdir", self.cwd,
            ]
            for key, value in self.env.items():
                args += ["--setenv", key, value]
            # The kernel's parent is bwrap's init (pid 1) in its namespace: ipykernel must not
            # poll it; --die-with-parent ends the kernel with its grader instead.
            args += ["--unsetenv", "JPY_PARENT_PID"]
            cmd = [*args, "--", *cmd]
        for group in filter(None, (self.pids_cgroup, self.cgroup)):
            procs = os.path.join(group, "cgroup.procs")
            cmd = ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', procs, *cmd]
        return cmd

    def _hidden(self) -> tuple[list[str], list[str]]:
        """``hide`` in two parts: the folders that hold something ``read_only`` shows (emptied first, that
        put back in them), and the rest (emptied last, so hidden even inside what is shown)."""
        around, inside = [], []
        for path in (os.path.normpath(p) for p in self.hide):
            if path == "/tmp":
                continue  # already an empty scratch folder
            holds = any(r == path or r.startswith(path.rstrip("/") + "/") for r in map(os.path.normpath, self.read_only))
            (around if holds else inside).append(path)
        return around, inside

    @property
    def tasks_capped(self) -> bool:
        """Whether a cgroup caps the kernel's processes and threads (else the watchdog counts them)."""
        return bool(self.pids_cgroup or self.pids_in_cgroup)

    def groups(self) -> list[str]:
        """The cgroup folders the kernel joins before it runs anything."""
        return [g for g in (self.cgroup, self.pids_cgroup) if g]


def make_cgroup(iso: Isolation, name: str, memory_bytes: int) -> Path | None:
    """A fresh cgroup for one kernel with ``memory_bytes`` as its hard limit (no swap)."""
    if not iso.cgroup or iso.cgroup_base is None:
        return None
    path = iso.cgroup_base / name
    try:
        path.mkdir(exist_ok=True)
        if iso.cgroup == "v2":
            (path / "memory.max").write_text(str(memory_bytes))
            try:
                (path / "memory.swap.max").write_text("0")
            except OSError:
                pass
            if iso.pids == "v2":
                try:
                    (path / "pids.max").write_text(str(TASKS_PER_KERNEL))
                except OSError:
                    pass  # no cap here: the watchdog counts the kernel's tasks (caps_tasks)
        else:
            (path / "memory.limit_in_bytes").write_text(str(memory_bytes))
            try:
                (path / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes))
            except OSError:
                pass
    except OSError:
        return None
    return path


def caps_tasks(path: Path | None) -> bool:
    """Whether a cgroup's own ``pids.max`` holds the kernel to :data:`TASKS_PER_KERNEL` tasks."""
    try:
        return path is not None and (path / "pids.max").read_text().strip() == str(TASKS_PER_KERNEL)
    except OSError:
        return False


def make_pids_cgroup(iso: Isolation, name: str) -> Path | None:
    """A v1 pids cgroup for one kernel, at most :data:`TASKS_PER_KERNEL` tasks (v2 keeps the limit
    in the kernel's memory cgroup, :func:`make_cgroup`)."""
    if iso.pids != "v1" or iso.pids_base is None:
        return None
    path = iso.pids_base / name
    try:
        path.mkdir(exist_ok=True)
        (path / "pids.max").write_text(str(TASKS_PER_KERNEL))
    except OSError:
        remove_cgroup(path)
        return None
    return path


def cgroup_peak(path: Path | None) -> int | None:
    """Peak memory of a kernel cgroup in bytes, where the kernel reports it."""
    if path is None:
        return None
    for name in ("memory.peak", "memory.max_usage_in_bytes"):
        try:
            return int((path / name).read_text())
        except (OSError, ValueError):
            continue
    return None


def cgroup_oom_killed(path: Path | None) -> bool:
    """Whether the out-of-memory killer fired in this cgroup."""
    if path is None:
        return False
    try:
        if (path / "memory.events").exists():
            for line in (path / "memory.events").read_text().splitlines():
                key, value = line.split()
                if key == "oom_kill" and int(value) > 0:
                    return True
            return False
        return _v1_oom_kills(path) > 0
    except (OSError, ValueError):
        return False


def cgroup_anon(path: Path | None) -> int | None:
    """Memory a kernel cgroup holds now that is not file cache (what counts toward a memory bomb).

    cgroup v2's ``anon``; v1's ``total_rss`` (its hierarchy-wide anonymous memory). Swapped-out
    pages count too where the kernel reports them (a bomb in a cgroup that may swap).
    """
    if path is None:
        return None
    try:
        stat = dict(line.split() for line in (path / "memory.stat").read_text().splitlines())
    except (OSError, ValueError):
        return None
    try:
        if "anon" in stat:  # v2: swap is its own file
            swap = path / "memory.swap.current"
            return int(stat["anon"]) + (int(swap.read_text()) if swap.exists() else 0)
        return int(stat.get("total_rss", 0)) + int(stat.get("total_swap", 0))
    except (OSError, ValueError):
        return None


def cgroup_limit_hits(path: Path | None) -> int:
    """How many times a kernel cgroup's memory reached its limit (v2 ``max`` events, v1 ``failcnt``)."""
    if path is None:
        return 0
    try:
        if (path / "memory.events").exists():
            for line in (path / "memory.events").read_text().splitlines():
                key, value = line.split()
                if key == "max":
                    return int(value)
            return 0
        return int((path / "memory.failcnt").read_text())
    except (OSError, ValueError):
        return 0


def _v1_oom_kills(path: Path) -> int:
    try:
        for line in (path / "memory.oom_control").read_text().splitlines():
            key, value = line.split()
            if key == "oom_kill":
                return int(value)
    except (OSError, ValueError):
        pass
    return 0


def remove_cgroup(path: Path | None) -> None:
    """Kill whatever is left in a kernel cgroup, then remove it."""
    if path is None or not path.exists():
        return
    try:  # cgroup v2 (Linux 5.14+): every process in it at once, with no pid read first and killed later
        fd = os.open(path / "cgroup.kill", os.O_WRONLY)  # never created where it is not the kernel's file
        try:
            os.write(fd, b"1")
        finally:
            os.close(fd)
    except OSError:
        pass
    for _ in range(50):
        try:
            pids = [int(p) for p in (path / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            pids = []
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.05)
    try:
        path.rmdir()
    except OSError as exc:  # pragma: no cover - a process refused to die
        print(f"warning: could not remove cgroup {path}: {exc}", file=sys.stderr)


def _tree_sum(pid: int, measure) -> int:
    """``measure(process)`` summed over a process and its descendants (0 if gone)."""
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for proc in procs:
        try:
            total += measure(proc)
        except psutil.Error:
            pass
    return total


def tree_rss(pid: int) -> int:
    """Resident memory of a process and its descendants, in bytes (0 if gone)."""
    return _tree_sum(pid, lambda proc: proc.memory_info().rss)


def cgroup_tasks(path: Path | None) -> int | None:
    """Processes and threads in a kernel cgroup now (v1 ``tasks``, v2 ``cgroup.threads``)."""
    if path is None:
        return None
    for name in ("cgroup.threads", "tasks"):
        try:
            return len((path / name).read_text().split())
        except OSError:
            continue
    return None


def tree_tasks(pid: int) -> int:
    """Threads of a process and its descendants (0 if gone)."""
    return _tree_sum(pid, lambda proc: proc.num_threads())


def sweep_stale(iso: Isolation) -> int:
    """Remove the job cgroups left by grader processes that are gone (a killed worker cannot
    remove its own), killing whatever still runs in them; returns how many were removed."""
    removed = 0
    for base in filter(None, (iso.cgroup_base, iso.pids_base)):
        try:
            found = list(base.glob("ptgrade-*-j-*"))
        except OSError:
            continue
        for path in found:
            try:
                owner = int(path.name.split("-")[1])
                os.kill(owner, 0)
                continue  # its grader is alive: the group is in use
            except ValueError:
                continue
            except ProcessLookupError:
                pass
            except PermissionError:
                continue
            remove_cgroup(path)
            removed += not path.exists()
    return removed


def disk_used(folders: list[str], most_entries: int = 200_000) -> int:
    """Bytes of disk the files under ``folders`` take (allocated blocks: a sparse file counts what
    it holds). Links are not followed; past ``most_entries`` entries the count stops there."""
    total, seen, stack = 0, 0, list(folders)
    while stack and seen < most_entries:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            seen += 1
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            total += getattr(info, "st_blocks", 0) * 512
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)
    return total


def exited(process) -> bool:
    """Whether a child process (a ``subprocess.Popen``) has ended, *without reaping it*: until it is
    reaped its pid, and its process group, stay ours, so a signal meant for it reaches nothing else
    (see :func:`kill_child`). A polling thread that reaped it would free the pid for the next
    process the machine starts: another job's nbgrader process or kernel, say."""
    if process.returncode is not None:
        return True
    try:
        return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True  # reaped by someone else


@contextmanager
def unreaped(process):
    """While in it, ``process`` (a ``subprocess.Popen``) is not reaped by any thread (``poll`` and
    ``wait`` take the lock held here); it yields whether the process is still unreaped, that is
    whether its pid and process group are still certainly its own."""
    with getattr(process, "_waitpid_lock", None) or nullcontext():
        yield process.returncode is None


def kill_child(process, group: int | None = None) -> bool:
    """SIGKILL a child process: its process group ``group`` where given, else it and its descendants;
    only while it is unreaped (:func:`unreaped`). Returns whether a signal was sent.

    jupyter_client signals a kernel's recorded process group even after the kernel was reaped, and a
    watchdog that polls the kernel reaps it from another thread. On a busy grading machine (pid_max
    32768, a class of kernels, a fork bomb in one of them) the freed number is soon a new process's:
    a job's nbgrader process (a session leader, pid == pgid), killed silently, and an honest
    notebook is "could not be graded"."""
    with unreaped(process) as ours:
        if not ours:
            return False
        if group:
            try:
                os.killpg(group, signal.SIGKILL)
                return True
            except OSError:
                pass
        kill_tree(process.pid)
        return True


def kill_tree(pid: int) -> None:
    """SIGKILL a process and all its descendants."""
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [*root.children(recursive=True), root]
    except psutil.Error:
        return
    for proc in procs:
        try:
            proc.kill()
        except psutil.Error:
            pass
