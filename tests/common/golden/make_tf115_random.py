"""Write tests/common/golden/tf115_random.json: the random draws of a seeded TF 1 program on real TF 1.15.

    python3 dev.py tf115        # the one command that regenerates the file (nox -s tf115 -- golden)

Runs tests/common/tf1_programs/seeded_draws.py as written, in the tf115 environment (TensorFlow 1.15
on Python 3.7), and stores what it printed; tests/common/test_tf115_random.py compares uai-run's
draws on TF 2.15 and 2.21 with these values. Runs on Python 3.7: no project import.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(os.path.dirname(HERE), "tf1_programs", "seeded_draws.py")
GOLDEN = os.path.join(HERE, "tf115_random.json")
COMMAND = "python3 dev.py tf115"


def main():
    import tensorflow as tf

    if not tf.__version__.startswith("1.15."):
        sys.exit("make_tf115_random.py: needs TensorFlow 1.15 (the tf115 session), found " + tf.__version__)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    out = subprocess.run([sys.executable, PROGRAM], stdout=subprocess.PIPE, env=env, check=True, text=True).stdout
    result = json.loads(next(line for line in out.splitlines() if line.startswith("RESULT "))[len("RESULT ") :])
    golden = {
        "_header": f"Written by tests/common/golden/make_tf115_random.py on real TensorFlow {tf.__version__} "
        f"(Python {sys.version.split()[0]}); regenerate with `{COMMAND}`; never edit by hand.",
        "program": "tests/common/tf1_programs/seeded_draws.py",
        "tensorflow": tf.__version__,
        "values": result,
    }
    with open(GOLDEN, "w") as f:
        json.dump(golden, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {os.path.relpath(GOLDEN)} ({len(result)} cases)")


if __name__ == "__main__":
    main()
