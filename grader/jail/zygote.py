"""Warm kernels: one "zygote" per grading worker, inside the jail, forks a fresh kernel per notebook.

Starting a kernel and importing ``torch`` costs every notebook 2-4 s. A zygote is a Python
process started once per worker inside bubblewrap, exactly like a kernel, that has imported
``torch``, ``numpy``, the course package, ``ipykernel`` and matplotlib (fonts loaded) and then waits. For each notebook it
forks a child that becomes that notebook's kernel; the zygote itself never runs a notebook's
code, so every child starts from the same pristine state. This file plays three parts, with the
standard library only at its top level:

* **the zygote** (:func:`serve`), run inside bubblewrap as ``python -c <this file> serve``;
* **the kernel proxy** (:func:`spawn`), the process nbclient starts and watches as "the kernel":
  it asks the zygote for a child, moves the child into the job's memory cgroup *before* the
  child runs anything of the notebook's, then waits for the child's exit;
* **the worker's handle** (:class:`Zygote`), checked out by a job of :mod:`grader.run.jobs` from its
  executor's :class:`Pool` (the local pool owns one for its run, a Dask worker process one for its
  jobs: grader.run.executors, grader.run.cluster), never from a pool global to the process.

What each child still gets, as a kernel started the classic way does:

* its own job folder only: the zygote's jail sees one *slot* of its worker (``cwd``, ``rt``, and
  the slot's ``tmp`` and ``shm`` as ``/tmp`` and ``/dev/shm``), emptied by the worker before
  each notebook; the rest of the filesystem is read-only (``/dev`` too) or hidden, no network;
* the job's memory cgroup: the proxy writes the child's pid to the cgroup before the child goes
  on, so what the child allocates is charged there and a memory bomb kills that job only;
* the environment allowlist (the proxy forwards the kernel environment the grader built);
* no capabilities, a private SysV IPC namespace, ``no_new_privs``; the zygote is not dumpable,
  so a child cannot ptrace it or read its memory;
* the guard (:mod:`grader.judge.guard`) is installed fresh in each child by :mod:`grader.jail.execute`;
* processes it leaves are killed with its cgroup (:func:`grader.jail.sandbox.remove_cgroup`).

The zygote is used only with both bubblewrap and a memory cgroup, with one thread per kernel
(a thread pool started before the fork would be lost in the child), and not when
``PTGRADE_ZYGOTE=off``; otherwise kernels start the classic way.
"""

from __future__ import annotations

import gc
import json
import os
import select
import signal
import socket
import struct
import sys

FILE = os.path.abspath(__file__) if "__file__" in globals() else ""
PRELOAD = ("numpy", "torch", "torch.nn.functional", "torch.testing", "ptcourse", "ptcourse.checks",
           "ptcourse.messages", "ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell",
           "ipykernel.debugger", "matplotlib", "matplotlib.figure", "matplotlib.font_manager",
           "matplotlib.backends.backend_agg")
# What the guard imports in every kernel before the notebook runs (grader/judge/kernel_guard.py: HELPERS, DISPLAY,
# LIBRARY; tests/test_job_preload.py keeps the lists equal), imported once here instead: each is a module
# no notebook code has touched yet, as the guard would find it. One that does not import is left to the guard.
GUARD_PRELOAD = ("ptcourse.training", "ptcourse.placement", "ptcourse.spies", "ptcourse.data", "ptcourse.peak",
                 "ptcourse.timing", "ptcourse.augment", "ptcourse.tracebacks", "IPython.display", "IPython.core.display_functions",
                 "IPython.core.display", "torch.optim", "torch.optim.optimizer", "torch.optim.lr_scheduler",
                 "torch.utils.data", "torch.nn.modules.module", "torch.amp", "torch.amp.autocast_mode")
# What a course's notebooks use that costs each kernel a second or more to import, by the words in their
# code that say they use it: a run's zygotes import those the run's notebooks use (:func:`needed`), once,
# for every kernel they fork. Only modules that start no thread when imported (a zygote must fork with one
# thread: onnxruntime starts one). tests/test_notebooks.py runs each solution and checks that every one of
# these it imported is predicted from its code.
# * torch._dynamo, 1.2 CPU-s: an optimizer's first step imports it, as do a matmul on the meta device
#   (ptcourse.placement's ``watch``) and the compiler. Shared by the kernels of a Day 1 class, it took
#   76-83 -> 58-60 CPU-s, cells 1.7 -> 1.0 s a notebook, peak kernel memory 153 -> 68 MB; a run of notebooks
#   that never import it (Day 1's 00 and 02) no longer pays it in each zygote.
# * Day 3: torch.compile's compiler 1.1 CPU-s, ONNX export's 1.4 CPU-s; torchvision (Day 2, and ONNX export's).
DYNAMO = ("torch._dynamo",)
VISION = (*DYNAMO, "torchvision")  # torchvision imports torch._dynamo; ONNX export imports torchvision
NEEDED_BY = (("optim", DYNAMO), ("watch(", DYNAMO), ("torch.compile", (*DYNAMO, "torch._inductor.compile_fx")),
             ("torch.onnx", ("onnx", "onnxscript", "onnxscript.function_libs.torch_lib.ops", *VISION)),
             ("torchvision", VISION))
MAX_MSG = 1 << 20


# -- small helpers (both sides) ----------------------------------------------------------------
def _libc():
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def _lines(buf: bytearray):
    while b"\n" in buf:
        line, _, rest = bytes(buf).partition(b"\n")
        buf[:] = rest
        yield json.loads(line)


# -- the zygote (inside the jail) --------------------------------------------------------------
def _drop_privileges() -> None:
    """No capabilities (bounding, ambient, effective, permitted, inheritable), no new privileges."""
    import ctypes

    libc = _libc()
    pr_capbset_drop, pr_cap_ambient, clear_all, pr_no_new_privs = 24, 47, 4, 38
    libc.prctl(pr_cap_ambient, clear_all, 0, 0, 0)
    for cap in range(64):
        libc.prctl(pr_capbset_drop, cap, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()
    if libc.capset(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capset")
    if libc.prctl(pr_no_new_privs, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "no_new_privs")


def _clear_sysv_ipc() -> None:
    """Remove every SysV shared memory segment, semaphore set and message queue of this namespace."""
    libc = _libc()
    for kind, remove in (("shm", lambda i: libc.shmctl(i, 0, None)), ("sem", lambda i: libc.semctl(i, 0, 0)),
                         ("msg", lambda i: libc.msgctl(i, 0, None))):
        try:
            with open(f"/proc/sysvipc/{kind}") as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if len(fields) > 1:
                remove(int(fields[1]))  # IPC_RMID == 0


def _draw_once() -> None:
    """Render one small figure off-screen, so each kernel finds matplotlib's fonts already loaded.

    Only the Agg canvas is used: pyplot and the inline backend are left for the kernel to import,
    because the inline backend hooks into the IPython shell when it is first imported.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(2, 2))
    axes = fig.add_subplot()
    axes.plot([0, 1], [1, 0], label="x")
    axes.set_title("warm")
    axes.legend()
    FigureCanvasAgg(fig).draw()


def needed(code: str) -> tuple[str, ...]:
    """The modules of :data:`NEEDED_BY` that ``code`` (the code cells of a run's notebooks) says it uses, once each."""
    return tuple(dict.fromkeys(module for words, modules in NEEDED_BY if words in code for module in modules))


def _preload_quietly(extra: tuple[str, ...] = ()) -> None:
    """:data:`GUARD_PRELOAD`, and the course's message catalogue in every language (each kernel's checks
    speak through it): what every kernel would otherwise import and read for itself. Nothing here may
    stop the zygote: a module that fails to import is the guard's to report, in the kernel."""
    for name in (*GUARD_PRELOAD, *extra):
        try:
            __import__(name)
        except Exception:  # noqa: BLE001 - a missing optional library: the kernel imports it (or not) itself
            pass
    try:
        from ptcourse import messages

        for lang in messages.LANGS:
            messages.catalogue(lang)
    except Exception:  # noqa: BLE001 - the kernel reads it itself
        pass


def _os_threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1


def _child(conn: socket.socket, request: dict, fds: list[int], listener: socket.socket, saved: dict) -> None:
    """Body of a forked child: confine, hand-shake with the proxy, then become the kernel."""
    code = 1
    try:
        listener.close()
        signal.set_wakeup_fd(-1)
        for sig, handler in saved.items():
            try:
                signal.signal(sig, handler)
            except (OSError, ValueError, TypeError):
                pass
        os.setsid()
        for target, fd in zip((0, 1, 2), fds, strict=True):
            os.dup2(fd, target)
        keep = conn.fileno()
        os.closerange(3, keep)
        os.closerange(keep + 1, 65536)
        try:
            os.unshare(os.CLONE_NEWIPC)  # a private SysV IPC and POSIX queue namespace, where allowed
        except (AttributeError, OSError):
            pass
        _drop_privileges()
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        creds = struct.pack("3i", os.getpid(), os.getuid(), os.getgid())
        conn.sendmsg([b'{"ready": true}\n'], [(socket.SOL_SOCKET, socket.SCM_CREDENTIALS, creds)])
        conn.settimeout(60)
        buf = b""
        while not buf.endswith(b"\n"):
            part = conn.recv(64)
            if not part:
                os._exit(3)  # the proxy is gone: never run outside the job's cgroup
            buf += part
        if json.loads(buf).get("go") is not True:
            os._exit(3)
        conn.close()

        import numpy
        import torch

        torch.set_num_threads(max(1, int(request["env"].get("OMP_NUM_THREADS") or 1)))
        numpy.random.seed()  # the legacy global generator: as a fresh kernel, not the zygote's state
        from ipykernel import kernelapp

        sys.path[0:1] = [os.getcwd()] if sys.path[:1] == [""] else sys.path[:1]  # as `python -m` would
        sys.argv = [sys.executable, "-m", "ipykernel_launcher", *request["argv"]]
        kernelapp.launch_new_instance(argv=request["argv"])
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001 - reported on the kernel's stderr, then exit
        import traceback

        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def serve(listen_fd: int, *extra: str) -> None:
    """The zygote: import, then fork one kernel per request until the worker goes away."""
    saved = {}
    for sig in signal.valid_signals():
        try:
            saved[sig] = signal.getsignal(sig)
        except (OSError, ValueError):
            pass
    os.chdir("/")
    for name in PRELOAD:
        __import__(name)
    _preload_quietly(extra)
    _draw_once()
    # Everything imported so far is shared with every kernel forked from here, page for page, until
    # written. CPython's collector writes to every object it examines: without this, each kernel's
    # first full collection copied most of the zygote's memory (torch's and matplotlib's objects).
    # Frozen, they are left out of every collection, here and in the kernels.
    gc.freeze()
    threads = _os_threads()
    if threads != 1:  # a pool started at import (e.g. OpenBLAS with several threads) would not survive fork
        print(json.dumps({"ready": False, "why": f"{threads} threads after the imports"}), flush=True)
        return
    _libc().prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: no ptrace, no /proc/<pid>/mem of the zygote
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_IGN)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *a: None)
    listener = socket.socket(fileno=listen_fd)
    print(json.dumps({"ready": True, "pid": os.getpid()}), flush=True)
    children: dict[int, socket.socket] = {}
    poller = select.poll()
    poller.register(listener, select.POLLIN)
    poller.register(wake_r, select.POLLIN)
    by_fd: dict[int, int] = {}
    while True:
        for fd, _events in poller.poll(1000):
            if fd == wake_r:
                os.read(wake_r, 4096)
            elif fd == listener.fileno():
                try:
                    conn, _ = listener.accept()
                except OSError:
                    continue
                pid = _handle(conn, listener, saved)
                if pid:
                    children[pid] = conn
                    by_fd[conn.fileno()] = pid
                    poller.register(conn, select.POLLRDHUP | select.POLLHUP)
            elif fd in by_fd:  # the proxy went away: its kernel goes too
                for target in (-by_fd[fd], by_fd[fd]):
                    try:
                        os.kill(target, signal.SIGKILL)
                    except OSError:
                        pass
                poller.unregister(fd)
                del by_fd[fd]
        while children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            conn = children.pop(pid, None)
            if conn is not None:
                if conn.fileno() in by_fd:
                    poller.unregister(conn)
                    del by_fd[conn.fileno()]
                try:
                    conn.sendall(json.dumps({"exit": os.waitstatus_to_exitcode(status)}).encode() + b"\n")
                except OSError:
                    pass
                conn.close()


def _handle(conn: socket.socket, listener: socket.socket, saved: dict) -> int | None:
    """One request: a ping, or a kernel to fork. Returns the child's pid."""
    conn.settimeout(10)
    try:
        data, fds, _, _ = socket.recv_fds(conn, MAX_MSG, 3)
        request = json.loads(data)
    except (OSError, ValueError):
        conn.close()
        return None
    if request.get("op") == "ping":
        for fd in fds:
            os.close(fd)
        conn.sendall(b'{"pong": true}\n')
        conn.close()
        return None
    if request.get("op") != "spawn" or len(fds) != 3:
        for fd in fds:
            os.close(fd)
        conn.close()
        return None
    _clear_sysv_ipc()  # where a child could not get a namespace of its own
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _child(conn, request, fds, listener, saved)
    for fd in fds:
        os.close(fd)
    conn.settimeout(None)
    return pid


def _valid(fd: int) -> bool:
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False


# -- the kernel proxy (started by nbclient, outside the jail) -------------------------------------
def spawn(sock_path: str, cgroups: str, cwd: str, *argv: str) -> int:
    """Ask the zygote for a kernel (``ipykernel_launcher`` arguments ``argv``), put it in each
    cgroup folder of ``cgroups`` (a JSON list), wait for it; returns its exit code."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    sock.connect(sock_path)
    env = {k: v for k, v in os.environ.items() if k != "JPY_PARENT_PID"}
    request = {"op": "spawn", "argv": list(argv), "env": env, "cwd": cwd}
    fds = [fd if _valid(fd) else os.open(os.devnull, os.O_RDWR) for fd in (0, 1, 2)]
    socket.send_fds(sock, [json.dumps(request).encode() + b"\n"], fds)
    signal.signal(signal.SIGTERM, lambda *a: os._exit(143))
    buf, ready = bytearray(), False
    while True:
        data, ancdata, _, _ = sock.recvmsg(65536, socket.CMSG_SPACE(12))
        if not data:
            return 1  # the zygote or the kernel went away
        buf.extend(data)
        for msg in _lines(buf):
            if msg.get("ready") and not ready:
                pid = next((struct.unpack("3i", d[:12])[0] for level, kind, d in ancdata
                            if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS), None)
                if not pid:
                    return 3
                for cgroup in json.loads(cgroups or "[]"):
                    with open(os.path.join(cgroup, "cgroup.procs"), "w") as f:
                        f.write(str(pid))
                sock.sendall(b'{"go": true}\n')
                ready = True
            elif "exit" in msg:
                code = msg["exit"]
                return code if code >= 0 else 128 - code


# -- the worker's side -----------------------------------------------------------------------
class Zygote:
    """One worker's zygote and its slot (the folders its kernels may write)."""

    def __init__(self, key: tuple, jail_args: dict, env: dict[str, str], preload: tuple[str, ...] = ()):
        from grader import scratch

        self.key, self.preload = key, tuple(preload)  # preload: what it imports beside PRELOAD (needed)
        self._scratch = scratch.make("zygote", _slot_parent())  # private, held; swept if its worker is killed
        self.root = str(self._scratch.path)
        self.slot = os.path.join(self.root, "slot")
        self.cwd, self.runtime = os.path.join(self.slot, "cwd"), os.path.join(self.slot, "rt")
        self.tmp, self.shm = os.path.join(self.slot, "tmp"), os.path.join(self.slot, "shm")
        self.socket_path = os.path.join(self.root, "z.sock")  # outside the slot: no kernel can reach it
        self.jail_args = jail_args
        self.env = env
        self.proc = None
        self.failed = ""
        self.kept_in_tmp: set[str] = set()

    def start(self, timeout: float = 120) -> bool:
        self.launch()
        return self.wait_ready(timeout)

    def launch(self) -> None:
        """Start the zygote's process (it then imports for a few seconds: :meth:`wait_ready`)."""
        import subprocess

        from grader.jail import sandbox

        self.empty()
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(self.socket_path)
        listener.listen(8)
        args = dict(self.jail_args)
        args["hide"] = [*args.get("hide", []), os.path.dirname(self.root)]  # the other workers' slots
        jail = sandbox.KernelJail(cwd=self.cwd, runtime=self.runtime, env=self.env, **args)
        source = open(FILE).read()
        cmd = [sys.executable, "-c", source, "serve", str(listener.fileno()), *self.preload]
        binds = ["--bind", self.slot, self.slot, "--bind", self.tmp, "/tmp", *self._put_back_in_tmp(args),
                 "--bind", self.shm, "/dev/shm", "--remount-ro", "/dev"]
        wrapped = jail.wrap(cmd, extra=binds)
        from grader.jail.sandbox import kernel_env

        try:
            with open(os.path.join(self.root, "zygote.log"), "wb") as log:
                self.proc = subprocess.Popen(wrapped, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log,
                                             pass_fds=[listener.fileno()], env=kernel_env(dict(os.environ), self.env),
                                             cwd="/")
        finally:
            listener.close()

    def _put_back_in_tmp(self, jail_args: dict) -> list[str]:
        """bubblewrap arguments that put back, read-only, what the kernel needs from under ``/tmp``
        (Python or the course checked out there), over the slot's own ``/tmp``.

        Each top folder on their way (``/tmp/course``) is a read-only skeleton of empty folders made
        here, outside the slot: a kernel can neither write beside what is put back nor move it (a
        mount point cannot be renamed), and :meth:`empty` leaves those top folders alone."""
        skeleton = os.path.join(self.root, "skeleton")
        paths = sorted({os.path.normpath(p) for p in jail_args.get("read_only", [])
                        if os.path.normpath(p).startswith("/tmp/")})
        tops: list[str] = []
        for path in paths:
            parts = path[len("/tmp/"):].split("/")
            os.makedirs(os.path.join(skeleton, *parts), exist_ok=True)
            if parts[0] not in tops:
                tops.append(parts[0])
        self.kept_in_tmp = set(tops)
        args: list[str] = []
        for top in tops:
            args += ["--ro-bind", os.path.join(skeleton, top), "/tmp/" + top]
        for path in paths:
            args += ["--ro-bind", path, path]
        return args

    def wait_ready(self, timeout: float = 120) -> bool:
        """Whether the zygote said it is ready within ``timeout`` seconds (if not, it is stopped)."""
        ready = select.select([self.proc.stdout], [], [], timeout)[0]
        line = self.proc.stdout.readline() if ready else b""
        try:
            state = json.loads(line or b"{}")
        except ValueError:
            state = {}
        if not state.get("ready"):
            self.failed = state.get("why") or "the zygote did not start: " + self._log_tail()
            self.close()
            return False
        return True

    def _log_tail(self) -> str:
        try:
            with open(os.path.join(self.root, "zygote.log"), errors="replace") as f:
                return f.read()[-2000:]
        except OSError:
            return ""

    def alive(self) -> bool:
        """Running and answering (a notebook's process could have stopped or killed it)."""
        if self.proc is None or self.proc.poll() is not None:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(5)
                sock.connect(self.socket_path)
                socket.send_fds(sock, [b'{"op": "ping"}\n'], [])
                return b"pong" in sock.recv(64)
        except OSError:
            return False

    def empty(self) -> None:
        """Empty the slot: nothing a notebook wrote is left for the next one."""
        import shutil

        for path in (self.cwd, self.runtime, self.tmp, self.shm):
            if os.path.isdir(path):
                for name in os.listdir(path):
                    if path == self.tmp and name in self.kept_in_tmp:
                        continue  # a read-only mount point of the zygote's jail (_put_back_in_tmp)
                    full = os.path.join(path, name)
                    if os.path.isdir(full) and not os.path.islink(full):
                        shutil.rmtree(full, ignore_errors=True)
                    else:
                        try:
                            os.unlink(full)
                        except OSError:
                            pass
            else:
                os.makedirs(path)

    def close(self) -> None:
        import shutil

        if self.proc is not None and self.proc.poll() is None:
            from grader.jail import sandbox

            sandbox.kill_tree(self.proc.pid)
            self.proc.wait()
        shutil.rmtree(self.root, ignore_errors=True)
        self._scratch.close()


def _slot_parent() -> str:
    """Where slots live: outside ``/tmp``, since each slot's ``tmp`` becomes the kernel's ``/tmp``."""
    for path in ("/var/tmp",):
        if os.path.isdir(path) and os.access(path, os.W_OK):
            return path
    raise OSError("no writable folder outside /tmp for the zygote's slots")


STARTS = 0  # zygotes started by this process, in any pool (for the tests)
FAILURES = 0  # jails whose zygote would not start in this process, in any pool (for the tests)
_COUNT_LOCK = None


def _count_lock():
    global _COUNT_LOCK
    if _COUNT_LOCK is None:
        import threading  # not at the top: the zygote's own process (serve) never needs it

        _COUNT_LOCK = threading.Lock()
    return _COUNT_LOCK


def enabled(iso, limits) -> bool:
    """Warm kernels need the whole jail (bubblewrap and a cgroup), one thread per kernel, and Python
    and the course outside ``/dev/shm`` (each slot's own ``shm`` becomes the kernel's; under ``/tmp``
    they are put back over the slot's ``tmp``: :meth:`Zygote._put_back_in_tmp`)."""
    from grader import settings

    return bool(iso.bwrap and iso.cgroup and limits.threads == 1 and settings.environment().zygote
                and not _under_tmp())


def _under_tmp() -> bool:
    """Whether the interpreter or the grader's course checkout lies under /dev/shm (or is /tmp itself)."""
    here = [sys.prefix, sys.base_prefix, os.path.dirname(os.path.dirname(os.path.abspath(FILE)))]
    return any(os.path.realpath(p) in ("/tmp", "/dev/shm") or os.path.realpath(p).startswith("/dev/shm/")
               for p in here)


def _key(iso, limits, hide, read_only, env_for, preload=()) -> tuple:
    return (tuple(hide), tuple(read_only), iso.bwrap, bool(limits.gpu), repr(sorted(env_for("").items())),
            tuple(preload))


class Pool:
    """The zygotes of one executor: the local pool owns one for its run (grader.run.executors.LocalPool),
    a Dask worker process one for its jobs (grader.run.cluster). A job checks one out (:meth:`for_job`) and
    gives it back (:meth:`release`), or has it stopped (:meth:`discard`)."""

    def __init__(self) -> None:
        import threading

        self.idle: list[Zygote] = []  # started zygotes no job holds now
        self.held: dict[int, Zygote] = {}  # id -> the zygotes jobs hold now
        self.failed: set[tuple] = set()  # keys whose zygote would not start: classic kernels there
        self.lock = threading.Lock()
        self.started = 0
        self._launcher = None  # the thread every zygote of this pool is started from (_in_launcher)

    def _in_launcher(self, start):
        """``start()`` in the pool's own launcher thread, which lives until :meth:`close_all`.

        bubblewrap dies with the thread that started it (``--die-with-parent``): a zygote started from
        a short-lived thread (a reference run's, side by side with the others) would die with it, and
        the class's jobs would each start another."""
        with self.lock:
            if self._launcher is None:
                from concurrent.futures import ThreadPoolExecutor

                self._launcher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="zygote-launcher")
            launcher = self._launcher
        return launcher.submit(start).result()

    def _launch(self, key: tuple, iso, limits, hide, read_only, env_for) -> Zygote | None:  # key[-1]: preload
        """A zygote for ``key``, started from the pool's launcher thread (:meth:`_in_launcher`) and not
        yet ready (:meth:`_ready`), or ``None``."""
        jail_args = {"hide": list(hide), "read_only": list(read_only), "bwrap": iso.bwrap, "gpu": bool(limits.gpu)}
        zyg = None
        try:
            zyg = Zygote(key, jail_args, {}, preload=key[-1])
            zyg.env = env_for(zyg.cwd)
            self._in_launcher(zyg.launch)
            return zyg
        except OSError as exc:
            if zyg is not None:
                zyg.failed = str(exc)
            return self._failed(key, zyg)

    def _ready(self, zyg: Zygote | None, timeout: float = 120) -> Zygote | None:
        """``zyg`` once it answers, or ``None`` (said once; its key then starts kernels the classic way)."""
        if zyg is None or not zyg.wait_ready(timeout):
            return self._failed(zyg.key, zyg) if zyg is not None else None
        global STARTS
        with _count_lock():
            STARTS += 1
        with self.lock:
            self.started += 1
            if self.started == 1:
                import atexit

                atexit.register(self.close_all)
        return zyg

    def _failed(self, key: tuple, zyg: Zygote | None) -> None:
        global FAILURES
        why = (zyg.failed if zyg is not None else "") or "the zygote did not start"
        if zyg is not None:
            zyg.close()
        with self.lock:
            if key not in self.failed:
                print(f"warning: warm kernels off ({why}); kernels start the classic way", file=sys.stderr)
                with _count_lock():
                    FAILURES += 1
            self.failed.add(key)
        return None

    def for_job(self, iso, limits, hide: list[str], read_only: list[str], env_for,
                preload: tuple[str, ...] = ()) -> Zygote | None:
        """A zygote for one job, its slot emptied, held by that job until :meth:`release`: an idle one
        of this pool with the same jail, else a new one; ``None``: start kernels the classic way.
        ``env_for(cwd)`` is the kernel environment for a kernel working in ``cwd``."""
        if not enabled(iso, limits):
            return None
        key = _key(iso, limits, hide, read_only, env_for, preload)
        while True:
            with self.lock:
                if key in self.failed:
                    return None
                zyg = next((z for z in self.idle if z.key == key), None)
                other = next((z for z in self.idle if z.key != key), None) if zyg is None else None
                for z in (zyg, other):
                    if z is not None:
                        self.idle.remove(z)
            if other is not None:  # at most one zygote per job running at once: the other jail's goes
                other.close()
            if zyg is None:
                zyg = self._ready(self._launch(key, iso, limits, hide, read_only, env_for))
                if zyg is None:
                    return None
            elif not zyg.alive():  # a notebook's process could have stopped or killed it
                zyg.close()
                continue
            with self.lock:
                self.held[id(zyg)] = zyg
            zyg.empty()
            return zyg

    def release(self, zyg: Zygote | None) -> None:
        """A job is done with its zygote (its kernel is gone with the job's cgroup): another may use it."""
        if zyg is None:
            return
        with self.lock:
            self.held.pop(id(zyg), None)
            self.idle.append(zyg)

    def discard(self, zyg: Zygote | None) -> None:
        """A job went wrong on the grader's side while holding ``zyg``: stop it and its kernels."""
        if zyg is None:
            return
        with self.lock:
            self.held.pop(id(zyg), None)
        zyg.close()

    def warm(self, count: int, iso, limits, hide: list[str], read_only: list[str], env_for,
             preload: tuple[str, ...] = ()) -> int:
        """Start zygotes side by side until ``count`` idle ones of this jail are ready; how many are. So the
        first notebooks of a run do not each wait for ``import torch``."""
        if not enabled(iso, limits) or count <= 0:
            return 0
        key = _key(iso, limits, hide, read_only, env_for, preload)
        with self.lock:
            if key in self.failed:
                return 0
            missing = count - sum(z.key == key for z in self.idle)
        launched = [self._launch(key, iso, limits, hide, read_only, env_for) for _ in range(max(0, missing))]
        for zyg in launched:
            if self._ready(zyg) is not None:
                self.release(zyg)
        with self.lock:
            return sum(z.key == key for z in self.idle)

    def close_idle(self) -> None:
        """Stop the zygotes no job holds (the end of a grading run)."""
        with self.lock:
            idle = list(self.idle)
            self.idle.clear()
        for zyg in idle:
            zyg.close()

    def close_all(self) -> None:
        """Stop every zygote of the pool, and its launcher thread (the end of a run, or of the process)."""
        self.close_idle()
        with self.lock:
            held = list(self.held.values())
            self.held.clear()
            launcher, self._launcher = self._launcher, None
        for zyg in held:
            if getattr(zyg, "proc", None) is not None:
                zyg.close()
        if launcher is not None:
            launcher.shutdown(wait=False)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(int(sys.argv[2]), *sys.argv[3:])
    elif sys.argv[1] == "spawn":
        sys.exit(spawn(*sys.argv[2:]))
