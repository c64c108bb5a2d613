"""tf.contrib.slim in every import form -> compat.slim (tf_slim with compat's runtime fix)."""

from codemods.rules._moves import ModuleMoveRule


class SlimRule(ModuleMoveRule):
    ID = "contrib-slim"
    DESCRIPTION = "tensorflow.contrib.slim -> compat.slim; its submodules -> tf_slim, with compat.slim imported."
    MOVES = {"tensorflow.contrib.slim": ("compat.slim", None)}
    # `from tensorflow.contrib.slim.nets import resnet_v1` -> `from tf_slim.nets import resnet_v1`; compat.slim
    # is imported as well because tf_slim's layers need its fix on current TensorFlow.
    PACKAGES = {"tensorflow.contrib.slim": "tf_slim"}
    ALIASES = {"compat.slim": ("slim", "compat_slim")}
    RUNTIME = "compat.slim"
