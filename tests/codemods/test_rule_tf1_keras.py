"""tf1-keras: a file of TF 1.x code (it names what TF 2's tf lacks) that uses tf.keras gets import compat, once; a file
naming nothing TF 1.x-only is left as written.

That the port runs TF 1.x's Keras 2 API as TF 1.15 did: tests/common/test_tf1_keras.py (keras_fit_generator.py).
"""

from codemods.rules.tf1_keras import Tf1KerasRule
from tests.support.rule_test import RuleTest


class TestTf1Keras(RuleTest):
    TRANSFORM = Tf1KerasRule

    def test_tf1_code_using_tf_keras(self):
        for uses in (
            "model = tf.keras.models.Sequential([tf.keras.layers.Dense(1)])\nmodel.fit_generator(gen, 10)\n",
            "from tensorflow.keras.layers import Dense\nlayer = Dense(1)\n",
            "from tensorflow import keras\nlayer = keras.layers.Dense(1)\n",
            "K = tf.compat.v1.keras.backend\nK.clear_session()\n",
        ):
            with self.subTest(uses=uses):
                before = "import tensorflow as tf\nsession = tf.Session()\n" + uses
                self.assertCodemod(before, "import compat\n" + before)
                said = [entry.message for entry in self.applied(before).entries]
                assert len(said) == 1 and "TF 1.x code using tf.keras -> import compat" in said[0], said

    def test_must_not_fire(self):
        for source in (
            # TF 2 code, or code TF 1 and 2 share: nothing says TF 1.x
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n",
            # TF 1.x code without tf.keras
            "import tensorflow as tf\nsession = tf.Session()\nx = tf.placeholder(tf.float32)\n",
            # keras only in an import, a string, a comment, or another library's keras
            'import tensorflow as tf\nfrom tensorflow import keras\nsession = tf.Session()\ntext = "tf.keras"  # tf.keras\n',
            "import keras\nimport tensorflow as tf\nsession = tf.Session()\nlayer = keras.layers.Dense(1)\n",
        ):
            with self.subTest(source=source):
                self.assertCodemod(source, source)
