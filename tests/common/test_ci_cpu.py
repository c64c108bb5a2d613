"""tests/support/cpu_times.py and bench/ci_cpu.py: a test's CPU includes the subprocesses it waited for."""

import subprocess
import sys

from bench import ci_cpu
from tests.support.processes import REPO

TESTS = """
import subprocess, sys

import pytest

SPIN = [sys.executable, "-c", "import time\\nend = time.process_time() + 0.5\\nwhile time.process_time() < end: pass"]

@pytest.fixture(scope="module")
def spun():
    subprocess.run(SPIN, check=True)

def test_spins():
    subprocess.run(SPIN, check=True)

def test_idle():
    pass

def test_first_of_a_module_fixture(spun):
    pass

def test_second_of_a_module_fixture(spun):
    pass
"""


def test_a_tests_cpu_includes_its_subprocess_and_the_report_sums_it(tmp_path):
    (tmp_path / "test_sample.py").write_text(TESTS)
    times = tmp_path / "times"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "tests.support.cpu_times",
            "-p",
            "no:cacheprovider",
            "test_sample.py",
        ],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": REPO, "UAI_CPU_TIMES": str(times), "UAI_TEST_ENV": "tf2"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    cpu = {name.split("::")[1]: seconds for name, seconds, _ in ci_cpu.totals(ci_cpu.load(str(times)), "test")}
    assert cpu["test_spins"] >= 0.5 > cpu["test_idle"], cpu
    # a module fixture's CPU is the first asking test's, and is told apart as its setup
    setup = {row["test"].split("::")[1]: row["setup"] for row in ci_cpu.load(str(times))}
    assert cpu["test_first_of_a_module_fixture"] >= setup["test_first_of_a_module_fixture"] >= 0.5, setup
    assert setup["test_spins"] < 0.5 and setup["test_second_of_a_module_fixture"] < 0.5, setup
    per_test = {name.split("::")[1]: value for name, value in ci_cpu.setups(ci_cpu.load(str(times)), "test").items()}
    assert per_test == setup  # (the tables' setup column)
    [(job, total, count)] = ci_cpu.totals(ci_cpu.load(str(times)), "job")
    assert job.startswith("tf2 ") and count == 4 and total >= 1.0
