"""Messages of the generic check helpers (:mod:`ptcourse.checks`) and of the set-up."""

MESSAGES = {
    "check.passed": "✔ {what}",
    "check.failed": "✘ {message}",
    "check.not_tensor": "`{name}` should be a torch.Tensor, got {got_type}.",
    "check.wrong_type": "`{name}` should be {expected}, got {got_type}.",
    "check.shape": "`{name}` should have shape {expected}, got {got}.",
    "check.dtype": "`{name}` should have dtype {expected}, got {got}.",
    "check.device": "`{name}` should be on device '{expected}', got '{got}'.",
    "check.requires_grad": "`{name}`.requires_grad should be {expected}, got {got}.",
    "check.values": (
        "`{name}` has the right shape but wrong values: "
        "largest difference {max_diff:.3g} at index {where} "
        "(expected {expected_value}, got {got_value})."
    ),
    "check.equal": "`{name}` should be {expected!r}, got {got!r}.",
    "check.not_none": (
        "`{name}` is None: a function that forgot `return`, or a `.grad` that no gradient reached?"
    ),
    "check.finite": "`{name}` contains NaN or infinity.",
    "data.mnist_missing": (
        "The course's MNIST sample is not in {folder}. It comes with the course: get a fresh copy of the "
        "course folder (nothing is downloaded while you work)."
    ),
    "data.mnist_unavailable": (
        "MNIST could not be read or fetched into {folder} (PTCOURSE_MNIST_ROOT is set: the full set is "
        "downloaded there once, which needs a connection): {error}. Unset PTCOURSE_MNIST_ROOT to use the "
        "course's own sample."
    ),
    "setup.summary": "torch {torch} | device: {device} | threads: {threads} | seed: {seed}",
}
