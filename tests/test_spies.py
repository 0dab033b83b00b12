"""ptcourse.spies: what a training loop did, recorded without changing its results."""

import pytest
import torch
from torch import nn
from torch.nn.functional import cross_entropy  # imported by name before the spy starts: still seen

from ptcourse.spies import Event, watch_training


def _loop(order, batches=((0, 4), (4, 8), (8, 10)), loss=cross_entropy, zero="optimizer"):
    """One epoch over 10 samples of a tiny classifier, its steps in `order`; returns (trace, the mean loss)."""
    torch.manual_seed(0)
    model = nn.Linear(3, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(10, 3), torch.randint(0, 2, (10,))
    total = 0.0
    with watch_training() as trace:
        for start, stop in batches:
            value = None
            for step in order:
                if step == "zero":
                    if zero == "by hand":
                        for parameter in model.parameters():
                            parameter.grad = None
                    else:
                        (optimizer if zero == "optimizer" else model).zero_grad()
                elif step == "loss":
                    value = loss(model(x[start:stop]), y[start:stop])
                    total += value.item() * (stop - start)
                elif step == "backward":
                    value.backward()
                elif step == "step":
                    optimizer.step()
    return trace, total / 10


def test_a_complete_loop_is_in_order_and_its_uneven_epoch_mean_is_recomputed():
    trace, mean = _loop(["zero", "loss", "backward", "step"])
    assert trace.order_problem() is None
    assert trace.count(Event.STEP) == trace.count(Event.BACKWARD) == trace.count(Event.ZERO_GRAD) == 3
    assert [c.batch for c in trace.training_losses()] == [4, 4, 2]
    assert trace.epoch_means(10) == pytest.approx([mean])
    assert trace.epoch_means(10, weighted=False) != pytest.approx([mean])


@pytest.mark.parametrize(("order", "missing"), [
    (["loss", "backward", "step"], Event.ZERO_GRAD),
    (["zero", "loss", "step", "backward"], Event.BACKWARD),
    (["zero", "loss", "step"], Event.BACKWARD),
    (["loss", "backward", "zero", "step"], Event.BACKWARD),
])
def test_a_missing_or_misplaced_step_is_named(order, missing):
    assert _loop(order)[0].order_problem() is missing


def test_zeroing_by_hand_counts_as_zeroing():
    assert _loop(["zero", "loss", "backward", "step"], zero="by hand")[0].order_problem() is None


def test_loss_modules_and_module_zero_grad_are_seen_too():
    trace, _ = _loop(["zero", "loss", "backward", "step"], loss=nn.CrossEntropyLoss(), zero="model")
    assert trace.count(Event.LOSS) == 3 and trace.count(Event.ZERO_GRAD) == 3


def test_losses_without_autograd_are_not_training_losses_and_patches_are_undone():
    original = torch._C._nn.cross_entropy_loss
    with watch_training() as trace, torch.no_grad():
        nn.functional.mse_loss(torch.zeros(3), torch.ones(3))
    assert trace.count(Event.LOSS) == 1 and trace.training_losses() == []
    assert torch._C._nn.cross_entropy_loss is original


def test_patched_reaches_names_the_learner_imported():
    """A check that patches torch.save or time.perf_counter also sees ``from torch import save``."""
    import io
    import time

    from ptcourse.spies import patched

    namespace = {"save": torch.save, "perf_counter": time.perf_counter, "torch": torch}
    exec("def answer(obj, f):\n    save(obj, f)\n    return perf_counter()\n", namespace)
    calls = []

    def spy(obj, f, _real=torch.save):
        calls.append(obj)
        return _real(obj, f)

    with patched("torch.save", spy, namespace=namespace), \
         patched("time.perf_counter", namespace=namespace, return_value=42.0):
        assert namespace["answer"]({"w": torch.zeros(1)}, io.BytesIO()) == 42.0
        torch.save({"w": torch.ones(1)}, io.BytesIO())  # the module's name too
    assert len(calls) == 2
    assert namespace["save"] is torch.save and namespace["perf_counter"] is time.perf_counter  # put back
    assert torch.save is not spy and namespace["answer"]({"w": torch.zeros(1)}, io.BytesIO()) != 42.0


def test_patched_defaults_to_the_callers_globals():
    from ptcourse.spies import patched

    global _learner_save
    _learner_save = torch.save
    try:
        with patched("torch.save", lambda *a, **k: "spied"):
            assert _learner_save(None, None) == "spied"
        assert _learner_save is torch.save
    finally:
        del _learner_save
