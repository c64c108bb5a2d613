"""The project's environments and tasks. `python3 dev.py <task>` runs these without nox installed.

Two TensorFlow environments, each one venv reused by every session that needs it:
  tf1: tensorflow-cpu 2.15.1 (real Estimator, Keras 2.15) + tf-slim
  tf2: tensorflow-cpu 2.21.0 + tf-keras / tensorflow-estimator 2.15 (--no-deps) + tf-slim + libcst
"""

import os

import nox

nox.options.default_venv_backend = "venv"
nox.options.reuse_venv = "yes"
nox.options.sessions = ["tests-tf1", "tests-tf2"]
nox.options.error_on_missing_interpreters = True

HERE = os.path.dirname(os.path.abspath(__file__))
# tests/common runs in both environments; each environment adds its own folders.
SUITES = {
    "tf1": ["tests/common", "tests/tf1"],
    "tf2": ["tests/common", "tests/tf2", "tests/codemods"],
}


def install(session, env):
    session.install("-q", "-r", f"requirements/{env}.txt")
    if env == "tf2":
        session.install("-q", "--no-deps", "-r", "requirements/tf2-nodeps.txt")
    session.install("-q", "--no-deps", "--no-build-isolation", "-e", ".")


def _pytest(session, env):
    install(session, env)
    paths = [p for p in SUITES[env] if os.path.isdir(os.path.join(HERE, p))]
    session.run("python", "-m", "pytest", *paths, *session.posargs, env={"UAI_TEST_ENV": env})


@nox.session(name="tests-tf1", venv_location=".nox/tf1")
def tests_tf1(session):
    """The suite for TF 2.15 (real Estimator): tests/common + tests/tf1."""
    _pytest(session, "tf1")


@nox.session(name="tests-tf2", venv_location=".nox/tf2")
def tests_tf2(session):
    """The suite for TF 2.21: tests/common + tests/tf2 + tests/codemods."""
    _pytest(session, "tf2")


@nox.session(name="env-tf1", venv_location=".nox/tf1")
def env_tf1(session):
    """Create or update the tf1 environment only."""
    install(session, "tf1")


@nox.session(name="env-tf2", venv_location=".nox/tf2")
def env_tf2(session):
    """Create or update the tf2 environment only."""
    install(session, "tf2")
