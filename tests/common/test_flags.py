"""compat.flags in real subprocesses with real argv, in both TensorFlow environments."""

import json

from tests.support.processes import assert_one_line_error

SHOW = """
import json, sys
{imports}
print(json.dumps({{n: getattr(FLAGS, n) for n in {names!r}}}))
"""


def _values(run_py, imports, names, *args):
    result = run_py(SHOW.format(imports=imports, names=names), *args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


PLATFORM = ["work_dir", "data_dir", "output_dir", "log_dir", "num_gpus", "max_step"]


def test_platform_flags_have_the_sdk_defaults(run_py):
    values = _values(run_py, "from compat.flags import FLAGS", PLATFORM)
    assert values == {
        "work_dir": "/data",
        "data_dir": "/data/data",
        "output_dir": "/data/output",
        "log_dir": "/data/output",
        "num_gpus": 0,
        "max_step": 0,
    }


def test_platform_flags_parse_after_tensorflow_defined_log_dir(run_py):
    # TF imports absl.logging, which defines --log_dir first: the SDK's definition crashed here.
    imports = "import tensorflow as tf\nfrom uaitrain.arch.tensorflow import uflag\nFLAGS = tf.compat.v1.flags.FLAGS"
    values = _values(run_py, imports, PLATFORM, "--log_dir=/tmp/tb", "--num_gpus=2", "--data_dir", "/d")
    assert values["log_dir"] == "/tmp/tb"
    assert values["num_gpus"] == 2
    assert values["data_dir"] == "/d"


def test_dashed_names_set_underscore_flags(run_py):
    imports = """
import compat.flags as flags
flags.DEFINE_integer("train_batch_size", 128, "global batch")
flags.DEFINE_boolean("sync", False, "sync replicas")
FLAGS = flags.FLAGS
"""
    for args in (
        ["--train-batch-size=32", "--sync"],
        ["--train_batch_size=32", "--sync"],
        ["--train-batch-size", "32", "--sync"],
    ):
        values = _values(run_py, imports, ["train_batch_size", "sync"], *args)
        assert values == {"train_batch_size": 32, "sync": True}, args
    values = _values(run_py, imports, ["train_batch_size", "sync"], "--no-sync", "--max-step=7")
    assert values == {"train_batch_size": 128, "sync": False}


def test_dashed_names_through_tf_app_run(run_py):
    result = run_py(
        """
import tensorflow.compat.v1 as tf
from uaitrain.arch.tensorflow import uflag
tf.app.flags.DEFINE_integer("resnet_size", 50, "depth")
FLAGS = tf.app.flags.FLAGS
def main(argv):
    print(FLAGS.resnet_size, FLAGS.num_gpus, argv[1:])
tf.app.run(main)
""",
        "--resnet-size=101",
        "--num-gpus=4",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["101", "4", "[]"]


def test_redefining_a_platform_flag_with_the_same_type_works(run_py):
    imports = """
import compat.flags as flags
flags.DEFINE_string("data_dir", "/my/data", "where my data is")
flags.DEFINE_string("log_dir", "/my/logs", "tensorboard")
import absl.flags
absl.flags.DEFINE_integer("num_gpus", 1, "raw absl redefinition, as tf.app.flags would do")
FLAGS = flags.FLAGS
"""
    assert _values(run_py, imports, ["data_dir", "log_dir", "num_gpus"]) == {
        "data_dir": "/my/data",
        "log_dir": "/my/logs",
        "num_gpus": 1,
    }
    assert _values(run_py, imports, ["data_dir", "num_gpus"], "--data_dir=/x", "--num_gpus=3") == {
        "data_dir": "/x",
        "num_gpus": 3,
    }


def test_conflicting_redefinition_is_one_clear_error(run_py):
    result = run_py(
        """
import compat.flags as flags
from compat.errors import FlagConflictError
try:
    flags.DEFINE_integer("data_dir", 3, "not a path")
except FlagConflictError as err:
    print(err)
"""
    )
    assert result.returncode == 0, result.stderr
    message = result.stdout.strip()
    assert "\n" not in message
    assert "--data_dir" in message and "compat.flags._platform" in message
    assert "default='/data/data'" in message and "default=3" in message


def test_run_passes_unknown_arguments_to_main_like_tf_app_run(run_py):
    result = run_py(
        """
import compat.flags as flags
flags.DEFINE_float("learning_rate", 0.1, "lr")
flags.DEFINE_list("towers", ["a"], "names")
flags.DEFINE_enum("variable_strategy", "CPU", ["CPU", "GPU"], "where variables live")
flags.DEFINE_multi_string("tag", [], "tags")
def main(argv):
    F = flags.FLAGS
    print(F.learning_rate, F.towers, F.variable_strategy, F.tag, argv[1:])
flags.run(main)
""",
        "--learning-rate=0.5",
        "--towers=x,y",
        "--variable-strategy=GPU",
        "--tag=a",
        "--tag=b",
        "--unknown=1",
        "positional",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "0.5 ['x', 'y'] GPU ['a', 'b'] ['--unknown=1', 'positional']"


def test_reading_a_flag_before_parsing_parses_argv(run_py):
    result = run_py("from compat.flags import FLAGS\nprint(FLAGS.output_dir)\n", "--output-dir=/out", "--other")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "/out"


def test_bad_flag_value_is_a_clear_error_without_traceback(run_py):
    result = run_py(
        "import compat.flags as flags\nflags.run(lambda argv: print('ran'))\n",
        "--num_gpus=two",
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert "num_gpus" in result.stderr


def test_argparse_helper_adds_platform_flags_and_keeps_script_definitions(run_py):
    result = run_py(
        """
import argparse, json
from compat.flags import add_platform_flags
parser = argparse.ArgumentParser()
parser.add_argument("--data-dir", required=True)
parser.add_argument("--train-batch-size", type=int, default=128)
add_platform_flags(parser)
args = parser.parse_args()
print(json.dumps(vars(args), sort_keys=True))
""",
        "--data-dir=/d",
        "--num-gpus=2",
        "--log_dir=/logs",
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "data_dir": "/d",
        "log_dir": "/logs",
        "max_step": 0,
        "num_gpus": 2,
        "output_dir": "/data/output",
        "train_batch_size": 128,
        "work_dir": "/data",
    }


def test_uaitrain_alias_runs_an_unmodified_sdk_script(run_py):
    result = run_py(
        """
import os, json
import tensorflow.compat.v1 as tf
from uaitrain.arch.tensorflow import uflag
from uaitrain.arch.tensorflow import uai_dist
flags = tf.app.flags
FLAGS = flags.FLAGS
def main(_):
    parser = uai_dist.UAITensorFlowDistRunConfigParser()
    parser.load_cluster_config()
    print(json.dumps([FLAGS.output_dir, parser.get_task_id(), parser.get_worker_list(), parser.is_chief()]))
if __name__ == "__main__":
    tf.app.run()
""",
        "--output_dir=/o",
        env={
            "TF_CONFIG": json.dumps(
                {
                    "cluster": {"master": ["m:1"], "worker": ["w:2"], "ps": ["p:3"]},
                    "task": {"type": "worker", "index": 0},
                }
            )
        },
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == ["/o", 1, ["m:1", "w:2"], False]


SCRIPT_WITH_FLAGS = """
import compat.flags as flags
flags.DEFINE_integer("resnet_size", 50, "depth of the residual net")
flags.DEFINE_enum("variable_strategy", "CPU", ["CPU", "GPU"], "where variables live")
flags.DEFINE_string("data_dir", "/my/data", "where my records are")
flags.run(lambda argv: print("ran"))
"""


def test_help_lists_the_script_own_flags_as_absl_does(run_py):
    for option in ("--help", "--helpfull"):
        result = run_py(SCRIPT_WITH_FLAGS, option)
        assert "Traceback" not in result.stderr and "ran" not in result.stdout, result.stderr
        shown = result.stdout + result.stderr
        for text in ("--resnet_size", "depth of the residual net", "--variable_strategy", "where my records are"):
            assert text in shown, (option, text, shown[:3000])


def test_redefinition_with_another_type_at_import_is_one_line(run_py):
    result = run_py(
        'import compat.flags as flags\nflags.DEFINE_integer("data_dir", 3, "not a path")\nprint("went on")\n'
    )
    assert_one_line_error(result, "flag --data_dir is defined twice with different types")
    assert "went on" not in result.stdout


def test_a_bad_value_read_at_import_is_one_line(run_py):
    result = run_py("from compat.flags import FLAGS\nprint(FLAGS.num_gpus)\n", "--num_gpus=two")
    assert_one_line_error(result, "--num_gpus=two")


def test_tf_1_4_argparse_era_internals_parse_flags_and_the_flags_dict(run_py):
    """TF <= 1.4's flags were argparse: programs called `FLAGS._parse_flags()` (parse sys.argv, return the
    arguments it did not know) and read `FLAGS.__flags`, a dict of each flag's value, to print their settings.
    At module level `FLAGS.__flags` is that attribute name (only a class body would mangle it)."""
    result = run_py(
        """
import json
import compat.flags as flags
flags.DEFINE_integer("batch_size", 64, "batch")
flags.DEFINE_string("optimizer", "sgd", "optimizer")
FLAGS = flags.FLAGS
unparsed = FLAGS._parse_flags()
settings = {name: value for name, value in sorted(FLAGS.__flags.items()) if name in ("batch_size", "optimizer")}
FLAGS.__flags["batch_size"] = 8  # TF 1.4's dict was the flags' own values: writing it set the flag
print(json.dumps([unparsed, settings, FLAGS.batch_size]))
""",
        "--batch-size=32",
        "--unknown=1",
        "rest",
    )
    assert result.returncode == 0, result.stderr
    unparsed, settings, written = json.loads(result.stdout.strip().splitlines()[-1])
    assert unparsed == ["--unknown=1", "rest"]
    assert settings == {"batch_size": 32, "optimizer": "sgd"}
    assert written == 8


def test_without_parse_flags_the_flags_dict_is_absls_as_tf_1_5_programs_read_it(run_py):
    """TF >= 1.5 (absl) has no `_parse_flags`; its programs read `FLAGS.__flags[name].value`, absl's Flag objects."""
    result = run_py(
        """
import compat.flags as flags
flags.DEFINE_integer("batch_size", 64, "batch")
FLAGS = flags.FLAGS
FLAGS(["prog", "--batch_size=32"])
print(FLAGS.__flags["batch_size"].value)
"""
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "32"
