"""native-estimator: an Estimator program keeps the safe level's port at --level native, and its file gets
one info entry saying why; nothing else gets one."""

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
        assert self.entries(source) == [(first, MESSAGE)]

    def test_the_estimator_imported_by_name_or_from_its_own_package_and_tf1s_contrib_runners(self):
        for source in (
            "from tensorflow.estimator import Estimator\n\nEstimator(model_fn)\n",
            "from tensorflow_estimator import estimator\n",
            "import tensorflow as tf\n\ntf.contrib.tpu.TPUEstimator(model_fn, use_tpu=False)\n",
            "from tensorflow.contrib.learn.python.learn import learn_runner\n\nlearn_runner.run(experiment_fn)\n",
        ):
            assert [message for _, message in self.entries(source)] == [MESSAGE], source

    def test_must_not_fire_without_an_estimator_or_at_the_safe_level(self):
        for source in (
            "import tensorflow as tf\n\nsess = tf.Session()\n",
            "import tensorflow as tf\n\nx = tf.estimatorish\n",
            "import estimator\n\nestimator.Estimator()\n",
        ):
            assert self.entries(source) == [], source
        assert NativeEstimatorRule not in select(level="safe") and NativeEstimatorRule in select(level="native")
