"""Same-image pairs per batch: a COCO-style output (captions of one image written one after
another) read by ``sgprep.data`` in file order, with only a shuffle buffer, with its defaults
(shuffle and spread), and by open_clip's own WebDataset loader when it is installed.

The anchor: 0 pairs is the goal, fewer than 0.5 per batch is what issue 35 asks of the defaults.

    python benchmarks/batch_order.py [--images 300] [--captions 5] [--batch 32]
"""

from __future__ import annotations

import argparse
import io
import tempfile
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

from PIL import Image

import sgprep.data as sd
from sgprep.io.writers import ShardWriter
from sgprep.schema import Sample


def write(out: Path, images: int, captions: int, per_shard: int) -> None:
    writer = ShardWriter(out)
    writer.prepare({"command": "benchmark"}, "batch_order", overwrite=False)
    samples = []
    for i in range(images):
        buf = io.BytesIO()
        Image.new("RGB", (8, 8), (i % 256, i // 256, 99)).save(buf, format="PNG")
        for n in range(captions):
            key = f"{i}_{n}"
            samples.append(Sample(key=key, source="coco-style", caption=f"photo {i} caption {n}",
                                  image=buf.getvalue(), image_ext="png"))  # fmt: skip
    for start in range(0, len(samples), per_shard):
        sink = writer.open_shard(start // per_shard)
        sink.add(samples[start : start + per_shard])
        sink.close(stages={})
    writer.finish()
    writer.release()


def pairs(images: list[str]) -> int:
    return sum(n * (n - 1) // 2 for n in Counter(images).values())


def sgprep_data(out: Path, batch: int, workers: int, **kwargs) -> float:
    from torch.utils.data import DataLoader

    loader = DataLoader(sd.webdataset(out, decode=False, **kwargs), batch_size=batch,
                        num_workers=workers, collate_fn=sd.Collate())  # fmt: skip
    counts = [pairs([k.split("_")[0] for k in b["key"]]) for b in loader]
    return sum(counts) / len(counts)


def open_clip(out: Path, batch: int, workers: int) -> float | None:
    try:
        from open_clip_train.data import get_wds_dataset
    except ImportError:
        return None
    last = len(sd.urls(out)) - 1  # open_clip counts samples from sizes.json beside a brace range
    args = SimpleNamespace(train_data=f"{out}/{{00000..{last:05d}}}.tar", val_data=None,
                           dataset_resampled=False, train_num_samples=None,
                           train_data_upsampling_factors=None, seed=0, batch_size=batch,
                           world_size=1, workers=workers)  # fmt: skip
    info = get_wds_dataset(args, lambda image: 0, is_train=True, tokenizer=lambda t: [t])
    counts = [pairs([t.split()[1] for t in texts]) for _, texts in info.dataloader]
    return sum(counts) / len(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=300)
    parser.add_argument("--captions", type=int, default=5)
    parser.add_argument("--per-shard", type=int, default=250)
    parser.add_argument("--batch", type=int, default=32)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        write(out, args.images, args.captions, args.per_shard)
        n = args.images * args.captions
        print(f"{args.images} images x {args.captions} captions = {n} samples, batch {args.batch}")
        rows = [
            ("sgprep.data shuffle=0, spread=0 (file order)", {"shuffle": 0, "spread": 0}, 0),
            ("sgprep.data shuffle=1000, spread=0", {"spread": 0}, 0),
            ("sgprep.data defaults, num_workers=0", {}, 0),
            ("sgprep.data defaults, num_workers=2", {}, 2),
        ]
        for name, kwargs, workers in rows:
            print(f"{name}: {sgprep_data(out, args.batch, workers, **kwargs):.2f} pairs/batch")
        found = open_clip(out, args.batch, 2)
        if found is not None:
            print(f"open_clip_train get_wds_dataset, workers=2: {found:.2f} pairs/batch")


if __name__ == "__main__":
    main()
