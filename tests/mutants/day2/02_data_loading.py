"""Wrong answers for day2/02_data_loading."""

from tools.mutants import Mutant

MUTANTS = [
    # Exercise 1: TensorPairDataset
    Mutant("data_pair_dataset", "length off by one", expect=r"len\(dataset\) should be 5 .*got 4",
           replace=[("return len(self.x)", "return len(self.x) - 1")], caught_by="visible", msgid="data.dataset_len"),
    Mutant("data_pair_dataset", "returns a list instead of a tuple",
           expect=r"should return a tuple \(features, label\), got a list",
           replace=[("return features, self.y[index]", "return [features, self.y[index]]")], caught_by="visible", msgid="data.dataset_item_type"),
    Mutant("data_pair_dataset", "transform applied to the label too", expect=r"label should not change",
           replace=[("return features, self.y[index]",
                     "label = self.y[index]\n"
                     "        if self.transform is not None:\n"
                     "            label = self.transform(label)\n"
                     "        return features, label")], caught_by="visible", msgid="data.transform_on_label"),
    Mutant("data_pair_dataset", "transform applied once in __init__", expect=r"it ran 0 time",
           replace=[("self.x = x\n", "self.x = transform(x) if transform is not None else x\n"),
                    ("        if self.transform is not None:\n            features = self.transform(features)\n",
                     "")], caught_by="visible", msgid="data.transform_lazy"),
    Mutant("data_pair_dataset", "transform stored but never applied",
           expect=r"features unchanged although a transform was given",
           replace=[("            features = self.transform(features)\n", "            pass\n")], caught_by="visible", msgid="data.transform_ignored"),
    # Exercise 2: the MNIST transform
    Mutant("data_mnist_transform", "uint8 left (no ToDtype, no Normalize)",
           expect=r"should be float32, got torch\.uint8",
           replace=[("        v2.ToDtype(torch.float32, scale=True),\n", ""),
                    ("        v2.Normalize(mean=(0.1307,), std=(0.3081,)),\n", "")], caught_by="visible", msgid="data.mnist_dtype"),
    Mutant("data_mnist_transform", "no normalisation", expect=r"not normalised",
           replace=[("        v2.Normalize(mean=(0.1307,), std=(0.3081,)),\n", "")], caught_by="visible", msgid="data.mnist_not_normalised"),
    Mutant("data_mnist_transform", "ToDtype without scale=True", expect=r"not scaled to \[0, 1\]",
           replace=[("v2.ToDtype(torch.float32, scale=True)", "v2.ToDtype(torch.float32)")], caught_by="visible", msgid="data.mnist_unscaled"),
    Mutant("data_mnist_transform", "mean and std swapped", expect=r"the mean first, then the std",
           replace=[("v2.Normalize(mean=(0.1307,), std=(0.3081,))", "v2.Normalize(mean=(0.3081,), std=(0.1307,))")], caught_by="visible", msgid="data.mnist_values"),
    Mutant("data_mnist_transform", "hand-made transform without the channel dimension",
           expect=r"shape \(1, 28, 28\), got \(28, 28\)",
           code=("import numpy as np\n\n\n"
                 "def make_mnist_transform():\n"
                 "    def transform(image):\n"
                 "        pixels = torch.as_tensor(np.array(image), dtype=torch.float32) / 255\n"
                 "        return (pixels - 0.1307) / 0.3081\n"
                 "    return transform\n"), caught_by="visible", msgid="data.mnist_shape"),
    # Exercise 3: make_loader
    Mutant("data_make_loader", "no generator: order from the global RNG", expect=r"gave different orders",
           replace=[(", generator=generator)", ")")], caught_by="visible", msgid="data.loader_same_seed"),
    Mutant("data_make_loader", "generator created but not seeded", expect=r"Different seeds gave the same order",
           replace=[("torch.Generator().manual_seed(seed)", "torch.Generator()")], caught_by="visible", msgid="data.loader_seed_ignored"),
    Mutant("data_make_loader", "seeds the global RNG instead", expect=r"global random",
           replace=[("generator = torch.Generator().manual_seed(seed)", "torch.manual_seed(seed)"),
                    (", generator=generator)", ")")], caught_by="visible", msgid="data.loader_same_seed"),
    Mutant("data_make_loader", "shuffle=False", expect=r"original order",
           replace=[("shuffle=True", "shuffle=False")], caught_by="visible", msgid="data.loader_not_shuffled"),
    Mutant("data_make_loader", "drop_last missing", expect=r"pass drop_last=True",
           replace=[(", drop_last=True", "")], caught_by="visible", msgid="data.loader_drop_last"),
    Mutant("data_make_loader", "samples with replacement", expect=r"exactly once",
           replace=[("shuffle=True, drop_last=True, generator=generator",
                     "drop_last=True,\n                      sampler=torch.utils.data.RandomSampler("
                     "dataset, replacement=True, generator=generator)")], caught_by="visible", msgid="data.loader_each_once"),
    # Exercise 4: pad_collate
    Mutant("data_pad_collate", "pads to a fixed length", expect=r"not to a fixed length",
           replace=[("int(lengths.max())", "10")], caught_by="visible", msgid="data.collate_shape"),
    Mutant("data_pad_collate", "lengths as a list", expect=r"`lengths` should be a torch\.Tensor, got list",
           replace=[("lengths = torch.tensor([len(sequence) for sequence in sequences], dtype=torch.int64)",
                     "lengths = [len(sequence) for sequence in sequences]"),
                    ("int(lengths.max())", "max(lengths)")], caught_by="visible", msgid="check.not_tensor"),
    Mutant("data_pad_collate", "pad_sequence without batch_first", expect=r"transposed",
           code=("from torch.nn.utils.rnn import pad_sequence\n\n\n"
                 "def pad_collate(batch):\n"
                 "    sequences = [sequence for sequence, _ in batch]\n"
                 "    padded = pad_sequence(sequences)\n"
                 "    lengths = torch.tensor([len(s) for s in sequences])\n"
                 "    labels = torch.tensor([label for _, label in batch])\n"
                 "    return padded, lengths, labels\n"), caught_by="visible", msgid="data.collate_transposed"),
    Mutant("data_pad_collate", "lengths measured after padding", expect=r"true lengths before padding",
           code=("from torch.nn.utils.rnn import pad_sequence\n\n\n"
                 "def pad_collate(batch):\n"
                 "    padded = pad_sequence([sequence for sequence, _ in batch], batch_first=True)\n"
                 "    lengths = torch.tensor([len(row) for row in padded])\n"
                 "    labels = torch.tensor([label for _, label in batch])\n"
                 "    return padded, lengths, labels\n"), caught_by="visible", msgid="data.collate_lengths"),
    Mutant("data_pad_collate", "pads with -1", expect=r"Padding positions should hold 0",
           replace=[("padded = torch.zeros(len(sequences), int(lengths.max()), dtype=sequences[0].dtype)",
                     "padded = torch.full((len(sequences), int(lengths.max())), -1, dtype=sequences[0].dtype)")], caught_by="visible", msgid="data.collate_pad_value"),
    Mutant("data_pad_collate", "lengths as float", expect=r"`lengths` should have dtype torch\.int64, got torch\.float32",
           replace=[("lengths = torch.tensor([len(sequence) for sequence in sequences], dtype=torch.int64)",
                     "lengths = torch.tensor([len(sequence) for sequence in sequences], dtype=torch.float32)")], caught_by="visible", msgid="check.dtype"),
    # issue 23: an answer that fits only the example (its longest sequence comes first)
    Mutant("data_pad_collate", "pads to the first sequence's length", expect=r"longest sequence comes second.*not to\s+the first",
           replace=[("int(lengths.max())", "int(lengths[0])")], caught_by="visible", msgid="data.collate_longest_later"),
]
