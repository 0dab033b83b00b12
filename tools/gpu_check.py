"""``make gpu-check``: the course's CUDA paths, run for real on an NVIDIA GPU, in one table.

On a machine with CUDA, in one run (about 5 minutes on one H200; it stops itself at
``--deadline`` seconds, 8 minutes by default):

1. **notebooks**: every solution notebook runs in a fresh kernel with ``PTCOURSE_DEVICE`` unset,
   so ``ptcourse.setup`` picks ``cuda``; a cell that raises is a failure;
2. **grading**: the solved student copies of each day go through the class grader
   (``python -m grader grade DAY --gpu``), with ``/dev/nvidia*`` exposed inside the sandbox;
   each must score full marks;
3. **measurements** of the course's headline claims, each against its own baseline:
   AMP (float16 autocast + GradScaler) speed-up and peak-memory saving on day2/03's CNN and on
   a larger model (ResNet-18 on 128 × 128 images); ``torch.compile`` speed-up after warm-up
   (and the warm-up's cost); activation checkpointing's memory saving and slowdown.

It prints one table (markdown, ready for the README) and writes ``bench-results/gpu-check.json``.
Without CUDA it says so and exits 0. ``--dry-run`` runs the measurement code on the CPU with tiny
sizes (bfloat16 autocast, no compile) and lists the notebooks and grader commands it would run,
so the script itself can be checked on any machine::

    .venv/bin/python tools/gpu_check.py              # what `make gpu-check` runs
    .venv/bin/python tools/gpu_check.py --dry-run    # on a CPU machine: check the script
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

OUT = ROOT / "bench-results"


# -- 1. every solution notebook on the GPU ------------------------------------------------------
def gpu_env() -> dict[str, str]:
    """The environment of every child: the course picks CUDA by itself."""
    env = {k: v for k, v in os.environ.items() if k != "PTCOURSE_DEVICE"}
    env.setdefault("PTCOURSE_THREADS", "4")
    return env


def run_notebook(path: Path) -> dict:
    """Execute one notebook in a fresh kernel; seconds, failing cells, and the device it chose."""
    from tools.kernel import Kernel
    from tools.notebooks import nb_key, read

    started = time.perf_counter()
    failures = []
    with Kernel(path.parent, env=gpu_env(), strict=False) as kernel:
        for cell in read(path).cells:
            if cell.cell_type == "code":
                result = kernel.run(cell.source, timeout=180)
                if not result.ok:
                    grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "?")
                    failures.append(f"{grade_id}: {result.ename}: {result.evalue[:160]}")
        probe = kernel.run("import torch; print(torch.cuda.is_initialized())")
    return {"notebook": nb_key(path), "seconds": round(time.perf_counter() - started, 1),
            "cuda_used": probe.stdout.strip() == "True", "failures": failures}


def run_notebooks(workers: int) -> list[dict]:
    from tools.notebooks import DAYS, solution_notebooks

    paths = [p for day in DAYS for p in solution_notebooks(day)]
    # one process per kernel client, started fresh (this process has already initialised CUDA)
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        return list(pool.map(run_notebook, paths))


# -- 2. the solved copies through the class grader, GPU exposed ---------------------------------
def grade_day(day: str, workers: int) -> dict:
    """Grade the solved student copies of one day with the GPU exposed; scores per notebook."""
    from tools.classroom import solved, write_class
    from tools.notebooks import solution_notebooks

    names = [p.stem for p in solution_notebooks(day)]
    with tempfile.TemporaryDirectory(prefix="gpu-check-") as tmp:
        tmp = Path(tmp)
        submitted = write_class(tmp / "submitted", day, {"gpu_check": {n: solved(day, n) for n in names}})
        started = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "grader", "grade", day, "--submissions", str(submitted), "--out", str(tmp / "out"),
             "--gradebook", f"sqlite:///{tmp / 'gb.db'}", "--workers", str(workers), "--gpu", "--memory", "16G",
             "--threads", "2", "--quiet"],
            cwd=ROOT, env=gpu_env(), capture_output=True, text=True, timeout=600,
        )
        seconds = time.perf_counter() - started
        scores = {}
        for record in (tmp / "out" / "reports" / day / "results").glob("*/*.json"):
            data = json.loads(record.read_text())
            scores[data["notebook"]] = (data.get("score"), data.get("max_score"), data.get("status"))
    return {"day": day, "seconds": round(seconds, 1), "returncode": proc.returncode, "scores": scores,
            "full_marks": proc.returncode == 0 and len(scores) == len(names)
            and all(s == m and st == "graded" for s, m, st in scores.values()),
            "log": (proc.stdout + proc.stderr)[-800:]}


# -- 3. measurements ---------------------------------------------------------------------------
def timed_steps(step, steps: int, device) -> tuple[float, float]:
    """(milliseconds per step, peak MiB) of ``steps`` calls of ``step`` after 3 warm-up calls."""
    import torch

    for _ in range(3):
        step()
    cuda = device.type == "cuda"
    if cuda:
        torch.cuda.synchronize(device)
        torch.cuda.reset_peak_memory_stats(device)
    started = time.perf_counter()
    for _ in range(steps):
        step()
    if cuda:
        torch.cuda.synchronize(device)
    ms = (time.perf_counter() - started) / steps * 1000
    peak = torch.cuda.max_memory_allocated(device) / 2**20 if cuda else float("nan")
    return ms, peak


def train_step(model, batch, targets, amp_dtype=None, scaler=None):
    """One optimizer step closure: float32, or autocast to ``amp_dtype`` (float16 with a live GradScaler)."""
    import torch
    import torch.nn.functional as F

    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    device_type = batch.device.type

    def step():
        optimizer.zero_grad(set_to_none=True)
        if amp_dtype is None:
            loss = F.cross_entropy(model(batch), targets)
            loss.backward()
            optimizer.step()
            return
        with torch.autocast(device_type, dtype=amp_dtype):
            loss = F.cross_entropy(model(batch), targets)
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            loss.backward()
            optimizer.step()

    return step


def models(device, small: bool):
    """(name, model factory, input batch, targets) for the AMP and compile measurements."""
    import torch
    from bench_cnn import NOTEBOOK, SimpleCNN
    from torchvision.models import resnet18

    def cnn():
        return SimpleCNN(*NOTEBOOK.widths, batch_norm=NOTEBOOK.batch_norm).to(device, memory_format=torch.channels_last)

    def resnet():
        return resnet18(num_classes=10).to(device, memory_format=torch.channels_last)

    n_cnn, n_res, side = (16, 4, 32) if small else (512, 128, 128)
    return [
        ("day2/03 CNN", cnn, torch.randn(n_cnn, 1, 28, 28, device=device), torch.randint(0, 10, (n_cnn,), device=device)),
        (f"ResNet-18, {side} px", resnet, torch.randn(n_res, 3, side, side, device=device).to(
            memory_format=torch.channels_last), torch.randint(0, 10, (n_res,), device=device)),
    ]


def measure_amp(device, small: bool) -> list[dict]:
    import torch

    rows = []
    amp_dtype = torch.float16 if device.type == "cuda" else torch.bfloat16
    steps = 3 if small else 30
    for name, make, batch, targets in models(device, small):
        torch.manual_seed(0)
        base_ms, base_mb = timed_steps(train_step(make(), batch, targets), steps, device)
        torch.manual_seed(0)
        scaler = torch.amp.GradScaler(device.type) if amp_dtype == torch.float16 else None
        amp_ms, amp_mb = timed_steps(train_step(make(), batch, targets, amp_dtype, scaler), steps, device)
        rows.append({"claim": f"AMP ({str(amp_dtype).split('.')[-1]}) on {name}", "baseline": f"{base_ms:.2f} ms/step, "
                     f"{base_mb:.0f} MiB", "variant": f"{amp_ms:.2f} ms/step, {amp_mb:.0f} MiB",
                     "result": f"{base_ms / amp_ms:.2f}x speed, {100 * (1 - amp_mb / base_mb):.0f} % less memory"
                     if device.type == "cuda" else f"{base_ms / amp_ms:.2f}x speed"})
    return rows


def measure_compile(device, small: bool) -> list[dict]:
    import torch

    if small:
        return [{"claim": "torch.compile", "baseline": "-", "variant": "-", "result": "skipped in --dry-run"}]
    name, make, batch, targets = models(device, small)[1]
    torch.manual_seed(0)
    eager_ms, _ = timed_steps(train_step(make(), batch, targets), 30, device)
    torch.manual_seed(0)
    compiled = torch.compile(make())
    step = train_step(compiled, batch, targets)
    started = time.perf_counter()
    step()
    torch.cuda.synchronize(device)
    warm_up_s = time.perf_counter() - started
    compiled_ms, _ = timed_steps(step, 30, device)
    return [{"claim": f"torch.compile on {name} (training step)", "baseline": f"{eager_ms:.2f} ms/step eager",
             "variant": f"{compiled_ms:.2f} ms/step compiled (first call {warm_up_s:.0f} s)",
             "result": f"{eager_ms / compiled_ms:.2f}x speed after warm-up"}]


def measure_checkpointing(device, small: bool) -> list[dict]:
    import torch
    from torch import nn
    from torch.utils.checkpoint import checkpoint

    width, depth, batch_size = (64, 4, 8) if small else (2048, 24, 4096)

    class Deep(nn.Module):
        def __init__(self, checkpointed: bool):
            super().__init__()
            self.blocks = nn.ModuleList(nn.Sequential(nn.Linear(width, width), nn.GELU(), nn.LayerNorm(width))
                                        for _ in range(depth))
            self.head = nn.Linear(width, 10)
            self.checkpointed = checkpointed

        def forward(self, x):
            for block in self.blocks:
                x = checkpoint(block, x, use_reentrant=False) if self.checkpointed else block(x)
            return self.head(x)

    batch = torch.randn(batch_size, width, device=device)
    targets = torch.randint(0, 10, (batch_size,), device=device)
    results = {}
    for checkpointed in (False, True):
        torch.manual_seed(0)
        results[checkpointed] = timed_steps(train_step(Deep(checkpointed).to(device), batch, targets),
                                            3 if small else 20, device)
    (plain_ms, plain_mb), (ckpt_ms, ckpt_mb) = results[False], results[True]
    saving = f"{100 * (1 - ckpt_mb / plain_mb):.0f} % less memory, " if device.type == "cuda" else ""
    return [{"claim": f"activation checkpointing, {depth} blocks of {width}, batch {batch_size}",
             "baseline": f"{plain_ms:.2f} ms/step, {plain_mb:.0f} MiB", "variant": f"{ckpt_ms:.2f} ms/step, "
             f"{ckpt_mb:.0f} MiB", "result": f"{saving}{ckpt_ms / plain_ms:.2f}x the time"}]


# -- the table ----------------------------------------------------------------------------------
def table(rows: list[dict]) -> str:
    lines = ["| check | baseline | variant | result |", "|---|---|---|---|"]
    lines += [f"| {r['claim']} | {r['baseline']} | {r['variant']} | {r['result']} |" for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dry-run", action="store_true", help="on the CPU, tiny sizes: check the script itself")
    parser.add_argument("--workers", type=int, default=4, help="notebooks run (and graded) at once")
    parser.add_argument("--skip", nargs="*", default=[], choices=["notebooks", "grading", "measurements"])
    parser.add_argument("--deadline", type=float, default=480, help="seconds after which remaining parts are skipped")
    args = parser.parse_args(argv)

    import torch

    if not torch.cuda.is_available() and not args.dry_run:
        print("gpu-check: no CUDA device on this machine (torch.cuda.is_available() is False): nothing to check. "
              "Run it on a machine with an NVIDIA GPU, or pass --dry-run to check the script on the CPU.")
        return 0
    device = torch.device("cpu") if args.dry_run else torch.device("cuda")
    if args.dry_run:
        torch.set_num_threads(1)
    started = time.perf_counter()
    rows: list[dict] = []
    name = "CPU (dry run)" if args.dry_run else torch.cuda.get_device_name(device)
    report = {"device": name, "torch": torch.__version__, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}

    def time_left() -> bool:
        return time.perf_counter() - started < args.deadline

    if "measurements" not in args.skip:
        for measure in (measure_amp, measure_compile, measure_checkpointing):
            if time_left():
                rows += measure(device, small=args.dry_run)
    if "notebooks" not in args.skip and time_left():
        if args.dry_run:
            from tools.notebooks import DAYS, nb_key, solution_notebooks

            planned = [nb_key(p) for d in DAYS for p in solution_notebooks(d)]
            rows.append({"claim": "solution notebooks on the GPU", "baseline": "-", "variant": "-",
                         "result": f"would run {len(planned)} notebooks, {args.workers} at a time"})
        else:
            runs = run_notebooks(args.workers)
            report["notebooks"] = runs
            bad = [r["notebook"] for r in runs if r["failures"] or not r["cuda_used"]]
            rows.append({"claim": "solution notebooks on the GPU", "baseline": f"{len(runs)} notebooks",
                         "variant": f"{sum(r['seconds'] for r in runs):.0f} s of cells in all",
                         "result": "all ran clean on CUDA" if not bad else "FAILED: " + ", ".join(bad)})
    if "grading" not in args.skip:
        from tools.notebooks import DAYS

        for day in DAYS:
            if not time_left():
                rows.append({"claim": f"grader --gpu, {day}", "baseline": "-", "variant": "-",
                             "result": "skipped: past the deadline"})
                continue
            if args.dry_run:
                rows.append({"claim": f"grader --gpu, {day}", "baseline": "-", "variant": "-",
                             "result": f"would run: python -m grader grade {day} --gpu --workers {args.workers}"})
                continue
            graded = grade_day(day, args.workers)
            report.setdefault("grading", []).append(graded)
            got = sum(s or 0 for s, _, _ in graded["scores"].values())
            full = sum(m or 0 for _, m, _ in graded["scores"].values())
            rows.append({"claim": f"grader --gpu, {day} solved copies", "baseline": f"{len(graded['scores'])} notebooks",
                         "variant": f"{graded['seconds']:.0f} s", "result": f"{got:g} / {full:g} points"
                         + ("" if graded["full_marks"] else " NOT FULL MARKS")})
    report["rows"] = rows
    report["seconds"] = round(time.perf_counter() - started, 1)
    text = table(rows)
    print(f"\ngpu-check on {name}, torch {torch.__version__}, {report['date']}, {report['seconds']:.0f} s\n")
    print(text)
    OUT.mkdir(exist_ok=True)
    (OUT / "gpu-check.json").write_text(json.dumps(report, indent=2))
    print(f"\nwritten {OUT / 'gpu-check.json'}")
    failed = any("FAILED" in r["result"] or "NOT FULL" in r["result"] for r in rows)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
