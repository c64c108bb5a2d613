"""Write a small synthetic ImageNet-format TFRecord set with learnable classes.

    python -m trainlib.data.synth --out DIR --train-shards 4 --validation-shards 2 --images 512 --size 64

Each class has its own background colour and a square of its own colour at its own place,
plus noise, so a tiny ResNet's loss falls within a few hundred steps. Records follow the
ImageNet schema exactly (JPEG bytes, 1-based labels, synset/text, bounding box of the
square). Deterministic for a given --seed.
"""

import argparse
import os
import sys
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from compat.cli_errors import main_guard

# (background colours [classes, 3], square colours [classes, 3], square corners [classes, 2] as fractions)
Styles = tuple[np.ndarray, np.ndarray, np.ndarray]
Box = tuple[float, float, float, float]


def class_styles(num_classes: int, seed: int) -> Styles:
    rng = np.random.RandomState(seed)
    background = rng.randint(0, 256, size=(num_classes, 3))
    foreground = rng.randint(0, 256, size=(num_classes, 3))
    corner = rng.uniform(0.0, 0.5, size=(num_classes, 2))
    return background, foreground, corner


def make_image(label_index: int, size: int, styles: Styles, rng: np.random.RandomState) -> tuple[np.ndarray, Box]:
    """(uint8 image [size, size, 3], box (ymin, xmin, ymax, xmax) in [0, 1])."""
    background, foreground, corner = styles
    image = np.empty((size, size, 3), np.float32)
    image[:] = background[label_index]
    side = size // 2
    top, left = (corner[label_index] * size).astype(int)
    image[top : top + side, left : left + side] = foreground[label_index]
    image += rng.normal(0, 12, size=image.shape)
    box = (top / size, left / size, min(top + side, size) / size, min(left + side, size) / size)
    return np.clip(image, 0, 255).astype(np.uint8), box


def example(tf: types.ModuleType, image: np.ndarray, box: Box, label: int, size: int, name: str) -> Any:
    """One record as a `tf.train.Example` (`tf`: TensorFlow, which only the writer imports)."""

    def b(v: bytes) -> Any:
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=[v]))

    def i(v: int) -> Any:
        return tf.train.Feature(int64_list=tf.train.Int64List(value=[v]))

    def f(v: float) -> Any:
        return tf.train.Feature(float_list=tf.train.FloatList(value=[v]))

    ymin, xmin, ymax, xmax = box
    feature = {
        "image/encoded": b(tf.io.encode_jpeg(image, quality=95).numpy()),
        "image/format": b(b"JPEG"),
        "image/class/label": i(label),
        "image/class/synset": b(f"n{label:08d}".encode()),
        "image/class/text": b(f"synthetic class {label}".encode()),
        "image/height": i(size),
        "image/width": i(size),
        "image/channels": i(3),
        "image/colorspace": b(b"RGB"),
        "image/filename": b(name.encode()),
        "image/object/bbox/xmin": f(xmin),
        "image/object/bbox/ymin": f(ymin),
        "image/object/bbox/xmax": f(xmax),
        "image/object/bbox/ymax": f(ymax),
        "image/object/bbox/label": i(label),
    }
    return tf.train.Example(features=tf.train.Features(feature=feature))


def write_split(
    out: str,
    split: str,
    shards: int,
    images: int,
    size: int,
    num_classes: int,
    seed: int,
    progress: Callable[[str], None] | None = None,
) -> list[str]:
    """Write `images` records over `shards` files; returns the paths. Labels cycle over 1..num_classes."""
    import tensorflow as tf  # only the writer needs TensorFlow; --help does not

    styles = class_styles(num_classes, seed)
    rng = np.random.RandomState(seed + (1 if split == "train" else 2))
    os.makedirs(out, exist_ok=True)
    paths = []
    for shard in range(shards):
        path = os.path.join(out, f"{split}-{shard:05d}-of-{shards:05d}")
        tmp = path + ".tmp"
        with tf.io.TFRecordWriter(tmp) as writer:
            for n in range(shard, images, shards):
                label_index = (n * 7919 + shard) % num_classes
                image, box = make_image(label_index, size, styles, rng)
                name = f"{split}_{n:07d}.JPEG"
                writer.write(example(tf, image, box, label_index + 1, size, name).SerializeToString())
        os.replace(tmp, path)  # a reader never sees half a shard
        paths.append(path)
        if progress:
            progress(f"{split}: shard {shard + 1}/{shards} written ({path})")
    return paths


def generate(
    out: str,
    train_shards: int = 4,
    validation_shards: int = 2,
    images: int = 512,
    validation_images: int | None = None,
    size: int = 64,
    num_classes: int = 10,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> tuple[list[str], list[str]]:
    validation_images = validation_images if validation_images is not None else max(images // 4, validation_shards)
    train = write_split(out, "train", train_shards, images, size, num_classes, seed, progress)
    validation = write_split(out, "validation", validation_shards, validation_images, size, num_classes, seed, progress)
    return train, validation


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m trainlib.data.synth",
        description="Write synthetic ImageNet-format TFRecords (train-*/validation-* shards) with learnable classes.",
    )
    parser.add_argument("--out", required=True, help="folder to write the shards into")
    parser.add_argument("--train-shards", type=int, default=4, help="train shard files (default: 4)")
    parser.add_argument("--validation-shards", type=int, default=2, help="validation shard files (default: 2)")
    parser.add_argument("--images", type=int, default=512, help="training images (default: 512)")
    parser.add_argument("--validation-images", type=int, help="validation images (default: images/4)")
    parser.add_argument("--size", type=int, default=64, help="image side in pixels (default: 64)")
    parser.add_argument("--classes", type=int, default=10, help="classes, labelled 1..N (default: 10)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    return parser


@main_guard
def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for name in ("train_shards", "validation_shards", "images", "size", "classes"):
        if getattr(args, name) < 1:
            build_parser().error(f"--{name.replace('_', '-')} must be at least 1")
    generate(
        args.out,
        args.train_shards,
        args.validation_shards,
        args.images,
        args.validation_images,
        args.size,
        args.classes,
        args.seed,
        progress=lambda line: print(line, file=sys.stderr, flush=True),
    )
    print(f"wrote {args.images} train and validation images to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
