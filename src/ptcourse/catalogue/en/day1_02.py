"""Messages of day1/02_autograd."""

MESSAGES = {
    "autograd.no_requires_grad": (
        "{function}() stopped in backward(): \"element 0 of tensors does not require grad\". "
        "Nothing in y was recorded by autograd: did you forget .requires_grad_(True) on the copy "
        "of the input?"
    ),
    "autograd.backward_not_scalar": (
        "backward() needs a single number to start from, but y holds one value per point "
        "(\"grad can be implicitly created only for scalar outputs\"). Call y.sum().backward()."
    ),
    "autograd.returned_y": (
        "classic_grad() returned {got}, which is y = x**2 + 3x + 1 itself ({y}), not its "
        "gradient: return the .grad of the tensor that requires grad."
    ),
    "autograd.classic_no_backward": (
        "classic_grad() gives the right numbers but never ran backward(): let autograd compute "
        "the gradient instead of typing the formula 2x + 3."
    ),
    "autograd.grad_doubled": (
        "Calling {function}() a second time on the same input gave {got} instead of {expected}: "
        "the gradient accumulated in .grad. Work on a copy (values.clone().requires_grad_(True)) "
        "so each call starts from a fresh leaf with no old gradient."
    ),
    "autograd.changed_input": (
        "classic_grad() switched on requires_grad for the caller's tensor. Work on a copy: "
        "values.clone().requires_grad_(True)."
    ),
    "autograd.batch_count": "batch_grads() should return one gradient per batch ({expected}), got {got}.",
    "autograd.batch_same_tensor": (
        "Some gradients in the list are the very same tensor: w.grad is reused (and zeroed in "
        "place), so every entry you stored changed with it. Append w.grad.clone()."
    ),
    "autograd.batch_zero": (
        "Every gradient batch_grads() returned is zero: .grad was cleared after backward() and "
        "before you read it. Clear it before backward()."
    ),
    "autograd.batch_accumulated": (
        "The gradient for batch {batch} is {got}, the sum of the gradients of batches 1 to {batch}; "
        "that batch alone gives {expected}. Gradients accumulated in w.grad. Clear w.grad (w.grad.zero_() or w.grad = None) before "
        "each backward(), as optimizer.zero_grad() does in a training loop."
    ),
    "autograd.batch_stale": (
        "The first batch's gradient includes the old gradient that w.grad held before the call: "
        "clear w.grad before each backward(), not only after it."
    ),
    "autograd.mse_shape_error": (
        "mse_grad() raised a shape error: {error}. The residual X @ w - y has shape (N,); to get "
        "one number per weight, shape (D,), multiply it by X.T, of shape (D, N)."
    ),
    "autograd.mse_missing_2": (
        "mse_grad() is exactly half of the true gradient: the derivative of r**2 is 2r, so the "
        "formula has a factor 2."
    ),
    "autograd.mse_missing_n": (
        "mse_grad() is {n} times too big (N = {n}): the loss is a mean, so divide by N, the "
        "number of rows of X."
    ),
    "autograd.mse_sign": (
        "mse_grad() has the right size but the wrong sign: the residual is prediction minus "
        "target, X @ w - y."
    ),
    "autograd.mse_used_autograd": (
        "mse_grad() fails inside torch.no_grad(), where autograd records nothing: compute the "
        "gradient from the formula 2 / N * X.T @ (X @ w - y), without backward()."
    ),
    "autograd.softplus_overflow": (
        "softplus({x}) in {dtype} gave {got}: exp(x) overflowed. Use the stable form "
        "max(x, 0) + log1p(exp(-|x|)), where exp never sees a positive number."
    ),
    "autograd.softplus_value": (
        "softplus({x}) in {dtype} should be {expected:.6g}, got {got:.6g}. For very negative x, "
        "log(1 + tiny) rounds to 0: use torch.log1p(t), which keeps the tiny value."
    ),
    "autograd.softplus_no_graph": (
        "softplus(x) does not require grad although x does: the computation left autograd "
        "(NumPy, .detach(), .item() or torch.tensor(...) cut the graph). Use torch operations only."
    ),
    "autograd.softplus_nan_grad": (
        "The gradient of softplus at x = {x} is {got}, although the value may look fine. Some "
        "formula computed exp of a large number (inf) and backward multiplied it by 0, giving nan; "
        "torch.where computes and backpropagates through both branches. Use a single formula "
        "that never overflows: max(x, 0) + log1p(exp(-|x|))."
    ),
    "autograd.softplus_kink": (
        "The gradient of softplus at x = 0 ({dtype}) is {got}, expected 0.5 (= sigmoid(0)). "
        "max(x, 0) and |x| have a corner at 0, and autograd picks one slope per operation there: "
        "clamp, relu and torch.where(x > 0, ...) give 0 (or 1 with x >= 0), abs gives 0, so the "
        "pieces add up to the wrong slope. Write max(x, 0) with x and x.abs() so that its slope "
        "at 0 comes out as 1/2."
    ),
    "autograd.softplus_gradcheck": (
        "softplus() failed torch.autograd.gradcheck on float64 inputs of scale {scale}: {error}"
    ),
    "autograd.sg_not_tensor": (
        "stop_gradient_loss() returned a {got_type}, not a tensor: .item() turns the loss into a "
        "plain number with no graph, so backward() is impossible. Return the tensor."
    ),
    "autograd.sg_not_scalar": (
        "stop_gradient_loss() should return one number (shape ()), got shape {shape}: take the "
        ".mean() of the squared differences."
    ),
    "autograd.sg_no_grad": (
        "The loss does not require grad, so no gradient can reach w: you cut the whole "
        "computation from the graph. Detach only the target."
    ),
    "autograd.sg_no_detach": (
        "w.grad includes the gradient through the target as well: the target was not cut from "
        "the graph. Use torch.tanh(x_b @ w).detach() (or compute it under torch.no_grad())."
    ),
    "autograd.sg_wrong_branch": (
        "w.grad is the gradient through the target only: you detached the prediction instead "
        "of the target."
    ),
    "autograd.grow_inplace": (
        "grow_until() changed x in place (y *= 2 while y is still x, a leaf that requires grad), "
        "which autograd forbids. Write y = 2 * y: a new tensor at each step."
    ),
    "autograd.grow_no_graph": (
        "The result of grow_until() does not require grad: it left x's graph (torch.tensor(...), "
        ".item(), .tolist() or .detach() make new tensors with no history). Keep using tensor "
        "operations on y."
    ),
    "autograd.grow_count": (
        "For x = {x} (norm {norm:.3g}) and limit {limit}, x should be doubled {k} times "
        "(gradient {expected} everywhere), got gradient {got}. The number of doublings depends on "
        "x: keep doubling in a while loop as long as y.norm() <= limit (a norm equal to the limit "
        "still doubles)."
    ),
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "autograd.demo_is_leaf": "{name} is a leaf:",
    "autograd.demo_points_back": "y's grad_fn points back to:",
    "autograd.fig_graph_title": "The graph autograd recorded for z = (a * b + exp(a)).sum()",
    "autograd.fig_graph_notice": "Notice that a feeds two operations (the product and exp), so backward() reaches a's leaf by two paths and adds the two contributions.",
    "autograd.demo_after_backward": "after backward #{step}: w.grad = {grad}",
    "autograd.demo_after_zero": "after zero_() and one backward:",
    "autograd.demo_estimate": "{dtype:14} estimate {estimate:.10f}   error {error:.1e}",
    "autograd.demo_passes_gradcheck": "{name} passes gradcheck:",
    "autograd.demo_gradient_at_zero": "gradient at 0 and at 0.001:",
    "autograd.demo_true_slope": "sigmoid (the true slope):",
    "autograd.demo_under_no_grad": "computed under no_grad, requires_grad =",
    "autograd.demo_step_by_hand": "after one gradient-descent step by hand:",
    "autograd.demo_only_through_b": "a.grad = {grad} (only through b; without detach it would be twice as big)",
    "autograd.demo_through_round": "gradient through round:",
    "autograd.demo_via_numpy": "via NumPy and back, requires_grad:",
    "autograd.demo_out_of_place": "out of place, it works:",
    "autograd.demo_branch": "x = {start}: graph {graph}, x.grad = {grad}",
    "autograd.name_stale_batch_grad": "batch_grads(w, batches)[{i}] (w arrived with an old gradient)",
    "autograd.name_softplus_grad": "the gradient of softplus(x) in {dtype}",
}
