"""tf-layers: tf.layers -> tf.compat.v1.layers with `import compat` (legacy Keras where Keras 3 is the default)."""

import subprocess
import sys

from codemods._migrate_file import Options, migrate_python
from codemods.rules.layers import LayersRule
from tests.support.rule_test import RuleTest, apply
from tests.support.runs import clean_env


class TestLayersRule(RuleTest):
    TRANSFORM = LayersRule

    def test_uses_and_the_compat_import(self):
        before = """
            import tensorflow as tf
            net = tf.layers.conv2d(images, 16, 3)
            net = tf.layers.dense(tf.layers.flatten(net), 10)
        """
        after = """
            import compat
            import tensorflow as tf
            net = tf.compat.v1.layers.conv2d(images, 16, 3)
            net = tf.compat.v1.layers.dense(tf.compat.v1.layers.flatten(net), 10)
        """
        self.assertCodemod(before, after)

    def test_from_import(self):
        before = """
            from tensorflow import layers
            net = layers.dense(x, 3)
        """
        after = """
            import compat
            from tensorflow.compat.v1 import layers
            net = layers.dense(x, 3)
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_keras_layers_shadowed_names_strings_comments(self):
        source = """
            import tensorflow as tf

            def build(tf):
                return tf.layers.dense(1)  # tf.layers.dense of a local object
            dense = tf.keras.layers.Dense(3)
            doc = "tf.layers.dense"
        """
        self.assertCodemod(source, source)


def test_an_assignment_to_tf_layers_is_the_programs_own_attribute_not_tf_compat_v1s():
    """tensorpack 0.9.8 sets `tf.layers = tf.keras.layers` when TF 2 lacks tf.layers: rewritten to
    `tf.compat.v1.layers = ...` it replaced TensorFlow's v1 layers with Keras' (whose Dense refuses
    tf.compat.v1.layers' `_reuse`: the port failed on TF 2.15). The uses are rewritten, the target stays."""
    source = "import tensorflow as tf\n\nif not hasattr(tf, 'layers'):\n    tf.layers = tf.keras.layers\ny = tf.layers.dense(x, 2)\n"
    code = apply(source, LayersRule).module.code
    assert "    tf.layers = tf.keras.layers\n" in code and "y = tf.compat.v1.layers.dense(x, 2)\n" in code


class TestCompatV1Layers(RuleTest):
    """tf.compat.v1.layers, however the file reaches it (tf_upgrade_v2's output, `import tensorflow.compat.v1 as tf`):
    already TF 2's name, so left as written, but on TF >= 2.16 it needs legacy Keras, which `import compat` selects."""

    TRANSFORM = LayersRule

    def test_every_spelling_gets_the_compat_import_and_keeps_its_code(self):
        for source in (
            "import tensorflow as tf\ny = tf.compat.v1.layers.dense(x, 2)\n",
            "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\ny = tf.layers.dense(x, 2)\n",
            "from tensorflow.compat import v1\ny = v1.layers.dense(x, 2)\n",
            "import tensorflow.compat.v1.layers as layers\ny = layers.dense(x, 2)\n",
            "from tensorflow.compat.v1 import layers\ny = layers.dense(x, 2)\n",
            "from tensorflow.compat.v1.layers import dense\ny = dense(x, 2)\n",
            "import tensorflow as tf\nDense = tf.compat.v1.layers.Dense\n",
        ):
            self.assertCodemod(source, "import compat\n" + source)

    def test_the_report_says_why(self):
        [entry] = self.applied("import tensorflow as tf\ny = tf.compat.v1.layers.dense(x, 2)\n").entries
        assert entry.severity == "info" and "legacy Keras" in entry.message and "import compat" in entry.message

    def test_must_not_fire_on_keras_layers_other_compat_v1_names_or_a_local_tf(self):
        for source in (
            "import tensorflow as tf\ndense = tf.compat.v1.keras.layers.Dense(3)\n",
            "import tensorflow.compat.v1 as tf\ndense = tf.keras.layers.Dense(3)\nx = tf.placeholder(tf.float32)\n",
            "import tensorflow as tf\n\ndef build(tf):\n    return tf.compat.v1.layers.dense(1)\n",
            'import tensorflow as tf\ndoc = "tf.compat.v1.layers.dense"  # tf.compat.v1.layers\n',
        ):
            self.assertCodemod(source, source)


def test_a_tf_upgrade_v2_style_file_using_v1_layers_runs_once_migrated(tmp_path):
    """tf_upgrade_v2's output for a tf.layers program stopped on TF 2.21 ("`dense` is not available with Keras 3")
    while uai-migrate said nothing needed changing."""
    source = (
        "import numpy as np\nimport tensorflow.compat.v1 as tf\n\ntf.disable_v2_behavior()\n"
        "x = tf.placeholder(tf.float32, [None, 3])\ny = tf.layers.dense(x, 2)\n"
        "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
        "    print('shape', sess.run(y, {x: np.ones([4, 3])}).shape)\n"
    )
    port = tmp_path / "upgraded.py"
    port.write_bytes(migrate_python(source.encode(), Options()).new or source.encode())  # (None: left unchanged)
    result = subprocess.run(
        [sys.executable, str(port)], cwd=tmp_path, env=clean_env(), capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "shape (4, 2)" in result.stdout
