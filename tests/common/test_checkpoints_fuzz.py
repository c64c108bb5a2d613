"""`python -m trainlib.checkpoints`' command line, fuzzed: every argument list either succeeds or ends
in one line on stderr with exit 2 (absl's --help: exit 0 or 1), never a traceback, and no file
the run reads is written.

The CLI imports TensorFlow, so one subprocess runs every generated argument list in turn
(`flags.run(main, argv)` after resetting the flags), with a scratch folder holding a real small
TF1 checkpoint, a truncated copy, junk shards, a `checkpoint` file naming a missing prefix, an
empty and a non-empty folder.
"""

import hashlib
import json
import os
import subprocess
import sys
import tempfile

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from tests.support.processes import program_lines, python_env

DRIVER = r"""
import contextlib, io, json, os, shutil, sys, traceback

import tensorflow as tf

# the scratch folder's checkpoints: a real TF1 one, a copy with its data shard cut short, junk
with tf.Graph().as_default():
    tf.compat.v1.get_variable("dense/kernel", [2, 3])
    with tf.compat.v1.Session() as session:
        session.run(tf.compat.v1.global_variables_initializer())
        tf.compat.v1.train.Saver().save(session, "good/model.ckpt", global_step=1)
shutil.copytree("good", "cut")
with open("cut/model.ckpt-1.data-00000-of-00001", "r+b") as handle:
    handle.truncate(7)
for name in ("junk.index", "junk.data-00000-of-00001"):
    with open(name, "wb") as handle:
        handle.write(bytes(range(256)) * 3)
os.makedirs("missing")
with open("missing/checkpoint", "w") as handle:
    handle.write('model_checkpoint_path: "nothere"\n')
os.makedirs("empty")
os.makedirs("full")
with open("full/file.txt", "w") as handle:
    handle.write("kept\n")
print("READY", json.dumps(sorted(os.path.join(f, n) for f, _, names in os.walk(".") for n in names)), flush=True)

from absl import flags as absl_flags

import trainlib.checkpoints.__main__ as cli  # defines the CLI's flags; its `if __name__` block stays off

results = []
saved = os.dup(2)
for argv in json.loads(sys.stdin.readline()):
    absl_flags.FLAGS.unparse_flags()
    # file descriptor 2 itself: TensorFlow's C++ runtime logs there, not through sys.stderr
    with open("../stderr", "w+b") as err:
        os.dup2(err.fileno(), 2)
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                cli.flags.run(cli.main, argv=["trainlib.checkpoints", *argv])
                code = "returned"  # absl's run always exits
            except SystemExit as exit_:
                code = exit_.code
            except BaseException:
                code = "raised"
                traceback.print_exc()
        sys.stderr.flush()
        os.dup2(saved, 2)
        err.seek(0)
        results.append([argv, code, err.read().decode("utf-8", "backslashreplace")])
print("RESULTS", json.dumps(results), flush=True)
"""

CHECKPOINTS = ["good", "good/model.ckpt-1", "cut", "cut/model.ckpt-1", "junk", "missing", "empty", "full"]
CHECKPOINTS += ["nothere", "", "-", "/dev/null", "full/file.txt", "good/checkpoint", "\udcff", "a\nb"]
OUTS = ["new", "empty", "full", "full/file.txt", "good", "/dev/null", "", "/proc/ckpt-fuzz", "a\nb", "good/checkpoint"]
ODD = ["", "-1", "0", "1", "2", "3", "18", "50", "1e400", "nan", "\u00b2", "9" * 30, "x"]
VALUES = {
    "--model": st.sampled_from(["resnet", "slim", "", "RESNET"]),
    "--resnet_size": st.sampled_from(ODD),
    "--resnet-size": st.sampled_from(ODD),
    "--resnet_version": st.sampled_from(ODD),
    "--num_classes": st.sampled_from(ODD),
    "--out": st.sampled_from(OUTS),
    "--flagfile": st.sampled_from(["nothere", "full/file.txt", ""]),
}
TOKENS = st.one_of(
    st.sampled_from(sorted(VALUES)).flatmap(lambda name: VALUES[name].map(lambda value: [f"{name}={value}"])),
    st.sampled_from(sorted(VALUES)).flatmap(lambda name: VALUES[name].map(lambda value: [name, value])),
    st.sampled_from([["--unknown"], ["-x"], ["--"], ["--help"], ["--nohelp"], ["extra"]]),
    st.sampled_from(CHECKPOINTS).map(lambda path: [path]),
)
COMMANDS = st.sampled_from([["inspect"], ["convert"], [], ["INSPECT"], ["help"]])
# Argument lists shaped like real commands, then anything.
ARGVS = st.one_of(
    st.tuples(COMMANDS, st.sampled_from(CHECKPOINTS), st.lists(TOKENS, max_size=4)).map(
        lambda parts: [*parts[0], parts[1], *(arg for token in parts[2] for arg in token)]
    ),
    st.lists(TOKENS, max_size=5).map(lambda tokens: [arg for token in tokens for arg in token]),
)
# What broke before, each run every time.
KNOWN = [
    ["convert", "good", "--model=resnet", "--resnet_size=18", "--out=full"],
    ["convert", "good", "--model=resnet", "--resnet_size=18", "--num_classes=-1", "--out=new"],
    ["convert", "good", "--model=resnet", "--resnet_size=18", "--out=new"],
    ["inspect", "cut"],
    ["inspect", "missing"],
    ["inspect", "junk"],
    ["inspect", "good"],
]


def _hashes(root):
    found = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                with open(path, "rb") as handle:
                    found[os.path.relpath(path, root)] = hashlib.sha256(handle.read()).hexdigest()
    return found


# One subprocess (one TensorFlow import) for all the lists; no shrinking: each failure names its argv.
@settings(max_examples=1, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.lists(ARGVS, min_size=150, max_size=150))
def test_every_argv_succeeds_or_is_one_line_with_exit_2_never_a_traceback(argvs):
    argvs = KNOWN + argvs
    with tempfile.TemporaryDirectory() as base:
        scratch = os.path.join(base, "scratch")  # each run's stderr goes to a file beside it
        os.makedirs(scratch)
        process = subprocess.Popen(
            [sys.executable, "-c", DRIVER],
            cwd=scratch,
            env=python_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="surrogateescape",
        )
        assert process.stdout is not None and process.stdin is not None
        ready = process.stdout.readline()
        assert ready.startswith("READY "), ready + process.communicate()[1]
        before = _hashes(scratch)
        assert {os.path.normpath(p) for p in json.loads(ready[len("READY ") :])} == set(before)
        out, err = process.communicate(json.dumps(argvs) + "\n", timeout=300)
        assert process.returncode == 0, err
        assert "Traceback" not in err, err
        [line] = [line for line in out.splitlines() if line.startswith("RESULTS ")]
        results = json.loads(line[len("RESULTS ") :])
        assert len(results) == len(argvs)
        for argv, code, stderr in results:
            lines = program_lines(stderr)
            assert "Traceback" not in stderr, (argv, stderr)
            if any(arg in ("--help", "--helpfull", "--helpshort") for arg in argv) and code in (0, 1):
                continue  # absl printed the usage
            assert code in (0, 2), (argv, code, stderr)
            if code == 2:
                assert len(lines) == 1 and ": error: " in lines[0], (argv, stderr)
            else:
                assert argv[:1] in (["inspect"], ["convert"]) and not lines, (argv, stderr)
        successes = {tuple(argv) for argv, code, _ in results if code == 0}
        assert ("inspect", "good") in successes
        assert ("convert", "good", "--model=resnet", "--resnet_size=18", "--out=full") not in successes
        after = _hashes(scratch)
        assert {name: after.get(name) for name in before} == before  # what the runs read is as it was
