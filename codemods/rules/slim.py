"""tf.contrib.slim in every import form -> compat.slim (tf_slim with compat's runtime fix).

tf-slim is what became of tf.contrib.slim together with the tf.contrib.layers and
tf.contrib.framework pieces it was built on (layers, initializers, regularizers, arg_scope,
variable helpers): a `tf.contrib.layers.<name>` or `tf.contrib.framework.<name>` that tf-slim
still has moves to `compat.slim.<name>` unchanged. The names come from the installed tf-slim
(`python -m codemods.tables.gen_tf_api`); contrib names it lacks stay for `contrib-removed` to report.
"""

from codemods.rules import _tf
from codemods.rules._moves import ModuleMoveRule
from compat import tf1_names

PARTS_OF_SLIM = ("tensorflow.contrib.layers", "tensorflow.contrib.framework")


class SlimRule(ModuleMoveRule):
    ID = "contrib-slim"
    DESCRIPTION = (
        "tensorflow.contrib.slim -> compat.slim; its submodules -> tf_slim, with compat.slim imported; "
        "contrib.layers / contrib.framework names tf-slim kept -> compat.slim."
    )
    MOVES = {
        "tensorflow.contrib.slim": ("compat.slim", None),
        **{f"{part}.{name}": ("compat.slim", name) for part in PARTS_OF_SLIM for name in _tf.api()["slim"]},
    }
    # `from tensorflow.contrib.slim.nets import resnet_v1` -> `from tf_slim.nets import resnet_v1`, and contrib's
    # internal layout (`contrib.slim.python.slim.nets`, `contrib.framework.python.ops`) to tf-slim's, from the
    # table uai-run resolves with (longest prefix first, as `_package_move` reads them); compat.slim is
    # imported as well because tf_slim's layers need its fix on current TensorFlow.
    PACKAGES = {
        old: tf1_names.PACKAGES[old]
        for old in sorted(tf1_names.PACKAGES, key=len, reverse=True)
        if old.startswith((*PARTS_OF_SLIM, "tensorflow.contrib.slim"))
    }
    ALIASES = {"compat.slim": ("slim", "compat_slim")}
    RUNTIME = "compat.slim"
