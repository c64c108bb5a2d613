"""pytest plugin: the CPU seconds each test took, its own process's and the subprocesses it waited for.

CI's time is CPU shared by its jobs on two cores, and most of a test's CPU is in the TensorFlow processes
it starts, which pytest's --durations (wall time) does not separate from waiting for a core. Enabled with
`PYTEST_ADDOPTS="-p tests.support.cpu_times" UAI_CPU_TIMES=DIR` (e.g. around `CI=true bash .ci/run`):
each pytest process appends a JSON line per test to DIR/<pid>.jsonl; `python bench/ci_cpu.py DIR` sums them.
A row's "setup" is the part of its CPU spent setting up its fixtures: a module or session fixture is charged to the
first test that asks for it (ci31's 169 CPU-s of test_corpus.py's estimator_towers case were the corpus run under
uai-run of tests/conftest.py, the script itself 4-5 CPU-s a run).
"""

import json
import os
import resource
import time

import pytest

ENV = "UAI_CPU_TIMES"


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


SETUP = pytest.StashKey[float]()


def _both() -> float:
    return _cpu(resource.RUSAGE_SELF) + _cpu(resource.RUSAGE_CHILDREN)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item):
    before = _both()
    yield
    item.stash[SETUP] = _both() - before


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    folder = os.environ.get(ENV)
    before = (_cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN), time.monotonic())
    yield
    if not folder:
        return
    own, children, wall = (
        _cpu(resource.RUSAGE_SELF) - before[0],
        _cpu(resource.RUSAGE_CHILDREN) - before[1],
        time.monotonic() - before[2],
    )
    job = os.environ.get("UAI_TEST_ENV", "?") + " " + os.path.basename(os.environ.get("VIRTUAL_ENV", ""))
    row = {"job": job, "pid": os.getpid(), "test": item.nodeid, "own": own, "children": children, "wall": wall}
    row["setup"] = item.stash.get(SETUP, 0.0)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"{os.getpid()}.jsonl"), "a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")
