"""The golden files real TF 1.15 wrote (tests/common/golden, `python3 dev.py tf115`), read the one way."""

import json
import os
import sys

from tests.support import runs as _runs
from tests.support.processes import REPO, result_json

GOLDEN = os.path.join(REPO, "tests", "common", "golden")


def tf115_values(name: str) -> dict:
    """The values of golden file `name`, after checking it was written by TF 1.15 through the one command."""
    with open(os.path.join(GOLDEN, name)) as handle:
        golden = json.load(handle)
    assert golden["tensorflow"].startswith("1.15."), golden["tensorflow"]
    assert "python3 dev.py tf115" in golden["_header"], golden["_header"]
    return golden["values"]


def run_against_tf115(program: str, golden: str, tmp_path: os.PathLike) -> tuple[dict, dict]:
    """(what tests/common/tf1_programs/`program`, a TF 1 program run unmodified under uai-run, printed as its
    result line; the values of golden file `golden`), after checking the run ended well and printed the
    golden's keys."""
    want = tf115_values(golden)
    path = os.path.join(REPO, "tests", "common", "tf1_programs", program)
    result = _runs.run([sys.executable, "-m", "uai_run", path], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    got = result_json(result.stdout)
    assert sorted(got) == sorted(want)
    return got, want


def port_against_tf115(program: str, golden: str, tmp_path: os.PathLike) -> tuple[dict, dict]:
    """(what the safe port of tests/common/tf1_programs/`program` printed as its result line, run with plain python on
    this TensorFlow; the values of golden file `golden`), after checking that uai-migrate --out wrote the port
    without an error and that it ended well. The port is `tmp_path`/port/`program`."""
    path = os.path.join(REPO, "tests", "common", "tf1_programs", program)
    migrated = _runs.migrate("--out", os.path.join(tmp_path, "port"), path, cwd=tmp_path)
    assert migrated.returncode == 0, migrated.stdout[-3000:] + migrated.stderr[-3000:]
    result = _runs.run([sys.executable, os.path.join(tmp_path, "port", program)], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    return result_json(result.stdout), tf115_values(golden)


def assert_close_to(values: dict, golden: dict, atol: float, exact: tuple[str, ...] = ()) -> None:
    """`values` has `golden`'s keys and, key by key, its numbers (lists of any depth) to within `atol`;
    the keys in `exact` (names, shapes) are equal."""
    import numpy as np

    assert sorted(values) == sorted(golden)
    for key in sorted(golden):
        if key in exact:
            assert values[key] == golden[key], key
        else:
            np.testing.assert_allclose(values[key], golden[key], atol=atol, err_msg=key)


# the values of tests/common/tf1_programs/nmt_seq2seq.py compared exactly (names, ids, lengths), under uai-run
# and ported; the rest to 2e-5 (they are rounded to 5 decimals)
NMT_SEQ2SEQ_EXACT = (
    "variables",
    "train sample ids",
    "train lengths",
    "greedy ids",
    "greedy lengths",
    "sample ids",
    "sample lengths",
    "beam ids",
    "beam lengths",
)
