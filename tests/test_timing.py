"""ptcourse.timing: the median of the timed calls, the warm-up left out, and the busy verdict (fake clock)."""

from unittest import mock

import pytest

from ptcourse import timing


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
    with mock.patch("time.perf_counter", clock):
        result = timing.measure(step, warmup=2, repeats=5)
    assert state["calls"] == 7
    assert result.median_s == pytest.approx(0.012)
    assert result.repeats == 5


def test_steady_repeats_are_not_busy():
    clock, step, _ = fake_clock([0.010] * 3 + [0.010, 0.0101, 0.0099, 0.010, 0.0102])
    with mock.patch("time.perf_counter", clock):
        result = timing.measure(step, warmup=3, repeats=5)
    assert not result.busy
    assert timing.busy_warning([("steady", result)]) is None


def test_scattered_repeats_are_busy_and_named():
    clock, step, _ = fake_clock([0.01] + [0.010, 0.030, 0.005, 0.050, 0.012])
    with mock.patch("time.perf_counter", clock):
        result = timing.measure(step, warmup=1, repeats=5)
    assert result.busy
    warning = timing.busy_warning([("steady", timing.Timing(0.01, 0.1, 5)), ("noisy", result)])
    assert warning is not None and "noisy" in warning


def test_one_thread_restores_the_count():
    import torch

    before = torch.get_num_threads()
    with timing.one_thread():
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before


def test_too_few_repeats_refused():
    with pytest.raises(ValueError):
        timing.measure(lambda: None, repeats=2)
