"""native-layers: tf.layers calls in an Estimator's model_fn -> Keras layer objects with the variables' names
kept, or the safe level with an info entry saying why; and an Estimator program ported at both levels trains to
the same losses from the safe port's step-0 checkpoint.

The rule runs alone in the before/after cases (the safe rules' rewrites are not applied); the equivalence test
migrates a whole program with uai-migrate at both levels and runs both.
"""

import ast
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

from codemods.rules import select
from codemods.rules._native_slim import layer_code
from codemods.rules.native_layers import NativeLayersRule
from tests.support.native_ports import migrated
from tests.support.rule_test import RuleTest
from tests.support.runs import clean_env

# a model_fn of `body` in an Estimator program
PROGRAM = """
import compat
{imports}import tensorflow as tf

{helpers}def model_fn(features, labels, mode):
{body}
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

if __name__ == "__main__":
    tf.estimator.Estimator(model_fn).train(input_fn, max_steps=1)
"""


def program(body: str, helpers: str = "", imports: str = "") -> str:
    body = textwrap.indent(textwrap.dedent(body).strip("\n"), "    ")
    return PROGRAM.format(body=body, helpers=helpers, imports=imports)


class TestNativeLayersRule(RuleTest):
    TRANSFORM = NativeLayersRule

    def test_the_layers_of_a_model_fn_and_of_a_function_it_calls(self):
        helpers = (
            "def block(net, i, training):\n"
            '    net = tf.compat.v1.layers.conv2d(net, 8, 3, 1, "same", use_bias=False, name="conv%d" % i)\n'
            "    return tf.layers.batch_normalization(net, training=training)\n\n"
        )
        before = program(
            """
            net = block(features, 0, mode == tf.estimator.ModeKeys.TRAIN)
            net = tf.compat.v1.layers.max_pooling2d(net, 2, 2)
            logits = tf.compat.v1.layers.dense(tf.compat.v1.layers.flatten(net), 3, activation=None, name="logits")
            loss = tf.reduce_mean(logits + tf.layers.batch_normalization(logits))
            train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
            """,
            helpers,
        )
        after = program(
            """
            net = block(features, 0, mode == tf.estimator.ModeKeys.TRAIN)
            net = tf.keras.layers.MaxPooling2D(2, 2, dtype=net.dtype)(net)
            logits = tf.keras.layers.Dense(3, activation=None, name="logits", dtype=net.dtype)(tf.keras.layers.Flatten(dtype=net.dtype)(net))
            loss = tf.reduce_mean(logits + tf.keras.layers.BatchNormalization(dtype=logits.dtype)(logits, training=False))
            train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
            """,
            helpers.replace(
                'tf.compat.v1.layers.conv2d(net, 8, 3, 1, "same", use_bias=False, name="conv%d" % i)',
                'tf.keras.layers.Conv2D(8, 3, strides=1, padding="same", use_bias=False, name="conv%d" % i, dtype=net.dtype)(net)',
            ).replace(
                "tf.layers.batch_normalization(net, training=training)",
                "tf.keras.layers.BatchNormalization(dtype=net.dtype)(net, training=training)",
            ),
        )
        self.assertCodemod(before, after, level="native")
        messages = [e.message for e in self.applied(before, level="native").entries if e.rule == self.RULE.ID]
        assert len(messages) == 6 and all(m.startswith("graph code: ") and "names kept" in m for m in messages)

    def test_the_update_ops_read_of_a_model_fn_becomes_its_batch_normalizations_updates(self):
        before = program(
            """
            net = features
            for i in range(2):
                # a block
                net = tf.nn.relu(tf.compat.v1.layers.batch_normalization(net, training=mode == "train"))
            loss = tf.reduce_mean(net)
            update_ops = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS)
            with tf.control_dependencies(update_ops):
                train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
            """
        )
        after = program(
            """
            batch_norms = []
            net = features
            for i in range(2):
                # a block
                batch_norm = tf.keras.layers.BatchNormalization(dtype=net.dtype)
                batch_norms.append(batch_norm)
                net = tf.nn.relu(batch_norm(net, training=mode == "train"))
            loss = tf.reduce_mean(net)
            update_ops = [update for layer in batch_norms for update in layer.updates]
            with tf.control_dependencies(update_ops):
                train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
            """
        )
        self.assertCodemod(before, after, level="native")
        messages = [e.message for e in self.applied(before, level="native").entries if e.rule == self.RULE.ID]
        assert messages[-1].startswith("graph code: get_collection(UPDATE_OPS) in a model_fn -> the updates"), messages
        norm = "net = tf.compat.v1.layers.batch_normalization(features, training=True)\n"
        read = "update_ops = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS)\n"
        rest = "loss = tf.reduce_mean(net)\ntrain_op = update_ops\n"
        for body, helpers in (
            (read + norm + rest, ""),  # the read before the layer
            (norm.replace(")\n", ") + " + norm.split(" = ")[1]) + read + rest, ""),  # two on a line
            (norm + read + rest + "other = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS)\n", ""),
            ("net = block(features)\n" + read + rest, f"def block(features):\n    {norm}    return net\n\n"),
            (norm + read + rest + "tf.compat.v1.add_to_collection(tf.compat.v1.GraphKeys.UPDATE_OPS, loss)\n", ""),
        ):
            messages = self.refused(program(body, helpers))
            assert any("runs the UPDATE_OPS collection" in m for m in messages), (body, messages)

    def test_must_not_fire_where_the_names_or_the_collections_would_not_be_kept(self):
        dense = "tf.compat.v1.layers.dense(features, 3{extra})"
        body = "logits = {call}\nloss = tf.reduce_mean(logits)\ntrain_op = None"
        cases = {
            ", kernel_regularizer=r": "dense(kernel_regularizer=...), which the native equivalent does not take",
            ", reuse=True": "dense(reuse=...), which the native equivalent does not take",
            ", **kwargs": "with *args or **kwargs",
        }
        for extra, why in cases.items():
            (message,) = self.refused(program(body.format(call=dense.format(extra=extra))))
            assert why in message, (extra, message)
        towers = """
            with tf.compat.v1.variable_scope("net", reuse=True):
                logits = tf.compat.v1.layers.dense(features, 3)
            loss, train_op = tf.reduce_mean(logits), None
        """
        (message,) = self.refused(program(towers))
        assert "under a reuse scope not directly in a `for i in range(n)` loop" in message
        helper = "def tower(x):\n    return tf.compat.v1.layers.dense(x, 3)\n\n"
        scoped = """
            with tf.name_scope("tower_0"):
                logits = tower(features)
            loss, train_op = tf.reduce_mean(logits), None
        """
        (message,) = self.refused(program(scoped, helper))
        assert "under name_scope(...)" in message and "checkpoint names would not be kept" in message
        nested = """
            def tower(x):
                return tf.compat.v1.layers.dense(x, 3)
            with tf.compat.v1.variable_scope("shared", reuse=tf.compat.v1.AUTO_REUSE):
                logits = tower(features) + tower(features)
            loss, train_op = tf.reduce_mean(logits), None
        """
        (message,) = self.refused(program(nested))
        assert "in a function defined in another one" in message
        # a name Keras gives another layer made unnamed at the call: in the graph an Estimator builds it would number
        # this layer's name scope (flatten_1/kernel), where TF1 reopened the variable scope (helper-73's pass)
        flattened = """
            net = tf.compat.v1.layers.flatten(features)
            logits = tf.compat.v1.layers.dense(net, 3, name="flatten")
            loss, train_op = tf.reduce_mean(logits), None
        """
        applied = self.applied(program(flattened), level="native")
        messages = [e.message for e in applied.entries]
        assert any("Keras's default name of another layer" in m for m in messages), messages
        assert 'tf.compat.v1.layers.dense(net, 3, name="flatten")' in applied.module.code, applied.module.code
        # an op already named as the layer (or as Keras's default name for it): Keras would write logits_1/kernel
        for layer, clash in (('dense(x, 3, name="logits")', "logits"), ("dense(x, 3)", "dense_top")):
            clashing = f'x = tf.identity(features, name="{clash}")\nlogits = tf.compat.v1.layers.{layer}\n'
            (message,) = self.refused(program(clashing + "loss, train_op = tf.reduce_mean(logits), None"))
            assert f"another op or scope of the file is named {clash!r}" in message, message
        # one dense stays, so the other does too (TF1 and Keras number unnamed layers apart)
        messages = self.refused(
            program(body.format(call=dense.format(extra="") + " + " + dense.format(extra=", kernel_regularizer=r")))
        )
        assert len(messages) == 2 and "convert all or none" in messages[0], messages
        norm = """
            net = tf.compat.v1.layers.batch_normalization(features, training=True)
            loss = tf.reduce_mean(net)
            with tf.control_dependencies(tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS)):
                train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
        """
        (message,) = self.refused(program(norm))
        assert "runs the UPDATE_OPS collection (UPDATE_OPS)" in message and "layer.updates" in message
        # training=False makes no update: it converts, UPDATE_OPS read or not
        converted = self.applied(program(norm.replace("training=True", "training=False")), level="native")
        assert (
            "tf.keras.layers.BatchNormalization(dtype=features.dtype)(features, training=False)"
            in converted.module.code
        )
        (message,) = self.refused(program(body.format(call=dense.format(extra=""))).replace("import compat\n", ""))
        assert "Keras 3" in message
        tpu = program(body.format(call=dense.format(extra="")))
        for estimator in ("TPUEstimator(model_fn, use_tpu=flag)", "TPUEstimator(model_fn)"):
            source = tpu.replace("tf.estimator.Estimator(model_fn)", f"tf.compat.v1.estimator.tpu.{estimator}")
            (message,) = self.refused(source)
            assert "a TPUEstimator whose use_tpu is not False" in message, message
        source = tpu.replace("tf.estimator.Estimator(model_fn)", "tf.contrib.tpu.TPUEstimator(model_fn, use_tpu=False)")
        assert (
            "tf.keras.layers.Dense(3, dtype=features.dtype)(features)"
            in self.applied(source, level="native").module.code
        )
        (message,) = self.refused("import compat\nimport tensorflow as tf\n\nprint(tf.layers.dense(x, 3))\n")
        assert "not in an Estimator's model_fn" in message

    def test_the_layers_of_a_model_fns_towers_are_made_in_the_first_tower_and_called_by_every_tower(self):
        towers = """
            images = tf.split(features, 2)
            losses = []
            for i in range(2):
                with tf.compat.v1.variable_scope("net", reuse=i > 0), tf.device("/cpu:0"):
                    # the tower
                    net = tf.compat.v1.layers.conv2d(images[i], 8, 3, activation=tf.nn.relu)
                    net = tf.nn.relu(tf.compat.v1.layers.batch_normalization(net, training=True, name="bn"))
                    logits = tf.compat.v1.layers.dense(tf.compat.v1.layers.flatten(net), 3)
                    losses.append(tf.reduce_mean(logits))
            loss = tf.add_n(losses)
            train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
        """
        after = """
            images = tf.split(features, 2)
            losses = []
            for i in range(2):
                with tf.compat.v1.variable_scope("net", reuse=i > 0), tf.device("/cpu:0"):
                    # the tower
                    if i == 0:
                        conv2d_layer = tf.keras.layers.Conv2D(8, 3, activation=tf.nn.relu, dtype=images[i].dtype)
                    net = conv2d_layer(images[i])
                    if i == 0:
                        bn_layer = tf.keras.layers.BatchNormalization(name="bn", dtype=net.dtype)
                    net = tf.nn.relu(bn_layer(net, training=True))
                    if i == 0:
                        flatten_layer = tf.keras.layers.Flatten(dtype=net.dtype)
                        dense_layer = tf.keras.layers.Dense(3, dtype=net.dtype)
                    logits = dense_layer(flatten_layer(net))
                    losses.append(tf.reduce_mean(logits))
            loss = tf.add_n(losses)
            train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
        """
        # (the model_fn given by keyword: named once)
        keyword = program(towers).replace("Estimator(model_fn)", "Estimator(model_fn=model_fn)")
        self.assertCodemod(
            keyword, program(after).replace("Estimator(model_fn)", "Estimator(model_fn=model_fn)"), level="native"
        )
        for reuse in ("i > 0", "bool(i != 0)", "tf.compat.v1.AUTO_REUSE", "0 < i", "i >= 1"):
            self.assertCodemod(
                program(towers.replace("i > 0", reuse)), program(after.replace("i > 0", reuse)), level="native"
            )
        messages = [e.message for e in self.applied(program(towers), level="native").entries if e.rule == self.RULE.ID]
        assert len(messages) == 4 and all("made in the first tower and called by every tower" in m for m in messages)

    def test_must_not_fire_on_towers_whose_layers_tf1_shared_otherwise(self):
        def tower(loop: str, scope: str, body: str) -> str:
            return (
                f"images, losses = tf.split(features, 2), []\n{loop}\n"
                f'    with tf.compat.v1.variable_scope({scope}), tf.device("/cpu:0"):\n'
                f"{textwrap.indent(body, ' ' * 8)}\n        losses.append(tf.reduce_mean(logits))\n"
                "loss, train_op = tf.add_n(losses), None\n"
            )

        dense = "logits = tf.compat.v1.layers.dense(images[i], 3)"
        cases = {
            # reuse of a scope no tower made, or made again by a later tower
            ('"net", reuse=True', dense): "whose reuse is not proven",
            ('"net", reuse=i > 1', dense): "whose reuse is not proven",
            ('"net", reuse=i > 0', dense.replace("3)", '3, name="dense%d" % i)')): "with a computed name",
            ('"net%d" % i, reuse=i > 0', dense): "without a literal name",
            ('"net", reuse=i > 0', dense.replace("3)", "widths[i])")): "arguments read from i",
            ('"net", reuse=i > 0', f"if i > 0:\n        {dense}"): "under a if: not once in every tower",
            (
                '"net", reuse=i > 0',
                "logits = sum(tf.compat.v1.layers.dense(x, 3) for x in images)",
            ): "comprehension",
            ('"net", reuse=i > 0', 'with tf.name_scope("tower_%d" % i):\n        ' + dense): "without a literal name",
            ('"net", reuse=i > 0', 'with tf.compat.v1.variable_scope("head"):\n        ' + dense): "variable scope",
            ('"net", reuse=i > 0, initializer=init', dense): "arguments besides its name and reuse",
            ('"net", reuse=i > 0', f"with tf.device(None): {dense}"): "on the line of a compound statement",
        }
        for (scope, body), why in cases.items():
            source = program(tower("for i in range(2):", scope, body))
            messages = self.refused(source)
            assert messages and all(why in m for m in messages), (scope, body, messages)
        for loop in ("for i in towers:", "for i in range(1, 3):", "for i in range(2):\n    i = 0"):
            messages = self.refused(program(tower(loop, '"net", reuse=i > 0', dense)))
            assert messages and all("whose reuse is not proven" in m or "rebinds" in m for m in messages), messages
        ok = {"loop": "for i in range(2):", "scope": '"net", reuse=i > 0', "body": dense}
        # the tower's scope named elsewhere too (its name scope would be net_1), an unnamed dense outside the tower
        for extra, why in (
            ('x = tf.identity(features, name="net")\n', "another op or scope of the file is named 'net'"),
            ("top = tf.compat.v1.layers.dense(features, 3)\n", "and another tf.layers.dense call outside it"),
        ):
            messages = self.refused(program(extra + tower(**ok)))
            assert messages and why in messages[-1], (extra, messages)
        # one layer of the tower stays: so does the whole tower
        regularized = ok | {"body": dense + "\nnet = tf.compat.v1.layers.conv2d(images[i], 3, 3, kernel_regularizer=r)"}
        messages = self.refused(program(tower(**regularized)))
        assert len(messages) == 2 and any("a tower converts whole" in m for m in messages), messages
        # a named dense in the tower, and one outside it that stays: the tower stays whole
        outside = "top = tf.compat.v1.layers.dense(features, 3, kernel_regularizer=r)\n"
        named = ok | {
            "body": dense.replace("3)", '3, name="logits")') + "\nnet = tf.compat.v1.layers.conv2d(images[i], 3, 3)"
        }
        messages = self.refused(program(outside + tower(**named)))
        assert len(messages) == 3 and sum("a tower converts whole" in m for m in messages) == 2, messages
        # the towers' batch normalization in training mode where UPDATE_OPS is run: each tower adds its updates
        norm = ok | {"body": "logits = tf.compat.v1.layers.batch_normalization(images[i], training=True)"}
        read = "update_ops = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS)\n"
        (message,) = self.refused(program(tower(**norm) + read))
        assert "in training mode in a tower of a file that runs the UPDATE_OPS collection" in message, message
        # an unnamed layer in a function the tower calls (TF1 numbered it per variable scope)
        helper = "def head(x):\n    return tf.compat.v1.layers.dense(x, 3)\n\n"
        (message,) = self.refused(program(tower(**(ok | {"body": "logits = head(images[i])"})), helper))
        assert "without a literal name" in message, message
        # under AUTO_REUSE two calls named alike share their variables, in every tower: two Keras layers would not
        twice = 'a = tf.compat.v1.layers.dense(images[i], 3, name="shared")\nlogits = tf.compat.v1.layers.dense(a, 3, name="shared")'
        messages = self.refused(program(tower("for i in range(2):", '"net", reuse=tf.compat.v1.AUTO_REUSE', twice)))
        assert len(messages) == 2 and all("another layer call of the tower named 'shared'" in m for m in messages), (
            messages
        )
        # towers in a function run twice (AUTO_REUSE: the second run reuses what the first made; Keras would make more)
        helper = (
            "def towers(images):\n    losses = []\n    for i in range(2):\n"
            '        with tf.compat.v1.variable_scope("net", reuse=tf.compat.v1.AUTO_REUSE):\n'
            "            logits = tf.compat.v1.layers.dense(images[i], 3)\n"
            "            losses.append(tf.reduce_mean(logits))\n    return tf.add_n(losses)\n\n"
        )
        for calls in (
            "loss = towers(tf.split(features, 2)) + towers(tf.split(2 * features, 2))",
            "loss = sum(towers(x) for x in parts)",
        ):
            (message,) = self.refused(program(calls + "\ntrain_op = None", helper))
            assert "in a function the file names otherwise than once" in message, (calls, message)

    def test_must_not_fire_on_a_shadowed_tf_strings_comments_dropout_or_the_safe_level(self):
        for body in (
            'logits = "tf.compat.v1.layers.dense(features, 3)"\nloss = train_op = None',
            "# tf.compat.v1.layers.dense(features, 3)\nloss = train_op = None",
            "logits = tf.compat.v1.layers.dropout(features, 0.5)\nloss = train_op = None",
        ):
            assert self.refused(program(body)) == [], body
        shadowed = "import compat\n\ndef model_fn(tf, labels, mode):\n    return tf.layers.dense(tf, 3)\n"
        assert self.refused(shadowed) == []
        source = program("logits = tf.compat.v1.layers.dense(features, 3)\nloss = train_op = None")
        self.assertCodemod(source, source, level="safe")
        assert NativeLayersRule not in select(level="safe") and NativeLayersRule in select(level="native")


# an Estimator program (TF 2.21's Estimator through compat): conv2d layers named in a loop, batch normalization
# in training mode whose updates the train_op runs (UPDATE_OPS), pooling, flatten and two unnamed dense layers,
# trained with momentum on fixed float64 batches (numpy's dtype, as a TF1 input_fn often left it) into the
# model_dir of argv[1]; it logs each step's loss
EQUIVALENCE = """
    import sys

    import numpy as np
    import tensorflow as tf


    def model_fn(features, labels, mode):
        net = features
        for i in range(2):
            net = tf.layers.conv2d(net, 4, 3, padding="same", name="conv%d" % i)
            net = tf.nn.relu(tf.layers.batch_normalization(net, training=mode == tf.estimator.ModeKeys.TRAIN))
        net = tf.layers.max_pooling2d(net, 2, 2)
        hidden = tf.layers.dense(tf.layers.flatten(net), 8, activation=tf.nn.relu)
        logits = tf.layers.dense(hidden, 3)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
        update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
        with tf.control_dependencies(update_ops):
            train_op = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, tf.train.get_or_create_global_step())
        hook = tf.train.LoggingTensorHook({"loss": loss}, every_n_iter=1, formatter=lambda v: "loss %.9g" % v["loss"])
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, training_hooks=[hook])


    def input_fn():
        rng = np.random.RandomState(0)
        x, y = rng.rand(16, 6, 6, 2), rng.randint(0, 3, 16)  # (float64: TF1's layers made float64 variables)
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat()


    if __name__ == "__main__":
        tf.logging.set_verbosity(tf.logging.INFO)  # (the hook logs each step's loss)
        config = tf.estimator.RunConfig(model_dir=sys.argv[1], tf_random_seed=1)
        tf.estimator.Estimator(model_fn, config=config).train(input_fn, max_steps=3)
"""


def _run(path: str, model_dir: pathlib.Path) -> list[float]:
    done = subprocess.run(
        [sys.executable, path, str(model_dir)], env=clean_env(), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [float(found) for found in re.findall(r":loss (\S+)$", done.stderr, re.M)]  # (the hook's log lines)


def _trained_from_step_0(tmp_path: pathlib.Path, name: str, source: str, converted: int) -> tuple[list, list, list]:
    """Both ports of `source` trained 3 steps, the native one from the safe port's model.ckpt-0 (restored by the TF1
    names, or it fails): their losses and model_dirs, once the native port's code holds no tf.layers call and
    native-layers wrote `converted` entries for it (none for the safe one)."""
    ported = {}
    for level, (path, report) in migrated(tmp_path, name, source).items():
        ported[level] = path
        entries = [e for f in report.get("files", []) for e in f.get("entries", [])]
        layers = [e["message"] for e in entries if e["rule"] == NativeLayersRule.ID]
        assert len(layers) == (converted if level == "native" else 0), layers
    code = pathlib.Path(ported["native"]).read_text()
    assert "layers." not in code.replace("keras.layers.", "").replace("scoped_layers.", ""), code
    safe_losses = _run(ported["safe"], tmp_path / "safe_dir")
    start = tmp_path / "native_dir"
    start.mkdir()
    for found in (tmp_path / "safe_dir").glob("model.ckpt-0.*"):
        shutil.copy(found, start)
    (start / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-0"\n')
    native_losses = _run(ported["native"], start)
    assert len(safe_losses) == 3 and len(native_losses) == 3, (safe_losses, native_losses)
    assert max(abs(a - b) for a, b in zip(safe_losses, native_losses)) <= 1e-5, (safe_losses, native_losses)
    return safe_losses, native_losses, [tmp_path / "safe_dir", start]


def test_the_native_port_trains_as_the_safe_port_from_its_step_0_checkpoint(tmp_path):
    import tensorflow as tf

    _, _, dirs = _trained_from_step_0(tmp_path, "estimator_layers.py", EQUIVALENCE, 7)
    names = [sorted(n for n, _ in tf.train.list_variables(str(d))) for d in dirs]
    assert names[0] == names[1] and "batch_normalization/moving_mean" in names[0], names
    # the moving statistics moved (the train_op ran the updates), and alike
    means = [tf.train.load_variable(str(d), "batch_normalization_1/moving_mean") for d in dirs]
    assert abs(means[0]).sum() > 0 and abs(means[0] - means[1]).max() <= 1e-5, means


# estimator_towers' shape (tests/corpus, the TF1 multi-GPU Estimator): two towers over the batch's halves under
# variable_scope("net", reuse=i > 0) and a device, sharing a conv2d, a batch normalization in training mode, pooling,
# flatten and an unnamed dense; nothing runs UPDATE_OPS, so neither port updates the moving statistics
TOWERS = """
    import sys

    import numpy as np
    import tensorflow as tf


    def model_fn(features, labels, mode):
        images, label_shards = tf.split(features, 2), tf.split(labels, 2)
        losses = []
        for i in range(2):
            with tf.variable_scope("net", reuse=i > 0), tf.device("/cpu:0"):
                net = tf.layers.conv2d(images[i], 4, 3, padding="same", name="conv0")
                net = tf.nn.relu(tf.layers.batch_normalization(net, training=mode == tf.estimator.ModeKeys.TRAIN))
                net = tf.layers.max_pooling2d(net, 2, 2)
                logits = tf.layers.dense(tf.layers.flatten(net), 3)
                losses.append(tf.losses.sparse_softmax_cross_entropy(label_shards[i], logits))
        loss = tf.add_n(losses) / 2
        train_op = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, tf.train.get_or_create_global_step())
        hook = tf.train.LoggingTensorHook({"loss": loss}, every_n_iter=1, formatter=lambda v: "loss %.9g" % v["loss"])
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, training_hooks=[hook])


    def input_fn():
        rng = np.random.RandomState(0)
        x, y = rng.rand(16, 6, 6, 2), rng.randint(0, 3, 16)
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat()


    if __name__ == "__main__":
        tf.logging.set_verbosity(tf.logging.INFO)
        config = tf.estimator.RunConfig(model_dir=sys.argv[1], tf_random_seed=1)
        tf.estimator.Estimator(model_fn, config=config).train(input_fn, max_steps=3)
"""


def test_the_native_port_of_towers_trains_as_the_safe_port_from_its_step_0_checkpoint(tmp_path):
    import tensorflow as tf

    _, _, dirs = _trained_from_step_0(tmp_path, "estimator_towers.py", TOWERS, 5)
    names = [sorted(n for n, _ in tf.train.list_variables(str(d))) for d in dirs]
    assert names[0] == names[1] and "net/conv0/kernel" in names[0] and "net/dense/kernel" in names[0], names
    assert not any("_1/" in n for n in names[0]), names  # (one set of variables, shared by the towers)
    # the shared batch normalization trained alike; its moving statistics were not updated, by either port
    gammas, means = (
        [tf.train.load_variable(str(d), f"net/batch_normalization/{name}") for d in dirs]
        for name in ("gamma", "moving_mean")
    )
    assert abs(gammas[0] - 1).max() > 0 and abs(gammas[0] - gammas[1]).max() <= 1e-5, gammas
    assert abs(means[0]).sum() == 0 and abs(means[1]).sum() == 0, means


# cifar10_estimator's towers (samples/tf1/resnet_estimator.py, tiny; its residual block): layers in helpers, each
# block under its own variable_scope, a name_scope per tower inside the reused scope (a stem layer under it too),
# tf.device of the sample's DeviceSpec setter (which stays at the safe level: it places the Keras layers' variables
# as TF1's), the first tower's UPDATE_OPS read of its name scope before the averaged gradients' apply_gradients
CIFAR = """
    import sys

    import numpy as np
    import tensorflow as tf
    from tensorflow.python.training import device_setter


    RESIDUAL_BLOCK


    def network(images, training):
        net = tf.layers.conv2d(images, 4, 3, padding="same", use_bias=False, name="conv0")
        for stage, filters in enumerate([4, 8]):
            net = residual_block(net, filters, 2 if stage else 1, training, "stage%d_block0" % stage)
        net = tf.nn.relu(tf.layers.batch_normalization(net, training=training, name="bn_final"))
        net = tf.reduce_mean(net, [1, 2])
        return tf.layers.dense(net, 3, name="logits")


    SETTER


    def tower_fn(images, labels, training):
        logits = network(images, training)
        loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
        loss += 1e-4 * tf.add_n([tf.nn.l2_loss(v) for v in tf.trainable_variables()])
        params = tf.trainable_variables()
        return loss, tf.gradients(loss, params)


    def model_fn(features, labels, mode):
        image_shards, label_shards = tf.split(features, 2), tf.split(labels, 2)
        losses, gradients = [], []
        for i in range(2):
            setter = local_device_setter(1, "cpu", "/cpu:0")
            with tf.variable_scope("resnet", reuse=bool(i != 0)):
                with tf.name_scope("tower_%d" % i) as scope:
                    with tf.device(setter):
                        stem = tf.layers.conv2d(image_shards[i], 3, 1, use_bias=False, name="stem")
                        loss, grads = tower_fn(stem, label_shards[i], mode == tf.estimator.ModeKeys.TRAIN)
                        losses.append(loss)
                        gradients.append(grads)
                        if i == 0:
                            update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS, scope)
        variables = tf.trainable_variables()
        averaged = [(tf.add_n(list(g)) / 2, v) for g, v in zip(zip(*gradients), variables)]
        loss = tf.reduce_mean(losses, name="loss")
        optimizer = tf.train.MomentumOptimizer(0.1, 0.9)
        with tf.control_dependencies(update_ops):
            train_op = optimizer.apply_gradients(averaged, global_step=tf.train.get_or_create_global_step())
        hook = tf.train.LoggingTensorHook({"loss": loss}, every_n_iter=1, formatter=lambda v: "loss %.9g" % v["loss"])
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, training_hooks=[hook])


    def input_fn():
        rng = np.random.RandomState(0)
        x, y = rng.rand(16, 8, 8, 3).astype(np.float32), rng.randint(0, 3, 16)
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat()


    if __name__ == "__main__":
        tf.logging.set_verbosity(tf.logging.INFO)
        config = tf.estimator.RunConfig(model_dir=sys.argv[1], tf_random_seed=1)
        tf.estimator.Estimator(model_fn, config=config).train(input_fn, max_steps=3)
"""


def test_the_native_port_of_cifar10s_towers_trains_as_the_safe_port_from_its_step_0_checkpoint(tmp_path):
    import tensorflow as tf

    sample = (pathlib.Path(__file__).parents[2] / "samples" / "tf1" / "resnet_estimator.py").read_text()
    source = CIFAR
    for mark, name in (("RESIDUAL_BLOCK", "residual_block"), ("SETTER", "local_device_setter")):  # (the sample's)
        function = next(n for n in ast.parse(sample).body if getattr(n, "name", "") == name)
        code = textwrap.indent(ast.get_source_segment(sample, function) or "", "    ")[4:]
        source = source.replace(f"{mark}\n", code + "\n")
    _, _, dirs = _trained_from_step_0(tmp_path, "cifar10_towers.py", source, 10)
    names = [sorted(n for n, _ in tf.train.list_variables(str(d))) for d in dirs]
    # TF1 named the variables by the variable scopes alone: no tower's name scope in the safe port's checkpoint
    assert "resnet/stage1_block0/conv1/kernel" in names[0] and not any("tower" in n for n in names[0]), names[0]
    assert names[0] == names[1] and not any("_1/" in n for n in names[0]), names
    # the first tower's updates ran, and only those (each tower's would update the moving means twice a step)
    for name in ("resnet/stage0_block0/bn1/moving_mean", "resnet/bn_final/moving_variance", "resnet/bn_final/gamma"):
        values = [tf.train.load_variable(str(d), name) for d in dirs]
        assert abs(values[0] - (1 if "variance" in name or "gamma" in name else 0)).max() > 0, (name, values)
        assert abs(values[0] - values[1]).max() <= 1e-5, (name, values)


def test_the_explain_says_a_random_op_after_a_converted_layer_draws_other_values():
    """The towers' layers, made once, change the op order from which a graph seed gives the op seeds of the towers'
    random ops: a tower's tf.layers.dropout in training mode, trained 3 steps from the safe port's step-0 checkpoint
    under RunConfig(tf_random_seed=1), gave the losses 1.684, 1.152, 0.510 (safe) and 1.571, 0.827, 0.822 (native);
    outside towers the same model_fn trained alike (1.695, 0.910, 0.826 in both)."""
    changes = NativeLayersRule.EXAMPLE.why.split("What may change:")[1]
    assert "dropout" in changes and "other masks" in changes, changes


# cifar10_estimator's towers (the TF 1.4 tutorials' shape, samples/tf1/resnet_estimator.py): the layers are in
# functions the tower calls, a block under its own variable_scope(name), a name_scope per tower inside the reused
# scope, and the first tower's UPDATE_OPS read of its name scope
CIFAR_HELPERS = """def block(inputs, filters, training, name):
    with tf.compat.v1.variable_scope(name):
        net = tf.compat.v1.layers.batch_normalization(inputs, training=training, name="bn1")
        if inputs.shape[-1] != filters:
            inputs = tf.compat.v1.layers.conv2d(net, filters, 1, use_bias=False, name="shortcut")
        return inputs + tf.compat.v1.layers.conv2d(net, filters, 3, padding="same", name="conv1")

def tower_fn(images, training):
    net = tf.compat.v1.layers.conv2d(images, 4, 3, name="conv0")
    for stage, filters in enumerate([4, 8]):
        net = block(net, filters, training, "stage%d" % stage)
    net = tf.reduce_mean(net, [1, 2])
    return tf.compat.v1.layers.dense(net, 3, name="logits")

"""
CIFAR_TOWERS = """
    losses = []
    for i in range(2):
        with tf.compat.v1.variable_scope("resnet", reuse=bool(i != 0)):
            with tf.compat.v1.name_scope("tower_%d" % i) as scope:
                with compat.device(setter):
                    losses.append(tf.reduce_mean(tower_fn(tf.split(features, 2)[i], mode == "train")))
                    if i == 0:
                        update_ops = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS, scope)
    loss = tf.add_n(losses)
    with tf.control_dependencies(update_ops):
        train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
"""


class TestNativeLayersInFunctionsTheTowersCall(RuleTest):
    TRANSFORM = NativeLayersRule

    def test_the_layers_of_the_functions_a_tower_calls_are_one_per_variable_scope_path(self):
        def keras(layer: str, args: str, inputs: str, training: str = "") -> str:
            return (
                f"compat.scoped_layers.layer(tf.keras.layers.{layer}, {args}, dtype={inputs}.dtype)({inputs}{training})"
            )

        helpers = (
            CIFAR_HELPERS.replace(
                'tf.compat.v1.layers.batch_normalization(inputs, training=training, name="bn1")',
                keras("BatchNormalization", 'name="bn1"', "inputs", ", training=training"),
            )
            .replace(
                'tf.compat.v1.layers.conv2d(net, filters, 1, use_bias=False, name="shortcut")',
                keras("Conv2D", 'filters, 1, use_bias=False, name="shortcut"', "net"),
            )
            .replace(
                'tf.compat.v1.layers.conv2d(net, filters, 3, padding="same", name="conv1")',
                keras("Conv2D", 'filters, 3, padding="same", name="conv1"', "net"),
            )
            .replace(
                'tf.compat.v1.layers.conv2d(images, 4, 3, name="conv0")',
                keras("Conv2D", '4, 3, name="conv0"', "images"),
            )
            .replace('tf.compat.v1.layers.dense(net, 3, name="logits")', keras("Dense", '3, name="logits"', "net"))
        )
        after = program(CIFAR_TOWERS, helpers).replace(
            "tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS, scope)",
            "[update for layer in compat.scoped_layers.made() for update in layer.updates]",
        )
        before = program(CIFAR_TOWERS, CIFAR_HELPERS)
        self.assertCodemod(before, after, level="native")
        messages = [e.message for e in self.applied(before, level="native").entries if e.rule == self.RULE.ID]
        assert len(messages) == 6 and all("one per variable scope path" in m for m in messages[:5]), messages
        assert "the first tower's get_collection(UPDATE_OPS, scope) -> the updates" in messages[5], messages

    def test_a_layer_under_a_towers_name_scope_is_one_per_variable_scope_path_too(self):
        towers = """
            images, losses = tf.split(features, 2), []
            for i in range(2):
                with tf.compat.v1.variable_scope("net", reuse=i > 0):
                    with tf.compat.v1.name_scope("tower_%d" % i) as scope:
                        net = tf.compat.v1.layers.conv2d(images[i], 4, 3, name="conv0")
                        net = tf.compat.v1.layers.batch_normalization(net, training=True, name="bn")
                        losses.append(tf.reduce_mean(net))
                        if i == 0:
                            update_ops = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS, scope)
            loss = tf.add_n(losses)
            with tf.control_dependencies(update_ops):
                train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
        """
        after = (
            towers.replace(
                'tf.compat.v1.layers.conv2d(images[i], 4, 3, name="conv0")',
                'compat.scoped_layers.layer(tf.keras.layers.Conv2D, 4, 3, name="conv0", dtype=images[i].dtype)(images[i])',
            )
            .replace(
                'tf.compat.v1.layers.batch_normalization(net, training=True, name="bn")',
                'compat.scoped_layers.layer(tf.keras.layers.BatchNormalization, name="bn", dtype=net.dtype)(net, training=True)',
            )
            .replace(
                "tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS, scope)",
                "[update for layer in compat.scoped_layers.made() for update in layer.updates]",
            )
        )
        self.assertCodemod(program(towers), program(after), level="native")
        messages = [e.message for e in self.applied(program(towers), level="native").entries if e.rule == self.RULE.ID]
        assert len(messages) == 3 and all("in a model_fn's tower, under its name_scope," in m for m in messages[:2])
        # a layer argument read per tower
        (message, _) = self.refused(program(towers.replace("images[i], 4, 3", "images[i], 4 * (i + 1), 3")))
        assert "with arguments read from i, which may differ per tower" in message, message

    def test_must_not_fire_where_a_tower_may_share_them_otherwise(self):
        def refused_all(source: str) -> list[str]:
            messages = self.refused(source)
            assert len(messages) == 5, messages
            return messages

        def case(helpers_from: str, helpers_to: str, towers_from: str = "", towers_to: str = "") -> str:
            return program(
                CIFAR_TOWERS.replace(towers_from, towers_to), CIFAR_HELPERS.replace(helpers_from, helpers_to)
            )

        cases = {
            # the block's arguments differ per tower: a later tower's TF1 layer had its own around the shared variables
            (
                "block(net, filters, training",
                "block(net, images.shape[1] * filters, training",
            ): "with arguments read from filters, which may differ per tower",
            ('name="conv1")', ")"): "without a literal name",
            ("filters, 3, padding", "next(widths), 3, padding"): "with an argument calling next(...)",
            (
                "variable_scope(name)",
                "variable_scope(name, initializer=tf.compat.v1.zeros_initializer())",
            ): "with arguments besides its name",
            ("variable_scope(name)", "control_dependencies([])"): "other than a scope or a device",
            ('name="shortcut")', 'name="shortcut", kernel_regularizer=r)'): "kernel_regularizer=...), which the native",
        }
        for (old, new), why in cases.items():
            messages = refused_all(case(old, new))
            assert any(why in m for m in messages), (new, messages)
            assert all("they convert all or none" in m or why in m for m in messages), (new, messages)
        towers = {
            # the update read of every tower (after the loop), of another scope, or in each tower
            (
                "                    if i == 0:\n                        update_ops",
                "    update_ops",
            ): "otherwise than by one read of the first tower's",
            ("UPDATE_OPS, scope)", 'UPDATE_OPS, "resnet/tower_1")'): "otherwise than by one read of the first tower's",
            ("if i == 0:", "if True:"): "otherwise than by one read of the first tower's",
            # the read before the tower's calls (TF1 read none of its updates)
            (
                '                    losses.append(tf.reduce_mean(tower_fn(tf.split(features, 2)[i], mode == "train")))\n'
                "                    if i == 0:\n"
                "                        update_ops = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS, scope)\n",
                "                    if i == 0:\n"
                "                        update_ops = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS, scope)\n"
                '                    losses.append(tf.reduce_mean(tower_fn(tf.split(features, 2)[i], mode == "train")))\n',
            ): "otherwise than by one read of the first tower's",
            # the helper called outside the towers too, named otherwise than called
            ("loss = tf.add_n(losses)", "loss = tf.add_n(losses) + tf.reduce_sum(tower_fn(features, False))"): (
                "calls outside its towers too"
            ),
            ("loss = tf.add_n(losses)", "loss = tf.add_n(losses)\n    fn = tower_fn"): "named otherwise than called",
            ("reuse=bool(i != 0)", "reuse=True"): "whose reuse is not proven",
        }
        for (old, new), why in towers.items():
            messages = refused_all(case("", "", old, new))
            assert any(why in m for m in messages), (new, messages)
        # a layer in a function defined in the one the tower calls: where it runs is not followed
        head = 'def head(x):\n        return tf.compat.v1.layers.dense(x, 3, name="logits")\n    return head(net)'
        messages = refused_all(case('return tf.compat.v1.layers.dense(net, 3, name="logits")', head))
        assert any("in a function defined in another one" in m for m in messages), messages


# a model_fn of tf-slim layers under arg_scope (tests/corpus/estimator_slim_net.py's shape), as the safe pass leaves it
SLIM_BODY = """
    with slim.arg_scope([slim.conv2d, slim.fully_connected], activation_fn=tf.nn.relu, weights_initializer=slim.xavier_initializer()):
        net = slim.conv2d(features, 4, [3, 3])
        net = slim.conv2d(net, 4, 3, stride=2, padding="VALID")
        logits = slim.fully_connected(slim.flatten(net), 3, activation_fn=None, scope="logits")
    loss = tf.reduce_mean(logits)
    train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
"""


def slim_program(body: str = SLIM_BODY, helpers: str = "") -> str:
    return program(body, helpers, "import compat.slim as slim\n")


class TestNativeLayersOfTfSlim(RuleTest):
    TRANSFORM = NativeLayersRule

    def test_tf_slim_layers_under_arg_scope_in_a_model_fn(self):
        glorot = "kernel_initializer=tf.keras.initializers.GlorotUniform()"
        after = slim_program(
            f"""
            net = Convolution2D(filters=4, kernel_size=[3, 3], padding="same", activation=tf.nn.relu, {glorot}, name="Conv", dtype=features.dtype)(features)
            net = Convolution2D(filters=4, kernel_size=3, strides=2, padding="valid", activation=tf.nn.relu, {glorot}, name="Conv_1", dtype=net.dtype)(net)
            logits = FullyConnected(units=3, activation=None, {glorot}, name="logits", dtype=net.dtype)(tf.keras.layers.Flatten(dtype=net.dtype)(net))
            loss = tf.reduce_mean(logits)
            train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
            """,
            "".join(f"{layer_code(cls, 'tf').lstrip()}\n\n" for cls in ("Convolution2D", "FullyConnected")),
        ).replace("import compat.slim as slim\n", "")
        self.assertCodemod(slim_program(), after, level="native")
        messages = [e.message for e in self.applied(slim_program(), level="native").entries]
        assert len(messages) == 4 and all(m.startswith("graph code: tf-slim's ") for m in messages), messages
        assert "Conv_1/weights, Conv_1/biases" in messages[1] and "arg_scope's defaults" in messages[1], messages
        # the functions imported by name, the arg_scope's list naming them so
        imported = "from compat.slim import arg_scope, conv2d, flatten, fully_connected, xavier_initializer\n"
        by_name = slim_program().replace("import compat.slim as slim\n", imported).replace("slim.", "")
        self.assertCodemod(by_name, after, level="native")

    def test_an_argument_given_none_as_tf1_defaulted_it_converts_as_if_not_given(self):
        """scope=None, normalizer_fn=None, reuse=None ... are tf-slim's defaults: the layer is the one without them
        (helper-73's pass: they were refused as a computed scope and as a normalizer a Keras layer has no equal for)."""
        plain = self.applied(slim_program(), level="native")
        nones = {
            "activation_fn=tf.nn.relu, ": "activation_fn=tf.nn.relu, normalizer_fn=None, normalizer_params=None, ",
            'padding="VALID")': 'padding="VALID", scope=None, reuse=None, variables_collections=None)',
            'scope="logits")': 'scope="logits", outputs_collections=None)',
            "slim.flatten(net)": "slim.flatten(net, scope=None)",
        }
        source = SLIM_BODY
        for old, new in nones.items():
            source = source.replace(old, new)
        given = self.applied(slim_program(source), level="native")
        assert given.module.code == plain.module.code, given.module.code
        assert [e.message for e in given.entries] == [e.message for e in plain.entries], given.entries

    def test_must_not_fire_where_tf1_named_or_made_them_otherwise(self):
        cases = {
            # what the arg_scope sets, and what its block may run under it
            "arg_scope over functions besides": (
                "[slim.conv2d, slim.fully_connected]",
                "[slim.conv2d, slim.max_pool2d]",
            ),
            "an arg_scope block calling block": ("logits = slim", "net = block(net)\n        logits = slim"),
            "under a with-statement other than": (
                "activation_fn=tf.nn.relu, ",
                "activation_fn=tf.nn.relu) as sc, slim.arg_scope([slim.conv2d], ",
            ),
            # what a Keras layer has no equal for
            "(normalizer_fn=...), which a Keras": ("activation_fn=tf.nn.relu, ", "normalizer_fn=slim.batch_norm, "),
            "trainable=False": ('scope="logits"', 'scope="logits", trainable=False'),
            "reuse=...": ('scope="logits"', 'scope="logits", reuse=True'),
            "TF1 adds its loss to REGULARIZATION_LOSSES": (
                'scope="logits"',
                'scope="logits", weights_regularizer=slim.l2_regularizer(0.1)',
            ),
            # the names TF1 gave the variables
            "with a computed scope": ('scope="logits"', 'scope="logits%d" % 1'),
            "two tf-slim layers of the scope 'Conv'": ('padding="VALID")', 'padding="VALID", scope="Conv")'),
            "another op or scope of the file is named 'Conv_1'": (
                "reduce_mean(logits)",
                'reduce_mean(logits, name="Conv_1")',
            ),
            # the Keras Flatten made at the call names its graph scope flatten: TF1's flatten/weights would be
            # flatten_1/weights in the graph an Estimator builds (helper-73's pass: its restore failed)
            "the name Keras gives a Flatten": ('scope="logits"', 'scope="flatten"'),
            "under variable_scope(...)": (
                "with slim.arg_scope(",
                'with tf.compat.v1.variable_scope("net"), slim.arg_scope(',
            ),
            "under For in its function": (
                "        net = slim.conv2d(net, 4, 3",
                "        for _ in (1, 2):\n            net = slim.conv2d(net, 4, 3",
            ),
        }
        for why, (old, new) in cases.items():
            messages = self.refused(slim_program(SLIM_BODY.replace(old, new)))
            assert len(messages) == 4 and any(why in m for m in messages), (why, messages)
            assert all(why in m or "they convert all or none" in m for m in messages), (why, messages)
        # in a function the model_fn calls (the order they run is not the model_fn's body's)
        helpers = "def head(net):\n    return slim.fully_connected(net, 3)\n\n"
        messages = self.refused(
            slim_program(
                SLIM_BODY.replace("slim.fully_connected(", "head(").replace(
                    ', 3, activation_fn=None, scope="logits"', ""
                ),
                helpers,
            )
        )
        assert any("not in the body of an Estimator's model_fn" in m for m in messages), messages
        tpu = slim_program().replace(
            "tf.estimator.Estimator(model_fn)", "tf.compat.v1.estimator.tpu.TPUEstimator(model_fn)"
        )
        messages = self.refused(tpu)
        assert len(messages) == 4 and all("TPUEstimator whose use_tpu is not False" in m for m in messages), messages


# an Estimator program of tf-slim layers under arg_scope (tests/corpus/estimator_slim_net.py's shape: two unnamed
# conv2d, flatten and fully_connected, tf.losses, GradientDescent), trained on fixed float32 batches into the
# model_dir of argv[1] up to max_steps=3; the Estimator logs each step's loss (log_step_count_steps=1)
SLIM_EQUIVALENCE = """
    import sys

    import numpy as np
    import tensorflow as tf
    import tensorflow.contrib.slim as slim


    def model_fn(features, labels, mode):
        with slim.arg_scope([slim.conv2d, slim.fully_connected], activation_fn=tf.nn.relu):
            net = slim.conv2d(features, 4, [3, 3])
            net = slim.conv2d(net, 4, 3, stride=2)
            logits = slim.fully_connected(slim.flatten(net), 3, activation_fn=None)
        loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


    def input_fn():
        rng = np.random.RandomState(0)
        x, y = rng.rand(16, 6, 6, 2).astype(np.float32), rng.randint(0, 3, 16)
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat()


    if __name__ == "__main__":
        tf.logging.set_verbosity(tf.logging.INFO)
        config = tf.estimator.RunConfig(model_dir=sys.argv[1], tf_random_seed=1, log_step_count_steps=1)
        tf.estimator.Estimator(model_fn, config=config).train(input_fn, max_steps=3)
"""


def test_a_tf_slim_estimator_program_ports_whole_and_trains_as_the_safe_port_from_its_step_0_checkpoint(tmp_path):
    """The native port is TF 2's own loop (native-estimator-loop takes the model_fn native-layers leaves); the
    model_fn's port alone (native-layers, the Estimator kept: where the loop does not convert the program) trains
    alike too. Both restore the safe port's model.ckpt-0 by TF1's names, or they fail."""
    import tensorflow as tf

    from bench.native import migrate_here

    ported = {level: path for level, (path, _) in migrated(tmp_path, "estimator_slim.py", SLIM_EQUIVALENCE).items()}
    code = pathlib.Path(ported["native"]).read_text()
    assert "compat.v1" not in code and "slim." not in code and "tf.estimator" not in code, code
    graph = tmp_path / "graph"
    args = ["--out", str(graph), "--level", "native", "--ignore", "native-estimator-loop", "--no-cache", "-q"]
    assert migrate_here([*args, str(tmp_path / "estimator_slim.py")])[0] == 0
    ported["graph"] = str(graph / "estimator_slim.py")
    assert "slim." not in pathlib.Path(ported["graph"]).read_text()

    def losses(level: str, model_dir: pathlib.Path) -> list[float]:
        done = subprocess.run(
            [sys.executable, ported[level], str(model_dir)],
            env=clean_env(),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return [float(found) for found in re.findall(r"^INFO:tensorflow:loss = (\S+), step", done.stderr, re.M)]

    found = {"safe": losses("safe", tmp_path / "safe_dir")}
    for level in ("native", "graph"):
        start = tmp_path / f"{level}_dir"
        start.mkdir()
        for saved in (tmp_path / "safe_dir").glob("model.ckpt-0.*"):
            shutil.copy(saved, start)
        (start / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-0"\n')
        found[level] = losses(level, start)
    assert all(len(found[level]) == 3 for level in found), found
    for level in ("native", "graph"):
        assert max(abs(a - b) for a, b in zip(found["safe"], found[level])) <= 1e-5, found
    names = sorted(n for n, _ in tf.train.list_variables(str(tmp_path / "safe_dir" / "model.ckpt-0")))
    assert names == [
        *(f"{scope}/{v}" for scope in ("Conv", "Conv_1") for v in ("biases", "weights")),
        "fully_connected/biases",
        "fully_connected/weights",
        "global_step",
    ], names
    assert sorted(n for n, _ in tf.train.list_variables(str(tmp_path / "graph_dir" / "model.ckpt-3"))) == names
