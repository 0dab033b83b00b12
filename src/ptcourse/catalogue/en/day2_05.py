"""Messages of day2/05_reproducibility."""

MESSAGES = {
    "repro.seed_repeat": (
        "After set_seed({seed}) twice, {library} gave different numbers ({first} then {second}): "
        "set_seed() must also call {fix}."
    ),
    "repro.seed_ignored": (
        "set_seed(1) and set_seed(2) gave the same numbers from {library}: seed it with the "
        "`seed` argument, not with a fixed number."
    ),
    "repro.run_list": "run(seed, epochs={epochs}) should return a list of {epochs} losses (one per epoch), got {got!r}.",
    "repro.run_floats": (
        "run() should return plain Python floats, got {got_types}: add up loss.item(), not the "
        "loss tensor."
    ),
    "repro.run_not_reproducible": (
        "run({seed}) gave different losses on two calls: {first} then {second}. Call set_seed(seed) "
        "first thing in run(), before the data, the model and the DataLoader are made, and seed the "
        "DataLoader's generator with manual_seed(seed)."
    ),
    "repro.run_no_augment": (
        "run() never called augment(xb): step 5 asks for xb = augment(xb) on every batch, before the "
        "forward pass."
    ),
    "repro.run_loader_generator": (
        "run(7) shuffled the data in a different order once the model drew more random numbers while "
        "it was built: the DataLoader has no generator of its own, so its order comes from torch's "
        "global generator and changes with anything else that draws from it (a wider layer, one more "
        "dropout). Give it its own: DataLoader(..., shuffle=True, "
        "generator=torch.Generator().manual_seed(seed))."
    ),
    "repro.run_ignores_seed": (
        "run(1) and run(2) gave exactly the same losses {losses}: the seed argument is not used. "
        "Pass it to set_seed() and to the generator's manual_seed()."
    ),
    "repro.run_batches": (
        "run({seed}, epochs={epochs}) computed nn.functional.cross_entropy on {got} batches; {samples} "
        "samples in batches of 32 make {expected} in {epochs} epochs. Use batch_size=32, go through "
        "the whole loader once per epoch, and compute one loss per batch."
    ),
    "repro.run_no_backward": (
        "run({seed}, epochs={epochs}) called loss.backward() {got} time(s) for {expected} batches: "
        "without it the model gets no gradients and does not learn. Call loss.backward() once per "
        "batch, after computing the loss."
    ),
    "repro.run_no_step": (
        "run({seed}, epochs={epochs}) called optimizer.step() {got} time(s) for {expected} batches: "
        "without it the weights never change and the model does not learn. Call optimizer.step() "
        "once per batch, after loss.backward()."
    ),
    "repro.run_no_zero_grad": (
        "run() called loss.backward() twice without zeroing the gradients in between, so each step "
        "used the gradients of every earlier batch added up. Call optimizer.zero_grad() on every "
        "batch, before loss.backward()."
    ),
    "repro.run_step_before_backward": (
        "run() called optimizer.step() without fresh gradients of its batch: loss.backward() did not "
        "run since the previous step, or the gradients were zeroed after it. The order is: zero the "
        "gradients, loss, backward, step."
    ),
    "repro.run_train_mode": (
        "run() trained a model left in evaluation mode (dropout off) on {batches} of {total} batches: "
        "call model.train() at the start of every epoch."
    ),
    "repro.run_losses": (
        "run({seed}, epochs={epochs}) returned {got}, but the mean training losses of its epochs, "
        "from the losses it computed, are {expected}. Each epoch's value is the sum of "
        "loss.item() * len(xb) over its batches, divided by len(x) (the last batch may be smaller)."
    ),
    "repro.run_recipe": (
        "run({seed}, epochs={epochs}) gave {got}, but the recipe of the exercise gives {expected}: "
        "check each setting against its list (SGD with lr=0.1, batch_size=32, the generator "
        "seeded with manual_seed(seed), cross-entropy, augment(xb) on every batch)."
    ),
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "repro.demo_unseeded": "unseeded:",
    "repro.demo_seeded": "seeded:  ",
    "repro.demo_final_loss": "seed {seed}: final loss {loss:.4f}",
    "repro.demo_spread": "spread between seeds: {spread:.4f}",
    "repro.demo_deterministic_on": "deterministic mode on:",
    "repro.demo_empty": "torch.empty(3) in deterministic mode:",
    "repro.demo_timing": "deterministic={deterministic:5}  best of 3: {ms:6.1f} ms  final loss {loss:.6f}",
    "repro.fig_train_loss": "train loss",
    "repro.fig_val_accuracy": "validation accuracy",
    "repro.fig_loss_accuracy": "loss / accuracy",
    "repro.fig_log_notice": "Notice the training loss falling while the validation accuracy climbs and levels off.",
    "repro.fig_lr": "learning rate",
    "repro.fig_lr_notice": "Notice the learning rate halving every two epochs (StepLR).",
}
