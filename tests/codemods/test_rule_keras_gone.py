"""keras-gone: a TF 1.x tf.keras name TF 2's Keras no longer has is an error entry naming its closest replacement;
and every name of TF 1.15's tf.keras is on TF 2's, rewritten by uai-migrate, or listed with its replacement."""

import json
import os

import tensorflow as tf

import compat  # noqa: F401 - tf.keras is Keras 2, as uai-migrate's ports run it
from codemods.rules import _shared
from codemods.rules.keras_gone import KerasGoneRule
from compat import tf1_names
from tests.support.rule_test import RuleTest

GOLDEN = os.path.join(os.path.dirname(os.path.dirname(__file__)), "common", "golden", "tf115_keras_names.json")


class TestKerasGoneRule(RuleTest):
    TRANSFORM = KerasGoneRule

    def test_a_gone_name_read_or_imported_is_an_error_naming_its_closest_replacement(self):
        source = """
            import tensorflow as tf
            from tensorflow.keras.utils import multi_gpu_model
            from tensorflow.compat.v1.keras.mixed_precision import experimental as mp

            parallel = tf.keras.utils.multi_gpu_model(model, gpus=2)
            tf.keras.mixed_precision.experimental.set_policy("mixed_float16")
        """
        self.assertCodemod(source, source)
        entries = [e for e in self.applied(source).entries if e.rule == "keras-gone"]
        self.assertEqual([(e.line, e.severity) for e in entries], [(2, "error"), (5, "error"), (6, "error")])
        self.assertIn("tf.distribute.MirroredStrategy", entries[0].manual)
        self.assertIn("tf.keras.mixed_precision.set_global_policy", entries[2].manual)

    def test_names_tf_2_keeps_and_a_users_own_name_are_left_without_an_entry(self):
        source = """
            import tensorflow as tf

            def multi_gpu_model(model, gpus):
                return model

            labels = tf.keras.utils.to_categorical(y, 3)
            parallel = multi_gpu_model(model, gpus=2)
        """
        self.assertCodemod(source, source)
        self.assertEqual([e for e in self.applied(source).entries if e.rule == "keras-gone"], [])


def _on_this_keras(name: str) -> bool:
    value: object = tf
    for part in name.split(".")[1:]:
        value = getattr(value, part, None)
        if value is None:
            return False
    return True


def test_every_tf115_keras_name_is_there_rewritten_or_listed_with_its_closest_replacement():
    with open(GOLDEN, encoding="utf-8") as handle:
        names = json.load(handle)["values"]
    gone = {
        name
        for name in names
        if not _on_this_keras(name) and _shared.upgrade_lookup(name[len(tf1_names.TF) + 1 :]) is None
    }
    assert gone == set(tf1_names.KERAS_GONE)
