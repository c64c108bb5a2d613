"""native-losses: tf.losses.sparse_softmax_cross_entropy -> the Keras loss computing the same mean, in graph code
(an Estimator's model_fn) and eager code, or the safe level with an info entry saying why; and an Estimator
program ported at both levels trains to the same losses.

The rule runs alone in the before/after cases (the safe rules' rewrites are not applied); the equivalence
test migrates a whole program with uai-migrate at both levels and runs both.
"""

from codemods.rules import select
from codemods.rules.native_losses import NativeLossesRule
from codemods.rules.native_session import NativeSessionRule
from tests.support.native_ports import ports
from tests.support.rule_test import RuleTest, apply


class TestNativeLossesRule(RuleTest):
    TRANSFORM = NativeLossesRule

    def test_a_model_fn_and_an_eager_program_the_safe_spelling_and_keywords(self):
        before = """
            import compat
            import tensorflow as tf

            def model_fn(features, labels, mode):
                logits = tf.compat.v1.layers.dense(features, 3)
                loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels, logits)
                other = tf.losses.sparse_softmax_cross_entropy(logits=logits * 2, labels=labels)
                return tf.estimator.EstimatorSpec(mode, loss=loss + other)

            if __name__ == "__main__":
                tf.estimator.Estimator(model_fn).train(input_fn, max_steps=1)
        """
        after = """
            import compat
            import tensorflow as tf

            def model_fn(features, labels, mode):
                logits = tf.compat.v1.layers.dense(features, 3)
                loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)
                other = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits * 2)
                return tf.estimator.EstimatorSpec(mode, loss=loss + other)

            if __name__ == "__main__":
                tf.estimator.Estimator(model_fn).train(input_fn, max_steps=1)
        """
        self.assertCodemod(before, after, level="native")
        messages = [e.message for e in self.applied(before, level="native").entries if e.rule == self.RULE.ID]
        assert len(messages) == 2 and all("-> tf.keras.losses.SparseCategoricalCrossentropy" in m for m in messages)

    def test_a_collection_read_by_another_key_and_an_alias_of_tensorflow(self):
        before = """
            import compat
            import tensorflow as tf

            loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
            with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS) + tf.get_collection("summaries")):
                train_op = tf.train.AdamOptimizer().minimize(loss)
        """
        after = """
            import compat
            import tensorflow as tf

            loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)
            with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS) + tf.get_collection("summaries")):
                train_op = tf.train.AdamOptimizer().minimize(loss)
        """
        self.assertCodemod(before, after, level="native")
        before = (
            "import compat\nimport tensorflow as t\n\nprint(t.losses.sparse_softmax_cross_entropy([1], [[0.0, 1.0]]))\n"
        )
        after = (
            "import compat\nimport tensorflow as t\n\n"
            "print(t.keras.losses.SparseCategoricalCrossentropy(from_logits=True)([1], [[0.0, 1.0]]))\n"
        )
        self.assertCodemod(before, after, level="native")

    def test_must_not_fire_where_the_loss_collection_is_read_or_the_computation_differs(self):
        call = "tf.losses.sparse_softmax_cross_entropy(labels, logits{extra})"
        program = "import compat\nimport tensorflow as tf\n\nloss = {call}\n{more}"
        cases = {
            ", weights=w": "tf.losses.sparse_softmax_cross_entropy(weights=...)",
            ", 0.5": "tf.losses.sparse_softmax_cross_entropy with more positional arguments",
            ", reduction=r": "tf.losses.sparse_softmax_cross_entropy(reduction=...)",
            ", **kwargs": "with *args or **kwargs",
        }
        for extra, why in cases.items():
            (message,) = self.refused(program.format(call=call.format(extra=extra), more=""))
            assert why in message, (extra, message)
        for more, reader in (
            ("total = tf.losses.get_total_loss()\n", "get_total_loss"),
            ("total = tf.add_n(tf.get_collection(tf.GraphKeys.LOSSES))\n", "LOSSES"),
            ("clones = model_deploy.create_clones(config, model_fn)\n", "model_deploy"),
            ("total = tf.add_n(tf.get_collection(key))\n", "get_collection(key)"),
            ('total = tf.add_n(tf.get_collection("losses"))\n', 'get_collection("losses")'),
        ):
            (message,) = self.refused(program.format(call=call.format(extra=""), more=more))
            assert f"reads the loss collection ({reader})" in message, message
        (message,) = self.refused("import tensorflow as tf\n\nloss = " + call.format(extra="") + "\n")
        assert "Keras 3" in message
        (message,) = self.refused(
            "import compat\nimport tensorflow as tf\n\ndef loss(l, g):\n    return "
            "tf.losses.sparse_softmax_cross_entropy(l, g)\n"
        )
        assert "a library module" in message
        (message,) = self.refused(program.format(call="tf.losses.sparse_softmax_cross_entropy(labels)", more=""))
        assert "without its labels and logits" in message

    def test_must_not_fire_on_a_shadowed_tf_strings_comments_other_losses_or_the_safe_level(self):
        for source in (
            "import compat\n\ndef f(tf):\n    return tf.losses.sparse_softmax_cross_entropy(a, b)\n\nf(x)\n",
            'import compat\nimport tensorflow as tf\n\nprint("tf.losses.sparse_softmax_cross_entropy(a, b)")\n',
            "import compat\nimport tensorflow as tf\n\n# tf.losses.sparse_softmax_cross_entropy(a, b)\nprint(1)\n",
            "import compat\nimport tensorflow as tf\n\nprint(tf.losses.softmax_cross_entropy(a, b))\n",
        ):
            assert self.refused(source) == [], source
        source = "import compat\nimport tensorflow as tf\n\nprint(tf.losses.sparse_softmax_cross_entropy(a, b))\n"
        self.assertCodemod(source, source, level="safe")
        assert NativeLossesRule not in select(level="safe") and NativeLossesRule in select(level="native")

    def test_a_session_script_native_session_converts_gets_no_entry_of_this_rule(self):
        source = """
            import compat
            import tensorflow as tf

            x = tf.placeholder(tf.float32, [None, 2])
            y = tf.placeholder(tf.int64, [None])
            logits = tf.layers.dense(x, 2)
            loss = tf.losses.sparse_softmax_cross_entropy(y, logits)
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for _ in range(2):
                    sess.run(train_op, {x: [[1.0, 2.0]], y: [1]})
        """
        applied = apply(self.make_fixture_data(source), NativeSessionRule, NativeLossesRule, level="native")
        code = applied.module.code
        # native-session writes the loss itself (the same Keras loss), once
        assert "train_step" in code and code.count("SparseCategoricalCrossentropy(from_logits=True)") == 1, code
        assert [e for e in applied.entries if e.rule == self.RULE.ID] == []


# an Estimator program (TF 2.15's real Estimator, TF 2.21's through compat): a dense model_fn with a v1 loss,
# trained on fixed batches with a graph seed, then evaluated; it prints each step's loss and the evaluation's
PROGRAM = """
    import numpy as np
    import tensorflow as tf

    tf.logging.set_verbosity(tf.logging.ERROR)


    class Losses(tf.train.SessionRunHook):
        def before_run(self, run_context):
            return tf.train.SessionRunArgs(tf.get_default_graph().get_tensor_by_name("loss:0"))

        def after_run(self, run_context, run_values):
            print("loss %.9g" % run_values.results)


    def model_fn(features, labels, mode):
        hidden = tf.layers.dense(features, 8, activation=tf.nn.relu)
        logits = tf.layers.dense(hidden, 3)
        loss = tf.identity(tf.losses.sparse_softmax_cross_entropy(labels, logits), name="loss")
        step = tf.train.get_or_create_global_step()
        train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss, step)
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


    def input_fn():
        rng = np.random.RandomState(0)
        x, y = rng.rand(32, 4).astype(np.float32), rng.randint(0, 3, (32, 1))  # labels [N, 1], as TF1 squeezed them
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(8).repeat()


    if __name__ == "__main__":
        import tempfile

        config = tf.estimator.RunConfig(model_dir=tempfile.mkdtemp(), tf_random_seed=1)
        estimator = tf.estimator.Estimator(model_fn, config=config)
        estimator.train(input_fn, hooks=[Losses()], max_steps=4)
        print("eval %.9g" % estimator.evaluate(input_fn, steps=2)["loss"])
"""


def test_the_native_port_of_an_estimator_program_trains_to_the_same_losses(tmp_path):
    ported = ports(tmp_path, "estimator_program.py", PROGRAM)
    assert "losses.sparse_softmax_cross_entropy" in ported["safe"].code
    assert "tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)" in ported["native"].code
    converted = [e["message"] for e in ported["native"].entries if e["rule"] == "native-losses"]
    assert len(converted) == 1 and " left at " not in converted[0], converted
    lines = ported["safe"].stdout.splitlines()
    assert len([line for line in lines if line.startswith("loss ")]) == 4 and lines[-1].startswith("eval "), lines
    assert ported["native"].stdout == ported["safe"].stdout  # bit-equal: the same ops, the same op seeds
