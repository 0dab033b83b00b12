"""Wrong answers for day3/04_memory."""

from tests.harness.mutants import Mutant

MUTANTS = [
    # Exercise 1: training_memory_bytes
    Mutant("memory_training_bytes", "forgets the gradients",
           expect=r"'sgd'\) should be 6,280 bytes \(2×P\), got 3,140 \(1\.00×P\).*gradients",
           replace=[('{"sgd": 1, "sgd_momentum": 2, "adam": 3}', '{"sgd": 0, "sgd_momentum": 1, "adam": 2}')], caught_by="visible", msgid="memory.training_bytes"),
    Mutant("memory_training_bytes", "counts Adam as one extra buffer",
           expect=r"'adam'\) should be 12,560 bytes \(4×P\), got 9,420 \(3\.00×P\).*exp_avg and exp_avg_sq",
           replace=[('"adam": 3}', '"adam": 2}')], caught_by="visible", msgid="memory.training_bytes"),
    Mutant("memory_training_bytes", "2 bytes per float32",
           expect=r"exactly half.*2 bytes per number.*element_size\(\)",
           replace=[("p.numel() * p.element_size() for p in model.parameters())",
                     "p.numel() * 2 for p in model.parameters())"),
                    ("b.numel() * b.element_size()", "b.numel() * 2"),
                    ("p.numel() * p.element_size() for p in model.parameters() if", "p.numel() * 2 for p in model.parameters() if")], caught_by="visible", msgid="memory.bytes_per_element"),
    Mutant("memory_training_bytes", "hard-codes 4 bytes per number",
           expect=r"For a torch\.bfloat16 model \(2 bytes per number\).*use element_size\(\)",
           replace=[("p.numel() * p.element_size() for p in model.parameters())",
                     "p.numel() * 4 for p in model.parameters())"),
                    ("b.numel() * b.element_size()", "b.numel() * 4"),
                    ("p.numel() * p.element_size() for p in model.parameters() if", "p.numel() * 4 for p in model.parameters() if")], caught_by="hidden", msgid="memory.training_dtype"),
    Mutant("memory_training_bytes", "counts buffers as trainable",
           expect=r"BatchNorm buffers.*Buffers and frozen parameters.*stored once",
           replace=[("if p.requires_grad)\n", "if p.requires_grad)\n    trainable += sum(b.numel() * b.element_size() for b in model.buffers())\n")], caught_by="visible", msgid="memory.training_real_model"),
    Mutant("memory_training_bytes", "counts frozen parameters as trainable",
           expect=r"\d frozen parameter.*requires_grad=False",
           replace=[(" if p.requires_grad)", ")")], caught_by="visible", msgid="memory.training_real_model"),
    Mutant("memory_training_bytes", "forgets the buffers",
           expect=r"BatchNorm buffers.*weights and buffers",
           replace=[("    stored_once += sum(b.numel() * b.element_size() for b in model.buffers())\n", "")], caught_by="visible", msgid="memory.training_real_model"),
    # Exercise 2: saved_activation_bytes
    Mutant("memory_saved_bytes", "counts the layers' outputs instead of the saved tensors",
           expect=r"should be 3,072 bytes.*got 4,608.*not the layers' outputs",
           code=("def saved_activation_bytes(model, x):\n"
                 "    sizes = []\n"
                 "    hooks = [m.register_forward_hook(lambda mod, inp, out: sizes.append(out.numel() * out.element_size()))\n"
                 "             for m in model.modules() if m is not model]\n"
                 "    model(x)\n"
                 "    for h in hooks:\n"
                 "        h.remove()\n"
                 "    return sum(sizes)\n"), caught_by="visible", msgid="memory.saved_bytes"),
    Mutant("memory_saved_bytes", "no dedupe by storage",
           expect=r"2,048 too many.*saved twice.*data_ptr",
           replace=[("saved = {}", "saved = []"),
                    ("saved[storage.data_ptr()] = storage.nbytes()", "saved.append(storage.nbytes())"),
                    ("return sum(saved.values())", "return sum(saved)")], caught_by="visible", msgid="memory.saved_no_dedupe"),
    Mutant("memory_saved_bytes", "runs the forward under no_grad",
           expect=r"measured 0 bytes.*torch\.no_grad\(\)",
           replace=[("        model(x)\n", "        with torch.no_grad():\n            model(x)\n")], caught_by="visible", msgid="memory.saved_zero"),
    Mutant("memory_saved_bytes", "counts the parameters too",
           expect=r"256 too many.*second Linear's weight",
           replace=[("if storage.data_ptr() not in parameter_storages:", "if True:")], caught_by="visible", msgid="memory.saved_params"),
    Mutant("memory_saved_bytes", "counts tensor views, not storages",
           expect=r"For a small CNN with Flatten.*each storage counted once",
           replace=[("saved[storage.data_ptr()] = storage.nbytes()",
                     "saved[(storage.data_ptr(), tuple(tensor.shape))] = tensor.numel() * tensor.element_size()")], caught_by="hidden", msgid="memory.saved_reference"),
    # Exercise 3: largest_batch_that_fits
    Mutant("memory_fit_budget", "activations only: forgets the fixed part", expect=r"chose batch 128.*come on top",
           replace=[("fixed + saved_activation_bytes(", "saved_activation_bytes(")], caught_by="visible", msgid="memory.fit_no_fixed"),
    Mutant("memory_fit_budget", "fixed part only: forgets the activations", expect=r"chose batch 512.*activations grow",
           replace=[(" + saved_activation_bytes(model, torch.randn(b, *sample_shape))", "")], caught_by="visible", msgid="memory.fit_no_activations"),
    Mutant("memory_fit_budget", "measures under torch.no_grad()", expect=r"not under torch\.no_grad\(\)",
           replace=[("    fixed = training_memory_bytes(model, optimizer_name)\n",
                     "    fixed = training_memory_bytes(model, optimizer_name)\n    torch.set_grad_enabled(False)\n"),
                    ("    return max(fitting, default=None)\n",
                     "    torch.set_grad_enabled(True)\n    return max(fitting, default=None)\n")], caught_by="visible", msgid="memory.fit_no_activations"),
    Mutant("memory_fit_budget", "the smallest batch that fits", expect=r"the smallest one that fits",
           replace=[("max(fitting, default=None)", "min(fitting, default=None)")], caught_by="visible", msgid="memory.fit_smallest"),
    Mutant("memory_fit_budget", "strictly under the budget", expect=r"needs exactly 414,720 bytes",
           replace=[("<= budget_bytes", "< budget_bytes")], caught_by="visible", msgid="memory.fit_strict"),
    Mutant("memory_fit_budget", "the last fitting candidate in the order given", expect=r"in the order given",
           replace=[("max(fitting, default=None)", "fitting[-1] if fitting else None")], caught_by="visible", msgid="memory.fit_order"),
    Mutant("memory_fit_budget", "always Adam's fixed part", expect=r"optimizer_name='sgd'.*depends on the optimizer",
           replace=[("training_memory_bytes(model, optimizer_name)", 'training_memory_bytes(model, "adam")')], caught_by="visible", msgid="memory.fit_optimizer"),
    Mutant("memory_fit_budget", "always plain SGD's fixed part", expect=r"optimizer_name='adam'.*depends on the optimizer",
           replace=[("training_memory_bytes(model, optimizer_name)", 'training_memory_bytes(model, "sgd")')], caught_by="visible", msgid="memory.fit_optimizer"),
    Mutant("memory_fit_budget", "max() without a default", expect=r"should return None, but it raised ValueError",
           replace=[("max(fitting, default=None)", "max(fitting)")], caught_by="visible", msgid="memory.fit_none_raised"),
    Mutant("memory_fit_budget", "returns the bytes, not the batch size", expect=r"one of the candidate batch sizes",
           replace=[("    return max(fitting, default=None)\n",
                     "    best = max(fitting, default=None)\n"
                     "    return None if best is None else fixed + saved_activation_bytes(model, torch.randn(best, *sample_shape))\n")], caught_by="visible", msgid="memory.fit_type"),
    # Exercise 4: CheckpointedMLP
    Mutant("memory_checkpointed", "checkpoint wraps nothing (the block runs outside)",
           expect=r"With checkpointing, [\d,]+ bytes were saved.*checkpoint must wrap the block itself",
           replace=[("x = checkpoint(block, x, use_reentrant=False)",
                     "x = checkpoint(nn.Identity(), block(x), use_reentrant=False)")], caught_by="hidden", msgid="memory.ckpt_no_saving"),
    Mutant("memory_checkpointed", "no_grad instead of checkpoint",
           expect=r"output does not require grad.*torch\.no_grad\(\)",
           replace=[("x = checkpoint(block, x, use_reentrant=False)",
                     "with torch.no_grad():\n                x = block(x)")], caught_by="visible", msgid="memory.ckpt_no_graph"),
    Mutant("memory_checkpointed", "detach inside the loop",
           expect=r"'0\.net\.0\.weight' has no gradient.*\.detach\(\)",
           replace=[("x = checkpoint(block, x, use_reentrant=False)",
                     "x = checkpoint(block, x.detach(), use_reentrant=False)")], caught_by="visible", msgid="memory.ckpt_missing_grad"),
    Mutant("memory_checkpointed", "use_reentrant=True",
           expect=r"printed a warning: \"None of the inputs have requires_grad=True\".*use_reentrant=False",
           replace=[("use_reentrant=False", "use_reentrant=True")], caught_by="visible", msgid="memory.ckpt_warning"),
    Mutant("memory_checkpointed", "use_reentrant left out",
           expect=r"printed a warning.*use_reentrant=False",
           replace=[("checkpoint(block, x, use_reentrant=False)", "checkpoint(block, x)")], caught_by="visible", msgid="memory.ckpt_warning"),
    # Exercise 5: accumulation_step
    Mutant("memory_accumulation", "forgot to divide the loss",
           expect=r"plain sum of the 3 micro-batch gradients.*forgot to scale",
           replace=[("loss = loss_fn(model(xb), yb) * (len(xb) / len(x))", "loss = loss_fn(model(xb), yb)")], caught_by="visible", msgid="memory.accum_unscaled"),
    Mutant("memory_accumulation", "zero_grad inside the loop",
           expect=r"last micro-batch's only.*zero_grad\(\) inside the loop",
           replace=[("    optimizer.zero_grad()\n    total = 0.0\n", "    total = 0.0\n"),
                    ("        loss = loss_fn", "        optimizer.zero_grad()\n        loss = loss_fn")], caught_by="visible", msgid="memory.accum_last_only"),
    Mutant("memory_accumulation", "steps every micro-batch",
           expect=r"optimizer\.step\(\) was called 3 time\(s\) for 3 micro-batches",
           replace=[("        total += loss.item()\n    optimizer.step()\n",
                     "        total += loss.item()\n        optimizer.step()\n")], caught_by="visible", msgid="memory.accum_steps"),
    Mutant("memory_accumulation", "divides by the number of micro-batches (uneven sizes)",
           expect=r"sizes \[3, 3, 2, 2\], giving each the weight 1/4",
           replace=[("* (len(xb) / len(x))", "/ micro_batches")], caught_by="visible", msgid="memory.accum_equal_weights"),
    Mutant("memory_accumulation", "drops the leftover samples",
           expect=r"10 samples.*differs from the full-batch gradient.*every\s+sample once",
           code=("def accumulation_step(model, optimizer, loss_fn, x, y, micro_batches):\n"
                 "    optimizer.zero_grad()\n"
                 "    size = len(x) // micro_batches\n"
                 "    total = 0.0\n"
                 "    for i in range(micro_batches):\n"
                 "        xb, yb = x[i * size:(i + 1) * size], y[i * size:(i + 1) * size]\n"
                 "        loss = loss_fn(model(xb), yb) / micro_batches\n"
                 "        loss.backward()\n"
                 "        total += loss.item()\n"
                 "    optimizer.step()\n"
                 "    return total\n"), caught_by="visible", msgid="memory.accum_grad"),
    Mutant("memory_accumulation", "no zero_grad at all",
           expect=r"includes what was in \.grad before the call",
           replace=[("    optimizer.zero_grad()\n    total = 0.0\n", "    total = 0.0\n")], caught_by="hidden", msgid="memory.accum_stale"),
    Mutant("memory_accumulation", "returns the loss tensor",
           expect=r"return the loss as a Python float",
           replace=[("total += loss.item()", "total = total + loss.detach()")], caught_by="hidden", msgid="memory.accum_loss_type"),
]
