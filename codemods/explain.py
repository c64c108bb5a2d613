"""`uai-migrate --explain RULE`: what a rule does, why, an example and its level (as ruff's `rule`).

One entry per rule id (the code rules of codemods.rules and the file rules of codemods.files);
tests/codemods/test_explain.py checks every rule has one and that each `before` migrates to its
`after` through the engine.
"""

import dataclasses
import textwrap

from codemods._described import Described


@dataclasses.dataclass(frozen=True)
class Example:
    why: str
    before: str
    after: str
    kind: str = "python"  # the file kind the example is migrated as


EXAMPLES = {
    "py2-port": Example(
        "Python 3 cannot parse a Python 2 file at all, and xrange/iteritems fail at run time.",
        "import tensorflow as tf\nfor i in xrange(3):\n    print(tf.constant(i))\n",
        "import tensorflow as tf\nfor i in range(3):\n    print(tf.constant(i))\n",
    ),
    "pillow-constants": Example(
        "TF1-era input pipelines resize with Pillow's ANTIALIAS, LINEAR and CUBIC, which Pillow 10 removed "
        "(TensorFlow 2.21 comes with a newer Pillow); each was the filter it is rewritten to.",
        "import tensorflow as tf\nfrom PIL import Image\nsmall = image.resize((64, 64), Image.ANTIALIAS)\n",
        "import tensorflow as tf\nfrom PIL import Image\nsmall = image.resize((64, 64), Image.LANCZOS)\n",
    ),
    "tf-flags": Example(
        "tf.app.flags is gone in TF2; compat.flags is the same absl registry, so flags defined "
        "elsewhere and command lines keep working.",
        "import tensorflow as tf\ntf.app.flags.DEFINE_integer('steps', 100, 'training steps')\n"
        "FLAGS = tf.app.flags.FLAGS\n",
        "import tensorflow as tf\nimport compat.flags as flags\n\n"
        "flags.DEFINE_integer('steps', 100, 'training steps')\nFLAGS = flags.FLAGS\n",
    ),
    "tf-flags-internals": Example(
        "TF <= 1.4's tf.app.flags was argparse: programs called FLAGS._parse_flags() and read FLAGS.__flags "
        "({name: value}); absl's FLAGS has neither (AttributeError at run time).",
        "import tensorflow as tf\nFLAGS = tf.flags.FLAGS\nFLAGS._parse_flags()\nprint(FLAGS.__flags)\n",
        "import tensorflow as tf\nimport sys\n\nFLAGS = tf.flags.FLAGS\n"
        "FLAGS(sys.argv, known_only=True)\nprint(FLAGS.flag_values_dict())\n",
    ),
    "uai-sdk": Example(
        "The platform SDK's uflag and uai_dist do not import on current TensorFlow; compat has the "
        "same APIs with their crashes fixed.",
        "from uaitrain.arch.tensorflow import uflag\nuflag.DEFINE_string('data_dir', '/data', 'input')\n",
        "import compat.flags as uflag\nuflag.DEFINE_string('data_dir', '/data', 'input')\n",
    ),
    "tf-config": Example(
        "A hand-written master->chief rewrite handles one dialect and breaks on the others; "
        "compat.tf_config reads and validates every dialect.",
        'import json, os\nif "TF_CONFIG" in os.environ:\n    cfg = json.loads(os.environ["TF_CONFIG"])\n'
        '    cfg["cluster"]["chief"] = cfg["cluster"].pop("master")\n'
        '    os.environ["TF_CONFIG"] = json.dumps(cfg)\nimport tensorflow as tf\n',
        "import json, os\nfrom compat import tf_config\n\n_cluster = tf_config.from_environment()\n"
        'if _cluster.is_distributed:\n    os.environ["TF_CONFIG"] = tf_config.to_json(_cluster, "chief")\n'
        "import tensorflow as tf\n",
    ),
    "contrib-slim": Example(
        "tf.contrib was removed in TF2; tf-slim is its maintained home and compat.slim fixes it for Keras 3.",
        "import tensorflow as tf\nslim = tf.contrib.slim\nnet = slim.conv2d(images, 32, [3, 3])\n",
        "import tensorflow as tf\nimport compat.slim as slim\nnet = slim.conv2d(images, 32, [3, 3])\n",
    ),
    "contrib-equivalents": Example(
        "These tf.contrib names have a drop-in replacement, so no person needs to look at them.",
        "import tensorflow as tf\nhparams = tf.contrib.training.HParams(learning_rate=0.1)\n",
        "import compat\nimport tensorflow as tf\nimport compat.hparams as compat_hparams\n\n"
        "hparams = compat_hparams.HParams(learning_rate=0.1)\n",
    ),
    "tf-upgrade": Example(
        "TensorFlow's own tf_upgrade_v2 tables, and compat's homes of tf.contrib modules, name these homes.",
        "import tensorflow as tf\ncell = tf.contrib.rnn.BasicLSTMCell(64)\n",
        "import compat\nimport tensorflow as tf\ncell = tf.compat.v1.nn.rnn_cell.BasicLSTMCell(64)\n",
    ),
    "tf1-calls": Example(
        "TF 1.4's tf.contrib.data Dataset took num_threads= and output_buffer_size= in map, and applied "
        "batch_and_drop_remainder; TF 2's Dataset refuses both with a TypeError at run time.",
        "import tensorflow as tf\nd = d.map(parse, num_threads=4, output_buffer_size=8)\n"
        "d = d.apply(tf.contrib.data.batch_and_drop_remainder(32))\n",
        "import tensorflow as tf\nd = d.map(parse, num_parallel_calls=4).prefetch(8)\nd = d.batch(32, drop_remainder=True)\n",
    ),
    "tf-dimension-value": Example(
        "Under TF2 behaviour a static shape holds ints, and TF1's Dimension.value raises there.",
        "import tensorflow as tf\nwidth = x.shape[1].value\n",
        "import tensorflow as tf\nwidth = tf.compat.dimension_value(x.shape[1])\n",
    ),
    "tf-private": Example(
        "tensorflow.python.* moves between releases; the public names stay.",
        "from tensorflow.python.ops import math_ops\ny = math_ops.add(1, 2)\n",
        "import tensorflow as tf\n\ny = tf.add(1, 2)\n",
    ),
    "tf-estimator": Example(
        "TF 2.16+ has no tf.estimator; `import compat` installs tensorflow-estimator 2.15, repaired, as tf.estimator.",
        "import tensorflow as tf\nestimator = tf.estimator.Estimator(model_fn)\n",
        "import compat\nimport tensorflow as tf\nestimator = tf.estimator.Estimator(model_fn)\n",
    ),
    "tf-device": Example(
        "TF2's tf.device takes only a device string; compat.device still places ops by a function "
        "(replica_device_setter towers).",
        "import tensorflow as tf\nwith tf.device(tf.train.replica_device_setter(ps_tasks=1)):\n"
        "    w = tf.get_variable('w', [1])\n",
        "import compat\nimport tensorflow as tf\nwith compat.device(tf.train.replica_device_setter(ps_tasks=1)):\n"
        "    w = tf.get_variable('w', [1])\n",
    ),
    "tf-layers": Example(
        "tf.layers is gone in TF2 and tf.compat.v1.layers needs legacy Keras, which compat sets up.",
        "import tensorflow as tf\ny = tf.layers.dense(x, 10)\n",
        "import compat\nimport tensorflow as tf\ny = tf.compat.v1.layers.dense(x, 10)\n",
    ),
    "tf1-api": Example(
        "TF1 symbols that TF2 moved or removed: their TF2 home, else tf.compat.v1 (the table is derived "
        "from the installed TensorFlow).",
        "import tensorflow as tf\nloss = tf.losses.softmax_cross_entropy(labels, logits)\n",
        "import tensorflow as tf\nloss = tf.compat.v1.losses.softmax_cross_entropy(labels, logits)\n",
    ),
    "graph-mode": Example(
        "Sessions, placeholders and queue runners need graph mode (TF2 starts eager); TF1 graph code expects "
        "TF1's control flow (v2's If/While ops and functions change the graph, so its graph-derived seeds).",
        "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\nwith tf.Session() as sess:\n"
        "    sess.run(x, {x: [1.0]})\n",
        "import tensorflow as tf\ntf.compat.v1.disable_eager_execution()\ntf.compat.v1.disable_control_flow_v2()\n"
        "x = tf.placeholder(tf.float32, [None])\nwith tf.Session() as sess:\n    sess.run(x, {x: [1.0]})\n",
    ),
    "contrib-removed": Example(
        "Most of tf.contrib has no automatic TF2 equivalent: each use is reported (an error, with the "
        "manual step) rather than guessed; the code is left as it is.",
        "import tensorflow as tf\ncell = tf.contrib.rnn.LSTMBlockCell(64)\n",
        "import tensorflow as tf\ncell = tf.contrib.rnn.LSTMBlockCell(64)\n",
    ),
    "docker-image": Example(
        "TF 1.x / 2.0 images cannot run current TensorFlow; the official 2.21 image can, with compat's "
        "packages added with --no-deps (reported). Other TensorFlow bases are reported, not guessed.",
        "FROM tensorflow/tensorflow:1.15.5-gpu-py3\nRUN pip install --no-cache-dir tf-slim==1.0\n",
        "FROM tensorflow/tensorflow:2.21.0-gpu\nRUN pip install --no-cache-dir tf-slim==1.1.0\n",
        kind="dockerfile",
    ),
    "requirements-pins": Example(
        "A TF1 pin installs a TensorFlow the migrated code does not run on; tensorflow-gpu is no longer "
        "published (its GPU libraries are the and-cuda extra).",
        "tensorflow-gpu==1.15.0\ntf-slim==1.0\nnumpy\n",
        "tensorflow[and-cuda]==2.21.0\ntf-slim==1.1.0\nnumpy\n",
        kind="requirements",
    ),
}


_FILES = {
    "python": "Python files and notebooks",
    "dockerfile": "Dockerfile, *.Dockerfile, Dockerfile.*, Containerfile",
    "requirements": "requirements*.txt",
}


def catalog() -> dict[str, Described]:
    """rule id -> the rule's class or module (ID, DESCRIPTION, LEVEL): code rules, then file rules."""
    from codemods import files
    from codemods.rules import RULES

    rules: tuple[Described, ...] = (*RULES, *files.KINDS.values())
    return {rule.ID: rule for rule in rules}


def explain(rule_id: str) -> str:
    """The text `uai-migrate --explain RULE_ID` prints; KeyError for an unknown id."""
    rule = catalog()[rule_id]
    example = EXAMPLES[rule_id]
    level = (
        "safe: runs on current TF through compat with the least change"
        if rule.LEVEL == "safe"
        else "native: an idiomatic TF2 rewrite that can change behaviour (only with --level native)"
    )
    before, after = (textwrap.indent(text, "    ") for text in (example.before, example.after))
    return (
        f"{rule_id}\n\nWhat it does: {rule.DESCRIPTION}\nWhy: {example.why}\nLevel: {level}\n"
        f"Files: {_FILES[example.kind]}\n\n"
        f"Before:\n{before}\nAfter:\n{after}"
    )


def rules_help() -> str:
    """One line per rule, for --help."""
    rules = catalog()
    width = max(map(len, rules))
    return "\n".join(f"  {rule_id:<{width}}  [{rule.LEVEL}] {rule.DESCRIPTION}" for rule_id, rule in rules.items())
