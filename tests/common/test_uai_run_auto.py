"""`uai-run --auto`: TF1 programs get the TF1 face, TF 2 programs are run by python as they are.

The decision reads the program's files against the installed TensorFlow (in-process tests below);
two real processes check what a user sees.
"""

import ast
import glob
import json
import os
import sys
import textwrap

import pytest
import tensorflow as tf

from compat import tf1_names
from compat.tf1_names import rule_for
from tests.support import runs as _runs
from tests.support.processes import REPO, program_lines
from uai_run import _api_files, _auto

TF2 = {
    "keras and tf.function": """
        import tensorflow as tf
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        double = tf.function(lambda x: x * 2)
        total = tf.reduce_sum(tf.ones([2]))
    """,
    "tf.compat.v1 as tf": """
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
        x = tf.placeholder(tf.float32, [None])
        sess = tf.Session()
    """,
    "tf.compat.v1 spelled out": """
        import tensorflow as tf
        x = tf.compat.v1.placeholder(tf.float32)
        flags = tf.compat.v1.flags
    """,
    "no tensorflow": "import numpy as np\nSession = np.ones\n",
}
TF1 = {
    "tf.Session": ("import tensorflow as tf\n\n\nsess = tf.Session()\n", "tensorflow.Session", 4),
    "TF1 optimizer": (
        "import tensorflow as tf\nopt = tf.train.AdamOptimizer(0.1)\n",
        "tensorflow.train.AdamOptimizer",
        2,
    ),
    "tf.app.run": ("import tensorflow as tf\ntf.app.run()\n", "tensorflow.app.run", 2),
    "contrib import": ("import os\nfrom tensorflow.contrib import slim\n", "tensorflow.contrib.slim", 2),
    "contrib as tf.compat.v1": (
        "import tensorflow as tf\nx = tf.compat.v1.contrib.layers\n",
        "tensorflow.compat.v1.contrib.layers",
        2,
    ),
    "TF 0.x name": ("import tensorflow as tf\nx = tf.unpack\n", "tensorflow.unpack", 2),
    "private name TF 2 changed": (
        "from tensorflow.python.util.nest import is_sequence\n",
        "tensorflow.python.util.nest.is_sequence",
        1,
    ),
}


def _evidence(tmp_path, source, read_files=True):
    path = tmp_path / "program.py"
    path.write_text(textwrap.dedent(source))
    return _auto.tf1_evidence(_auto.program_files(str(path)), lambda: (tf, tf.compat.v1), read_files)


def _not_imported():
    raise AssertionError("TensorFlow imported")


@pytest.mark.parametrize("source", ["import json\nprint(json.dumps({}))\n", "import tensorflow as tf\nprint 'hi'\n"])
def test_tensorflow_is_imported_only_to_judge_names_of_tensorflow(tmp_path, source):
    # a program naming no TensorFlow, or one Python 3 cannot parse, is decided from its files alone
    path = tmp_path / "program.py"
    path.write_text(source)
    _auto.tf1_evidence(_auto.program_files(str(path)), _not_imported, read_files=False)


@pytest.mark.parametrize("read_files", [True, False])
@pytest.mark.parametrize("case", sorted(TF2))
def test_a_program_naming_only_what_tf_2_has_is_tf_2_code(tmp_path, case, read_files):
    assert _evidence(tmp_path, TF2[case], read_files) is None


@pytest.mark.parametrize("case", sorted(TF2))
def test_a_tf_2_program_is_judged_from_tensorflows_files_without_importing_it(tmp_path, case):
    path = tmp_path / "program.py"
    path.write_text(textwrap.dedent(TF2[case]))
    assert _auto.tf1_evidence(_auto.program_files(str(path)), _not_imported) is None


def _fixture_and_table_names() -> list[str]:
    """Every TensorFlow name of this module's programs, of samples/tf1, of the TF1 fixture programs and of
    compat.tf1_names' tables (and their tf.compat.v1 spellings)."""
    programs = [textwrap.dedent(text) for text in TF2.values()] + [source for source, _, _ in TF1.values()]
    programs += [MAIN_TF1, MODEL_TF1, MAIN_TF2, ESTIMATOR_TF2, SPAWNED_ESTIMATOR, ESTIMATOR_MULTI_WORKER]
    fixtures = os.path.join(REPO, "tests", "common", "tf1_programs", "**", "*.py")
    for path in sorted(glob.glob(os.path.join(REPO, "samples", "tf1", "*.py")) + glob.glob(fixtures, recursive=True)):
        with open(path) as handle:
            programs.append(handle.read())
    found = {name for text in programs for _, name in _auto._tensorflow_names(ast.parse(text))}
    tables = (tf1_names.SYMBOLS, tf1_names.MODULES, tf1_names.CALL_KEYWORDS, tf1_names.PACKAGES)
    for key in (key for table in (*tables, tf1_names.PUBLISHED, tf1_names.CLOSEST) for key in table):
        name = key if key.startswith(tf1_names.TF) else f"{tf1_names.TF}.{key}"
        found.update(filter(None, (name, tf1_names.v1_twin(name))))
    return sorted(found)


def test_tensorflows_files_answer_as_the_imported_tensorflow_for_every_fixture_and_table_name():
    # the files' answer is the imported TensorFlow's (under compat, as uai-run imports it), or None: ask it
    names = _fixture_and_table_names()
    differ, judged = [], 0
    for name in names:
        parts = name.split(".")[1:]
        for chain, live in ((parts, tf), (["compat", "v1", *parts], tf.compat.v1)):
            read = _api_files.resolves(chain)
            if read is not None and read != _auto._resolves(live, chain[len(chain) - len(parts) :]):
                differ.append(("resolves", ".".join(chain), read))
        read = _auto._tf1_only_by_files(name)
        judged += read is not None
        if read is not None and read != _auto._tf1_only_imported(name, tf, tf.compat.v1):
            differ.append(("TF1's", name, read))
    assert differ == []
    assert judged > 0.95 * len(names), (judged, len(names))  # the files answer for almost every name


def test_a_name_an_api_file_does_not_bind_is_missing_unless_the_module_makes_names_when_read():
    module = "tensorflow._api.v2.made_up"  # no such file: the name is judged from the source alone
    plain = _api_files._read(module, ast.parse("from tensorflow.python.ops.array_ops import stack\n"), True)
    lazy = _api_files._read(module, ast.parse("def __getattr__(name):\n    return name\n"), True)
    assert _api_files._unbound(module, plain, "unstack") == _api_files._MISSING
    assert _api_files._unbound(module, lazy, "unstack") == _api_files._UNKNOWN


@pytest.mark.parametrize("read_files", [True, False])
@pytest.mark.parametrize("case", sorted(TF1))
def test_the_first_name_only_tf1_had_is_the_evidence_with_its_line(tmp_path, case, read_files):
    source, name, line = TF1[case]
    found = _evidence(tmp_path, source, read_files)
    why = f"tf{name[len('tensorflow') :]} is TF1's"
    assert (found.why, found.line, found.path, found.rule) == (why, line, str(tmp_path / "program.py"), rule_for(name))


def test_a_file_python_3_cannot_parse_is_evidence_so_the_run_says_so_in_one_line(tmp_path):
    found = _evidence(tmp_path, "import tensorflow as tf\n\nprint 'hello'\n")
    assert (found.why, found.line, found.rule) == ("Python 3 cannot parse it", 3, "py2-port")


def test_the_programs_files_are_the_script_and_the_modules_of_its_folder_it_imports(tmp_path):
    files = {
        "main.py": "import os, numpy\nimport model\nfrom pkg import net\n",
        "model.py": "import json\n",
        "pkg/__init__.py": "",
        "pkg/net.py": "from . import layers_util\nfrom .layers_util import dense\n",
        "pkg/layers_util.py": "import main\n",  # a cycle: each file once
        "unused.py": "import tensorflow as tf\ntf.Session()\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = [path for path, _ in _auto.program_files(str(tmp_path / "main.py"))]
    assert found == [
        str(tmp_path / n) for n in ("main.py", "model.py", "pkg/__init__.py", "pkg/net.py", "pkg/layers_util.py")
    ]


MAIN_TF1 = """
import json
import tensorflow as tf
import model

print(json.dumps({"graph_mode": not tf.executing_eagerly(), "value": model.run()}))
"""
MODEL_TF1 = """
import tensorflow as tf


def run():
    with tf.Session() as sess:
        return float(sess.run(tf.constant(2.0) * 3))
"""
MAIN_TF2 = """
import json, sys
import tensorflow as tf

print(json.dumps({"eager": tf.executing_eagerly(), "keras": tf.keras.layers.Dense.__module__.split(".")[0],
                  "argv": sys.argv[1:], "value": float(tf.function(lambda x: x * 3)(tf.constant(2.0)))}))
sys.exit(4)
"""


def test_auto_gives_a_tf1_program_the_face_and_runs_a_tf_2_program_as_python_does(tmp_path):
    for folder, files in {"tf1": {"main.py": MAIN_TF1, "model.py": MODEL_TF1}, "tf2": {"main.py": MAIN_TF2}}.items():
        for name, text in files.items():
            (tmp_path / folder).mkdir(exist_ok=True)
            (tmp_path / folder / name).write_text(text)
    uai_run = [sys.executable, "-m", "uai_run", "--auto", "--explain"]
    tf2_main = str(tmp_path / "tf2" / "main.py")
    results = _runs.run_all(
        {
            "tf1": [*uai_run, str(tmp_path / "tf1" / "main.py")],
            # -X importtime: uai-run's own imports (not python's, which runs the program): TensorFlow's not among them
            "tf2": [sys.executable, "-X", "importtime", *uai_run[1:], tf2_main, "x", "--flag"],
            "python": [sys.executable, tf2_main, "x", "--flag"],
            "both": [sys.executable, "-m", "uai_run", "--auto", "--tf1", tf2_main],
        },
        tmp_path,
    )
    tf1 = results["tf1"]
    assert tf1.returncode == 0, tf1.stderr[-3000:]
    assert json.loads(tf1.stdout.splitlines()[-1]) == {"graph_mode": True, "value": 6.0}
    report = json.loads("\n".join(program_lines(tf1.stderr)))
    decision = [e for f in report["files"] for e in f["entries"] if e["message"].startswith("--auto")]
    assert [(e["message"], e["path"], e["line"]) for e in decision] == [
        ("--auto: tf.Session is TF1's: the TF1 face", str(tmp_path / "tf1" / "model.py"), 6)
    ]

    tf2, python = results["tf2"], results["python"]
    assert (tf2.returncode, python.returncode) == (4, 4), tf2.stderr[-3000:]
    imported = [line.rpartition("|")[2].strip() for line in tf2.stderr.splitlines() if line.startswith("import time:")]
    assert "uai_run._auto" in imported and "tensorflow" not in imported
    assert json.loads(tf2.stdout.splitlines()[-1]) == json.loads(python.stdout.splitlines()[-1])
    assert json.loads(python.stdout.splitlines()[-1])["eager"] is True
    report = json.loads(tf2.stderr[tf2.stderr.index("{") : tf2.stderr.rindex("}") + 1])
    assert [e["message"] for f in report["files"] for e in f["entries"]] == [
        "--auto: nothing only TF1 had: run by python as TF 2 code"
    ]
    assert results["both"].returncode == 2 and "not allowed with argument" in results["both"].stderr


def _used(tmp_path, source):
    path = tmp_path / "program.py"
    path.write_text(textwrap.dedent(source))
    return list(_auto.program_files(str(path)))


def test_a_tf_2_program_naming_what_compat_provides_here_is_run_with_compat(tmp_path):
    source = """
        import tensorflow as tf
        model = tf.keras.Sequential()

        config = tf.estimator.RunConfig()
    """
    found = _auto.compat_evidence(_used(tmp_path, source), lambda: ("tensorflow.estimator",))
    assert (found.why, found.line, found.path) == (
        "tf.estimator is not in this TensorFlow, compat provides it",
        5,
        str(tmp_path / "program.py"),
    )
    assert _auto.compat_evidence(_used(tmp_path, source), lambda: ()) is None


def test_compat_is_asked_only_about_a_program_naming_tensorflow(tmp_path):
    def provided():
        raise AssertionError("asked")

    assert _auto.compat_evidence(_used(tmp_path, "import json\njson.estimator = 1\n"), provided) is None


ESTIMATOR_TF2 = """
import json, sys
import numpy as np
import tensorflow as tf

eager = tf.executing_eagerly()  # TF 2 code: no TF1 face, which would turn eager execution off


def input_fn():
    x = np.arange(8, dtype=np.float32).reshape(8, 1)
    return tf.data.Dataset.from_tensor_slices((x, 2 * x + 1)).repeat().batch(4)


def model_fn(features, labels, mode):
    w = tf.compat.v1.get_variable("w", [1, 1], initializer=tf.compat.v1.zeros_initializer())
    loss = tf.reduce_mean(tf.square(tf.matmul(features, w) - labels))
    step = tf.compat.v1.train.get_or_create_global_step()
    train_op = tf.compat.v1.train.GradientDescentOptimizer(0.01).minimize(loss, step)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


estimator = tf.estimator.Estimator(model_fn, model_dir=sys.argv[1])
estimator.train(input_fn, steps=3)
step = int(estimator.get_variable_value("global_step"))
print(json.dumps({"eager": eager, "step": step, "argv": sys.argv[2:], "name": __name__}))
sys.exit(3)
"""


def test_auto_trains_a_tf_2_estimator_program_with_compat_where_this_tensorflow_lacks_tf_estimator(tmp_path):
    from compat import _estimator_support

    (tmp_path / "main.py").write_text(ESTIMATOR_TF2)
    result = _runs.run(
        [sys.executable, "-m", "uai_run", "--auto", "--explain", str(tmp_path / "main.py"), str(tmp_path / "m"), "x"],
        tmp_path,
    )
    assert result.returncode == 3, result.stderr[-3000:]
    assert json.loads(result.stdout.splitlines()[-1]) == {"eager": True, "step": 3, "argv": ["x"], "name": "__main__"}
    report = json.loads(result.stderr[result.stderr.rindex("\n{") : result.stderr.rindex("}") + 1])
    expected = (
        "--auto: tf.estimator is not in this TensorFlow, compat provides it: run as TF 2 code with compat's runtime"
        if _estimator_support.needed()
        else "--auto: nothing only TF1 had: run by python as TF 2 code"
    )
    assert [e["message"] for f in report["files"] for e in f["entries"]] == [expected]


SPAWNED_ESTIMATOR = """
import multiprocessing
import tensorflow as tf


def has_estimator(_):
    return hasattr(tf, "estimator") and hasattr(tf.estimator, "Estimator")


if __name__ == "__main__":
    print("main", has_estimator(0), "workers", multiprocessing.get_context("spawn").Pool(1).map(has_estimator, [0]))
"""


def test_a_spawned_worker_of_a_tf_2_program_run_with_compat_gets_compat_too(tmp_path):
    # a spawned worker starts a fresh interpreter: what compat provides the program must be in it too
    (tmp_path / "main.py").write_text(SPAWNED_ESTIMATOR)
    result = _runs.run([sys.executable, "-m", "uai_run", "--auto", str(tmp_path / "main.py")], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines()[-1] == "main True workers [True]"


ESTIMATOR_MULTI_WORKER = """
import json
import tensorflow as tf


def config():  # the Estimator deep-copies it: TF 2 refuses that for this strategy once made in eager mode
    strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
    return tf.estimator.RunConfig(train_distribute=strategy)


v1 = tf.compat.v1
print(json.dumps([tf.executing_eagerly(), v1.resource_variables_enabled(), v1.control_flow_v2_enabled()]))
"""


def test_a_tf_2_estimator_program_with_multi_worker_mirrored_strategy_runs_in_tf1s_graph_mode(tmp_path):
    # as uai-migrate's graph-mode rule ports it: in a cluster, its evaluator stopped with "MultiWorkerMirroredStrategy
    # cannot be deep copied in eager mode" (bench/fixtures.py, the TF 2.0-era Estimator program under --auto)
    found = _auto.graph_evidence(_used(tmp_path, ESTIMATOR_MULTI_WORKER))
    assert (found.path, found.line, found.rule) == (str(tmp_path / "program.py"), 7, "graph-mode"), found
    assert (
        found.why
        == "tf.distribute.experimental.MultiWorkerMirroredStrategy in an Estimator's RunConfig needs graph mode"
    )
    strategy_alone = "import tensorflow as tf\ns = tf.distribute.MultiWorkerMirroredStrategy()\n"
    config_alone = (
        "import tensorflow as tf\nc = tf.estimator.RunConfig(train_distribute=tf.distribute.MirroredStrategy())\n"
    )
    assert _auto.graph_evidence(_used(tmp_path, strategy_alone)) is None  # Keras under strategy.scope(): TF 2 code
    assert _auto.graph_evidence(_used(tmp_path, config_alone)) is None

    (tmp_path / "program.py").write_text(ESTIMATOR_MULTI_WORKER)
    result = _runs.run([sys.executable, "-m", "uai_run", "--auto", "--explain", str(tmp_path / "program.py")], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert json.loads(result.stdout.splitlines()[-1]) == [False, False, False]
    report = json.loads(result.stderr[result.stderr.index("\n{") : result.stderr.rindex("}") + 1])
    assert [e["message"] for f in report["files"] for e in f["entries"]] == [f"--auto: {found.why}: {_auto.GRAPH_MODE}"]
