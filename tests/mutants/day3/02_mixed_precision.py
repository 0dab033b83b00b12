"""Wrong answers for day3/02_mixed_precision."""

from tools.mutants import Mutant

MUTANTS = [
    # Exercise 1: make_amp_tools
    Mutant("amp_make_tools", "float16 on the CPU too", expect=r"make_amp_tools\('cpu'\) should choose torch\.bfloat16, got torch\.float16",
           replace=[("return torch.bfloat16, torch.amp.GradScaler", "return torch.float16, torch.amp.GradScaler")], caught_by="visible", msgid="amp.tools_dtype"),
    Mutant("amp_make_tools", "scaler enabled on the CPU", expect=r"On the CPU the scaler should be disabled",
           replace=[("torch.amp.GradScaler(device_type, enabled=False)", "torch.amp.GradScaler(device_type)")], caught_by="visible", msgid="amp.tools_cpu_enabled"),
    Mutant("amp_make_tools", "scaler disabled on CUDA", expect=r"float16 gradients underflow without one",
           replace=[('torch.amp.GradScaler("cuda")', 'torch.amp.GradScaler("cuda", enabled=False)')], caught_by="visible", msgid="amp.tools_cuda_disabled"),
    Mutant("amp_make_tools", "asks this machine instead of the argument",
           expect=r"make_amp_tools\('cpu'\) should choose torch\.bfloat16, got torch\.float16.*not from\s+torch\.cuda\.is_available",
           code=("def make_amp_tools(device):\n"
                 "    if torch.cuda.is_available():\n"
                 '        return torch.float16, torch.amp.GradScaler("cuda")\n'
                 '    return torch.bfloat16, torch.amp.GradScaler("cpu", enabled=False)\n'), caught_by="visible", msgid="amp.tools_dtype"),
    Mutant("amp_make_tools", "compares with torch.device('cuda'), missing 'cuda:0'",
           expect=r"make_amp_tools\('cuda:0'\) should choose torch\.float16, got torch\.bfloat16",
           code=("def make_amp_tools(device):\n"
                 '    if torch.device(device) == torch.device("cuda"):\n'
                 '        return torch.float16, torch.amp.GradScaler("cuda")\n'
                 "    return torch.bfloat16, torch.amp.GradScaler(torch.device(device).type, enabled=False)\n"), caught_by="visible", msgid="amp.tools_dtype"),
    Mutant("amp_make_tools", "a scaler made for the CPU on CUDA", expect=r"made for 'cuda', got one for 'cpu'",
           replace=[('torch.amp.GradScaler("cuda")', 'torch.amp.GradScaler("cpu")')], caught_by="visible", msgid="amp.tools_cuda_kind"),
    Mutant("amp_make_tools", "bfloat16 without a scaler everywhere",
           expect=r"should choose torch\.float16, got torch\.bfloat16",
           replace=[('return torch.float16, torch.amp.GradScaler("cuda")',
                     'return torch.bfloat16, torch.amp.GradScaler("cuda", enabled=False)')], caught_by="visible", msgid="amp.tools_dtype"),
    Mutant("amp_make_tools", "bfloat16 on CUDA (only Ampere and newer GPUs run it), scaler kept",
           expect=r"should choose torch\.float16, got torch\.bfloat16.*every CUDA GPU runs it",
           replace=[('return torch.float16, torch.amp.GradScaler("cuda")', 'return torch.bfloat16, torch.amp.GradScaler("cuda")')],
           caught_by="visible", msgid="amp.tools_dtype"),
    # Exercise 2: amp_train_step
    Mutant("amp_train_step", "autocast for 'cuda' on a CPU batch", expect=r"autocast for 'cpu' was off",
           replace=[("with torch.autocast(device_type, dtype=dtype):", 'with torch.autocast("cuda", dtype=dtype):')], caught_by="visible", msgid="amp.step_no_autocast"),
    Mutant("amp_train_step", "autocast device type hard-coded to 'cpu'",
           expect=r"autocast ran with device_type 'cpu', but the model and the data are on 'cuda'",
           replace=[("with torch.autocast(device_type, dtype=dtype):", 'with torch.autocast("cpu", dtype=dtype):')],
           caught_by="visible", msgid="placement.autocast_device"),
    Mutant("amp_train_step", "autocast switched on and off with the scaler", expect=r"autocast for 'cpu' was off",
           replace=[("with torch.autocast(device_type, dtype=dtype):",
                     "with torch.autocast(device_type, dtype=dtype, enabled=scaler.is_enabled()):")], caught_by="visible", msgid="amp.step_no_autocast"),
    Mutant("amp_train_step", "hard-coded bfloat16", expect=r"dtype was torch\.bfloat16, expected torch\.float16",
           replace=[("with torch.autocast(device_type, dtype=dtype):",
                     "with torch.autocast(device_type, dtype=torch.bfloat16):")], caught_by="visible", msgid="amp.step_autocast_dtype"),
    Mutant("amp_train_step", "casts the model to the low dtype", expect=r"weights should stay torch\.float32",
           replace=[("    optimizer.zero_grad()\n", "    model.to(dtype)\n    optimizer.zero_grad()\n")], caught_by="visible", msgid="amp.step_params_cast"),
    Mutant("amp_train_step", "backward on the unscaled loss", expect=r"backward\(\) ran on the unscaled loss",
           replace=[("scaler.scale(loss).backward()", "scaler.scale(loss)\n    loss.backward()")], caught_by="visible", msgid="amp.step_unscaled_backward"),
    Mutant("amp_train_step", "no scaler.scale at all", expect=r"scale\(\) was never called",
           replace=[("scaler.scale(loss).backward()", "loss.backward()")], caught_by="visible", msgid="amp.step_no_scale"),
    Mutant("amp_train_step", "forgets scaler.update()", expect=r"forget scaler\.update\(\)|scaler\.update\(\) was never called",
           replace=[("    scaler.update()\n", "")], caught_by="visible", msgid="amp.step_no_update_call"),
    Mutant("amp_train_step", "optimizer.step() instead of scaler.step(optimizer)",
           expect=r"scaler\.step\(optimizer\) was never called",
           replace=[("    scaler.step(optimizer)\n", "    optimizer.step()\n")], caught_by="visible", msgid="amp.step_no_scaler_step"),
    Mutant("amp_train_step", "clips the scaled gradients (no unscale_)", expect=r"clipped\s+the scaled gradients",
           replace=[("        scaler.unscale_(optimizer)\n", "")], caught_by="visible", msgid="amp.clip_scaled"),
    Mutant("amp_train_step", "clips before scaler.unscale_", expect=r"clipped\s+the scaled gradients",
           replace=[("        scaler.unscale_(optimizer)\n        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n",
                     "        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n        scaler.unscale_(optimizer)\n")], caught_by="visible", msgid="amp.clip_scaled"),
    Mutant("amp_train_step", "ignores max_norm", expect=r"they were not clipped",
           replace=[("        scaler.unscale_(optimizer)\n        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n",
                     "        scaler.unscale_(optimizer)\n")], caught_by="visible", msgid="amp.clip_not_applied"),
    Mutant("amp_train_step", "no optimizer.zero_grad()", expect=r"kept growing.*zero_grad",
           replace=[("    optimizer.zero_grad()\n", "")], caught_by="visible", msgid="amp.step_accumulated"),
    Mutant("amp_train_step", "returns the scaled loss", expect=r"that is the scaled loss",
           replace=[("return loss.item()", "return scaler.scale(loss).item()")], caught_by="visible", msgid="amp.step_return_scaled"),
    Mutant("amp_train_step", "returns the loss tensor", expect=r"as a Python float, got Tensor",
           replace=[("return loss.item()", "return loss")], caught_by="visible", msgid="amp.step_return_type"),
]
