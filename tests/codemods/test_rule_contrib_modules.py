"""contrib-module-values: a tf.contrib module read as a value is bound to compat's module object for it."""

import textwrap

from codemods.rules import RULES
from codemods.rules.contrib import ContribRule
from codemods.rules.contrib_modules import ContribModulesRule
from tests.support.rule_test import RuleTest, apply


class TestContribModulesRule(RuleTest):
    TRANSFORM = ContribModulesRule

    def test_a_contrib_module_returned_as_a_value_becomes_compats_object(self):
        before = """
            def opt():
                from tensorflow.contrib import opt as contrib_opt
                return contrib_opt

            import tensorflow.contrib.layers as layers
            register(layers)
        """
        after = """
            import compat
            import compat.tf1_modules as compat_tf1_modules

            def opt():
                contrib_opt = compat_tf1_modules.tf1_module("tensorflow.contrib.opt")
                return contrib_opt

            layers = compat_tf1_modules.tf1_module("tensorflow.contrib.layers")
            register(layers)
        """
        self.assertCodemod(before, after)
        entries = self.applied(before).entries
        assert [(e.severity, e.line) for e in entries] == [("warning", 2), ("warning", 5)]
        assert (
            "tensorflow.contrib.opt is read as a value" in entries[0].message and "MissingTF1Name" in entries[0].manual
        )

    def test_tf1_13s_compat_v1_spelling_is_the_tf1_module(self):
        before = "from tensorflow.compat.v1.contrib import training\nhparams_module = training\n"
        after = (
            "import compat\nimport compat.tf1_modules as compat_tf1_modules\n\n"
            'training = compat_tf1_modules.tf1_module("tensorflow.contrib.training")\nhparams_module = training\n'
        )
        self.assertCodemod(before, after)

    def test_an_alias_of_a_contrib_module_becomes_compats_object(self):
        # `layers = tf.contrib.layers` reads the module as a value: the names read off the alias resolve at run
        # time through the table uai-run's face reads, as for an import read as a value
        before = """
            import tensorflow as tf

            layers = tf.contrib.layers
            net = layers.fully_connected(x, 3, weights_initializer=layers.xavier_initializer())
        """
        after = """
            import compat
            import tensorflow as tf
            import compat.tf1_modules as compat_tf1_modules

            layers = compat_tf1_modules.tf1_module("tensorflow.contrib.layers")
            net = layers.fully_connected(x, 3, weights_initializer=layers.xavier_initializer())
        """
        self.assertCodemod(before, after)
        [entry] = self.applied(before).entries
        assert (entry.severity, entry.line) == (
            "warning",
            3,
        ) and "tensorflow.contrib.layers is read as a value" in entry.message
        # through `import tensorflow.contrib.opt`, which stays (contrib-removed's error, where it fails)
        before = "import tensorflow.contrib.opt\nmodule = tensorflow.contrib.opt\n"
        after = (
            "import compat\nimport tensorflow.contrib.opt\nimport compat.tf1_modules as compat_tf1_modules\n\n"
            'module = compat_tf1_modules.tf1_module("tensorflow.contrib.opt")\n'
        )
        self.assertCodemod(before, after)

    def test_must_not_fire(self):
        for source in (
            # its names read off it only: the other rules' (converted or reported)
            "from tensorflow.contrib import opt as contrib_opt\noptimizer = contrib_opt.LazyAdamOptimizer(0.1)\n",
            # a module the table has no name of: contrib-removed's error at the import, where it fails
            "def cloud():\n    from tensorflow.contrib import cloud as contrib_cloud\n    return contrib_cloud\n",
            # a moved name, not a module; several names in one import; an import binding `tensorflow`
            "from tensorflow.contrib.training import HParams\nmake(HParams)\n",
            "from tensorflow.contrib import opt, layers\nmodules = [opt, layers]\n",
            "import tensorflow.contrib.opt\nopt = tensorflow.contrib.opt.LazyAdamOptimizer\n",
            # not TensorFlow's contrib
            "from mylib.contrib import opt\nmodule = opt\n",
        ):
            self.assertCodemod(source, source)
            assert self.applied(source).entries == []


def test_with_every_rule_the_object_replaces_the_error_and_a_name_with_no_home_is_still_reported():
    source = textwrap.dedent(
        """
        def framework():
            from tensorflow.contrib import framework as contrib_framework
            return contrib_framework

        from tensorflow.contrib import rnn as contrib_rnn
        cells = contrib_rnn
        gone = contrib_rnn.zz_gone_cell(4)
        """
    )
    applied = apply(source, *RULES)
    assert 'contrib_framework = compat_tf1_modules.tf1_module("tensorflow.contrib.framework")' in applied.module.code
    assert "from tensorflow.contrib" not in applied.module.code
    entries = [
        (e.rule, e.severity, e.line) for e in applied.entries if e.rule in (ContribRule.ID, ContribModulesRule.ID)
    ]
    assert entries == [
        (ContribModulesRule.ID, "warning", 3),
        (ContribModulesRule.ID, "warning", 6),
        (ContribRule.ID, "error", 8),  # a name read off it that nothing provides: still an error, at its line
    ]


def test_an_alias_another_rule_converts_stays_that_rules():
    # contrib-slim makes `slim = tf.contrib.slim` an import of compat.slim: no module object, no warning
    applied = apply("import tensorflow as tf\nslim = tf.contrib.slim\nnet = slim.conv2d\n", *RULES)
    assert "import compat.slim as slim" in applied.module.code and "tf1_module" not in applied.module.code
    assert [e for e in applied.entries if e.rule == ContribModulesRule.ID] == []
