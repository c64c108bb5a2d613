"""native-estimator-loop's hooks: a model_fn's LoggingTensorHook of its loss (training_hooks=) and a train(hooks=) of
module classes of the simple shape (begin, before_run fetching the global step, after_run reading its results, end)
become plain Python around the port's steps; any other hook keeps the program on the Estimator with one entry saying
why. The equivalence test runs both ports of a TF1 program with both hooks from the safe port's step-0 checkpoint and
compares the losses and the lines the hooks printed and logged (TF 2.15's real Estimator in the tf1 environment).
"""

import pathlib
import re
import shutil
import subprocess
import sys

from codemods.rules.native_estimator_loop import NativeEstimatorLoopRule
from tests.support.native_ports import migrated
from tests.support.rule_test import RuleTest
from tests.support.runs import clean_env

# an Estimator program as native-layers, native-losses and native-data leave it
PROGRAM = """
    import compat
    import tensorflow as tf

    def model_fn(features, labels, mode):
        logits = tf.keras.layers.Dense(3, dtype=features.dtype)(features)
        loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)
        train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss, tf.compat.v1.train.get_or_create_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

    def input_fn():
        return tf.data.Dataset.from_tensors(([[1.0, 2.0]], [1])).repeat()

    def main():
        config = tf.estimator.RunConfig(model_dir="/tmp/m", tf_random_seed=1, log_step_count_steps=1)
        tf.estimator.Estimator(model_fn, config=config).train(input_fn, steps=2)
"""
SPEC = "return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)"
TRAIN = "tf.estimator.Estimator(model_fn, config=config).train(input_fn, steps=2)"
# a hook class as the safe rules leave one (tf-private's tf.compat.v1.train spellings)
COUNTER = """
    class StepCounter(tf.compat.v1.train.SessionRunHook):
        def begin(self):
            self.step = tf.compat.v1.train.get_global_step()
            self.runs = 0

        def before_run(self, run_context):
            return tf.compat.v1.train.SessionRunArgs(self.step)

        def after_run(self, run_context, run_values):
            self.runs += 1
            print("hook saw step", run_values.results)

        def end(self, session):
            print("hook ran", self.runs, "times")
"""
LOGGING = 'tf.compat.v1.train.LoggingTensorHook({"loss": loss, "again": loss}, every_n_iter=2)'


def _hooked(logging: str = LOGGING, hooks: str = "[StepCounter()]", counter: str = COUNTER) -> str:
    assert SPEC in PROGRAM and TRAIN in PROGRAM
    source = PROGRAM.replace(SPEC, SPEC.replace("train_op)", f"train_op, training_hooks=[{logging}])"))
    source = source.replace(TRAIN, TRAIN.replace("steps=2)", f"steps=2, hooks={hooks})"))
    return source.replace("\n    def model_fn", counter.rstrip() + "\n\n    def model_fn")


class TestNativeEstimatorLoopHooks(RuleTest):
    TRANSFORM = NativeEstimatorLoopRule

    def test_logging_tensor_hook_and_a_step_hook_become_calls_around_the_steps(self):
        plain = self.applied(PROGRAM, level="native").module.code
        ported = self.applied(_hooked(), level="native")
        code = ported.module.code
        # the hook class keeps its plain Python: no SessionRunHook base, no fetch, the results given to after_run
        counter = """
class StepCounter:
    def begin(self):
        self.runs = 0

    def after_run(self, results):
        self.runs += 1
        print("hook saw step", results)

    def end(self):
        print("hook ran", self.runs, "times")
"""
        assert counter in code, code
        expected = plain.replace("import time\n", "import time\n" + counter)
        loop_start = "        manager.save_at_start(checkpoint_number=global_step)\n"
        expected = expected.replace(
            loop_start,
            "        hook = StepCounter()  # (train(hooks=[StepCounter()]), its methods called where the Estimator's "
            "session called them)\n"
            "        hook.begin()\n" + loop_start,
        )
        expected = expected.replace(
            "        summarized = None\n",
            "        summarized = None\n        logged = None  # (LoggingTensorHook's last log: (iteration, time))\n",
        )
        expected = expected.replace(
            "            loss = train_step(features, labels)\n",
            "            seen = global_step.numpy()  # (the global step the hooks' SessionRunArgs fetched with the train op)\n"
            "            loss = train_step(features, labels)\n"
            "            hook.after_run(seen)\n",
        )
        logged = (
            "            if logged is None or iteration >= logged[0] + 2:  # (LoggingTensorHook(every_n_iter=2))\n"
            "                now = time.time()\n"
            "                if logged is None:\n"
            '                    tf.get_logger().info("again = %s, loss = %s", loss.numpy(), loss.numpy())\n'
            "                else:\n"
            '                    tf.get_logger().info("again = %s, loss = %s (%.3f sec)", loss.numpy(), loss.numpy(), '
            "now - logged[1])\n"
            "                logged = (iteration, now)\n"
        )
        log_line = '                tf.get_logger().info("loss = %s, step = %s", loss.numpy(), step)\n'
        expected = expected.replace(log_line, log_line + logged)
        expected = expected.replace("        writer.flush()\n", "        writer.flush()\n        hook.end()\n")
        self.assertCodeEqual(expected, code)
        (entry,) = [e for e in ported.entries if e.rule == NativeEstimatorLoopRule.ID]
        assert "LoggingTensorHook" in entry.message and "StepCounter" in entry.message, entry.message

    def test_a_hook_imported_by_name_and_bound_in_the_model_fn_ports_alike(self):
        """The corpus's spelling as tf-private leaves it (`from tensorflow.compat.v1.train import LoggingTensorHook`)
        and the tutorials' `logging_hook = LoggingTensorHook(...)` then `training_hooks=[logging_hook]`: the same port,
        the import dropped with the hook."""
        spec = SPEC.replace("train_op)", "train_op, training_hooks=[logging_hook])")
        source = _hooked().replace(f"training_hooks=[{LOGGING}]", "training_hooks=[logging_hook]")
        source = source.replace(
            f"        {spec}",
            f"        logging_hook = {LOGGING.replace('tf.compat.v1.train.', '')}\n        {spec}",
        )
        source = source.replace(
            "import tensorflow as tf\n",
            "import tensorflow as tf\n    from tensorflow.compat.v1.train import LoggingTensorHook\n",
            1,
        )
        assert "logging_hook = LoggingTensorHook(" in source and "import LoggingTensorHook" in source, source
        self.assertCodemod(source, self.applied(_hooked(), level="native").module.code, level="native")

    def test_every_n_secs_decides_before_the_step_as_the_hook_did(self):
        code = self.applied(_hooked(LOGGING.replace("every_n_iter=2", "every_n_secs=5"), "[]", ""), level="native")
        text = code.module.code
        assert "            due = logged is None or time.time() >= logged[1] + 5" in text, text
        assert "            if due:  # (LoggingTensorHook(every_n_secs=5))\n" in text, text
        assert "StepCounter" not in text and "hook." not in text

    def test_must_not_fire_on_hooks_the_port_does_not_prove_one_entry_says_why(self):
        cases = {
            "not a positive number written out": _hooked(LOGGING.replace("every_n_iter=2", "every_n_iter=0")),
            "training_hooks= other than a list written out": _hooked().replace(f"[{LOGGING}]", "make_hooks()"),
            "at_end=": _hooked(LOGGING.replace("every_n_iter=2", "every_n_iter=2, at_end=True")),
            "formatter=": _hooked(LOGGING.replace("every_n_iter=2", "every_n_iter=2, formatter=str")),
            "a tensor other than the loss": _hooked(LOGGING.replace('"again": loss', '"again": logits')),
            "exactly one of every_n_iter and every_n_secs": _hooked(
                LOGGING.replace("every_n_iter=2", "every_n_iter=2, every_n_secs=1")
            ),
            "LoggingTensorHook in train(hooks=)": _hooked(hooks='[tf.compat.v1.train.LoggingTensorHook(["loss"], 1)]'),
            "reads its run_context": _hooked(
                counter=COUNTER.replace("self.runs += 1", "self.runs += 1\n            run_context.request_stop()")
            ),
            "TensorFlow in its methods": _hooked(
                counter=COUNTER.replace("self.runs = 0", "self.runs = tf.constant(0)")
            ),
            "a method other than begin, before_run, after_run and end": _hooked(
                counter=COUNTER + "\n        def after_create_session(self, session, coord):\n            pass\n"
            ),
            "a hook other than a call of a SessionRunHook class of the module": _hooked(hooks="[make_hook()]"),
            "reads its session": _hooked(counter=COUNTER.replace('print("hook ran",', "print(session,")),
            "before_run other than": _hooked(
                counter=COUNTER.replace("SessionRunArgs(self.step)", "SessionRunArgs({'s': self.step})")
            ),
        }
        for why, source in cases.items():
            assert source != _hooked() or why == "", why
            (refused,) = self.refused(source)
            assert why in refused, (why, refused)


# a TF1 Estimator program with both hooks, trained into the model_dir of argv[1] up to max_steps=argv[2] (the prints
# flushed, so that they keep their place among the log's lines)
EQUIVALENCE = """
    import sys

    import numpy as np
    import tensorflow as tf


    class StepCounter(tf.train.SessionRunHook):
        def begin(self):
            self.step = tf.train.get_global_step()
            self.runs = 0

        def before_run(self, run_context):
            return tf.train.SessionRunArgs(self.step)

        def after_run(self, run_context, run_values):
            self.runs += 1
            print("hook saw step", run_values.results, type(run_values.results).__name__, flush=True)

        def end(self, session):
            print("hook ran", self.runs, "times", flush=True)


    def model_fn(features, labels, mode):
        logits = tf.layers.dense(features, 3)
        loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, tf.train.get_or_create_global_step())
        hooks = [
            tf.train.LoggingTensorHook({"loss": loss, "again": loss}, every_n_iter=2),
            tf.train.LoggingTensorHook({"hourly": loss}, every_n_secs=3600),
        ]
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, training_hooks=hooks)


    def input_fn():
        rng = np.random.RandomState(0)
        x, y = rng.rand(16, 5).astype(np.float32), rng.randint(0, 3, 16)
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat()


    if __name__ == "__main__":
        tf.logging.set_verbosity(tf.logging.INFO)
        config = tf.estimator.RunConfig(model_dir=sys.argv[1], tf_random_seed=1, log_step_count_steps=1)
        tf.estimator.Estimator(model_fn, config=config).train(input_fn, max_steps=int(sys.argv[2]), hooks=[StepCounter()])
"""


def _printed(path: str, model_dir: pathlib.Path) -> list[str]:
    """The lines the hooks and the Estimator's loss/step log wrote, in their order, a hook line's timing as `(sec)`."""
    done = subprocess.run(
        [sys.executable, "-u", path, str(model_dir), "5"],
        env=clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    wanted = r"hook |INFO:tensorflow:(loss|again|hourly) = "
    found = [line for line in done.stdout.splitlines() if re.match(wanted, line)]
    # (the Estimator's own loss/step line was timed too, the port's is not: README's --level native says so)
    return [re.sub(r" \(\d+\.\d{3} sec\)$", "" if ", step = " in line else " (sec)", line) for line in found]


def test_the_hooks_print_and_log_in_the_port_as_in_the_estimator(tmp_path):
    """From the safe port's step-0 checkpoint: the same losses, the hook's prints and the LoggingTensorHooks' lines in
    the same order (every 2 steps from the first, the later ones timed; every 3600 seconds: the first step alone)."""
    ported = {level: path for level, (path, _) in migrated(tmp_path, "estimator_hooks.py", EQUIVALENCE).items()}
    code = pathlib.Path(ported["native"]).read_text()
    assert "compat.v1" not in code and "tf.estimator" not in code, code
    assert "train.SessionRunHook" not in code and "train.LoggingTensorHook" not in code, code
    safe = _printed(ported["safe"], tmp_path / "safe_dir")
    start = tmp_path / "native_dir"
    start.mkdir()
    for found in (tmp_path / "safe_dir").glob("model.ckpt-0.*"):
        shutil.copy(found, start)
    (start / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-0"\n')
    native = port = _printed(ported["native"], start)  # (the port's own lines: it gives the step before the update)
    losses = [re.search(r"loss = (\S+), step = (\d+)", line) for line in safe if ", step = " in line]
    steps = [int(found.group(2)) for found in losses if found]
    # (TF1's fetch of the global step raced the train op's increment: the step before it, now and then the one after)
    assert all(step in (i, i + 1) for i, step in enumerate(steps)) and len(steps) == 5, safe
    raced = [i for i, step in enumerate(steps) if step != i]
    if raced:  # (the hook saw what the Estimator's own step = saw, the same fetch; the port gives the step before)
        saw = [f"hook saw step {step} int64" for step in steps]
        assert [line for line in safe if line.startswith("hook saw")] == saw, safe
        # (both the hook's `step N` and the Estimator's own `step = N` line read that fetch)
        safe = [re.sub(r"step( =)? \d+", r"step\1", line) for line in safe]
        native = [re.sub(r"step( =)? \d+", r"step\1", line) for line in native]
    assert native == safe, (safe, native)
    assert port[:4] == [
        "hook saw step 0 int64",
        f"INFO:tensorflow:loss = {losses[0].group(1)}, step = 0",
        f"INFO:tensorflow:again = {losses[0].group(1)}, loss = {losses[0].group(1)}",
        f"INFO:tensorflow:hourly = {losses[0].group(1)}",
    ], port
    assert sum(line.endswith("(sec)") for line in port) == 2 and port[-1] == "hook ran 5 times", port
