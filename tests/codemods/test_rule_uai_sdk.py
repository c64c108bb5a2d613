"""uai-sdk: the platform's uflag -> compat.flags and uai_dist -> compat.dist, keeping the user's names."""

from codemods.rules.uai_sdk import UaiSdkRule
from tests.support.rule_test import RuleTest


class TestUaiSdkRule(RuleTest):
    TRANSFORM = UaiSdkRule

    def test_both_modules_in_one_import_keep_their_names(self):
        before = """
            from uaitrain.arch.tensorflow import uflag, uai_dist  # platform SDK
            uflag.DEFINE_integer("batch_size", 8, "images per step")
            parser = uai_dist.UAITensorFlowDistRunConfigParser()
        """
        after = """
            import compat.flags as uflag  # platform SDK
            import compat.dist as uai_dist
            uflag.DEFINE_integer("batch_size", 8, "images per step")
            parser = uai_dist.UAITensorFlowDistRunConfigParser()
        """
        self.assertCodemod(before, after)

    def test_other_import_forms(self):
        before = """
            import uaitrain.arch.tensorflow.uai_dist as dist
            from uaitrain.arch.tensorflow import uflag as f, other
        """
        after = """
            import compat.dist as dist
            from uaitrain.arch.tensorflow import other
            import compat.flags as f
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_other_modules_strings_comments(self):
        source = """
            from mylib import uai_dist, uflag  # uaitrain.arch.tensorflow.uai_dist
            text = "from uaitrain.arch.tensorflow import uai_dist"
        """
        self.assertCodemod(source, source)
