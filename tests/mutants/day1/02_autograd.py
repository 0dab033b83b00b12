"""Wrong answers for day1/02_autograd."""

from tools.mutants import Mutant

MUTANTS = [
    # Exercise 1: classic_grad
    Mutant("autograd_classic_grad", "forgets requires_grad", expect=r"forget \.requires_grad_\(True\)",
           replace=[(".requires_grad_(True)", "")], caught_by="visible", msgid="autograd.no_requires_grad"),
    Mutant("autograd_classic_grad", "backward on a vector", expect=r"needs a single number.*y\.sum\(\)\.backward\(\)",
           replace=[("y.sum().backward()", "y.backward()")], caught_by="visible", msgid="autograd.backward_not_scalar"),
    Mutant("autograd_classic_grad", "returns y instead of the gradient", expect=r"which is y = x\*\*2 \+ 3x \+ 1 itself",
           replace=[("return x.grad", "return y")], caught_by="visible", msgid="autograd.returned_y"),
    Mutant("autograd_classic_grad", "requires_grad on the caller's tensor: gradients pile up across calls",
           expect=r"second time on the same input.*accumulated in \.grad",
           replace=[("values.clone().requires_grad_(True)", "values.requires_grad_(True)")], caught_by="hidden", msgid="autograd.grad_doubled"),
    Mutant("autograd_classic_grad", "types the formula instead of using autograd", expect=r"never ran backward\(\)",
           code="def classic_grad(values):\n    return 2 * values + 3\n", caught_by="hidden", msgid="autograd.classic_no_backward"),
    # Exercise 2: batch_grads
    Mutant("autograd_batch_grads", "never clears w.grad", expect=r"gradients accumulated in w\.grad.*before each backward",
           replace=[("        if w.grad is not None:\n            w.grad.zero_()\n", "")], caught_by="visible", msgid="autograd.batch_accumulated"),
    Mutant("autograd_batch_grads", "stores w.grad itself, not a copy", expect=r"the very same tensor.*w\.grad\.clone\(\)",
           replace=[("grads.append(w.grad.clone())", "grads.append(w.grad)")], caught_by="visible", msgid="autograd.batch_same_tensor"),
    Mutant("autograd_batch_grads", "zero_grad between backward and reading the gradient",
           expect=r"cleared after backward\(\) and before you read it",
           code=("def batch_grads(w, batches):\n    grads = []\n    for X, y in batches:\n"
                 "        loss = ((X @ w - y) ** 2).mean()\n        loss.backward()\n"
                 "        w.grad.zero_()\n        grads.append(w.grad.clone())\n    return grads\n"), caught_by="visible", msgid="autograd.batch_zero"),
    Mutant("autograd_batch_grads", "clears w.grad only at the end of each step", expect=r"includes the old gradient",
           code=("def batch_grads(w, batches):\n    grads = []\n    for X, y in batches:\n"
                 "        loss = ((X @ w - y) ** 2).mean()\n        loss.backward()\n"
                 "        grads.append(w.grad.clone())\n        w.grad.zero_()\n    return grads\n"), caught_by="hidden", msgid="autograd.batch_stale"),
    # Exercise 3: mse_grad
    # issue 23: more wrong answers from the lesson's own formulas
    Mutant("autograd_batch_grads", "sums the squared errors instead of averaging", expect=r"batch_grads\(w, batches\)\[0\]",
           replace=[("loss = ((X @ w - y) ** 2).mean()", "loss = ((X @ w - y) ** 2).sum()")], caught_by="visible", msgid="check.values"),
    Mutant("autograd_mse_grad", "divides by the number of weights D instead of the samples N", expect=r"mse_grad\(X, w, y\)",
           replace=[("n = X.shape[0]", "n = X.shape[1]")], caught_by="visible", msgid="check.values"),
    Mutant("autograd_stop_gradient_loss", "detaches w itself (no gradient at all)", expect=r"graph|grad",
           replace=[("    prediction = torch.tanh(x_a @ w)\n", "    w = w.detach()\n    prediction = torch.tanh(x_a @ w)\n")],
           caught_by="visible", msgid="autograd.sg_no_grad"),
    Mutant("autograd_mse_grad", "forgets the factor 2", expect=r"exactly half.*factor 2",
           replace=[("2 / n * ", "1 / n * ")], caught_by="visible", msgid="autograd.mse_missing_2"),
    Mutant("autograd_mse_grad", "forgets to divide by N", expect=r"8 times too big.*divide by N",
           replace=[("2 / n * ", "2 * ")], caught_by="visible", msgid="autograd.mse_missing_n"),
    Mutant("autograd_mse_grad", "X instead of X.T", expect=r"shape error.*multiply it by X\.T",
           replace=[("X.T @ residual", "X @ residual")], caught_by="visible", msgid="autograd.mse_shape_error"),
    Mutant("autograd_mse_grad", "residual the wrong way round", expect=r"wrong sign.*X @ w - y",
           replace=[("residual = X @ w - y", "residual = y - X @ w")], caught_by="visible", msgid="autograd.mse_sign"),
    Mutant("autograd_mse_grad", "uses backward() instead of the formula", expect=r"fails inside torch\.no_grad\(\)",
           code=("def mse_grad(X, w, y):\n    w = w.clone().requires_grad_(True)\n"
                 "    ((X @ w - y) ** 2).mean().backward()\n    return w.grad\n"), caught_by="hidden", msgid="autograd.mse_used_autograd"),
    # Exercise 4: softplus
    Mutant("autograd_softplus", "the formula as it reads", expect=r"softplus\(1000\.0\) in torch\.float32 gave inf.*overflowed",
           code="def softplus(x):\n    return torch.log(1 + torch.exp(x))\n", caught_by="visible", msgid="autograd.softplus_overflow"),
    Mutant("autograd_softplus", "log instead of log1p", expect=r"softplus\(-30\.0\).*use torch\.log1p",
           replace=[("torch.log1p(torch.exp(-x.abs()))", "torch.log(1 + torch.exp(-x.abs()))")], caught_by="visible", msgid="autograd.softplus_value"),
    Mutant("autograd_softplus", "torch.where with the unstable branch", expect=r"gradient of softplus at x = -?1000\.0 is nan",
           code=("def softplus(x):\n    return torch.where(x > 0, x + torch.log1p(torch.exp(-x)),"
                 " torch.log1p(torch.exp(x)))\n"), caught_by="visible", msgid="autograd.softplus_nan_grad"),
    Mutant("autograd_softplus", "computes in NumPy and converts back", expect=r"does not require grad although x does",
           code=("import numpy as np\n\n\ndef softplus(x):\n"
                 "    return torch.from_numpy(np.logaddexp(0, x.detach().numpy()))\n"), caught_by="visible", msgid="autograd.softplus_no_graph"),
    Mutant("autograd_softplus", "the old model answer: clamp(x, min=0) has slope 0 at the kink",
           expect=r"gradient of softplus at x = 0 \(torch\.float32\) is 0\.0, expected 0\.5",
           replace=[("0.5 * (x + x.abs())", "torch.clamp(x, min=0)")], caught_by="visible", msgid="autograd.softplus_kink"),
    Mutant("autograd_softplus", "relu for max(x, 0)", expect=r"at x = 0 .* is 0\.0, expected 0\.5.*corner",
           replace=[("0.5 * (x + x.abs())", "torch.relu(x)")], caught_by="visible", msgid="autograd.softplus_kink"),
    Mutant("autograd_softplus", "torch.where(x >= 0, x, 0): slope 1 at the kink", expect=r"at x = 0 .* is 1\.0, expected 0\.5",
           replace=[("0.5 * (x + x.abs())", "torch.where(x >= 0, x, 0.0)")], caught_by="visible", msgid="autograd.softplus_kink"),
    Mutant("autograd_softplus", "max(x, 0) as x * (x > 0)", expect=r"at x = 0 .* is 0\.0, expected 0\.5",
           replace=[("0.5 * (x + x.abs())", "x * (x > 0)")], caught_by="visible", msgid="autograd.softplus_kink"),
    # Exercise 5: stop_gradient_loss
    Mutant("autograd_stop_gradient_loss", "no stop-gradient", expect=r"gradient through the target as well",
           replace=[("torch.tanh(x_b @ w).detach()", "torch.tanh(x_b @ w)")], caught_by="visible", msgid="autograd.sg_no_detach"),
    Mutant("autograd_stop_gradient_loss", "detaches the prediction instead", expect=r"detached the prediction instead",
           replace=[("torch.tanh(x_b @ w).detach()", "torch.tanh(x_b @ w)"),
                    ("prediction = torch.tanh(x_a @ w)", "prediction = torch.tanh(x_a @ w).detach()")], caught_by="visible", msgid="autograd.sg_wrong_branch"),
    Mutant("autograd_stop_gradient_loss", "the whole loss under no_grad", expect=r"loss does not require grad",
           code=("def stop_gradient_loss(w, x_a, x_b):\n    with torch.no_grad():\n"
                 "        prediction = torch.tanh(x_a @ w)\n        target = torch.tanh(x_b @ w)\n"
                 "        return ((prediction - target) ** 2).mean()\n"), caught_by="visible", msgid="autograd.sg_no_grad"),
    Mutant("autograd_stop_gradient_loss", "returns loss.item()", expect=r"returned a float.*\.item\(\)",
           replace=[("return ((prediction - target) ** 2).mean()",
                     "return ((prediction - target) ** 2).mean().item()")], caught_by="visible", msgid="autograd.sg_not_tensor"),
    # Exercise 6: grow_until
    Mutant("autograd_grow_until", "a fixed number of doublings", expect=r"should be doubled 3 times.*depends on\s+x",
           code="def grow_until(x, limit):\n    y = x\n    for _ in range(5):\n        y = 2 * y\n    return y\n", caught_by="hidden", msgid="autograd.grow_count"),
    Mutant("autograd_grow_until", "< instead of <=", expect=r"norm 5\) and limit 20\.0, x should be doubled 3 times",
           replace=[("y.norm() <= limit", "y.norm() < limit")], caught_by="hidden", msgid="autograd.grow_count"),
    Mutant("autograd_grow_until", "doubles in place", expect=r"changed x in place.*y = 2 \* y",
           replace=[("y = 2 * y", "y *= 2")], caught_by="visible", msgid="autograd.grow_inplace"),
    Mutant("autograd_grow_until", "rebuilds the result with torch.tensor", expect=r"does not require grad: it left x's graph",
           replace=[("return y", "return torch.tensor(y.tolist())")], caught_by="visible", msgid="autograd.grow_no_graph"),
]
