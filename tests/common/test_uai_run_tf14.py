"""A TF 1.4-era program runs unmodified under `uai-run`: tf.contrib.data's pipeline with TF 1.4's arguments,
the argparse-era flags internals and tf.contrib.learn.ModeKeys (compat/tf1_names.py's call-signature table).

The script writes its own TFRecords and prints what it read, as JSON; the expected batches are computed
here from the same numbers. tests/codemods/test_rule_tf1_calls.py runs `uai-migrate --out` on this same
script and the port with python, against the same expectation.
"""

import json
import sys

from tests.support import runs as _runs
from tests.support.tf14 import SCRIPT, arguments, expected, printed

UAI_RUN = [sys.executable, "-m", "uai_run"]


def test_a_tf_1_4_contrib_data_program_runs_unmodified_under_uai_run(tmp_path):
    script = tmp_path / "tf14_input.py"
    script.write_text(SCRIPT)
    report = tmp_path / "report.json"
    result = _runs.run([*UAI_RUN, "--report", str(report), str(script), *arguments(tmp_path)], tmp_path)
    assert printed(result) == expected(str(tmp_path), 3)
    entries = [e for f in json.loads(report.read_text())["files"] for e in f["entries"]]
    calls = sorted(e["message"] for e in entries if e["rule"] == "tf1-calls")
    assert calls == [
        "tf.contrib.data.Dataset.map: num_threads= -> num_parallel_calls=",
        "tf.contrib.data.Dataset.map: num_threads= -> num_parallel_calls=, output_buffer_size= -> .prefetch()",
        "tf.contrib.data.batch_and_drop_remainder(...) -> dataset.batch(..., drop_remainder=True)",
        "tf.contrib.data.padded_batch_and_drop_remainder(...) -> dataset.padded_batch(..., drop_remainder=True)",
    ]
