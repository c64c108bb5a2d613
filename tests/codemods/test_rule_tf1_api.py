"""tf1-api: TF1 names -> TF2 home or tf.compat.v1 (derived table), semantic call changes, the user's alias kept."""

import json

from codemods import tables
from codemods.rules.layers import LayersRule
from codemods.rules.tf1_api import Tf1ApiRule
from tests.support.rule_test import RuleTest, apply


class TestTf1ApiRule(RuleTest):
    TRANSFORM = Tf1ApiRule

    def test_moved_v1_only_and_differing_classes(self):
        before = """
            import tensorflow as tf
            x = tf.placeholder(tf.float32, [None, 3])
            y = tf.log(x)
            spec = tf.FixedLenFeature([], tf.string)
            ds = tf.data.TFRecordDataset(files)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
            keys = tf.GraphKeys.UPDATE_OPS
            tf.logging.set_verbosity(tf.logging.INFO)
        """
        after = """
            import tensorflow as tf
            x = tf.compat.v1.placeholder(tf.float32, [None, 3])
            y = tf.math.log(x)
            spec = tf.io.FixedLenFeature([], tf.string)
            ds = tf.compat.v1.data.TFRecordDataset(files)
            with tf.compat.v1.Session() as sess:
                sess.run(tf.compat.v1.global_variables_initializer())
            keys = tf.compat.v1.GraphKeys.UPDATE_OPS
            tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)
        """
        self.assertCodemod(before, after)

    def test_semantic_changes(self):
        before = """
            import tensorflow as T
            a = T.to_float(x)
            b = T.to_int64(x, name="b")
            c = T.reduce_mean(x, reduction_indices=[1, 2], keep_dims=True)
            d = T.nn.dropout(x, keep_prob=0.8)
            e = T.nn.dropout(x, keep)
            f = T.nn.dropout(x, 1 - p)
            g = T.argmax(x, dimension=1)
            h = T.reduce_sum(x, axis=1)
            i = T.nn.conv2d(x, filter=w, strides=[1, 1, 1, 1], padding="SAME")
        """
        after = """
            import tensorflow as T
            a = T.cast(x, T.float32)
            b = T.cast(x, T.int64, name="b")
            c = T.reduce_mean(x, axis=[1, 2], keepdims=True)
            d = T.nn.dropout(x, rate=1 - 0.8)
            e = T.nn.dropout(x, rate=1 - keep)
            f = T.nn.dropout(x, rate=1 - (1 - p))
            g = T.argmax(x, axis=1)
            h = T.reduce_sum(x, axis=1)
            i = T.nn.conv2d(x, filters=w, strides=[1, 1, 1, 1], padding="SAME")
        """
        self.assertCodemod(before, after)

    def test_calls_tf2_would_read_differently_go_to_compat_v1(self):
        before = """
            import tensorflow as tf
            c = tf.constant(1, tf.int32, [1], "c", True)
            g = tf.gradients(loss, params, colocate_gradients_with_ops=True)
        """
        after = """
            import tensorflow as tf
            c = tf.compat.v1.constant(1, tf.int32, [1], "c", True)
            g = tf.compat.v1.gradients(loss, params, colocate_gradients_with_ops=True)
        """
        self.assertCodemod(before, after)

    def test_calls_missing_an_argument_tf2_requires_go_to_compat_v1(self):
        before = """
            import tensorflow as tf
            drawn = tf.image.draw_bounding_boxes(images, boxes)
            named = tf.image.draw_bounding_boxes(images, boxes, "boxes")
            opt = tf.train.SyncReplicasOptimizer(opt, replicas_to_aggregate=2, replica_id=0)
        """
        after = """
            import tensorflow as tf
            drawn = tf.compat.v1.image.draw_bounding_boxes(images, boxes)
            named = tf.compat.v1.image.draw_bounding_boxes(images, boxes, "boxes")
            opt = tf.compat.v1.train.SyncReplicasOptimizer(opt, replicas_to_aggregate=2)
        """
        self.assertCodemod(before, after)

    def test_from_imports(self):
        before = """
            from tensorflow import Session, placeholder
            from tensorflow.train import AdamOptimizer
        """
        after = """
            from tensorflow.compat.v1 import Session, placeholder
            from tensorflow.compat.v1.train import AdamOptimizer
        """
        self.assertCodemod(before, after)

    def test_a_tf1_module_read_as_a_value_is_tf1s(self):
        # GPflow 1.x makes its optimizers from dir(tf.train) / getattr(tf.train, name): TF 2's tf.train has
        # no *Optimizer, TF 1's did; a module whose names all stayed (tf.math) and a chain's inner module stay
        before = """
            import tensorflow as tf
            names = [name for name in dir(tf.train) if name.endswith("Optimizer")]
            adam = getattr(tf.train, "AdamOptimizer", None)
            nn = tf.nn
            math = tf.math
            sgd = tf.train.GradientDescentOptimizer
        """
        after = """
            import tensorflow as tf
            names = [name for name in dir(tf.compat.v1.train) if name.endswith("Optimizer")]
            adam = getattr(tf.compat.v1.train, "AdamOptimizer", None)
            nn = tf.compat.v1.nn
            math = tf.math
            sgd = tf.compat.v1.train.GradientDescentOptimizer
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_tf2_code_compat_v1_shadowed_names_strings_comments(self):
        source = """
            import tensorflow as tf
            import tensorflow.compat.v1 as v1

            def f(tf):
                return tf.Session()  # tf.Session is a local object here

            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            s = v1.Session()
            t = "tf.placeholder(tf.float32)"
            y = tf.reduce_mean(x, axis=1, keepdims=True)
            z = tf.compat.v1.placeholder(tf.float32)
        """
        self.assertCodemod(source, source)


def test_the_table_is_derived_from_tensorflow_not_typed():
    with open(tables.TF_API) as handle:
        table = json.load(handle)
    assert table["tensorflow"].startswith("2.")
    assert table["moved"]["log"] == "math.log"
    assert "Session" in table["v1_only"] and "train.AdamOptimizer" in table["v1_only"]
    assert len(table["moved"]) > 100 and len(table["v1_only"]) > 500  # the full API, not a short list


def test_names_another_active_rule_claims_are_left_to_it():
    source = "import tensorflow as tf\ny = tf.layers.dense(x, 1)\n"
    alone = "import compat\nimport tensorflow as tf\ny = tf.compat.v1.layers.dense(x, 1)\n"
    assert apply(source, Tf1ApiRule).module.code == alone
    assert apply(source, Tf1ApiRule, claims_of=[LayersRule]).module.code == source


def test_a_moved_function_is_judged_by_the_parameters_its_new_name_has_in_tf1_code():
    # a second run reads tf.linalg.tensor_diag_part as TF1 code: the first must leave nothing for it to do
    source = "import tensorflow as tf\ny = tf.diag_part(x, keep_dims=True)\nz = tf.diag_part(x)\n"
    code = apply(source, Tf1ApiRule).module.code
    assert (
        code
        == "import tensorflow as tf\ny = tf.compat.v1.diag_part(x, keep_dims=True)\nz = tf.linalg.tensor_diag_part(x)\n"
    )
    assert apply(code, Tf1ApiRule).module.code == code


class TestTf1OptimizerGivenToKeras(RuleTest):
    """Keras 3 (tf.keras on TF >= 2.16) rejects a tf.compat.v1 optimizer ("Could not interpret optimizer
    identifier"); Keras 2, which `import compat` selects, wraps it as TF1's tf.keras did."""

    TRANSFORM = Tf1ApiRule

    def test_a_tf1_optimizer_in_a_file_using_tf_keras_imports_compat(self):
        before = """
            import tensorflow as tf
            opt = tf.train.AdamOptimizer(0.01)
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer=opt, loss="mse")
        """
        after = """
            import compat
            import tensorflow as tf
            opt = tf.compat.v1.train.AdamOptimizer(0.01)
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer=opt, loss="mse")
        """
        self.assertCodemod(before, after)

    def test_keras_imported_from_tensorflow_counts_and_compat_v1_optimizers_too(self):
        before = """
            from tensorflow.keras.models import Sequential
            import tensorflow as tf
            model = Sequential()
            model.compile(optimizer=tf.compat.v1.train.GradientDescentOptimizer(0.1), loss="mse")
        """
        after = """
            import compat
            from tensorflow.keras.models import Sequential
            import tensorflow as tf
            model = Sequential()
            model.compile(optimizer=tf.compat.v1.train.GradientDescentOptimizer(0.1), loss="mse")
        """
        self.assertCodemod(before, after)

    def test_the_report_says_why_at_the_optimizer(self):
        source = "import tensorflow as tf\nm = tf.keras.Sequential()\nm.compile(tf.train.MomentumOptimizer(0.1, 0.9))\n"
        entries = [entry for entry in self.applied(source).entries if "Keras 2" in entry.message]
        assert [entry.severity for entry in entries] == ["info"]

    def test_without_tf_keras_or_without_a_tf1_optimizer_no_compat(self):
        for source in (
            "import tensorflow as tf\nopt = tf.train.AdamOptimizer(0.01)\ntrain = opt.minimize(loss)\n",
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.compile(tf.keras.optimizers.Adam(), 'mse')\n",
        ):
            assert "import compat" not in self.applied(source).module.code
