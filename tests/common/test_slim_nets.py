"""compat.slim_nets.SlimNet: a tf-slim net function as a Keras layer of TF 2 code, its variables TF1's.

The expected values are TF's own: the same net function built in a graph under its arg_scope (what the safe port of a
TF1 program runs), trained by tf-slim's create_train_op (which runs UPDATE_OPS with each step).
"""

import numpy as np
import pytest
import tensorflow as tf

import compat  # noqa: F401  (tf.keras is Keras 2)
from compat import slim_nets
from compat.errors import CompatError, SlimNetError

slim = pytest.importorskip("tf_slim")
from tf_slim.nets import resnet_v1  # noqa: E402

STEPS = 3


def _tiny_resnet(images, is_training=True):
    """resnet_v1 of one small block (the zoo's own function and blocks): the 50's code at a few seconds' cost."""
    blocks = [resnet_v1.resnet_v1_block("block1", base_depth=2, num_units=1, stride=2)]
    return resnet_v1.resnet_v1(images, blocks, num_classes=3, is_training=is_training, scope="tiny")


def _graph_variables(net_fn, shape, **kwargs):
    """The variables (name -> shape) and the regularization losses' count of `net_fn` built in a TF1 graph under
    resnet_arg_scope."""
    with tf.Graph().as_default() as graph:
        images = tf.compat.v1.placeholder(tf.float32, shape)
        with slim.arg_scope(resnet_v1.resnet_arg_scope()):
            net_fn(images, **kwargs)
        variables = {v.op.name: v.shape.as_list() for v in graph.get_collection("variables")}
        return variables, len(graph.get_collection(tf.compat.v1.GraphKeys.REGULARIZATION_LOSSES))


def test_resnet_v1_50_makes_the_variables_of_tf1s_graph_under_their_names():
    expected, regularized = _graph_variables(resnet_v1.resnet_v1_50, [None, 32, 32, 3], num_classes=10)
    net = slim_nets.SlimNet(resnet_v1.resnet_v1_50, resnet_v1.resnet_arg_scope(), num_classes=10, is_training=True)
    assert not net.variables
    net.create_variables(tf.TensorSpec([None, 32, 32, 3]))
    made = {v.name.split(":")[0]: v.shape.as_list() for v in net.variables}
    assert "resnet_v1_50/block1/unit_1/bottleneck_v1/conv1/BatchNorm/beta" in expected
    assert made == expected and len(made) == len(net.variables)
    assert len(net.losses) == regularized > 0  # (the arg_scope's weight decay: each regularized weight's loss)


def _batches():
    rng = np.random.RandomState(4)
    return [(rng.rand(4, 16, 16, 3).astype(np.float32), rng.randint(0, 3, 4)) for _ in range(STEPS)]


def _tf1_training(batches):
    """TF1's program: the net under its arg_scope, cross entropy plus the regularization losses, create_train_op
    (SGD). Returns the initial values by name, the step losses, the moving statistics after the steps."""
    with tf.Graph().as_default() as graph:
        images = tf.compat.v1.placeholder(tf.float32, [None, 16, 16, 3])
        labels = tf.compat.v1.placeholder(tf.int64, [None])
        with slim.arg_scope(resnet_v1.resnet_arg_scope()):
            logits, _ = _tiny_resnet(images)
        made = graph.get_collection("variables")  # (the net's: create_train_op adds the global step)
        loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels, tf.squeeze(logits, [1, 2]))
        total = tf.compat.v1.losses.get_total_loss()
        train_op = slim.learning.create_train_op(total, tf.compat.v1.train.GradientDescentOptimizer(0.1))
        moving = [v for v in made if "moving_" in v.op.name]
        assert loss is not None and moving
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            initial = {v.op.name: sess.run(v) for v in made}
            losses = [float(sess.run(train_op, {images: x, labels: y})) for x, y in batches]
            return initial, losses, {v.op.name: sess.run(v) for v in moving}


def test_a_train_step_trains_as_tf1s_create_train_op_and_updates_the_moving_statistics():
    batches = _batches()
    initial, expected, moving = _tf1_training(batches)
    net = slim_nets.SlimNet(_tiny_resnet, resnet_v1.resnet_arg_scope(), is_training=True)
    net.create_variables(tf.TensorSpec([None, 16, 16, 3]))
    assert sorted(v.name.split(":")[0] for v in net.variables) == sorted(initial)
    for variable in net.variables:
        variable.assign(initial[variable.name.split(":")[0]])
    optimizer = tf.keras.optimizers.SGD(0.1)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            logits, _ = net(x)
            loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=tf.squeeze(logits, [1, 2]))
            )
            total = tf.add_n([loss, *net.losses])
        variables = net.trainable_variables
        optimizer.apply_gradients(zip(tape.gradient(total, variables), variables))
        return total

    losses = [float(step(x, y)) for x, y in batches]
    np.testing.assert_allclose(losses, expected, rtol=1e-5)
    assert len(set(losses)) == STEPS  # (it trained)
    statistics = {v.name.split(":")[0]: v.numpy() for v in net.variables if "moving_" in v.name}
    assert sorted(statistics) == sorted(moving)
    for name, value in moving.items():
        assert not np.allclose(value, initial[name]), name  # (TF1's step updated them)
        np.testing.assert_allclose(statistics[name], value, rtol=1e-5, atol=1e-6, err_msg=name)


def test_later_calls_use_the_variables_of_the_first():
    net = slim_nets.SlimNet(_tiny_resnet, resnet_v1.resnet_arg_scope(), is_training=False)
    images = tf.ones([2, 16, 16, 3])
    first, _ = net(images)
    made = list(net.variables)
    second, _ = net(images)
    assert [v.ref() for v in net.variables] == [v.ref() for v in made]
    np.testing.assert_allclose(second.numpy(), first.numpy())
    net.create_variables(tf.TensorSpec([None, 16, 16, 3]))  # (made already: nothing)
    assert len(net.variables) == len(made)


@pytest.mark.parametrize(
    "make, says",
    [
        (lambda: slim_nets.SlimNet("resnet_v1_50"), "net function"),
        (lambda: slim_nets.SlimNet(_tiny_resnet, resnet_v1.resnet_arg_scope), "call it"),
        (lambda: slim_nets.SlimNet(_tiny_resnet, [slim.conv2d]), "not list"),
        (lambda: slim_nets.SlimNet(_tiny_resnet).create_variables([None, 16, 16, 3]), "tf.TensorSpec"),
    ],
)
def test_bad_arguments_raise_a_typed_error(make, says):
    with pytest.raises(SlimNetError, match=says) as raised:
        make()
    assert isinstance(raised.value, CompatError) and isinstance(raised.value, TypeError)


def test_a_tf1_checkpoint_of_the_net_restores_into_the_layer_by_name(tmp_path):
    with tf.Graph().as_default() as graph:
        images = tf.compat.v1.placeholder(tf.float32, [None, 16, 16, 3])
        with slim.arg_scope(resnet_v1.resnet_arg_scope()):
            _tiny_resnet(images)
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            saved = {v.op.name: sess.run(v) for v in graph.get_collection("variables")}
            path = tf.compat.v1.train.Saver().save(sess, str(tmp_path / "model.ckpt"))
    net = slim_nets.SlimNet(_tiny_resnet, resnet_v1.resnet_arg_scope(), is_training=True)
    net.create_variables(tf.TensorSpec([None, 16, 16, 3]))
    tf.train.Checkpoint(net=net).restore(path).assert_existing_objects_matched()
    restored = {v.name.split(":")[0]: v.numpy() for v in net.variables}
    assert sorted(restored) == sorted(saved)
    for name, value in saved.items():
        np.testing.assert_array_equal(restored[name], value, err_msg=name)
    assert any(not np.all(value == 0) for value in saved.values())


@pytest.mark.parametrize("restore_first", [False, True])
def test_a_tf2_checkpoint_restores_before_or_after_the_variables_are_made(tmp_path, restore_first):
    spec = tf.TensorSpec([None, 16, 16, 3])
    saved = slim_nets.SlimNet(_tiny_resnet, resnet_v1.resnet_arg_scope(), is_training=True)
    saved.create_variables(spec)
    for index, variable in enumerate(saved.variables):
        variable.assign(tf.fill(variable.shape, 0.5 + index))
    path = tf.train.Checkpoint(net=saved).save(str(tmp_path / "ckpt"))
    net = slim_nets.SlimNet(_tiny_resnet, resnet_v1.resnet_arg_scope(), is_training=True)
    if not restore_first:
        net.create_variables(spec)
    status = tf.train.Checkpoint(net=net).restore(path)  # (first: restored as the variables are made)
    net.create_variables(spec)
    status.assert_consumed()
    assert [v.name for v in net.variables] == [v.name for v in saved.variables]
    for variable, original in zip(net.variables, saved.variables):
        np.testing.assert_array_equal(variable.numpy(), original.numpy(), err_msg=variable.name)
