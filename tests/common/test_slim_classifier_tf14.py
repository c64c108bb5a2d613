"""research/slim's train_image_classifier as TF 1.4 users ran it trains unmodified under uai-run and as uai-migrate ports it.

tf1_programs/slim_classifier_tf14/ is the program at its real size: ~50 tf.app.flags, a dataset_factory
whose data set reads TFRecords through slim.dataset.Dataset, TFExampleDecoder (Image, Tensor and
callback handlers) and DatasetDataProvider, tf.train.batch and slim.prefetch_queue, a nets_factory
(ours and tf.contrib.slim.nets'), a preprocessing_factory, model_deploy's clones, moving averages
and slim.learning.train. slim_classifier_tf14_migrated/ is uai-migrate's output for it
(tests/tf2/test_slim_classifier_tf14_port_and_cluster.py holds it equal to a fresh run, and runs the program as a
ps + master + worker cluster). Both ways draw TF 1.15's op seeds (compat/_graph_seed.py) and read
the same batches: their losses are equal.
"""

import os
import sys

import pytest

from tests.support import runs as _runs
from tests.support import slim_records
from tests.support.uai_run import digests


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    return slim_records.write_records(tmp_path_factory.mktemp("tiny_shapes"))


def test_trains_unmodified_under_uai_run_with_the_losses_of_its_port(records, tmp_path):
    import tensorflow as tf

    program_dir = os.path.join(slim_records.PROGRAM_DIR, slim_records.PROGRAM)
    before = digests(program_dir)
    program = os.path.join(program_dir, slim_records.SCRIPT)
    port = os.path.join(slim_records.PROGRAM_DIR, slim_records.PROGRAM + "_migrated", slim_records.SCRIPT)
    commands = {
        "uai-run": [sys.executable, "-m", "uai_run", program, *slim_records.arguments(records, tmp_path / "uai-run")],
        "ported": [sys.executable, port, *slim_records.arguments(records, tmp_path / "ported")],
    }
    results = _runs.run_all(commands, tmp_path)
    losses = {way: slim_records.losses(result) for way, result in results.items()}
    assert sorted(losses["uai-run"]) == list(range(1, slim_records.STEPS + 1)), losses
    assert losses["uai-run"] == losses["ported"]
    for way in commands:
        reader = tf.train.load_checkpoint(str(tmp_path / way))
        names = reader.get_variable_to_shape_map()
        assert reader.get_tensor("global_step") == slim_records.STEPS
        assert names["TinyNet/logits/weights"] == [32, slim_records.CLASSES], names
        assert "TinyNet/logits/weights/ExponentialMovingAverage" in names, names
        # model_deploy built two clones, each dividing its loss by two
        assert "clone_1/scaled_clone_loss" in (tmp_path / way / "graph.pbtxt").read_text()
    assert digests(program_dir) == before
