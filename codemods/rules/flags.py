"""tf.app.flags / tf.flags / tf.app.run -> compat.flags (absl underneath; the platform's uflag: rules/uai_sdk.py).

The names and their homes are compat/tf1_names.py's, the table `uai-run` resolves with: every TF1
name whose home is compat.flags, in its `tensorflow.` and `tensorflow.compat.v1.` spellings, and the
library compat.flags extends (absl.flags) for the names it does not define itself.
"""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING

from codemods.rule_description import Example
from codemods.rules import _shared, _tf
from codemods.rules._moves import ModuleMoveRule
from compat import tf1_names

if TYPE_CHECKING:
    import libcst as cst

    from codemods.engine.rule import FileState

HOME = _shared.FLAGS_HOME
LIBRARY = tf1_names.LIBRARIES[HOME]


@functools.cache
def _library_names() -> tuple[str, ...]:
    """The library's public names (absl.flags: importing it is cheap and imports no TensorFlow)."""
    return tuple(name for name in dir(importlib.import_module(LIBRARY)) if not name.startswith("_"))


class FlagsRule(ModuleMoveRule):
    ID = "tf-flags"
    DESCRIPTION = "TF1 flag modules and tf.app.run -> compat.flags (same registry as absl)."
    ORDER = 30
    EXAMPLE = Example(
        why="tf.app.flags is gone in TF2; compat.flags is the same absl registry, so flags defined "
        "elsewhere and command lines keep working.",
        before="import tensorflow as tf\ntf.app.flags.DEFINE_integer('steps', 100, 'training steps')\n"
        "FLAGS = tf.app.flags.FLAGS\n",
        after="import tensorflow as tf\nimport compat.flags as flags\n\n"
        "flags.DEFINE_integer('steps', 100, 'training steps')\nFLAGS = flags.FLAGS\n",
    )
    MOVES = _shared.flags_moves()
    ALIASES = {HOME: ("flags", "compat_flags")}

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        # the rest of TF1's flags module (FloatParser, DEFINE_multi_integer ...) is the library's
        kept = set(_tf.compat_exports(HOME))
        self._library = {
            f"{old}.{name}": name for old in self._MODULE_MOVES for name in _library_names() if name not in kept
        }
        self._library_names = frozenset(self._library)
        self._library_alias: str | None = None
        self._inside_library_name: set[int] = set()  # `tf.app.flags` in `tf.app.flags.FloatParser`: rewritten whole

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if not self.in_import and self.match(node, self._library_names):
            self._inside_library_name.add(id(node.value))

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if id(original_node) in self._inside_library_name:
            return updated_node
        old = None if self.in_import else self.match(original_node, self._library_names)
        if old is None:
            return super().leave_Attribute(original_node, updated_node)
        if self._library_alias is None:
            package, _, module = LIBRARY.rpartition(".")
            self._library_alias = self.free_name(f"{package}_{module}", f"{package}_{module}_")
            self.add_needed_import(package, module, asname=self._library_alias)
        self._forget_dead_import(original_node, old)
        new = f"{self._library_alias}.{self._library[old]}"
        self._note(original_node, _tf.full_name(original_node), new)
        return _tf.dotted(new)
