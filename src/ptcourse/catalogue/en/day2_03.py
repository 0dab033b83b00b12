"""Messages of day2/03_cnn_mnist."""

MESSAGES = {
    # Exercise 1: prepare_images
    "cnn.prep_channel": (
        "prepare_images() returned shape {got}: Conv2d wants (batch, channels, height, width), "
        "so add the channel dimension with images.unsqueeze(1), giving (N, 1, H, W)."
    ),
    "cnn.prep_scale": (
        "prepare_images() gives values up to {got_max:.0f}, but after the v2 transforms they stay "
        "below about 3. ToDtype(torch.float32, scale=True) divides by 255 first: "
        "(images / 255 - MEAN) / STD."
    ),
    # Exercise 2: conv_output_size
    "cnn.size_type": (
        "conv_output_size() should return an int, got {got_type} ({got!r}): use floor division // "
        "(a layer cannot output half a row)."
    ),
    "cnn.size": (
        "conv_output_size({size}, {kernel}, stride={stride}, padding={padding}) should be {expected} "
        "(what PyTorch computes), got {got}. The rule: floor((size + 2·padding − kernel) / stride) + 1."
    ),
    # Exercise 3: SimpleCNN
    "cnn.layer": "SimpleCNN should have a layer self.{name} that is an {kind}.",
    "cnn.fc1_size": (
        "With c2={c2} and image_size={image_size}, the feature map before fc1 is {shape} = {flat} "
        "values per image, but fc1.in_features is {in_features}. Compute it from the sizes "
        "(conv, pool, conv, pool with conv_output_size) instead of writing a number."
    ),
    "cnn.forward_error": (
        "SimpleCNN's forward raised: {error}. Check that forward applies conv1 → ReLU → pool → conv2 "
        "→ ReLU → pool (both pools), and flattens with torch.flatten(x, 1), which keeps the batch "
        "dimension."
    ),
    "cnn.forward_channels_last": (
        "SimpleCNN works on ordinary tensors but raised {error} once the model uses the "
        "channels_last memory format (as in section 4). x.view(...) only relabels memory laid out "
        "in order: flatten with torch.flatten(x, 1), or x.reshape(x.size(0), -1), instead."
    ),
    "cnn.channels": (
        "SimpleCNN(c1={c1}, c2={c2}) should have conv1 with {c1} output channels and conv2 going "
        "from {c1} to {c2} channels; got (conv1 out, conv2 in, conv2 out) = {got}."
    ),
    "cnn.hidden": (
        "SimpleCNN(hidden={hidden}) should have fc1 with {hidden} outputs and fc2 from {hidden} to "
        "10; got (fc1 out, fc2 in, fc2 out) = {got}."
    ),
    "cnn.forward_order": (
        "SimpleCNN's output differs (by up to {diff:.3g}) from conv1 → ReLU → pool → conv2 → ReLU "
        "→ pool → flatten → fc1 → ReLU → fc2 computed with its own layers: check the order, and "
        "that every ReLU is there (none after fc2)."
    ),
    # Exercise 4: train_one_epoch
    "cnn.train_return_type": (
        "train_one_epoch() should return a Python number, got {got_type}: add up loss.item() (a "
        "float), not the loss tensor; a tensor keeps every batch's autograd graph alive."
    ),
    "cnn.train_batches": (
        "loss_fn was called {got} time(s) for {expected} batches: compute the loss once per batch, "
        "inside the loop over the loader."
    ),
    "cnn.train_last_loss": (
        "train_one_epoch() returned {got:.4f}, the last batch's loss; it should return the mean "
        "of all batch losses, {expected:.4f}. Add up loss.item() over the epoch and divide by the "
        "number of batches."
    ),
    "cnn.train_mean": (
        "train_one_epoch() should return the mean of the {n} batch losses, {expected:.4f}, got "
        "{got:.4f}."
    ),
    "cnn.train_no_update": (
        "The weights did not change during train_one_epoch(): call loss.backward() and then "
        "optimizer.step() for every batch."
    ),
    "cnn.train_scheduler": (
        "scheduler.step() was called {got} time(s) in an epoch of {batches} batches: OneCycleLR is "
        "stepped after every optimizer.step(), inside the loop (and only if a scheduler was given)."
    ),
    "cnn.train_mode": (
        "During train_one_epoch() the model ran with model.training = {modes}: it had been left in "
        "eval mode, so dropout stayed off. Call model.train() at the start of train_one_epoch() "
        "(evaluate() switches the model to eval mode)."
    ),
    "cnn.train_steps": (
        "optimizer.step() ran {steps} time(s) and loss_fn {losses} time(s) for {batches} batches: "
        "both belong inside the loop, once per batch."
    ),
    "cnn.grad_empty": (
        "At optimizer.step() of batch {batch} the gradients were empty: zero_grad() ran between "
        "backward() and step() and wiped them. The order is zero_grad → forward → loss → backward "
        "→ step."
    ),
    "cnn.grad_accumulated": (
        "At optimizer.step() of batch {batch} the gradient was not that batch's own gradient (up to "
        "{ratio:.2g}× its size): backward() adds to .grad, so earlier batches were still in it. "
        "Call optimizer.zero_grad() once per batch, before loss.backward()."
    ),
    "cnn.train_softmax": (
        "loss_fn received probabilities (every row sums to 1), not the model's raw outputs: "
        "nn.CrossEntropyLoss applies log-softmax itself, so pass the logits straight in. A softmax "
        "in front of it flattens the loss and slows learning."
    ),
    "cnn.train_outputs_changed": (
        "loss_fn did not receive the model's outputs unchanged: pass model(inputs) (the logits) "
        "straight to loss_fn, together with the targets."
    ),
    # Exercise 5: evaluate
    "cnn.eval_raised": (
        "evaluate() raised: {error}. If sizes disagree, check the prediction: one class per sample "
        "is model(inputs).argmax(dim=1) (dim 0 runs along the batch, dim 1 over the classes)."
    ),
    "cnn.eval_type": "evaluate() should return a Python number (a fraction), got {got_type}.",
    "cnn.eval_per_batch": (
        "evaluate() returned {got}, which is {correct} correct samples divided by the number of "
        "batches ({batches}): divide by the number of samples instead (here {samples}), e.g. add up "
        "len(targets)."
    ),
    "cnn.eval_fraction": (
        "evaluate() returned {got}: accuracy should be a fraction between 0 and 1 (0.9, not 90)."
    ),
    "cnn.eval_value": (
        "evaluate() should be {expected} ({correct} of {total} samples correct), got {got}. Count "
        "(predictions == targets).sum() over all batches, with predictions = "
        "model(inputs).argmax(dim=1)."
    ),
    "cnn.eval_mode": (
        "evaluate() ran the model in training mode, so dropout zeroed random activations and two "
        "calls gave {first} and {second}. Call model.eval() at the start of evaluate()."
    ),
    "cnn.eval_no_grad": (
        "Inside evaluate() autograd was recording (torch.is_grad_enabled() was True): wrap the loop "
        "in `with torch.no_grad():`. Evaluation needs no gradients, and building the graph costs "
        "memory and time."
    ),
    # Exercise 6: make_optimizer and the real run
    "cnn.opt_pair": (
        "make_optimizer() should return two things, (optimizer, scheduler); got a {got_type}."
    ),
    "cnn.opt_params": (
        "The optimizer does not hold exactly the parameters of the model it was given: build it "
        "with torch.optim.AdamW(model.parameters()), from the `model` argument."
    ),
    "cnn.opt_schedule_short": (
        "The scheduler stopped after {steps} of the run's {total} steps ({error}). train_one_epoch() "
        "steps it after every batch, so OneCycleLR needs epochs=epochs and "
        "steps_per_epoch=steps_per_epoch (total steps = epochs × batches per epoch)."
    ),
    "cnn.opt_schedule_flat": (
        "The learning rate went {first:.3g} → peak {peak:.3g} → {last:.3g}: a one-cycle schedule "
        "ends far below its peak. Use torch.optim.lr_scheduler.OneCycleLR."
    ),
    "cnn.opt_no_progress": (
        "With your optimizer and schedule, a tiny CNN's loss went from {first:.3f} to {last:.3f} in "
        "30 steps on 320 digits; a good setting brings it below 0.5. If it barely moved, max_lr is "
        "too small; if it grew or became nan, too large. max_lr between 1e-3 and 1e-2 suits AdamW."
    ),
    "cnn.trained_accuracy": (
        "The trained model classifies {got:.1%} of the test digits correctly; this test wants at "
        "least {want:.0%} (the suggested settings reach about 98 %). Re-run the training cell after "
        "fixing the exercises above, and check max_lr and the number of epochs."
    ),
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "cnn.demo_label": "label:",
    "cnn.demo_digits": "{train} training digits, {test} test digits",
    "cnn.demo_one_image": "one image:",
    "cnn.demo_values_from": "values from {low:.2f} to {high:.2f}",
    "cnn.fig_label": "label {label}",
    "cnn.fig_digits_notice": "Notice how differently people write the same digit.",
    "cnn.demo_counts_per_class": "counts per class:",
    "cnn.demo_after": "after {name:5}: {shape}",
    "cnn.demo_flattened": "flattened  :",
    "cnn.demo_parameters": "SimpleCNN(c1={c1:2}, c2={c2:2}, hidden={hidden:3}): {n:7,} parameters",
    "cnn.demo_loss_on_logits": "loss on logits:          ",
    "cnn.demo_loss_on_softmax": "loss on softmax(logits): ",
    "cnn.demo_epochs": "epochs",
    "cnn.demo_trained_in": "trained in {seconds:.1f} s",
    "cnn.demo_epoch": "epoch {epoch}: train loss {loss:.3f}, test accuracy {accuracy:.1%}",
    "cnn.demo_test_accuracy": "test accuracy {accuracy:.1%}",
    "cnn.fig_predicted": "predicted",
    "cnn.fig_true": "true",
    "cnn.fig_confusion_alt": "Confusion matrix of the test digits: one row per true class, one column per predicted class, darker blue for more digits; {right} of {total} lie on the diagonal (right), and the most frequent mistake is a {true} read as a {guess} ({times} times).",
    "cnn.fig_confusion_notice": "Notice that almost everything lies on the diagonal; the few mistakes are between digits that look alike.",
    "cnn.fig_wrong": "{predicted} (true {true})",
    "cnn.fig_wrong_notice": "Notice that many of these digits are hard to read for a person too.",
}
