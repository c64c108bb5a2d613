"""contrib-slim: tf.contrib.slim in all its import forms -> compat.slim / tf_slim."""

from hypothesis import given, settings
from hypothesis import strategies as st

from codemods.rules.slim import SlimRule
from tests.support.rule_test import RuleTest, apply
from tests.support.sources import reads_before_bound


class TestSlimRule(RuleTest):
    TRANSFORM = SlimRule

    def test_import_as(self):
        before = """
            import tensorflow as tf
            import tensorflow.contrib.slim as slim
            net = slim.conv2d(images, 32, [3, 3])
        """
        after = """
            import tensorflow as tf
            import compat.slim as slim
            net = slim.conv2d(images, 32, [3, 3])
        """
        self.assertCodemod(before, after)

    def test_from_contrib_import_slim_keeps_alias_and_other_names(self):
        before = """
            from tensorflow.contrib import slim as s, layers
        """
        after = """
            from tensorflow.contrib import layers
            import compat.slim as s
        """
        self.assertCodemod(before, after)

    def test_assignment_and_inline_uses(self):
        before = """
            import tensorflow as tf
            slim = tf.contrib.slim

            def head(net):
                return tf.contrib.slim.fully_connected(net, 10)
        """
        after = """
            import tensorflow as tf
            import compat.slim as slim

            def head(net):
                return slim.fully_connected(net, 10)
        """
        self.assertCodemod(before, after)

    def test_contrib_behind_a_tf_compat_v1_prefix_is_tf_contrib(self):
        # TF 1.13+ code (tflearn) reaches contrib through tf.compat.v1
        before = """
            import tensorflow.compat.v1 as tf
            import tensorflow
            from tensorflow.compat.v1.contrib.slim.nets import vgg

            w = tf.contrib.layers.xavier_initializer()
            net = tensorflow.compat.v1.contrib.slim.conv2d(tf.zeros([1, 8, 8, 3]), 32, [3, 3])
        """
        after = """
            import compat.slim
            import tensorflow.compat.v1 as tf
            import tensorflow
            from tf_slim.nets import vgg
            import compat.slim as slim

            w = slim.xavier_initializer()
            net = slim.conv2d(tf.zeros([1, 8, 8, 3]), 32, [3, 3])
        """
        self.assertCodemod(before, after)

    def test_submodules_go_to_tf_slim_with_the_runtime_fix_imported(self):
        before = """
            from tensorflow.contrib.slim.nets import resnet_v1
            from tensorflow.contrib.slim import arg_scope
            import tensorflow.contrib.slim.nets as nets
        """
        after = """
            import compat.slim
            from tf_slim.nets import resnet_v1
            from tf_slim import arg_scope
            import tf_slim.nets as nets
        """
        self.assertCodemod(before, after)

    def test_contrib_layers_and_framework_names_tf_slim_kept_move_to_compat_slim(self):
        before = """
            import tensorflow as tf
            from tensorflow.contrib.framework import arg_scope
            import tensorflow.contrib.layers as layers

            with arg_scope([layers.conv2d], weights_initializer=tf.contrib.layers.xavier_initializer()):
                net = layers.conv2d(images, 32, [3, 3], weights_regularizer=layers.l2_regularizer(1e-4))
        """
        after = """
            import tensorflow as tf
            from compat.slim import arg_scope
            import compat.slim as slim

            with arg_scope([slim.conv2d], weights_initializer=slim.xavier_initializer()):
                net = slim.conv2d(images, 32, [3, 3], weights_regularizer=slim.l2_regularizer(1e-4))
        """
        self.assertCodemod(before, after)

    def test_contrib_layers_names_reuse_the_files_slim_alias_and_leave_what_tf_slim_lacks(self):
        before = """
            import tensorflow as tf
            import tensorflow.contrib.slim as slim
            from tensorflow.contrib import layers

            net = slim.conv2d(images, 8, 3, weights_initializer=layers.variance_scaling_initializer())
            emb = layers.embed_sequence(ids, 10, 4)
        """
        after = """
            import tensorflow as tf
            import compat.slim as slim
            from tensorflow.contrib import layers

            net = slim.conv2d(images, 8, 3, weights_initializer=slim.variance_scaling_initializer())
            emb = layers.embed_sequence(ids, 10, 4)
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_shadowed_tf_strings_or_comments(self):
        source = """
            import tensorflow as tf

            def build(tf):
                slim = tf.contrib.slim  # a stand-in object, not TensorFlow
                return slim, "import tensorflow.contrib.slim as slim"
        """
        self.assertCodemod(source, source)

    def test_contrib_internal_module_paths_go_where_tf_slim_keeps_them(self):
        before = """
            from tensorflow.contrib.slim.python.slim.nets import resnet_v1
            from tensorflow.contrib.slim.python.slim.data import parallel_reader
            from tensorflow.contrib.framework.python.ops import variables as contrib_variables
            from tensorflow.contrib.layers.python.layers import utils, initializers
            from tensorflow.contrib.framework.python.ops.arg_scope import add_arg_scope
        """
        after = """
            import compat.slim
            from tf_slim.nets import resnet_v1
            from tf_slim.data import parallel_reader
            from tf_slim.ops import variables as contrib_variables
            from tf_slim.layers import utils, initializers
            from tf_slim.ops.arg_scope import add_arg_scope
        """
        self.assertCodemod(before, after)

    def test_a_chain_read_through_contribs_internal_path_is_an_error_not_half_rewritten(self):
        # `slim.python.slim.nets...` (only its head rewritten) would fail at run time with no entry
        source = """
            import tensorflow as tf
            net = tf.contrib.slim.python.slim.nets.resnet_v1.resnet_v1_50
            scope = tf.contrib.framework.python.ops.arg_scope
            fc = tf.contrib.layers.python.layers.fully_connected
        """
        self.assertCodemod(source, source)
        errors = [e for e in self.applied(source).entries if e.severity == "error"]
        assert [(e.line, e.manual.split(": ")[-1]) for e in errors] == [
            (2, "tf_slim.nets.resnet_v1.resnet_v1_50"),
            (3, "tf_slim.ops.arg_scope"),
            (4, "tf_slim.layers.fully_connected"),
        ], errors


class TestAliasBoundBelow(RuleTest):
    TRANSFORM = SlimRule

    def test_a_moved_name_above_the_alias_binding_gets_its_own_import(self):
        # `slim` is bound one line below: reading it there was a NameError in every importing module
        before = """
            import tensorflow as tf

            arg_scope = tf.contrib.framework.arg_scope
            slim = tf.contrib.slim


            def net(x):
                return tf.contrib.framework.arg_scope([slim.conv2d])  # a def runs once the module has bound slim
        """
        after = """
            import tensorflow as tf
            import compat.slim as compat_slim

            arg_scope = compat_slim.arg_scope
            import compat.slim as slim


            def net(x):
                return slim.arg_scope([slim.conv2d])  # a def runs once the module has bound slim
        """
        self.assertCodemod(before, after)

    def test_must_not_add_an_import_when_the_alias_is_bound_above(self):
        before = """
            import tensorflow as tf

            slim = tf.contrib.slim
            arg_scope = tf.contrib.framework.arg_scope
        """
        after = """
            import tensorflow as tf

            import compat.slim as slim
            arg_scope = slim.arg_scope
        """
        self.assertCodemod(before, after)


_LINES = {
    "alias": "slim = tf.contrib.slim",
    "import": "import tensorflow.contrib.slim as slim",
    "use": "arg_scope = tf.contrib.framework.arg_scope",
    "read": "layer = slim.conv2d",
    "def": "def net(x):\n    return tf.contrib.framework.arg_scope([slim.conv2d])",
}


@settings(max_examples=40, deadline=None)
@given(st.permutations(sorted(_LINES)), st.integers(1, len(_LINES)))
def test_no_rewrite_reads_a_name_above_the_line_that_binds_it(order, count):
    lines = [
        _LINES[key] for key in order[:count] if key != "read" or {"alias", "import"} & set(order[: order.index(key)])
    ]
    source = "import tensorflow as tf\n\n" + "\n".join(lines) + "\n"
    assert reads_before_bound(source) == []  # the program as written is fine
    code = apply(source, SlimRule).module.code
    assert reads_before_bound(code) == [], code
