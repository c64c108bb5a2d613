"""The platform's `uai_dist` -> `compat.dist` (same classes; crashes of the original fixed)."""

from codemods.rules._moves import ModuleMoveRule


class DistRule(ModuleMoveRule):
    ID = "uai-dist"
    DESCRIPTION = "uaitrain.arch.tensorflow.uai_dist -> compat.dist (the platform's TF_CONFIG parser on compat.tf_config)."
    MOVES = {"uaitrain.arch.tensorflow.uai_dist": ("compat.dist", None)}
    ALIASES = {"compat.dist": ("uai_dist", "compat_dist")}
