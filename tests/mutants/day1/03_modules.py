"""Wrong answers for day1/03_modules."""

from tools.mutants import Mutant

MLP_FORWARD = "return self.out(self.act(self.hidden(x)))"
DEEP_LOOP = "        for layer in self.layers[:-1]:\n            x = torch.relu(layer(x))\n        return self.layers[-1](x)\n"

MUTANTS = [
    # Exercise 1: MLP
    Mutant("modules_mlp", "forgot super().__init__()", expect=r"super\(\)\.__init__\(\) the first line",
           replace=[("        super().__init__()\n", "")], caught_by="visible", msgid="modules.no_super_init"),
    Mutant("modules_mlp", "ReLU after the last layer", expect=r"none of MLP.*is negative",
           replace=[(MLP_FORWARD, "return self.act(self.out(self.act(self.hidden(x))))")], caught_by="visible", msgid="modules.mlp_nonnegative"),
    Mutant("modules_mlp", "hidden size hard-coded to 64", expect=r"should have (67|325) parameters.*got (515|1029)",
           replace=[("nn.Linear(in_features, hidden)", "nn.Linear(in_features, 64)"),
                    ("nn.Linear(hidden, out_features)", "nn.Linear(64, out_features)")], caught_by="visible", msgid="modules.mlp_param_count"),
    Mutant("modules_mlp", "no ReLU at all", expect=r"MLP\((7, 13, 2|4, 8, 3)\)\(x\)` has the right shape but wrong values",
           replace=[(MLP_FORWARD, "return self.out(self.hidden(x))")], caught_by="visible", msgid="check.values"),
    Mutant("modules_mlp", "sigmoid instead of ReLU", expect=r"right shape but wrong values",
           replace=[("self.act = nn.ReLU()", "self.act = nn.Sigmoid()")], caught_by="visible", msgid="check.values"),
    Mutant("modules_mlp", "layers in a plain list", expect=r"no registered parameters at all",
           code=("class MLP(nn.Module):\n"
                 "    def __init__(self, in_features, hidden, out_features):\n"
                 "        super().__init__()\n"
                 "        self.layers = [nn.Linear(in_features, hidden), nn.ReLU(), nn.Linear(hidden, out_features)]\n"
                 "\n"
                 "    def forward(self, x):\n"
                 "        for layer in self.layers:\n"
                 "            x = layer(x)\n"
                 "        return x\n"), caught_by="visible", msgid="modules.mlp_no_params"),
    # Exercise 2: DeepMLP
    # issue 23: more wrong answers
    Mutant("modules_mlp", "linear layers without bias", expect=r"MLP\(4, 8, 3\)",
           replace=[("nn.Linear(in_features, hidden)", "nn.Linear(in_features, hidden, bias=False)"),
                    ("nn.Linear(hidden, out_features)", "nn.Linear(hidden, out_features, bias=False)")],
           caught_by="visible", msgid="modules.mlp_param_count"),
    Mutant("modules_deep_mlp", "always three layers (fits only the example's four sizes)", expect=r"\[5, 9, 7, 4, 2\]",
           replace=[("for i in range(len(sizes) - 1)]", "for i in range(3)]")], caught_by="hidden", msgid="modules.deep_layer_shapes"),
    Mutant("modules_standardize", "forward forgets gain and bias", expect=r"Standardize\(mean, std\)\(x\)",
           replace=[("return (x - self.mean) / self.std * self.gain + self.bias", "return (x - self.mean) / self.std")],
           caught_by="hidden", msgid="check.values"),
    Mutant("modules_deep_mlp", "layers in a plain Python list",
           expect=r"plain Python list.*not registered.*nn\.ModuleList",
           replace=[("self.layers = nn.ModuleList(layers)", "self.layers = layers")], caught_by="visible", msgid="modules.deep_plain_container"),
    Mutant("modules_deep_mlp", "layers in a plain dict", expect=r"self\.layers sit in a plain Python dict",
           code=("class DeepMLP(nn.Module):\n"
                 "    def __init__(self, sizes):\n"
                 "        super().__init__()\n"
                 "        self.layers = {f'fc{i}': nn.Linear(sizes[i], sizes[i + 1]) for i in range(len(sizes) - 1)}\n"
                 "\n"
                 "    def forward(self, x):\n"
                 "        layers = list(self.layers.values())\n"
                 "        for layer in layers[:-1]:\n"
                 "            x = torch.relu(layer(x))\n"
                 "        return layers[-1](x)\n"), caught_by="visible", msgid="modules.deep_plain_container"),
    Mutant("modules_deep_mlp", "one layer too few", expect=r"registers 4 parameter tensors, expected 6",
           replace=[("range(len(sizes) - 1)", "range(len(sizes) - 2)")], caught_by="visible", msgid="modules.deep_tensor_count"),
    Mutant("modules_deep_mlp", "ReLU after the last layer too", expect=r"ReLU is applied after the last layer",
           replace=[(DEEP_LOOP, "        for layer in self.layers:\n            x = torch.relu(layer(x))\n        return x\n")], caught_by="visible", msgid="modules.deep_nonnegative"),
    Mutant("modules_deep_mlp", "no ReLU between layers", expect=r"DeepMLP\(\[(5, 9, 7, 4, 2|6, 16, 16, 3)\]\)\(x\)` has the right shape but wrong values",
           replace=[("x = torch.relu(layer(x))", "x = layer(x)")], caught_by="visible", msgid="check.values"),
    # Exercise 3: Standardize
    Mutant("modules_standardize", "statistics as plain tensor attributes", expect=r"self\.mean is a plain tensor attribute",
           replace=[('self.register_buffer("mean", mean)', "self.mean = mean"),
                    ('self.register_buffer("std", std)', "self.std = std")], caught_by="visible", msgid="modules.std_plain_buffer"),
    Mutant("modules_standardize", "statistics as nn.Parameter", expect=r"self\.mean is an nn\.Parameter.*register_buffer",
           replace=[('self.register_buffer("mean", mean)', "self.mean = nn.Parameter(mean)"),
                    ('self.register_buffer("std", std)', "self.std = nn.Parameter(std)")], caught_by="visible", msgid="modules.std_buffer_is_param"),
    Mutant("modules_standardize", "gain and bias as tensors with requires_grad", expect=r"self\.gain is a plain tensor, not a parameter",
           replace=[("nn.Parameter(torch.ones_like(mean))", "torch.ones_like(mean).requires_grad_()"),
                    ("nn.Parameter(torch.zeros_like(mean))", "torch.zeros_like(mean).requires_grad_()")], caught_by="visible", msgid="modules.std_plain_param"),
    Mutant("modules_standardize", "non-persistent buffers", expect=r"persistent=False is not saved",
           replace=[('self.register_buffer("mean", mean)', 'self.register_buffer("mean", mean, persistent=False)'),
                    ('self.register_buffer("std", std)', 'self.register_buffer("std", std, persistent=False)')], caught_by="visible", msgid="modules.std_state_keys"),
    Mutant("modules_standardize", "multiplies by std instead of dividing", expect=r"Standardize\(mean, std\)\(x\)` has the right shape but wrong values",
           replace=[("(x - self.mean) / self.std", "(x - self.mean) * self.std")], caught_by="hidden", msgid="check.values"),
    # Exercise 4: count_parameters
    Mutant("modules_count_parameters", "counts tensors, not elements", expect=r"the number of parameter tensors",
           replace=[("sum(p.numel() for p", "sum(1 for p")], caught_by="visible", msgid="modules.count_tensors"),
    Mutant("modules_count_parameters", "ignores requires_grad", expect=r"the frozen parameters were counted",
           code="def count_parameters(model, trainable_only=True):\n    return sum(p.numel() for p in model.parameters())\n", caught_by="hidden", msgid="modules.count_frozen"),
    Mutant("modules_count_parameters", "counts the state_dict (buffers included)", expect=r"you counted the buffers",
           code=("def count_parameters(model, trainable_only=True):\n"
                 "    return sum(t.numel() for t in model.state_dict().values())\n"), caught_by="hidden", msgid="modules.count_buffers"),
    Mutant("modules_count_parameters", "filter inverted for trainable_only=False", expect=r"only the frozen parameters were counted",
           replace=[("if p.requires_grad or not trainable_only", "if p.requires_grad == trainable_only")], caught_by="hidden", msgid="modules.count_inverted"),
    Mutant("modules_count_parameters", "counts rows with p.shape[0]", expect=r"should be 100480, got 256",
           replace=[("p.numel()", "p.shape[0]")], caught_by="visible", msgid="modules.count"),
    Mutant("modules_count_parameters", "returns a tensor", expect=r"should return a Python int, got Tensor",
           replace=[("return sum(", "return torch.tensor(sum("), ("trainable_only)\n", "trainable_only))\n")], caught_by="visible", msgid="modules.count_type"),
    # Exercise 5: clone_via_state_dict
    Mutant("modules_clone", "returns the same model", expect=r"returned the model it was given",
           code="def clone_via_state_dict(model, make_model, path):\n    return model\n", caught_by="visible", msgid="modules.clone_same_object"),
    Mutant("modules_clone", "copy.deepcopy: no file, no loading", expect=r"Nothing was written to path.*deepcopy",
           code=("import copy\n\n\ndef clone_via_state_dict(model, make_model, path):\n"
                 "    return copy.deepcopy(model)\n"), caught_by="visible", msgid="modules.clone_no_file"),
    Mutant("modules_clone", "saves the file, then returns copy.deepcopy(model)",
           expect=r"not built by make_model\(\).*deepcopy",
           code=("import copy\n\n\ndef clone_via_state_dict(model, make_model, path):\n"
                 "    torch.save(model.state_dict(), path)\n"
                 "    return copy.deepcopy(model)\n"), caught_by="visible", msgid="modules.clone_not_fresh"),
    Mutant("modules_clone", "saves, then loads the state from memory, not from the file",
           expect=r"torch\.load never read the file",
           replace=[("state = torch.load(path, weights_only=True)", "state = model.state_dict()")], caught_by="visible", msgid="modules.clone_not_loaded"),
    Mutant("modules_clone", "loads with weights_only=False", expect=r"weights_only=False",
           replace=[("weights_only=True", "weights_only=False")], caught_by="visible", msgid="modules.clone_weights_only"),
    Mutant("modules_clone", "forgets load_state_dict", expect=r"differs from the original's.*load_state_dict",
           replace=[("    fresh.load_state_dict(state)\n", "")], caught_by="visible", msgid="modules.clone_state_differs"),
    Mutant("modules_clone", "saves the whole model", expect=r"you saved the whole model object",
           replace=[("torch.save(model.state_dict(), path)", "torch.save(model, path)")], caught_by="visible", msgid="modules.clone_whole_model"),
    Mutant("modules_clone", "saves a fresh model's state, not the given one's", expect=r"differs from the model's",
           replace=[("torch.save(model.state_dict(), path)", "torch.save(make_model().state_dict(), path)")], caught_by="visible", msgid="modules.clone_file_differs"),
    Mutant("modules_clone", "shallow copy.copy", expect=r"Nothing was written to path",
           code="import copy\n\n\ndef clone_via_state_dict(model, make_model, path):\n    return copy.copy(model)\n", caught_by="visible", msgid="modules.clone_no_file"),
    Mutant("modules_clone", "saves, then load_state_dict(assign=True) from memory", expect=r"shares tensors with the original",
           code=("def clone_via_state_dict(model, make_model, path):\n"
                 "    torch.save(model.state_dict(), path)\n"
                 "    torch.load(path, weights_only=True)\n"
                 "    fresh = make_model()\n"
                 "    fresh.load_state_dict(model.state_dict(), assign=True)\n"
                 "    return fresh\n"), caught_by="hidden", msgid="modules.clone_shared"),
    Mutant("modules_clone", "copies only the parameters", expect=r"state_dict\(\)\['1\.running_mean'\] differs",
           code=("def clone_via_state_dict(model, make_model, path):\n"
                 "    torch.save(model.state_dict(), path)\n"
                 "    state = torch.load(path, weights_only=True)\n"
                 "    fresh = make_model()\n"
                 "    with torch.no_grad():\n"
                 "        for name, p in fresh.named_parameters():\n"
                 "            p.copy_(state[name])\n"
                 "    return fresh\n"), caught_by="visible", msgid="modules.clone_state_differs"),
    # Exercise 6: predict
    Mutant("modules_predict", "forgets eval()", expect=r"dropout is still active",
           replace=[("    model.eval()\n", "")], caught_by="visible", msgid="modules.predict_random"),
    Mutant("modules_predict", "model.eval without the brackets", expect=r"dropout is still active",
           replace=[("    model.eval()\n", "    model.eval\n")], caught_by="visible", msgid="modules.predict_random"),
    Mutant("modules_predict", "forgets no_grad", expect=r"requires_grad=True.*torch\.no_grad",
           replace=[("    with torch.no_grad():\n        out = model(x)\n", "    out = model(x)\n")], caught_by="visible", msgid="modules.predict_grad"),
    Mutant("modules_predict", "detach() instead of no_grad() (the graph is still built)", expect=r"autograd on \(2 forward calls\)",
           replace=[("    with torch.no_grad():\n        out = model(x)\n", "    out = model(x).detach()\n")],
           caught_by="visible", msgid="modules.predict_graph_built"),
    Mutant("modules_predict", "never restores the mode", expect=r"left it in eval mode",
           replace=[("    model.train(was_training)\n", "")], caught_by="visible", msgid="modules.predict_left_eval"),
    Mutant("modules_predict", "always switches back to train()", expect=r"switched it to training mode",
           replace=[("model.train(was_training)", "model.train()")], caught_by="visible", msgid="modules.predict_left_train"),
]
