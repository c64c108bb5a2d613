"""native-session on a tf-slim zoo net (codemods/rules/_native_slim_nets.py): `with slim.arg_scope(<zoo>_arg_scope()):`
around the net's call -> a compat.slim_nets.SlimNet made once, called in model(); what the layer would not do as TF1
did keeps the script at the safe level with an entry saying why. The equivalence test trains both ports from the safe
port's checkpoint (bench/native.py's method)."""

import os
import textwrap

import pytest

from bench import native
from codemods.rules.native_session import NativeSessionRule
from tests.support.rule_test import RuleTest

SCRIPT = """
    import numpy as np
    import tensorflow as tf
    import tf_slim as slim
    from tf_slim.nets import resnet_v1

    images = tf.placeholder(tf.float32, [None, 32, 32, 3])
    labels = tf.placeholder(tf.int64, [None])
    with slim.arg_scope(resnet_v1.resnet_arg_scope(weight_decay=0.001)):
        logits, end_points = resnet_v1.resnet_v1_50(images, num_classes=3, is_training=True)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=tf.squeeze(logits, [1, 2])))
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train_op = tf.train.GradientDescentOptimizer(0.001).minimize(loss)
    rng = np.random.RandomState(0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(3):
            feed = {images: rng.rand(4, 32, 32, 3).astype(np.float32), labels: rng.randint(0, 3, 4)}
            _, value = sess.run([train_op, loss], feed_dict=feed)
            print("step", step, value)
"""


class TestSlimNets(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_a_zoo_net_under_its_arg_scope_becomes_a_layer_made_once(self):
        after = """
            import compat
            import numpy as np
            import tensorflow as tf
            from tf_slim.nets import resnet_v1

            resnet_v1_50 = compat.slim_nets.SlimNet(resnet_v1.resnet_v1_50, resnet_v1.resnet_arg_scope(weight_decay=0.001), num_classes=3, is_training=True)

            def model(images, labels):
                logits, end_points = resnet_v1_50(images)
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=tf.squeeze(logits, [1, 2])))
                return {"loss": loss}

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.001)

            @tf.function(input_signature=[tf.TensorSpec([None, 32, 32, 3], tf.float32), tf.TensorSpec([None], tf.int64)])
            def train_step(images, labels):
                with tf.GradientTape() as tape:
                    outputs = model(images, labels)
                variables = tape.watched_variables()
                optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                return outputs["loss"]

            rng = np.random.RandomState(0)
            for step in range(3):
                feed = {"images": rng.rand(4, 32, 32, 3).astype(np.float32), "labels": rng.randint(0, 3, 4)}
                value = train_step(**feed).numpy()
                print("step", step, value)
        """
        self.assertCodemod(SCRIPT, after, level="native")
        (said,) = [e.message for e in self.applied(SCRIPT, level="native").entries]
        assert "resnet_v1_50 = compat.slim_nets.SlimNet(resnet_v1.resnet_v1_50" in said, said
        assert "under TF1's names, resnet_v1_50/..." in said, said
        assert "updates its moving statistics in the call" in said, said
        (said,) = [
            e.message
            for e in self.applied(
                SCRIPT.replace("is_training=True", "is_training=False").replace(
                    "    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):\n        train_op",
                    "    train_op",
                ),
                level="native",
            ).entries
        ]
        assert "under TF1's names, resnet_v1_50/...)" in said, said  # (a net in inference mode updates nothing)

    def test_each_home_of_the_zoo_converts(self):
        # (tf.contrib.slim.nets as TF1 wrote it, its nets read through the slim module, a file of tensorflow.compat.v1)
        base = textwrap.dedent(SCRIPT)
        forms = {
            "contrib": base.replace(
                "import tf_slim as slim\nfrom tf_slim.nets import resnet_v1",
                ("from tensorflow.contrib.slim.nets import resnet_v1\n\nslim = tf.contrib.slim"),
            ),
            "through slim": base.replace("from tf_slim.nets import resnet_v1\n", "").replace(
                "resnet_v1.", "slim.nets.resnet_v1."
            ),
            "compat.v1": base.replace("import tensorflow as tf", "import tensorflow.compat.v1 as tf").replace(
                "from tf_slim.nets import resnet_v1\n",
                "from tf_slim.nets import resnet_v1\n\ntf.disable_v2_behavior()\n",
            ),
        }
        for what, source in forms.items():
            assert source != base, what
            applied = self.applied(source, level="native")
            (said,) = [e.message for e in applied.entries if e.rule == NativeSessionRule.ID]
            assert "= compat.slim_nets.SlimNet(" in said and "compat.v1" not in applied.module.code, (what, said)
            assert "= compat.slim_nets.SlimNet(" in applied.module.code, what

    def test_what_the_layer_would_not_do_as_tf1_did_keeps_the_script(self):
        cases = {
            # TF1's minimize without UPDATE_OPS never updated the moving statistics
            "updates": (
                "with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):\n    train_op",
                "train_op",
                "a BatchNormalization whose updates the train op does not run",
            ),
            # an evaluation run of the net in training mode: TF1 ran no update, the layer's call would
            "evaluation": (
                '        print("step", step, value)\n',
                '        print("step", step, value)\n    print(sess.run(loss, feed_dict=feed))\n',
                "an evaluation sess.run of `resnet_v1_50` in training mode",
            ),
            "computed": ("is_training=True)", "is_training=tf.constant(True))", "other than a literal True or False"),
            "positional": ("num_classes=3", "3", "given by position"),
            "reuse": ("is_training=True)", "is_training=True, reuse=True)", "(reuse=...)"),
            "saver": (
                "rng = np.random",
                "saver = tf.train.Saver()\nrng = np.random",
                "a zoo net in a graph with a Saver",
            ),
            # a zoo module's helper under the arg_scope: its first argument no tensor
            "helper": (
                "logits, end_points = resnet_v1.resnet_v1_50(images, num_classes=3, is_training=True)",
                'block = resnet_v1.resnet_v1_block("block1", base_depth=2, num_units=1, stride=1)',
                "of inputs that are no tensor of the graph",
            ),
            "two statements": (
                "is_training=True)\n",
                "is_training=True)\n    flat = tf.squeeze(logits, [1, 2])\n",
                "holding other than one assignment of the net's call",
            ),
        }
        for what, (old, new, says) in cases.items():
            source = textwrap.dedent(SCRIPT).replace(old, new)
            assert source != textwrap.dedent(SCRIPT), what
            reasons = self.refused(source)
            assert len(reasons) == 1 and says in reasons[0], (what, reasons)

    def test_a_zoo_net_without_its_arg_scope_is_not_converted(self):
        # (the net alone: a library call making variables, which model() would make at each call)
        source = textwrap.dedent(SCRIPT).replace(
            "with slim.arg_scope(resnet_v1.resnet_arg_scope(weight_decay=0.001)):\n    logits", "logits"
        )
        assert "arg_scope" not in source
        (reason,) = self.refused(source)
        assert reason.startswith("tf_slim.nets.resnet_v1.resnet_v1_50: a library whose calls may make variables"), (
            reason
        )


@pytest.mark.timeout(600)
def test_the_native_port_of_a_zoo_net_trains_like_the_safe_port(tmp_path):
    script = tmp_path / "zoo_net.py"
    script.write_text(textwrap.dedent(SCRIPT))
    ported = {
        level: native.migrate([str(script)], str(tmp_path / level), level, in_process=True)
        for level in ("safe", "native")
    }
    assert [os.path.basename(p) for p in native.converted(ported["native"])] == ["zoo_net.py"]
    files = {level: native.ported_file(str(tmp_path / level), script.name, script.name) for level in ported}
    with open(files["native"], encoding="utf-8") as handle:
        code = handle.read()
    assert native.references(code)[1] == 0 and "compat.slim_nets.SlimNet(" in code
    folder = tmp_path / "runs"
    folder.mkdir()
    row = native.equivalence(script.name, files["safe"], files["native"], [], str(folder))
    # every trainable variable of TF1's graph (the safe port's checkpoint) loaded by its TF1 name
    assert row["unloaded"] == [] and row["steps"] == 3, row
    assert row["loaded"].split("/")[0] == row["loaded"].split("/")[1] != "0", row
    assert row["equal"], row


def test_a_builder_reads_a_zoo_net_statement_through_zoo_with_and_read_net():
    # (the API a builder of its own reads a zoo net with, as the cluster port's: the rule's records of the pass)
    import libcst as cst

    from codemods.rules._native_slim_nets import read_net, zoo_with
    from tests.support.rule_test import apply

    found = {}

    class Reading(NativeSessionRule):
        def leave_Module(self, original_node, updated_node):
            for stmt in original_node.body:
                scope = zoo_with(self, stmt)
                if scope is not None:
                    code = read_net(self, stmt, scope, {"images"})
                    line = self._updated[id(code.inner)]
                    found["made"], found["called"] = code.made("net"), cst.Module([code.called("net", line)]).code
                    found["training"] = code.training
                elif isinstance(stmt, cst.With):
                    found["not a zoo scope"] = stmt
            return updated_node

    source = textwrap.dedent(SCRIPT).replace("is_training=True", "is_training=False")
    apply(source, Reading, level="native")
    assert found["made"] == (
        "net = compat.slim_nets.SlimNet(resnet_v1.resnet_v1_50, resnet_v1.resnet_arg_scope(weight_decay=0.001), "
        "num_classes=3, is_training=False)"
    )
    assert found["called"] == "logits, end_points = net(images)\n" and found["training"] is False
    assert "not a zoo scope" in found  # (the control_dependencies block: no arg_scope of a zoo)
