"""A program migrated with the library it imports runs as under uai-run (TF 1's behaviour): the library's graph
code and its tf2.enabled() read, answered when a module is imported (as tensor2tensor caches its layers()),
need the program's graph-mode switches, which only the tree shows (codemods/engine/tree.py). Only the tf2
environment has libcst, which uai-migrate needs."""

import json
import sys

from tests.support import runs as _runs
from tests.support.sources import write_tree

FILES = {
    "lib/__init__.py": "",
    "lib/graph.py": (
        "import tensorflow as tf\n\n\ndef evaluate(x):\n    with tf.Session() as sess:\n"
        "        sess.run(tf.global_variables_initializer())\n        return sess.run(x)\n"
    ),
    "lib/layers.py": (
        "from tensorflow.python import tf2\n\n\ndef _layers():\n    if tf2.enabled():\n"
        '        return "keras"\n    return "tf.layers"\n\n\nLAYERS = _layers()  # on import\n'
    ),
    "train.py": (
        "import json\n\nfrom lib import graph, layers\nimport tensorflow as tf\n\n\ndef main():\n"
        "    tf.set_random_seed(1)\n    v = tf.get_variable('v', [3])\n"
        '    print(json.dumps({"layers": layers.LAYERS, "v": graph.evaluate(v).tolist()}))\n\n\n'
        'if __name__ == "__main__":\n    main()\n'
    ),
}


def test_the_port_of_a_program_and_its_graph_library_runs_as_under_uai_run(tmp_path):
    tree = write_tree(tmp_path / "src", FILES)
    migrated = _runs.migrate("--out", tmp_path / "port", tree, cwd=tmp_path)
    assert migrated.returncode in (0, 1) and ": error " not in migrated.stdout, migrated.stdout + migrated.stderr
    ways = {
        "uai-run": ([sys.executable, "-m", "uai_run", str(tree / "train.py")], tree),
        "port": ([sys.executable, str(tmp_path / "port" / "train.py")], tmp_path / "port"),
    }
    printed = {}
    for way, (command, cwd) in ways.items():
        result = _runs.run(command, cwd)
        assert result.returncode == 0, (way, result.stderr[-3000:])
        printed[way] = json.loads(result.stdout.splitlines()[-1])
    assert printed["port"] == printed["uai-run"] and printed["port"]["layers"] == "tf.layers"
