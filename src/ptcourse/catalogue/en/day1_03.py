"""Messages of day1/03_modules."""

MESSAGES = {
    "modules.mlp_bias": "Each nn.Linear in MLP should keep its bias (the default, bias=True): yours has none.",
    "modules.no_super_init": (
        "Building the model failed with PyTorch's error \"{error}\". This means __init__ assigned "
        "a layer before calling super().__init__(): make super().__init__() the first line of "
        "__init__, it creates the dictionaries where nn.Module records its layers."
    ),
    "modules.mlp_no_params": (
        "MLP{sizes} has no registered parameters at all. Store each layer directly as an attribute "
        "(self.hidden = nn.Linear(...)); layers kept in a plain Python list or dict are invisible "
        "to nn.Module."
    ),
    "modules.mlp_param_count": (
        "MLP{sizes} should have {expected} parameters (in*hidden + hidden weights and biases, then "
        "hidden*out + out), got {got}. Check that the first layer is nn.Linear(in_features, hidden) "
        "and the second nn.Linear(hidden, out_features), with the sizes you were given."
    ),
    "modules.mlp_nonnegative": (
        "None of MLP(7, 13, 2)'s 128 outputs is negative: there is a ReLU after the last layer. "
        "Apply ReLU only between the two linear layers, so the outputs can take any value."
    ),
    "modules.mlp_layers": (
        "MLP({in_features}, {hidden}, {out_features}) should contain nn.Linear({in_features}, {hidden}) and "
        "nn.Linear({hidden}, {out_features}), in either order of definition (weights of shape "
        "({hidden}, {in_features}) and ({out_features}, {hidden})); its linear layers have weight shapes {got}."
    ),
    "modules.deep_plain_container": (
        "DeepMLP({sizes}) registers {got} parameter tensors, expected {expected} (a weight and a "
        "bias per layer). Its layers in self.{where} sit in a plain Python {kind}, which nn.Module "
        "does not look inside: layers in a plain Python list (or dict) are not registered, so "
        ".parameters() misses them, .to(device) does not move them and the optimizer never trains "
        "them. Wrap them: self.{where} = nn.ModuleList(...)."
    ),
    "modules.deep_tensor_count": (
        "DeepMLP({sizes}) registers {got} parameter tensors, expected {expected} (a weight and a "
        "bias for each of the len(sizes) - 1 layers). Store the layers in an nn.ModuleList."
    ),
    "modules.deep_nonnegative": (
        "None of DeepMLP({sizes})'s outputs is negative: a ReLU is applied after the last layer. "
        "Apply ReLU after every layer except the last."
    ),
    "modules.deep_layer_shapes": (
        "DeepMLP({sizes}) should have linear layers with weight shapes {expected} (one per pair of "
        "neighbouring sizes, in order), got {got}."
    ),
    "modules.std_buffer_is_param": (
        "self.{name} is an nn.Parameter, so the optimizer would change it during training. "
        "Statistics measured on the data are fixed: store it with "
        "self.register_buffer('{name}', {name})."
    ),
    "modules.std_plain_buffer": (
        "self.{name} is a plain tensor attribute, not a registered buffer: it is left out of "
        "state_dict() and not moved by .to(device). Store it with "
        "self.register_buffer('{name}', {name})."
    ),
    "modules.std_plain_param": (
        "self.{name} is a plain tensor, not a parameter: even with requires_grad=True it is not in "
        ".parameters(), so the optimizer would never train it. Wrap it: "
        "self.{name} = nn.Parameter(...)."
    ),
    "modules.std_missing": "Standardize has no {kind} called '{name}'.",
    "modules.std_state_keys": (
        "Standardize's state_dict() should hold exactly ['bias', 'gain', 'mean', 'std'], got {got}. "
        "A buffer registered with persistent=False is not saved: use the default persistent=True."
    ),
    "modules.std_trained": (
        "Only gain and bias should be trainable parameters of Standardize, got {got}."
    ),
    "modules.count_type": (
        "count_parameters() should return a Python int, got {got_type}. p.numel() is already an "
        "int, and sum() of ints is an int."
    ),
    "modules.count_tensors": (
        "count_parameters({what}) gave {got}, the number of parameter tensors. Count their "
        "elements instead: p.numel() for each tensor p."
    ),
    "modules.count": "count_parameters({what}) should be {expected}, got {got}.",
    "modules.count_buffers": (
        "count_parameters() on {what} should be {expected}, got {got}: you counted the buffers "
        "(BatchNorm's running_mean, running_var, num_batches_tracked) too. Iterate over "
        "model.parameters(), not model.state_dict()."
    ),
    "modules.count_frozen": (
        "count_parameters() on {what} should be {expected} with trainable_only=True, got {got}: "
        "the frozen parameters were counted. Skip the parameters with p.requires_grad == False."
    ),
    "modules.count_inverted": (
        "count_parameters() on {what} should be {expected} with trainable_only=False, got {got}: "
        "only the frozen parameters were counted. With trainable_only=False, count every parameter."
    ),
    "modules.clone_no_file": (
        "Nothing was written to path: clone_via_state_dict() must save model.state_dict() there "
        "with torch.save(model.state_dict(), path). A copy made in memory (copy.deepcopy, "
        "copy.copy, copying tensors) skips the file, and the file is what you keep and share."
    ),
    "modules.clone_file_not_state_dict": (
        "The file at path should hold model.state_dict() (a dict from names to tensors, with the "
        "model's keys); torch.load(path, weights_only=True) gave a {got} with keys {keys}. Save "
        "model.state_dict(), not one layer's or a list of tensors."
    ),
    "modules.clone_file_differs": (
        "The file at path holds a state_dict whose '{key}' differs from the model's: save the "
        "state of the model you were given, after it changed (not a fresh make_model())."
    ),
    "modules.clone_not_fresh": (
        "The model you returned was not built by make_model(): the clone must be a fresh "
        "make_model() with the loaded state_dict. copy.deepcopy(model) makes a copy in memory "
        "and skips loading entirely."
    ),
    "modules.clone_not_loaded": (
        "torch.load never read the file at path: the state you loaded into the fresh model came "
        "from memory (model.state_dict()), not from the file you saved. Read it back with "
        "torch.load(path, weights_only=True) and load that."
    ),
    "modules.clone_weights_only": (
        "You loaded the file with weights_only=False, which lets a file run any code it names "
        "while loading. A state_dict holds only tensors: load it with weights_only=True."
    ),
    "modules.clone_whole_model": (
        "torch.load(weights_only=True) refused the data: you saved the whole model object. "
        "weights_only=True only loads tensors and plain containers: save model.state_dict()."
    ),
    "modules.clone_same_object": (
        "clone_via_state_dict() returned the model it was given, not a new one: build a fresh "
        "model with make_model() and load the state into it."
    ),
    "modules.clone_state_differs": (
        "The clone's state_dict()['{key}'] differs from the original's. Did you call "
        "fresh.load_state_dict(state) on the model you return? (state_dict holds the buffers too, "
        "such as BatchNorm's running statistics.)"
    ),
    "modules.clone_shared": (
        "The clone shares tensors with the original ({keys}): changing one changes the other. "
        "Copy the state through torch.save/torch.load into a model built by make_model(), "
        "instead of copying references (copy.copy, load_state_dict(..., assign=True))."
    ),
    "modules.predict_random": (
        "Two calls of predict() on the same input gave different outputs: dropout is still "
        "active. Switch the model to eval mode with model.eval() (with the brackets) before the "
        "forward pass."
    ),
    "modules.predict_grad": (
        "predict()'s output has requires_grad=True: autograd recorded a graph for nothing. Run "
        "the forward pass inside `with torch.no_grad():`."
    ),
    "modules.predict_graph_built": (
        "predict() ran the model with autograd on ({calls} forward calls): the graph was recorded and "
        "then thrown away, which costs memory and time (.detach() drops it only afterwards). Run the "
        "forward pass inside `with torch.no_grad():`."
    ),
    "modules.predict_left_eval": (
        "The model was in training mode before predict(), and predict() left it in eval mode. "
        "Remember model.training at the start and restore it with model.train(was_training)."
    ),
    "modules.predict_bn_stats": (
        "predict() changed BatchNorm's running_mean: the forward pass ran in training mode. "
        "Call model.eval() before it."
    ),
    "modules.predict_left_train": (
        "The model was in eval mode before predict(), and predict() switched it to training "
        "mode. Restore the mode it had (model.train(was_training)) instead of always calling "
        "model.train()."
    ),
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "modules.demo_hook_saw": "the hook saw {seen} of the 2 calls",
    "modules.demo_grad_of": "grad of {name}:",
    "modules.demo_parameters_found": "parameters found:",
    "modules.demo_forward_works": "forward still works:",
    "modules.demo_still": "after .to(float64) the layers are still",
    "modules.demo_lives_on": "layer 0 lives on",
    "modules.demo_parameters": "parameters:",
    "modules.demo_buffers": "buffers:   ",
    "modules.demo_bytes_on_disk": "bytes on disk:",
    "modules.demo_read_back": "read back:",
    "modules.demo_refuses": "weights_only=True refuses it:",
    "modules.demo_train_mode": "train mode:",
    "modules.demo_eval_mode": "eval mode: ",
    "modules.demo_bn_train": "BatchNorm, train mode, batch of 1:",
    "modules.demo_bn_eval": "BatchNorm, eval mode, batch of 1:",
    "modules.word_buffer": "buffer",
    "modules.label_partly_frozen": "a model whose first nn.Linear(20, 30) is frozen, with nn.BatchNorm1d(30)",
    "modules.demo_sgd_step": "SGD step == p - lr * p.grad:",
}
