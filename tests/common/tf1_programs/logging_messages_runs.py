"""Run logging_messages.py (or a port of it) each way it runs, and print `RESULT <json>`: per way, its exit
status and what it printed to stdout and stderr, normalised (the golden file is TF 1.15's,
tests/common/golden/tf115_logging_messages.json, written by `python3 dev.py tf115`).

Normalised: absl's record prefix has its date, time and thread id zeroed; the program's folder is left out of
paths; a file:line naming the line of the program that made the record (the call logging that message, or the
name a deprecation notice names) reads `<its call>`, so a port with other line numbers compares, and a record
naming any other frame keeps its file and line; blank lines are dropped (TF 1.15's deprecation notices end with
one), and so are the lines TensorFlow's C++ runtime prints at start-up (TF 2.21 prints some although
TF_CPP_MIN_LOG_LEVEL=2). Runs on Python 3.7: no project import (test_rule_native_io.py imports `run`).
"""

import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "logging_messages.py")
# way -> the environment logging_messages.py reads
WAYS = {
    "plain, default verbosity": {},
    "plain, INFO": {"UAI_VERBOSITY": "INFO"},
    "tf.app.run, default verbosity": {"UAI_RUN": "app"},
    "tf.app.run, INFO": {"UAI_RUN": "app", "UAI_VERBOSITY": "INFO"},
    "plain, INFO, a root handler printing file:line": {"UAI_VERBOSITY": "INFO", "UAI_FORMAT": "1"},
}
_ABSL_PREFIX = re.compile(r"^([DIWEF])\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ ")
_RUNTIME = re.compile(
    r"^(WARNING: All log messages before absl::InitializeLog\(\)|[DIWEF]\d{4} \d\d:\d\d:\S+ +\d+ \S+\.cc:\d+\]"
    r"|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: [DIWEF] \S+\.cc:\d+\]|To enable the following instructions)"
)
_RECORD = re.compile(r"(\S+\.py):(\d+)((?: \S+)?\] )(.*)")  # absl's `file:line] message`, the root handler's too
_NOTICE = re.compile(r"(\S+\.py):(\d+): The name (\S+) is deprecated")


def normalise(text, program):
    """`text` (a run's output) as lines, normalised as the module says."""
    source = open(program).read().splitlines()
    name = os.path.basename(program)

    def its_call(file, line, said):
        return file == name and 0 < int(line) <= len(source) and said in source[int(line) - 1]

    def record(match):
        file, line, rest, message = match.groups()
        if its_call(file, line, '"' + " ".join(message.split()[:2])):  # the format string's first two words
            line = "<its call>"
        return f"{file}:{line}{rest}{message}"

    def notice(match):
        file, line, deprecated = match.groups()
        if its_call(file, line, deprecated):
            line = "<its call>"
        return f"{file}:{line}: The name {deprecated} is deprecated"

    lines = []
    for line in text.replace(os.path.dirname(program) + os.sep, "").splitlines():
        if line.strip() and not _RUNTIME.match(line):
            lines.append(
                _NOTICE.sub(notice, _RECORD.sub(record, _ABSL_PREFIX.sub(r"\g<1>0000 00:00:00.000000 0 ", line)))
            )
    return lines


def run(program, way, python=sys.executable, env=None):
    """Run `program` with `python` the way named (a key of WAYS); its exit status and normalised output."""
    environment = dict(os.environ if env is None else env, TF_CPP_MIN_LOG_LEVEL="2", **WAYS[way])
    done = subprocess.run(
        [python, program],
        capture_output=True,
        env=environment,
        cwd=os.path.dirname(program),
        text=True,
        timeout=300,
    )
    return {
        "exit": done.returncode,
        "stdout": normalise(done.stdout, program),
        "stderr": normalise(done.stderr, program),
    }


if __name__ == "__main__":
    print("RESULT " + json.dumps({way: run(PROGRAM, way) for way in WAYS}))
