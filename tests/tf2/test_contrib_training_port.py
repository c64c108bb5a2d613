"""uai-migrate ports tf.contrib.training to tf-slim's training and evaluation modules, and the port trains as TF 1.15
did: tests/common/tf1_programs/contrib_training_steps.py after `uai-migrate --out`, run with plain python, prints
real TensorFlow 1.15's values (tests/common/golden/tf115_contrib_training.json; uai-run's run of it is
tests/common/test_contrib_training.py). Only the tf2 environment has libcst, which uai-migrate needs.
"""

import os
import sys

from tests.support import runs as _runs
from tests.support.goldens import assert_close_to, tf115_values
from tests.support.processes import REPO, result_json

PROGRAM = os.path.join(REPO, "tests", "common", "tf1_programs", "contrib_training_steps.py")


def test_the_port_trains_evaluates_and_iterates_checkpoints_as_tf115_did(tmp_path):
    migrated = _runs.migrate("--out", tmp_path / "port", PROGRAM, cwd=tmp_path)
    # exit 1: an entry needs a look (graph-mode's warning on a script without a __main__ guard); none is an error
    assert migrated.returncode in (0, 1) and ": error " not in migrated.stdout, (
        migrated.stdout[-3000:] + migrated.stderr[-3000:]
    )
    port = tmp_path / "port" / os.path.basename(PROGRAM)
    code = port.read_text().split('"""', 2)[2]  # (the docstring names TF 2.21's iterator)
    assert "tf.contrib" not in code and "evaluation.checkpoints_iterator(" in code, code
    result = _runs.run([sys.executable, str(port)], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    values, golden = result_json(result.stdout), tf115_values("tf115_contrib_training.json")
    assert sorted(values) == sorted(golden)
    assert values["checkpoints_iterator"] == golden["checkpoints_iterator"]
    assert_close_to(values["evaluate_once"], golden["evaluate_once"], atol=2e-6)
    numbers = ("session losses", "train returned")
    assert_close_to({k: values[k] for k in numbers}, {k: golden[k] for k in numbers}, atol=2e-6)
