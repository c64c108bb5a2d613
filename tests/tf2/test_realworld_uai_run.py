"""bench/realworld.py's uai-run column: the unmodified modules imported, and TF references resolved, through uai-run's TF1 face.

The same counting as the other columns (one forked process per module, references walked with
getattr), with uai_run's finder installed and TF1 behaviour activated as `uai-run` does at the
user's first `import tensorflow`.
"""

import os

from tests.support.benchmarks import import_package, realworld


def test_modules_import_and_references_resolve_through_the_tf1_face(tmp_path):
    modules = {
        "tf1": "import tensorflow as tf\nSESSION = tf.Session\nCONV = tf.contrib.slim.conv2d\nDIM = tf.Dimension(3).value\n",
        "removed": "import tensorflow as tf\n\nHELPER = tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper\n",
        "needs_dependency": "import tensorflow\nimport gym_is_not_installed_here\n",
        # uai-run also serves the names other libraries removed (tflearn's data_utils stopped here)
        "pillow": "from PIL import Image\nRESAMPLE = Image.ANTIALIAS\n",
    }
    results = import_package(tmp_path, modules, face=True)
    assert {name: result["status"] for name, result in results.items()} == {
        "pkg.tf1": "ok",
        "pkg.removed": "failed",
        "pkg.needs_dependency": "missing",
        "pkg.pillow": "ok",
    }, results
    assert (results["pkg.removed"]["file"], results["pkg.removed"]["line"]) == (os.path.join("pkg", "removed.py"), 3)
    assert "tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper is not available" in results["pkg.removed"]["error"]

    paths = {
        "tensorflow.Session",
        "tensorflow.contrib.slim.conv2d",
        "tensorflow.contrib.seq2seq.BasicDecoder",  # compat.seq2seq's
        "tensorflow.contrib.seq2seq.ScheduledEmbeddingTrainingHelper",
    }
    _, resolved = realworld.resolve(paths, set(), [], realworld.REPO, face=True)
    assert resolved == {
        "tensorflow.Session": True,
        "tensorflow.contrib.slim.conv2d": True,
        "tensorflow.contrib.seq2seq.BasicDecoder": True,
        "tensorflow.contrib.seq2seq.ScheduledEmbeddingTrainingHelper": False,
    }
