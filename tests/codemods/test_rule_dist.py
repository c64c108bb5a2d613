"""uai-dist: the platform's uai_dist -> compat.dist, keeping the user's name."""

from libcst.codemod import CodemodTest

from codemods.rules.dist import DistRule


class TestDistRule(CodemodTest):
    TRANSFORM = DistRule

    def test_import_forms(self):
        before = """
            from uaitrain.arch.tensorflow import uai_dist
            import uaitrain.arch.tensorflow.uai_dist as dist
            parser = uai_dist.UAITensorFlowDistRunConfigParser()
        """
        after = """
            import compat.dist as uai_dist
            import compat.dist as dist
            parser = uai_dist.UAITensorFlowDistRunConfigParser()
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_other_modules_strings_comments(self):
        source = """
            from mylib import uai_dist  # uaitrain.arch.tensorflow.uai_dist
            text = "from uaitrain.arch.tensorflow import uai_dist"
        """
        self.assertCodemod(source, source)
