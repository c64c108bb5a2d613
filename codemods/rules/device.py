"""`tf.device(<device function>)` -> `compat.device(...)`: TF2's `tf.device` raises "does not support functions"."""

import libcst as cst

from codemods.engine.rule import Rule
from codemods.rule_description import Example
from codemods.rules import _tf

DEVICE = "tensorflow.device"


def _is_device_string(node: cst.BaseExpression) -> bool:
    """A literal, formatted or `%`/`.format` built string, or None: TF2's tf.device takes these."""
    if isinstance(node, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
        return True
    if isinstance(node, cst.Name) and node.value == "None":
        return True
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
        return _is_device_string(node.left)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "format":
        return _is_device_string(node.func.value)
    return False


class DeviceRule(Rule):
    ID = "tf-device"
    DESCRIPTION = "tf.device(<device function or setter>) -> compat.device(...), which places ops by a function."
    ORDER = 130
    EXAMPLE = Example(
        why="TF2's tf.device takes only a device string; compat.device still places ops by a function "
        "(replica_device_setter towers).",
        before="import tensorflow as tf\nwith tf.device(tf.train.replica_device_setter(ps_tasks=1)):\n"
        "    w = tf.get_variable('w', [1])\n",
        after="import compat\nimport tensorflow as tf\nwith compat.device(tf.train.replica_device_setter(ps_tasks=1)):\n"
        "    w = tf.get_variable('w', [1])\n",
    )
    CLAIMS = (DEVICE,)
    WORDS = frozenset()

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self.match(original_node.func, {DEVICE}) or not original_node.args:
            return updated_node
        if _is_device_string(original_node.args[0].value):
            return updated_node
        _tf.ensure_compat(self)
        self.report(original_node, "tf.device(<device function>) -> compat.device(...)")
        return updated_node.with_changes(func=_tf.dotted("compat.device"))
