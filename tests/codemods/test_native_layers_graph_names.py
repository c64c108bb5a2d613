"""native-layers: a layer's name as the graph an Estimator builds holds it (helper-76's hostile pass). In that graph
Keras names a layer's variables by a name scope made unique among the graph's names, which TensorFlow compares
ignoring case and which hold the Estimator's global_step before the model_fn runs; TF1 named them by the variable
scope, case and all. A layer whose name scope such a name would number stays at the safe level: its port (the
Estimator kept) could not restore the safe port's checkpoint (NotFoundError: Key global_step_1/biases)."""

import textwrap

from codemods.rules.native_layers import NativeLayersRule
from tests.support.rule_test import RuleTest

# an Estimator program whose model_fn is `body`, as the safe pass leaves it
PROGRAM = """
import compat
import compat.slim as slim
import tensorflow as tf


def model_fn(features, labels, mode):
{body}
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


if __name__ == "__main__":
    tf.estimator.Estimator(model_fn).train(input_fn, max_steps=1)
"""
# two unnamed conv2d (Conv, Conv_1), a flatten and a named fully_connected
SLIM_BODY = """
    net = slim.conv2d(features, 4, [3, 3])
    net = slim.conv2d(net, 4, 3, stride=2, padding="VALID")
    logits = slim.fully_connected(slim.flatten(net), 3, activation_fn=None, scope="logits")
    loss = tf.reduce_mean(logits)
    train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
"""


def program(body: str) -> str:
    return PROGRAM.format(body=textwrap.indent(textwrap.dedent(body).strip("\n"), "    "))


class TestGraphNames(RuleTest):
    TRANSFORM = NativeLayersRule

    def test_must_not_fire_where_the_graph_numbers_a_slim_layers_name_scope(self):
        cases = {
            # an op made before the layers, named as one of them but for case: Conv's variables would be Conv_1/...
            "named 'conv'": (
                "net = slim.conv2d(features",
                'features = tf.identity(features, name="conv")\n    net = slim.conv2d(features',
            ),
            # the Estimator's global step, made before the model_fn: global_step_1/weights
            "named 'global_step'": ('scope="logits"', 'scope="global_step"'),
            # Keras's Flatten made at the call takes flatten: Flatten's scope would be Flatten_1
            "'Flatten'": ('scope="logits"', 'scope="Flatten"'),
            # two tf-slim layers of one name but for case (TF1's variable scopes Conv and conv): conv_1/weights
            "scopes 'Conv' and 'conv'": ('padding="VALID")', 'padding="VALID", scope="conv")'),
        }
        for why, (old, new) in cases.items():
            messages = self.refused(program(SLIM_BODY.replace(old, new)))
            assert len(messages) == 4 and any(why in m for m in messages), (why, messages)
            assert all(why in m or "they convert all or none" in m for m in messages), (why, messages)

    def test_must_not_fire_where_a_slim_scope_is_kerass_default_name_of_an_unnamed_layer(self):
        # TF1's unnamed tf.layers.dense after slim's scope dense was dense_1 (its variable scope numbered past it);
        # the port's unnamed Keras Dense is dense (eager: the loop's port asked the checkpoint for dense/bias)
        body = SLIM_BODY.replace('scope="logits")', 'scope="dense")\n    logits = tf.compat.v1.layers.dense(logits, 3)')
        entries = self.applied(program(body), level="native").entries
        slim = [e.message for e in entries if "tf-slim" in e.message or "all or none" in e.message]
        assert len(slim) == 4 and any("'dense'" in m and "default name" in m for m in slim), slim
        assert all("left at the safe level" in m for m in slim), slim


class TestGraphNamesOfTfLayers(RuleTest):
    TRANSFORM = NativeLayersRule

    def test_must_not_fire_where_an_op_is_named_as_kerass_default_name_but_for_case(self):
        # an unnamed tf.layers.dense after an op named Dense: TF1's variable scope dense, Keras's name scope dense_1
        body = """
            net = tf.identity(features, name="Dense")
            logits = tf.compat.v1.layers.dense(net, 3)
            loss = tf.reduce_mean(logits)
            train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
        """
        messages = self.refused(program(body))
        assert len(messages) == 1 and "another op or scope of the file is named 'Dense'" in messages[0], messages

    def test_must_not_fire_after_an_op_tensorflow_names_as_kerass_default_name_but_for_case(self):
        # tf.nn.conv2d's op is named Conv2D where the call names none: the unnamed Keras Conv2D's variables became
        # conv2d_1/kernel, TF1's were conv2d/kernel, and the port's restore of the safe port's checkpoint failed
        # (NotFoundError: Key conv2d_1/bias; TF 2.21)
        body = """
            net = tf.nn.conv2d(features, tf.ones([1, 1, 2, 2]), [1, 1, 1, 1], "SAME")
            net = tf.compat.v1.layers.conv2d(net, 4, 3)
            loss = tf.reduce_mean(net)
            train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
        """
        messages = self.refused(program(body))
        assert len(messages) == 1 and "another op or scope of the file is named 'Conv2D'" in messages[0], messages
        named = self.applied(program(body.replace('"SAME")', '"SAME", name="first")')), level="native")
        assert "tf.keras.layers.Conv2D(4, 3" in named.module.code, named.module.code
