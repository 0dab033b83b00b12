"""Messages of day2/02_data_loading."""

MESSAGES = {
    # Exercise 1: TensorPairDataset
    "data.dataset_len": (
        "len(dataset) should be {expected} (one per sample, an int), got {got!r}: "
        "__len__ should return len(self.x)."
    ),
    "data.dataset_item_type": (
        "dataset[i] should return a tuple (features, label), got a {got_type} of length {got_len}: "
        "write `return features, label`."
    ),
    "data.dataset_label": "dataset[{index}] should have label {expected}, got {got!r}.",
    "data.transform_lazy": (
        "Reading an item {reads} times should call the transform {reads} times, but it ran {calls} "
        "time(s): apply the transform inside __getitem__, each time an item is read, so that random "
        "augmentations give a new variant every epoch."
    ),
    "data.transform_ignored": (
        "dataset[i] returned the features unchanged although a transform was given: "
        "call self.transform(features) in __getitem__ when it is not None."
    ),
    "data.transform_on_label": (
        "The label should not change: expected {expected}, got {got!r}. "
        "Apply the transform to the features only, never to the label."
    ),
    # Exercise 2: the MNIST transform
    "data.mnist_shape": (
        "An MNIST image should come out channels-first with one grey channel, shape (1, 28, 28), "
        "got {got}: v2.ToImage() adds the channel dimension."
    ),
    "data.mnist_dtype": (
        "The image should be float32, got {got}: add v2.ToDtype(torch.float32, scale=True) after v2.ToImage()."
    ),
    "data.mnist_unscaled": (
        "Pixel values go up to {got_max:.1f}: the 0-255 range was not scaled to [0, 1] before "
        "normalising. Use v2.ToDtype(torch.float32, scale=True) — scale=True divides by 255."
    ),
    "data.mnist_not_normalised": (
        "Pixel values lie between {got_min:.3f} and {got_max:.3f}, never below 0: the image was "
        "not normalised. Add v2.Normalize(mean=(0.1307,), std=(0.3081,)) at the end."
    ),
    "data.mnist_values": (
        "Values differ from (x / 255 - 0.1307) / 0.3081: a black pixel should be {want_black:.4f} "
        "(got {got_black:.4f}) and a white one {want_white:.4f} (got {got_white:.4f}). "
        "Check v2.Normalize(mean=(0.1307,), std=(0.3081,)): the mean first, then the std."
    ),
    # Exercise 3: make_loader
    "data.loader_drop_last": (
        "{n} items in batches of {batch_size} should give only full batches (the partial last "
        "batch dropped), got {got} batch(es) with sizes {sizes}: pass drop_last=True."
    ),
    "data.loader_not_shuffled": (
        "The items came in their original order {got}: the training loader should shuffle (shuffle=True)."
    ),
    "data.loader_same_seed": (
        "Two loaders made with seed={seed} gave different orders ({a} vs {b}): the order came from "
        "the global random generator. Pass generator=torch.Generator().manual_seed(seed) to the DataLoader."
    ),
    "data.loader_seed_ignored": (
        "Different seeds gave the same order ({a} and {b}): the seed is not used. "
        "Seed the loader's generator with it: torch.Generator().manual_seed(seed)."
    ),
    "data.loader_global_rng": (
        "make_loader() changed the global random state (torch.manual_seed?): that also changes "
        "model initialisation and dropout elsewhere. Give the loader its own seeded torch.Generator instead."
    ),
    "data.loader_each_once": (
        "In one epoch each of the {n} items should appear exactly once, got the ids {got}: "
        "shuffle with shuffle=True (a permutation), not by sampling with replacement."
    ),
    "data.loader_same_every_epoch": (
        "Two epochs gave the same order {order}: each epoch should get a new permutation. Create the "
        "generator once, in make_loader, and let the DataLoader use it (don't re-seed it every epoch)."
    ),
    # Exercise 4: pad_collate
    "data.collate_returns": "pad_collate() should return a tuple (padded, lengths, labels), got {got_type}.",
    "data.collate_transposed": (
        "padded should have shape (batch, longest length) = {expected}, got {got}, which is transposed: "
        "put the batch first (with pad_sequence, pass batch_first=True)."
    ),
    "data.collate_shape": (
        "padded should have shape (batch, longest sequence in this batch) = {expected}, got {got}: "
        "pad each batch to its own longest sequence, not to a fixed length."
    ),
    "data.collate_longest_later": (
        "On a batch whose longest sequence comes second ([1.] then [2., 3., 4.]), padded should have "
        "shape (2, 3), got {got}: pad to the longest sequence of the batch, max(lengths), not to "
        "the first sequence's length."
    ),
    "data.collate_pad_value": (
        "Padding positions should hold 0; row {row} shows otherwise: start from torch.zeros(...) "
        "(or padding_value=0)."
    ),
    "data.collate_lengths": (
        "lengths should be the true lengths before padding, {expected}, got {got}: "
        "measure each sequence before padding, not the padded rows."
    ),
    "data.collate_labels": "labels should be {expected}, in the order the samples came, got {got}.",
    "data.collate_row": (
        "Row {row} of batch {batch} should hold its sequence followed by zeros: copy each sequence "
        "into the start of its row, in the order the samples came."
    ),
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "data.demo_label": "label:",
    "data.demo_mean_std": "mean {mean:.4f}  std {std:.4f}",
    "data.demo_transform_every_read": "transform on every read : {seconds:.3f} s per epoch",
    "data.demo_convert_once": "convert once            : {convert:.3f} s, then {cached:.3f} s per epoch",
    "data.demo_same_tensors": "same tensors: {same} | cache size: {mib:.1f} MiB",
    "data.demo_one_batch": "one batch:",
    "data.demo_batches_per_epoch": "batches per epoch: {batches} | last batch size: {last}",
    "data.demo_seed0": "seed 0:                     ",
    "data.demo_seed0_layer": "seed 0, layer created first:",
    "data.demo_own_generator": "own generator, seed 0:      ",
    "data.demo_padded": "{batch} lengths {lengths} labels {labels}",
    "data.demo_cores": "CPU cores usable here: {cores} | start method: {method}",
    "data.demo_epoch_time": "epoch {epoch} {seconds:.3f} s",
    "data.demo_pinned": "pin_memory: {pin} | batch on {device} {shape}",
}
