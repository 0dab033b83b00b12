"""The set-up cell's memory warning (ptcourse.memory), decided on fake cgroup readings."""

from __future__ import annotations

from pathlib import Path

import pytest

from ptcourse import memory
from ptcourse.memory import Reading, level, read_memory, warning_text

MB = 1024**2
GB = 1024**3


def fake_v1(tmp: Path, usage: int, limit: int, inactive: int = 0, group: str = "/kubepods/pod1") -> Path:
    """A v1 hierarchy whose memory controller puts this process in ``group``."""
    folder = tmp / "sys" / "memory" / group.lstrip("/")
    folder.mkdir(parents=True)
    (folder / "memory.usage_in_bytes").write_text(f"{usage}\n")
    (folder / "memory.limit_in_bytes").write_text(f"{limit}\n")
    (folder / "memory.stat").write_text(f"cache 5\ntotal_inactive_file {inactive}\nrss 1\n")
    proc = tmp / "cgroup"
    proc.write_text(f"12:pids:/\n4:memory:{group}\n0::/\n")
    return proc


def fake_v2(tmp: Path, current: int, limit: str, inactive: int = 0, group: str = "/") -> Path:
    folder = tmp / "sys" / group.lstrip("/")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "memory.current").write_text(f"{current}\n")
    (folder / "memory.max").write_text(f"{limit}\n")
    (folder / "memory.stat").write_text(f"anon 1\ninactive_file {inactive}\nactive_file 3\n")
    proc = tmp / "cgroup"
    proc.write_text(f"0::{group}\n")
    return proc


def test_v2_reading_drops_inactive_file_cache(tmp_path):
    proc = fake_v2(tmp_path, current=1500 * MB, limit=str(2 * GB), inactive=300 * MB)
    assert read_memory(tmp_path / "sys", proc) == Reading(used=1200 * MB, limit=2 * GB, kernels=0)


def test_v1_reading(tmp_path):
    proc = fake_v1(tmp_path, usage=1800 * MB, limit=2 * GB, inactive=100 * MB)
    assert read_memory(tmp_path / "sys", proc) == Reading(used=1700 * MB, limit=2 * GB, kernels=0)


def test_unlimited_means_no_reading(tmp_path):
    assert read_memory(tmp_path / "sys", fake_v2(tmp_path, current=GB, limit="max")) is None
    other = tmp_path / "v1"
    other.mkdir()
    assert read_memory(other / "sys", fake_v1(other, usage=GB, limit=9223372036854771712)) is None


def test_no_cgroup_files_means_no_reading(tmp_path):
    assert read_memory(tmp_path / "nothing", tmp_path / "missing") is None


def test_limit_set_on_a_parent_group_is_found(tmp_path):
    """The kernel sits in a sub-group of the limited container group."""
    proc = fake_v2(tmp_path, current=1700 * MB, limit=str(2 * GB), group="/pod")
    child = tmp_path / "sys" / "pod" / "kernel"
    child.mkdir()
    (child / "memory.current").write_text(f"{500 * MB}\n")
    (child / "memory.max").write_text("max\n")
    proc.write_text("0::/pod/kernel\n")
    assert read_memory(tmp_path / "sys", proc) == Reading(used=1700 * MB, limit=2 * GB, kernels=0)


@pytest.mark.parametrize(
    ("used_mb", "expected"),
    [(0, "ok"), (1000, "ok"), (1340, "tight"), (1700, "tight"), (1750, "critical"), (2048, "critical")],
)
def test_levels_at_binder_2gb(used_mb, expected):
    assert level(Reading(used=used_mb * MB, limit=2 * GB)) == expected


def test_no_limit_no_warning():
    assert level(None) == "ok"
    assert warning_text(None) is None
    assert warning_text(Reading(used=500 * MB, limit=2 * GB)) is None


def test_warning_says_usage_and_how_to_shut_kernels_down():
    text = warning_text(Reading(used=1400 * MB, limit=2 * GB, kernels=3))
    assert "1.4 GB of its 2.0 GB (68 %)" in text
    assert "2 other notebooks' kernels are still running" in text
    assert "Running panel" in text and "Kernel → Shut Down Kernel" in text
    assert "saved notebooks are not touched" in text
    one = warning_text(Reading(used=1800 * MB, limit=2 * GB, kernels=2))
    assert "almost full" in one and "1 other notebook's kernel is still running" in one


def test_check_memory_prints_only_when_tight(monkeypatch, capsys):
    readings = iter([Reading(used=300 * MB, limit=2 * GB), Reading(used=1500 * MB, limit=2 * GB)])
    monkeypatch.setattr(memory, "read_memory", lambda: next(readings))
    memory.check_memory()
    assert capsys.readouterr().out == ""
    memory.check_memory()
    assert "getting tight" in capsys.readouterr().out
    monkeypatch.setenv("PTCOURSE_MEMORY_CHECK", "0")
    assert memory.check_memory() is None


def test_watcher_warns_once_per_level(monkeypatch, capsys):
    used = iter([1000, 1400, 1450, 1800, 1900, 900, 1400])
    monkeypatch.setattr(memory, "read_memory", lambda: Reading(used=next(used) * MB, limit=2 * GB))
    after_cell = memory._Watcher("ok")
    shown = []
    for _ in range(7):
        after_cell()
        shown.append(capsys.readouterr().out.split(":")[0])
    assert shown == ["", "⚠ Memory is getting tight", "", "⚠ Memory is almost full", "", "",
                     "⚠ Memory is getting tight"]


def test_this_machine_reads_or_says_unlimited():
    """On the real /sys/fs/cgroup the reader never fails; its reading is sane when there is one."""
    reading = read_memory()
    assert reading is None or 0 <= reading.used <= 2 * reading.limit


def test_server_culls_idle_kernels_even_with_open_tabs(tmp_path, monkeypatch):
    """tools/lab_setup.py merges the culling into the environment's jupyter_server_config.json."""
    import json
    import sys

    from tools import lab_setup

    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    existing = tmp_path / "etc" / "jupyter" / "jupyter_server_config.json"
    existing.parent.mkdir(parents=True)
    existing.write_text('{"ServerApp": {"foo": 1}}')
    config = json.loads(lab_setup.install_server_config().read_text())
    culling = config["MappingKernelManager"]
    assert config["ServerApp"] == {"foo": 1}, "other settings should be kept"
    assert culling["cull_connected"] is True and culling["cull_busy"] is False
    assert 10 * 60 < culling["cull_idle_timeout"] <= 30 * 60, "longer than Binder's own 10 min idle cut-off"


def test_closing_a_notebook_shuts_its_kernel_down():
    import json

    from tools.notebooks import ROOT

    overrides = json.loads((ROOT / "grader" / "lab-overrides.json").read_text())
    assert overrides["@jupyterlab/notebook-extension:tracker"]["kernelShutdown"] is True

