"""tests/support/once.py: the parts of one test command compute shared work once, in real processes."""

import json
import os
import subprocess
import sys

from tests.support.processes import REPO

WORKER = """
import json, os, sys, time
sys.path.insert(0, {repo!r})
from tests.support.once import once

def compute(folder):
    with open(os.environ["COUNT"], "a") as count:
        count.write("computed\\n")
    time.sleep(1)  # the other process asks meanwhile
    if os.environ.get("FAIL_FIRST") and not os.path.exists(os.environ["FAIL_FIRST"]):
        open(os.environ["FAIL_FIRST"], "w").close()
        raise RuntimeError("the first computation fails")
    (folder / "made.txt").write_text(str(os.getpid()))
    return {{"pid": os.getpid(), "folder": str(folder)}}

print(json.dumps(once("work", None, compute)))
"""


def _two_at_once(tmp_path, **env):
    script = tmp_path / "worker.py"
    script.write_text(WORKER.format(repo=REPO))
    env = dict(os.environ, UAI_TEST_SHARED=str(tmp_path / "shared"), COUNT=str(tmp_path / "count"), **env)
    workers = [
        subprocess.Popen(
            [sys.executable, str(script)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    return [worker.communicate(timeout=60) + (worker.returncode,) for worker in workers]


def test_the_first_process_computes_and_the_other_reads_its_result(tmp_path):
    (out_a, err_a, code_a), (out_b, err_b, code_b) = _two_at_once(tmp_path)
    assert code_a == code_b == 0, err_a + err_b
    assert json.loads(out_a) == json.loads(out_b)
    assert (tmp_path / "count").read_text() == "computed\n"
    result = json.loads(out_a)
    assert open(os.path.join(result["folder"], "made.txt")).read() == str(result["pid"])


def test_when_the_first_computation_fails_the_other_process_computes_its_own(tmp_path):
    runs = _two_at_once(tmp_path, FAIL_FIRST=str(tmp_path / "failed"))
    assert sorted(code for _, _, code in runs) == [0, 1]
    [(out, _, _)] = [run for run in runs if run[2] == 0]
    assert (tmp_path / "count").read_text() == "computed\ncomputed\n"
    assert json.loads(out)["pid"] != 0
