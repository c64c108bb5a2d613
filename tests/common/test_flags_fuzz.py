"""compat.flags against adversarial argv and definitions: in-process on a fresh `FlagValues`, and a few real runs.

Whatever the command line, parsing either returns the arguments left for `main` or ends with
one line on stderr and exit 2; a script run with it exits 0, 1 (absl's --help) or 2, never a traceback.
"""

import pytest
from absl import flags as absl_flags
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import compat.flags as flags
from compat.errors import FlagConflictError
from compat.flags._platform import register_platform_flags
from compat.flags._registry import parse_known_or_exit
from tests.support.processes import assert_one_line_error

ODD = ["\u00b2", "\u0662", "\uff11", "1e3", "-1", "", " ", "nan", "inf", "true", "0x1f", "a,b", "--", "=", "9" * 5000]


def _fresh():
    fv = absl_flags.FlagValues()
    register_platform_flags(fv)
    flags.DEFINE_integer("train_batch_size", 128, "global batch", flag_values=fv)
    flags.DEFINE_float("learning_rate", 0.1, "lr", flag_values=fv)
    flags.DEFINE_boolean("sync", False, "sync replicas", flag_values=fv)
    flags.DEFINE_enum("variable_strategy", "CPU", ["CPU", "GPU"], "where variables live", flag_values=fv)
    flags.DEFINE_list("towers", ["a"], "names", flag_values=fv)
    flags.DEFINE_multi_string("tag", [], "tags", flag_values=fv)
    return fv


NAMES = ["train_batch_size", "train-batch-size", "learning_rate", "sync", "nosync", "no-sync", "variable-strategy"]
NAMES += ["towers", "tag", "num_gpus", "num-gpus", "log_dir", "data-dir", "unknown", "", "-", "=x"]
values = st.one_of(st.sampled_from(ODD), st.text(max_size=6), st.integers(-5, 10).map(str))
tokens = st.one_of(
    st.builds(lambda d, n, v: f"{d}{n}={v}", st.sampled_from(["--", "-"]), st.sampled_from(NAMES), values),
    st.builds(lambda d, n: f"{d}{n}", st.sampled_from(["--", "-"]), st.sampled_from(NAMES)),
    values,
)
argvs = st.lists(tokens, max_size=6).map(lambda rest: ["prog", *rest])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(argvs)
@example(["prog", "--num_gpus=\u00b2"])
@example(["prog", "--train-batch-size", "\u0662"])
@example(["prog", "--variable_strategy=TPU"])
@example(["prog", "--train_batch_size=\x85"])
@example(["prog", "--nosync=1"])
def test_any_argv_parses_or_is_one_line_with_exit_2(capsys, argv):
    fv = _fresh()
    capsys.readouterr()
    try:
        rest = parse_known_or_exit(argv, fv)
    except SystemExit as stop:
        err = capsys.readouterr().err
        assert stop.code == 2 and len(err.splitlines()) == 1 and "error: " in err, err
    else:
        assert rest[0] == "prog" and set(rest[1:]) <= set(argv[1:])
        assert isinstance(fv.train_batch_size, int) and isinstance(fv.num_gpus, int)
        assert fv.variable_strategy in ("CPU", "GPU") and isinstance(fv.sync, bool)


def test_redefining_an_enum_with_other_values_says_which():
    fv = absl_flags.FlagValues()
    flags.DEFINE_enum("variable_strategy", "CPU", ["CPU", "GPU"], "where", flag_values=fv)
    flags.DEFINE_enum("variable_strategy", "GPU", ["CPU", "GPU"], "same values: fine", flag_values=fv)
    with pytest.raises(FlagConflictError) as info:
        flags.DEFINE_enum("variable_strategy", "CPU", ["CPU", "TPU"], "other values", flag_values=fv)
    message = str(info.value)
    assert "--variable_strategy" in message and "\n" not in message
    assert "['CPU', 'GPU']" in message and "['CPU', 'TPU']" in message, message


SCRIPT = """
import compat.flags as flags
flags.DEFINE_integer("train_batch_size", 128, "global batch")
flags.DEFINE_enum("variable_strategy", "CPU", ["CPU", "GPU"], "where variables live")
print(flags.FLAGS.train_batch_size)
flags.run(lambda argv: print("ran", argv[1:]))
"""


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(argvs)
@example(["prog", "--train-batch-size=\u00b2"])
@example(["prog", "--helpfull"])
@example(["prog", "--train_batch_size=\u2028"])
@example(["prog", "--variable_strategy=TPU", "--num_gpus=two"])
def test_a_script_exits_0_1_or_one_line_with_2(run_py, argv):
    result = run_py(SCRIPT, *argv[1:], timeout=120)
    assert result.returncode in (0, 1, 2) and "Traceback" not in result.stderr, result.stderr
    if result.returncode == 2:
        assert_one_line_error(result, "error: ")
