"""`uai-run`: a program runs as `python script.py` would; the user's `tensorflow` is TF1's, libraries keep theirs.

Each case is a real process (`python -m uai_run`, the same entry point as the `uai-run` script);
the ones that need no TensorFlow import run first and take a fraction of a second each.
"""

import importlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import tomllib

import pytest

from compat import tf1_names
from tests.support import runs as _runs
from tests.support.processes import REPO, assert_one_line_error, program_lines
from uai_run import __main__ as as_module

UAI_RUN = [sys.executable, "-m", "uai_run"]


def _write(folder, name, source):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source))
    return path


def test_runs_as_main_with_its_argv_its_folder_first_on_the_path_and_its_exit_code(tmp_path):
    script = _write(
        tmp_path / "prog",
        "main.py",
        """
        import json, sys
        import helper  # a sibling module: found because the script's folder is first on sys.path
        print(json.dumps({"name": __name__, "argv": sys.argv, "path0": sys.path[0], "helper": helper.VALUE}))
        sys.exit(3)
    """,
    )
    _write(tmp_path / "prog", "helper.py", "VALUE = 'sibling'\n")
    _write(tmp_path / "pkg", "__init__.py", "")
    _write(
        tmp_path / "pkg",
        "mod.py",
        """
        import json, sys
        print(json.dumps({"name": __name__, "argv": sys.argv[1:]}))
        raise SystemExit("failed: message to stderr")
    """,
    )
    results = _runs.run_all(
        {
            "script": [*UAI_RUN, str(script), "a", "--flag=1"],
            "module": [*UAI_RUN, "-m", "pkg.mod", "x", "-y"],
            "module_flags": [*UAI_RUN, "--explain", "-m", "pkg.mod", "--flag=value", "--report", "r"],
            "module_dashes": [*UAI_RUN, "-mpkg.mod", "--", "--flag"],
            "module_after_report": [*UAI_RUN, "--report", "r.json", "-m", "pkg.mod", "--flag=v"],
        },
        tmp_path,
    )
    ran = json.loads(results["script"].stdout)
    assert results["script"].returncode == 3, results["script"].stderr
    assert ran == {
        "name": "__main__",
        "argv": [str(script), "a", "--flag=1"],
        "path0": str(script.parent),
        "helper": "sibling",
    }
    module = results["module"]
    assert module.returncode == 1 and module.stderr.strip() == "failed: message to stderr", module.stderr
    assert json.loads(module.stdout) == {"name": "__main__", "argv": ["x", "-y"]}
    # the module's own flags are the module's, as python -m passes them; `--` only separates
    assert json.loads(results["module_flags"].stdout)["argv"] == ["--flag=value", "--report", "r"]
    assert json.loads(results["module_dashes"].stdout)["argv"] == ["--flag"]
    assert json.loads(results["module_after_report"].stdout)["argv"] == ["--flag=v"]  # r.json is the report's


def test_a_signal_that_kills_the_program_kills_uai_run_the_same_way(tmp_path):
    script = _write(tmp_path, "killed.py", "import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n")
    results = _runs.run_all({"python": [sys.executable, str(script)], "uai-run": [*UAI_RUN, str(script)]}, tmp_path)
    assert results["python"].returncode == -signal.SIGTERM
    assert results["uai-run"].returncode == results["python"].returncode


def test_usage_mistakes_are_one_line(tmp_path):
    # a report that could not be written is refused before the program runs (it would have run for nothing)
    script = _write(tmp_path, "marks.py", "open('ran', 'w').close()\n")
    (tmp_path / "folder.json").mkdir()
    results = _runs.run_all(
        {
            "none": UAI_RUN,
            "missing": [*UAI_RUN, str(tmp_path / "absent.py")],
            "report_folder": [*UAI_RUN, "--report", str(tmp_path / "folder.json"), str(script)],
            "report_nowhere": [*UAI_RUN, "--report", str(tmp_path / "no" / "r.json"), str(script)],
            "report_empty": [*UAI_RUN, "--report", "", str(script)],
        },
        tmp_path,
    )
    assert_one_line_error(results["missing"], "absent.py: no such file")
    assert results["none"].returncode == 2 and "the script to run is missing" in results["none"].stderr
    assert_one_line_error(results["report_folder"], "folder.json: is a folder")
    assert_one_line_error(results["report_nowhere"], f"folder {tmp_path / 'no'} does not exist or is not writable")
    assert_one_line_error(results["report_empty"], "--report '': empty value")
    assert not (tmp_path / "ran").exists()


@pytest.mark.parametrize(
    "line",
    [
        # (compat.seq2seq provides tf.contrib.seq2seq's public training, greedy and beam search decoding)
        "from tensorflow.contrib.seq2seq.python.ops import beam_search_ops",
        "import tensorflow.contrib.seq2seq.python.ops.helper as helper",
        "from tensorflow.contrib.seq2seq import ScheduledEmbeddingTrainingHelper",
    ],
)
def test_importing_a_removed_module_is_one_line_naming_file_line_and_the_manual_step(tmp_path, line):
    script = _write(tmp_path, "old.py", f"import os\n{line}\n")
    result = _runs.run([*UAI_RUN, str(script)], tmp_path)
    # decided before TensorFlow is imported: nothing else on stderr
    assert_one_line_error(result, "tf.contrib.seq2seq.")
    assert f"({script}:2)" in result.stderr and "tf.contrib was removed in TensorFlow 2" in result.stderr


def test_libraries_get_the_real_tensorflow_and_the_user_the_tf1_face_also_with_tf1_everywhere(tmp_path):
    # a folder named site-packages is where installed libraries live: its modules are not the user's
    library = tmp_path / "lib" / "site-packages"
    _write(library, "thirdparty.py", "import tensorflow as tf\n")
    script = _write(
        tmp_path,
        "user.py",
        """
        import json, sys
        import tensorflow as tf
        sys.path.insert(0, LIBRARY)
        import thirdparty
        real = sys.modules["tensorflow"]
        print(json.dumps({
            "user_is_real": tf is real,
            "library_is_real": thirdparty.tf is real,
            "user_has_session": hasattr(tf, "Session"),
            "graph_mode": not tf.executing_eagerly(),
            "dimension_value": tf.placeholder(tf.float32, [None, 3]).shape[-1].value,
            "slim_conv2d": tf.contrib.slim.conv2d.__module__,
        }))
    """.replace("LIBRARY", repr(str(library))),
    )
    commands = {"default": [*UAI_RUN, str(script)], "everywhere": [*UAI_RUN, "--tf1-everywhere", str(script)]}
    results = _runs.run_all(commands, tmp_path)
    for result in results.values():
        assert result.returncode == 0, result.stderr[-3000:]
    default = json.loads(results["default"].stdout.splitlines()[-1])
    assert default == {
        "user_is_real": False,
        "library_is_real": True,
        "user_has_session": True,
        "graph_mode": True,
        "dimension_value": 3,
        "slim_conv2d": "tf_slim.layers.layers",
    }
    everywhere = json.loads(results["everywhere"].stdout.splitlines()[-1])
    assert everywhere["library_is_real"] is False and everywhere["user_is_real"] is False


def test_a_removed_name_used_as_an_attribute_is_one_line_at_the_using_line(tmp_path):
    script = _write(
        tmp_path,
        "attr.py",
        """
        import tensorflow as tf
        ok = hasattr(tf.contrib, "crf")  # a probe is an ordinary AttributeError
        print("probe", ok, tf.contrib.seq2seq.BasicDecoder.__module__)
        helper = tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper
    """,
    )
    result = _runs.run([*UAI_RUN, "--explain", str(script)], tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr[-3000:]
    assert "probe False compat.seq2seq.decoding" in result.stdout
    lines = program_lines(result.stderr)
    report = json.loads("\n".join(lines[:-1]))  # --explain's report, then the error line
    assert report["exit_code"] == 2 and report["mode"] == "run" and report["summary"]["error"] == 1
    error = [e for e in report["files"][0]["entries"] if e["severity"] == "error"]
    assert error == [
        {
            "rule": "contrib-removed",
            "message": "tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper is not available on this TensorFlow",
            "severity": "error",
            "line": 5,
            "col": 0,
            "level": "safe",  # the schema uai-migrate writes too
            "path": str(script),
            "manual": error[0]["manual"],
        }
    ] and error[0]["manual"].startswith("tf.contrib was removed")
    assert lines[-1].endswith(
        f"error: tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper is not available on this TensorFlow ({script}:5); uai-migrate: "
        "tf.contrib was removed in TensorFlow 2: tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper has no drop-in replacement; "
        "the closest is TensorFlow Addons' tfa.seq2seq (the same classes)"
    )


def test_a_tf_2_name_the_tf1_face_lacks_is_one_line_naming_uai_run_auto(tmp_path):
    # TF 2.0-era code: tf.keras.losses.Reduction is TF 2's Keras, TF1's API (the face's tf.keras) has no such name
    script = _write(tmp_path, "tf2.py", "import tensorflow as tf\n\nreduction = tf.keras.losses.Reduction.NONE\n")
    result = _runs.run([*UAI_RUN, "--report", str(tmp_path / "report.json"), str(script)], tmp_path)
    problem = "tf.keras.losses.Reduction is TF 2's, not in the TF1 API uai-run gives the program"
    step = "the program is TF 2 code: run it with `uai-run --auto`, which runs TF 2 code as it is"
    assert_one_line_error(result, f"error: {problem} ({script}:3); {step}")
    entries = json.loads((tmp_path / "report.json").read_text())["files"][0]["entries"]
    assert [(e["message"], e["line"], e["manual"]) for e in entries if e["severity"] == "error"] == [(problem, 3, step)]


@pytest.mark.parametrize(
    "source",
    [
        "import tensorflow as tf\n\nparallel = tf.keras.utils.multi_gpu_model(model, gpus=2)\n",
        "import tensorflow as tf\nfrom tensorflow.keras.utils import multi_gpu_model\n",
    ],
    ids=["read", "imported"],
)
def test_a_tf1_keras_name_tf_2_dropped_is_one_line_naming_its_closest_replacement(tmp_path, source):
    script = _write(tmp_path, "parallel.py", source)
    result = _runs.run([*UAI_RUN, str(script)], tmp_path)
    line = 3 if "parallel =" in source else 2
    assert_one_line_error(
        result,
        f"error: tf.keras.utils.multi_gpu_model is not available on this TensorFlow ({script}:{line}); uai-migrate: "
        f"{tf1_names.manual_for('tensorflow.keras.utils.multi_gpu_model')}",
    )
    assert "MirroredStrategy" in result.stderr


def test_a_tf1_program_reading_a_tf_2_name_is_told_its_tf_compat_v2_spelling_which_the_face_serves():
    import tensorflow

    from uai_run import _tf1_modules

    tf = _tf1_modules.Face("tensorflow")
    with pytest.raises(AttributeError) as raised:
        tf.keras.losses.Reduction  # noqa: B018
    line = raised.traceback[-1].lineno + 1
    stop = _tf1_modules.tf2_name(raised.value, tf2_code=lambda: False)
    assert str(stop) == (
        "tf.keras.losses.Reduction is TF 2's, not in the TF1 API uai-run gives the program "
        f"({__file__}:{line}); TF1 code reads it as tf.compat.v2.keras.losses.Reduction"
    )
    assert tf.compat.v2.keras.losses.Reduction is tensorflow.keras.losses.Reduction

    def model_fn():  # run by autograph, as an Estimator's model_fn under a distribution strategy is
        return tf.keras.losses.Reduction

    with pytest.raises(AttributeError) as raised:
        tensorflow.function(model_fn)()
    stop = _tf1_modules.tf2_name(raised.value, tf2_code=lambda: True)  # autograph's error, its read's line
    assert stop is not None and (stop.path, stop.line) == (__file__, model_fn.__code__.co_firstlineno + 1)
    with pytest.raises(AttributeError) as raised:
        tf.keras.losses.NoSuchLoss  # noqa: B018
    assert _tf1_modules.tf2_name(raised.value, tf2_code=lambda: True) is None  # TF 2 lacks it too: python's error


def test_the_face_is_tf_compat_v1_name_for_name_contrib_at_its_new_homes_and_every_table_target_exists(tmp_path):
    script = _write(
        tmp_path,
        "api.py",
        """
        import importlib, json, sys
        import tensorflow as tf
        from compat import tf1_names
        from uai_run import _tf1_modules

        import star_import
        import tensorflow.contrib.slim as slim
        import tensorflow.python.platform.flags as platform_flags
        from tensorflow.contrib import rnn
        from tensorflow.contrib.learn.python.learn import run_config
        from tensorflow.contrib.slim.nets import resnet_v1
        from tensorflow.examples.tutorials.mnist import input_data
        import compat.flags, compat.hparams, compat.learn.run_config, compat.slim, compat.tutorials.mnist.input_data
        import tf_slim.nets

        v1 = sys.modules["tensorflow"].compat.v1
        homes = {  # the TF1 spelling -> where the table says it lives now
            "slim": slim.conv2d is compat.slim.conv2d,
            "platform_flags": platform_flags is compat.flags and tf.app.flags is compat.flags,
            "rnn": rnn.BasicLSTMCell is v1.nn.rnn_cell.BasicLSTMCell and rnn.static_rnn is v1.nn.static_rnn,
            "run_config": run_config is compat.learn.run_config,
            "resnet_v1": resnet_v1 is tf_slim.nets.resnet_v1,
            "input_data": input_data is compat.tutorials.mnist.input_data,
            "tpu": tf.contrib.tpu.TPUEstimator is v1.estimator.tpu.TPUEstimator,
            "data": tf.contrib.data.map_and_batch is v1.data.experimental.map_and_batch,
            "cluster_resolver": tf.contrib.cluster_resolver.TFConfigClusterResolver
                                is v1.distribute.cluster_resolver.TFConfigClusterResolver,
            "hparams": tf.contrib.training.HParams is compat.hparams.HParams,
        }
        differ = [n for n in dir(v1) if not n.startswith("_") and n not in ("app", "flags")
                  and getattr(tf, n) is not getattr(v1, n)]
        # a module the table moves a name out of (tf.train.SummaryWriter), or holding a callable it gives TF 1's
        # arguments (tf.random.experimental.create_rng_state), is a face, v1's name for name
        faces = [n for n in dir(v1) if tf1_names.has_entries_below(f"tensorflow.{n}") and n not in ("app", "flags")]
        differ_in_faces = [f"{n}.{m}" for n in faces for m in dir(getattr(v1, n)) if not m.startswith("_")
                           and f"tensorflow.{n}.{m}" not in tf1_names.SYMBOLS
                           and not tf1_names.has_entries_below(f"tensorflow.{n}.{m}")
                           and getattr(getattr(tf, n), m) is not getattr(getattr(v1, n), m)]
        missing = []
        targets = [*tf1_names.SYMBOLS.values(), *(t for ts in tf1_names.MODULES.values() for t in ts)]
        for target in [*targets, *tf1_names.PACKAGES.values()]:
            try:
                tf1_names.resolve(target)
            except (ImportError, AttributeError) as error:
                missing.append(f"{target}: {error}")
        star = star_import.Session is v1.Session and star_import.placeholder is v1.placeholder
        print(json.dumps({"checked": len(dir(v1)), "differ": differ, "faces": faces, "differ_in_faces": differ_in_faces,
                          "missing": missing, "star": star, "homes": homes}))
    """,
    )
    _write(tmp_path, "star_import.py", "from tensorflow import *  # noqa: F403\n")
    result = _runs.run([*UAI_RUN, str(script)], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    found = json.loads(result.stdout.splitlines()[-1])
    assert (
        found["checked"] > 500 and found["differ"] == found["faces"] == ["config", "random", "train"] and found["star"]
    )
    assert found["differ_in_faces"] == [] and found["missing"] == []
    assert found["homes"] == {name: True for name in found["homes"]} and len(found["homes"]) == 10


def test_private_names_tf2_renamed_or_changed_are_tf1s_also_before_import_tensorflow(tmp_path):
    # TF 2's framework.device.DeviceSpec is DeviceSpecV2 (no merge_from), nest.is_sequence and
    # pywrap_tensorflow.NewCheckpointReader are gone: an unmodified TF1 program failed on each
    script = _write(
        tmp_path,
        "private.py",
        """
        import json, os, sys
        from tensorflow.python.framework import device as pydev
        from tensorflow.python.util.nest import is_sequence
        from tensorflow.python import pywrap_tensorflow
        import tensorflow as tf

        spec = pydev.DeviceSpec.from_string("/job:ps/task:1")
        spec.merge_from(pydev.DeviceSpec.from_string("/device:CPU:0"))
        v1 = sys.modules["tensorflow"].compat.v1
        expected = v1.DeviceSpec.from_string("/job:ps/task:1")
        expected.merge_from(v1.DeviceSpec.from_string("/device:CPU:0"))
        weights = tf.Variable([1.5, -2.0], name="w")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saved = sess.run(weights).tolist()
            path = tf.train.Saver().save(sess, os.path.join(sys.argv[1], "model"))
        reader = pywrap_tensorflow.NewCheckpointReader(path)
        print(json.dumps({
            "device": [spec.to_string(), expected.to_string()],
            "nested": [is_sequence([1]), is_sequence(1)],
            "restored": [reader.get_tensor("w").tolist(), saved],
            "other_names": pydev.canonical_name is sys.modules["tensorflow.python.framework.device"].canonical_name,
            "real_module_untouched": sys.modules["tensorflow.python.framework.device"].DeviceSpec
                                     is sys.modules["tensorflow"].DeviceSpec,
            "graph_mode": not tf.executing_eagerly(),
        }))
    """,
    )
    result = _runs.run([*UAI_RUN, "--explain", str(script), str(tmp_path)], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    found = json.loads(result.stdout.splitlines()[-1])
    # --explain names the three aliases, not the names the private modules still give as they are
    (notes,) = [file["entries"] for file in json.loads("\n".join(program_lines(result.stderr)))["files"]]
    assert {n["message"] for n in notes if n["rule"] == "tf-private"} == {
        "tf.python.framework.device.DeviceSpec -> tf.compat.v1.DeviceSpec",
        "tf.python.util.nest.is_sequence -> tf.compat.v1.nest.is_nested",
        "tf.python.pywrap_tensorflow.NewCheckpointReader -> tf.compat.v1.train.NewCheckpointReader",
    }
    assert found["device"][0] == found["device"][1] and "/job:ps" in found["device"][0]
    assert found["nested"] == [True, False]
    assert found["restored"][0] == found["restored"][1]
    assert found["other_names"] and found["real_module_untouched"] and found["graph_mode"]


def test_tensorflow_0_x_names_are_served_as_uai_migrate_rewrites_them(tmp_path):
    # TF 0.12 tutorials (tf.pack, tf.mul, tf.scalar_summary, tf.train.SummaryWriter ...) were still
    # copied into TF1 programs; TF 1.0 renamed them, and TF 2's tables no longer know the old names
    script = _write(
        tmp_path,
        "zero_x.py",
        """
        import json, sys
        import tensorflow as tf

        a, b = tf.constant([1.0, 4.0]), tf.constant([2.0, 2.0])
        v1 = sys.modules["tensorflow"].compat.v1
        ops = [tf.pack([a, b]), tf.unpack(tf.pack([a, b]))[1], tf.mul(a, b), tf.sub(a, b), tf.neg(a), tf.inv(b)]
        tf.scalar_summary("first", a[0])
        with tf.Session() as sess:
            values = [value.tolist() for value in sess.run(ops)]
            writer = tf.train.SummaryWriter(sys.argv[1], sess.graph)
            merged = sess.run(tf.merge_all_summaries())
        print(json.dumps({
            "values": values,
            "writer": type(writer) is v1.summary.FileWriter,
            "summary": isinstance(merged, bytes) and len(merged) > 0,
            "optimizer": tf.train.GradientDescentOptimizer is v1.train.GradientDescentOptimizer,
        }))
    """,
    )
    result = _runs.run([*UAI_RUN, "--explain", str(script), str(tmp_path / "logs")], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    found = json.loads(result.stdout.splitlines()[-1])
    assert found == {
        "values": [[[1.0, 4.0], [2.0, 2.0]], [2.0, 2.0], [2.0, 8.0], [-1.0, 2.0], [-1.0, -4.0], [0.5, 0.5]],
        "writer": True,
        "summary": True,
        "optimizer": True,
    }
    (notes,) = [file["entries"] for file in json.loads("\n".join(program_lines(result.stderr)))["files"]]
    assert {n["message"]: n["rule"] for n in notes if n["message"].startswith(("tf.unpack", "tf.train.Summary"))} == {
        "tf.unpack -> tf.unstack": "tf-upgrade",
        "tf.train.SummaryWriter -> tf.compat.v1.summary.FileWriter": "tf-upgrade",
    }


def test_python_2_source_is_one_line_naming_the_file_and_line_and_uai_migrates_port(tmp_path):
    # uai-run runs the user's files as written; only uai-migrate ports Python 2 (its py2-port rule)
    main = _write(tmp_path, "py2_main.py", "import os\nprint 'hello'\n")
    importer = _write(tmp_path, "importer.py", "import os\nimport py2_helper\n")
    _write(tmp_path, "py2_helper.py", "x = 1\ntry:\n    pass\nexcept ValueError, err:\n    pass\n")
    report = tmp_path / "report.json"
    results = _runs.run_all(
        {
            "main": [*UAI_RUN, "--report", str(report), str(main)],
            "imported": [*UAI_RUN, str(importer)],
        },
        tmp_path,
    )
    assert_one_line_error(results["main"], f"Python 3 cannot parse {main}:2")
    assert_one_line_error(results["imported"], f"Python 3 cannot parse {tmp_path / 'py2_helper.py'}:4")
    for result in results.values():
        assert "uai-migrate ports Python 2 code (its py2-port rule)" in result.stderr
    (entry,) = json.loads(report.read_text())["files"][0]["entries"]
    assert (entry["rule"], entry["severity"], entry["path"], entry["line"]) == ("py2-port", "error", str(main), 2)


def test_a_python_3_syntax_error_is_not_called_python_2(tmp_path):
    main = _write(tmp_path, "typo.py", "import tensorflow as tf\n\ndef f(:\n    pass\n")
    report = tmp_path / "report.json"
    result = _runs.run_all({"typo": [*UAI_RUN, "--report", str(report), str(main)]}, tmp_path)["typo"]
    assert_one_line_error(result, f"Python 3 cannot parse {main}:3")
    assert "fix the syntax error" in result.stderr and "Python 2" in result.stderr
    assert "uai-migrate ports Python 2" not in result.stderr
    (entry,) = json.loads(report.read_text())["files"][0]["entries"]
    assert (entry["rule"], entry["severity"], entry["line"]) == ("parse", "error", 3)


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (["-m", "pkg_nothere.mod"], "No module named 'pkg_nothere'"),
        (["-m", ""], "-m: empty module name"),
        (["-m", "email"], "email is a package and cannot be directly executed"),
        (["a_folder"], "can't find '__main__' module in"),
    ],
)
def test_a_target_python_cannot_run_is_one_line(tmp_path, target, message):
    (tmp_path / "a_folder").mkdir()
    result = _runs.run_all({"bad": [*UAI_RUN, *target]}, tmp_path)["bad"]
    assert_one_line_error(result, message)


def test_the_programs_traceback_starts_at_the_program_as_pythons_does(tmp_path):
    # the console script (installed beside this interpreter, as pip installs it) lies outside every library folder:
    # its frame, uai-run's and runpy's were shown above the program's (helper-95)
    console_script = os.path.join(os.path.dirname(sys.executable), "uai-run")
    script = _write(tmp_path, "boom.py", "def f():\n    raise ValueError('boom')\n\n\nf()\n")
    runs = {
        "python": [sys.executable, str(script)],
        "-m": [*UAI_RUN, str(script)],
        "uai-run": [console_script, str(script)],
    }
    results = _runs.run_all(runs, tmp_path)
    assert {result.returncode for result in results.values()} == {1}
    assert program_lines(results["python"].stderr)[:2] == [
        "Traceback (most recent call last):",
        f'  File "{script}", line 5, in <module>',
    ]
    for name in ("-m", "uai-run"):
        assert program_lines(results[name].stderr) == program_lines(results["python"].stderr), name


def test_a_symlinked_script_imports_its_real_folders_siblings_as_python_does(tmp_path):
    real = _write(tmp_path / "real", "train.py", "import helper\n\nprint('helper', helper.X)\n")
    _write(tmp_path / "real", "helper.py", "X = 7\n")
    (tmp_path / "link").mkdir()
    (tmp_path / "link" / "train.py").symlink_to(real)
    link = str(tmp_path / "link" / "train.py")
    results = _runs.run_all({"python": [sys.executable, link], "uai-run": [*UAI_RUN, link]}, tmp_path)
    for result in results.values():
        assert result.returncode == 0 and "helper 7" in result.stdout, result.stderr


@pytest.mark.parametrize(
    ("module", "message"),
    [("tensorflow.py", "takes the place of TensorFlow"), ("compat.py", "has the name of uai-compat's package")],
)
def test_a_module_beside_the_script_shadowing_a_package_uai_run_needs_is_one_line(tmp_path, module, message):
    script = _write(tmp_path / "p", "train.py", "import tensorflow as tf\n\nprint(tf.__version__)\n")
    _write(tmp_path / "p", module, "X = 1\n")
    result = _runs.run_all({"shadowed": [*UAI_RUN, str(script)]}, tmp_path)["shadowed"]
    assert_one_line_error(result, f"{tmp_path / 'p' / module} {message}")


def test_a_program_ending_in_os_exit_still_leaves_its_report(tmp_path):
    script = _write(tmp_path, "quit.py", "import os\nimport tensorflow as tf\n\nx = tf.Session\nos._exit(4)\n")
    report = tmp_path / "report.json"
    result = _runs.run_all({"quit": [*UAI_RUN, "--report", str(report), str(script)]}, tmp_path)["quit"]
    assert result.returncode == 4, result.stderr
    assert json.loads(report.read_text())["exit_code"] == 4


def test_multiprocessing_spawn_workers_get_the_tf1_face_too(tmp_path):
    script = _write(
        tmp_path,
        "pool.py",
        """
        import multiprocessing
        import tensorflow as tf


        def work(n):
            return n * 2 if tf.Session is tf.compat.v1.Session else -1


        if __name__ == "__main__":
            with multiprocessing.get_context("spawn").Pool(1) as pool:
                print("results", pool.map(work, [1, 2]))
    """,
    )
    result = _runs.run([*UAI_RUN, str(script)], tmp_path)
    assert result.returncode == 0 and "results [2, 4]" in result.stdout, result.stderr[-3000:]


def test_a_report_to_dev_stdout_joins_the_programs_output_in_a_pipe_or_a_redirected_file(tmp_path):
    script = _write(tmp_path, "hello.py", "import tensorflow as tf\n\nprint('hello', tf.Session.__name__)\n")
    piped = _runs.run([*UAI_RUN, "--report", "/dev/stdout", str(script)], tmp_path)
    assert piped.returncode == 0, piped.stderr
    with open(tmp_path / "out.txt", "w") as out:  # `uai-run ... > out.txt`
        redirected = subprocess.run(
            [*UAI_RUN, "--report", "/dev/stdout", str(script)],
            cwd=tmp_path,
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert redirected.returncode == 0, redirected.stderr
    for text in (piped.stdout, (tmp_path / "out.txt").read_text()):
        printed, _, report = text.partition("\n")
        assert printed == "hello Session" and json.loads(report)["exit_code"] == 0, text


def test_auto_reports_the_exit_status_of_a_tf2_program_it_hands_to_python(tmp_path):
    script = _write(
        tmp_path, "tf2.py", "import sys\nimport tensorflow as tf\n\nprint(tf.constant(2).numpy())\nsys.exit(3)\n"
    )
    report = tmp_path / "report.json"
    result = _runs.run([*UAI_RUN, "--auto", "--report", str(report), str(script)], tmp_path)
    assert result.returncode == 3 and result.stdout.strip() == "2", result.stderr
    assert json.loads(report.read_text())["exit_code"] == 3


def test_the_uai_run_console_script_is_the_same_entry_point_as_python_m_compat_run():
    with open(f"{REPO}/pyproject.toml", "rb") as handle:
        module, _, function = tomllib.load(handle)["project"]["scripts"]["uai-run"].partition(":")
    assert getattr(importlib.import_module(module), function) is as_module.run


def test_tensorflows_own_import_goes_neither_through_the_import_hook_nor_through_the_finder(tmp_path):
    # TensorFlow runs some 36,000 import statements and finds some 2,500 modules while it loads;
    # the user's code needs the hook and the finder only for its own imports of `tensorflow...`.
    script = _write(tmp_path, "tiny.py", "import tensorflow as tf\nprint(tf.Session().run(tf.constant(1.0) + 1.0))\n")
    counting = f"""
import collections, sys
from uai_run import _finder
calls = collections.Counter()


def counted(name, function):
    def call(*args, **kwargs):
        calls[name] += 1
        return function(*args, **kwargs)

    return call


_finder._import = counted("hook", _finder._import)
_finder.FaceFinder.find_spec = counted("finder", _finder.FaceFinder.find_spec)
from uai_run import cli
code = cli.main([{str(script)!r}])
print(calls["hook"], calls["finder"])
sys.exit(code)
"""
    result = _runs.run([sys.executable, "-c", counting], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert lines[0] == "2.0"
    hook, finder = map(int, lines[-1].split())
    # the script's own statement and the imports the face's lazy targets make after TensorFlow loaded
    assert hook < 100 and finder < 100, lines
