"""native-estimator-loop on a TPUEstimator program run off the TPU (BERT's run_classifier shape, the corpus's
bert_tpu_estimator): TF 2's own loop, or the safe level with one entry saying why; the corpus program ported at both
levels trains to the same variables from the safe port's step-0 checkpoint, evaluates to the same dict, and the port
stops with one line where use_tpu is true.

The rule runs alone in the before/after cases, on a program as the safe level and the other native rules leave it;
the equivalence test migrates the corpus program with uai-migrate at both levels.
"""

import ast
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap
import types

import pytest

from codemods.rules import _native_tpu as tpu
from codemods.rules.native_estimator_loop import MESSAGE, NativeEstimatorLoopRule
from tests.support.native_ports import migrated
from tests.support.rule_test import RuleTest, apply
from tests.support.runs import clean_env

REPO = pathlib.Path(__file__).resolve().parents[2]

# a TPUEstimator program as the safe level, native-layers (which leaves tf.layers.dense in a model_fn that may run on
# a TPU), native-losses and native-data leave it
PROGRAM = """
    import compat
    import numpy as np
    import tensorflow as tf

    import compat.flags as flags

    FLAGS = flags.FLAGS


    def input_fn_builder(path, is_training):
        spec = {"ids": tf.io.FixedLenFeature([4], tf.int64), "label": tf.io.FixedLenFeature([], tf.int64)}

        def input_fn(params):
            d = tf.data.TFRecordDataset(path)
            if is_training:
                d = d.repeat()
            return d.apply(tf.data.experimental.map_and_batch(lambda r: tf.io.parse_single_example(r, spec), batch_size=params["batch_size"], drop_remainder=True))

        return input_fn


    def attention(x):
        scores = tf.matmul(x, x, transpose_b=True) / np.sqrt(tf.compat.dimension_value(x.shape[-1]))
        return tf.matmul(tf.nn.softmax(scores), x)


    def model_fn(features, labels, mode, params):
        embeddings = tf.compat.v1.get_variable("embeddings", [20, 8], initializer=tf.compat.v1.truncated_normal_initializer(stddev=0.02))
        hidden = attention(tf.nn.embedding_lookup(embeddings, features["ids"]))
        logits = tf.compat.v1.layers.dense(tf.reduce_mean(hidden, axis=1), 2)
        loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(features["label"], logits)
        if mode == tf.estimator.ModeKeys.TRAIN:
            optimizer = tf.compat.v1.train.AdamOptimizer(0.01)
            if params["use_tpu"]:
                optimizer = tf.compat.v1.tpu.CrossShardOptimizer(optimizer)
            train_op = optimizer.minimize(loss, global_step=tf.compat.v1.train.get_global_step())
            return tf.compat.v1.estimator.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)

        def metric_fn(label, logits):
            return {"accuracy": tf.compat.v1.metrics.accuracy(label, tf.argmax(logits, axis=-1))}

        return tf.compat.v1.estimator.tpu.TPUEstimatorSpec(mode=mode, loss=loss, eval_metrics=(metric_fn, [features["label"], logits]))


    def main(_):
        path = "/tmp/records"
        resolver = None
        if FLAGS.use_tpu and FLAGS.tpu_name:
            resolver = tf.distribute.cluster_resolver.TPUClusterResolver(FLAGS.tpu_name)
        config = tf.compat.v1.estimator.tpu.RunConfig(
            cluster=resolver, model_dir="/tmp/m", save_checkpoints_steps=100,
            tpu_config=tf.compat.v1.estimator.tpu.TPUConfig(iterations_per_loop=1, num_shards=1,
                                                per_host_input_for_training=tf.compat.v1.estimator.tpu.InputPipelineConfig.PER_HOST_V2))
        estimator = tf.compat.v1.estimator.tpu.TPUEstimator(use_tpu=FLAGS.use_tpu, model_fn=model_fn, config=config,
                                                train_batch_size=8, eval_batch_size=4, params={"use_tpu": FLAGS.use_tpu})
        estimator.train(input_fn=input_fn_builder(path, True), max_steps=3)
        result = estimator.evaluate(input_fn=input_fn_builder(path, False), steps=2)
        print(result["global_step"])
"""


class TestTpuEstimatorLoop(RuleTest):
    TRANSFORM = NativeEstimatorLoopRule

    def test_a_tpu_estimator_program_run_off_the_tpu_becomes_the_eager_loop(self):
        after = """
    import compat.tf1_saver
    import compat.tf1_slots
    import compat
    import numpy as np
    import tensorflow as tf

    import compat.flags as flags
    import itertools
    import json
    import os
    import sys
    import time

    FLAGS = flags.FLAGS


    def input_fn_builder(path, is_training):
        spec = {"ids": tf.io.FixedLenFeature([4], tf.int64), "label": tf.io.FixedLenFeature([], tf.int64)}

        def input_fn(params):
            d = tf.data.TFRecordDataset(path)
            if is_training:
                d = d.repeat()
            return d.apply(tf.data.experimental.map_and_batch(lambda r: tf.io.parse_single_example(r, spec), batch_size=params["batch_size"], drop_remainder=True))

        return input_fn


    def attention(x):
        scores = tf.matmul(x, x, transpose_b=True) / np.sqrt(tf.compat.dimension_value(x.shape[-1]))
        return tf.matmul(tf.nn.softmax(scores), x)


    def main(_):
        path = "/tmp/records"
        if sum(len(tasks) for tasks in (json.loads(os.environ.get("TF_CONFIG") or "{}").get("cluster") or {}).values()) > 1:
            sys.exit("TF_CONFIG names a cluster of more than one task; this program, ported from an Estimator program by uai-migrate --level native, trains in one process")
        if FLAGS.use_tpu:  # (the TPUEstimator ran on a TPU: the port runs here only)
            sys.exit("use_tpu: this program, ported from a TPUEstimator program by uai-migrate --level native, trains on this machine's CPU or GPU, not on a TPU")
        params = {"use_tpu": FLAGS.use_tpu}
        dataset = input_fn_builder(path, True)(params={**params, "batch_size": 8})
        embeddings = tf.Variable(tf.keras.initializers.TruncatedNormal(stddev=0.02)([20, 8]), name="embeddings")
        dense = tf.keras.layers.Dense(2, name="dense")

        def model(features, training):
            hidden = attention(tf.nn.embedding_lookup(embeddings, features["ids"]))
            logits = dense(tf.reduce_mean(hidden, axis=1))
            loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(features["label"], logits)
            return loss, {"accuracy": (features["label"], tf.cast(tf.argmax(logits, axis=-1), features["label"].dtype))}

        optimizer = tf.keras.optimizers.Adam(learning_rate=0.01, epsilon=1e-08)
        global_step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")

        @tf.function
        def train_step(features):
            with tf.GradientTape() as tape:
                loss, _ = model(features, True)
            variables = tape.watched_variables()
            optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
            global_step.assign_add(1)  # (after the update, as minimize(loss, global_step) did)
            return loss

        batches = iter(dataset)
        first = next(batches)
        model(first, False)  # (the layers make their variables, which the checkpoint restores)
        checkpoint = tf.train.Checkpoint(embeddings=embeddings, dense=dense, global_step=global_step, optimizer=optimizer)
        manager = compat.tf1_saver.CheckpointManager(checkpoint, "/tmp/m", max_to_keep=5, checkpoint_name="model.ckpt")
        checkpoint.restore(manager.latest_checkpoint)
        compat.tf1_slots.check_names([global_step, embeddings, *dense.variables], manager.latest_checkpoint)
        compat.tf1_slots.restore_slots(optimizer, [embeddings, *dense.trainable_variables], manager.latest_checkpoint)
        last_step = 3
        if int(global_step) < last_step:  # (the Estimator trained nothing from a checkpoint at or past it)
            manager.save_at_start(checkpoint_number=global_step)
            saved = (int(global_step), time.time())
            writer = tf.summary.create_file_writer("/tmp/m")
            summarized = None
            for iteration, features in enumerate(itertools.chain([first], batches)):
                loss = train_step(features)
                if summarized is None or int(global_step) >= summarized + 100:
                    summarized = int(global_step)
                    with writer.as_default():
                        tf.summary.scalar("loss", loss, step=summarized)
                if int(global_step) != saved[0] and int(global_step) >= saved[0] + 100:
                    manager.save(checkpoint_number=global_step)
                    saved = (int(global_step), time.time())
                if int(global_step) >= last_step:
                    break
            if int(global_step) != saved[0]:
                manager.save(checkpoint_number=global_step)
            writer.flush()
        eval_metrics = {"accuracy": tf.keras.metrics.Accuracy(), "loss": tf.keras.metrics.Mean()}

        @tf.function
        def eval_step(features):
            loss, outputs = model(features, False)
            eval_metrics["loss"].update_state(loss)
            for name, inputs in outputs.items():
                eval_metrics[name].update_state(*inputs)

        def evaluate(dataset, steps):
            # (the Estimator's evaluate: the mean loss and the EVAL branch's metrics over `steps` batches, or until the input
            # ends, of the checkpoint its train saved last, which the port holds)
            if steps is not None and steps <= 0:
                raise ValueError(f"Must specify steps > 0, given: {steps}")
            for metric in eval_metrics.values():
                metric.reset_state()
            for features in itertools.islice(dataset, steps):
                eval_step(features)
            result = {name: metric.result().numpy() for name, metric in eval_metrics.items()}
            result["global_step"] = global_step.numpy()
            tf.get_logger().info("Saving dict for global step %s: %s", result["global_step"], ", ".join(f"{key} = {value!s}" for key, value in sorted(result.items())))
            eval_writer = tf.summary.create_file_writer(os.path.join("/tmp/m", "eval"))
            with eval_writer.as_default():
                for name, value in result.items():
                    if name != "global_step":
                        tf.summary.scalar(name, value, step=result["global_step"])
                tf.summary.write("checkpoint_path", manager.latest_checkpoint, step=result["global_step"])
            eval_writer.flush()
            return result
        result = evaluate(input_fn_builder(path, False)(params={**params, "batch_size": 4}), 2)
        print(result["global_step"])
        """
        self.assertCodemod(PROGRAM, after, level="native")
        (entry,) = self.applied(PROGRAM, level="native").entries
        assert entry.message.startswith(MESSAGE + ": TPUEstimator's model_fn (off the TPU): 1 tf.get_variable"), entry
        assert "where use_tpu is true at run time, the port stops with a one-line error" in entry.message

    def test_must_not_fire_where_the_port_is_not_proven_one_entry_says_why(self):
        loss = '(from_logits=True)(features["label"], logits)'
        cases = {
            "a TPUEstimator without use_tpu=": ("use_tpu=FLAGS.use_tpu, ", ""),
            "a TPUEstimator(use_tpu=True)": ("use_tpu=FLAGS.use_tpu, ", "use_tpu=True, "),
            "CrossShardOptimizer under a condition other than": ('if params["use_tpu"]:', 'if params["other"]:'),
            # (params' use_tpu is not the TPUEstimator's: the branch may run where the port does)
            "CrossShardOptimizer under a condition other than params[key]": (
                '{"use_tpu": FLAGS.use_tpu}',
                '{"use_tpu": True}',
            ),
            "TPUEstimator(predict_batch_size=...)": ("eval_batch_size=4,", "eval_batch_size=4, predict_batch_size=4,"),
            "without the batch size of this mode": ("train_batch_size=8, ", ""),
            "a TPU model_fn reading labels": (loss, "(from_logits=True)(labels, logits)"),
            "a TPU model_fn reading params": (
                "tf.reduce_mean(hidden, axis=1)",
                'tf.reduce_mean(hidden, axis=1) * params["batch_size"]',
            ),
            "graph code, a random op or the mode": (
                "tf.reduce_mean(hidden, axis=1)",
                "tf.reduce_mean(hidden, axis=1) + tf.random.normal([8])",
            ),
            "`attention`, a function of graph code": ("/ np.sqrt(", "/ tf.compat.v1.get_variable('s', []) / np.sqrt("),
            "a metric_fn value other than tf.metrics.accuracy or tf.metrics.mean": (
                ".metrics.accuracy(",
                ".metrics.auc(",
            ),
            "a resolver bound or read elsewhere": ('    print(result["global_step"])', "    print(resolver)"),
            # (TF1's dense took its input's dtype, a Keras Dense is float32)
            "a dense layer's input not proven float32": (
                "dense(tf.reduce_mean(hidden, axis=1), 2)",
                "dense(tf.cast(tf.reduce_mean(hidden, axis=1), tf.float64), 2)",
            ),
            "a dense layer's input not proven float32 ": (
                "dense(tf.reduce_mean(hidden, axis=1), 2)",
                'dense(features["x"], 2)',
            ),
            "`embeddings`, a variable or layer of the model_fn, bound again": (
                "hidden = attention(",
                "embeddings = embeddings * 2.0\n        hidden = attention(",
            ),
            # (the port's batches are features alone: TPUEstimator split (features, labels) pairs)
            "an input_fn whose batches are not proven features alone": (
                "lambda r: tf.io.parse_single_example(r, spec)",
                "lambda r: (tf.io.parse_single_example(r, spec), 0)",
            ),
            "a tpu_config that is not a TPUConfig(...) call": (
                "tpu_config=tf.compat.v1.estimator.tpu.TPUConfig(",
                "tpu_config=dict(",
            ),
            # (the entry says which fields differ: helper-90's spec without eval_metrics was said "of other than")
            "a TPUEstimatorSpec without eval_metrics (the rule reads one of exactly mode=mode, eval_metrics and loss)": (
                ', eval_metrics=(metric_fn, [features["label"], logits])',
                "",
            ),
            "a TPUEstimatorSpec with predictions (the rule reads one of exactly mode=mode, loss and train_op)": (
                "loss=loss, train_op=train_op)",
                "loss=loss, train_op=train_op, predictions=logits)",
            ),
            "a TPUEstimatorSpec without train_op and with mode=tf.estimator.ModeKeys.TRAIN (the rule reads one of "
            "exactly mode=mode, loss and train_op)": (
                "mode=mode, loss=loss, train_op=train_op)",
                "mode=tf.estimator.ModeKeys.TRAIN, loss=loss)",
            ),
            # (a `del` of labels and other names is a statement model() does not take; `del labels` alone converts)
            "a TRAIN branch other than an optimizer, its minimize and the spec": (
                "            optimizer = tf.compat.v1.train.AdamOptimizer(0.01)",
                "            del labels\n            optimizer = tf.compat.v1.train.AdamOptimizer(0.01)",
            ),
            "a statement in a TPU model_fn other than `name = value`": (
                "        embeddings = tf.compat.v1.get_variable(",
                "        del labels, mode\n        embeddings = tf.compat.v1.get_variable(",
            ),
        }
        for why, (old, new) in cases.items():
            assert old in PROGRAM, old
            (refused,) = self.refused(PROGRAM.replace(old, new))
            assert why.strip() in refused, (why, refused)

    def test_a_model_fn_deleting_labels_or_params_it_does_not_read_converts_alike(self):
        """BERT-style `del labels` (or `del labels, params` where params is read nowhere else) reads neither: the
        port, which gives model() the features alone, is the program's without it (helper-90's labelsarg.py was said
        to read labels)."""
        first = "        embeddings = tf.compat.v1.get_variable("
        crossed = '            if params["use_tpu"]:\n                optimizer = tf.compat.v1.tpu.CrossShardOptimizer(optimizer)\n'
        assert first in PROGRAM and crossed in PROGRAM
        unread = PROGRAM.replace(crossed, "")  # (params read nowhere)
        for program, deleted in ((PROGRAM, "labels"), (unread, "labels, params"), (unread, "params, labels")):
            with self.subTest(deleted=deleted):
                expected = self.applied(program, level="native").module.code
                assert "def train_step(" in expected, expected
                self.assertCodemod(program.replace(first, f"        del {deleted}\n{first}"), expected, level="native")
        # (TF1 raised UnboundLocalError at the TRAIN branch's params["use_tpu"]: the `del` is not dropped)
        (refused,) = self.refused(PROGRAM.replace(first, f"        del labels, params\n{first}"))
        assert refused.endswith(
            "`del labels, params` of params read by another statement of the model_fn (the rule drops a `del` of "
            "labels or params read nowhere else)"
        ), refused


def test_the_port_stops_with_one_line_where_use_tpu_is_true():
    """The guard the port begins with, run as written: use_tpu false goes on, true stops it with one line
    (sys.exit: exit status 1); use_tpu=False written out writes none."""
    code = apply(textwrap.dedent(PROGRAM), NativeEstimatorLoopRule, level="native").module.code
    lines = code.split("def main(_):\n", 1)[1].splitlines()
    guard = textwrap.dedent("\n".join(lines[3:5]))
    assert guard == tpu.use_tpu_guard("FLAGS.use_tpu").rstrip("\n"), guard
    exec(guard, {"FLAGS": types.SimpleNamespace(use_tpu=False), "sys": sys})  # noqa: S102 - the port's own code
    with pytest.raises(SystemExit) as stopped:
        exec(guard, {"FLAGS": types.SimpleNamespace(use_tpu=True), "sys": sys})  # noqa: S102
    assert stopped.value.code == tpu.STOP and "\n" not in tpu.STOP
    off = textwrap.dedent(PROGRAM).replace("use_tpu=FLAGS.use_tpu, ", "use_tpu=False, ")
    assert 'sys.exit("use_tpu' not in apply(off, NativeEstimatorLoopRule, level="native").module.code


def test_save_checkpoints_steps_saves_as_the_estimator_s_hook_did():
    """RunConfig(save_checkpoints_steps=N) (TPU's or not): a checkpoint each time the global step reaches N past the
    last one saved, as the CheckpointSaverHook's step timer did, where save_checkpoints_secs saved by time."""
    code = apply(textwrap.dedent(PROGRAM), NativeEstimatorLoopRule, level="native").module.code
    assert "if int(global_step) != saved[0] and int(global_step) >= saved[0] + 100:" in code
    assert "time.time() >= saved[1]" not in code


# the corpus program, logging at INFO (its "Saving dict" line) and printing what evaluate returned
CORPUS = (REPO / "tests" / "corpus" / "bert_tpu_estimator.py").read_text()
EQUIVALENCE = CORPUS.replace(
    "tf.logging.set_verbosity(tf.logging.ERROR)", "tf.logging.set_verbosity(tf.logging.INFO)"
).replace(
    'print("trained to step", result["global_step"], "accuracy", "accuracy" in result)',
    'print("evaluated", repr([(key, type(value).__name__, value.item()) for key, value in result.items()]))',
)


def _run(path: str, output_dir: pathlib.Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, path, f"--output_dir={output_dir}", *flags],
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )


def _evaluated(done: subprocess.CompletedProcess) -> list[tuple[str, str, float]]:
    assert done.returncode == 0, done.stderr[-2000:]
    found = [line for line in done.stdout.splitlines() if line.startswith("evaluated ")]
    assert len(found) == 1, done.stdout
    return ast.literal_eval(found[0].removeprefix("evaluated "))


def _summaries(folder: pathlib.Path) -> list[tuple[int, str]]:
    import tensorflow as tf

    found = []
    for path in folder.glob("events.out.tfevents.*"):
        for event in tf.compat.v1.train.summary_iterator(str(path)):
            found += [(int(event.step), v.tag) for v in event.summary.value if v.tag != "global_step/sec"]
    return sorted(found)


def _trained(path: pathlib.Path, names: list[str], object_based: bool) -> list:
    """The values of TF1's variable `names` in the checkpoint `path` (the port's: under its objects' paths)."""
    import tensorflow as tf

    reader = tf.train.load_checkpoint(str(path))
    return [reader.get_tensor(f"{n}/.ATTRIBUTES/VARIABLE_VALUE" if object_based else n) for n in names]


# the corpus program's model_fn deleting the labels it does not read (BERT-style): the port drops the `del`
MODEL_FN = "def model_fn(features, labels, mode, params):\n"
DELETING = EQUIVALENCE.replace(MODEL_FN, MODEL_FN + "    del labels\n")


@pytest.mark.parametrize("program", [EQUIVALENCE, DELETING], ids=["corpus", "del labels"])
def test_the_corpus_program_ports_to_the_same_variables_and_evaluation(tmp_path, program):
    """Both ports train 3 steps from the safe port's step-0 checkpoint to the same variables (Adam: float rounding),
    evaluate to the same dict (its keys in order, NumPy types, values within 1e-5), write the same summaries and
    checkpoints, and the native port stops with one line under --use_tpu."""
    assert program.count("del labels") == (program is DELETING), program
    ported = {}
    for level, (path, report) in migrated(tmp_path, "bert_tpu_estimator.py", program).items():
        ported[level] = path
        entries = [e for f in report.get("files", []) for e in f.get("entries", [])]
        said = [e["message"] for e in entries if e["rule"] == NativeEstimatorLoopRule.ID]
        assert [m.startswith(MESSAGE) for m in said] == ([True] if level == "native" else []), said
        # (no entry says the model_fn's layer or optimizer stays at the safe level: the port converted them)
        left = [e["message"] for e in entries if e["rule"] in ("native-layers", "native-optimizer")]
        assert not [m for m in left if "left at the safe level" in m], left
    code = pathlib.Path(ported["native"]).read_text()
    assert "compat.v1" not in code and "tf.estimator" not in code and "TPUClusterResolver" not in code, code
    safe_run = _run(ported["safe"], tmp_path / "safe_dir")
    start = tmp_path / "native_dir"
    start.mkdir()
    for found in (tmp_path / "safe_dir").glob("model.ckpt-0.*"):
        shutil.copy(found, start)
    (start / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-0"\n')
    native_run = _run(ported["native"], start)
    safe_result, native_result = _evaluated(safe_run), _evaluated(native_run)
    assert [r[:2] for r in safe_result] == [r[:2] for r in native_result], (safe_result, native_result)
    assert [r[0] for r in safe_result] == ["accuracy", "loss", "global_step"]
    assert max(abs(a[2] - b[2]) for a, b in zip(safe_result, native_result)) <= 1e-5, (safe_result, native_result)
    assert safe_result[2][2] == native_result[2][2] == 3
    names = ["embeddings", "dense/kernel", "dense/bias"]
    safe_values = _trained(tmp_path / "safe_dir" / "model.ckpt-3", names, False)
    native_values = _trained(start / "model.ckpt-3", names, True)
    initial = _trained(tmp_path / "safe_dir" / "model.ckpt-0", names, False)
    for name, a, b, c in zip(names, safe_values, native_values, initial):
        assert abs(a - b).max() <= 1e-5, (name, abs(a - b).max())
        assert abs(a - c).max() > 1e-3, name  # (trained: Adam at 0.01 moved each of them)
    # (the loss summary after the first step; evaluate's at step 3 in eval/; checkpoints at 0, then at the end)
    assert _summaries(tmp_path / "safe_dir") == _summaries(start) == [(1, "loss")]
    assert _summaries(tmp_path / "safe_dir" / "eval") == _summaries(start / "eval")
    assert _summaries(start / "eval") == [(3, "accuracy"), (3, "checkpoint_path"), (3, "loss")]
    saved = sorted(p.name for p in (tmp_path / "safe_dir").glob("model.ckpt-*.index"))
    assert (
        saved
        == sorted(p.name for p in start.glob("model.ckpt-*.index"))
        == ["model.ckpt-0.index", "model.ckpt-3.index"]
    )
    # (the line it logged, once per logger it reaches: TF's and absl's handler)
    (safe_line,) = {line[line.index("Saving dict") :] for line in safe_run.stderr.splitlines() if "Saving dict" in line}
    (native_line,) = {
        line[line.index("Saving dict") :] for line in native_run.stderr.splitlines() if "Saving dict" in line
    }
    keys = re.compile(r"(\w+) = ")
    assert keys.findall(safe_line) == keys.findall(native_line) == ["accuracy", "global_step", "loss"], native_line
    assert "Saving dict for global step 3: " in native_line
    stopped = _run(ported["native"], tmp_path / "tpu_dir", "--use_tpu")
    assert stopped.returncode == 1 and stopped.stderr.strip().splitlines()[-1] == tpu.STOP, stopped.stderr[-2000:]
