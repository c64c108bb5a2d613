"""uai-launch's command line, fuzzed: a bad one is refused (exit 2, no traceback), a good one runs.

In-process, `parse` (checks only) and `main --print-config` meet thousands of argument lists;
through the real command, a few of them start real tasks (`true`, `false`, a shell) in a
scratch folder. The values aim at what broke before: negative, NaN and infinite timeouts,
huge counts, invalid Kubernetes names, empty and unwritable paths, missing commands.
"""

import contextlib
import io
import os
import subprocess
import sys
import tempfile

from hypothesis import example, given, settings
from hypothesis import strategies as st

from compat.errors import CompatError
from tests.support.processes import python_env
from uai_launch import LAUNCH_DIALECTS
from uai_launch.cli import main, parse

odd_numbers = st.sampled_from(["nan", "inf", "-inf", "1e400", "-5", "0", "0.001", "2.5", "", " ", "\u00b2", "\u0662"])
counts = st.one_of(st.integers(-3, 300).map(str), st.integers(10**5, 10**30).map(str), odd_numbers)
names = st.one_of(st.from_regex(r"[a-z0-9][-a-z0-9]{0,70}", fullmatch=True), st.sampled_from(["Bad_Name!", "-x", ""]))
# Paths inside the scratch folder the real runs use, one the kernel refuses to create, and a file.
paths = st.sampled_from(["", "logs", "a/b", "a_file", "a_file/sub", "/proc/uai-launch-fuzz", "job.json", "."])
VALUES = {
    "--chief": counts,
    "--workers": counts,
    "--ps": counts,
    "--dialect": st.sampled_from([*LAUNCH_DIALECTS, "MASTER", "tf", ""]),
    "--timeout": odd_numbers,
    "--log-dir": paths,
    "--kubeflow": paths,
    "--image": st.sampled_from(["", "registry.example/train:1"]),
    "--name": names,
}
FLAGS = ["--evaluator", "--keep-going", "--print-config"]
COMMANDS = [[], ["true"], ["false"], ["sh", "-c", "echo $TF_CONFIG"], ["uai-no-such-program"], ["./not_executable.sh"]]


def options(values=None):
    """Lists of uai-launch options, each followed by its value (`--name=V`: values may start with '-')."""
    values = dict(VALUES, **(values or {}))
    option = st.one_of(
        st.sampled_from(sorted(values)).flatmap(lambda name: values[name].map(lambda value: [f"{name}={value}"])),
        st.sampled_from(FLAGS).map(lambda flag: [flag]),
    )
    return st.lists(option, max_size=6).map(lambda parts: [arg for part in parts for arg in part])


def _outcome(call):
    """(exit code, stderr) of an in-process entry point: its return value or its SystemExit."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            code = call()
        except SystemExit as exit_:
            code = exit_.code
    return code, err.getvalue()


@settings(max_examples=300, deadline=None)
@given(options({"--log-dir": st.text(max_size=8), "--kubeflow": st.text(max_size=8)}), st.sampled_from(COMMANDS))
@example(["--timeout=-5"], ["true"])
@example(["--timeout=nan"], ["true"])
@example(["--kubeflow=job.json", "--image=i", "--name=Bad_Name!"], ["true"])
@example(["--workers=100000"], ["true"])
def test_parse_accepts_or_raises_only_the_compat_error(argv, command):
    def call():
        try:
            parse([*argv, "--", *command])
        except CompatError as err:
            assert str(err) and "\n" not in str(err)
            return 2
        return 0

    code, _ = _outcome(call)
    assert code in (0, 2)  # 2 with argparse's own usage error too


@settings(max_examples=100, deadline=None)
@given(options())
@example(["--workers=100000"])
@example(["--workers=300"])
def test_print_config_prints_or_refuses_in_one_line(argv):
    code, err = _outcome(lambda: main([*argv, "--print-config"]))
    assert code in (0, 2), err
    assert code == 0 or "error:" in err.splitlines()[-1]


@settings(max_examples=12, deadline=None)
@given(options(), st.sampled_from(COMMANDS))
@example(["--workers=100000"], ["true"])
@example(["--log-dir=a_file"], ["true"])
@example(["--kubeflow=/proc/uai-launch-fuzz", "--image=i"], ["true"])
def test_the_command_exits_0_1_or_2_and_never_with_a_traceback(argv, command):
    with tempfile.TemporaryDirectory() as scratch:
        with open(os.path.join(scratch, "a_file"), "w"), open(os.path.join(scratch, "not_executable.sh"), "w"):
            pass
        result = subprocess.run(
            [sys.executable, "-m", "uai_launch", *argv, "--", *command],
            capture_output=True,
            text=True,
            env=python_env({"TMPDIR": scratch}),  # (the logs' temporary folder, without --log-dir: removed with it)
            cwd=scratch,
            timeout=120,
        )
    allowed = {0, 1, 2} | ({124} if any(arg.startswith("--timeout=") for arg in argv) else set())
    assert result.returncode in allowed, result.stderr
    assert "Traceback" not in result.stderr and "Exception" not in result.stderr, result.stderr
