"""Wrong answers for day2/04_checkpoints."""

from tools.mutants import Mutant

MUTANTS = [
    # Exercise 1: save_checkpoint / load_checkpoint
    Mutant("ckpt_save_load", "optimizer saved but not restored",
           expect=r"optimizer's state\[\d+\]\['\w+'\] is missing or differs.*running averages",
           replace=[('    optimizer.load_state_dict(checkpoint["optimizer"])\n', "")], caught_by="visible", msgid="ckpt.optimizer_state"),
    Mutant("ckpt_save_load", "optimizer not saved at all", expect=r"missing the key\(s\) optimizer",
           replace=[('        "optimizer": optimizer.state_dict(),\n', ""),
                    ('    optimizer.load_state_dict(checkpoint["optimizer"])\n', "")], caught_by="visible", msgid="ckpt.keys"),
    Mutant("ckpt_save_load", "resumes at the saved epoch (one epoch repeated)",
           expect=r"next epoch to run, 1 \(the saved epoch 0 plus one\), got 0",
           replace=[('return checkpoint["epoch"] + 1', 'return checkpoint["epoch"]')], caught_by="visible", msgid="ckpt.next_epoch"),
    Mutant("ckpt_save_load", "adds one when saving instead of when loading",
           expect=r"stores epoch 1, but save_checkpoint\(\) was given epoch=0",
           replace=[('"epoch": epoch,', '"epoch": epoch + 1,'),
                    ('return checkpoint["epoch"] + 1', 'return checkpoint["epoch"]')], caught_by="visible", msgid="ckpt.saved_epoch"),
    Mutant("ckpt_save_load", "scheduler not restored", expect=r"scheduler is at last_epoch=0 instead of 2",
           replace=[('    scheduler.load_state_dict(checkpoint["scheduler"])\n', "")], caught_by="visible", msgid="ckpt.scheduler_state"),
    Mutant("ckpt_save_load", "shuffling generator not restored",
           expect=r"shuffling generator is not in its saved state",
           replace=[('    generator.set_state(checkpoint["generator"])\n', "")], caught_by="visible", msgid="ckpt.generator_state"),
    Mutant("ckpt_save_load", "saves the model object instead of its state_dict",
           expect=r"cannot be loaded with weights_only=True.*state_dict",
           replace=[('"model": model.state_dict(),', '"model": model,'),
                    ('model.load_state_dict(checkpoint["model"])', 'model.load_state_dict(checkpoint["model"].state_dict())')], caught_by="visible", msgid="ckpt.not_weights_only"),
    # issue 23: device placement
    Mutant("ckpt_save_load", "torch.load without map_location (a GPU checkpoint cannot load on a CPU)",
           expect=r"written on a GPU machine.*map_location=\"cpu\"",
           replace=[('torch.load(path, map_location="cpu", weights_only=True)', "torch.load(path, weights_only=True)")],
           caught_by="visible", msgid="ckpt.map_location"),
    # Exercise 2: BestKeeper
    Mutant("ckpt_best_keeper", "keeps the last checkpoint",
           expect=r"mode='min'.*should return \[True, True, False, True, False, False\].*got \[True, True, True",
           replace=[("        if not better:\n            return False\n", "")], caught_by="visible", msgid="ckpt.best_flags"),
    Mutant("ckpt_best_keeper", "uses > for a loss (ignores mode)",
           expect=r"mode='min'.*should return \[True, True, False",
           replace=[('        elif self.mode == "min":\n            better = metric < self.best\n', "")], caught_by="visible", msgid="ckpt.best_flags"),
    Mutant("ckpt_best_keeper", "comparisons swapped", expect=r"mode='min'.*should return",
           replace=[("better = metric < self.best", "better = TMP"), ("better = metric > self.best", "better = metric < self.best"),
                    ("better = TMP", "better = metric > self.best")], caught_by="visible", msgid="ckpt.best_flags"),
    Mutant("ckpt_best_keeper", "best starts at 0 instead of None",
           expect=r"mode='min'.*should return \[True.*got \[False",
           replace=[("self.best = None", "self.best = 0.0")], caught_by="visible", msgid="ckpt.best_flags"),
    Mutant("ckpt_best_keeper", "best starts at +inf whatever the mode",
           expect=r"mode='max'.*should return \[True.*got \[False",
           replace=[("self.best = None", 'self.best = float("inf")')], caught_by="hidden", msgid="ckpt.best_flags"),
    Mutant("ckpt_best_keeper", "best never updated (compares with the first metric)",
           expect=r"mode='min'.*should return",
           replace=[("self.best, self.best_epoch = metric, epoch",
                     "self.best_epoch = epoch\n        if self.best is None:\n            self.best = metric")], caught_by="visible", msgid="ckpt.best_flags"),
    Mutant("ckpt_best_keeper", "a tie counts as better (<=)", expect=r"mode='min'",
           replace=[("better = metric < self.best", "better = metric <= self.best")], caught_by="visible", msgid="ckpt.best_flags"),
    # Exercise 3: load_config_checkpoint
    Mutant("ckpt_trusted_config", "weights_only=False",
           expect=r"also contains an object of type Intruder",
           code=('def load_config_checkpoint(path):\n'
                 '    return torch.load(path, map_location="cpu", weights_only=False)\n'), caught_by="visible", msgid="ckpt.intruder_loaded"),
    Mutant("ckpt_trusted_config", "no allow-list", expect=r"refused a checkpoint whose only unusual object is a TrainConfig",
           code=('def load_config_checkpoint(path):\n'
                 '    return torch.load(path, map_location="cpu", weights_only=True)\n'), caught_by="visible", msgid="ckpt.config_refused"),
    Mutant("ckpt_trusted_config", "falls back to weights_only=False on error",
           expect=r"also contains an object of type Intruder.*never fall back",
           code=('def load_config_checkpoint(path):\n'
                 '    try:\n'
                 '        with torch.serialization.safe_globals([TrainConfig]):\n'
                 '            return torch.load(path, map_location="cpu", weights_only=True)\n'
                 '    except pickle.UnpicklingError:\n'
                 '        return torch.load(path, map_location="cpu", weights_only=False)\n'), caught_by="visible", msgid="ckpt.intruder_loaded"),
    Mutant("ckpt_trusted_config", "allow-lists TrainConfig for the whole program",
           expect=r"still on the global allow-list",
           code=('def load_config_checkpoint(path):\n'
                 '    torch.serialization.add_safe_globals([TrainConfig])\n'
                 '    return torch.load(path, map_location="cpu", weights_only=True)\n'), caught_by="hidden", msgid="ckpt.allowlist_leaked"),
]
