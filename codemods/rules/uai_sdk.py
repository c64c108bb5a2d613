"""The platform SDK's modules: `uflag` -> compat.flags, `uai_dist` -> compat.dist, in every import form.

One rule for both, so `from uaitrain.arch.tensorflow import uflag, uai_dist` is rewritten in one go.
"""

from codemods.rule_description import Example
from codemods.rules._moves import ModuleMoveRule

SDK = "uaitrain.arch.tensorflow"


class UaiSdkRule(ModuleMoveRule):
    ID = "uai-sdk"
    DESCRIPTION = "The platform's uflag -> compat.flags and uai_dist -> compat.dist (same APIs, crashes fixed)."
    ORDER = 50
    EXAMPLE = Example(
        why="The platform SDK's uflag and uai_dist do not import on current TensorFlow; compat has the "
        "same APIs with their crashes fixed.",
        before="from uaitrain.arch.tensorflow import uflag\nuflag.DEFINE_string('data_dir', '/data', 'input')\n",
        after="import compat.flags as uflag\nuflag.DEFINE_string('data_dir', '/data', 'input')\n",
    )
    MOVES = {f"{SDK}.uflag": ("compat.flags", None), f"{SDK}.uai_dist": ("compat.dist", None)}
    ALIASES = {"compat.flags": ("uflag", "compat_flags"), "compat.dist": ("uai_dist", "compat_dist")}
