"""tf-config: the hand-written TF_CONFIG master->chief rewrite -> compat.tf_config; other rewrites reported."""

from codemods.rules.tf_config import TFConfigRule
from tests.support.rule_test import RuleTest, apply

EXAMPLE = '''
import json
import os
import tensorflow as tf


def convert_tf_config():
    """TF2 strategies want chief, the platform writes master."""
    tf_config = json.loads(os.environ["TF_CONFIG"])
    tf_config["cluster"]["chief"] = tf_config["cluster"].pop("master")
    if tf_config["task"]["type"] == "master":
        tf_config["task"]["type"] = "chief"
    os.environ["TF_CONFIG"] = json.dumps(tf_config)
'''


class TestTFConfigRule(RuleTest):
    TRANSFORM = TFConfigRule

    def test_function_from_the_tf2_example(self):
        after = '''
            import json
            import os
            import tensorflow as tf
            from compat import tf_config as compat_tf_config


            def convert_tf_config():
                """TF2 strategies want chief, the platform writes master."""
                _cluster = compat_tf_config.from_environment()
                if _cluster.is_distributed:
                    os.environ["TF_CONFIG"] = compat_tf_config.to_json(_cluster, "chief")
        '''
        self.assertCodemod(EXAMPLE, after)

    def test_module_level_block(self):
        before = """
            import json, os
            if "TF_CONFIG" in os.environ:
                cfg = json.loads(os.environ["TF_CONFIG"])
                cfg["cluster"]["chief"] = cfg["cluster"].pop("master")
                os.environ["TF_CONFIG"] = json.dumps(cfg)
            import tensorflow as tf
        """
        after = """
            import json, os
            from compat import tf_config

            _cluster = tf_config.from_environment()
            if _cluster.is_distributed:
                os.environ["TF_CONFIG"] = tf_config.to_json(_cluster, "chief")
            import tensorflow as tf
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_reads_strings_comments(self):
        source = """
            import json, os

            def task_type():
                # rename master to chief in TF_CONFIG? no: only read it
                return json.loads(os.environ["TF_CONFIG"])["task"]["type"]
            os.environ["OTHER"] = "master chief TF_CONFIG"
        """
        self.assertCodemod(source, source)


def test_a_rewrite_carving_out_an_evaluator_is_an_error_entry():
    source = EXAMPLE.replace('tf_config["task"]["type"] = "chief"', 'tf_config["task"]["type"] = "evaluator"')
    applied = apply(source, TFConfigRule)
    assert applied.module.code == source
    [entry] = applied.entries
    assert entry.severity == "error" and "compat" in entry.manual and entry.line == 7
