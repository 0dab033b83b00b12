"""Messages of day3/06_export."""

MESSAGES = {
    # Exercise 1: predict
    "export.predict_random": (
        "predict() gave different outputs for the same input twice (largest difference {diff:.3g}): "
        "dropout is still active. Call model.eval() (with the brackets) before the forward pass."
    ),
    "export.predict_grad": (
        "The output of predict() has requires_grad=True: autograd recorded the forward pass. Run it "
        "inside `with torch.inference_mode():`."
    ),
    "export.predict_not_inference": (
        "The output of predict() was not computed inside torch.inference_mode() (tensor.is_inference() "
        "is False). torch.no_grad() also stops gradients, but for outputs that are only read, "
        "inference_mode also skips autograd's bookkeeping: use `with torch.inference_mode():`."
    ),
    "export.predict_single_sample": (
        "predict() on a single sample raised {error}. BatchNorm in training mode computes the statistics "
        "of the batch, which a batch of one does not have: call model.eval() first."
    ),
    "export.predict_updated_stats": (
        "predict() changed BatchNorm's running_mean: the forward pass ran in training mode, which updates "
        "the running statistics even without gradients. Call model.eval() first."
    ),
    # Exercise 2: export_program
    "export.ep_raised": (
        "export_program() raised {error}. Call torch.export.export(model, (example,), "
        "dynamic_shapes=({{0: batch}},)): the example inputs go in a tuple, and dynamic_shapes has one "
        "entry per input, here a dictionary marking dimension 0 (the batch) with a torch.export.Dim."
    ),
    "export.ep_type": (
        "export_program() should return the ExportedProgram that torch.export.export gives, got {got_type}. "
        "Return the program itself; .module() is for running it."
    ),
    "export.ep_fixed_batch": (
        "The exported program refused a batch of {batch} ({error}): it only accepts the example's batch "
        "size {example_batch}. Mark the batch dimension as dynamic: "
        "dynamic_shapes=({{0: torch.export.Dim('batch')}},)."
    ),
    "export.ep_differs": (
        "For a batch of {batch}, program.module()(x) differs from the model in evaluation mode by {diff:.3g}. "
        "The graph was probably captured in training mode (dropout active, BatchNorm on batch statistics): "
        "call model.eval() before torch.export.export, because an exported program cannot be switched "
        "to eval() afterwards."
    ),
    # Exercise 3: export_onnx
    "export.onnx_raised": (
        "export_onnx() raised {error}. Call torch.onnx.export(model, (example,), path, dynamo=True, "
        "input_names=[...], output_names=[...], dynamic_shapes=...) with the example in a tuple."
    ),
    "export.onnx_warned": (
        "torch.onnx.export warned while exporting: {warnings}. Put the model in evaluation mode first "
        "(model.eval()), and mark the batch with dynamic_shapes=({{0: torch.export.Dim('batch')}},), not "
        "with the old dynamic_axes."
    ),
    "export.onnx_train_mode": (
        "After export_onnx() the model is still in training mode: call model.eval() before exporting."
    ),
    "export.onnx_no_file": "export_onnx() wrote no file at {path}: pass path to torch.onnx.export.",
    "export.onnx_input_names": (
        "The ONNX file's inputs are named {got}, expected ['features']: pass input_names=['features'] "
        "to torch.onnx.export."
    ),
    "export.onnx_output_names": (
        "The ONNX file's outputs are named {got}, expected ['logits']: pass output_names=['logits'] "
        "to torch.onnx.export."
    ),
    "export.onnx_fixed_batch": (
        "ONNX Runtime refused a batch of {batch} ({error}): the file only accepts the example's batch size "
        "{example_batch}. Export with dynamic_shapes=({{0: torch.export.Dim('batch')}},) to make the batch "
        "dimension dynamic."
    ),
    "export.onnx_differs": (
        "For a batch of {batch}, ONNX Runtime's output differs from the model in evaluation mode by "
        "{diff:.3g} (more than 1e-4). Export the model itself, in evaluation mode, with the example input."
    ),
    # Exercise 4: onnx_matches_eager
    "export.compare_raised": (
        "onnx_matches_eager() raised {error}. ONNX Runtime's session.run(None, {{name: array}}) takes a "
        "dictionary from the input's name, read with session.get_inputs()[0].name, to a NumPy float32 "
        "array, x.detach().cpu().numpy(); it returns a list of arrays, one per output."
    ),
    "export.compare_type": (
        "onnx_matches_eager() should return True or False, got {got_type}: compare the largest difference "
        "with atol, e.g. bool(np.abs(got - expected).max() <= atol)."
    ),
    "export.compare_false_negative": (
        "onnx_matches_eager() said False for a faithful export. The model you are given is in training "
        "mode: call model.eval() before computing the eager reference (dropout changes it otherwise), "
        "and compare ONNX Runtime's first output, session.run(...)[0], with it."
    ),
    "export.compare_false_positive": (
        "onnx_matches_eager() said True for a file whose outputs differ by {delta} everywhere, with "
        "atol={atol}. Compare the largest absolute difference with the atol argument."
    ),
    "export.compare_one_output": (
        "onnx_matches_eager(..., atol={atol}) should say False for a file whose outputs are exact except one, "
        "off by {delta} (of {outputs} outputs per sample): that export is wrong, yet the average gap is below "
        "atol. Bound the largest absolute difference over every output of every sample, not the mean or the "
        "predicted class."
    ),
    "export.compare_atol": (
        "For a file whose outputs differ by {delta}, onnx_matches_eager(..., atol={atol}) should be "
        "{expected}, got {got}: use the atol you are given (largest difference <= atol), not a fixed number."
    ),
    # Section 6: the latency figure
    "export.fig_latency_title": "Inference latency of the digit classifier ({threads} CPU thread(s))",
    "export.fig_latency_xlabel": "batch size (images per call, log scale)",
    "export.fig_latency_ylabel": "median time per call, ms (log scale)",
    "export.fig_latency_guide": "proportional to the batch size",
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "export.demo_trained": "trained in {seconds:.1f} s; accuracy on the 1,000 test digits: {accuracy:.1%}",
    "export.demo_train_mode_diff": "training mode, same input twice, largest difference:",
    "export.demo_running_mean": "running mean changed by predicting:",
    "export.demo_single_image": "a single image in training mode:",
    "export.demo_eval_mode_diff": "evaluation mode, same input twice, largest difference:",
    "export.demo_in_training_later": "using it in training later:",
    "export.demo_clone": "a clone is an ordinary tensor again:",
    "export.demo_operations": "operations:",
    "export.demo_inputs": "inputs:",
    "export.demo_same_as_eager": "same as eager:",
    "export.demo_batch_of_7": "a batch of 7:",
    "export.demo_input_shape": "shape of the input in the graph:",
    "export.demo_batch_range": "range of the batch symbol:",
    "export.demo_output_shape": "batch {size:2}: output shape {shape}",
    "export.demo_written": "written:",
    "export.demo_operators": "operators:",
    "export.demo_recorded": "recorded {category}: {text}",
    "export.demo_dtype_table_header": "dtype           largest diff  relative  same class  accuracy  ms (batch 64)",
    "export.demo_folder": "exported files of this notebook go to",
    "export.demo_files_for_tests": "files for the tests of Exercise 4:",
}
