"""trainlib.data: the generator writes the ImageNet schema, the reader reads it back, bad input is named."""

import os

import numpy as np
import pytest
import tensorflow as tf

import compat  # noqa: F401
from compat.errors import DataError, DeviceError
from tests.support.processes import run_module
from trainlib.data import imagenet, records, slim_layout, synth
from trainlib.data.towers import num_towers, per_tower_batch


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("imagenet")
    synth.generate(
        str(out), train_shards=2, validation_shards=1, images=40, validation_images=10, size=48, num_classes=5, seed=3
    )
    return str(out)


def test_generator_writes_the_schema_the_reader_parses_back(data_dir):
    assert sorted(os.listdir(data_dir)) == ["train-00000-of-00002", "train-00001-of-00002", "validation-00000-of-00001"]
    styles = synth.class_styles(5, 3)
    rng = np.random.RandomState(3 + 1)
    raw = next(iter(tf.data.TFRecordDataset(os.path.join(data_dir, "train-00000-of-00002"))))
    parsed = records.parse(raw)
    image, box = synth.make_image(0, 48, styles, rng)  # the first record of shard 0 is class index 0
    assert int(parsed["image/class/label"]) == 1
    assert parsed["image/format"].numpy() == b"JPEG"
    assert (int(parsed["image/height"]), int(parsed["image/width"]), int(parsed["image/channels"])) == (48, 48, 3)
    assert parsed["image/class/synset"].numpy() == b"n00000001"
    assert parsed["image/filename"].numpy() == b"train_0000000.JPEG"
    np.testing.assert_allclose(
        [float(parsed[f"image/object/bbox/{k}"][0]) for k in ("ymin", "xmin", "ymax", "xmax")], box, rtol=1e-6
    )
    decoded = tf.image.decode_jpeg(parsed["image/encoded"]).numpy().astype(float)
    assert np.abs(decoded - image).mean() < 8  # JPEG at quality 95 is close to what was drawn


def test_reader_batches_every_record_once_in_eval_order(data_dir):
    batches = list(imagenet.dataset(data_dir, False, 4, 32, num_classes=6, repeat=False))
    images = np.concatenate([b[0].numpy() for b in batches])
    labels = np.concatenate([b[1].numpy() for b in batches])
    assert images.shape == (10, 32, 32, 3) and images.dtype == np.float32
    assert sorted(set(labels)) <= [1, 2, 3, 4, 5]
    train = next(iter(imagenet.dataset(data_dir, True, 8, 32, num_classes=6, seed=1)))
    assert train[0].shape == (8, 32, 32, 3)


def test_per_replica_batches_and_sharding(data_dir):
    context = tf.distribute.InputContext(num_input_pipelines=2, input_pipeline_id=1, num_replicas_in_sync=2)
    images, labels = next(
        iter(imagenet.dataset(data_dir, True, 8, 32, num_classes=6, fast=True, input_context=context))
    )
    assert images.shape == (4, 32, 32, 3)


def test_bad_input_names_the_folder_file_or_record(data_dir, tmp_path):
    with pytest.raises(DataError, match="does not exist"):
        imagenet.dataset(str(tmp_path / "missing"), True, 4, 32)
    with pytest.raises(DataError, match="no train shards"):
        imagenet.dataset(str(tmp_path), True, 4, 32)
    # Labels are 1-based, so with one class every record is out of range: the first batch fails,
    # whatever the shuffle drew (num_classes=3 failed only when a label >= 3 was drawn).
    with pytest.raises(tf.errors.InvalidArgumentError, match="label out of range.*train-0000"):
        next(iter(imagenet.dataset(data_dir, True, 4, 32, num_classes=1)))
    corrupt = tmp_path / "corrupt"
    corrupt.mkdir()
    (corrupt / "train-00000-of-00001").write_bytes(b"\x00" * 64)
    with pytest.raises(DataError, match="train-00000-of-00001: not a readable TFRecord file"):
        imagenet.dataset(str(corrupt), True, 4, 32)


def test_slim_layout_reader(data_dir, tmp_path):
    for name in os.listdir(data_dir):
        split = name.split("-")[0]
        os.link(os.path.join(data_dir, name), tmp_path / f"flowers_{split}_{name[-14:-9]}.tfrecord")
    (tmp_path / "labels.txt").write_text("1:daisy\n2:rose\n")
    assert slim_layout.read_labels(str(tmp_path)) == {1: "daisy", 2: "rose"}
    images, labels = next(iter(slim_layout.dataset(str(tmp_path), "flowers", "train", 4, 32, 6, fast=True)))
    assert images.shape == (4, 32, 32, 3)
    (tmp_path / "labels.txt").write_text("daisy\n")
    with pytest.raises(DataError, match=r"labels.txt:1: expected 'id:name'"):
        slim_layout.read_labels(str(tmp_path))


def test_tower_split():
    assert num_towers(0) == 1 and num_towers(2) == 2
    assert per_tower_batch(128, 2) == 64 and per_tower_batch(7, 1) == 7
    with pytest.raises(DeviceError, match="does not split evenly over 3 towers"):
        per_tower_batch(128, 3)


def test_synth_command_help_and_bad_arguments(tmp_path):
    assert "synthetic ImageNet-format" in run_module("trainlib.data.synth", ["--help"]).stdout
    bad = run_module("trainlib.data.synth", ["--out", str(tmp_path), "--images", "0"])
    assert bad.returncode == 2 and "--images must be at least 1" in bad.stderr
