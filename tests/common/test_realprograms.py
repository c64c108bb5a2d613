"""bench/realprograms.py's cheapest program in CI: tf-slim's own training loop, both ways.

bench/realprograms/slim_train.py is a TF 1.x program (`slim = tf.contrib.slim`, `tf.python_io`,
`tf.train.batch`) that writes TFRecords and trains with `slim.learning.train` over a
`DatasetDataProvider` decoding them (`tfexample_decoder.Image` and `Tensor`). The benchmark runs it
unmodified under uai-run and after `uai-migrate --out` with python; both must train, with the same
per-step losses (fixed seeds; the queue pipeline has one reader and one batching thread). tf-slim is
installed, so nothing is downloaded. About 35 s; both suites run it (TF 2.15 and 2.21). Its `--level native`
(the native port judged the same way) is tested by its migration of the same tree alone (a few seconds): the
whole native run of every program is bench/RESULTS.md's.
"""

import argparse
import ast
import math
import os
import sys

from tests.support.benchmarks import load_benchmark

realprograms = load_benchmark("realprograms")


def _steps(driver: str) -> int:
    """The driver's STEPS constant, read from its source (importing it needs the TF1 face)."""
    tree = ast.parse(open(os.path.join(realprograms.DRIVERS, driver)).read())
    (value,) = [
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["STEPS"]
    ]
    return value


def test_slim_learning_train_over_a_dataset_data_provider_trains_both_ways_with_equal_losses(tmp_path):
    import tensorflow as tf  # (its version: what the bench's tensorflow_version() asks a process of this interpreter)

    args = argparse.Namespace(
        cache=str(tmp_path / "cache"),
        timeout=300.0,
        migrate_python=sys.executable,
        tensorflow=tf.__version__,
        level="safe",
    )
    result = realprograms.judge("slim", args, str(tmp_path / "work"))

    ways = result["ways"]
    for way in realprograms.WAYS:
        assert ways[way]["trained"], (way, ways[way]["error"])
        assert ways[way]["returncode"] == 0 and ways[way]["error"] == ""
        assert len(ways[way]["losses"]) == _steps("slim_train.py")
        assert all(math.isfinite(loss) and loss > 0 for loss in ways[way]["losses"])
    assert ways["uai-run"]["losses"] == ways["migrated"]["losses"]
    assert result["same_losses"] == "equal"

    # (a) ran the file as written, (b) uai-migrate's port of it
    written = (tmp_path / "work" / "slim" / "as_written" / "slim_train.py").read_text()
    ported = (tmp_path / "work" / "slim" / "migrated" / "slim_train.py").read_text()
    assert written == open(os.path.join(realprograms.DRIVERS, "slim_train.py")).read()
    assert "tf.contrib.slim" in written and "tf.contrib" not in ported and ported != written


def test_a_failed_run_is_its_last_error_line_and_innermost_frame():
    stderr = (
        "Traceback (most recent call last):\n"
        '  File "/tmp/x/as_written/driver.py", line 3, in <module>\n'
        "    import lib\n"
        '  File "/tmp/x/as_written/lib/common.py", line 8, in <module>\n'
        "    from collections import Mapping\n"
        "ImportError: cannot import name 'Mapping' from 'collections'\n"
    )
    assert realprograms.error_line(stderr, 1) == (
        "ImportError: cannot import name 'Mapping' from 'collections' (at lib/common.py:8)"
    )
    numpy = (
        "Traceback (most recent call last):\n"
        '  File "/tmp/x/migrated/lib/vec_env.py", line 32, in __init__\n'
        '  File "/venv/lib/python3.11/site-packages/numpy/__init__.py", line 324, in __getattr__\n'
        "AttributeError: module 'numpy' has no attribute 'bool'.\n"
    )
    assert realprograms.error_line(numpy, 1).endswith("(at numpy/__init__.py:324, from lib/vec_env.py:32)")
    assert realprograms.error_line("", None) == "timed out"
    assert realprograms.losses_of("\x1b[A\x1b[AREALPROGRAMS-LOSS 1 0.5\nnoise\nREALPROGRAMS-LOSS 2 0.25\n") == [
        0.5,
        0.25,
    ]


def test_level_native_ports_the_tree_with_the_native_rules_and_counts_their_entries(tmp_path):
    tree, out = str(tmp_path / "as_written"), str(tmp_path / "migrated")
    realprograms.build_tree(realprograms.PROGRAMS["slim"], str(tmp_path / "cache"), tree)

    assert realprograms.migrate(tree, out, sys.executable, 300.0, "native") == ""

    ported = (tmp_path / "migrated" / "slim_train.py").read_text()
    # native-io's rewrite of its seed call (the safe level writes tf.compat.v1.set_random_seed), and its entry
    assert "tf.random.set_seed(" in ported and "set_random_seed" not in ported
    assert realprograms.native_counts(out)["native-io"] == (1, 0)


def test_the_table_at_native_level_has_the_native_rules_of_the_migrated_way():
    run = {"returncode": 0, "losses": [1.5, 0.75], "error": "", "seconds": 1.0, "trained": True}
    result = {"program": "p", "ways": {"uai-run": run, "migrated": run}, "same_losses": "equal"}
    result["native_rules"] = {"native-io": (1, 0), "native-session": (0, 1)}

    lines = realprograms.markdown([result], "2.21", "native").splitlines()

    assert lines[0].count("|") == lines[1].count("|") == lines[2].count("|") == 8
    assert lines[2] == "| p | uai-run | yes | 1.5, 0.75 |  |  |  |"
    assert lines[3] == "| p | migrated (native) | yes | 1.5, 0.75 | equal | native-io 1/0, native-session 0/1 |  |"
    assert (
        realprograms.markdown([result], "2.21").splitlines()[3]
        == "| p | migrated (safe) | yes | 1.5, 0.75 | equal |  |"
    )
