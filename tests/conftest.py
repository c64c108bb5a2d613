"""Shared fixtures (the helpers they use are in tests/support)."""

import pytest

from tests.support.once import once
from tests.support.processes import run_script


@pytest.fixture(scope="session")
def program_data(tmp_path_factory):
    """A small generated ImageNet-schema data set (`tests.support.programs.generate_data`), one per session: the
    programs only read it."""
    from tests.support.programs import generate_data

    return generate_data(tmp_path_factory.mktemp("data"))


@pytest.fixture
def run_py(tmp_path):
    def run(source, *args, env=None, timeout=300):
        return run_script(tmp_path, source, args, env=env, timeout=timeout)

    return run


# -- runs shared by tests/common and the tf2 suite's port comparisons: once per test command and
# environment when dev.py runs the suite in parts (tests/support/once.py), else once per pytest session --


@pytest.fixture(scope="session")
def corpus_data(tmp_path_factory) -> str:
    """The corpus' generated TFRecords (bench/corpus.generate_data); every run that is
    compared with another reads these same files."""
    from bench import corpus

    return once("corpus_data", tmp_path_factory, lambda folder: corpus.generate_data(str(folder)))


@pytest.fixture(scope="session")
def samples_under_uai_run(tmp_path_factory, corpus_data):
    """The bundled TF1 samples run unmodified under uai-run (tests/support/uai_run.run_samples)."""
    from tests.support.uai_run import run_samples

    return once("samples_under_uai_run", tmp_path_factory, lambda folder: run_samples(corpus_data, folder))


@pytest.fixture(scope="session")
def samples_after_uai_migrate(tmp_path_factory, corpus_data):
    """The bundled TF1 samples as uai-migrate ports them, run on the data the unmodified runs read
    (tests/support/uai_run.run_ported_samples): compared with samples_under_uai_run, and run by the demo test."""
    from tests.support.uai_run import run_ported_samples

    return once("samples_after_uai_migrate", tmp_path_factory, lambda folder: run_ported_samples(corpus_data, folder))


@pytest.fixture(scope="session")
def corpus_under_uai_run(tmp_path_factory, corpus_data):
    """Every runnable corpus script run unmodified under `uai-run --auto` (tests/support/uai_run.run_corpus)."""
    from tests.support.uai_run import run_corpus

    return once("corpus_under_uai_run", tmp_path_factory, lambda folder: run_corpus(corpus_data, folder))
