"""tf-private: tensorflow.python.* -> public tf / tf.compat.v1 / compat names, else an error entry."""

from codemods.rules.private import PrivateRule
from tests.support.rule_test import RuleTest, apply


class TestPrivateRule(RuleTest):
    TRANSFORM = PrivateRule

    def test_module_uses_become_public_names_and_the_import_goes(self):
        before = """
            import tensorflow as tf
            from tensorflow.python.training import device_setter, training_util
            fn = device_setter.replica_device_setter(cluster=c)
            step = training_util.get_or_create_global_step()
            strategy = device_setter._RoundRobinStrategy(2)
        """
        after = """
            import compat.devices
            import tensorflow as tf
            fn = tf.compat.v1.train.replica_device_setter(cluster=c)
            step = tf.compat.v1.train.get_or_create_global_step()
            strategy = compat.devices.RoundRobin(range(2))
        """
        self.assertCodemod(before, after)

    def test_with_dependencies_becomes_compat_graph_ops(self):
        # research/slim's train_image_classifier (TF 1.4): its train op is the loss after the updates
        before = """
            from tensorflow.python.ops import control_flow_ops
            train_tensor = control_flow_ops.with_dependencies([update_op], total_loss, name="train_op")
        """
        after = """
            import compat.graph_ops
            train_tensor = compat.graph_ops.with_dependencies([update_op], total_loss, name="train_op")
        """
        self.assertCodemod(before, after)
        before = """
            from tensorflow.python.ops.control_flow_ops import with_dependencies
            loss = with_dependencies(updates, loss)
        """
        after = """
            import compat.graph_ops
            loss = compat.graph_ops.with_dependencies(updates, loss)
        """
        self.assertCodemod(before, after)
        assert not [e.message for e in self.applied(before).entries if e.severity == "error"]

    def test_the_import_goes_when_a_def_binds_a_local_of_the_same_name(self):
        # a local `device_setter` in another def makes the name bound twice in the module: the import
        # (which every use no longer needs) goes all the same, the local stays
        before = """
            from tensorflow.python.training import device_setter

            def g():
                device_setter = 2
                return device_setter

            x = device_setter._RoundRobinStrategy(2)
            fn = device_setter.replica_device_setter(cluster=c)
        """
        after = """
            import compat.devices
            import tensorflow as tf

            def g():
                device_setter = 2
                return device_setter

            x = compat.devices.RoundRobin(range(2))
            fn = tf.compat.v1.train.replica_device_setter(cluster=c)
        """
        self.assertCodemod(before, after)

    def test_an_import_still_used_beside_a_local_of_the_same_name_stays(self):
        source = """
            from tensorflow.python.training import device_setter

            def g():
                device_setter = 2
                return device_setter

            x = device_setter._RoundRobinStrategy(2)
            module = device_setter  # a use no rule rewrites
        """
        code = self.applied(source).module.code
        assert "from tensorflow.python.training import device_setter" in code
        assert "compat.devices.RoundRobin(range(2))" in code

    def test_from_private_module_import_names(self):
        before = """
            from tensorflow.python.training.session_run_hook import SessionRunHook, SessionRunArgs
        """
        after = """
            from tensorflow.compat.v1.train import SessionRunHook, SessionRunArgs
        """
        self.assertCodemod(before, after)

    def test_every_private_module_with_a_public_twin_gets_the_public_spelling(self):
        before = """
            from tensorflow.python.framework import device, dtypes
            from tensorflow.python.ops import data_flow_ops, math_ops, array_ops
            spec = device.DeviceSpec(job="ps")
            queue = data_flow_ops.FIFOQueue(4, [dtypes.float32])
            m = math_ops.maximum(a, b)
            parts = array_ops.unstack(x)
        """
        after = """
            import tensorflow as tf

            spec = tf.compat.v1.DeviceSpec(job="ps")
            queue = tf.queue.FIFOQueue(4, [tf.float32])
            m = tf.maximum(a, b)
            parts = tf.unstack(x)
        """
        self.assertCodemod(before, after)

    def test_names_tf_2_21_moved_out_of_their_tf1_module_are_found_by_their_public_twin(self):
        before = """
            from tensorflow.python.ops import control_flow_ops
            from tensorflow.python.framework import graph_util
            from tensorflow.python import pywrap_tensorflow
            out = control_flow_ops.cond(p, f, g)
            frozen = graph_util.convert_variables_to_constants(sess, graph_def, names)
            reader = pywrap_tensorflow.NewCheckpointReader(path)
        """
        after = """
            import tensorflow as tf

            out = tf.compat.v1.cond(p, f, g)
            frozen = tf.compat.v1.graph_util.convert_variables_to_constants(sess, graph_def, names)
            reader = tf.compat.v1.train.NewCheckpointReader(path)
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_shadowed_names_strings_comments(self):
        source = """
            import tensorflow as tf

            def f(device_setter):
                return device_setter.replica_device_setter()  # tensorflow.python.training.device_setter
            text = "from tensorflow.python.training import device_setter"
        """
        self.assertCodemod(source, source)


def test_private_names_without_a_public_equivalent_are_errors_with_a_manual_step():
    source = "from tensorflow.python.client import device_lib\ndevs = device_lib.list_local_devices()\n"
    applied = apply(source, PrivateRule)
    assert applied.module.code == source
    [entry] = applied.entries
    assert (entry.line, entry.severity) == (2, "error")
    assert "tensorflow.python.client.device_lib.list_local_devices" in entry.message and "public" in entry.manual


def test_a_tf2_behaviour_probe_is_an_error_naming_the_branch_and_the_call_that_keeps_tf1s():
    # tensor2tensor 1.15.7's common_layers.layers(): Keras layers when TF 2 behaviour is on, tf.layers
    # otherwise. TF 1.x answered False; the port, on TF 2, answers True unless the program turns v2 off
    source = "from tensorflow.python import tf2\nif tf2.enabled():\n    layers = keras_layers\n"
    applied = apply(source, PrivateRule)
    assert applied.module.code == source
    [entry] = applied.entries
    assert (entry.line, entry.severity) == (2, "error")
    assert "TF 1.x answered False" in entry.message and "TF 2 branch" in entry.message
    assert "tf.compat.v1.disable_v2_behavior()" in entry.manual


def test_public_names_are_written_as_a_second_run_would_leave_them():
    # variables.Variable is TF2's tf.Variable, which TF1 code (and so a second run) reads as tf.compat.v1.Variable
    source = "from tensorflow.python.ops import variables, math_ops\nv = variables.Variable(0)\ns = math_ops.reduce_sum(v, keep_dims=True)\n"
    code = apply(source, PrivateRule).module.code
    assert "v = tf.compat.v1.Variable(0)" in code and "s = tf.reduce_sum(v, keepdims=True)" in code


def test_a_name_another_rule_moves_is_left_to_it_and_not_reported():
    from codemods.rules.flags import FlagsRule

    source = "from tensorflow.python.platform import flags\nFLAGS = flags.FLAGS\n"
    applied = apply(source, PrivateRule, claims_of=[FlagsRule])
    assert applied.module.code == source and applied.entries == []


def test_a_public_name_another_rule_ports_is_an_error_entry_not_half_a_port():
    # combinations.flags is absl's flags, public as tf.compat.v1.flags, which tf-flags ports to compat.flags:
    # writing tf.compat.v1.flags left tf-flags' rewrite to a second run (hypothesis found it)
    from codemods.rules.flags import FlagsRule

    source = "from tensorflow.python.distribute import combinations\n\ny = combinations.flags\n"
    applied = apply(source, PrivateRule, FlagsRule)
    assert applied.module.code == source
    [entry] = applied.entries
    assert (entry.line, entry.severity) == (3, "error") and "tf.compat.v1.flags" in entry.manual


class TestRenamedPrivateNames(RuleTest):
    TRANSFORM = PrivateRule

    def test_a_private_name_tf_2_21_renamed_gets_its_public_twin_under_the_new_name(self):
        # nest.is_sequence is nest.is_nested (tf.nest.is_nested) on TF 2.21: the bound name stays
        before = """
            from tensorflow.python.util.nest import is_sequence
            from tensorflow.python.util import nest
            a = is_sequence(x)
            b = nest.is_sequence(y)
        """
        after = """
            from tensorflow.compat.v1.nest import is_nested as is_sequence
            import tensorflow as tf

            a = is_sequence(x)
            b = tf.nest.is_nested(y)
        """
        self.assertCodemod(before, after)


def _errors(source):
    applied = apply(source, PrivateRule)
    assert applied.module.code == source
    return [(entry.line, entry.message, entry.manual) for entry in applied.entries if entry.severity == "error"]


def test_a_private_module_tf_2_21_no_longer_has_is_an_error_at_its_import():
    # tensor2tensor's Adam imports training_ops, which TF 2.21 no longer has (the import fails there)
    source = "from tensorflow.python.training import training_ops\nout = training_ops.apply_adam(var, m, v)\n"
    [(line, message, manual), *uses] = _errors(source)
    assert line == 1 and "tensorflow.python.training.training_ops" in message and "TensorFlow 2.21" in message
    assert "tf.raw_ops" in manual
    assert [line for line, _, _ in uses] == [2]


def test_a_vanished_module_imported_by_its_dotted_path_or_as_the_module_of_a_from_import_is_an_error():
    for source in (
        "import tensorflow.python.training.training_ops as ops\n",
        "from tensorflow.python.training.training_ops import apply_adam\n",
    ):
        [(line, message, _)] = _errors(source)
        assert line == 1 and "tensorflow.python.training.training_ops" in message


def test_private_modules_tf_2_21_has_are_not_reported_as_missing():
    # gen_training_ops holds the same raw ops on TF 2.21; rnn re-exports the module rnn_cell_impl
    for source in (
        "from tensorflow.python.ops import gen_training_ops\n",
        "from tensorflow.python.ops.rnn import rnn_cell_impl\n",
        "import tensorflow.python.util.nest\n",
        "from tensorflow.python.data import Dataset\n",
    ):
        assert not [m for _, m, _ in _errors(source) if "TensorFlow 2.21" in m], source


def test_a_private_subclass_is_not_rewritten_to_its_public_base_class():
    # a class inherits its base's export names: Keras' Dense is no tf.Module, BatchDataset no tf.data.Dataset
    source = (
        "from tensorflow.python.keras import layers\n"
        "from tensorflow.python.data.ops import dataset_ops\n"
        "dense = layers.Dense(3)\n"
        "batched = dataset_ops.BatchDataset(dataset, 2, False)\n"
    )
    assert [line for line, _, _ in _errors(source)] == [3, 4]


class TestPrivateModulesAndClassMethods(RuleTest):
    TRANSFORM = PrivateRule

    def test_a_class_method_is_written_as_tf1_api_writes_the_class(self):
        # TF1's device.DeviceSpec is tf.compat.v1.DeviceSpec (merge_from); tf.DeviceSpec is the V2 class
        before = """
            from tensorflow.python.framework import device as pydev
            spec = pydev.DeviceSpec.from_string("/job:ps")
        """
        after = """
            import tensorflow as tf

            spec = tf.compat.v1.DeviceSpec.from_string("/job:ps")
        """
        self.assertCodemod(before, after)

    def test_an_imported_private_module_is_left_to_its_uses(self):
        before = """
            from tensorflow.python.platform import tf_logging as logging
            logging.info("step %d", step)
        """
        after = """
            import tensorflow as tf

            tf.compat.v1.logging.info("step %d", step)
        """
        self.assertCodemod(before, after)
        assert [e for e in self.applied(before).entries if e.severity != "info"] == []


def test_a_private_module_is_not_the_public_object_of_its_name():
    """`tensorflow.python.framework.function` is the module holding Defun, not `tf.function`, the
    decorator: the by-name lookup of a private object must not take a module for it (tensor2tensor's
    `@function.Defun(...)` became `@tensorflow.function.Defun(...)`, an AttributeError at import)."""
    source = (
        "import tensorflow as tf\n"
        "from tensorflow.python.framework import function\n\n"
        "@function.Defun(tf.float32)\n"
        "def double(x):\n"
        "    return 2 * x\n"
    )
    applied = apply(source, PrivateRule)
    assert applied.module.code == source
    (entry,) = applied.entries
    assert entry.severity == "error" and "tensorflow.python.framework.function.Defun" in entry.message


def test_a_name_tf_2_16_made_public_is_written_with_import_compat_which_binds_it_on_tf_2_15():
    # the tables are TF 2.21's: the public name is written, and compat binds it on 2.15 (tf1_names.PUBLISHED)
    for source, written in [
        ("from tensorflow.python.data.util.structure import NoneTensorSpec\n", "from tensorflow.compat.v1 import"),
        ("import tensorflow as tf\nspec = tf.python.framework.none_tensor.NoneTensorSpec()\n", "tf.NoneTensorSpec()"),
        (
            "from tensorflow.python.data.experimental.ops.distributed_save_op import distributed_save\n",
            "from tensorflow.compat.v1.data.experimental import distributed_save",
        ),
    ]:
        code = apply(source, PrivateRule).module.code
        assert written in code and code.startswith("import compat\n"), code


def test_the_tf2_probe_imported_by_name_too():
    import libcst as cst

    from codemods.engine.apply import apply_rules, claims_of
    from codemods.engine.tree import Context

    source = "from tensorflow.python.tf2 import enabled\nif enabled():\n    layers = keras_layers\n"
    [entry] = apply(source, PrivateRule).entries
    assert (entry.line, entry.severity) == (1, "error") and "TF 1.x answered False" in entry.message
    told = Context(tf1_program="train.py")
    applied = apply_rules(cst.parse_module(source), [PrivateRule()], claims_of((PrivateRule,)), tree_context=told)
    assert applied.module.code.startswith("import compat\nfrom compat.graph_mode import tf2_enabled as enabled\n")
    assert [e.severity for e in applied.entries] == ["info"]


def test_tf1s_private_keras_is_not_read_by_a_names_other_public_twins():
    # TF 1.x's private Keras (tensorflow.python.keras) is not the TF core split TF 2.21 made: its optimizers.SGD is
    # Keras', not the one public SGD of that name (tf.tpu.experimental.embedding.SGD, which the port crashed on)
    source = "from tensorflow.python.keras import optimizers as po\nopt = po.SGD(lr=0.1)\n"
    applied = apply(source, PrivateRule)
    assert applied.module.code == source
    [entry] = applied.entries
    assert entry.severity == "error" and "tensorflow.python.keras.optimizers.SGD" in entry.message, entry
