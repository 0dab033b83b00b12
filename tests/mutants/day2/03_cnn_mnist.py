"""Wrong answers for day2/03_cnn_mnist."""

from tools.mutants import Mutant

TO_DEVICE = "        inputs, targets = inputs.to(device), targets.to(device)\n"

MUTANTS = [
    # Exercise 1: prepare_images
    Mutant("cnn_prepare_images", "forgets to divide by 255", expect=r"scale=True\) divides by 255",
           replace=[(".float() / 255", ".float()")], caught_by="visible", msgid="cnn.prep_scale"),
    Mutant("cnn_prepare_images", "no channel dimension", expect=r"add the channel dimension",
           replace=[(".unsqueeze(1)", "")], caught_by="visible", msgid="cnn.prep_channel"),
    Mutant("cnn_prepare_images", "mean and std swapped", expect=r"right shape but wrong values",
           replace=[("(scaled - MEAN) / STD", "(scaled - STD) / MEAN")], caught_by="visible", msgid="check.values"),
    Mutant("cnn_prepare_images", "float64 instead of float32", expect=r"dtype torch\.float32, got torch\.float64",
           replace=[(".float()", ".double()")], caught_by="visible", msgid="check.dtype"),
    Mutant("cnn_prepare_images", "normalises before scaling", expect=r"right shape but wrong values",
           code=("def prepare_images(images):\n"
                 "    return (images.unsqueeze(1).float() - MEAN) / STD / 255\n"), caught_by="visible", msgid="check.values"),
    # Exercise 2: conv_output_size
    Mutant("cnn_conv_output_size", "forgets the + 1", expect=r"conv_output_size\(28, 3, .*should be 26 .*got 25",
           replace=[(" // stride + 1", " // stride")], caught_by="visible", msgid="cnn.size"),
    Mutant("cnn_conv_output_size", "true division", expect=r"should return an int, got float",
           replace=[("// stride", "/ stride")], caught_by="visible", msgid="cnn.size_type"),
    Mutant("cnn_conv_output_size", "padding counted on one side only", expect=r"padding=1\) should be",
           replace=[("2 * padding", "padding")], caught_by="hidden", msgid="cnn.size"),
    Mutant("cnn_conv_output_size", "ignores the stride", expect=r"stride=2, padding=0\) should be 13 .*got 25",
           replace=[(" // stride + 1", " + 1")], caught_by="visible", msgid="cnn.size"),
    Mutant("cnn_conv_output_size", "rounds up", expect=r"conv_output_size\(11, 2, .*should be 5 .*got 6",
           replace=[("(size + 2 * padding - kernel) // stride + 1", "-(-(size + 2 * padding - kernel) // stride) + 1")], caught_by="visible", msgid="cnn.size"),
    # Exercise 3: SimpleCNN
    Mutant("cnn_simple_cnn", "copies Linear(64 * 12 * 12, 128)", expect=r"fc1\.in_features is 9216",
           replace=[("c2 * size * size", "64 * 12 * 12")], caught_by="visible", msgid="cnn.fc1_size"),
    Mutant("cnn_simple_cnn", "hard-codes the 5 x 5", expect=r"image_size=32, .*fc1\.in_features is 150",
           replace=[("c2 * size * size", "c2 * 5 * 5")], caught_by="hidden", msgid="cnn.fc1_size"),
    Mutant("cnn_simple_cnn", "size computed without the second pool", expect=r"fc1\.in_features is 7744",
           replace=[("        size = conv_output_size(size, 3)\n        size = conv_output_size(size, 2, stride=2)\n",
                     "        size = conv_output_size(size, 3)\n")], caught_by="visible", msgid="cnn.fc1_size"),
    Mutant("cnn_simple_cnn", "flattens the batch dimension too", expect=r"keeps the batch\s+dimension",
           replace=[("torch.flatten(x, 1)", "torch.flatten(x)")], caught_by="visible", msgid="cnn.forward_error"),
    Mutant("cnn_simple_cnn", "flattens with view, as the recipe does", expect=r"channels_last memory format",
           replace=[("torch.flatten(x, 1)", "x.view(x.size(0), -1)")], caught_by="visible", msgid="cnn.forward_channels_last"),
    Mutant("cnn_simple_cnn", "no ReLU after fc1", expect=r"every ReLU is there",
           replace=[("x = F.relu(self.fc1(x))", "x = self.fc1(x)")], caught_by="hidden", msgid="cnn.forward_order"),
    Mutant("cnn_simple_cnn", "forward pools only once", expect=r"raised: .*both pools",
           replace=[("x = self.pool(F.relu(self.conv2(x)))", "x = F.relu(self.conv2(x))")], caught_by="visible", msgid="cnn.forward_error"),
    # Exercise 4: train_one_epoch
    Mutant("cnn_train_one_epoch", "forgets zero_grad", expect=r"earlier batches were still in it",
           replace=[("        optimizer.zero_grad()\n", "")], caught_by="visible", msgid="cnn.grad_accumulated"),
    Mutant("cnn_train_one_epoch", "zero_grad between backward and step", expect=r"gradients were empty",
           replace=[("        optimizer.zero_grad()\n        loss = loss_fn(model(inputs), targets)\n        loss.backward()\n",
                     "        loss = loss_fn(model(inputs), targets)\n        loss.backward()\n        optimizer.zero_grad()\n")], caught_by="visible", msgid="cnn.grad_empty"),
    Mutant("cnn_train_one_epoch", "forgets model.train()", expect=r"left in eval mode.*call model\.train\(\)",
           replace=[("    model.train()\n", "")], caught_by="visible", msgid="cnn.train_mode"),
    Mutant("cnn_train_one_epoch", "softmax before CrossEntropyLoss", expect=r"applies log-softmax itself",
           replace=[("loss_fn(model(inputs), targets)", "loss_fn(model(inputs).softmax(dim=1), targets)")], caught_by="visible", msgid="cnn.train_softmax"),
    Mutant("cnn_train_one_epoch", "batch not moved to device", expect=r"data reached the model without \.to\(device\).*a batch from the loader",
           replace=[(TO_DEVICE, "")], caught_by="visible", msgid="placement.data_not_moved"),
    Mutant("cnn_train_one_epoch", ".to(device) without assigning the result",
           expect=r"reached the model without \.to\(device\)",
           replace=[(TO_DEVICE, "        inputs.to(device)\n        targets.to(device)\n")], caught_by="visible", msgid="placement.data_not_moved"),
    Mutant("cnn_train_one_epoch", "moves the inputs but not the targets", expect=r"cross_entropy\(\) got a batch from the loader \(8\) still on the CPU",
           replace=[(TO_DEVICE, "        inputs = inputs.to(device)\n")], caught_by="visible", msgid="placement.data_not_moved"),
    Mutant("cnn_train_one_epoch", "moves the batch to a hard-coded 'cuda', not to `device`", expect=r"without \.to\(device\).*mps",
           replace=[(TO_DEVICE, "        inputs, targets = inputs.to('cuda'), targets.to('cuda')\n")], caught_by="hidden", msgid="placement.data_not_moved"),
    Mutant("cnn_train_one_epoch", "log_softmax before CrossEntropyLoss", expect=r"did not receive the model's outputs unchanged",
           replace=[("loss_fn(model(inputs), targets)", "loss_fn(F.log_softmax(model(inputs), dim=1), targets)")], caught_by="visible", msgid="cnn.train_outputs_changed"),
    Mutant("cnn_train_one_epoch", "returns the last batch loss", expect=r"the last batch's loss",
           replace=[("return total / batches", "return loss.item()")], caught_by="visible", msgid="cnn.train_last_loss"),
    Mutant("cnn_train_one_epoch", "adds up loss tensors", expect=r"should return a Python number, got Tensor",
           replace=[("total += loss.item()", "total += loss")], caught_by="visible", msgid="cnn.train_return_type"),
    # issue 23: returned values and required steps
    Mutant("cnn_train_one_epoch", "adds the batch size to each loss", expect=r"mean of the \d+ batch losses|batch losses",
           replace=[("total += loss.item()", "total += loss.item() + len(targets)")], caught_by="visible", msgid="cnn.train_mean"),
    Mutant("cnn_train_one_epoch", "multiplies by the number of batches", expect=r"batch losses",
           replace=[("return total / batches", "return total * batches")], caught_by="visible", msgid="cnn.train_mean"),
    Mutant("cnn_train_one_epoch", "never calls backward() or step()", expect=r"weights",
           replace=[("        loss.backward()\n        optimizer.step()\n", "")], caught_by="visible", msgid="cnn.train_no_update"),
    Mutant("cnn_train_one_epoch", "scheduler stepped once per epoch", expect=r"scheduler\.step\(\) was called 1 time",
           replace=[("        if scheduler is not None:\n            scheduler.step()\n", ""),
                    ("    return total / batches", "    if scheduler is not None:\n        scheduler.step()\n"
                                                     "    return total / batches")], caught_by="visible", msgid="cnn.train_scheduler"),
    # Exercise 5: evaluate
    Mutant("cnn_evaluate", "forgets model.eval()", expect=r"Call model\.eval\(\)",
           replace=[("    model.eval()\n", "")], caught_by="visible", msgid="cnn.eval_mode"),
    Mutant("cnn_evaluate", "forgets torch.no_grad()", expect=r"with torch\.no_grad\(\)",
           code=("def evaluate(model, loader, device):\n"
                 "    model.eval()\n"
                 "    correct, total = 0, 0\n"
                 "    for inputs, targets in loader:\n"
                 "        inputs, targets = inputs.to(device), targets.to(device)\n"
                 "        correct += (model(inputs).argmax(dim=1) == targets).sum().item()\n"
                 "        total += len(targets)\n"
                 "    return correct / total\n"), caught_by="visible", msgid="cnn.eval_no_grad"),
    Mutant("cnn_evaluate", "argmax over dim 0", expect=r"argmax\(dim=1\) \(dim 0 runs along the batch",
           replace=[("argmax(dim=1)", "argmax(dim=0)")], caught_by="visible", msgid="cnn.eval_raised"),
    Mutant("cnn_evaluate", "divides by the number of batches", expect=r"divided by the number of\s+batches",
           code=("def evaluate(model, loader, device):\n"
                 "    model.eval()\n"
                 "    correct = 0\n"
                 "    with torch.no_grad():\n"
                 "        for inputs, targets in loader:\n"
                 "            inputs, targets = inputs.to(device), targets.to(device)\n"
                 "            correct += (model(inputs).argmax(dim=1) == targets).sum().item()\n"
                 "    return correct / len(loader)\n"), caught_by="visible", msgid="cnn.eval_per_batch"),
    Mutant("cnn_evaluate", "returns a percentage", expect=r"fraction between 0 and 1",
           replace=[("return correct / total", "return 100 * correct / total")], caught_by="visible", msgid="cnn.eval_fraction"),
    Mutant("cnn_evaluate", "batch not moved to device", expect=r"without \.to\(device\)",
           replace=[("            inputs, targets = inputs.to(device), targets.to(device)\n", "")], caught_by="visible", msgid="placement.data_not_moved"),
    Mutant("cnn_evaluate", "moves the batch to a hard-coded 'cuda', not to `device`", expect=r"without \.to\(device\).*mps",
           replace=[("inputs, targets = inputs.to(device), targets.to(device)", "inputs, targets = inputs.to('cuda'), targets.to('cuda')")],
           caught_by="hidden", msgid="placement.data_not_moved"),
    # Exercise 6: make_optimizer
    Mutant("cnn_make_optimizer", "schedule counted in epochs", expect=r"total steps = epochs × batches per epoch",
           replace=[("steps_per_epoch=steps_per_epoch", "steps_per_epoch=1")], caught_by="visible", msgid="cnn.opt_schedule_short"),
    Mutant("cnn_make_optimizer", "optimizer over a fresh model", expect=r"does not hold exactly the parameters",
           replace=[("torch.optim.AdamW(model.parameters())", "torch.optim.AdamW(SimpleCNN().parameters())")], caught_by="visible", msgid="cnn.opt_params"),
    Mutant("cnn_make_optimizer", "learning rate far too small", expect=r"loss went from 2\.\d+ to 2\.\d+ in",
           replace=[("max_lr=1e-2", "max_lr=1e-6")], caught_by="hidden", msgid="cnn.opt_no_progress"),
    # The loss grows (from about ln 10 = 2.30): how far in 30 steps depends on the secret starting weights.
    Mutant("cnn_make_optimizer", "learning rate far too large",
           expect=r"loss went from 2\.\d+ to (2\.[4-9]|[3-9]|\d\d|nan|inf)",
           replace=[("max_lr=1e-2", "max_lr=10.0")], caught_by="hidden", msgid="cnn.opt_no_progress"),
    Mutant("cnn_make_optimizer", "returns only the optimizer", expect=r"should return two things",
           code=("def make_optimizer(model, epochs, steps_per_epoch):\n"
                 "    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)\n"
                 "    return optimizer\n"), caught_by="visible", msgid="cnn.opt_pair"),
    Mutant("cnn_make_optimizer", "a constant learning rate", expect=r"ends far below its peak",
           code=("def make_optimizer(model, epochs, steps_per_epoch):\n"
                 "    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)\n"
                 "    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1000)\n"
                 "    return optimizer, scheduler\n"), caught_by="visible", msgid="cnn.opt_schedule_flat"),
]
