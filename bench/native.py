"""`uai-migrate --level native` against the safe level: equivalence by checkpoint, and how much is left in tf.compat.v1.

    python bench/native.py [--json FILE] [--only SCRIPT ...]
    python bench/native.py --realworld [PROJECTS] [--cache DIR] [--json FILE]

1. Equivalence. Every script of tests/corpus and samples/tf1 that the native level converts (its report
   has an entry of a native rule saying so, other than a rename: RENAMES) is migrated twice, safe and
   native. The safe port runs in graph mode: right after its variables are initialised it writes them to a TF1 checkpoint (step 0),
   then trains, and the values each training `sess.run` (one fetching an operation) returns are recorded. The native port runs
   eagerly: each variable it creates whose name is in that checkpoint starts from the checkpoint's value
   (the TF1 names the rule writes out are the mapping), and the values its train step returns are
   recorded. Both see the same batches (the scripts' own seeded NumPy draws, unchanged by the rules).
   The losses must agree to TOLERANCE (relative above 1; its cause is said where it is defined); a
   script run with other arguments than its manifest's says why. Each probe imports compat before TensorFlow, as
   the ports do (compat's import-time fixes, such as TF 1.15's division in tf.data functions, act then).
   A script the native level turns into evaluation only (no optimizer), or converts with the rules for
   eager code (no Session), must print the same. Both must write the same summaries (the [step, tag]
   pairs of the event files a run writes; v1 summaries become tf.summary v2 at native level).
   Per group, how many entries each native rule wrote converting something and leaving code at the
   safe level (with the reason in the report).
2. The share of `tf.*` references that go through `tf.compat.v1`, after safe and after native, in
   the corpus, the samples and the real-programs bench's drivers (the Python files and notebooks' code cells: an outermost
   `tf.<...>` attribute chain is one reference, and so is each read of a name imported from a TensorFlow module, by
   name or by a star import (the names that module exports on the installed TensorFlow); it is a compat one when it
   reads `tf.compat.v1` or its name is bound to tensorflow.compat.v1 or to a name below it).
3. --realworld (instead of 1 and 2; information: libraries full of graph machinery): the same share in
   bench/realworld.py's projects (its PROJECTS: tflearn, stable-baselines, tensorpack, tensor2tensor), each
   the .py files of its package from its pinned sdist (realworld.fetch: downloaded into --cache on first use,
   outside the repository), migrated as one tree at --level safe and at --level native. No port is run. The share
   is counted twice: as above, and as bench/realworld.py counts TensorFlow references (its scan: the names a module
   binds to TensorFlow at its top level, `tfv1 = tf.compat.v1`, and those it imports from the project's own modules,
   tensorpack's `from ..compat import tfv1 as tf`, which the count above does not follow; import statements
   counted, version-test fallbacks not), of those only the paths rooted at `tensorflow` (not tf_slim's, nor
   this project's compat's). A file
   uai-migrate skips (its report's status "skipped", e.g. not Python 3) is left in the output as written: it is
   listed with the reason and not counted; a file migrated with an error entry is counted. A project that cannot
   be fetched, or a level whose uai-migrate run writes no report, is a "failed" row (exit 1) and the
   other projects are measured. Progress on stderr; the table (a row per project and level: files, lines,
   references, compat.v1 and share both ways, files skipped, files with an error entry; seconds) and, per project,
   the native rules' entries as in 1 (converted something/left code at the safe level) on stdout, every number in
   --json.

Both ports run in the tf2 environment (this interpreter); the migrations use this checkout's uai-migrate.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import functools
import importlib
import io
import json
import os
import re
import runpy
import subprocess
import sys
import tempfile
import time
from typing import Any, cast

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from bench import corpus  # noqa: E402 - run as a script, the checkout is not on the path before

# (bench/realworld.py, the projects of --realworld, their pinned sdists and cache, is imported only where it is used,
# --realworld and -h: it puts bench/ on sys.path for its siblings, which the tests importing this module need not have,
# nor a corpus script a --probe run executes: its `import corpus` would find bench's)

SOURCES = {
    "corpus": os.path.join(REPO, "tests", "corpus"),
    "samples": os.path.join(REPO, "samples", "tf1"),
    # (information: the real-programs bench's drivers, ours, one per program, not the libraries they run; programs built
    # on libraries: what keeps tf.compat.v1 is the graph a library's entry point takes, tensorpack's inputs()
    # placeholders, tensorlayer's fit(sess, ...), tf-slim's DatasetDataProvider over a TFRecordReader)
    "realprograms": os.path.join(REPO, "bench", "realprograms"),
}
# |safe - native| <= TOLERANCE * max(1, |safe|): relative for losses above 1. The cause of what is not 0:
# TF1's optimizers update through fused kernels (ResourceApplyAdam, ResourceApplyMomentum), Keras's through
# element-wise ops: the same formula, rounded differently in float32 (GradientDescent agrees exactly).
TOLERANCE = 1e-5
# Arguments other than a script's manifest row, with the cause. Dropout draws its masks from the op seed,
# which graph mode derives from the graph and eager mode from a counter: the same seed gives other masks.
ARGS = {
    "session_classifier.py": (
        ["--steps=5", "--keep_prob=1.0"],
        "dropout off: graph and eager op seeds draw other masks",
    ),
    # (tests/support/programs.py's flags of the sample for 3 steps, over the bench's generated TFRecords)
    # (its cluster port without a cluster: one device; its input the bench's generated TFRecords, 3 steps of 4 images)
    "train_slim_classifier.py": (
        ["--data_dir={data}", "--output_dir={out}", "--max_step=3", "--batch_size=4"],
        "its TFRecords the bench's (its flags' defaults read none); exact division in both ports (EXACT_DIVISION)",
    ),
    "resnet_estimator.py": (
        ["--data_dir={data}", "--output_dir={out}", "--max_step=3", "--train_batch_size=4", "--num_classes=11"],
        "Dataset.shuffle the identity in both ports: its order came from the Estimator's graph seed, the port's from "
        "tf.random's; exact division in both ports (EXACT_DIVISION)",
    ),
}
# Scripts whose dropout rate is written in the code (no flag turns it off): the bench makes tf.layers.dropout
# (safe port) and Keras Dropout (native port) the identity in both, for the same cause.
NO_DROPOUT = {"layers_graph.py": "dropout 0.5 in the code: the bench makes it the identity in both ports (other masks)"}
# Queue-runner input read as a tf.data pipeline (native-session): TF1's queue threads and tf.data's shuffle buffer
# draw the batches in other orders, the named change. The bench fixes the order in both ports: the safe port's
# string_input_producer(shuffle=False) and shuffle_batch -> tf.train.batch with one thread (the records in file order),
# the native port's Dataset.shuffle the identity; the rest (files, reading, parsing, decoding, batching) runs as ported.
FIXED_ORDER = {
    "session_queue_runners.py": "shuffles off in both ports (safe: string_input_producer(shuffle=False), shuffle_batch -> "
    "batch with one thread; native: Dataset.shuffle the identity): queue threads and tf.data draw other orders",
    "resnet_estimator.py": "Dataset.shuffle the identity in both ports (an Estimator's input_fn: its tf.data graph)",
}
# A division by a constant in a tf.data function: TF 1.15's Grappler made it a multiplication by the reciprocal (one ulp
# off in a third of the values), which compat reproduces for a v1 graph (compat/_dataset_division.py: the safe port);
# a native port's pipeline runs as TF 2 functions, dividing exactly. The bench makes the safe port divide exactly too.
EXACT_DIVISION = {
    "train_slim_classifier.py": "exact division in both ports (its parse's image / 127.5: TF 1.15 multiplied by the "
    "reciprocal, as compat does in the safe port's v1 graph; TF 2's tf.data functions divide)",
    "resnet_estimator.py": "exact division in both ports (its input_fn's division by a constant, as above)",
}
# TF1 names a summary's tag as its name scope, made unique in the graph case-insensitively: `mean` next to a
# reduce_mean op (`Mean`) becomes `mean_1`. tf.summary v2 writes the tag as given. Tags are compared without it.
SUFFIX = re.compile(r"_\d+$")
# the steps per second tf-slim's learning.train wrote (its Supervisor's timer thread, at its start and every
# save_summaries_secs: a measure of time, at a step the thread happened to read): the native loop writes no such
# event, which native-session's explain says
TIMING = ("global_step/sec",)
TRAIN_STEP = (
    "train_step",
    "train_step_fn",
)  # the names native-session gives the step (codemods/rules/native_session.py)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (REPO, env.get("PYTHONPATH")) if p)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    for name in ("TF_USE_LEGACY_KERAS", "TF_CONFIG"):
        env.pop(name, None)
    return env


def migrate(paths: list[str], out: str, level: str, in_process: bool = False) -> dict:
    """uai-migrate --out over `paths` at `level`; its JSON report. `in_process`: its CLI run in this process (-j1),
    as the tests run it beside the ports they start: a Python start-up and libcst's import less per migration."""
    report = out + ".report.json"
    os.makedirs(os.path.dirname(out), exist_ok=True)
    args = ["--out", out, "--level", level, "--no-cache", "-q", "--report", report, *paths]
    if in_process:
        stderr = migrate_here(args)[2]
    else:
        command = [sys.executable, "-m", "codemods", *args]
        stderr = subprocess.run(command, cwd=REPO, env=_env(), capture_output=True, text=True, check=False).stderr
    if not os.path.exists(report):
        raise RuntimeError(f"uai-migrate --level {level} failed: {stderr[-2000:]}")
    with open(report, encoding="utf-8") as handle:
        return json.load(handle)


def migrate_here(args: list[str]) -> tuple[int, str, str]:
    """Run `uai-migrate -j1 ARGS` in this process (in its main thread: it sets signal handlers while it runs):
    its exit code, what it wrote to stdout and to stderr."""
    from codemods.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["-j1", *args])
        except SystemExit as stop:  # a usage error or a failure: exit 2, as the process would
            code = stop.code if isinstance(stop.code, int) else 1
    return code, out.getvalue(), err.getvalue()


_LEFT = "left at the safe level"  # what a native rule's entry says when it could not prove its pattern


def _entries(report: dict) -> list[dict]:
    return report.get("entries") or [e for f in report.get("files", []) for e in f.get("entries", [])]


# rules that only rename a call to the very function it made (native-io: tf.gfile.Exists -> tf.io.gfile.exists):
# equal by construction, so a file they alone converted is not run (it may be an Estimator program, which the
# probes do not read); their entries count in the rule table, and tests/codemods/test_native_equivalence.py runs
# a script they convert at both levels
RENAMES = ("native-io",)
# rules converting graph code outside a Session script (an Estimator's model_fn and input_fn), which the probes
# do not run: tests/codemods/test_rule_native_losses.py runs an Estimator program, test_rule_native_image.py a
# graph program, each converted at both levels; and native-data's conversions in graph code, an Estimator input_fn's
# one-shot element returned as its dataset among them (its entry says so: test_rule_native_data.py trains two
# Estimator programs it converts, the second from the safe port's step-0 checkpoint)
NOT_PROBED = ("native-losses", "native-image")
GRAPH_ENTRY = "graph code: "


def converted(report: dict) -> list[str]:
    """The files the native level converted (an entry of a native rule that is not a refusal, nor a rename)."""
    return sorted(
        {
            e["path"]
            for e in _entries(report)
            if e.get("rule", "").startswith("native-")
            and e["rule"] not in (*RENAMES, *NOT_PROBED)
            and _LEFT not in e["message"]
            and not e["message"].startswith(GRAPH_ENTRY)
        }
    )


def rule_counts(report: dict) -> dict[str, tuple[int, int]]:
    """native rule -> (entries converting something, entries leaving code at the safe level)."""
    counts: dict[str, tuple[int, int]] = {}
    for entry in _entries(report):
        if entry.get("rule", "").startswith("native-"):
            done, left = counts.get(entry["rule"], (0, 0))
            counts[entry["rule"]] = (done, left + 1) if _LEFT in entry["message"] else (done + 1, left)
    return dict(sorted(counts.items()))


# -- the probes: run in a subprocess each, so that graph mode and eager mode never share a process
def probe_safe(script: str, checkpoint: str, record: str, argv: list[str]) -> None:
    """Run the safe port; write its variables at step 0 and the values of each training run."""
    # compat before TensorFlow, as the port imports them: its import-time fixes (TF 1.15's division in tf.data
    # functions among them) are then in place as in the port's own run
    import compat  # noqa: I001 - legacy Keras for tf.compat.v1.layers, as the port itself selects
    import numpy as np
    import tensorflow as tf

    if os.path.basename(script) in EXACT_DIVISION:

        class _Exact:  # (compat._dataset_division's tracing depth, always 0: TF 2's exact real_div)
            depth = property(lambda self: 0, lambda self, value: None)

        compat._dataset_division._TRACING = _Exact()  # noqa: SLF001 - the named change, off in the safe port

    if os.path.basename(script) in NO_DROPOUT:
        tf.compat.v1.layers.dropout = lambda inputs, *args, **kwargs: inputs
    if os.path.basename(script) in FIXED_ORDER:
        producer, batch = tf.compat.v1.train.string_input_producer, tf.compat.v1.train.batch

        def in_order(string_tensor, *args, **kwargs):
            return producer(string_tensor, **{**kwargs, "shuffle": False})

        def batch_in_order(tensors, batch_size, capacity=32, *args, **kwargs):
            return batch(tensors, batch_size, num_threads=1, capacity=capacity)

        tf.compat.v1.train.string_input_producer, tf.compat.v1.train.shuffle_batch = in_order, batch_in_order
        tf.data.Dataset.shuffle = lambda self, *args, **kwargs: self

    values: list[list[float]] = []
    base = tf.compat.v1.Session.__mro__[1]  # BaseSession: Session's and InteractiveSession's run
    run = base.run
    saved: list[bool] = []

    def recording_run(self, fetches, feed_dict=None, *args, **kwargs):
        result = run(self, fetches, feed_dict, *args, **kwargs)
        if not saved:
            # a monitored session finalizes its graph: the probe's own ops are added to it all the same
            finalized = self.graph.finalized
            if finalized:
                self.graph._unsafe_unfinalize()  # noqa: SLF001 - the probe's ops, not the script's
            try:
                initialised = run(self, tf.compat.v1.report_uninitialized_variables()).size == 0
                if initialised and tf.compat.v1.global_variables():
                    saved.append(True)
                    # (the trainable ones; a script without any, as a global step and assign ops, all of them)
                    variables = tf.compat.v1.trainable_variables() or tf.compat.v1.global_variables()
                    saver = tf.compat.v1.train.Saver(var_list=variables)
                    base.run = run  # the Saver runs the session too: not a training run
                    try:
                        saver.save(self, checkpoint)
                    finally:
                        base.run = recording_run
                    return result
            finally:
                if finalized:
                    self.graph.finalize()
        # an Estimator's evaluate() runs in a graph of its own, holding its eval step: no training run
        if self.graph.get_collection(tf.compat.v1.GraphKeys.EVAL_STEP):
            return result
        # (a monitored session's run: the caller's fetches, not its hooks' global step)
        flat = tf.nest.flatten(result["caller"] if isinstance(result, dict) and "caller" in result else result)
        # tf-slim's train op is a tensor (create_train_op's loss, in the TRAIN_OP collection): a training run's
        # values are its own (learning.train's step also fetches the global step, which the native step returns not)
        train_ops = {t.name for t in self.graph.get_collection("train_op") if isinstance(t, tf.Tensor)}
        caller = fetches["caller"] if isinstance(fetches, dict) and "caller" in fetches else fetches
        fetched = tf.nest.flatten(caller) if train_ops else []  # (a monitored session's keys are its hooks)
        slim = [i for i, f in enumerate(fetched) if isinstance(f, tf.Tensor) and f.name in train_ops]
        if saved and slim and len(fetched) == len(flat):
            values.append([float(x) for i in slim for x in np.ravel(flat[i])])
            return result
        numbers = [float(x) for v in flat if v is not None and not isinstance(v, bytes) for x in np.ravel(v)]
        numbers += [x for v in flat if isinstance(v, bytes) for x in _summary_scalars(v)]
        # a training run: it fetches the train op (an operation: None) and values (a restore fetches none)
        if saved and numbers and any(v is None for v in flat):
            values.append(numbers)
        return result

    base.run = recording_run
    started = time.time()
    _run_script(script, argv)
    with open(record, "w", encoding="utf-8") as handle:
        json.dump({"values": values, "saved": bool(saved), "events": events(started)}, handle)


def probe_native(script: str, checkpoint: str, record: str, argv: list[str]) -> None:
    """Run the native port; variables named as in the checkpoint start from it; record the train step's values."""
    import compat  # noqa: F401, I001 - tf.keras is legacy Keras, as the port itself selects (imported first, as there)
    import numpy as np
    import tensorflow as tf

    if os.path.basename(script) in NO_DROPOUT:
        tf.keras.layers.Dropout.call = lambda self, inputs, training=None: inputs
    if os.path.basename(script) in FIXED_ORDER:
        tf.data.Dataset.shuffle = lambda self, *args, **kwargs: self

    reader = tf.train.load_checkpoint(checkpoint) if checkpoint else None  # (none: the graph has no variables)
    wanted = reader.get_variable_to_shape_map() if reader else {}
    dtypes = reader.get_variable_to_dtype_map() if reader else {}
    loaded: list[str] = []
    retyped: dict[str, str] = {}
    values: list[list[float]] = []

    def creator(next_creator, **kwargs):
        variable = next_creator(**kwargs)
        name = variable.name.split(":")[0]
        if name in wanted and list(variable.shape) == list(wanted[name]):
            if variable.dtype.base_dtype != dtypes[name]:
                # (assign would convert the value: a port training in another dtype must not count as loaded)
                retyped[name] = f"{dtypes[name].name} in the checkpoint, {variable.dtype.base_dtype.name} here"
                return variable
            with tf.init_scope():
                variable.assign(cast(Any, reader).get_tensor(name))
            loaded.append(name)
        return variable

    function = tf.function

    def recording_function(func=None, **kwargs):
        if func is None:
            return lambda f: recording_function(f, **kwargs)
        traced = function(func, **kwargs)
        if getattr(func, "__name__", "") not in TRAIN_STEP:
            return traced

        def step(*args, **kwargs):
            result = traced(*args, **kwargs)
            # a merge_all's value is a dict of the summarized tensors: its scalars, after the other values, as the
            # safe probe reads them from its serialized Summary (histograms are compared by the events)
            returned = result if isinstance(result, tuple) else [result]
            # (a step returning nothing, its loss fetched by a run of its own, has None: no value, as in the safe probe)
            kept = [v for v in returned if v is not None and not isinstance(v, dict)]
            kept += [s for v in returned if isinstance(v, dict) for s in v.values() if len(s.shape) == 0]
            if tf.nest.flatten(kept):  # (a step fetching no value has none to compare, as in the safe probe)
                values.append([float(x) for v in tf.nest.flatten(kept) for x in np.ravel(v)])
            return result

        return step

    tf.function = recording_function
    started = time.time()
    with tf.variable_creator_scope(creator):
        _run_script(script, argv)
    with open(record, "w", encoding="utf-8") as handle:
        json.dump(
            {
                "values": values,
                "loaded": sorted(loaded),
                "wanted": sorted(wanted),
                "retyped": retyped,
                "events": events(started),
            },
            handle,
        )


def _summary_scalars(value: bytes) -> list[float]:
    """The scalars of a fetched merge_all (a serialized Summary; a fetched string tensor is none)."""
    import tensorflow as tf
    from google.protobuf.message import DecodeError

    try:
        summary = tf.compat.v1.Summary.FromString(value)
    except DecodeError:
        return []
    return [float(v.simple_value) for v in summary.value if v.HasField("simple_value")]


def events(since: float) -> list[list]:
    """The summaries the run wrote (event files under the working folder, newer than `since`): sorted
    [step, tag] pairs. The values are not compared: a summarized random draw differs between graph and eager."""
    import tensorflow as tf

    found = []
    for root, _, names in os.walk(os.getcwd()):
        for name in names:
            path = os.path.join(root, name)
            if name.startswith("events.out.tfevents") and os.path.getmtime(path) >= since:
                for event in tf.compat.v1.train.summary_iterator(path):
                    found += [[int(event.step), value.tag] for value in event.summary.value]
    return sorted(found)


def _run_script(script: str, argv: list[str]) -> None:
    sys.argv = [script, *argv]
    sys.path.insert(0, os.path.dirname(script))
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as stop:
        if stop.code not in (None, 0):
            raise


def _probe(kind: str, script: str, checkpoint: str, argv: list[str], folder: str) -> dict:
    record = os.path.join(folder, f"{kind}.json")
    command = [sys.executable, os.path.abspath(__file__), "--probe", kind, script, checkpoint, record, "--", *argv]
    done = subprocess.run(command, cwd=folder, env=_env(), capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{kind} port of {os.path.basename(script)} failed:\n{done.stderr[-2000:]}")
    with open(record, encoding="utf-8") as handle:
        return {**json.load(handle), "stdout": done.stdout}


def equivalence(
    name: str, safe: str, native: str, argv: list[str], folder: str, native_argv: list[str] | None = None
) -> dict:
    """Both ports run, the native one with `native_argv` where given (its own output folder: a checkpoint_dir the
    safe port wrote would be restored)."""
    checkpoint = os.path.join(folder, "step0", "model.ckpt")
    os.makedirs(os.path.dirname(checkpoint), exist_ok=True)
    first = _probe("safe", safe, checkpoint, argv, folder)
    second = _probe(
        "native", native, checkpoint if first["saved"] else "", argv if native_argv is None else native_argv, folder
    )
    retyped = second["retyped"]
    missing = [
        f"{n} ({retyped[n]})" if n in retyped else n for n in sorted(set(second["wanted"]) - set(second["loaded"]))
    ]
    pairs = list(zip(first["values"], second["values"]))
    diff = max((abs(a - b) / max(1.0, abs(a)) for x, y in pairs for a, b in zip(x, y)), default=0.0)
    same_shape = len(first["values"]) == len(second["values"]) and all(len(x) == len(y) for x, y in pairs)
    # a script without training runs (evaluation only) is compared by what it prints
    printed = second["stdout"]  # (a path of the native port's own folder printed as the safe port's)
    for ours, theirs in zip(native_argv or [], argv):
        if ours != theirs:
            printed = printed.replace(ours.partition("=")[2] or ours, theirs.partition("=")[2] or theirs)
    same_output = bool(first["values"]) or first["stdout"] == printed
    # the summaries written: steps and tags, TF1's tags without the suffix its graph added (see SUFFIX); not the
    # training speed TF1's Supervisor wrote from a timer thread (TIMING), which the native loop does not write
    written = [[step, SUFFIX.sub("", tag)] for step, tag in first["events"] if tag not in TIMING]
    same_output &= written == [[step, SUFFIX.sub("", tag)] for step, tag in second["events"]]
    renamed = sorted({tag for _, tag in first["events"]} - {tag for _, tag in second["events"]} - set(TIMING))
    return {
        "script": name,
        "steps": len(first["values"]),
        "loaded": f"{len(second['loaded'])}/{len(second['wanted'])}",
        "unloaded": missing,
        "max_diff": diff,
        "output": "-" if first["values"] else ("same" if same_output else "differs"),
        "summaries": len(first["events"]),
        "renamed_tags": renamed,
        "equal": same_shape and same_output and not missing and diff <= TOLERANCE,
        "stdout": (first["stdout"], second["stdout"]),
    }


# -- the share of tf.compat.v1
def compat_share(folder: str) -> tuple[int, int]:
    """(tf.* references, of which through tf.compat.v1) in the Python files under `folder`."""
    total = compat = 0
    for root, _, names in os.walk(folder):
        for name in names:
            if name.endswith((".py", ".ipynb")):
                with open(os.path.join(root, name), encoding="utf-8") as handle:
                    text = handle.read()
                counted = references(_code_cells(text) if name.endswith(".ipynb") else text)
                total, compat = total + counted[0], compat + counted[1]
    return total, compat


def _code_cells(text: str) -> str:
    """A notebook's code cells joined, their IPython lines (magics, shell) left out."""
    cells = [c for c in json.loads(text).get("cells", []) if c.get("cell_type") == "code"]
    sources = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in cells]
    lines = [line for source in sources for line in source.splitlines()]
    return "\n".join(line for line in lines if not line.lstrip().startswith(("%", "!"))) + "\n"


def references(source: str) -> tuple[int, int]:
    """(tf.* references, of which through tf.compat.v1) in `source`; (0, 0) if it does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return 0, 0
    return tree_references(tree)


def tree_references(tree: ast.AST) -> tuple[int, int]:
    """references() of a parsed module."""
    aliases: dict[str, str] = {}  # name an `import tensorflow...` binds -> the path it stands for below tensorflow.
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "tensorflow" or alias.name.startswith("tensorflow."):
                    # (`import tensorflow.compat.v1` binds tensorflow itself)
                    below = alias.name.removeprefix("tensorflow").removeprefix(".") if alias.asname else ""
                    aliases[alias.asname or "tensorflow"] = below
    imported = _imported_from_tensorflow(tree)
    inner = set()
    total = compat = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and id(node) not in inner:
            chain: ast.expr = node
            parts: list[str] = []
            while isinstance(chain, ast.Attribute):
                parts.append(chain.attr)
                inner.add(id(chain.value))
                chain = chain.value
            if isinstance(chain, ast.Name) and chain.id in aliases | imported:
                total += 1
                compat += _through_v1(".".join([(aliases | imported)[chain.id], *reversed(parts)]))
        elif isinstance(node, ast.Name) and id(node) not in inner and node.id in imported:
            total, compat = total + 1, compat + _through_v1(imported[node.id])
    return total, compat


def _through_v1(path: str) -> bool:
    """Whether `path` (below tensorflow., maybe with a leading dot) is tf.compat.v1 or below it."""
    return (path.strip(".") + ".").startswith("compat.v1.")


def _imported_from_tensorflow(tree: ast.AST) -> dict[str, str]:
    """{name bound by `from tensorflow... import`: the path it stands for below tensorflow.}; each read of it is a
    reference, as `tf.<path>` would be. A star import binds every name its module exports on the installed
    TensorFlow (`_star_names`), the one the ported code runs on; a name imported by name wins over a star's. A name the
    module binds again anywhere (an assignment, a def, a parameter, an except clause, an import of something else) is
    left out: it may no longer be TensorFlow's."""
    imported: dict[str, str] = {}
    starred: dict[str, str] = {}
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and _is_tensorflow(node.module):
            below = node.module.removeprefix("tensorflow").removeprefix(".")
            for alias in node.names:
                if alias.name == "*":
                    starred |= {name: f"{below}.{name}".lstrip(".") for name in _star_names(node.module)}
                else:
                    imported[alias.asname or alias.name] = f"{below}.{alias.name}".lstrip(".")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if not (isinstance(node, ast.Import) and _is_tensorflow(alias.name)) and alias.name != "*":
                    bound.add(alias.asname or alias.name.partition(".")[0])
    bound |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    bound |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    bound |= {n.name for n in ast.walk(tree) if isinstance(n, ast.ExceptHandler) and n.name}
    bound |= {
        a.arg
        for n in ast.walk(tree)
        if isinstance(n, ast.arguments)
        for a in [*n.posonlyargs, *n.args, *n.kwonlyargs, *filter(None, (n.vararg, n.kwarg))]
    }
    return {name: path for name, path in (starred | imported).items() if name not in bound}


def _is_tensorflow(module: str) -> bool:
    return module == "tensorflow" or module.startswith("tensorflow.")


@functools.cache
def _star_names(module: str) -> frozenset[str]:
    """The names `from <module> import *` binds on the installed TensorFlow: its __all__, else its public names. No name
    for a module this TensorFlow lacks (tensorflow.contrib.*): code importing it does not run here."""
    try:
        loaded = importlib.import_module(module)
    except ImportError:
        return frozenset()
    names = getattr(loaded, "__all__", None)
    return frozenset(names if names is not None else (n for n in dir(loaded) if not n.startswith("_")))


# -- the share of tf.compat.v1 in the realworld projects (information: libraries full of graph machinery)
def realworld_shares(projects: list[str], cache: str, work: str) -> dict[str, dict]:
    """{project: realworld_share(...)} for bench/realworld.py's `projects`, progress on stderr."""
    from bench import realworld

    shares = {}
    for name in projects:
        start = time.perf_counter()
        shares[name] = realworld_share(name, cache, os.path.join(work, name))
        shares[name]["seconds"] = round(time.perf_counter() - start, 1)
        realworld.log(f"{name}: {shares[name]['seconds']:.0f} s")
    return shares


def realworld_share(name: str, cache: str, work: str) -> dict:
    """The tf.compat.v1 share of project `name`'s package (bench/realworld.py's pinned sdist, fetched into `cache`
    on first use) after --level safe and after --level native: {"files": .py files, "lines", level: ported_share(),
    "rules": rule_counts() of the native report}.
    A level whose uai-migrate run gave no report, or a project that could not be fetched, is {"failed": why}."""
    from bench import realworld

    project = realworld.PROJECTS[name]
    try:
        unpacked = realworld.fetch(name, cache)
    except SystemExit as failed:  # (realworld.fetch's way of saying pip download failed)
        realworld.log(f"{name}: not fetched: {failed}")
        return {"failed": f"not fetched: {failed}"}
    tree = os.path.join(work, "as_written")
    files = realworld.copy_package(unpacked, project.package, tree)
    lines = 0
    for relative in files:
        with open(os.path.join(tree, relative), "rb") as handle:
            lines += handle.read().count(b"\n")
    realworld.log(f"{name}: {len(files)} files, {lines} lines")
    row: dict[str, Any] = {"files": len(files), "lines": lines}
    for level in ("safe", "native"):
        start = time.perf_counter()
        out = os.path.join(work, level)
        try:
            report = migrate([tree], out, level)
        except RuntimeError as failed:
            row[level] = {"failed": str(failed)}
            realworld.log(f"{name} --level {level}: {failed}")
            continue
        row[level] = ported_share(tree, out, report)
        if level == "native":
            row["rules"] = rule_counts(report)
        counted = row[level]
        realworld.log(
            f"{name} --level {level}: {counted['compat_v1']}/{counted['references']} through tf.compat.v1, "
            f"{len(counted['skipped'])} files skipped, {counted['unparsed']} not parsed "
            f"({time.perf_counter() - start:.0f} s)"
        )
    return row


def ported_share(tree: str, out: str, report: dict) -> dict:
    """The references of uai-migrate's port of `tree` in `out`, from its `report`: {"references", "compat_v1", over the
    files it migrated, as references() counts them; "project_references", "project_compat_v1": the same files' TensorFlow
    references as bench/realworld.py counts them (through the names a module binds to TensorFlow at its top level,
    `tfv1 = tf.compat.v1`, and those it imports from the project's own modules, tensorpack's `from ..compat import tfv1
    as tf`, which references() does not follow; imports counted, version-test fallbacks not), those rooted at `tensorflow`;
    "skipped": [path, why] of the files it skipped or could not read (left in `out` as written, TF1 code, or not
    there: not counted); "errors": files migrated with an error entry (counted: their manual steps aside, they are
    ported); "unparsed": migrated files Python's ast cannot read (none expected: not counted)}."""
    from bench import realworld

    skipped = []
    errors = 0
    for record in report["files"]:
        relative = os.path.relpath(record["path"], tree)
        said = [entry["message"] for entry in record["entries"] if entry["severity"] == "error"]
        if record["status"] in ("skipped", "error"):  # ("error": the file could not be read)
            skipped.append([relative, said[0] if said else record["status"]])
        else:
            errors += bool(said)
    left_out = {path for path, _ in skipped}
    total = compat = unparsed = 0
    scans = {}
    for root, _, names in os.walk(out):
        for name in sorted(names):
            path = os.path.join(root, name)
            relative = os.path.relpath(path, out)
            if not name.endswith(".py") or relative in left_out:
                continue
            with open(path, encoding="utf-8") as handle:
                source = handle.read()
            try:
                module = ast.parse(source)
            except (SyntaxError, ValueError):
                unparsed += 1
                continue
            counted = tree_references(module)
            total, compat = total + counted[0], compat + counted[1]
            scan = realworld.scan_module(source, relative)
            scans[scan.name] = scan
    realworld.link_project(scans)
    paths = [path for scan in scans.values() for path, _ in realworld.references(scan)[0]]
    tf_paths = [path for path in paths if path == "tensorflow" or path.startswith("tensorflow.")]
    return {
        "references": total,
        "compat_v1": compat,
        "project_references": len(tf_paths),
        "project_compat_v1": sum(_through_v1(path.removeprefix("tensorflow")) for path in tf_paths),
        "skipped": sorted(skipped),
        "errors": errors,
        "unparsed": unparsed,
    }


class _HelpWithRealworldDefaults(argparse.Action):
    """-h: the help, with --realworld's and --cache's defaults (bench/realworld.py's PROJECTS and default_cache())
    filled in. Only this and --realworld import bench/realworld.py: a --probe run must not (see the note at the top)."""

    def __init__(self, option_strings: list[str], dest: str, filled: list[argparse.Action]) -> None:
        super().__init__(option_strings, argparse.SUPPRESS, nargs=0, help="show this help message and exit")
        self.filled = filled

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from bench import realworld

        for action in self.filled:
            action.help = cast(str, action.help).format(
                projects=", ".join(realworld.PROJECTS), cache=realworld.default_cache()
            )
        parser.print_help()
        parser.exit()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], add_help=False)
    filled: list[argparse.Action] = []  # (the actions whose help names bench/realworld.py's defaults)
    parser.add_argument("-h", "--help", action=_HelpWithRealworldDefaults, filled=filled)
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument(
        "--only",
        action="append",
        metavar="SCRIPT",
        help="run the equivalence of these scripts only (file names, e.g. estimator_towers.py); the shares are whole",
    )
    filled.append(
        parser.add_argument(
            "--realworld",
            nargs="?",
            const="all",
            metavar="PROJECTS",
            help="measure instead the tf.compat.v1 share of bench/realworld.py's projects (comma-separated, default "
            "all: {projects}) after --level safe and --level native, as information; no equivalence runs",
        )
    )
    filled.append(
        parser.add_argument(
            "--cache", help="--realworld: the projects' downloaded sources (bench/realworld.py's; default: {cache})"
        )
    )
    parser.add_argument("--probe", nargs=4, metavar=("KIND", "SCRIPT", "CHECKPOINT", "RECORD"), help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args(argv)
    if args.probe:
        kind, script, checkpoint, record = args.probe
        (probe_safe if kind == "safe" else probe_native)(
            script, checkpoint, record, rest[1:] if rest[:1] == ["--"] else rest
        )
        return 0
    if args.realworld is not None:
        return _realworld_main(args)
    results: dict = {"equivalence": [], "compat_v1": {}, "rules": {}, "load": os.getloadavg()[0], "commit": _commit()}
    results["only"] = args.only or []
    with tempfile.TemporaryDirectory() as work:
        for group, source in SOURCES.items():
            ported = {}
            for level in ("safe", "native"):
                out = os.path.join(work, group, level)
                ported[level] = migrate([source], out, level)
                results["compat_v1"][f"{group} {level}"] = compat_share(out)
            results["rules"][group] = rule_counts(ported["native"])
            for path in converted(ported["native"]):
                name = os.path.basename(path)
                if args.only and name not in args.only:
                    continue
                argv_for, cause = ARGS.get(
                    name, (_manifest_args(name), NO_DROPOUT.get(name, FIXED_ORDER.get(name, "")))
                )
                relative = os.path.relpath(path, REPO) if os.path.isabs(path) else path
                # (a notebook runs as its code cells joined, IPython lines left out, as the corpus runs it)
                files = {
                    level: runnable(ported_file(os.path.join(work, group, level), relative, name)) for level in ported
                }
                folder = os.path.join(work, "runs", name)
                os.makedirs(folder, exist_ok=True)
                # the manifest's {data} (the corpus' generated TFRecords, made once) and {out} (a folder of the run)
                if any("{data}" in a for a in argv_for) and not os.path.isdir(os.path.join(work, "data")):
                    corpus.generate_data(os.path.join(work, "data"))
                run_argv, native_argv = (
                    [a.format(data=os.path.join(work, "data"), out=os.path.join(folder, out)) for a in argv_for]
                    for out in ("out", "out_native")
                )
                try:
                    row = equivalence(name, files["safe"], files["native"], run_argv, folder, native_argv)
                except RuntimeError as failed:
                    missing = re.search(r"ModuleNotFoundError: No module named '([\w.]+)'", str(failed))
                    if missing is None:
                        raise
                    # a program of a library this environment lacks: no run to compare, said in the table
                    row = {"script": name, "steps": 0, "loaded": "-", "unloaded": [], "max_diff": 0.0, "output": "-"}
                    row |= {"summaries": 0, "renamed_tags": [], "equal": True, "skipped": True, "stdout": ("", "")}
                    cause = f"not run: {missing.group(1)} is not installed"
                row["group"], row["args"], row["cause"] = group, " ".join(argv_for), cause
                results["equivalence"].append(row)
    _print(results)
    if args.json:
        for row in results["equivalence"]:
            del row["stdout"]
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=1)
    return 0 if all(row["equal"] for row in results["equivalence"]) else 1


def _realworld_main(args: argparse.Namespace) -> int:
    from bench import realworld

    if args.realworld == "all":
        projects = list(realworld.PROJECTS)
    else:
        projects = [name.strip() for name in args.realworld.split(",") if name.strip()]
    cache = args.cache or realworld.default_cache()
    unknown = [name for name in projects if name not in realworld.PROJECTS]
    if unknown or not projects:
        print(
            f"--realworld: unknown project(s) {', '.join(unknown)}; of: {', '.join(realworld.PROJECTS)}",
            file=sys.stderr,
        )
        return 2
    results: dict = {"load": os.getloadavg()[0], "commit": _commit()}
    with tempfile.TemporaryDirectory() as work:
        results["realworld"] = realworld_shares(projects, cache, work)
    results["load_after"] = os.getloadavg()[0]
    _print_realworld(results)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=1)
    levels = [level for row in results["realworld"].values() for level in (row, row.get("safe"), row.get("native"))]
    return 1 if any(level and "failed" in level for level in levels) else 0


def _print_realworld(results: dict) -> None:
    print(f"commit {results['commit']}, load {results['load']:.1f} -> {results['load_after']:.1f}")
    print("tf.* references through tf.compat.v1 in bench/realworld.py's projects (information: libraries full of graph")
    print("machinery), counted as in the corpus and as bench/realworld.py counts (+ the project's own names for them);")
    print("skipped: files uai-migrate could not migrate (not counted); errors: files migrated with an error entry")
    print(
        f"{'project':<18}{'level':<8}{'files':>6}{'lines':>8}{'refs':>8}{'compat.v1':>11}{'share':>8}"
        f"{'realworld.py refs':>19}{'compat.v1':>11}{'share':>8}{'skipped':>9}{'errors':>8}{'seconds':>9}"
    )
    for name, row in results["realworld"].items():
        if "failed" in row:
            print(f"{name:<18}failed: {row['failed']}")
            continue
        for level in ("safe", "native"):
            counted = row[level]
            start = f"{name:<18}{level:<8}{row['files']:>6}{row['lines']:>8}"
            if "failed" in counted:
                print(f"{start}  failed: {counted['failed'][:300]}")
                continue
            shares = ""
            for total, compat in (
                (counted["references"], counted["compat_v1"]),
                (counted["project_references"], counted["project_compat_v1"]),
            ):
                width = 19 if shares else 8
                shares += f"{total:>{width}}{compat:>11}{compat / total if total else 0:>8.1%}"
            seconds = f"{row['seconds']:.0f}" if level == "native" else ""
            print(f"{start}{shares}{len(counted['skipped']):>9}{counted['errors']:>8}{seconds:>9}")
    print("native rules' entries (converted something/left code at the safe level):")
    for name, row in results["realworld"].items():
        rules = sorted(row.get("rules", {}).items())
        print(f"{name:<18}" + (", ".join(f"{rule} {done}/{left}" for rule, (done, left) in rules) or "none"))
    for name, row in results["realworld"].items():
        for level in ("safe", "native"):
            counted = row.get(level, {})
            for path, why in counted.get("skipped", []):
                print(f"{name} --level {level}: skipped {path}: {why}")
            if counted.get("unparsed"):
                print(
                    f"{name} --level {level}: {counted['unparsed']} ported files Python's ast cannot read (not counted)"
                )


def ported_file(out: str, relative: str, name: str) -> str:
    """The migrated copy of a file in an --out tree (found by name: the tree mirrors the input folder)."""
    for root, _, names in os.walk(out):
        if name in names:
            return os.path.join(root, name)
    raise FileNotFoundError(f"{relative} not in {out}")


def runnable(path: str) -> str:
    """The file to run for a ported file: itself, or a notebook's code cells joined (bench/corpus.py)."""
    return corpus._script(os.path.dirname(path), os.path.basename(path))  # noqa: SLF001 - the corpus' one way


def _manifest_args(name: str) -> list[str]:
    with open(os.path.join(SOURCES["corpus"], "manifest.json"), encoding="utf-8") as handle:
        row = json.load(handle).get(name, {})
    return list(row.get("args", []))


def _commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, check=False
    )
    return done.stdout.strip()


def _print(results: dict) -> None:
    print(f"commit {results['commit']}, load {results['load']:.1f}, tolerance {TOLERANCE} (x max(1, |loss|))")
    if results["only"]:
        print(f"equivalence of {', '.join(results['only'])} only")
    print(f"{'script':<26}{'steps':>6}{'loaded':>9}{'max diff':>13}{'output':>9}{'summaries':>10}  equal  args (cause)")
    for row in results["equivalence"]:
        renamed = f"TF1's tags {', '.join(row['renamed_tags'])}: uniquified by its graph" if row["renamed_tags"] else ""
        cause = "; ".join(c for c in (row["cause"], renamed) if c)
        cause = f" ({cause})" if cause else ""
        print(
            f"{row['script']:<26}{row['steps']:>6}{row['loaded']:>9}{row['max_diff']:>13.2e}{row['output']:>9}{row['summaries']:>10}  "
            f"{'-' if row.get('skipped') else 'yes' if row['equal'] else 'NO':<5}  {row['args'] or '-'}{cause}"
        )
    print(f"\n{'native rule':<23}" + "".join(f"{group + ' done/left':>24}" for group in results["rules"]))
    for rule in sorted({rule for counts in results["rules"].values() for rule in counts}):
        cells = [results["rules"][group].get(rule, (0, 0)) for group in results["rules"]]
        print(f"{rule:<23}" + "".join(f"{f'{done}/{left}':>24}" for done, left in cells))
    print(f"\n{'tf.* references':<21}{'total':>7}{'compat.v1':>11}{'share':>8}")
    for key, (total, compat) in results["compat_v1"].items():
        print(f"{key:<21}{total:>7}{compat:>11}{compat / total if total else 0:>8.1%}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
