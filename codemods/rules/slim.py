"""tf.contrib.slim in every import form -> compat.slim (tf_slim with compat's runtime fix).

tf-slim is what became of tf.contrib.slim together with the tf.contrib.layers and
tf.contrib.framework pieces it was built on (layers, initializers, regularizers, arg_scope,
variable helpers): a `tf.contrib.layers.<name>` or `tf.contrib.framework.<name>` that tf-slim
still has moves to `compat.slim.<name>` unchanged. Which contrib modules are tf-slim's, and where
their submodules went, is compat/tf1_names.py's (the table `uai-run` resolves with), in the
`tensorflow.` and `tensorflow.compat.v1.` spellings; the names come from the installed tf-slim
(`python -m codemods.tables.gen_tf_api`); contrib names it lacks stay for `contrib-removed` to report.
"""

from codemods.rules import _tf
from codemods.rules._moves import ModuleMoveRule
from compat import tf1_names

HOME = "compat.slim"
SLIM = "tensorflow.contrib.slim"
# contrib modules whose names uai-run looks up in compat.slim first: contrib.layers, contrib.framework
PARTS_OF_SLIM = tuple(old for old, targets in tf1_names.MODULES.items() if targets[:1] == (HOME,) and old != SLIM)


class SlimRule(ModuleMoveRule):
    ID = "contrib-slim"
    DESCRIPTION = (
        "tensorflow.contrib.slim -> compat.slim; its submodules -> tf_slim, with compat.slim imported; "
        "contrib.layers / contrib.framework names tf-slim kept -> compat.slim."
    )
    MOVES = tf1_names.with_v1_twins(
        {
            SLIM: (HOME, None),
            **{f"{part}.{name}": (HOME, name) for part in PARTS_OF_SLIM for name in _tf.api()["slim"]},
        }
    )
    # `from tensorflow.contrib.slim.nets import resnet_v1` -> `from tf_slim.nets import resnet_v1`, and contrib's
    # internal layout (`contrib.slim.python.slim.nets`, `contrib.framework.python.ops`) to tf-slim's
    # (the longest prefix wins, as `_package_move` reads them); compat.slim is imported as well because
    # tf_slim's layers need its fix on current TensorFlow.
    PACKAGES = tf1_names.with_v1_twins(
        {
            old: tf1_names.PACKAGES[old]
            for old in sorted(tf1_names.PACKAGES, key=len, reverse=True)
            if old.startswith((*PARTS_OF_SLIM, SLIM))
        }
    )
    ALIASES = {HOME: ("slim", "compat_slim")}
    RUNTIME = HOME
