"""Messages of day2/01_linear_regression."""

MESSAGES = {
    "linreg.data_pair": "make_data() should return a pair (x, y), got {got} values.",
    # Exercise 1: make_data
    "linreg.data_broadcast": (
        "`y` has shape {got}, a square table instead of a column: x is ({n}, 1) but the noise "
        "has shape ({n},), and broadcasting turned their sum into {n} × {n} numbers. Draw the "
        "noise with shape ({n}, 1): torch.randn(n, 1, generator=generator)."
    ),
    "linreg.data_range": (
        "x should lie in [{low}, {high}], but its values run from {got_min:.3g} to {got_max:.3g}. "
        "torch.rand gives numbers uniform in [0, 1); stretch and shift them: "
        "low + (high - low) * torch.rand(n, 1, generator=generator)."
    ),
    "linreg.data_line": (
        "The points do not follow y = {w}·x + {b}: a least-squares fit of your x and y gives "
        "w = {got_w:.3f}, b = {got_b:.3f}. Compute y = w * x + b + noise * (standard normal noise)."
    ),
    "linreg.data_noise": (
        "The points scatter around the line with standard deviation {got:.3g}; it should be about "
        "{expected:.3g}. Multiply the standard normal noise by `noise`."
    ),
    "linreg.data_generator": (
        "Two calls with generators seeded alike ({seed}) gave different data: pass "
        "generator=generator to both torch.rand and torch.randn, so that the same seed gives the "
        "same data."
    ),
    # Exercise 2: train
    "linreg.backward_failed": (
        "train() stopped with: {error} — loss.backward() found no graph leading back to the "
        "model. Compute the loss from model(x) with gradients on: no .detach() or .item() on the "
        "prediction or the loss, no torch.no_grad() around the forward pass."
    ),
    "linreg.history_length": (
        "train(..., epochs={epochs}) should return {epochs} losses, one per epoch, got {got}."
    ),
    "linreg.history_items": (
        "The losses train() returns should be plain Python numbers, got {got_type}: append "
        "loss.item(). Keeping the loss tensors also keeps every epoch's graph in memory."
    ),
    "linreg.no_update": (
        "After {epochs} epoch(s) of train() the model's parameters have not moved "
        "(w = {w:.5g}, b = {b:.5g}). optimizer.step() must come after loss.backward() and before "
        "the next optimizer.zero_grad(), and train() must train the model it is given, not a new "
        "nn.Linear."
    ),
    "linreg.accumulated": (
        "After {epochs} epochs train() gave w = {got_w:.5g}, b = {got_b:.5g}: exactly what you get "
        "when the gradients of all epochs are added up. The gradients kept growing: call "
        "optimizer.zero_grad() in every epoch, before loss.backward(). Plain gradient descent "
        "gives w = {expected_w:.5g}, b = {expected_b:.5g}."
    ),
    "linreg.sgd_mismatch": (
        "After {epochs} epochs with lr={lr}, gradient descent on the MSE gives w = {expected_w:.5g}, "
        "b = {expected_b:.5g}; your train() gave w = {got_w:.5g}, b = {got_b:.5g}. Use "
        "torch.optim.SGD(model.parameters(), lr=lr) with the lr passed in, nn.MSELoss(), and one "
        "step per epoch."
    ),
    "linreg.history_values": (
        "losses[{epoch}] should be the loss computed in epoch {epoch}, before that epoch's update: "
        "{expected:.6g}, got {got:.6g}."
    ),
    "linreg.not_converged": (
        "With lr={lr} and {epochs} epochs, train() ended at w = {got_w:.4f}, b = {got_b:.4f}, but "
        "the least-squares line for these data is w = {best_w:.4f}, b = {best_b:.4f} (the loss went "
        "from {first:.4g} to {last:.4g}). Gradient descent with these settings reaches it, so the "
        "loop itself is off: check zero_grad, the order of backward and step, and the lr."
    ),
    "linreg.not_monotone": (
        "The loss went up during training (epoch {epoch}: {before:.6g} → {after:.6g}). Full-batch "
        "gradient descent on the MSE with a safe learning rate never increases the loss: do the "
        "gradients accumulate (no optimizer.zero_grad())?"
    ),
    # Exercise 3: pick_hyperparameters
    "linreg.hyper_type": "pick_hyperparameters() should return a pair (lr, epochs), got {got!r}.",
    "linreg.lr_value": "pick_hyperparameters() should return a positive learning rate first, got {got!r}.",
    "linreg.epochs_value": (
        "pick_hyperparameters() should return a whole number of epochs between 1 and {max_epochs}, "
        "got {got!r}. (A tiny learning rate with very many epochs converges too, but slowly: find a "
        "learning rate that needs at most {max_epochs}.)"
    ),
    "linreg.diverged": (
        "With lr={lr} the loss did not settle: it went from {first:.4g} to {last:.4g}. A learning "
        "rate that large overshoots across the valley, so every step makes things worse (then inf, "
        "then NaN): make it smaller, safely below 2 / λ_max."
    ),
    "linreg.hyper_not_converged": (
        "With lr={lr} and {epochs} epochs, SGD did not converge: it ended at w = {got_w:.4f}, "
        "b = {got_b:.4f}, but the least-squares line is w = {best_w:.4f}, b = {best_b:.4f}. The loss "
        "went from {first:.4g} to {last:.4g}, the best possible is {best_loss:.4g}: it had not "
        "finished falling. Raise the learning rate (staying below the safe limit) or train for "
        "more epochs."
    ),
    # Exercise 4: standardise, to_original_units
    "linreg.std_inplace": (
        "standardise() changed the x you passed in (its first value went from {before:.5g} to "
        "{after:.5g}): `x -= mean` and `x /= std` work in place on the caller's tensor. Write "
        "z = (x - mean) / std, which makes a new tensor."
    ),
    "linreg.std_z": (
        "z should have mean 0 and standard deviation 1, got mean {got_mean:.3g} and standard "
        "deviation {got_std:.3g}. Subtract the mean, then divide by the standard deviation "
        "(x.std(), not the variance x.var())."
    ),
    "linreg.std_stats": (
        "standardise() returned mean = {got_mean:.5g} and std = {got_std:.5g}, but x has mean "
        "{mean:.5g} and standard deviation {std:.5g} (x.mean(), x.std())."
    ),
    "linreg.units": (
        "to_original_units({w_z}, {b_z}, mean, std) gave w = {got_w:.5g}, b = {got_b:.5g}; the same "
        "line written for raw x is w = {expected_w:.5g}, b = {expected_b:.5g}. From "
        "w_z·(x − mean)/std + b_z: w = w_z / std and b = b_z − w_z·mean / std."
    ),
    "linreg.std_fit": (
        "Fitted on standardised x and converted back, the line is w = {got_w:.4f}, b = {got_b:.4f}; "
        "least squares on the raw data gives w = {best_w:.4f}, b = {best_b:.4f}. Check "
        "to_original_units(), and that standardise() returns the mean and std it used."
    ),
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "linreg.demo_fit": "w = {w:.3f}, b = {b:.3f}, last loss = {loss:.4f}",
    "linreg.fig_recipe_series": "SGD lr=0.01, 100 epochs",
    "linreg.fig_recipe_title": "The printed recipe",
    "linreg.fig_recipe_notice": "Notice that the loss falls from about 12.9 to about 0.13 and the curve looks like training, yet the line found is not w = 3, b = 2.",
    "linreg.demo_autograd": "autograd:",
    "linreg.demo_by_hand": "by hand: ",
    "linreg.demo_second_backward": "after a second backward(): {grad} (twice the value above)",
    "linreg.fig_with_zero_grad": "with zero_grad",
    "linreg.fig_without_zero_grad": "without zero_grad",
    "linreg.fig_zero_grad_notice": "Notice that without zero_grad the loss oscillates instead of settling: each step uses the sum of all earlier gradients.",
    "linreg.demo_least_squares": "least squares: w = {w:.4f}, b = {b:.4f}, loss = {loss:.4f}  (noise² = 0.01)",
    "linreg.demo_the_recipe": "the recipe:    w = {w:.4f}, b = {b:.4f}, loss = {loss:.4f}",
    "linreg.demo_start": "start w = {w0:+.2f}, b = {b0:+.2f}  →  w = {w:.2f}, b = {b:.2f}",
    "linreg.demo_largest_safe_lr": "largest safe lr: 2 / λ_max = {lr:.2f}",
    "linreg.demo_left": "lr = {lr}: after 100 steps, {left:.0%} of the starting distance along the valley is left",
    "linreg.fig_least_squares": "least squares",
    "linreg.fig_paths_alt": "Contour plot of the loss over w (horizontal) and b (vertical), with the paths of 100 gradient-descent steps from w = 0.83, b = -0.48 for lr = 0.01 (red) and lr = 0.5 (green), and a star at the least-squares solution.",
    "linreg.fig_paths_notice": "Notice that both paths first drop quickly into the long narrow valley, and that lr = 0.01 then crawls along it while lr = 0.5 reaches the star.",
    "linreg.demo_sweep": "lr = {lr:4}: w = {w:10.3f}, b = {b:10.3f}, last loss = {loss:.4g}",
    "linreg.fig_sweep_title": "100 epochs of full-batch SGD",
    "linreg.fig_sweep_notice": "Notice that lr = 0.01 stalls, 0.1 and 0.5 converge, and 0.85, just above the safe limit 2 / λ_max ≈ 0.8, does not settle.",
    "linreg.demo_blowup": "lr = 1.0: loss {first:.3g} → {later:.3g} after 60 epochs → NaN from epoch {nan}",
    "linreg.demo_raw_x": "raw x",
    "linreg.demo_centred": "centred",
    "linreg.demo_standardised": "standardised",
    "linreg.demo_conditioning": "{name:13} λ_min = {low:8.4f}  λ_max = {high:8.2f}  safe lr < {safe:.4f}  λ_max / λ_min = {ratio:,.0f}",
    "linreg.demo_raw_fit": "raw x, lr 0.008, 500 epochs: w = {w:.4f}, b = {b:.4f}; least squares: w = {best_w:.4f}, b = {best_b:.4f}",
    "linreg.demo_standardised_fit": "standardised, lr 0.5, 20 epochs: w = {w:.4f}, b = {b:.4f}; least squares: w = {best_w:.4f}, b = {best_b:.4f}",
    "linreg.fig_standardised_series": "standardised x",
    "linreg.fig_standardised_title": "x in [10, 12], standardised",
    "linreg.fig_standardised_notice": "Notice that with standardised inputs the loss settles within 20 epochs, where raw x needed tens of thousands.",
}
