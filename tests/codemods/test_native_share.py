"""bench/native.py's count of `tf.*` references and of those through `tf.compat.v1` (the #31 share): a name
imported from a TensorFlow module is a reference wherever it is read, as `tf.x` would be."""

import json
import os
import re
import subprocess
import sys

import pytest

from bench import native, realworld


@pytest.mark.parametrize(
    ("source", "counted"),
    [
        ("import tensorflow as tf\ntf.compat.v1.train.AdamOptimizer(0.1)\ntf.constant(1)\n", (2, 1)),
        ("import tensorflow.compat.v1 as tf\ntf.constant(1)\n", (1, 1)),
        # a name imported from tf.compat.v1 counts at each read (as `tf.compat.v1.app.run()` would), not at the import
        ("from tensorflow.compat.v1 import app\napp.run()\napp.run()\n", (2, 2)),
        ("from tensorflow.compat.v1.train import LoggingTensorHook as L\nL({}, every_n_iter=1)\n", (1, 1)),
        # a module imported from TensorFlow: its attribute chain is one reference
        ("from tensorflow.compat import v1\nv1.train.get_global_step()\n", (1, 1)),
        ("from tensorflow import keras\nkeras.layers.Dense(1)\n", (1, 0)),
        ("from tensorflow.python.training import session_run_hook\nsession_run_hook.SessionRunArgs(1)\n", (1, 0)),
        # not TensorFlow's: not counted; a name bound again is no longer the import's
        ("from compat import flags\nflags.FLAGS\n", (0, 0)),
        ("from tensorflow.compat.v1 import app\napp = object()\napp\n", (0, 0)),
        ("from tensorflow.compat.v1 import app\nfrom absl import app\napp.run()\n", (0, 0)),
    ],
)
def test_references_count_names_imported_from_tensorflow(source, counted):
    assert native.references(source) == counted


@pytest.mark.parametrize(
    ("source", "counted"),
    [
        # `compat` bound by `from tensorflow import compat`: compat.v1.<...> goes through tf.compat.v1
        ("from tensorflow import compat\ncompat.v1.train.Saver()\ncompat.dimension_value(1)\n", (2, 1)),
        # any `import tensorflow.<module> as name`: a reference at each chain, through tf.compat.v1 where it is below it
        ("import tensorflow.compat.v2 as tf\ntf.constant(1)\n", (1, 0)),
        ("import tensorflow.keras.layers as layers\nlayers.Dense(1)\n", (1, 0)),
        ("import tensorflow.compat.v1.train as train\ntrain.Saver()\n", (1, 1)),
        ("import tensorflow.compat.v1\ntensorflow.compat.v1.train.Saver()\ntensorflow.constant(1)\n", (2, 1)),
        # (not TensorFlow: a module whose name starts with "tensorflow")
        ("import tensorflow_hub\ntensorflow_hub.load('x')\n", (0, 0)),
    ],
)
def test_references_count_every_module_of_tensorflow_bound_to_a_name(source, counted):
    assert native.references(source) == counted


@pytest.mark.parametrize(
    ("source", "counted"),
    [
        # a star import binds every name the module exports (its __all__ on the installed TensorFlow): each read of
        # one is a reference, through tf.compat.v1 for the v1 module's, builtins it shadows (print) included
        ("from tensorflow.compat.v1 import *\nx = placeholder(float32)\nprint(x)\n", (3, 3)),
        ("from tensorflow.compat.v1 import *\nlogging.info('a')\ntrain.Saver()\n", (2, 2)),
        ("from tensorflow import *\nconstant(1)\ncompat.v1.placeholder(float32)\n", (3, 1)),
        ("from tensorflow.compat.v1.nn import *\nrelu(1)\n", (1, 1)),
        # not a name the module exports, or one the module binds again (an assignment, a parameter, another import,
        # an except clause): not TensorFlow's there
        ("from tensorflow.compat.v1 import *\nnot_tf(1)\n", (0, 0)),
        ("from tensorflow.compat.v1 import *\ndef f(shape):\n    return shape\n", (0, 0)),
        ("from tensorflow.compat.v1 import *\nfrom numpy import zeros\nzeros(1)\n", (0, 0)),
        ("from tensorflow.compat.v1 import *\ntry:\n    pass\nexcept OSError as errors:\n    errors\n", (0, 0)),
        # (a star import of something else than TensorFlow)
        ("from numpy import *\nzeros(1)\n", (0, 0)),
    ],
)
def test_references_count_names_a_star_import_from_tensorflow_binds(source, counted):
    assert native.references(source) == counted


# a Session program the native level converts (tests/corpus/compat_v1_style.py's shape)
TRAIN = """import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
doubled = x * 2
with tf.Session() as sess:
    print("doubled", sess.run(doubled, {x: [1.0, 2.0]}))
"""
BROKEN = "import tensorflow as tf\ndef f(:\n    tf.placeholder(tf.float32)\n"  # uai-migrate skips it: no Python 3


def test_realworld_shares_a_project_tree_at_both_levels_and_reports_a_file_it_could_not_migrate(
    tmp_path, monkeypatch, capsys
):
    # a project of realworld.PROJECTS whose sdist is already unpacked in the cache, as realworld.fetch leaves it
    cache = tmp_path / "cache"
    package = cache / "src" / "tiny-0.1" / "tiny"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "train.py").write_text(TRAIN)
    (package / "broken.py").write_text(BROKEN)
    monkeypatch.setitem(realworld.PROJECTS, "tiny", realworld.Project("tiny==0.1", "tiny"))
    results = tmp_path / "results.json"
    assert native.main(["--realworld", "tiny", "--cache", str(cache), "--json", str(results)]) == 0
    # the expected counts: the ports of train.py made here by uai-migrate, as the bench makes them, counted
    expected, reports = {}, {}
    for level in ("safe", "native"):
        out = str(tmp_path / "ported" / level)
        reports[level] = native.migrate([str(package.parent)], out, level, in_process=True)
        expected[level] = native.references((tmp_path / "ported" / level / "tiny" / "train.py").read_text())
    row = json.loads(results.read_text())["realworld"]["tiny"]
    assert row["files"] == 3
    # the native rules' entries (converted something, left code at the safe level), as for the corpus' groups
    assert {rule: tuple(counts) for rule, counts in row["rules"].items()} == native.rule_counts(reports["native"])
    assert row["rules"]
    for level in ("safe", "native"):
        assert (row[level]["references"], row[level]["compat_v1"]) == expected[level]
        assert [path for path, _ in row[level]["skipped"]] == [os.path.join("tiny", "broken.py")]
        assert "does not parse" in row[level]["skipped"][0][1]
    assert expected["safe"][1] > expected["native"][1]  # (each level's own port is counted)
    printed = capsys.readouterr().out
    assert re.search(r"^tiny\s+safe\s+3\s", printed, re.M) and re.search(r"^tiny\s+native\s+3\s", printed, re.M), (
        printed
    )


def test_ported_share_counts_the_port_both_ways_and_leaves_out_the_files_uai_migrate_skipped(tmp_path):
    out = tmp_path / "out" / "tiny"
    out.mkdir(parents=True)
    (out / "__init__.py").write_text("")
    # the project's own name for tf.compat.v1, as tensorpack's compat module binds it, and a module using it
    (out / "compat.py").write_text("import tensorflow as tf\ntfv1 = tf.compat.v1\n")
    (out / "lib.py").write_text("from .compat import tfv1 as tf\n\n\ndef f():\n    return tf.placeholder(tf.float32)\n")
    # a file the report says uai-migrate skipped: in the output as written, not counted
    (out / "broken.py").write_text("import tensorflow as tf\ntf.placeholder(tf.float32)\n")
    (out / "bad.py").write_text("def f(:\n")
    tree = tmp_path / "tree"
    skipped = {"severity": "error", "message": "file skipped: why", "rule": "parse"}
    report = {
        "files": [
            {"path": str(tree / "tiny" / "compat.py"), "status": "unchanged", "entries": []},
            {"path": str(tree / "tiny" / "lib.py"), "status": "changed", "entries": [skipped | {"message": "manual"}]},
            # (status "error": the file could not be read, nothing written for it)
            {"path": str(tree / "tiny" / "gone.py"), "status": "error", "entries": [skipped | {"message": "unread"}]},
            {"path": str(tree / "tiny" / "broken.py"), "status": "skipped", "entries": [skipped]},
        ]
    }
    counted = native.ported_share(str(tree), str(tmp_path / "out"), report)
    # references(): compat.py's `tf.compat.v1` only (lib.py's `tf` is not bound by an import of TensorFlow).
    # bench/realworld.py's count: compat.py's `import tensorflow` and `tf.compat.v1`, lib.py's `tf.placeholder` and
    # `tf.float32` through the project's `tfv1` (tensorflow.compat.v1)
    assert counted == {
        "references": 1,
        "compat_v1": 1,
        "project_references": 4,
        "project_compat_v1": 3,
        "skipped": [
            [os.path.join("tiny", "broken.py"), "file skipped: why"],
            [os.path.join("tiny", "gone.py"), "unread"],
        ],
        "errors": 1,
        "unparsed": 1,
    }


def test_a_probe_runs_its_script_without_bench_realworld_and_the_help_still_names_its_defaults(tmp_path):
    # a corpus script run by --probe does not have bench/realworld.py and its migrate_bench loaded: only --realworld
    # (and -h, for the defaults) reads that module
    script = tmp_path / "seen.py"
    seen = tmp_path / "seen.json"
    script.write_text(
        "import json, sys\n"
        f"json.dump(['bench.realworld' in sys.modules, 'migrate_bench' in sys.modules], open({str(seen)!r}, 'w'))\n"
    )
    probe = [sys.executable, native.__file__, "--probe", "native", str(script), "", str(tmp_path / "record.json")]
    subprocess.run(probe, cwd=tmp_path, env=native._env(), check=True, capture_output=True, timeout=600)
    assert json.loads(seen.read_text()) == [False, False]
    shown = subprocess.run(
        [sys.executable, native.__file__, "--help"], env=native._env(), check=True, capture_output=True, text=True
    ).stdout
    assert ", ".join(realworld.PROJECTS) in " ".join(shown.split()), shown
    assert realworld.default_cache() in shown.replace("\n", "").replace(" ", ""), shown
