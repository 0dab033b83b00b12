"""Wrong answers for day3/01_devices."""

from tools.mutants import Mutant

MUTANTS = [
    # Exercise 1: move_to
    Mutant("devices_move_to", "only top-level tensors moved",
           expect=r"\['masks'\]\[0\]` should be on 'meta'",
           code=("def move_to(batch, device):\n"
                 "    if isinstance(batch, torch.Tensor):\n"
                 "        return batch.to(device)\n"
                 "    if isinstance(batch, dict):\n"
                 "        return {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in batch.items()}\n"
                 "    if isinstance(batch, (list, tuple)):\n"
                 "        return type(batch)(v.to(device) if isinstance(v, torch.Tensor) else v for v in batch)\n"
                 "    return batch\n"), caught_by="visible", msgid="devices.move_not_moved"),
    Mutant("devices_move_to", "dict values skipped", expect=r"`batch\['images'\]` should be on 'meta'",
           replace=[("return {key: move_to(value, device) for key, value in batch.items()}", "return batch")], caught_by="visible", msgid="devices.move_not_moved"),
    Mutant("devices_move_to", "tuples turned into lists", expect=r"was a tuple but move_to\(\) returned a list",
           replace=[("if isinstance(batch, list):", "if isinstance(batch, (list, tuple)):")], caught_by="visible", msgid="devices.move_type"),
    Mutant("devices_move_to", "non-tensor values dropped", expect=r"keep every key|were values that are not tensors dropped",
           code=("KEEP = (torch.Tensor, dict, list, tuple)\n\n\n"
                 "def move_to(batch, device):\n"
                 "    if isinstance(batch, torch.Tensor):\n"
                 "        return batch.to(device)\n"
                 "    if isinstance(batch, dict):\n"
                 "        return {k: move_to(v, device) for k, v in batch.items() if isinstance(v, KEEP)}\n"
                 "    if isinstance(batch, list):\n"
                 "        return [move_to(v, device) for v in batch if isinstance(v, KEEP)]\n"
                 "    if isinstance(batch, tuple):\n"
                 "        return tuple(move_to(v, device) for v in batch if isinstance(v, KEEP))\n"
                 "    return batch\n"), caught_by="visible", msgid="devices.move_keys"),
    Mutant("devices_move_to", "modifies the containers in place", expect=r"modified in place|batch given to the function was changed",
           code=("def move_to(batch, device):\n"
                 "    if isinstance(batch, torch.Tensor):\n"
                 "        return batch.to(device)\n"
                 "    if isinstance(batch, dict):\n"
                 "        for key in batch:\n"
                 "            batch[key] = move_to(batch[key], device)\n"
                 "        return batch\n"
                 "    if isinstance(batch, list):\n"
                 "        for i, item in enumerate(batch):\n"
                 "            batch[i] = move_to(item, device)\n"
                 "        return batch\n"
                 "    if isinstance(batch, tuple):\n"
                 "        return tuple(move_to(item, device) for item in batch)\n"
                 "    return batch\n"), caught_by="hidden", msgid="devices.move_same_object"),
    Mutant("devices_move_to", "result of tensor.to() ignored", expect=r"use the result of tensor\.to\(device\)",
           replace=[("        return batch.to(device)\n", "        batch.to(device)\n        return batch\n")], caught_by="visible", msgid="devices.move_not_moved"),
    # Exercise 2: place
    Mutant("devices_place", "forgets the model", expect=r"did you forget to move the model",
           replace=[("    model = model.to(device)\n", "")], caught_by="visible", msgid="devices.place_param"),
    Mutant("devices_place", "batch not moved", expect=r"batch returned by place\(\) is not on the device",
           replace=[("return model, move_to(batch, device)", "return model, batch")], caught_by="visible", msgid="devices.place_batch"),
    Mutant("devices_place", "hard-coded .cuda()", expect=r"place\(\) raised|is on 'cuda",
           replace=[("model = model.to(device)", "model = model.cuda()")], caught_by="visible", msgid="devices.place_raised"),
    Mutant("devices_place", "moves only top-level batch tensors", expect=r"place\(\) raised.*nested in tuples",
           replace=[("return model, move_to(batch, device)", "return model, [t.to(device) for t in batch]")], caught_by="visible", msgid="devices.place_raised"),
    Mutant("devices_place", "returns (batch, model)", expect=r"should return the model first",
           replace=[("return model, move_to(batch, device)", "return move_to(batch, device), model")], caught_by="visible", msgid="devices.place_model_type"),
    Mutant("devices_place", "moves the child modules only (the model's own buffer stays behind)", expect=r"Buffer `offset`",
           replace=[("    model = model.to(device)\n", "    for child in model.children():\n        child.to(device)\n")],
           caught_by="visible", msgid="devices.place_buffer"),
    # Exercise 3: devices_used
    Mutant("devices_devices_used", "looks at the first parameter only", expect=r"not only the first",
           replace=[("found = {p.device for p in model.parameters()} | {b.device for b in model.buffers()}",
                     "found = {next(model.parameters()).device}")], caught_by="visible", msgid="devices.used_value"),
    Mutant("devices_devices_used", "ignores buffers", expect=r"include model\.buffers\(\)",
           replace=[(" | {b.device for b in model.buffers()}", "")], caught_by="visible", msgid="devices.used_buffers"),
    Mutant("devices_devices_used", "device names as strings", expect=r"set of torch\.device objects",
           replace=[("{p.device for p in model.parameters()} | {b.device for b in model.buffers()}",
                     "{str(p.device) for p in model.parameters()} | {str(b.device) for b in model.buffers()}"),
                    ("found.add(obj.device)", "found.add(str(obj.device))")], caught_by="visible", msgid="devices.used_elements"),
    Mutant("devices_devices_used", "top-level batch tensors only", expect=r"walk the batch recursively",
           code=("def devices_used(model, batch):\n"
                 "    found = {p.device for p in model.parameters()} | {b.device for b in model.buffers()}\n"
                 "    items = batch.values() if isinstance(batch, dict) else batch\n"
                 "    if isinstance(batch, torch.Tensor):\n"
                 "        items = [batch]\n"
                 "    for item in items:\n"
                 "        if isinstance(item, torch.Tensor):\n"
                 "            found.add(item.device)\n"
                 "    return found\n"), caught_by="hidden", msgid="devices.used_nested"),
    Mutant("devices_devices_used", "returns a list", expect=r"should return a set, got list",
           replace=[("    return found\n", "    return list(found)\n")], caught_by="visible", msgid="devices.used_type"),
]
