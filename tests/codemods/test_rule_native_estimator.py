"""native-estimator: an Estimator program keeps the safe level's port at --level native, and its file gets
one info entry saying why and what stays in tf.compat.v1; nothing else gets one."""

import libcst as cst

from codemods.engine.apply import apply_rules, claims_of
from codemods.rules import select
from codemods.rules.native_estimator import MESSAGE, NativeEstimatorRule
from tests.support.rule_test import RuleTest


class TestNativeEstimatorRule(RuleTest):
    TRANSFORM = NativeEstimatorRule

    def entries(self, source: str, level: str = "native") -> list[tuple[int, str]]:
        self.assertCodemod(source, source, level=level)  # it rewrites nothing
        return [(e.line, e.message) for e in self.applied(source, level=level).entries if e.rule == self.RULE.ID]

    def test_one_entry_per_file_at_its_first_estimator_name(self):
        source = """
            import tensorflow as tf

            def model_fn(features, labels, mode):
                return tf.estimator.EstimatorSpec(mode, loss=tf.reduce_sum(features))

            config = tf.estimator.RunConfig(model_dir="m")
            estimator = tf.estimator.Estimator(model_fn, config=config)
        """
        lines = self.make_fixture_data(source).splitlines()
        first = next(number for number, line in enumerate(lines, 1) if "tf.estimator" in line)
        ((line, message),) = self.entries(source)
        assert line == first and message.startswith(MESSAGE + ". No tf.compat.v1 name is left in the file."), message
        assert message.endswith(
            "Its model is not built from Keras layers, so there is no Keras model for the modern_tf2 shape"
        )

    def test_the_entry_says_what_stays_in_tf_compat_v1_by_what_holds_it_and_whether_the_model_is_keras(self):
        source = """
            import tensorflow as tf
            import tensorflow.compat.v1 as v1
            from tensorflow.compat.v1.train import LoggingTensorHook

            class Hook(tf.compat.v1.train.SessionRunHook):
                def before_run(self, context):
                    return tf.compat.v1.train.SessionRunArgs(v1.train.get_global_step())

            def model_fn(features, labels, mode):
                logits = tf.keras.layers.Dense(2)(features)
                step = tf.compat.v1.train.get_or_create_global_step()
                train_op = tf.compat.v1.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(logits), step)
                return tf.compat.v1.estimator.tpu.TPUEstimatorSpec(mode, loss=tf.reduce_sum(logits), train_op=train_op)
        """
        ((_, message),) = self.entries(source)
        graph = message.split("in its model_fn, input_fn and the code around them (")[1]
        assert graph.split(": ", 1)[1].startswith(
            "train.get_global_step, train.get_or_create_global_step, train.AdamOptimizer; "
        ), message
        assert (
            "in the hooks its session runs: train.SessionRunHook, train.SessionRunArgs, train.LoggingTensorHook;"
            in message
        )
        assert "in the Estimator: estimator.tpu.TPUEstimatorSpec. Its tf.train optimizer stays too: " in message
        assert message.endswith(
            "Its model_fn builds Keras layers, but no rule proves the modern_tf2 shape (a Keras model in a custom loop "
            "under the strategy TF_CONFIG calls for) equal to the Estimator's training: a port by hand"
        )

    def test_a_v1_canned_estimator_left_gets_the_measured_reason(self):
        # measured on TF 2.15: TF 2's LinearClassifier with loss_reduction=SUM trains the same weights, but a
        # model_dir of the v1 class does not restore into it (its Ftrl slots are named otherwise)
        source = """
            import tensorflow as tf

            columns = [tf.feature_column.numeric_column("x", shape=[4])]
            estimator = tf.compat.v1.estimator.LinearClassifier(columns, model_dir="m")
        """
        ((_, message),) = self.entries(source)
        assert "in the Estimator: estimator.LinearClassifier. Its v1 canned estimator stays: " in message, message
        assert "part_0/Ftrl" in message and "training/Ftrl/" in message and "loss_reduction" in message, message

    def test_a_v1_canned_regressor_gets_no_word_of_auc(self):
        # a regressor evaluates loss, average_loss and the label and prediction means: it has no AUC to compute
        source = """
            import tensorflow as tf

            columns = [tf.feature_column.numeric_column("x", shape=[4])]
            estimator = tf.compat.v1.estimator.LinearRegressor(columns, model_dir="m")
        """
        ((_, message),) = self.entries(source)
        assert "Its v1 canned estimator stays: " in message and "AUC" not in message, message

    def test_the_estimator_imported_by_name_or_from_its_own_package_and_tf1s_contrib_runners(self):
        for source in (
            "from tensorflow.estimator import Estimator\n\nEstimator(model_fn)\n",
            "from tensorflow_estimator import estimator\n",
            "import tensorflow as tf\n\ntf.contrib.tpu.TPUEstimator(model_fn, use_tpu=False)\n",
            "from tensorflow.contrib.learn.python.learn import learn_runner\n\nlearn_runner.run(experiment_fn)\n",
        ):
            assert [message.startswith(MESSAGE) for _, message in self.entries(source)] == [True], source

    def test_must_not_fire_without_an_estimator_or_at_the_safe_level(self):
        for source in (
            "import tensorflow as tf\n\nsess = tf.Session()\n",
            "import tensorflow as tf\n\nx = tf.estimatorish\n",
            "import estimator\n\nestimator.Estimator()\n",
            # (a constant a Session script's input function reads: not an Estimator program)
            "import tensorflow as tf\n\ntraining = mode == tf.estimator.ModeKeys.TRAIN\n",
            "from tensorflow.estimator import ModeKeys\n\ntraining = mode == ModeKeys.TRAIN\n",
        ):
            assert self.entries(source) == [], source
        assert NativeEstimatorRule not in select(level="safe") and NativeEstimatorRule in select(level="native")


def test_an_import_the_engine_drops_after_the_pass_is_not_said_to_stay():
    # tf-flags turns app.run into compat.flags' and schedules `from tensorflow import app` (tf.compat.v1's spelling by
    # then) for removal: the port keeps no `app`, so the entry must not name it
    source = (
        "from tensorflow import app\nimport tensorflow as tf\n\n\ndef main(_):\n"
        "    tf.estimator.Estimator(lambda features, labels, mode: None).train(None, max_steps=1)\n\n\napp.run(main)\n"
    )
    rules = [rule("native") for rule in select(level="native")]
    applied = apply_rules(cst.parse_module(source), rules, claims_of(tuple(type(r) for r in rules)))
    assert "import app" not in applied.module.code, applied.module.code
    (message,) = [e.message for e in applied.entries if e.rule == NativeEstimatorRule.ID]
    assert message.startswith(MESSAGE + ". No tf.compat.v1 name is left in the file."), message
