"""keras-optimizers: TF 1.x's Keras optimizers called with lr= or decay= -> tf.keras.optimizers.legacy's class (TF 1.x's),
lr= spelled learning_rate=, with import compat; an optimizer made without those keywords stays as written.

That the port trains as TF 1.15 did: tests/common/test_tf1_keras.py (on TF 2.15 and 2.21); TF 2 code:
tests/codemods/test_tf2_code.py.
"""

from codemods.rules.keras_optimizers import KerasOptimizersRule, tf1_classes
from tests.support.rule_test import RuleTest


class TestKerasOptimizers(RuleTest):
    TRANSFORM = KerasOptimizersRule

    def test_every_spelling_of_a_tf1_call(self):
        before = """
            import tensorflow as tf
            from tensorflow import keras
            from tensorflow.keras import optimizers
            from tensorflow.keras.optimizers import RMSprop

            sgd = tf.keras.optimizers.SGD(lr=0.01, momentum=0.9, decay=1e-6, nesterov=True)
            adam = optimizers.Adam(lr=0.001)
            adagrad = keras.optimizers.Adagrad(0.1, decay=0.1)
            rmsprop = RMSprop(lr=0.01)
            v1 = tf.compat.v1.keras.optimizers.Adam(lr=0.1)
        """
        after = """
            import compat
            import tensorflow as tf
            from tensorflow import keras
            from tensorflow.keras import optimizers

            sgd = tf.keras.optimizers.legacy.SGD(learning_rate=0.01, momentum=0.9, decay=1e-6, nesterov=True)
            adam = optimizers.legacy.Adam(learning_rate=0.001)
            adagrad = keras.optimizers.legacy.Adagrad(0.1, decay=0.1)
            rmsprop = tf.keras.optimizers.legacy.RMSprop(learning_rate=0.01)
            v1 = tf.compat.v1.keras.optimizers.legacy.Adam(learning_rate=0.1)
        """
        self.assertCodemod(before, after)
        said = [entry.message for entry in self.applied(before).entries]
        assert len(said) == 5, said
        assert said[0].startswith("tf.keras.optimizers.SGD(lr=..., decay=...) -> tf.keras.optimizers.legacy.SGD: ")

    def test_an_optimizer_of_a_name_imported_by_a_module_without_tf(self):
        before = """
            from tensorflow.keras.optimizers import SGD

            optimizer = SGD(lr=0.1)
            other = SGD
        """
        after = """
            import compat
            from tensorflow.keras.optimizers import SGD
            import tensorflow as tf

            optimizer = tf.keras.optimizers.legacy.SGD(learning_rate=0.1)
            other = SGD
        """
        self.assertCodemod(before, after)

    def test_learning_rate_given_too_keeps_lr_as_written(self):
        # TF 1.x's OptimizerV2 took both and read lr last; the legacy class reads them as TF 1.x's did
        source = "import tensorflow as tf\nopt = tf.keras.optimizers.SGD(learning_rate=0.1, lr=0.2)\n"
        expected = (
            "import compat\nimport tensorflow as tf\nopt = tf.keras.optimizers.legacy.SGD(learning_rate=0.1, lr=0.2)\n"
        )
        self.assertCodemod(source, expected)

    def test_must_not_fire(self):
        source = """
            import tensorflow as tf
            from mylib import optimizers

            plain = tf.keras.optimizers.SGD(0.1, momentum=0.9)  # the same update with either class
            native = tf.keras.optimizers.Adam(learning_rate=0.01)
            mine = optimizers.SGD(lr=0.1)  # not TensorFlow's
            v1_train = tf.train.AdamOptimizer(learning_rate=0.1)
            text = "tf.keras.optimizers.SGD(lr=0.1)"

            def local(tf):
                return tf.keras.optimizers.SGD(lr=0.1)  # a parameter named tf
        """
        self.assertCodemod(source, source)

    def test_the_classes_are_tf2s_legacy_ones(self):
        names = {name.rpartition(".")[2] for name in tf1_classes()}
        assert {"SGD", "Adam", "RMSprop", "Adagrad", "Adadelta", "Adamax", "Nadam", "Ftrl"} <= names, names


class TestKerasOptimizersImports(RuleTest):
    TRANSFORM = KerasOptimizersRule

    def test_a_module_reading_keras_alone_gets_no_tensorflow_import(self):
        before = """
            from tensorflow.keras import optimizers

            optimizer = optimizers.SGD(lr=0.1)
        """
        after = """
            import compat
            from tensorflow.keras import optimizers

            optimizer = optimizers.legacy.SGD(learning_rate=0.1)
        """
        self.assertCodemod(before, after)


class TestNadamScheduleDecay(RuleTest):
    TRANSFORM = KerasOptimizersRule

    def test_nadams_schedule_decay_alone(self):
        before = "import tensorflow as tf\nopt = tf.keras.optimizers.Nadam(0.002, schedule_decay=0.004)\n"
        after = "import compat\nimport tensorflow as tf\nopt = tf.keras.optimizers.legacy.Nadam(0.002, schedule_decay=0.004)\n"
        self.assertCodemod(before, after)


class TestOptimizerV2Subclasses(RuleTest):
    TRANSFORM = KerasOptimizersRule

    def test_a_subclass_written_on_optimizer_v2s_hooks(self):
        before = """
            import tensorflow as tf
            from tensorflow.keras.optimizers import SGD

            class HeavyBall(tf.keras.optimizers.Optimizer):
                def __init__(self, learning_rate=0.01, name="HeavyBall", **kwargs):
                    super(HeavyBall, self).__init__(name, **kwargs)
                    self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))

            class Clipped(SGD):
                def _resource_apply_dense(self, grad, var):
                    return super()._resource_apply_dense(grad, var)
        """
        after = """
            import compat
            import tensorflow as tf

            class HeavyBall(tf.keras.optimizers.legacy.Optimizer):
                def __init__(self, learning_rate=0.01, name="HeavyBall", **kwargs):
                    super(HeavyBall, self).__init__(name, **kwargs)
                    self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))

            class Clipped(tf.keras.optimizers.legacy.SGD):
                def _resource_apply_dense(self, grad, var):
                    return super()._resource_apply_dense(grad, var)
        """
        self.assertCodemod(before, after)
        said = [entry.message for entry in self.applied(before).entries]
        assert len(said) == 2 and said[0].startswith(
            "class HeavyBall(tf.keras.optimizers.Optimizer) -> tf.keras.optimizers.legacy.Optimizer: "
        ), said

    def test_must_not_fire(self):
        for source in (
            # Keras 2.11+'s API (build, update_step): TF 2 code
            "import tensorflow as tf\nclass Mine(tf.keras.optimizers.Optimizer):\n"
            "    def update_step(self, gradient, variable):\n        pass\n",
            # a subclass adding nothing of OptimizerV2's
            "import tensorflow as tf\nclass Named(tf.keras.optimizers.Adam):\n    pass\n",
            # another library's Optimizer
            "import tensorflow as tf\nimport torch\nclass Mine(torch.optim.Optimizer):\n"
            "    def _create_slots(self, var_list):\n        pass\n",
        ):
            with self.subTest(source=source):
                self.assertCodemod(source, source)
