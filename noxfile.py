"""The project's two TensorFlow environments, one nox session (and one venv) each.

    nox -s lint tf1 tf2            # lint, then both test suites (what `python3 dev.py test` runs)
    nox -s tf2 -- demo             # a task other than the tests, in that environment's venv
    nox -s tf2 -- tests -k flags   # the tests, with pytest arguments
    nox -s lint                    # ruff check, ruff format --check, mypy (what `python3 dev.py lint` runs)

  tf1: tensorflow-cpu 2.15.1 (real Estimator, Keras 2.15) + tf-slim
  tf2: tensorflow-cpu 2.21.0 + tf-keras / tensorflow-estimator 2.15 (--no-deps) + tf-slim + libcst
  tf115: tensorflow-cpu 1.15.0 on Python 3.7, the reference that runs original TF1 programs (not in CI)
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
nox.options.sessions = ["lint", "tf1", "tf2"]

HERE = os.path.dirname(os.path.abspath(__file__))
# tests/common runs in both environments; each environment adds its own folders.
SUITES = {
    "tf1": ["tests/common"],
    "tf2": ["tests/common", "tests/tf2", "tests/codemods"],
}
# task -> command run in the environment; extra arguments after the task name are appended.
# "tests" (the default task) is built from SUITES instead.
COMMANDS = {
    "demo": ["python", "demo.py"],
    "bench": ["python", "bench/run_all.py"],
}
TASKS = ["tests", *COMMANDS]
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
        paths = SUITES[env]
        session.run("python", "-m", "pytest", "--durations=12", *paths, *args, env={"UAI_TEST_ENV": env})
    else:
        session.run(*COMMANDS[task], *args)


@nox.session
def tf1(session: nox.Session) -> None:
    """TF 2.15 (real Estimator): runs tests/common, or the task named after `--`."""
    run_task(session, "tf1")


@nox.session
def tf2(session: nox.Session) -> None:
    """TF 2.21: runs tests/common + tests/tf2 + tests/codemods, or the task named after `--`."""
    run_task(session, "tf2")


# The reference environment: real TensorFlow 1.15 on Python 3.7 (requirements/tf115.txt). It runs original
# TF1 programs only; the project is not installed there (it needs Python >= 3.9). Not in the default
# sessions or CI; `python3 dev.py tf115` runs it.
# task -> command; extra arguments after the task name are appended ("python": any program, as written).
TF115_COMMANDS = {
    "golden": ["python", "tests/common/golden/make_tf115_random.py"],
    "python": ["python"],
}


def python37() -> str:
    """The Python 3.7 interpreter: $UAI_PYTHON37, else pyenv's 3.7 (nox's discovery does not find it by name,
    and pyenv's `python3.7` shim fails unless 3.7 is the selected version), else whatever nox finds for 3.7."""
    if os.environ.get("UAI_PYTHON37"):
        return os.environ["UAI_PYTHON37"]
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found = glob.glob(os.path.join(root, "versions", "3.7.*", "bin", "python3.7"))
    newest = sorted(found, key=lambda path: [int(n) for n in path.split(os.sep)[-3].split(".") if n.isdigit()])
    return newest[-1] if newest else "3.7"


@nox.session(python=python37())
def tf115(session: nox.Session) -> None:
    """TF 1.15 on Python 3.7, the reference: writes the golden random draws (default), or runs the task named
    after `--` (`python <program>`: a TF1 program as written). bench/reference.py uses this venv too."""
    session.install("-q", "-r", "requirements/tf115.txt")
    args = list(session.posargs)
    task = args.pop(0) if args and args[0] in TF115_COMMANDS else "golden"
    session.run(*TF115_COMMANDS[task], *args)


def distribution_checks(session: nox.Session) -> list[list[str]]:
    """Build the sdist and, from it, the wheel (as an index would get them); the commands that check them."""
    out = os.path.join(session.create_tmp(), "dist")
    # an earlier run's files would be checked in place of this run's
    shutil.rmtree(out, ignore_errors=True)
    session.run("python", "-m", "build", "--outdir", out, HERE, silent=True)
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
