"""The slim programs' shared tables, in-process with fresh FlagValues: one optimizer/decay row per name, both runtimes.

`trainlib.training.slim_optimization` holds the rows; legacy_tf1 picks the `tf.compat.v1.train`
class, modern_tf2 the Keras one. Both must train with the same hyper-parameters and rates.
"""

import compat

compat.install()

import pytest  # noqa: E402
import tensorflow as tf  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import compat.flags as flags  # noqa: E402
from compat.errors import DataError  # noqa: E402
from legacy_tf1 import v1_optimizers as legacy  # noqa: E402
from modern_tf2 import trainer as modern  # noqa: E402
from trainlib.training import slim_data, slim_flags, slim_optimization  # noqa: E402
from trainlib.training.resnet_flags import IMAGENET_TRAIN_IMAGES  # noqa: E402

v1 = tf.compat.v1
SAMPLES = 30  # with --batch_size=10 and one epoch per decay: a decay every 3 steps
BASE, FACTOR, END = 0.5, 0.94, 0.0001  # --learning_rate, and slim's defaults
EXPECTED_RATES = {  # at steps 1, 3, 6
    "fixed": [BASE, BASE, BASE],
    "exponential": [BASE, BASE * FACTOR, BASE * FACTOR**2],  # staircase every 3 steps
    "polynomial": [BASE - (BASE - END) / 3, END, END],  # linear to the end rate over 3 steps, then held
}


def slim_values(*argv):
    values = flags.FlagValues()
    slim_flags.define_slim_flags(values)
    values(["prog", "--batch_size=10", "--num_epochs_per_decay=1", f"--learning_rate={BASE}", *argv])
    return values


def legacy_step(values):
    """(weights after one step from (0, 4) toward (1, 1), the rate at steps 1, 3, 6) in graph mode."""
    with tf.Graph().as_default():
        step = v1.train.get_or_create_global_step()
        weight = v1.get_variable("w", initializer=[0.0, 4.0])
        rate = legacy.learning_rate(values, SAMPLES, step)
        train = legacy.optimizer(values, rate).minimize(tf.reduce_sum(tf.square(weight - 1.0)), global_step=step)
        with v1.Session() as session:
            session.run(v1.global_variables_initializer())
            session.run(train)
            moved = session.run(weight).tolist()
            rates = []
            for at in (1, 3, 6):
                step.load(at, session)
                rates.append(float(session.run(rate)))
    return moved, rates


def modern_step(values):
    """The same with the Keras optimizer, eagerly."""
    weight = tf.Variable([0.0, 4.0])
    optimizer = modern.slim_optimizer(values, SAMPLES)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(weight - 1.0))
    optimizer.apply_gradients([(tape.gradient(loss, weight), weight)])
    rate = modern.slim_learning_rate(values, SAMPLES)
    rates = [float(rate(at)) if callable(rate) else float(rate) for at in (1, 3, 6)]
    return weight.numpy().tolist(), rates


@pytest.mark.parametrize("runtime", [legacy_step, modern_step], ids=["tf.compat.v1.train", "keras"])
@pytest.mark.parametrize("decay", slim_flags.DECAY_TYPES)
@pytest.mark.parametrize("optimizer", slim_flags.OPTIMIZER_NAMES)
def test_every_optimizer_and_decay_runs_a_step_in_each_runtime(runtime, optimizer, decay):
    moved, rates = runtime(slim_values(f"--optimizer={optimizer}", f"--learning_rate_decay_type={decay}"))
    assert moved[0] > 0 and moved[1] < 4, moved  # both weights move toward 1
    assert rates == pytest.approx(EXPECTED_RATES[decay], rel=1e-5)


@pytest.mark.parametrize("name", slim_flags.OPTIMIZER_NAMES)
def test_each_row_passes_every_flag_to_both_runtimes_classes(name):
    """The classes take the row's keywords, and both runtimes get the same values."""
    row = slim_optimization.OPTIMIZERS[name]
    values = slim_values()
    arguments = {runtime: row.arguments(values, runtime) for runtime in (slim_optimization.V1, slim_optimization.KERAS)}
    assert sorted(arguments["v1"].values()) == sorted(arguments["keras"].values())
    with tf.Graph().as_default():
        getattr(v1.train, row.v1)(0.1, **arguments["v1"])
    getattr(tf.keras.optimizers, row.keras)(0.1, **arguments["keras"])


def test_unknown_names_are_named():
    values = slim_values()
    values.optimizer, values.learning_rate_decay_type = "lion", "cosine"
    with pytest.raises(ValueError, match="optimizer must be one of adadelta, .*'lion'"):
        slim_optimization.optimizer(values)
    with pytest.raises(ValueError, match="learning_rate_decay_type must be one of fixed, .*'cosine'"):
        slim_optimization.decay(values)


@given(
    samples=st.integers(0, 10**7),
    epochs=st.floats(0.01, 100),
    batch=st.integers(1, 4096),
    sync=st.booleans(),
    replicas=st.integers(0, 64),
)
def test_decay_steps_are_epochs_of_batches_per_replica_set_and_at_least_one(samples, epochs, batch, sync, replicas):
    values = type("Values", (), {})()
    values.num_epochs_per_decay, values.batch_size = epochs, batch
    values.sync_replicas, values.replicas_to_aggregate = sync, replicas
    steps = int(samples * epochs / batch)
    expected = steps // max(replicas, 1) if sync else steps
    assert slim_optimization.decay_steps(values, samples) == max(expected, 1)


def test_the_dataset_flags_resolve_alike_for_both_programs(tmp_path):
    imagenet = slim_values(f"--dataset_dir={tmp_path}")
    assert slim_data.num_classes(imagenet) == slim_data.IMAGENET_CLASSES
    assert slim_data.pattern(imagenet) == "train-*-of-*"
    assert slim_data.samples_per_epoch(imagenet, []) == IMAGENET_TRAIN_IMAGES
    imagenet.dataset_split_name = "test"
    with pytest.raises(DataError, match="splits train and validation, not 'test'"):
        slim_data.pattern(imagenet)

    flowers = slim_values(f"--dataset_dir={tmp_path}", "--dataset_name=flowers", "--model_name=lenet")
    assert slim_data.pattern(flowers, "validation") == "flowers_validation_*.tfrecord"
    assert slim_data.preprocessing(flowers) == "lenet"
    with pytest.raises(DataError, match="no labels.txt"):
        slim_data.num_classes(flowers)
    (tmp_path / "labels.txt").write_text("0:background\n4:rose\n")
    assert slim_data.num_classes(flowers) == 5
    flowers.num_classes = 7
    assert slim_data.num_classes(flowers) == 7


def test_platform_flags_fill_slim_flags_left_unset():
    import types

    unset = types.SimpleNamespace(dataset_dir="", train_dir="", num_clones=0, max_number_of_steps=None)
    platform = dict(data_dir="/d", output_dir="/o", num_gpus=2, max_step=7)
    assert vars(slim_flags.platform_overrides(types.SimpleNamespace(**vars(unset), **platform))) == dict(
        dataset_dir="/d", train_dir="/o", num_clones=2, max_number_of_steps=7, **platform
    )
    own = dict(dataset_dir="/s", train_dir="/t", num_clones=1, max_number_of_steps=3)
    values = slim_flags.platform_overrides(types.SimpleNamespace(**own, **platform))
    assert {name: getattr(values, name) for name in own} == own
    no_gpus = types.SimpleNamespace(**vars(unset), **dict(platform, num_gpus=0, max_step=0))
    no_gpus = slim_flags.platform_overrides(no_gpus)
    assert (no_gpus.num_clones, no_gpus.max_number_of_steps) == (1, None)  # 0 clones crashed the example
