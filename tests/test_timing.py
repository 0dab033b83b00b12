"""ptcourse.timing: one-thread medians, the busy-machine note, and bfloat16 support from the CPU flags."""

import torch

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
    loaded = Timing((10.0, 10.0, 10.0, 10.0), load=3.0)
    assert steady.median_ms == 10.0 and not steady.busy
    assert noisy.busy and loaded.busy
    assert busy_note(steady) == ""
    assert "too busy" in busy_note(steady, noisy) and "3.0" in busy_note(loaded)


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
