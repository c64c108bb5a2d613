"""The project's two TensorFlow environments, one nox session (and one venv) each.

    nox -s lint tf1 tf2 tfrange-2.18   # lint, both test suites, the TF 2.18 smoke (what `python3 dev.py test` runs)
    nox -s tf2 -- demo             # a task other than the tests, in that environment's venv
    nox -s tf2 -- tests -k flags   # the tests, with pytest arguments
    nox -s tf2 -- tests --part=2   # one part of the suite (SUITES): tests/tf2 (but one file) and tests/codemods
    nox -s lint                    # ruff check, ruff format --check, mypy (what `python3 dev.py lint` runs)
    nox -s tf115 tf1 tf2 -- reference   # bench/reference.py --check --quick, once the three venvs exist
    nox -s tfrange-2.18            # the TF-range smoke on one release (-t tfrange: on all of them)

  tf1: tensorflow-cpu 2.15.1 (real Estimator, Keras 2.15) + tf-slim
  tf2: tensorflow-cpu 2.21.0 + tf-keras / tensorflow-estimator 2.15 (--no-deps) + tf-slim + libcst
  tf115: tensorflow-cpu 1.15.0 on Python 3.7, the reference that runs original TF1 programs (not in CI);
        with tf1 and tf2, the `reference` task (bench/reference.py; `python3 dev.py reference`)
  tfrange-2.16 ... tfrange-2.20: each TensorFlow release between the suites' two, with its tf-keras, the
        Estimator (--no-deps) and tf-slim; runs `python -m compat doctor` and RANGE_SMOKE (CI runs
        tfrange-2.18 beside the suites; `nox -t tfrange` or `python3 dev.py test --all-tf` runs them all)
  python-3.10, python-3.12: the tf2 environment's TF 2.21 stack on the other Pythons pyproject allows, the
        same doctor and smoke (tagged tfrange too)
  lint: ruff + mypy (requirements/lint.txt); no TensorFlow, the project is read, not imported;
        then `python -m build`'s sdist and wheel checked by twine and check-wheel-contents
One session per environment (not per task) so every task reuses the environment's venv.
"""

import glob
import os
import shutil

import nox
import nox.command

nox.options.default_venv_backend = "venv"
nox.options.reuse_venv = "yes"
nox.options.sessions = ["lint", "tf1", "tf2", "tfrange-2.18"]

HERE = os.path.dirname(os.path.abspath(__file__))
# tests/common runs in both environments; each environment adds its own folders. An environment's suite
# is split in parts that `python3 dev.py test` runs side by side in the one venv (`tests --part=K`): the tf2
# suite is about 1.7x the tf1 suite, and run whole it left one core idle for its last third. A part may name
# a file of another part's folder, which that part then leaves out (suite_paths): tf2's part 2 was the last
# job of ci22 by 2.8 min over part 1, so part 1 also runs the three clusters of test_modern_distributed.py
# (78 s of CPU here); part 2 still ended last in ci24 (37.4 min, part 1 33.7), and it also computes the
# runs both parts share (tests/support/once.py: it asks first), so part 1 also runs the ResNet, Estimator
# and seq2seq ports (53 s of CPU). ci26 still ended on part 2, by 1.8 min, and the native rules' equivalence
# runs added since are part 2's: part 1 also runs native-layers' and tf-slim's learning.train's (about 90 s).
# ci29 (per-test CPU, tests/support/cpu_times.py): part 2 1483 s of CPU, part 1 1248, and its last 2 minutes
# alone kept one core half idle: part 1 also runs native-session's equivalence and dtype runs (121 s).
# ci30: part 1 1438 s, part 2 1495, tf1 1203; then part 1 gave 43 s to tf1 (TF_FREE below) and about 70 s to cuts
# (the TF-free files run once, the bad-input runs of our programs before TensorFlow, one PS cluster less): part 1 also runs
# tests/codemods/test_realworld.py (78 s), about 1420 s each.
SUITES = {
    "tf1": [["tests/common"]],
    "tf2": [
        [
            "tests/common",
            "tests/tf2/test_modern_distributed.py",
            "tests/tf2/test_tf1_programs_ported.py",
            "tests/tf2/test_seq2seq_port.py",
            "tests/codemods/test_rule_native_layers.py",
            "tests/codemods/test_native_slim_loops.py",
            "tests/codemods/test_native_equivalence.py",
            "tests/codemods/test_native_pipeline_dtypes.py",
            "tests/codemods/test_realworld.py",
        ],
        ["tests/tf2", "tests/codemods"],
    ],
}
# Files of tests/common whose behaviour no TensorFlow enters (uai-launch's processes, TF_CONFIG parsing, the
# source-reading checks of layering, architecture and docs/adding.md, uai-run's and compat.flags' command lines
# fuzzed with TensorFlow-free programs, the CLI error edge, uai_dist, tests/support/once.py): one environment runs
# them, the other leaves them out. tf1 runs them: ci30 ended on tf2's part 1, 4.2 min after tf1 (these files:
# 43 s of CPU in tf1, measured; the last five ran in both suites before, 9 s of it).
TF_FREE = [
    "tests/common/test_adding_doc.py",
    "tests/common/test_architecture.py",
    "tests/common/test_ci_cpu.py",
    "tests/common/test_cli_errors.py",
    "tests/common/test_dist.py",
    "tests/common/test_flags_fuzz.py",
    "tests/common/test_launch.py",
    "tests/common/test_launch_descendants.py",
    "tests/common/test_launch_fuzz.py",
    "tests/common/test_layering.py",
    "tests/common/test_once.py",
    "tests/common/test_tf_config.py",
    "tests/common/test_tf_config_dialects.py",
    "tests/common/test_tf_config_fuzz.py",
    "tests/common/test_tf_config_properties.py",
    "tests/common/test_uai_run_fuzz.py",
]
TF_FREE_RUN_IN = "tf1"
PART = "--part="
# task -> command run in the environment; extra arguments after the task name are appended.
# "tests" (the default task) is built from SUITES instead.
COMMANDS = {
    "demo": ["python", "demo.py"],
    "bench": ["python", "bench/run_all.py"],
}
# "reference" (bench/reference.py against real TF 1.15) needs the tf115, tf1 and tf2 venvs: tf115 and tf1
# only install theirs for it, tf2 runs it (`nox -s tf115 tf1 tf2 -- reference`: in that order); without a
# choice of programs it runs the fast subset, and judges the first losses (--check).
REFERENCE = "reference"
REFERENCE_COMMAND = ["python", "bench/reference.py", "--check"]
REFERENCE_RUNS_IN = "tf2"
TASKS = ["tests", *COMMANDS, REFERENCE]
# What the lint session runs; mypy's files and options are in pyproject.toml ([tool.mypy]).
LINTERS = [
    ["ruff", "check", "."],
    ["ruff", "format", "--check", "."],
    ["mypy"],
]


# env -> the `pip install` arguments, in order; docker/<env>.Dockerfile runs the same
# (tests/tf2/test_docker.py reads this table).
INSTALLS = {
    "tf1": [["-r", "requirements/tf1.txt"]],
    "tf2": [["-r", "requirements/tf2.txt"], ["--no-deps", "-r", "requirements/tf2-nodeps.txt"]],
}
PROJECT = ["--no-deps", "--no-build-isolation", "-e", "."]


def install(session: nox.Session, env: str) -> None:
    for args in (*INSTALLS[env], PROJECT):
        session.install("-q", *args)


def run_task(session: nox.Session, env: str) -> None:
    install(session, env)
    args = list(session.posargs)
    task = args.pop(0) if args and args[0] in TASKS else "tests"
    if task == "tests":
        part = int(args.pop(0)[len(PART) :]) if args and args[0].startswith(PART) else None
        paths = suite_paths(SUITES[env], part)
        if env != TF_FREE_RUN_IN:
            paths += [f"--ignore={path}" for path in TF_FREE]
        session.run("python", "-m", "pytest", "--durations=12", *paths, *args, env={"UAI_TEST_ENV": env})
    elif task == REFERENCE:
        if env == REFERENCE_RUNS_IN:
            session.run(*reference_command(args))
    else:
        session.run(*COMMANDS[task], *args)


def suite_paths(parts: list[list[str]], part: int | None) -> list[str]:
    """pytest's paths for a suite's part K (1-based), or for the whole suite (None): a part's folder leaves out
    the files other parts name in it. The whole suite needs no such option: pytest collects a file once when
    it is named beside its folder."""
    if part is None:
        return [path for paths in parts for path in paths]
    chosen = parts[part - 1]
    named = [path for k, paths in enumerate(parts, 1) if k != part for path in paths]
    return [*chosen, *(f"--ignore={path}" for path in named if any(path.startswith(f"{own}/") for own in chosen))]


def reference_command(args: list[str]) -> list[str]:
    """bench/reference.py --check with `args`, and --quick unless they choose the programs."""
    chosen = any(arg in ("--all", "--quick", "--only") or arg.startswith("--only=") for arg in args)
    return [*REFERENCE_COMMAND, *([] if chosen else ["--quick"]), *args]


@nox.session
def tf1(session: nox.Session) -> None:
    """TF 2.15 (real Estimator): runs tests/common, or the task named after `--`."""
    run_task(session, "tf1")


@nox.session
def tf2(session: nox.Session) -> None:
    """TF 2.21: runs tests/common + tests/tf2 + tests/codemods, or the task named after `--`."""
    run_task(session, "tf2")


# The TF range: the releases users run between the suites' TF 2.15 and 2.21, one session and venv each
# (`nox -s tfrange-2.16`; all: `nox -t tfrange`). Each installs requirements/tf<release>.txt and, with
# --no-deps, tf<release>-nodeps.txt (its tf-keras and tensorflow-estimator 2.15), as tf2 does, then runs
# the doctor (which must find nothing missing) and RANGE_SMOKE. CI runs one, a middle release (dev.py
# CI_RANGE): each release takes 5-15 min (install and smoke) on two shared cores (README, "What runs where").
RANGE = ["2.16", "2.17", "2.18", "2.19", "2.20"]
# What the range runs: compat's claims on a release, in tests that take seconds each. Import orders
# (legacy Keras chosen whenever compat comes), the doctor, Estimator and TPUEstimator (use_tpu=False)
# through compat, the graph seed, a text tf.io.write_graph, tf-slim's repair of TF's private names, the
# bundled samples unmodified under uai-run and after uai-migrate (its tables are TensorFlow's 2.21 ones,
# so the ports are those made on 2.21, run on the release), the legacy ResNet and slim programs, a
# checkpoint conversion the modern ResNet resumes from, and the modern slim program.
RANGE_SMOKE = [
    "tests/common/test_runtime_order.py",
    "tests/common/test_doctor.py",
    "tests/common/test_runtime_estimator.py",
    "tests/common/test_runtime_tpu.py",
    "tests/common/test_runtime_graph_seed.py",
    "tests/common/test_runtime_write_graph.py",
    "tests/common/test_private_internals.py",
    "tests/common/test_uai_run_programs.py::test_samples_run_unmodified",
    "tests/tf2/test_uai_run_migrate.py::test_each_sample_trains_under_uai_run_with_the_losses_of_its_port",
    "tests/common/test_legacy_imagenet.py::test_single_device_trains_evaluates_and_exports",
    "tests/common/test_legacy_slim.py::test_trains_loss_falls_and_checkpoint_reloads",
    "tests/common/test_checkpoints_convert.py::test_convert_keeps_the_predictions_and_the_modern_program_resumes",
    "tests/tf2/test_modern_programs.py::test_slim_main_trains_a_slim_zoo_net",
]


def smoke_session(name: str, what: str, requirements: list[list[str]], python: str | None = None) -> None:
    """Register the session `name`: install `requirements` (pip arguments, in order) and the project, run the
    doctor (which must find nothing missing) and RANGE_SMOKE."""

    def run(session: nox.Session) -> None:
        for args in (*requirements, PROJECT):
            session.install("-q", *args)
        session.run("python", "-m", "compat", "doctor")
        env = {"UAI_TEST_ENV": name}
        session.run("python", "-m", "pytest", "--durations=5", *RANGE_SMOKE, *session.posargs, env=env)

    run.__doc__ = f"{what}: the doctor and the TF-range smoke."
    nox.session(name=name, python=python, tags=["tfrange"])(run)


def range_session(release: str) -> None:
    """Register the session `tfrange-<release>`."""
    requirements = [
        ["-r", f"requirements/tf{release}.txt"],
        ["--no-deps", "-r", f"requirements/tf{release}-nodeps.txt"],
    ]
    smoke_session(f"tfrange-{release}", f"TF {release} with tf-keras, the Estimator and tf-slim", requirements)


for _release in RANGE:
    range_session(_release)


def pyenv_python(version: str) -> str:
    """The interpreter of Python `version` (e.g. "3.7"): $UAI_PYTHON<digits>, else pyenv's newest of that
    release (nox's discovery does not find it by name, and pyenv's `python3.7` shim fails unless that version
    is the selected one), else whatever nox finds for `version`."""
    variable = "UAI_PYTHON" + version.replace(".", "")
    if os.environ.get(variable):
        return os.environ[variable]
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found = glob.glob(os.path.join(root, "versions", f"{version}.*", "bin", f"python{version}"))
    newest = sorted(found, key=lambda path: [int(n) for n in path.split(os.sep)[-3].split(".") if n.isdigit()])
    return newest[-1] if newest else version


# The Python releases pyproject allows besides the suites' 3.11: the tf2 environment's TF 2.21 stack on each,
# and the same smoke (`nox -s python-3.12`; tagged with the TF range, so `python3 dev.py tfrange` runs them).
PYTHONS = ["3.10", "3.12"]
for _python in PYTHONS:
    smoke_session(
        f"python-{_python}",
        f"Python {_python} with the tf2 environment's TF 2.21 stack",
        INSTALLS["tf2"],
        python=pyenv_python(_python),
    )


# The reference environment: real TensorFlow 1.15 on Python 3.7 (requirements/tf115.txt). It runs original
# TF1 programs only; the project is not installed there (it needs Python >= 3.9). Not in the default
# sessions or CI; `python3 dev.py tf115` runs it.
# task -> command; extra arguments after the task name are appended ("python": any program, as written).
TF115_COMMANDS = {
    "golden": ["python", "tests/common/golden/make_tf115_goldens.py"],
    "python": ["python"],
    REFERENCE: [],  # the venv only: bench/reference.py runs in the tf2 session (above)
}


@nox.session(python=pyenv_python("3.7"))
def tf115(session: nox.Session) -> None:
    """TF 1.15 on Python 3.7, the reference: writes the golden files (default), or runs the task named
    after `--` (`python <program>`: a TF1 program as written). bench/reference.py uses this venv too."""
    session.install("-q", "-r", "requirements/tf115.txt")
    args = list(session.posargs)
    task = args.pop(0) if args and args[0] in TF115_COMMANDS else "golden"
    if TF115_COMMANDS[task]:
        session.run(*TF115_COMMANDS[task], *args)


def distribution_checks(session: nox.Session) -> list[list[str]]:
    """Build the sdist and, from it, the wheel (as an index would get them); the commands that check them."""
    out = os.path.join(session.create_tmp(), "dist")
    # an earlier run's files would be checked in place of this run's
    shutil.rmtree(out, ignore_errors=True)
    session.run("python", "-m", "build", "--outdir", out, HERE, silent=True)
    if not os.path.isdir(out):
        return []  # `nox --install-only` runs no command, so nothing was built to check
    built = sorted(os.path.join(out, name) for name in os.listdir(out))
    wheels = [path for path in built if path.endswith(".whl")]
    # check-wheel-contents reads its options from pyproject.toml in the folder it runs in
    return [["twine", "check", "--strict", *built], ["check-wheel-contents", *wheels]]


def run_each(session: nox.Session, commands: list[list[str]], failed: list[str]) -> None:
    for command in commands:
        try:
            session.run(*command)
        except nox.command.CommandFailed:
            # the built files' paths are long and the same for every command
            failed.append(" ".join(arg for arg in command if not os.path.isabs(arg)))


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check, ruff format --check and mypy over the whole tree, then the sdist and the wheel built and
    checked (each runs even if one before failed)."""
    session.install("-q", "-r", "requirements/lint.txt")
    failed: list[str] = []
    run_each(session, LINTERS, failed)
    try:
        checks = distribution_checks(session)
    except nox.command.CommandFailed:
        checks = []
        failed.append("python -m build")
    run_each(session, checks, failed)
    if failed:
        session.error("failed: " + "; ".join(failed))
