"""tests/support/cpu_times.py and bench/ci_cpu.py: a test's CPU includes the subprocesses it waited for."""

import subprocess
import sys

from bench import ci_cpu
from tests.support.processes import REPO

TESTS = """
import subprocess, sys

def test_spins():
    subprocess.run([sys.executable, "-c", "import time\\nend = time.process_time() + 0.5\\nwhile time.process_time() < end: pass"], check=True)

def test_idle():
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
    [(job, total, count)] = ci_cpu.totals(ci_cpu.load(str(times)), "job")
    assert job.startswith("tf2 ") and count == 2 and total >= 0.5
