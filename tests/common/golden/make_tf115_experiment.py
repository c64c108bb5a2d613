"""Write tests/common/golden/tf115_experiment.json: when tf.contrib.learn's Experiment evaluates on real TF 1.15.

    .nox/tf115/bin/python tests/common/golden/make_tf115_experiment.py     # the tf115 env: python3 dev.py tf115

Runs tests/common/tf1_programs/experiment_evaluations.py as written and stores what it printed;
tests/common/test_runtime_learn.py compares compat.learn's evaluations under uai-run with these.
Runs on Python 3.7: no project import. `write_golden` serves any TF 1 program printing `RESULT <json>`.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
COMMAND = ".nox/tf115/bin/python tests/common/golden/make_tf115_experiment.py"


def write_golden(program, golden, command):
    """Run `program` (a path under tests/common) on this TensorFlow 1.15; store its RESULT in `golden`."""
    import tensorflow as tf

    if not tf.__version__.startswith("1.15."):
        sys.exit(f"{os.path.basename(__file__)}: needs TensorFlow 1.15 (the tf115 env), found {tf.__version__}")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    path = os.path.join(TESTS, program)
    out = subprocess.run([sys.executable, path], stdout=subprocess.PIPE, env=env, check=True, text=True).stdout
    result = json.loads(next(line for line in out.splitlines() if line.startswith("RESULT "))[len("RESULT ") :])
    document = {
        "_header": f"Written by tests/common/golden/{os.path.basename(__file__)} on real TensorFlow {tf.__version__} "
        f"(Python {sys.version.split()[0]}); regenerate with `{command}`; never edit by hand.",
        "program": "tests/common/" + program,
        "tensorflow": tf.__version__,
        "values": result,
    }
    with open(os.path.join(HERE, golden), "w") as f:
        json.dump(document, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote tests/common/golden/{golden} ({len(result)} cases)")


if __name__ == "__main__":
    write_golden("tf1_programs/experiment_evaluations.py", "tf115_experiment.json", COMMAND)
