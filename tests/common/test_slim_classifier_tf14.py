"""research/slim's train_image_classifier as TF 1.4 users ran it trains unmodified under uai-run and as uai-migrate ports it.

tf1_programs/slim_classifier_tf14/ is the program at its real size: ~50 tf.app.flags, a dataset_factory
whose data set reads TFRecords through slim.dataset.Dataset, TFExampleDecoder (Image, Tensor and
callback handlers) and DatasetDataProvider, tf.train.batch and slim.prefetch_queue, a nets_factory
(ours and tf.contrib.slim.nets'), a preprocessing_factory, model_deploy's clones, moving averages
and slim.learning.train. slim_classifier_tf14_migrated/ is uai-migrate's output for it
(tests/tf2/test_slim_classifier_tf14_port_and_cluster.py holds it equal to a fresh run, and runs the program as a
ps + master + worker cluster). Both ways draw TF 1.15's op seeds (compat/_graph_seed.py) and read
the same batches: their losses are equal. And they are real TF 1.15's: both ways start from the initial
weights TF 1.15 draws for the program, bit for bit, and log its first loss (golden file
tests/common/golden/tf115_slim_classifier.json, written by tf1_programs/slim_classifier_initial_weights.py on
1.15), because tf-slim's data path before the model leaves the op count, so the op seeds, where 1.15 left
them (tf1_programs/data_path_op_seeds.py: the op seed after each of its builders, golden
tests/common/golden/tf115_data_path_op_seeds.json).
"""

import hashlib
import os
import sys

import pytest

from tests.support import runs as _runs
from tests.support import slim_records
from tests.support.goldens import run_against_tf115, tf115_values
from tests.support.uai_run import digests

# one step at a learning rate of 0 (the checkpoint then holds the initial weights), and the loss TF 1.15 logged
GOLDEN = tf115_values("tf115_slim_classifier.json")


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


def test_starts_from_tf115s_initial_weights_and_first_loss_both_ways(records, tmp_path):
    import tensorflow as tf

    program = os.path.join(slim_records.PROGRAM_DIR, slim_records.PROGRAM, slim_records.SCRIPT)
    port = os.path.join(slim_records.PROGRAM_DIR, slim_records.PROGRAM + "_migrated", slim_records.SCRIPT)
    ways = {"uai-run": [sys.executable, "-m", "uai_run", program], "ported": [sys.executable, port]}
    flags = {way: [*GOLDEN["args"], f"--dataset_dir={records}", f"--train_dir={tmp_path / way}"] for way in ways}
    results = _runs.run_all({way: [*command, *flags[way]] for way, command in ways.items()}, tmp_path)
    for way, result in results.items():
        reader = tf.train.load_checkpoint(str(tmp_path / way))
        weights = {
            name: hashlib.sha256(reader.get_tensor(name).tobytes()).hexdigest()
            for name in reader.get_variable_to_shape_map()
            if name != "global_step" and "RMSProp" not in name  # the optimizer's slots hold the step's gradients
        }
        want = GOLDEN["initial_weights"]
        assert weights == want, (way, sorted(name for name in want if weights.get(name) != want[name]))
        assert slim_records.losses(result)[1] == GOLDEN["first_loss"], way


def test_its_data_path_builders_leave_tf115s_op_seeds_under_uai_run(tmp_path):
    values, golden = run_against_tf115("data_path_op_seeds.py", "tf115_data_path_op_seeds.json", tmp_path)
    assert values == golden, sorted(case for case in golden if values[case] != golden[case])
