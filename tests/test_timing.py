"""ptcourse.timing: medians of timed calls without the warm-up (fake clock), one thread, the busy
verdict and note, and bfloat16 support from the CPU flags."""

from unittest import mock

import pytest
import torch

from ptcourse import timing
from ptcourse.timing import Bf16Support, Timing, bf16_note, bf16_support, busy_note, one_thread, time_ms


def test_time_ms_warms_up_pins_one_thread_and_restores():
    threads, before = [], torch.get_num_threads()
    timing = time_ms(lambda: threads.append(torch.get_num_threads()), repeats=5, warmup=2)
    assert threads == [1] * 7
    assert len(timing.samples_ms) == 5 and torch.get_num_threads() == before


def test_one_thread_restores_after_an_error():
    before = torch.get_num_threads()
    try:
        with one_thread():
            raise ValueError
    except ValueError:
        pass
    assert torch.get_num_threads() == before


def test_median_spread_and_busy():
    steady = Timing((10.0, 10.1, 9.9, 10.0, 10.2), load=0.2)
    noisy = Timing((10.0, 30.0, 9.0, 25.0, 11.0, 40.0), load=0.2)
    loaded = Timing((10.0, 10.0, 10.0, 10.0), load=3.0)  # over LOAD_LIMIT runnable processes per CPU
    assert steady.median_ms == 10.0 and not steady.busy
    assert noisy.busy and loaded.busy
    assert busy_note(steady) == ""
    assert "too busy" in busy_note(steady, noisy) and "3.0" in busy_note(loaded)
    assert not Timing((10.0, 10.0, 10.0, 10.0), load=1.0).busy  # the notebook's own process is load too


def test_bf16_support_from_flags(tmp_path):
    info = tmp_path / "cpuinfo"
    info.write_text("flags : fpu sse avx2 avx512f avx512_bf16 amx_bf16\n")
    found = bf16_support(info)
    assert found.flags == ("avx512_bf16", "amx_bf16") and found.native
    info.write_text("flags : fpu sse avx2\n")
    assert not bf16_support(info).native
    assert not bf16_support(tmp_path / "missing").flags


def test_bf16_note_says_which_case():
    assert "no native bfloat16" in bf16_note(Bf16Support("AVX2", ()))
    assert "avx512_bf16" in bf16_note(Bf16Support("AVX512", ("avx512_bf16",)))


def fake_clock(durations):
    """A perf_counter that moves by the next duration at each call of the returned step()."""
    state = {"now": 100.0, "calls": 0}

    def clock():
        return state["now"]

    def step():
        state["now"] += durations[state["calls"]]
        state["calls"] += 1

    return clock, step, state


def test_median_of_timed_calls_without_warmup():
    clock, step, state = fake_clock([5.0, 5.0, 0.010, 0.011, 0.012, 0.013, 0.500])
    with mock.patch("time.perf_counter", clock), mock.patch.object(timing, "_load_per_cpu", return_value=0.1):
        result = timing.measure(step, warmup=2, repeats=5)
    assert state["calls"] == 7
    assert result.median_s == pytest.approx(0.012)
    assert result.repeats == 5


def test_steady_repeats_are_not_busy():
    clock, step, _ = fake_clock([0.010] * 3 + [0.010, 0.0101, 0.0099, 0.010, 0.0102])
    with mock.patch("time.perf_counter", clock), mock.patch.object(timing, "_load_per_cpu", return_value=0.1):
        result = timing.measure(step, warmup=3, repeats=5)
    assert not result.busy
    assert timing.busy_warning([("steady", result)]) is None


def test_scattered_repeats_are_busy_and_named():
    clock, step, _ = fake_clock([0.01] + [0.010, 0.030, 0.005, 0.050, 0.012])
    with mock.patch("time.perf_counter", clock), mock.patch.object(timing, "_load_per_cpu", return_value=0.1):
        result = timing.measure(step, warmup=1, repeats=5)
    assert result.busy
    warning = timing.busy_warning([("steady", timing.Timing((10.0, 10.1, 9.9, 10.0, 10.0))), ("noisy", result)])
    assert warning is not None and "noisy" in warning


def test_one_thread_restores_the_count():
    before = torch.get_num_threads()
    with timing.one_thread():
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before


def test_too_few_repeats_refused():
    with pytest.raises(ValueError):
        timing.measure(lambda: None, repeats=2)
