"""Wrong answers for day3/07_capstone.

Every mutant is caught by a visible test cell except "input name assumed, not read from the
session", which only the hidden report test (a session whose input is named 'image') catches.
"""

from tools.mutants import Mutant

MUTANTS = [
    # Exercise 1: choose_precision
    Mutant("capstone_precision_rule", "bfloat16 on the CPU whatever the timings", expect=r"not 10 % faster.*\(None, False\)",
           replace=[("(torch.bfloat16 if bf16_ms <= 0.9 * fp32_ms else None)", "torch.bfloat16")], caught_by="visible", msgid="capstone.precision_not_faster"),
    Mutant("capstone_precision_rule", "any speed-up counts (no 10 % margin)", expect=r"9.5 ms.*not 10 % faster",
           replace=[("bf16_ms <= 0.9 * fp32_ms", "bf16_ms < fp32_ms")], caught_by="visible", msgid="capstone.precision_not_faster"),
    Mutant("capstone_precision_rule", "strictly more than 10 % (the boundary excluded)", expect=r"18.0 ms.*at least 10 % faster",
           replace=[("bf16_ms <= 0.9 * fp32_ms", "bf16_ms < 0.9 * fp32_ms")], caught_by="visible", msgid="capstone.precision_faster"),
    Mutant("capstone_precision_rule", "the ratio the wrong way round", expect=r"10 % faster",
           replace=[("bf16_ms <= 0.9 * fp32_ms", "fp32_ms <= 0.9 * bf16_ms")], caught_by="visible", msgid="capstone.precision_faster"),
    Mutant("capstone_precision_rule", "CUDA decided by timings too", expect=r"On 'cuda'.*\(torch.float16, True\) whatever the timings",
           replace=[('    if device_type == "cuda":\n', '    if device_type == "cuda" and bf16_ms <= 0.9 * fp32_ms:\n')], caught_by="visible", msgid="capstone.precision_cuda"),
    Mutant("capstone_precision_rule", "float16 on CUDA without the scaler", expect=r"On 'cuda'.*GradScaler",
           replace=[("return torch.float16, True", "return torch.float16, False")], caught_by="visible", msgid="capstone.precision_cuda"),
    Mutant("capstone_precision_rule", "scaler on with bfloat16 too", expect=r"should return \(torch.bfloat16, False\)",
           replace=[("(torch.bfloat16 if bf16_ms <= 0.9 * fp32_ms else None), False", "(torch.bfloat16, True) if bf16_ms <= 0.9 * fp32_ms else (None, False)")], caught_by="visible", msgid="capstone.precision_faster"),
    Mutant("capstone_precision_rule", "asks this machine instead of the argument", expect=r"On 'cuda'",
           replace=[('if device_type == "cuda":', "if torch.cuda.is_available():")], caught_by="visible", msgid="capstone.precision_cuda"),
    Mutant("capstone_precision_rule", "bfloat16 on CUDA (only Ampere and newer GPUs run it), no scaler",
           expect=r"On 'cuda'.*every\s+CUDA GPU runs it", replace=[("return torch.float16, True", "return torch.bfloat16, False")],
           caught_by="visible", msgid="capstone.precision_cuda"),
    # Exercise 2: save_checkpoint / load_checkpoint
    Mutant("capstone_checkpoint", "optimizer state not restored", expect=r"optimizer's state\[\d+\]\['\w+'\]",
           replace=[('    run.optimizer.load_state_dict(state["optimizer"])\n', "")], caught_by="visible", msgid="capstone.ckpt_optimizer"),
    Mutant("capstone_checkpoint", "global RNG state not restored (dropout masks differ)",
           expect=r"global random generator.*torch.set_rng_state",
           replace=[('    torch.set_rng_state(state["rng"])\n', "")], caught_by="visible", msgid="capstone.ckpt_rng"),
    Mutant("capstone_checkpoint", "global RNG state not saved at all", expect=r"global random generator.*torch.set_rng_state",
           replace=[('        "rng": torch.get_rng_state(),\n', ""), ('    torch.set_rng_state(state["rng"])\n', "")], caught_by="visible", msgid="capstone.ckpt_rng"),
    Mutant("capstone_checkpoint", "the naive checkpoint of the demo: epoch, model and optimizer only",
           expect=r"scheduler is at last_epoch=0 instead of 1",
           code=("def save_checkpoint(path, run, epoch):\n"
                 "    path = Path(path)\n"
                 "    temporary = path.with_name(path.name + '.tmp')\n"
                 "    torch.save({'epoch': epoch, 'model': run.model.state_dict(), 'optimizer': run.optimizer.state_dict()}, temporary)\n"
                 "    temporary.replace(path)\n\n\n"
                 "def load_checkpoint(path, run):\n"
                 "    state = torch.load(path, map_location='cpu', weights_only=True)\n"
                 "    run.model.load_state_dict(state['model'])\n"
                 "    run.optimizer.load_state_dict(state['optimizer'])\n"
                 "    return state['epoch'] + 1\n"), caught_by="visible", msgid="capstone.ckpt_scheduler"),
    Mutant("capstone_checkpoint", "loader generator neither saved nor restored",
           expect=r"shuffling generator is not in its saved state",
           replace=[('        "generator": run.generator.get_state(),\n', ""), ('    run.generator.set_state(state["generator"])\n', "")],
           caught_by="visible", msgid="capstone.ckpt_generator"),
    Mutant("capstone_checkpoint", "re-seeds the loader generator instead of restoring its state",
           expect=r"shuffling generator is not in its saved state",
           replace=[('    run.generator.set_state(state["generator"])\n', '    run.generator.manual_seed(state["epoch"] + 1)\n')],
           caught_by="visible", msgid="capstone.ckpt_generator"),
    Mutant("capstone_checkpoint", "re-seeds the global generator with the epoch instead of restoring it",
           expect=r"global random generator.*torch.set_rng_state",
           replace=[('    torch.set_rng_state(state["rng"])\n', '    torch.manual_seed(state["epoch"] + 1)\n')],
           caught_by="visible", msgid="capstone.ckpt_rng"),
    Mutant("capstone_checkpoint", "CUDA generators left out (only the CPU's global state)",
           expect=r"did not bring back their random generators.*get_rng_state_all",
           replace=[('        "cuda_rng": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else [],\n', ""),
                    ('    if state["cuda_rng"]:\n        torch.cuda.set_rng_state_all(state["cuda_rng"])\n', "")],
           caught_by="visible", msgid="capstone.ckpt_cuda_rng"),
    Mutant("capstone_checkpoint", "CUDA generators saved but never restored",
           expect=r"did not bring back their random generators.*received nothing",
           replace=[('    if state["cuda_rng"]:\n        torch.cuda.set_rng_state_all(state["cuda_rng"])\n', "")],
           caught_by="visible", msgid="capstone.ckpt_cuda_rng"),
    Mutant("capstone_checkpoint", "loader generator not restored", expect=r"shuffling generator is not in its saved state",
           replace=[('    run.generator.set_state(state["generator"])\n', "")], caught_by="visible", msgid="capstone.ckpt_generator"),
    Mutant("capstone_checkpoint", "scaler not restored", expect=r"GradScaler's scale is 65536.0 instead of the saved 256.0",
           replace=[('    run.scaler.load_state_dict(state["scaler"])\n', "")], caught_by="visible", msgid="capstone.ckpt_scaler"),
    Mutant("capstone_checkpoint", "scheduler not restored", expect=r"scheduler is at last_epoch=0 instead of 1",
           replace=[('    run.scheduler.load_state_dict(state["scheduler"])\n', "")], caught_by="visible", msgid="capstone.ckpt_scheduler"),
    Mutant("capstone_checkpoint", "returns the saved epoch (one epoch repeated)",
           expect=r"next epoch to run, 1 \(the saved epoch 0 plus one\), got 0",
           replace=[('return state["epoch"] + 1', 'return state["epoch"]')], caught_by="visible", msgid="capstone.ckpt_next_epoch"),
    Mutant("capstone_checkpoint", "saves the model object, not its state_dict", expect=r"does not load with .*weights_only=True",
           replace=[('"model": run.model.state_dict(),', '"model": run.model,'),
                    ('run.model.load_state_dict(state["model"])', 'run.model.load_state_dict(state["model"].state_dict())')], caught_by="visible", msgid="capstone.ckpt_not_weights_only"),
    Mutant("capstone_checkpoint", "checkpoint written straight to its path (no temporary file + rename)",
           expect=r"crash in the middle of torch.save destroyed the checkpoint",
           replace=[('    temporary = path.with_name(path.name + ".tmp")\n    torch.save(state, temporary)\n    temporary.replace(path)\n',
                     "    torch.save(state, path)\n")], caught_by="visible", msgid="capstone.ckpt_not_atomic"),
    Mutant("capstone_checkpoint", "temporary file written, then copied over the path (not renamed)",
           expect=r"crash in the middle of torch.save destroyed the checkpoint",
           replace=[("    temporary.replace(path)\n", "    path.write_bytes(temporary.read_bytes())\n"),
                    ("    torch.save(state, temporary)\n", "    path.unlink(missing_ok=True)\n    torch.save(state, temporary)\n")],
           caught_by="visible", msgid="capstone.ckpt_not_atomic"),
    # Exercise 3: fit
    Mutant("capstone_fit", "forgot model.train()", expect=r"evaluation mode while fit\(\) trained it",
           replace=[("        run.model.train()\n", "")], caught_by="visible", msgid="capstone.fit_not_training"),
    Mutant("capstone_fit", "no autocast", expect=r"did not run under an enabled autocast with dtype torch.bfloat16",
           replace=[("            with torch.autocast(run.device.type, dtype=run.amp_dtype, enabled=run.amp_dtype is not None):\n"
                     "                loss =", "            if True:\n                loss =")], caught_by="visible", msgid="placement.autocast_missing"),
    Mutant("capstone_fit", "returns [0.0] for every epoch", expect=r"returned 0.0 as the mean loss of epoch 0",
           replace=[("        losses.append(total / count)\n", "        losses.append(0.0)\n")], caught_by="visible", msgid="capstone.fit_loss_value"),
    Mutant("capstone_fit", "adds the batch size to the loss", expect=r"mean loss of epoch 0.*weighted by its number of images",
           replace=[("total += loss.item() * len(labels)", "total += loss.item() + len(labels)")], caught_by="visible", msgid="capstone.fit_loss_value"),
    Mutant("capstone_fit", "multiplies the total by the count", expect=r"mean loss of epoch 0",
           replace=[("losses.append(total / count)", "losses.append(total * count)")], caught_by="visible", msgid="capstone.fit_loss_value"),
    Mutant("capstone_fit", "mean of the batch means (a short last batch counts as a full one)", expect=r"mean loss of epoch 0",
           replace=[("total += loss.item() * len(labels)", "total += loss.item()"), ("count += len(labels)", "count += 1")],
           caught_by="visible", msgid="capstone.fit_loss_value"),
    Mutant("capstone_fit", "last batch's loss only", expect=r"mean loss of epoch 0",
           replace=[("losses.append(total / count)", "losses.append(loss.item())")], caught_by="visible", msgid="capstone.fit_loss_value"),
    Mutant("capstone_fit", "batches never moved to run.device", expect=r"reached the model without .to\(device\).*a batch from the loader",
           replace=[("            images, labels = images.to(run.device), labels.to(run.device)\n", "")], caught_by="visible", msgid="placement.data_not_moved"),
    Mutant("capstone_fit", ".to(run.device) called but its result dropped", expect=r"reached the model without .to\(device\)",
           replace=[("            images, labels = images.to(run.device), labels.to(run.device)\n",
                     "            images.to(run.device)\n            labels.to(run.device)\n")], caught_by="visible", msgid="placement.data_not_moved"),
    Mutant("capstone_fit", "only the images moved, labels left on the CPU", expect=r"cross_entropy\(\) got a batch from the loader \(64\)",
           replace=[("            images, labels = images.to(run.device), labels.to(run.device)\n",
                     "            images = images.to(run.device)\n")], caught_by="visible", msgid="placement.data_not_moved"),
    Mutant("capstone_fit", 'autocast device type hard-coded to "cpu"', expect=r"autocast ran with device_type 'cpu', but the model and the data are on 'cuda'",
           replace=[("torch.autocast(run.device.type,", 'torch.autocast("cpu",')], caught_by="visible", msgid="placement.autocast_device"),
    Mutant("capstone_fit", "no enabled= switch (autocast on for a float32 run)", expect=r"autocast was on .*amp_dtype is None",
           replace=[(", enabled=run.amp_dtype is not None):", "):")], caught_by="visible", msgid="placement.autocast_not_disabled"),
    Mutant("capstone_fit", "autocast always enabled", expect=r"autocast was on .*amp_dtype is None",
           replace=[("enabled=run.amp_dtype is not None", "enabled=True")], caught_by="visible", msgid="placement.autocast_not_disabled"),
    Mutant("capstone_fit", "optimizer.step() instead of the scaler's", expect=r"scaler.step\(optimizer\) was called 0 times",
           replace=[("            run.scaler.step(run.optimizer)\n            run.scaler.update()\n",
                     "            run.optimizer.step()\n")], caught_by="visible", msgid="capstone.fit_no_scaler_step"),
    Mutant("capstone_fit", "backward on the unscaled loss", expect=r"scaler.scale\(loss\) was called 0 times",
           replace=[("run.scaler.scale(loss).backward()", "loss.backward()")], caught_by="visible", msgid="capstone.fit_no_scale"),
    Mutant("capstone_fit", "never resumes (always starts at epoch 0)", expect=r"nothing left to do and return \[\]",
           replace=[("start = load_checkpoint(ckpt_path, run) if Path(ckpt_path).exists() else 0", "start = 0")], caught_by="visible", msgid="capstone.fit_no_resume_done"),
    Mutant("capstone_fit", "resumes at the saved epoch (repeats one)", expect=r"nothing left to do and return \[\], got \[",
           replace=[("start = load_checkpoint(ckpt_path, run) if", "start = load_checkpoint(ckpt_path, run) - 1 if")], caught_by="visible", msgid="capstone.fit_no_resume_done"),
    Mutant("capstone_fit", "checkpoint only when training is over", expect=r"saved checkpoints after the epochs \[1\]",
           replace=[("        save_checkpoint(ckpt_path, run, epoch)\n        losses.append(total / count)\n",
                     "        losses.append(total / count)\n    save_checkpoint(ckpt_path, run, epoch)\n")], caught_by="visible", msgid="capstone.fit_checkpoints"),
    Mutant("capstone_fit", "checkpoint saved before the epoch's scheduler step", expect=r"resumed run ends with other weights",
           replace=[("        run.scheduler.step()\n        save_checkpoint(ckpt_path, run, epoch)\n",
                     "        save_checkpoint(ckpt_path, run, epoch)\n        run.scheduler.step()\n")],
           caught_by="visible", msgid="capstone.fit_resume_differs"),
    Mutant("capstone_fit", "scheduler stepped every batch", expect=r"scheduler is at last_epoch=\d+: call run.scheduler.step\(\) once per epoch",
           replace=[("            run.scaler.update()\n", "            run.scaler.update()\n            run.scheduler.step()\n"),
                    ("        run.scheduler.step()\n        save_checkpoint", "        save_checkpoint")], caught_by="visible", msgid="capstone.fit_scheduler"),
    Mutant("capstone_fit", "forgot zero_grad (gradients pile up, and are not in the checkpoint)",
           expect=r"resumed run ends with other weights.*zero_grad",
           replace=[("            run.optimizer.zero_grad()\n", "")], caught_by="visible", msgid="capstone.fit_resume_differs"),
    Mutant("capstone_fit", "catches the crash and returns what it has",
           expect=r"SimulatedCrash raised by the loader did not come out of fit\(\)",
           code=(
               "def fit(run, epochs, ckpt_path):\n"
               "    start = load_checkpoint(ckpt_path, run) if Path(ckpt_path).exists() else 0\n"
               "    losses = []\n"
               "    try:\n"
               "        for epoch in range(start, epochs):\n"
               "            run.model.train()\n"
               "            total, count = 0.0, 0\n"
               "            for images, labels in run.loader:\n"
               "                images, labels = images.to(run.device), labels.to(run.device)\n"
               "                run.optimizer.zero_grad()\n"
               "                with torch.autocast(run.device.type, dtype=run.amp_dtype, enabled=run.amp_dtype is not None):\n"
               "                    loss = nn.functional.cross_entropy(run.model(images), labels)\n"
               "                run.scaler.scale(loss).backward()\n"
               "                run.scaler.step(run.optimizer)\n"
               "                run.scaler.update()\n"
               "                total += loss.item() * len(labels)\n"
               "                count += len(labels)\n"
               "            run.scheduler.step()\n"
               "            save_checkpoint(ckpt_path, run, epoch)\n"
               "            losses.append(total / count)\n"
               "    except Exception as error:\n"
               "        print('training interrupted:', error)\n"
               "    return losses\n"), caught_by="visible", msgid="capstone.fit_swallowed_crash"),
    # Exercise 4: deploy
    Mutant("capstone_deploy", "forgot model.eval() (exported in training mode)",
           expect=r"(training mode|model.eval\(\))", replace=[("    model.eval()\n", "")], caught_by="visible", msgid="capstone.deploy_warned"),
    Mutant("capstone_deploy", "default input and output names", expect=r"expected \(\['pixels'\], \['logits'\]\)",
           replace=[(' input_names=["pixels"],', ""), ('\n                      output_names=["logits"],', "\n                     "),
                    ('{"pixels": example.numpy()}', "{session.get_inputs()[0].name: example.numpy()}")], caught_by="visible", msgid="capstone.deploy_names"),
    Mutant("capstone_deploy", "no dynamic batch dimension", expect=r"refused a batch of 1.*dynamic",
           replace=[(" dynamic_shapes=({0: batch},),", "")], caught_by="visible", msgid="capstone.deploy_fixed_batch"),
    Mutant("capstone_deploy", "dynamic_axes instead of dynamic_shapes", expect=r"printed warnings.*dynamic_shapes",
           replace=[("dynamic_shapes=({0: batch},)", 'dynamic_axes={"pixels": {0: "batch"}}')], caught_by="visible", msgid="capstone.deploy_warned"),
    Mutant("capstone_deploy", "weights in a separate .data file", expect=r"extra files.*external_data=False",
           replace=[(" external_data=False,", "")], caught_by="visible", msgid="capstone.deploy_external_data"),
    Mutant("capstone_deploy", "returns a NumPy number", expect=r"should return a Python float.*got float32",
           replace=[("return float(np.abs(got - expected).max())", "return np.abs(got - expected).max()")], caught_by="visible", msgid="capstone.deploy_gap_type"),
    Mutant("capstone_deploy", "eval mode only after the export (training mode frozen into the file)",
           expect=r"(training mode|model.eval\(\))",
           replace=[("    model.eval()\n    batch = torch.export.Dim(\"batch\")\n", "    batch = torch.export.Dim(\"batch\")\n"),
                    ("    session = ort.InferenceSession(", "    model.eval()\n    session = ort.InferenceSession(")],
           caught_by="visible", msgid="capstone.deploy_warned"),
    Mutant("capstone_deploy", "the mean gap instead of the largest one",
           expect=r"largest absolute difference",
           replace=[("return float(np.abs(got - expected).max())", "return float(np.abs(got - expected).mean())")],
           caught_by="visible", msgid="capstone.deploy_gap"),
]
