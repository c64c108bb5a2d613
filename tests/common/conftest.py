"""Fixtures of tests/common (the helpers they use are in tests/support)."""

import pytest

from tests.support.programs import write_cifar10_records


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> str:
    """The cifar10_estimator example's train and eval TFRecords (tests.support.programs.write_cifar10_records)."""
    return write_cifar10_records(tmp_path_factory.mktemp("cifar10"))
