"""tf.app.flags / tf.flags / tf.app.run -> compat.flags (absl underneath; the platform's uflag: rules/uai_sdk.py)."""

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
