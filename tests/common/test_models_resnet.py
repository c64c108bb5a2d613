"""trainlib.models.resnet: sizes, parameter counts, and checkpoints that cross runtimes."""

import numpy as np
import pytest
import tensorflow as tf

import compat  # noqa: F401 - before TensorFlow: selects legacy Keras on TF >= 2.16
from trainlib.models import names
from trainlib.models.resnet import SIZES, ResNet, l2_weights


def _params(model):
    return sum(int(np.prod(v.shape)) for v in model.trainable_variables)


def _keras_resnet50_without_conv_biases():
    # Keras' ResNet50 (weights=None builds offline) is v1 with a bias on every conv; ours has
    # none (batch norm follows): the published 25.6M is Keras' count minus those biases.
    reference = tf.keras.applications.ResNet50(weights=None, classes=1000)
    biases = sum(
        int(np.prod(layer.bias.shape)) for layer in reference.layers if isinstance(layer, tf.keras.layers.Conv2D)
    )
    return reference.count_params() - biases - sum(int(np.prod(w.shape)) for w in reference.non_trainable_weights)


def test_resnet50_v1_matches_the_published_parameter_count():
    model = ResNet(50, num_classes=1000, version=1)
    model(tf.zeros([1, 32, 32, 3]))
    assert _params(model) == _keras_resnet50_without_conv_biases()
    assert abs(_params(model) - 25.6e6) / 25.6e6 < 0.01


# 152 and 200 are 101's bottleneck blocks in other counts per stage (resnet_layout.IMAGENET_LAYOUT): any counts
# build alike, so tracing them (7-10 CPU-s each) would show nothing 101's does not.
BUILT = [size for size in SIZES if size <= 101]


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("size", BUILT)
def test_every_layout_builds_and_small_ones_run_forward(size, version):
    model = ResNet(size, num_classes=1001, version=version)
    images = tf.random.uniform([2, 32, 32, 3])
    if size <= 50:
        logits = model(images, training=True)
        assert logits.shape == (2, 1001)
        assert np.isfinite(logits.numpy()).all()
    else:  # building the graph of the deep nets is the test; running them is minutes on CPU
        tf.function(model).get_concrete_function(tf.TensorSpec([None, 32, 32, 3], tf.float32))
    mapping = names.name_map(model.variables)
    assert all(name.startswith("resnet/") and ":" not in name for name in mapping)
    assert len(mapping) == len(model.variables)
    assert float(l2_weights(model.trainable_variables)) > 0


def test_bad_size_is_a_clear_error():
    with pytest.raises(ValueError, match="resnet_size must be one of"):
        ResNet(42)


def _graph_logits_and_checkpoint(tmp_path, images):
    """Build the model TF1 style (graph, variable scope, Saver with the graph's own names)."""
    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.set_random_seed(1)
        model = ResNet(8, num_classes=10)
        with tf.compat.v1.variable_scope("resnet"):
            logits = model(tf.constant(images), training=False)
        saver = tf.compat.v1.train.Saver()
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            path = saver.save(session, str(tmp_path / "graph" / "model.ckpt"))
            return session.run(logits), path, [v.name for v in model.variables]


def test_graph_checkpoint_restores_into_the_eager_model_and_back(tmp_path):
    images = np.random.RandomState(0).uniform(size=(2, 32, 32, 3)).astype(np.float32)
    graph_logits, graph_ckpt, graph_names = _graph_logits_and_checkpoint(tmp_path, images)
    assert all(name.startswith("resnet/resnet/") for name in graph_names)  # the runtimes do differ

    eager = ResNet(8, num_classes=10)
    eager(tf.zeros([1, 32, 32, 3]))
    names.restore_by_name(eager.variables, graph_ckpt)
    np.testing.assert_allclose(eager(images, training=False).numpy(), graph_logits, rtol=1e-5, atol=1e-5)

    # And back: the eager model's stable-name checkpoint into a fresh graph-mode model.
    for v in eager.trainable_variables:
        v.assign(v * 1.5)
    expected = eager(images, training=False).numpy()
    eager_ckpt = names.save_by_name(eager.variables, str(tmp_path / "eager" / "model.ckpt"))
    with tf.Graph().as_default():
        model = ResNet(8, num_classes=10)
        with tf.compat.v1.variable_scope("resnet"):
            logits = model(tf.constant(images), training=False)
        restore = names.restore_by_name(model.variables, eager_ckpt)
        with tf.compat.v1.Session() as session:
            session.run(restore)
            np.testing.assert_allclose(session.run(logits), expected, rtol=1e-5, atol=1e-5)


def test_config_from_default_flags_is_the_default_config_and_round_trips_through_params():
    import compat.flags as flags
    from trainlib.training import resnet_flags, schedule
    from trainlib.training.resnet_config import ResNetConfig

    values = flags.FlagValues()
    resnet_flags.define_resnet_flags(values)
    values(["prog"])
    config = ResNetConfig.from_flags(values)
    batches = schedule.steps_per_epoch(values.train_images, values.train_batch_size)
    assert config == ResNetConfig(batches_per_epoch=batches)  # one set of defaults: the flags read the config's
    values(["prog", "--resnet_size=8", "--resnet_version=1", "--num_classes=11"])
    config = ResNetConfig.from_flags(values)
    assert (config.resnet_size, config.resnet_version, config.num_classes) == (8, 1, 11)
    params = config.as_params(towers=2)
    assert params["towers"] == 2 and ResNetConfig.from_params(params) == config
    model = config.build_model()
    assert (model.resnet_size, model.version, model.num_classes) == (8, 1, 11)
