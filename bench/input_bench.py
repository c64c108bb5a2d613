"""Input pipeline throughput (images/s): the shared ImageNet reader against a hand-tuned tf.data pipeline.

    python bench/input_bench.py [--images 2048] [--size 64] [--batch 64] [--rounds 5]

Both read the same generated ImageNet-schema TFRecords (`trainlib.data.synth`) and decode JPEG,
crop, resize and batch to `--image-size`. The anchor is written directly with tf.data's tools:
parallel interleave over the shards, AUTOTUNE map, batch, prefetch; no label checks, no file
names. The runners alternate within each round and the table shows each one's median images/s
over the rounds and the median of its per-round ratios to the anchor (measured back to back,
so machine load largely cancels).
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

import tensorflow as tf

from trainlib.data import imagenet, records, synth


def anchor(data_dir, is_training, args):
    """The hand-tuned pipeline: what a tf.data expert writes for these files, nothing more."""
    split = "train" if is_training else "validation"
    files = tf.data.Dataset.list_files(os.path.join(data_dir, f"{split}-*"), shuffle=False)
    ds = files.interleave(tf.data.TFRecordDataset, cycle_length=4, num_parallel_calls=tf.data.AUTOTUNE)

    def decode(record):
        parsed = records.parse(record)
        return records.preprocess(parsed, is_training, args.image_size, False), tf.cast(
            parsed["image/class/label"], tf.int32
        )

    ds = ds.repeat().map(decode, num_parallel_calls=tf.data.AUTOTUNE)
    return ds.batch(args.batch, drop_remainder=True).prefetch(tf.data.AUTOTUNE)


def shared(data_dir, is_training, args):
    """trainlib.data.imagenet.dataset as both programs call it."""
    return imagenet.dataset(data_dir, is_training, args.batch, args.image_size, num_classes=args.classes + 1)


def images_per_second(dataset, args):
    batches = iter(dataset)
    for _ in range(5):  # warm-up: threads started, AUTOTUNE settled a little
        next(batches)
    start = time.perf_counter()
    for _ in range(args.batches):
        next(batches)
    return args.batches * args.batch / (time.perf_counter() - start)


RUNNERS = {"hand-tuned tf.data": anchor, "trainlib.data.imagenet": shared}
ANCHOR = "hand-tuned tf.data"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=2048, help="training images generated (default: 2048)")
    parser.add_argument("--size", type=int, default=64, help="side of the generated JPEGs (default: 64)")
    parser.add_argument("--image-size", type=int, default=32, help="side after preprocessing (default: 32)")
    parser.add_argument("--classes", type=int, default=10, help="classes generated (default: 10)")
    parser.add_argument("--batch", type=int, default=64, help="batch (default: 64)")
    parser.add_argument("--batches", type=int, default=60, help="batches timed per runner and round (default: 60)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds over the runners (default: 5)")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    rates = {(mode, name): [] for mode in ("train", "eval") for name in RUNNERS}
    with tempfile.TemporaryDirectory() as data_dir:
        synth.generate(
            data_dir,
            train_shards=4,
            validation_shards=2,
            images=args.images,
            validation_images=args.images // 2,
            size=args.size,
            num_classes=args.classes,
        )
        for _ in range(args.rounds):
            for mode in ("train", "eval"):
                for name, build in RUNNERS.items():
                    rates[mode, name].append(images_per_second(build(data_dir, mode == "train", args), args))
    print(f"{'pipeline':<24}{'mode':<7}{'images/s':>10}{'vs anchor':>11}   per-round ratios / rounds")
    for (mode, name), values in rates.items():
        ratios = [value / base for value, base in zip(values, rates[mode, ANCHOR])]
        rounds = " ".join(f"{r:.2f}" for r in ratios) + " / " + " ".join(f"{v:.0f}" for v in values)
        print(f"{name:<24}{mode:<7}{statistics.median(values):>10.0f}{statistics.median(ratios):>10.3f}x   {rounds}")
    print(f"load average (1 min) at start {load_before:.2f}, at end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
