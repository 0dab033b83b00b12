"""Messages of day3/05_distributed."""

MESSAGES = {
    # Exercise 1: ddp_settings
    "ddp.settings_default": (
        "Without torchrun's variables (a plain `python train.py`), ddp_settings({{}}) should describe a "
        "single process (rank 0, local_rank 0, world_size 1), but it raised {error}. Read them with "
        "defaults: int(env.get('RANK', 0)), and so on."
    ),
    "ddp.settings_keys": "ddp_settings() is missing the key(s) {missing}.",
    "ddp.settings_int": (
        "ddp_settings(env)['{key}'] should be the int {expected}, got {got!r} ({got_type}). "
        "Environment variables are always strings: convert them with int(...)."
    ),
    "ddp.settings_value": "With env={env}, ddp_settings(env)['{key}'] should be {expected!r}, got {got!r}.",
    "ddp.settings_backend": (
        "With CUDA available={cuda}, the backend should be '{expected}', got '{got}': NCCL for NVIDIA "
        "GPUs, Gloo for CPUs."
    ),
    "ddp.settings_device_type": (
        "ddp_settings(env)['device'] should be a torch.device, got {got_type}: for example "
        "torch.device('cuda', local_rank)."
    ),
    "ddp.settings_gpu": (
        "With env={env} and CUDA available, the device should be {expected}, got {got}. Each process "
        "drives the GPU numbered LOCAL_RANK on its own machine; RANK counts the processes of all "
        "machines, so cuda:RANK does not exist on a machine with fewer GPUs."
    ),
    # Exercise 2: average_gradients
    "ddp.avg_no_grad": "After average_gradients(), replica {index}'s '{name}' has no gradient (.grad is None).",
    "ddp.avg_unchanged": (
        "After average_gradients(), replica {index} still has the gradient of '{name}' that it computed "
        "on its own share: every replica's .grad must be replaced by the mean over all replicas "
        "(average the gradients, not the weights, and update every replica)."
    ),
    "ddp.avg_disagree": (
        "After average_gradients(), replica {index}'s gradient of '{name}' differs from replica 0's: "
        "every replica must end with the same averaged gradient, or the copies drift apart."
    ),
    "ddp.avg_summed": (
        "The gradient of '{name}' is {world} times the full batch's gradient: you summed the replicas' "
        "gradients. DDP averages them: divide the sum by the number of replicas (or use .mean(dim=0))."
    ),
    # Exercise 3: train.py under torchrun
    "ddp.run_timeout": (
        "train.py did not finish within {seconds} s and was stopped. A common cause is a rank waiting in "
        "a collective (dist.barrier(), the all-reduce inside backward) that another rank never reaches, "
        "for example a dist.barrier() inside `if rank == 0:`."
    ),
    "ddp.barrier_mismatch": (
        "train.py did not finish: rank(s) {waited} called dist.barrier() and waited, but rank(s) "
        "{skipped} never called it, so the barrier could not complete (the run stopped after "
        "{seconds} s). Every rank must call dist.barrier(): put it after the `if rank == 0:` block "
        "that saves, not inside it."
    ),
    "ddp.peer_gone": (
        "Rank {rank} waited in a collective operation (dist.barrier(), or the all-reduce inside "
        "backward()) for a rank that had already left or never came: {error}. Every rank must make "
        "the same collective calls, in the same order."
    ),
    "ddp.barrier_before_save": (
        "Rank 0 called dist.barrier() before torch.save and not after it (its calls, in order: {calls}): "
        "the other ranks pass the barrier and go on while the checkpoint is still being written, so "
        "one that loads it may read a missing or half-written file. The barrier must come after the "
        "save, on every rank."
    ),
    "ddp.no_barrier": (
        "Rank(s) {ranks} never called dist.barrier(): after rank 0's save, every rank must call "
        "dist.barrier(), so that no rank goes on (loads the file, starts the next stage) before the "
        "checkpoint is written."
    ),
    "ddp.run_failed": (
        "train.py stopped with exit code {code}. Rank {rank}'s error: {error}  "
        "(print(run_training(TRAIN_PY).logs) shows everything each rank printed)."
    ),
    "ddp.script_unfinished": (
        "train.py stopped on rank {rank} with NotImplementedError: replace the `raise "
        "NotImplementedError()` lines in ddp_settings() and main() with your code, run the "
        "%%writefile cell again, then this test."
    ),
    "ddp.no_report": (
        "Rank {rank} finished without writing outputs/rank{rank}.json: call "
        "write_report(cfg, settings, seen, net) on every rank at the end of main()."
    ),
    "ddp.report_world": (
        "Rank {rank}'s report says rank {got_rank} of world_size {got}, but torchrun started {expected} "
        "processes: pass the settings from ddp_settings(os.environ) to write_report()."
    ),
    "ddp.epochs": (
        "Rank {rank} recorded {got} epoch(s) in `seen`, expected {expected} (cfg.epochs): append the "
        "indices returned by train_one_epoch() once per epoch."
    ),
    "ddp.all_data": (
        "In epoch {epoch}, each rank read all {n} samples: nothing split the data between the processes, "
        "so they did the same work twice. Give the DataLoader sampler=DistributedSampler(dataset, ...) "
        "(and no shuffle=True)."
    ),
    "ddp.overlap": (
        "In epoch {epoch}, ranks 0 and 1 both read {count} of the same samples (e.g. {examples}), and "
        "{missing} samples were read by no rank. The DistributedSampler must use the same seed on every "
        "rank (seed=cfg.seed, not one depending on the rank): it shuffles the whole dataset identically "
        "everywhere, then each rank takes its own slice."
    ),
    "ddp.not_covered": (
        "In epoch {epoch}, the ranks together read only {got} of the {n} samples (never read: "
        "{examples}...). Use DistributedSampler(dataset, num_replicas=world_size, rank=rank, ...) with "
        "the world size and rank from ddp_settings()."
    ),
    "ddp.same_order": (
        "Rank {rank} read its samples in exactly the same order in epoch {before} and epoch {epoch}: call "
        "sampler.set_epoch(epoch) at the start of every epoch, otherwise DistributedSampler reshuffles "
        "with the same seed each time."
    ),
    "ddp.order_reference": (
        "Rank {rank}'s order in epoch {epoch} is not what DistributedSampler(dataset, num_replicas=2, "
        "rank={rank}, shuffle=True, seed=cfg.seed) gives after set_epoch({epoch}): expected it to start "
        "{expected}, got {got}. Call set_epoch(epoch) (with the epoch number) before each epoch and use "
        "the sampler as the DataLoader's sampler=."
    ),
    "ddp.weights_shape": (
        "The two ranks reported {n0} and {n1} weights: pass the model you trained to write_report()."
    ),
    "ddp.weights_differ": (
        "After training, rank 0's and rank 1's weights differ (largest difference {diff:.3g}): the copies "
        "drifted apart. Wrap the model in DistributedDataParallel, train with the wrapper (model(x)), so "
        "that backward() averages the gradients across the ranks."
    ),
    "ddp.ckpt_files": (
        "outputs/ holds {count} checkpoint file(s) ({names}); expected exactly one, "
        "cfg.checkpoint, written by rank 0."
    ),
    "ddp.save_count": (
        "torch.save was called {count} time(s), by rank(s) {ranks}; the checkpoint should be saved once, "
        "by rank 0 only: put the save inside `if rank == 0:`, then call dist.barrier() on every rank. "
        "When every rank saves, they write the same file at the same moment."
    ),
    "ddp.ckpt_not_state_dict": (
        "The checkpoint holds a {got_type}, not a state_dict: save net.state_dict() (the plain model's)."
    ),
    "ddp.ckpt_prefix": (
        "The checkpoint's keys start with 'module.' (e.g. '{key}'): that is the DDP wrapper's "
        "state_dict. Save the plain model's weights, net.state_dict() or model.module.state_dict(), so "
        "the file loads into make_model(cfg) without DDP."
    ),
    "ddp.ckpt_load": "The checkpoint does not load into make_model(CONFIG): {error}",
    "ddp.ckpt_not_final": (
        "The checkpoint's weights differ from the weights rank 0 ended with: save after the last epoch."
    ),
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "ddp.name_averaged_gradient": "the averaged gradient of '{name}'",
    "ddp.name_replica_after_step": "replica {i}'s '{name}' after one step",
    "ddp.demo_plain_model": "plain model:  ",
    "ddp.demo_wrapped_is_module": "the wrapped model is .module:",
    "ddp.demo_rank_of": "rank {rank} of {world} | backend: {backend}",
    "ddp.demo_after_all_reduce": "after all_reduce:",
    "ddp.demo_ddp_keys": "DDP state_dict keys:",
    "ddp.demo_epoch_rank": "epoch {epoch}, rank {rank}: {indices}",
    "ddp.demo_no_set_epoch": "no set_epoch, epoch {epoch}, rank 0: {indices}",
    "ddp.demo_rank_epoch": "rank {rank}, epoch {epoch}: {order} ...",
    "ddp.demo_first_weights": "rank {rank}, first weights: {weights}",
    "ddp.demo_files": "files in outputs/: {files} + the two reports",
    "ddp.demo_project_folder": "project folder:",
}
