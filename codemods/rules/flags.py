"""tf.app.flags / tf.flags / tf.app.run -> compat.flags (absl underneath; the platform's uflag: rules/uai_sdk.py)."""

from absl import flags as absl_flags

from codemods.rules import _tf
from codemods.rules._moves import ModuleMoveRule

_FLAGS = ("compat.flags", None)
_RUN = ("compat.flags", "run")


class FlagsRule(ModuleMoveRule):
    ID = "tf-flags"
    DESCRIPTION = "TF1 flag modules and tf.app.run -> compat.flags (same registry as absl)."
    MOVES = {
        "tensorflow.app.flags": _FLAGS,
        "tensorflow.flags": _FLAGS,
        "tensorflow.compat.v1.app.flags": _FLAGS,
        "tensorflow.compat.v1.flags": _FLAGS,
        "tensorflow.python.platform.flags": _FLAGS,
        "tensorflow.app.run": _RUN,
        "tensorflow.compat.v1.app.run": _RUN,
        "tensorflow.python.platform.app.run": _RUN,
    }
    ALIASES = {"compat.flags": ("flags", "compat_flags")}

    def begin_file(self, state):
        super().begin_file(state)
        # compat.flags is absl's registry with TF1's DEFINE_* and run(); the rest of TF1's flags module
        # (FloatParser, DEFINE_multi_integer ...) was absl.flags' since TF 1.5: taken from there
        kept = set(_tf.compat_exports("compat.flags"))
        modules = [old for old, (_, attr) in self.MOVES.items() if attr is None]
        self._absl = {
            f"{old}.{name}": name
            for old in modules
            for name in dir(absl_flags)
            if not name.startswith("_") and name not in kept
        }
        self._absl_names = frozenset(self._absl)
        self._absl_alias = None

    def leave_Attribute(self, original_node, updated_node):
        old = None if self.in_import else self.match(original_node, self._absl_names)
        if old is None:
            return super().leave_Attribute(original_node, updated_node)
        if self._absl_alias is None:
            self._absl_alias = self.free_name("absl_flags", "absl_flags_")
            self.add_needed_import("absl", "flags", asname=self._absl_alias)
        self._forget_dead_import(original_node, old)
        self._note(original_node, _tf.full_name(original_node), f"{self._absl_alias}.{self._absl[old]}")
        return _tf.dotted(f"{self._absl_alias}.{self._absl[old]}")
