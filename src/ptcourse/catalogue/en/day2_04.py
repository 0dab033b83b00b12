"""Messages of day2/04_checkpoints."""

MESSAGES = {
    "ckpt.no_file": "save_checkpoint() did not write a file at {path}: call torch.save(checkpoint, path).",
    "ckpt.map_location": (
        "load_checkpoint() could not load a checkpoint written on a GPU machine ({error}). Its "
        "tensors go back to the device they were saved from unless you say otherwise: load with "
        "torch.load(path, map_location=\"cpu\", weights_only=True)."
    ),
    "ckpt.not_weights_only": (
        "The checkpoint cannot be loaded with weights_only=True ({reason}). Save state_dict()s "
        "(plain tensors), not the model or optimizer objects themselves."
    ),
    "ckpt.keys": (
        "The checkpoint is missing the key(s) {missing}. To resume exactly it needs 'epoch', "
        "'model', 'optimizer', 'scheduler' and 'generator' (the state of the shuffling generator)."
    ),
    "ckpt.saved_epoch": (
        "The checkpoint stores epoch {got}, but save_checkpoint() was given epoch={expected}: store the "
        "epoch just finished as it is, and add one only when loading."
    ),
    "ckpt.next_epoch": (
        "load_checkpoint() should return the next epoch to run, {expected} (the saved epoch {saved} "
        "plus one), got {got}. Returning the saved epoch repeats an epoch that was already trained."
    ),
    "ckpt.model_not_restored": (
        "After load_checkpoint(), the model's '{name}' differs from the saved one: call "
        "model.load_state_dict(checkpoint['model'])."
    ),
    "ckpt.optimizer_state": (
        "After load_checkpoint(), the optimizer's {what} is missing or differs from the saved one. "
        "Adam and SGD with momentum keep running averages of the gradients: save "
        "optimizer.state_dict() and restore it with optimizer.load_state_dict(...)."
    ),
    "ckpt.scheduler_state": (
        "After load_checkpoint(), the scheduler is at last_epoch={got} instead of {expected}: the "
        "learning-rate schedule starts again. Save scheduler.state_dict() and restore it with "
        "scheduler.load_state_dict(...)."
    ),
    "ckpt.generator_state": (
        "After load_checkpoint(), the data-shuffling generator is not in its saved state, so the "
        "resumed epochs see the batches in a different order. Save generator.get_state() and "
        "restore it with generator.set_state(...)."
    ),
    "ckpt.resume_differs": (
        "The resumed run ends with a different '{name}' than the uninterrupted one (largest "
        "difference {diff:.3g}). Something that changes during training is not saved or not restored."
    ),
    "ckpt.best_flags": (
        "With mode='{mode}' and metrics {metrics}, update() should return {expected} (True only when "
        "the metric is strictly better: lower for 'min', higher for 'max'), got {got}."
    ),
    "ckpt.best_attrs": (
        "With mode='{mode}', after the loop best should be {expected_best} from epoch {expected_epoch}, "
        "got best={got_best} from epoch {got_epoch}."
    ),
    "ckpt.best_file": (
        "With mode='{mode}', the best checkpoint on disk should be epoch {expected}'s, got epoch "
        "{got}'s. Save only when the metric improves, and save model.state_dict() at that moment."
    ),
    "ckpt.best_bad_mode": "BestKeeper(path, mode='lowest') should raise ValueError: only 'min' and 'max' make sense.",
    "ckpt.config_refused": (
        "load_config_checkpoint() refused a checkpoint whose only unusual object is a TrainConfig: "
        "allow it with `with torch.serialization.safe_globals([TrainConfig]):` around torch.load."
    ),
    "ckpt.config_value": "load_config_checkpoint(path)['config'] should be {expected}, got {got}.",
    "ckpt.intruder_loaded": (
        "load_config_checkpoint() loaded a checkpoint that also contains an object of type {name}, "
        "which is not on the allow-list. Keep weights_only=True, allow only TrainConfig, and never fall back to "
        "weights_only=False: let the UnpicklingError through."
    ),
    "ckpt.allowlist_leaked": (
        "After load_config_checkpoint() returned, TrainConfig is still on the global allow-list, so "
        "every torch.load in the program now accepts it. Use the context manager "
        "torch.serialization.safe_globals([...]) instead of add_safe_globals."
    ),
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "ckpt.demo_same_outputs": "same outputs after loading:",
    "ckpt.demo_refuses": "weights_only=True refuses it:",
    "ckpt.demo_after_refactor": "after the refactor:",
    "ckpt.demo_largest_difference": "largest weight difference from the uninterrupted run: {gap:.2e}",
    "ckpt.demo_lr_now": "learning rate now: {lr} | optimizer state entries: {entries}",
    "ckpt.demo_epoch": "epoch {epoch:2}  train {train:.4f}  val {val:.4f}  {saved}",
    "ckpt.demo_saved": "saved",
    "ckpt.demo_kept": "kept: validation loss {best:.4f} from epoch {epoch}; last epoch's was {last:.4f}",
    "ckpt.demo_refused": "refused:",
    "ckpt.demo_folder": "checkpoints of this notebook go to",
}
