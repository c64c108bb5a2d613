"""Fixtures of tests/common (the helpers they use are in tests/support)."""

import os
import sys

import pytest

from tests.support import runs as _runs
from tests.support.programs import cifar10_args, write_cifar10_records

RUNTIME_PROGRAMS = os.path.join(os.path.dirname(__file__), "runtime_programs")


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory) -> str:
    """The cifar10_estimator example's train and eval TFRecords (tests.support.programs.write_cifar10_records)."""
    return write_cifar10_records(tmp_path_factory.mktemp("cifar10"))


@pytest.fixture(scope="session")
def cifar10_port_run(data_dir, tmp_path_factory):
    """(CompletedProcess, its job dir): runtime_programs/cifar10_estimator_tf1_migrated.py run once with python, as its
    user runs it (tests.support.programs.cifar10_args). Read by test_cifar10_tf1_program.py (the towers' placement, the
    evaluation) and test_uai_run_programs.py (the port's losses against the TF 1 program's under uai-run): the same
    command in both ran twice a suite before, 7 CPU-s each."""
    work = tmp_path_factory.mktemp("cifar10_port")
    port = os.path.join(RUNTIME_PROGRAMS, "cifar10_estimator_tf1_migrated.py")
    return _runs.run([sys.executable, port, *cifar10_args(data_dir, work / "job")], work), work / "job"
