"""Seeded TF 1 programs draw TF 1.15's random numbers under uai-run, bit for bit.

tests/common/tf1_programs/seeded_draws.py runs unmodified under uai-run (`python -m uai_run`)
and its values are compared with what the same program printed on real TensorFlow 1.15
(tests/common/golden/tf115_random.json, written by the tf115 session: `python3 dev.py tf115`).
Floats are float32 values stored exactly, so equality is bit-for-bit equality. Its uai-migrate port
(seeded_draws_migrated.py, kept as uai-migrate wrote it) runs with plain python and is compared too.
"""

import json
import os
import sys

import numpy
import pytest

from tests.support.processes import REPO, python_env, result_json

PROGRAM = os.path.join(REPO, "tests", "common", "tf1_programs", "seeded_draws.py")
GOLDEN_FILE = os.path.join(REPO, "tests", "common", "golden", "tf115_random.json")
GOLDEN = json.load(open(GOLDEN_FILE))["values"]
ENTRIES = sorted((case, name) for case, values in GOLDEN.items() for name in values)

# Values that differ from TF 1.15's although the random draws are the same, why, and how far they may be
# (relative). Asserted to differ, so a change shows up here.
KNOWN_DIFFERENT: dict[tuple[str, str], tuple[str, float]] = {
    ("sampled", "sampled_softmax_loss"): (
        # its sampled candidates are TF 1.15's ("log_uniform_candidates" and the loss's own draw); the
        # logits subtract log(Q), and TF 2's float32 Log kernel rounds differently (docs/traps.md)
        "TF 2.15/2.21's Log differs from TF 1.15's in the last bit",
        1e-6,
    ),
}

MIGRATED = os.path.join(REPO, "tests", "common", "tf1_programs", "seeded_draws_migrated.py")


def _run(argv: list[str], tmp_path_factory) -> dict:
    import subprocess

    result = subprocess.run(
        [sys.executable, *argv],
        cwd=str(tmp_path_factory.mktemp("seeded_draws")),
        env=python_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result_json(result.stdout)


@pytest.fixture(scope="module")
def under_uai_run(tmp_path_factory) -> dict:
    return _run(["-m", "uai_run", PROGRAM], tmp_path_factory)


@pytest.fixture(scope="module")
def migrated(tmp_path_factory) -> dict:
    return _run([MIGRATED], tmp_path_factory)


def test_the_golden_file_was_written_by_tf115_and_covers_every_case():
    golden = json.load(open(GOLDEN_FILE))
    assert golden["tensorflow"].startswith("1.15.")
    assert "python3 dev.py tf115" in golden["_header"]
    cases = (
        "random_ops",
        "get_variable",
        "layers",
        "contrib_layers",
        "batch_norm",
        "dropout",
        "images",
        "input_pipeline",
        "iterators",
        "tensordot",
        "embedding_lookup",
        "resource_variables",
        "estimator",
        "sampled",
    )
    assert set(GOLDEN) == {*cases, "session_classifier"}
    assert set(KNOWN_DIFFERENT) <= set(ENTRIES)


@pytest.mark.parametrize(("case", "name"), ENTRIES, ids=[f"{c}-{n}" for c, n in ENTRIES])
def test_uai_run_draws_tf115s_numbers(under_uai_run, case, name):
    drawn = under_uai_run[case][name]
    if (case, name) in KNOWN_DIFFERENT:
        _, rtol = KNOWN_DIFFERENT[case, name]
        assert drawn != GOLDEN[case][name], f"now equal to TF 1.15: remove it from KNOWN_DIFFERENT ({case}, {name})"
        assert numpy.allclose(drawn, GOLDEN[case][name], rtol=rtol, atol=0)
    else:
        assert drawn == GOLDEN[case][name]


@pytest.mark.parametrize(("case", "name"), ENTRIES, ids=[f"{c}-{n}" for c, n in ENTRIES])
def test_uai_migrates_port_draws_tf115s_numbers_too(migrated, case, name):
    # the port makes TF 1.15's ref variables (the graph-mode preamble); a variable asked for as a resource
    # one keeps its ops, as on 1.15 (compat/_graph_seed.py)
    drawn = migrated[case][name]
    if (case, name) in KNOWN_DIFFERENT:
        assert drawn != GOLDEN[case][name]
        assert numpy.allclose(drawn, GOLDEN[case][name], rtol=KNOWN_DIFFERENT[case, name][1], atol=0)
    else:
        assert drawn == GOLDEN[case][name]


# The cases whose graphs hold what a port keeps as TF 2's resource variables: the port above switches them off
# (uai-migrate wrote `disable_resource_variables()` for it); ports that keep them (the BERT-style one) must
# draw TF 1.15's numbers too, their extra ops counted out
RESOURCE_CASES = ("iterators", "tensordot", "embedding_lookup", "resource_variables", "estimator")
_WITH_RESOURCE_VARIABLES = f"""
import json, runpy, tensorflow as tf
program = runpy.run_path({MIGRATED!r}, run_name="seeded_draws")
tf.compat.v1.disable_eager_execution()
results = {{}}
for case in {RESOURCE_CASES!r}:
    with tf.Graph().as_default():
        results[case] = program[case]()
print("RESULT " + json.dumps(results))
"""


@pytest.fixture(scope="module")
def migrated_with_resource_variables(tmp_path_factory) -> dict:
    return _run(["-c", _WITH_RESOURCE_VARIABLES], tmp_path_factory)


RESOURCE_ENTRIES = [(case, name) for case, name in ENTRIES if case in RESOURCE_CASES]


@pytest.mark.parametrize(("case", "name"), RESOURCE_ENTRIES, ids=[f"{c}-{n}" for c, n in RESOURCE_ENTRIES])
def test_a_port_keeping_resource_variables_draws_tf115s_numbers(migrated_with_resource_variables, case, name):
    assert migrated_with_resource_variables[case][name] == GOLDEN[case][name]


def test_the_port_is_what_uai_migrate_writes_today(tmp_path):
    import subprocess

    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, "-m", "codemods", PROGRAM, "--out", str(out)],
        cwd=REPO,
        env=python_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (out / "seeded_draws.py").read_text() == open(MIGRATED).read()
