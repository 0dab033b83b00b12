"""Wrong answers for day3/05_distributed."""

from tests.harness.mutants import Mutant

MUTANTS = [
    # Exercise 1: ddp_settings
    Mutant("ddp_settings", "keeps the environment's strings", expect=r"should be the int 3, got '3'",
           replace=[('int(env.get("RANK", 0))', 'env.get("RANK", 0)'),
                    ('int(env.get("LOCAL_RANK", 0))', 'env.get("LOCAL_RANK", 0)'),
                    ('int(env.get("WORLD_SIZE", 1))', 'env.get("WORLD_SIZE", 1)')]),
    Mutant("ddp_settings", "no defaults without torchrun", expect=r"should describe a single process.*KeyError",
           replace=[('env.get("RANK", 0)', 'env["RANK"]'), ('env.get("LOCAL_RANK", 0)', 'env["LOCAL_RANK"]'),
                    ('env.get("WORLD_SIZE", 1)', 'env["WORLD_SIZE"]')]),
    Mutant("ddp_settings", "GPU chosen by the global RANK", expect=r"should be cuda:1, got cuda:5.*LOCAL_RANK",
           replace=[('torch.device("cuda", local_rank)', 'torch.device("cuda", rank)')]),
    Mutant("ddp_settings", "always NCCL", expect=r"backend should be 'gloo', got 'nccl'",
           replace=[('backend, device = "gloo", torch.device("cpu")', 'backend, device = "nccl", torch.device("cpu")')]),
    Mutant("ddp_settings", "device as a string", expect=r"should be a torch\.device, got str",
           replace=[('torch.device("cuda", local_rank)', 'f"cuda:{local_rank}"'),
                    ('torch.device("cpu")', '"cpu"')]),
    # Exercise 2: average_gradients
    Mutant("ddp_average", "sums instead of averaging", expect=r"2 times the full batch's gradient.*summed",
           replace=[(".mean(dim=0)", ".sum(dim=0)")]),
    Mutant("ddp_average", "only the first replica gets the average", expect=r"replica 1 still has the gradient",
           replace=[("for p in params:", "for p in params[:1]:")]),
    Mutant("ddp_average", "averages the weights, not the gradients", expect=r"replica 0 still has the gradient",
           replace=[("torch.stack([p.grad for p in params])", "torch.stack([p.detach() for p in params])"),
                    ("p.grad.copy_(mean)", "p.data.copy_(mean)")]),
    Mutant("ddp_average", "assumes two replicas", expect=r"wrong values|has the right shape but",
           replace=[("torch.stack([p.grad for p in params]).mean(dim=0)", "(params[0].grad + params[1].grad) / 2")]),
    Mutant("ddp_average", "one mean over every element", expect=r"wrong values",
           replace=[(".mean(dim=0)", ".mean()")]),
    # Exercise 3: train.py (each mutant costs one torchrun launch)
    Mutant("ddp_train_script", "no DistributedSampler", expect=r"each rank read all 64 samples",
           replace=[("loader = DataLoader(dataset, batch_size=cfg.batch_size, sampler=sampler)",
                     "loader = DataLoader(dataset, batch_size=cfg.batch_size, shuffle=True)")]),
    Mutant("ddp_train_script", "a different seed on each rank", expect=r"same seed on every rank",
           replace=[("shuffle=True, seed=cfg.seed)", "shuffle=True, seed=cfg.seed + rank)")]),
    Mutant("ddp_train_script", "forgets set_epoch", expect=r"same order in epoch 0 and epoch 1.*set_epoch",
           replace=[("        sampler.set_epoch(epoch)\n", "")]),
    Mutant("ddp_train_script", "shuffle=True next to the sampler", expect=r"mutually exclusive with shuffle",
           replace=[("DataLoader(dataset, batch_size=cfg.batch_size, sampler=sampler)",
                     "DataLoader(dataset, batch_size=cfg.batch_size, shuffle=True, sampler=sampler)")]),
    Mutant("ddp_train_script", "model not wrapped in DDP", expect=r"weights differ.*DistributedDataParallel",
           replace=[('model = DDP(net, device_ids=[settings["local_rank"]] if device.type == "cuda" else None)',
                     "model = net")]),
    Mutant("ddp_train_script", "every rank saves the same file", expect=r"torch\.save was called 2 time",
           replace=[("    if rank == 0:\n        Path(cfg.out_dir).mkdir(parents=True, exist_ok=True)\n"
                     "        torch.save(",
                     "    Path(cfg.out_dir).mkdir(parents=True, exist_ok=True)\n    if True:\n"
                     "        torch.save(")]),
    Mutant("ddp_train_script", "a checkpoint file per rank", expect=r"2 checkpoint file",
           replace=[("    if rank == 0:\n        Path(cfg.out_dir)", "    if True:\n        Path(cfg.out_dir)"),
                    ("Path(cfg.out_dir) / cfg.checkpoint)", 'Path(cfg.out_dir) / f"model_rank{rank}.pt")')]),
    Mutant("ddp_train_script", "saves the DDP wrapper's state_dict", expect=r"keys start with 'module\.'",
           replace=[("torch.save(net.state_dict()", "torch.save(model.state_dict()")]),
]
