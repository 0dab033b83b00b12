"""nbgrader's ``Execute`` step, with the kernel jailed and the damage a notebook can do bounded.

Loaded inside the ``nbgrader autograde`` process of one grading job (see :mod:`grader.run.jobs`),
which names it in ``Autograde.autograde_preprocessors``. The job describes the jail in a JSON
file named by the ``PTGRADE_JAIL`` environment variable. Compared with nbgrader's own step:

* the kernel starts through :meth:`grader.jail.sandbox.KernelJail.wrap` (bubblewrap, cgroup) and
  talks to nbgrader over Unix sockets, since it has no network;
* it runs in an empty scratch folder, so it never sees the notebook file (which holds the
  hidden tests once nbgrader has restored them);
* a cell's output is capped: past the cap the output is dropped and the cell interrupted
  (error outputs are always kept, so a failing test can never pass by flooding), and the cell
  fails (an ``OutputCapped`` error) even if it ended before the interrupt;
* when the kernel dies (memory limit, ``os._exit``, a crash) the cells already graded keep
  their result; the cell that was running and every later cell get an error output that says
  why, so they score zero instead of the whole notebook being lost;
* without a cgroup, a watchdog kills the kernel past the memory limit.

With none of this (no ``PTGRADE_JAIL``) it behaves exactly like nbgrader's ``Execute``.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from queue import Empty

import zmq
import zmq.asyncio
from jupyter_client.manager import AsyncKernelManager
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbclient.util import ensure_async, run_sync
from nbformat.v4 import new_output
from nbgrader.preprocessors import Execute
from traitlets import List, Unicode

from grader import compat, settings
from grader.jail import bounds
from grader.jail.sandbox import (
    TASKS_PER_KERNEL,
    KernelJail,
    cgroup_anon,
    cgroup_limit_hits,
    cgroup_oom_killed,
    cgroup_tasks,
    disk_used,
    exited,
    kernel_env,
    kill_child,
    tree_rss,
    tree_tasks,
)
from grader.judge.guard import Guard, course_definitions, course_names
from grader.judge.observations import Observer, ObserveSpec
from grader.records import Integrity, Voided
from ptcourse import messages
from ptcourse.messages import msg
from ptcourse.nbmodel import role

JAIL_ENV = "PTGRADE_JAIL"
# The second key (grader/judge/observations.py) of this job: set in the job's process by grader.run.jobs, never
# written to a file or the environment, where a kernel could read it.
OBSERVE: ObserveSpec | None = None
# The names the guard protects (grader.judge.guard.course_names of the course's own notebook): set by
# grader.run.jobs, worked out once per worker and notebook; None: from the notebook being graded.
COURSE_NAMES: list[tuple[str, str, str | None]] | None = None
OBSERVED_PATH = "observed.json"  # where the job writes what the second key saw: its own folder
INTEGRITY_PATH = "integrity.json"  # and what the guard saw: the job's folder too, which no kernel sees
def load_jail() -> KernelJail | None:
    """The jail of this grading job, or ``None`` when not run by the grader."""
    path = settings.environment().jail
    if not path:
        return None
    with open(path) as f:
        return KernelJail(**json.load(f))


class JailedKernelManager(compat.KernelManagerPatches, AsyncKernelManager):
    """A kernel manager whose kernel starts inside the job's jail, over IPC sockets (the hooks of
    :class:`grader.compat.KernelManagerPatches`: jupyter_client's private coroutines)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.jail = load_jail()
        if self.jail is not None:
            self.transport = "ipc"
            self.ip = os.path.join(self.jail.runtime, "k")
            self.connection_file = os.path.join(self.jail.runtime, "kernel.json")
            # Every message of the kernel's is bounded before it is read (grader/jail/bounds.py).
            self.session = bounds.BoundedSession(parent=self)

    def _skip_interrupt(self) -> bool:
        # It is about to be killed: an interrupt request would only hold the sockets open (their
        # linger) on the way out.
        return self.jail is not None and self.shutting_down

    def _kills_itself(self) -> bool:
        return self.jail is not None

    def _kill_process(self) -> None:
        # Never a kernel already reaped: its pid or process group may be another job's process by now.
        kill_child(self.provisioner.process, getattr(self.provisioner, "pgid", None))

    def _before_start(self, cmd: list[str], kw: dict) -> tuple[list[str], dict]:
        if self.jail is not None:
            kw["env"] = kernel_env(kw.get("env") or dict(os.environ), self.jail.env)
            # A signal to the process group would also reach bubblewrap and end the kernel;
            # ask ipykernel to interrupt itself over its control channel instead.
            self.kernel_spec.interrupt_mode = "message"
        return cmd, kw

    def format_kernel_cmd(self, extra_arguments=None):
        cmd = super().format_kernel_cmd(extra_arguments)
        if self.jail is not None and self.jail.zygote:
            # A warm kernel forked by this worker's zygote, already in the jail; the proxy puts it in
            # the job's cgroup before it runs anything (grader/jail/zygote.py).
            from grader.jail import zygote

            args = cmd[cmd.index("ipykernel_launcher") + 1:] if "ipykernel_launcher" in cmd else ["-f", self.connection_file]
            return [sys.executable, "-I", "-S", zygote.FILE, "spawn", self.jail.zygote, json.dumps(self.jail.groups()),
                    self.jail.cwd, *args]
        return self.jail.wrap(cmd) if self.jail is not None else cmd


# -- the kernel started early -----------------------------------------------------------------
# nbgrader spends a few hundred milliseconds on the gradebook and on cleaning the notebook before
# its Execute step starts a kernel. The grading job's process starts the kernel first (the same
# kernel, with the same arguments, that Execute would start), so that it boots meanwhile.
EARLY_KERNEL = "python3"  # the course's kernel (a notebook naming another gets its own, as usual)
# A grading kernel draws tracebacks plainly. The error output keeps its name and value, which are all the
# grader reads (grader.run.jobs.error_text); IPython's default drawing (stack_data, inspect.getmodule
# scanning torch's ~1,700 modules) cost each error 15-20 ms, and an untouched or mutant notebook
# raises one in most of its cells. A learner's own kernel keeps the default, trimmed to their frames.
GRADING_ARGUMENTS = ["--InteractiveShell.xmode=Plain"]
EARLY_ARGUMENTS = [*GRADING_ARGUMENTS, "--HistoryManager.hist_file=:memory:"]  # and what nbclient adds
_early: JailedKernelManager | None = None


def start_kernel_early() -> None:
    """In a grading job's process (``PTGRADE_JAIL``), before nbgrader runs: start the kernel."""
    global _early
    jail = load_jail()
    if jail is None or _early is not None:
        return
    km = JailedKernelManager(kernel_name=EARLY_KERNEL)
    try:
        run_sync(km.start_kernel)(extra_arguments=list(EARLY_ARGUMENTS), cwd=jail.cwd)
    except Exception:  # noqa: BLE001 - Execute starts one the usual way, and reports what is wrong
        return
    _early = km


def _take_early(kernel_name: str, extra_arguments: list[str], cwd: str) -> JailedKernelManager | None:
    """The early kernel, if it is the one Execute is about to start; otherwise it is stopped."""
    global _early
    km, _early = _early, None
    if km is None:
        return None
    if km.kernel_name == kernel_name and extra_arguments == EARLY_ARGUMENTS and cwd == km.jail.cwd:
        return km
    _stop(km)
    return None


def discard_early_kernel() -> None:
    """The job is over: an early kernel that Execute did not take (nbgrader stopped before) goes."""
    global _early
    km, _early = _early, None
    if km is not None:
        _stop(km)


def _stop(km: JailedKernelManager) -> None:
    try:
        run_sync(km.shutdown_kernel)(now=True)
        run_sync(km.cleanup_resources)()
    except Exception:  # noqa: BLE001 - the job's cgroup goes anyway, and the kernel with it
        pass


def error_output(ename: str, evalue: str):
    """An error output like the kernel's own, so nbgrader scores the cell as failed."""
    return new_output("error", ename=ename, evalue=evalue, traceback=[f"{ename}: {evalue}"])


def _short_error(content: dict, limit: int = settings.ERROR_BYTES) -> dict:
    """An error's content with its value and traceback cut to ``limit`` characters (the traceback's last lines)."""
    content = content if isinstance(content, dict) else {}
    trace = content.get("traceback")
    lines = [str(line) for line in trace[-1000:]] if isinstance(trace, list) else []
    kept, total = [], 0
    for line in reversed(lines):
        total += len(line)
        if total > limit:
            break
        kept.append(line)
    return {**content, "ename": str(content.get("ename", "Error"))[:200],
            "evalue": str(content.get("evalue", ""))[:limit], "traceback": kept[::-1]}


class JailedExecute(compat.KernelClientStart, Execute):
    """nbgrader's Execute preprocessor with a jailed kernel, an output cap and crash recovery."""

    extra_arguments = List(Unicode(), default_value=GRADING_ARGUMENTS).tag(config=True)

    def __init__(self, *args, **kwargs):
        kwargs["kernel_manager_class"] = JailedKernelManager
        super().__init__(*args, **kwargs)
        self.jail = load_jail()

    # -- whole notebook --------------------------------------------------------------------
    def preprocess(self, nb, resources=None, km=None):
        # PTGRADE_GUARD=off (the grader's own environment, never the student's) exists for the tests
        # that show what each cheat would earn without the guard.
        if self.jail is not None and settings.environment().guard:
            self.guard = Guard(names=list(COURSE_NAMES) if COURSE_NAMES is not None else course_names(nb))
        else:
            self.guard = None
        self._guard_tried = False
        self.observer = Observer(OBSERVE) if self.jail is not None and OBSERVE is not None else None
        self._tokens: list = []
        self._dead_reason: str | None = None
        self._bounded: list[Voided] = []  # cells that sent what the grader does not read (grader/jail/bounds.py)
        self._peak_rss = 0  # the most the watchdog saw the kernel hold (no cgroup)
        self._why = ""
        self._cell_bytes = 0
        self._capped = False
        self._timing = {"cells_s": 0.0, "start": time.monotonic()}
        if self.jail is not None:
            resources = dict(resources or {})
            resources["metadata"] = {**resources.get("metadata", {}), "path": self.jail.cwd}
        self._early_km = None
        if km is None and self.jail is not None:
            # The kernel nbclient would start: the notebook's kernelspec (else the manager's default),
            # nbclient's arguments, the jail's folder.
            name = (nb.metadata.get("kernelspec") or {}).get("name") or self.kernel_name or EARLY_KERNEL
            km = self._early_km = _take_early(name, self.kernel_arguments(), self.jail.cwd)
        try:
            nb, resources = super().preprocess(nb, resources, km)
        finally:
            self._write_timing()
            if self._early_km is not None and self.km is not None:  # not cleaned up by nbclient
                self._cleanup_kernel()
        return nb, resources

    def kernel_arguments(self) -> list[str]:
        """The arguments nbclient starts its kernel with: ours, and the history file it adds for IPython."""
        arguments = list(self.extra_arguments)
        if self.ipython_hist_file and not any(a.startswith("--HistoryManager.hist_file") for a in arguments):
            arguments.append(f"--HistoryManager.hist_file={self.ipython_hist_file}")
        return arguments

    @contextmanager
    def setup_kernel(self, **kwargs):
        if self._early_km is not None:  # nbclient shuts down only kernels it started: this one too
            kwargs.setdefault("cleanup_kc", True)
        with super().setup_kernel(**kwargs):
            yield

    # -- the kernel client's start (grader.compat.KernelClientStart: a copy of nbclient's) ------------
    def _own_start(self) -> bool:
        return self.jail is not None

    def _before_channels(self) -> None:
        # It connects before the kernel has bound its sockets: retry every 10 ms, not ZeroMQ's
        # default 100 ms (a context's option applies to the sockets made from it).
        self.kc.context.setsockopt(zmq.RECONNECT_IVL, 10)
        # A last resort under grader/jail/bounds.py's limits: ZeroMQ never receives a frame this large (it drops
        # the connection instead), so no kernel can make this process allocate it.
        self.kc.context.setsockopt(zmq.MAXMSGSIZE, 4 * settings.MESSAGE_BYTES)
        if not self.jail.cgroup or not self.jail.tasks_capped:
            self._start_watchdog()
        self._start_disk_watch()

    async def _wait_ready(self, timeout: float) -> None:
        """Until the kernel answers ``kernel_info`` and its IOPub messages reach us.

        jupyter_client's ``wait_for_ready`` checks the same, then waits 0.2 s of IOPub silence
        (every notebook, every time). Here a ``kernel_info`` request goes out every 50 ms until an
        IOPub message about one of them arrives (so the subscription is up) and a reply is in.
        Whatever else is still on its way is about these requests, and the cells' own waits
        ignore messages about other requests.
        """
        kc = self.kc
        sent: set[str] = set()
        replied = subscribed = False
        deadline = time.monotonic() + (timeout if timeout and timeout > 0 else 60)
        next_request = 0.0
        poller = zmq.asyncio.Poller()
        poller.register(kc.shell_channel.socket, zmq.POLLIN)
        poller.register(kc.iopub_channel.socket, zmq.POLLIN)
        while not (replied and subscribed):
            now = time.monotonic()
            if now > deadline:
                raise RuntimeError(f"Kernel didn't respond in {timeout} seconds")
            if now >= next_request and not subscribed:
                sent.add(kc.kernel_info())
                next_request = now + 0.05
            ready = dict(await poller.poll(timeout=10 if subscribed else 50))
            if kc.shell_channel.socket in ready:
                msg = await kc.shell_channel.get_msg(timeout=0)
                replied = replied or (msg["msg_type"] == "kernel_info_reply"
                                      and msg["parent_header"].get("msg_id") in sent)
            if kc.iopub_channel.socket in ready:
                msg = await kc.iopub_channel.get_msg(timeout=0)
                subscribed = subscribed or msg["parent_header"].get("msg_id") in sent
            if not ready and not await ensure_async(self.km.is_alive()):
                raise RuntimeError("Kernel died before replying to kernel_info")

    def _kernel_process(self):
        """The process nbclient started for the kernel (a warm kernel's proxy), or None."""
        return getattr(getattr(self.km, "provisioner", None), "process", None)

    def _watch(self, seconds: float, over) -> None:
        """Every ``seconds`` while the kernel runs, ask ``over(pid)`` which limit it passed (a reason
        such as "memory", or None); at the first one, record it and stop the kernel."""
        process = self._kernel_process()
        if process is None:
            return

        def watch():
            while not exited(process):  # never reaps it: that is nbclient's, in the main thread
                reason = over(process.pid)
                if reason:
                    if self._dead_reason is None:
                        self._dead_reason = reason
                    kill_child(process)
                    return
                time.sleep(seconds)

        threading.Thread(target=watch, daemon=True).start()

    def _start_watchdog(self) -> None:
        """Poll the kernel where no cgroup enforces a limit: its memory, its processes and threads."""
        limit = self.jail.memory_bytes
        group = Path(self.jail.cgroup) if self.jail.cgroup else None

        def over(pid: int) -> str | None:
            if not self.jail.tasks_capped:  # first: many small processes also add up to memory
                tasks = cgroup_tasks(group) if group is not None else tree_tasks(pid)
                if tasks is not None and tasks > TASKS_PER_KERNEL:
                    return "tasks"
            if group is None:
                rss = tree_rss(pid)
                self._peak_rss = max(self._peak_rss, rss)
                if rss > limit:
                    return "memory"
            return None

        self._watch(0.1, over)

    def _start_disk_watch(self) -> None:
        """Stop the kernel once the files it wrote pass the disk limit (no quota does it here)."""
        if self.jail.writable:
            folders, limit = list(self.jail.writable), self.jail.disk_bytes
            self._watch(0.25, lambda pid: "disk" if disk_used(folders) > limit else None)

    def _write_timing(self) -> None:
        if self.jail is None:
            return
        self._timing["total_s"] = time.monotonic() - self._timing.pop("start")
        self._timing["dead"] = self._dead_reason
        with open(os.path.join(self.jail.runtime, "timing.json"), "w") as f:
            json.dump(self._timing, f)
        if self.guard is not None or self._bounded:
            summary = self.guard.summary() if self.guard is not None else Integrity()
            summary = replace(summary, voided=(*summary.voided, *self._bounded))
            with open(INTEGRITY_PATH, "w") as f:
                json.dump(summary.to_json(), f)
        if self.observer is not None:  # the job's folder, which the kernel cannot see (its runtime it can)
            with open(OBSERVED_PATH, "w") as f:
                json.dump(self.observer.summary(), f)

    # -- the guard (grader/judge/guard.py) -------------------------------------------------------------
    async def _async_silent(self, code: str, expression: str, timeout: float = 60, more: dict | None = None):
        """A silent request with one user expression (and ``more``, evaluated after it); its reply, or None."""
        msg_id = self.kc.execute(code, silent=True, store_history=False,
                                 user_expressions={"r": expression, **(more or {})}, allow_stdin=False)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                reply = await ensure_async(self.kc.shell_channel.get_msg(timeout=1))
            except Empty:
                if not await ensure_async(self.km.is_alive()):
                    return None
                continue
            if reply.get("parent_header", {}).get("msg_id") == msg_id:
                return reply
        return None

    _silent = run_sync(_async_silent)

    def _install_guard(self) -> None:
        code, expression = self.guard.install_code()
        reply = self._silent(code, expression)
        try:
            text = reply["content"]["user_expressions"]["r"]["data"]["text/plain"]
            self.guard.installed = text == repr(self.guard.name)
        except (KeyError, TypeError):
            self.guard.installed = False

    def _graded_test(self, cell, resources, index):
        """Run a graded test cell under the guard; its points count only when proven (and, with the
        second key, when its observations match the reference's)."""
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        more = {"o": self.observer.arm_expression(grade_id)} if self.observer is not None else {}
        if self.guard is None:
            if more:
                self._silent("pass", more["o"])
            return self._observed_test(cell, resources, index, grade_id)
        clean = self.guard.installed
        if clean:
            code, expression, nonce = self.guard.sanitize_code()
            clean = self.guard.sanitized(self._silent(code, expression, more=more), nonce)
        elif more:
            self._silent("pass", more["o"])
        source = cell.source
        cell.source, nonce, sent = self.guard.wrap(source)
        self._tokens = []
        try:
            cell, resources = self._observed_test(cell, resources, index, grade_id, judged=False)
        finally:
            cell.source = source
        has_error = any(o.get("output_type") == "error" for o in cell.get("outputs", []))
        verdict = self.guard.judge(grade_id, has_error, clean, self._tokens, nonce, sent)
        if not verdict.ok and self._dead_reason is None:
            cell.outputs.append(error_output("GraderIntegrity", verdict.reason))
        elif not has_error:
            self._second_key(cell, grade_id)
        return cell, resources

    def _locked(self, cell, resources, index):
        """A course's locked cell: then the guard keeps the functions and classes it defined (helpers the
        test cells call), to put them back before each test cell."""
        cell, resources = self._run_cell(cell, resources, index)
        names = course_definitions(cell.source)
        if names and self.guard.installed and self._dead_reason is None:
            self._silent(*self.guard.remember_code(names))
        return cell, resources

    def _observed_test(self, cell, resources, index, grade_id: str, judged: bool = True):
        """Run a test cell, collecting its observations; with ``judged``, then the second key's verdict."""
        if self.observer is None:
            return self._run_cell(cell, resources, index)
        self.observer.begin(grade_id)
        try:
            cell, resources = self._run_cell(cell, resources, index)
        finally:
            self.observer.end()
        if judged and not any(o.get("output_type") == "error" for o in cell.get("outputs", [])):
            self._second_key(cell, grade_id)
        return cell, resources

    def _second_key(self, cell, grade_id: str) -> None:
        """A cell whose checks passed in the kernel: 0 points unless the grader agrees (observations)."""
        verdict = self.observer.judge(grade_id) if self.observer is not None else None
        if verdict is not None and self._dead_reason is None:
            cell.outputs.append(error_output("GraderObservation", verdict.message))

    # -- one cell ----------------------------------------------------------------------------
    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code":
            return cell, resources
        if self.guard is not None and self._dead_reason is None:
            if not self.guard.installed and not self._guard_tried:
                self._guard_tried = True
                self._install_guard()
            if role(cell) == "test":
                return self._graded_test(cell, resources, index)
            if role(cell) == "locked":
                return self._locked(cell, resources, index)
        elif self.observer is not None and self._dead_reason is None and role(cell) == "test":
            return self._graded_test(cell, resources, index)
        return self._run_cell(cell, resources, index)

    def _run_cell(self, cell, resources, index):
        if self._dead_reason is not None:
            cell.outputs = [error_output("NotRun", msg("grader.stopped.not_run", why=self._why))]
            return cell, resources
        self._cell_bytes = 0
        self._capped = False
        started = time.monotonic()
        self._timing.setdefault("kernel_ready", started - self._timing["start"])
        refused = len(self._violations())
        try:
            cell, resources = super().preprocess_cell(cell, resources, index)
            self._refused(cell, index, refused)
            if self._capped and not any(o.get("output_type") == "error" for o in cell.get("outputs", [])):
                # Its note went to stderr, which fails no check (grader.compat.warnings_never_fail): a
                # flood that ended before the interrupt came still fails, in the same words.
                cell.outputs.append(error_output("OutputCapped", messages.msg(
                    "grader.output_capped", kb=self.jail.output_bytes // 1024)))
            return cell, resources
        except DeadKernelError:
            if self._dead_reason is None:
                self._dead_reason = "died"
            self._why = self._death_message()
            cell.outputs.append(error_output("KernelDied", self._why))
            return cell, resources
        except CellTimeoutError:
            # The cell ran past its limit and ignored the interrupt: stop the kernel, keep the
            # grades of the cells before it. A kernel pressed against its memory limit (paging,
            # or killed by the limit while its death was still on its way here) ran out of memory:
            # that is what the learner is told, not that the cell hung.
            process = self._kernel_process()
            at_limit = self._at_memory_limit(process)
            if process is not None:
                kill_child(process)
            if self._dead_reason is None:
                self._dead_reason = "memory" if at_limit or self._oom_killed() else "stuck"
            if self._dead_reason != "stuck":  # the watchdog stopped it meanwhile, or memory
                self._why = self._death_message()
                cell.outputs.append(error_output("KernelDied", self._why))
            else:
                self._why = msg("grader.stopped.stuck", seconds=self.timeout)
                cell.outputs.append(error_output("CellTimeoutError", msg("grader.stopped.cell_stuck")))
            return cell, resources
        finally:
            self._timing["cells_s"] += time.monotonic() - started

    def _violations(self) -> list:
        """What the kernel client's session refused to read so far (grader/jail/bounds.py)."""
        return getattr(getattr(getattr(self, "kc", None), "session", None), "violations", [])

    def _refused(self, cell, index: int, before: int) -> None:
        """A cell whose messages the session refused to read fails, with the plain message, and is flagged."""
        new = self._violations()[before:]
        if not new:
            return
        if not any(o.get("ename") == bounds.ENAME for o in cell.get("outputs", [])):
            cell.outputs.append(error_output(bounds.ENAME, bounds.refusal_text()))
        where = cell.metadata.get("nbgrader", {}).get("grade_id") or f"cell {index}"
        detail = "; ".join(f"{v.msg_type or 'message'}: {v.why}" for v in new[:3])
        self._bounded.append(Voided(where, bounds.refusal_text(), detail[:300]))

    def _death_message(self) -> str:
        if self._dead_reason == "tasks":
            return msg("grader.stopped.tasks", limit=TASKS_PER_KERNEL)
        if self._dead_reason == "disk":
            return msg("grader.stopped.disk", limit=f"{self.jail.disk_bytes / 1024**2:.0f} MB")
        limit = f"{self.jail.memory_bytes / 1024**3:.1f} GB" if self.jail else "the limit"
        if self._dead_reason == "memory" or self._oom_killed():
            self._dead_reason = "memory"
            return msg("grader.stopped.memory", limit=limit)
        return msg("grader.stopped.died")

    def _at_memory_limit(self, process) -> bool:
        """Whether the kernel holds (or held) about its whole memory limit in memory of its own.

        In a cgroup: 90 % of the limit, or half of it once the limit was reached (the rest is file
        cache the kernel is still reclaiming before it gives up and kills)."""
        if self.jail is None:
            return False
        limit = self.jail.memory_bytes
        near = 0.9 * limit
        if self.jail.cgroup:
            held = cgroup_anon(Path(self.jail.cgroup))
            if held is not None:
                return held >= near or (held >= 0.5 * limit and cgroup_limit_hits(Path(self.jail.cgroup)) > 0)
        held = tree_rss(process.pid) if process is not None else 0
        return max(held, self._peak_rss) >= near

    def _oom_killed(self) -> bool:
        return bool(self.jail and self.jail.cgroup and cgroup_oom_killed(Path(self.jail.cgroup)))

    def output(self, outs, msg, display_id, cell_index):
        if self.jail is None:
            return super().output(outs, msg, display_id, cell_index)
        if msg["msg_type"] == "error":  # always kept (a failing check never passes by flooding), within bounds
            msg["content"] = _short_error(msg.get("content") or {})
            return super().output(outs, msg, display_id, cell_index)
        if msg["msg_type"] == bounds.DROPPED:  # refused by the session (grader/jail/bounds.py): the cell fails
            return None
        content = msg.get("content", {})
        if not (isinstance(content, dict) and isinstance(content.get("text", ""), str)
                and isinstance(content.get("data", {}), dict)):
            return None  # not an output Jupyter's protocol allows: nothing of it goes into the notebook
        if msg["msg_type"] == "stream" and "\x1ePTG " in content.get("text", ""):
            rest, tokens = Guard.take_token(content["text"])
            self._tokens.extend(tokens)
            content["text"] = rest
            if not rest:
                return None
        size = (len(content.get("text", "")) + sum(len(str(v)) for v in content.get("data", {}).values())
                + len(str(content.get("metadata", ""))))
        self._cell_bytes += size  # observations count too: a flood of them is stopped like any other
        if self._cell_bytes <= self.jail.output_bytes:
            if self.observer is not None and self.observer.take(msg):
                return None  # an observation: for the grader only, never in the notebook
            return super().output(outs, msg, display_id, cell_index)
        if not self._capped:
            self._capped = True
            outs.append(new_output(
                "stream", name="stderr",
                text="\n" + messages.msg("grader.output_capped", kb=self.jail.output_bytes // 1024) + "\n",
            ))
            asyncio.ensure_future(self.km.interrupt_kernel())
        return None
