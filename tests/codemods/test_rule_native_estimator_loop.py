"""native-estimator-loop: a single-process Estimator program of the simple shape -> TF 2's own training loop, or
the safe level with one entry saying why; and a program ported at both levels trains to the same losses from the
safe port's step-0 checkpoint, trains nothing past max_steps and stops in a cluster's TF_CONFIG.

The rule runs alone in the before/after cases, on a program as the other native rules leave it (Keras layers,
the Keras loss, `return dataset`); the equivalence test migrates a TF1 program with uai-migrate at both levels.
"""

import ast
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable

import pytest

from codemods.rules import select
from codemods.rules.native_estimator import NativeEstimatorRule
from codemods.rules.native_estimator_loop import MESSAGE, NativeEstimatorLoopRule
from tests.support.native_ports import migrated
from tests.support.rule_test import RuleTest, apply
from tests.support.runs import clean_env

# an Estimator program as native-layers, native-losses and native-data leave it
PROGRAM = """
    import compat
    import tensorflow as tf

    def model_fn(features, labels, mode):
        batch_norms = []
        net = tf.keras.layers.Dense(4, name="hidden", dtype=features.dtype)(features)
        batch_norm = tf.keras.layers.BatchNormalization(dtype=net.dtype)
        batch_norms.append(batch_norm)
        net = tf.nn.relu(batch_norm(net, training=mode == tf.estimator.ModeKeys.TRAIN))
        logits = tf.keras.layers.Dense(3, dtype=net.dtype)(net)
        loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)
        update_ops = [update for layer in batch_norms for update in layer.updates]
        with tf.control_dependencies(update_ops):
            train_op = tf.compat.v1.train.MomentumOptimizer(0.1, 0.9).minimize(loss, tf.compat.v1.train.get_or_create_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

    def input_fn():
        return tf.data.Dataset.from_tensors(([[1.0, 2.0]], [1])).repeat()

    def main():
        config = tf.estimator.RunConfig(model_dir="/tmp/m", tf_random_seed=1, log_step_count_steps=1)
        tf.estimator.Estimator(model_fn, config=config).train(input_fn, steps=2)
"""


# an EVAL branch after the loss (native-metrics leaves tf.metrics at tf.compat.v1: they run in the Estimator's graph)
EVAL_BRANCH = """\
        if mode == tf.estimator.ModeKeys.EVAL:
            accuracy = tf.compat.v1.metrics.accuracy(labels, tf.argmax(logits, axis=-1))
            return tf.estimator.EstimatorSpec(
                mode,
                loss=loss,
                eval_metric_ops={"accuracy": accuracy, "top": tf.compat.v1.metrics.mean(tf.reduce_max(logits, axis=-1))},
            )
"""
# the port's evaluate() of EVAL_BRANCH, in main() (model_dir "/tmp/m") where `result = estimator.evaluate(input_fn,
# steps=3)` was
EVALUATE = """\
    eval_metrics = {"accuracy": tf.keras.metrics.Accuracy(), "loss": tf.keras.metrics.Mean(), "top": tf.keras.metrics.Mean()}

    @tf.function
    def eval_step(features, labels):
        loss, outputs = model(features, labels, False)
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
        for features, labels in itertools.islice(dataset, steps):
            eval_step(features, labels)
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
    result = evaluate(input_fn(), 3)
"""


def _evaluating(then: str) -> str:
    """PROGRAM with EVAL_BRANCH, its Estimator bound to `estimator` and trained, then `then` (lines of main())."""
    loss_line = "        loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)\n"
    train = "        tf.estimator.Estimator(model_fn, config=config).train(input_fn, steps=2)\n"
    evaluated = "        estimator = tf.estimator.Estimator(model_fn, config=config)\n        estimator.train(input_fn, steps=2)\n"
    assert loss_line in PROGRAM and train in PROGRAM
    return PROGRAM.replace(loss_line, loss_line + EVAL_BRANCH).replace(train, evaluated + then)


class TestNativeEstimatorLoopRule(RuleTest):
    TRANSFORM = NativeEstimatorLoopRule

    def assert_refuses(
        self,
        program: str,
        cases: dict[str, tuple[str, str]],
        adjust: Callable[[str, str], str] = lambda why, source: source,
    ) -> None:
        """Each case (why: (old, new)) of `program` (with `adjust(why, source)`) stays on the Estimator, its one
        entry saying why."""
        for why, (old, new) in cases.items():
            assert old in program, old
            (refused,) = self.refused(adjust(why, program.replace(old, new)))
            assert why in refused, (why, refused)

    def test_the_simple_shape_becomes_an_eager_loop_restoring_and_saving_model_dir(self):
        after = """
        import compat.tf1_saver
        import compat.tf1_slots
        import compat
        import tensorflow as tf
        import itertools
        import json
        import os
        import sys
        import time

        def input_fn():
            return tf.data.Dataset.from_tensors(([[1.0, 2.0]], [1])).repeat()

        def main():
            if sum(len(tasks) for tasks in (json.loads(os.environ.get("TF_CONFIG") or "{}").get("cluster") or {}).values()) > 1:
                sys.exit("TF_CONFIG names a cluster of more than one task; this program, ported from an Estimator program by uai-migrate --level native, trains in one process")
            tf.keras.utils.set_random_seed(1)
            dataset = input_fn()
            dtype = dataset.element_spec[0].dtype  # (TF1 layers took the dtype of their input)
            hidden = tf.keras.layers.Dense(4, name="hidden", dtype=dtype)
            batch_norm = tf.keras.layers.BatchNormalization(dtype=dtype)
            dense = tf.keras.layers.Dense(3, dtype=dtype)

            def model(features, labels, training):
                net = hidden(features)
                net = tf.nn.relu(batch_norm(net, training=training))
                logits = dense(net)
                loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)
                return loss

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
            global_step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")

            @tf.function
            def train_step(features, labels):
                with tf.GradientTape() as tape:
                    loss = model(features, labels, True)
                variables = tape.watched_variables()
                optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
                global_step.assign_add(1)  # (after the update, as minimize(loss, global_step) did)
                return loss

            batches = iter(dataset)
            first = next(batches)
            model(*first, False)  # (the layers make their variables, which the checkpoint restores)
            checkpoint = tf.train.Checkpoint(hidden=hidden, batch_norm=batch_norm, dense=dense, global_step=global_step, optimizer=optimizer)
            manager = compat.tf1_saver.CheckpointManager(checkpoint, "/tmp/m", max_to_keep=5, checkpoint_name="model.ckpt")
            checkpoint.restore(manager.latest_checkpoint)
            compat.tf1_slots.check_names([global_step, *hidden.variables, *batch_norm.variables, *dense.variables], manager.latest_checkpoint)
            compat.tf1_slots.restore_slots(optimizer, hidden.trainable_variables + batch_norm.trainable_variables + dense.trainable_variables, manager.latest_checkpoint)
            last_step = int(global_step) + 2
            if int(global_step) < last_step:  # (the Estimator trained nothing from a checkpoint at or past it)
                manager.save_at_start(checkpoint_number=global_step)
                saved = (int(global_step), time.time())
                writer = tf.summary.create_file_writer("/tmp/m")
                summarized = None
                for iteration, (features, labels) in enumerate(itertools.chain([first], batches)):
                    step = int(global_step)
                    loss = train_step(features, labels)
                    if iteration % 1 == 0:
                        tf.get_logger().info("loss = %s, step = %s", loss.numpy(), step)
                    if summarized is None or int(global_step) >= summarized + 100:
                        summarized = int(global_step)
                        with writer.as_default():
                            tf.summary.scalar("loss", loss, step=summarized)
                    if int(global_step) != saved[0] and time.time() >= saved[1] + 600:
                        manager.save(checkpoint_number=global_step)
                        saved = (int(global_step), time.time())
                    if int(global_step) >= last_step:
                        break
                if int(global_step) != saved[0]:
                    manager.save(checkpoint_number=global_step)
                writer.flush()
        """
        self.assertCodemod(PROGRAM, after, level="native")
        (entry,) = self.applied(PROGRAM, level="native").entries
        assert entry.message.startswith(MESSAGE + ": model_fn's 3 Keras layers made once"), entry.message
        assert "tf.train.MomentumOptimizer -> tf.keras.optimizers.SGD" in entry.message
        assert "from the same checkpoint (a run from scratch starts elsewhere)" in entry.message
        assert "where it names a cluster of more than one task the port stops" in entry.message

    def test_an_estimator_bound_to_a_name_then_trained_ports_alike(self):
        train = "tf.estimator.Estimator(model_fn, config=config).train(input_fn, steps=2)"
        bound = (
            "estimator = tf.estimator.Estimator(model_fn, config=config)\n        estimator.train(input_fn, steps=2)"
        )
        source = PROGRAM.replace(train, bound)
        assert self.applied(source, level="native").module.code == self.applied(PROGRAM, level="native").module.code
        besides = "the Estimator `estimator` is used besides its train(): "
        for elsewhere, use in {
            "\n        estimator.predict(input_fn)": "its predict()",
            "\n        print(estimator)": "`estimator` read as a value",
            '\n        print(estimator.get_variable_value("dense/kernel"))': (
                'its get_variable_value("dense/kernel") (the port reads "global_step" alone)'
            ),
            # (the step read between the trains is the first train's, the port's: the second train is what stays)
            '\n        print(estimator.get_variable_value("global_step"))\n        estimator.train(input_fn, steps=2)': (
                "another train()"
            ),
            "\n        estimator.train(input_fn, steps=2)": "another train()",
        }.items():
            (refused,) = self.refused(source + elsewhere)
            assert refused.endswith(besides + use + ", which the port does not reproduce"), (use, refused)
        # (before the train, the Estimator read its model_dir's checkpoint as it was)
        train_line = "        estimator.train(input_fn, steps=2)"
        (refused,) = self.refused(
            source.replace(train_line, '        print(estimator.get_variable_value("global_step"))\n' + train_line)
        )
        assert refused.endswith(
            besides + 'its get_variable_value("global_step") before the train, which the port does not reproduce'
        ), refused
        # (trained in a loop, evaluated after each round: the port would train once, where the train was)
        looped = source.replace(
            "        estimator.train(input_fn, steps=2)",
            "        for _ in range(2):\n            estimator.train(input_fn, steps=2)",
        )
        assert looped != source
        (refused,) = self.refused(looped)
        assert refused.endswith(
            "the Estimator `estimator` is trained in another block than the one binding it: in a `for` loop (the "
            "port trains once, where the train was)"
        ), refused

    def test_a_train_or_evaluate_under_an_if_is_refused_as_such(self):
        """BERT's `if FLAGS.do_train: estimator.train(...)` / `if FLAGS.do_eval: estimator.evaluate(...)`: the entry
        names the `if`, not a use the program does not make (helper-90, /tmp/h90/tpu/doflags.py)."""
        train = "        estimator.train(input_fn, steps=2)\n"
        evaluate = "        result = estimator.evaluate(input_fn, steps=3)\n"
        program = _evaluating(evaluate)
        assert train in program and evaluate in program
        guarded = program.replace(train, "        if do_train:\n    " + train).replace(
            evaluate, "        if do_eval:\n    " + evaluate
        )
        (refused,) = self.refused(guarded)
        assert refused.endswith(
            "the Estimator `estimator` is trained in another block than the one binding it: under an `if` (the rule "
            "ports a train in the block that makes the Estimator)"
        ), refused
        # (the Estimator made and trained in a `with` block, evaluated after it)
        bound = "        estimator = tf.estimator.Estimator(model_fn, config=config)\n" + train
        assert bound in program
        apart = program.replace(bound, "        with open('log') as log:\n" + textwrap.indent(bound, "    "))
        (refused,) = self.refused(apart)
        assert refused.endswith(
            "the Estimator `estimator` is used besides its train(): its evaluate() outside the train's block, which "
            "the port does not reproduce"
        ), refused

    def test_the_global_step_read_after_the_train_is_the_ports(self):
        """The Estimator read the global step of model_dir's latest checkpoint, which its train saved at the end (or
        restored, training nothing): the port's global step, saved there alike, as the NumPy int64 it returned."""
        train = "tf.estimator.Estimator(model_fn, config=config).train(input_fn, steps=2)"
        bound = (
            "estimator = tf.estimator.Estimator(model_fn, config=config)\n        estimator.train(input_fn, steps=2)"
        )
        read = '        if True:\n            print("at", estimator.get_variable_value("global_step"))\n'
        source = PROGRAM.replace(train, bound) + read
        after = self.applied(PROGRAM, level="native").module.code
        assert after.endswith("writer.flush()\n"), after[-200:]
        expected = after + '    if True:\n        print("at", global_step.numpy())\n'
        self.assertCodemod(source, expected, level="native")

    def test_params_given_as_a_dict_reach_model_fn_and_input_fn_as_the_estimator_passed_them(self):
        """The Estimator passed its params= (a dict written out, or a name bound once to one) to model_fn and input_fn
        where they take `params`: the port binds the same dict where the train was and passes it to both."""
        source = (
            PROGRAM.replace("def model_fn(features, labels, mode):", "def model_fn(features, labels, mode, params):")
            .replace('Dense(4, name="hidden"', 'Dense(params["units"], name="hidden"')
            .replace("def input_fn():", "def input_fn(params):")
            .replace(".repeat()", '.repeat().take(params["count"])')
            .replace("config=config)", 'config=config, params={"units": 4, "count": 5})')
        )
        expected = (
            self.applied(PROGRAM, level="native")
            .module.code.replace("def input_fn():", "def input_fn(params):")
            .replace(".repeat()", '.repeat().take(params["count"])')
            .replace(
                "    dataset = input_fn()\n",
                '    params = {"units": 4, "count": 5}\n    dataset = input_fn(params=params)\n',
            )
            .replace('Dense(4, name="hidden"', 'Dense(params["units"], name="hidden"')
        )
        self.assertCodemod(source, expected, level="native")
        bound = source.replace(
            '        tf.estimator.Estimator(model_fn, config=config, params={"units": 4, "count": 5})',
            '        hparams = {"units": 4, "count": 5}\n        tf.estimator.Estimator(model_fn, config=config, params=hparams)',
        )
        assert bound != source
        self.assertCodemod(bound, expected, level="native")
        # (a read of the dict too: the Estimator's copy held the same keys)
        got = source.replace('Dense(params["units"], name="hidden"', 'Dense(params.get("units", 8), name="hidden"')
        assert got != source
        self.assertCodemod(
            got,
            expected.replace('Dense(params["units"], name="hidden"', 'Dense(params.get("units", 8), name="hidden"'),
            level="native",
        )

    def test_evaluate_after_the_train_runs_the_eval_branch_metrics_over_its_steps(self):
        """evaluate(input_fn, steps=N) after the train: the EVAL branch's tf.metrics as Keras metrics made once, over
        N batches (or until the input ends) of model() in inference mode; it returns what the Estimator returned
        (each metric and the mean of the batches' losses in sorted order, then the global step) and writes them to
        model_dir/eval."""
        source = _evaluating(
            '        result = estimator.evaluate(input_fn, steps=3)\n        print(result["accuracy"], result)\n'
        )
        assert "estimator.evaluate(input_fn, steps=3)" in source and "ModeKeys.EVAL" in source, source
        expected = (
            self.applied(PROGRAM, level="native")
            .module.code.replace(
                "        return loss\n",
                '        return loss, {"accuracy": (labels, tf.cast(tf.argmax(logits, axis=-1), labels.dtype)), "top": '
                "(tf.reduce_max(logits, axis=-1),)}\n",
                1,  # (model()'s, not the train step's)
            )
            .replace(
                "            loss = model(features, labels, True)\n",
                "            loss, _ = model(features, labels, True)\n",
            )
            .replace(
                "        writer.flush()\n",
                "        writer.flush()\n" + EVALUATE + '    print(result["accuracy"], result)\n',
            )
        )
        self.assertCodemod(source, expected, level="native")
        (entry,) = self.applied(source, level="native").entries
        assert "evaluate(): the EVAL branch's 2 tf.metrics -> Keras metrics (accuracy, top)" in entry.message, (
            entry.message
        )
        # (measured on TF 2.15's Estimator: two evaluate() calls wrote one events file in model_dir/eval, with the
        # graph; the port writes one per call, without it. Adam moved a bias before batch normalization, whose
        # gradient is 0 but for rounding, 2.4e-2 apart in 3 steps: the evaluate loss differed by 2e-4)
        assert "each evaluate() call writes an events file of its own, without the graph" in entry.message
        assert "Adam scales the rounding of a gradient that is 0 in exact arithmetic" in entry.message
        # without an EVAL branch, the Estimator evaluated the loss alone (its EstimatorSpec's train_op not run)
        code = self.applied(source.replace(EVAL_BRANCH, ""), level="native").module.code
        assert "        return loss, {}\n" in code and 'eval_metrics = {"loss": tf.keras.metrics.Mean()}' in code, code

    def test_a_train_branch_returning_first_ports_as_the_eval_branch_first(self):
        """`if mode == TRAIN: ...; return EstimatorSpec(train_op)` then the EVAL statements ending in their spec: the
        Estimator called model_fn in these two modes only, so it is the EVAL branch first, written the other way."""
        eval_first = _evaluating("        print(estimator.evaluate(input_fn, steps=3))\n")
        start = eval_first.index("        update_ops = ")
        end = eval_first.index("        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)\n")
        trained = (
            eval_first[start:end] + "        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)\n"
        )
        branch = eval_first.index("        if mode == tf.estimator.ModeKeys.EVAL:\n")
        evaluation = textwrap.indent(textwrap.dedent(eval_first[branch:start].split("\n", 1)[1]), " " * 8)
        train_first = (
            eval_first[:branch]
            + "        if mode == tf.estimator.ModeKeys.TRAIN:\n"
            + textwrap.indent(trained, "    ")
            + evaluation
            + eval_first[end + len(trained) - len(eval_first[start:end]) :]
        )
        assert train_first.count("return tf.estimator.EstimatorSpec(") == 2, train_first
        assert train_first.index("ModeKeys.TRAIN:") < train_first.index("eval_metric_ops"), train_first
        expected = self.applied(eval_first, level="native").module.code
        assert "def evaluate(dataset, steps):" in expected, expected
        self.assertCodemod(train_first, expected, level="native")
        (refused,) = self.refused(
            train_first.replace("        accuracy = tf.compat", "        print(labels)\n        accuracy = tf.compat")
        )
        assert "a statement in the EVAL branch other than a metric" in refused, refused

    def test_evaluate_the_port_does_not_prove_equal_stays_on_the_estimator(self):
        program = _evaluating("        result = estimator.evaluate(input_fn, steps=3)\n")
        accuracy = "tf.compat.v1.metrics.accuracy(labels, tf.argmax(logits, axis=-1))"
        cases = {
            "evaluate(hooks=...)": ("steps=3)", "steps=3, hooks=[])"),
            "evaluate(checkpoint_path=...)": ("steps=3)", 'steps=3, checkpoint_path="/tmp/m/model.ckpt-1")'),
            "evaluate(name=...)": ("steps=3)", 'steps=3, name="test")'),
            # (before the train, the Estimator evaluated model_dir's checkpoint as it was)
            "the Estimator `estimator` is used besides its train(): its evaluate() before the train": (
                "        estimator.train(input_fn, steps=2)\n        result",
                "        result = estimator.evaluate(input_fn, steps=3)\n        estimator.train(input_fn, steps=2)\n        result",
            ),
            "tf.metrics.accuracy with weights or a name": (
                accuracy,
                accuracy.replace("axis=-1))", "axis=-1), weights=labels)"),
            ),
            "a metric other than tf.metrics.accuracy and tf.metrics.mean": (
                accuracy,
                "tf.compat.v1.metrics.auc(labels, logits)",
            ),
            # (the Estimator raised ValueError: it defines the loss metric itself)
            'an eval_metric_ops key "loss"': ('{"accuracy": accuracy', '{"loss": accuracy'),
            "a statement in the EVAL branch other than a metric": (
                "            accuracy = ",
                "            print(logits)\n            accuracy = ",
            ),
            "an EVAL EstimatorSpec of more than mode, loss and eval_metric_ops": (
                "eval_metric_ops={",
                "predictions=logits, eval_metric_ops={",
            ),
            "the EVAL EstimatorSpec's loss is not the minimize's": (
                "loss=loss,\n",
                "loss=logits,\n",
            ),
            # (in TF1 the EVAL branch returned before the later statements ran)
            "`logits`, which a metric reads, is bound again after the EVAL branch": (
                "        update_ops = ",
                "        logits = tf.nn.relu(logits)\n        update_ops = ",
            ),
            "a metric of a layer made or called in the EVAL branch": (
                "tf.argmax(logits, axis=-1)",
                "tf.argmax(tf.keras.layers.Dense(3)(logits), axis=-1)",
            ),
            "`evaluate`, a name the port binds, is used in this module": (
                "\n    def main():",
                "\n    evaluate = 3\n\n    def main():",
            ),
        }
        self.assert_refuses(program, cases)

    def test_params_the_port_does_not_prove_the_same_dict_stay_on_the_estimator(self):
        read = PROGRAM.replace("def model_fn(features, labels, mode):", "def model_fn(features, labels, mode, params):")
        read = read.replace('Dense(4, name="hidden"', 'Dense(params["units"], name="hidden"')
        train = "tf.estimator.Estimator(model_fn, config=config).train(input_fn, steps=2)"
        given = train.replace("config=config)", 'config=config, params={"units": 4})')
        cases = {
            # (the Estimator's call ran it once where it was made; the port would run it where the train was)
            "params= other than a dict written out": (
                train,
                train.replace("config=config)", "config=config, params=dict(units=4))"),
            ),
            "a dict whose values call": (
                train,
                train.replace("config=config)", 'config=config, params={"units": int("4")})'),
            ),
            "the params `hparams` is bound or read elsewhere": (
                train,
                'hparams = {"units": 4}\n        print(hparams)\n        '
                + train.replace("config=config)", "config=config, params=hparams)"),
            ),
            # (the Estimator's params held the values of the names its dict read when it was made; the port binds the
            # dict where the train was)
            "`units`, which params= reads, is bound again": (
                train,
                'units = 4\n        hparams = {"units": units}\n        units = 8\n        '
                + train.replace("config=config)", "config=config, params=hparams)"),
            ),
            "which params= reads, is bound again before the train": (
                train,
                'units = 4\n        estimator = tf.estimator.Estimator(model_fn, config=config, params={"units": units})\n'
                "        units = 8\n        estimator.train(input_fn, steps=2)",
            ),
            # (the Estimator passed a copy to each call: a model_fn changing it changed none of the others)
            '`params` read other than as params["key"] or params.get("key")': (
                'Dense(params["units"], name="hidden"',
                'Dense(params.pop("units"), name="hidden"',
            ),
            "a model_fn reading `hparams`": ("mode, params):", "mode, hparams):"),
            "`params`, a name the port binds, is used in this module": (
                "\n    def main():",
                "\n    params = 3\n\n    def main():",
            ),
        }

        def adjust(why: str, source: str) -> str:
            if why.startswith("a model_fn reading"):
                source = source.replace('params["units"]', 'hparams["units"]')
            return source.replace(train, given)

        self.assert_refuses(read, cases, adjust)

    def test_layers_made_in_a_loop_over_range_and_a_local_device_setter_as_estimator_resnet_platform(self):
        """A loop's layers are made once per iteration, in TF1's order, into lists model() indexes; the one device
        of a local replica_device_setter (_native_monitored proves it) holds the model's ops and the update."""
        before = """
            import compat
            import tensorflow as tf

            def model_fn(features, labels, mode, params):
                batch_norms = []
                setter = tf.compat.v1.train.replica_device_setter(worker_device="/cpu:0", ps_device="/cpu:0", ps_tasks=1)
                with compat.device(setter):
                    net = features
                    for i in range(2):
                        net = tf.keras.layers.Conv2D(8, 3, name="conv%d" % i, dtype=net.dtype)(net)
                        batch_norm = tf.keras.layers.BatchNormalization(dtype=net.dtype)
                        batch_norms.append(batch_norm)
                        net = tf.nn.relu(batch_norm(net, training=mode == tf.estimator.ModeKeys.TRAIN))
                    logits = tf.keras.layers.Dense(3, dtype=net.dtype)(tf.keras.layers.Flatten(dtype=net.dtype)(net))
                    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)
                    update_ops = [update for layer in batch_norms for update in layer.updates]
                    with tf.control_dependencies(update_ops):
                        train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss, tf.compat.v1.train.get_or_create_global_step())
                return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

            def input_fn():
                return tf.data.Dataset.from_tensors(([[[[1.0]] * 4] * 4], [1])).repeat()

            if __name__ == "__main__":
                tf.estimator.Estimator(model_fn, "/tmp/m").train(input_fn, max_steps=5)
        """
        after = """
        import compat.tf1_saver
        import compat.tf1_slots
        import compat
        import tensorflow as tf
        import itertools
        import json
        import os
        import sys
        import time

        def input_fn():
            return tf.data.Dataset.from_tensors(([[[[1.0]] * 4] * 4], [1])).repeat()

        if __name__ == "__main__":
            if sum(len(tasks) for tasks in (json.loads(os.environ.get("TF_CONFIG") or "{}").get("cluster") or {}).values()) > 1:
                sys.exit("TF_CONFIG names a cluster of more than one task; this program, ported from an Estimator program by uai-migrate --level native, trains in one process")
            dataset = input_fn()
            dtype = dataset.element_spec[0].dtype  # (TF1 layers took the dtype of their input)
            conv2d, batch_norm = [], []
            for i in range(2):
                conv2d.append(tf.keras.layers.Conv2D(8, 3, name="conv%d" % i, dtype=dtype))
                batch_norm.append(tf.keras.layers.BatchNormalization(dtype=dtype))
            flatten = tf.keras.layers.Flatten(dtype=dtype)
            dense = tf.keras.layers.Dense(3, dtype=dtype)

            def model(features, labels, training):
                with tf.device("/cpu:0"):
                    net = features
                    for i in range(2):
                        net = conv2d[i](net)
                        net = tf.nn.relu(batch_norm[i](net, training=training))
                    logits = dense(flatten(net))
                    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)
                return loss

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)
            global_step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")

            @tf.function
            def train_step(features, labels):
                with tf.GradientTape() as tape:
                    loss = model(features, labels, True)
                variables = tape.watched_variables()
                with tf.device("/cpu:0"):
                    optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
                global_step.assign_add(1)  # (after the update, as minimize(loss, global_step) did)
                return loss

            batches = iter(dataset)
            first = next(batches)
            model(*first, False)  # (the layers make their variables, which the checkpoint restores)
            checkpoint = tf.train.Checkpoint(conv2d=conv2d, batch_norm=batch_norm, flatten=flatten, dense=dense, global_step=global_step, optimizer=optimizer)
            manager = compat.tf1_saver.CheckpointManager(checkpoint, "/tmp/m", max_to_keep=5, checkpoint_name="model.ckpt")
            checkpoint.restore(manager.latest_checkpoint)
            compat.tf1_slots.check_names([global_step, *(w for layer in (*conv2d, *batch_norm, flatten, dense) for w in layer.variables)], manager.latest_checkpoint)
            compat.tf1_slots.restore_slots(optimizer, [v for layer in (*conv2d, *batch_norm, flatten, dense) for v in layer.trainable_variables], manager.latest_checkpoint)
            last_step = 5
            if int(global_step) < last_step:  # (the Estimator trained nothing from a checkpoint at or past it)
                manager.save_at_start(checkpoint_number=global_step)
                saved = (int(global_step), time.time())
                writer = tf.summary.create_file_writer("/tmp/m")
                summarized = None
                for iteration, (features, labels) in enumerate(itertools.chain([first], batches)):
                    step = int(global_step)
                    loss = train_step(features, labels)
                    if iteration % 100 == 0:
                        tf.get_logger().info("loss = %s, step = %s", loss.numpy(), step)
                    if summarized is None or int(global_step) >= summarized + 100:
                        summarized = int(global_step)
                        with writer.as_default():
                            tf.summary.scalar("loss", loss, step=summarized)
                    if int(global_step) != saved[0] and time.time() >= saved[1] + 600:
                        manager.save(checkpoint_number=global_step)
                        saved = (int(global_step), time.time())
                    if int(global_step) >= last_step:
                        break
                if int(global_step) != saved[0]:
                    manager.save(checkpoint_number=global_step)
                writer.flush()
        """
        self.assertCodemod(before, after, level="native")
        (entry,) = self.applied(before, level="native").entries
        assert 'its local replica_device_setter -> tf.device("/cpu:0")' in entry.message, entry.message

    def test_must_not_fire_where_the_port_is_not_proven_one_entry_says_why(self):
        train = "tf.estimator.Estimator(model_fn, config=config).train(input_fn, steps=2)"
        cases = {
            "a hook other than a call of a SessionRunHook class": (
                train,
                train.replace("steps=2", "steps=2, hooks=[hook]"),
            ),
            "saving_listeners=": (train, train.replace("steps=2", "steps=2, saving_listeners=[listener]")),
            "params= other than a dict": (train, train.replace("config=config", "config=config, params=make()")),
            "without one of steps= and max_steps=": (train, train.replace(", steps=2", "")),
            "tf.estimator.train_and_evaluate": (train, "tf.estimator.train_and_evaluate(None, None, None)"),
            "a TPUEstimator without use_tpu= (True by default: it runs on a TPU)": (
                "tf.estimator.Estimator(",
                "tf.compat.v1.estimator.tpu.TPUEstimator(",
            ),
            "tf.estimator.DNNClassifier": (train, train + "\n        tf.estimator.DNNClassifier([2], [])"),
            "RunConfig(keep_checkpoint_every_n_hours=...)": (
                "log_step_count_steps=1",
                "keep_checkpoint_every_n_hours=1",
            ),
            "no model_dir": ('model_dir="/tmp/m", ', ""),
            "is bound or read elsewhere": (train, train + "\n        print(config)"),
            "a loop over range() of a value the model_fn computes": (
                "\n        logits = ",
                "\n        for i in range(net.shape[1]):\n            net = tf.nn.relu(net)\n        logits = ",
            ),
            "a block in the model_fn other than a loop over range()": (
                "\n        logits = ",
                "\n        if labels is None:\n            net = tf.nn.relu(net)\n        logits = ",
            ),
            "a layer made in a loop, called after it": (
                "\n        logits = ",
                "\n        for i in range(2):\n            block = tf.keras.layers.Dense(4, dtype=net.dtype)\n"
                "            net = block(net)\n        net = block(net)\n        logits = ",
            ),
            "other than one device of a local replica_device_setter": (
                "\n        logits = tf.keras.layers.Dense(3, dtype=net.dtype)(net)",
                '\n        with tf.device("/gpu:0"):\n            logits = tf.keras.layers.Dense(3, dtype=net.dtype)(net)',
            ),
            "a Keras Dropout": (
                "logits = tf.keras.layers.Dense(3, dtype=net.dtype)(net)",
                "logits = tf.keras.layers.Dropout(0.5, dtype=net.dtype)(net)",
            ),
            "a random op": ("(labels, logits)", "(labels, logits + tf.random.normal([3]))"),
            "graph code": ("(labels, logits)", "(labels, tf.compat.v1.layers.dense(logits, 3))"),
            "more than mode, loss and train_op": ("train_op=train_op)", "train_op=train_op, eval_metric_ops={})"),
            "reads `mode` other than": (
                "training=mode == tf.estimator.ModeKeys.TRAIN",
                "training=mode != tf.estimator.ModeKeys.TRAIN",
            ),
            "not proven the features' dtype": ("(dtype=net.dtype)\n", "(dtype=tf.cast(net, tf.float64).dtype)\n"),
            "a call of block, which may make variables": ("(labels, logits)", "(labels, block(logits))"),
            "a call of compat.scoped_layers": ("(labels, logits)", "(labels, compat.scoped_layers(logits))"),
            # (TF1 updated the moving statistics only where the train op ran UPDATE_OPS; Keras in eager always does)
            "a BatchNormalization whose updates the train op does not run": (
                "update_ops = [update for layer in batch_norms for update in layer.updates]\n"
                "        with tf.control_dependencies(update_ops):\n            train_op",
                "train_op",
            ),
            "the input_fn holds random": (
                ".repeat()",
                ".map(lambda x, y: (tf.image.random_flip_left_right(x), y)).repeat()",
            ),
            "or a random op in the model_fn": ("(labels, logits)", "(labels, tf.nn.dropout(logits, 0.5))"),
            "max_steps=None": ("steps=2", "max_steps=None"),
            "`scale`, which the model_fn reads from the module, is bound where the loop runs": (
                "(labels, logits)",
                "(labels, logits * scale)",
            ),
            "tf.keras may be Keras 3 here": ("    import compat\n", ""),
            "RunConfig(save_checkpoints_secs=None)": ("log_step_count_steps=1", "save_checkpoints_secs=None"),
            "RunConfig(log_step_count_steps=flags.log_every)": (
                "log_step_count_steps=1",
                "log_step_count_steps=flags.log_every",
            ),
            "does not prove equal": ("MomentumOptimizer(0.1, 0.9)", "RMSPropOptimizer(0.1)"),
            # (TF1 named the slots <variable>/Mom: compat.tf1_slots, mapping <variable>/Momentum, would start them at
            # zero on a restart from a TF1 checkpoint; measured from the safe port's model.ckpt-3: step 4's loss 0.32197
            # where the Estimator's was 0.30050)
            "MomentumOptimizer(name=...)": ("MomentumOptimizer(0.1, 0.9)", 'MomentumOptimizer(0.1, 0.9, name="Mom")'),
            # (0: TF1's Saver kept every checkpoint; the port failed at CheckpointManager(max_to_keep=0))
            "RunConfig(keep_checkpoint_max=0)": ("log_step_count_steps=1", "keep_checkpoint_max=0"),
            "RunConfig(keep_checkpoint_max=FLAGS.keep)": ("log_step_count_steps=1", "keep_checkpoint_max=FLAGS.keep"),
            "a value the model_fn computes": (
                "MomentumOptimizer(0.1, 0.9)",
                "MomentumOptimizer(tf.reduce_sum(loss), 0.9)",
            ),
        }

        def adjust(why: str, source: str) -> str:
            if "scale" in why:  # (a module-level scale, and main's own)
                return source.replace(
                    "\n    def main():\n", "\n    scale = 2.0\n\n    def main():\n        scale = 3.0\n"
                )
            return source

        self.assert_refuses(PROGRAM, cases, adjust)

    def test_a_layer_named_as_a_name_the_port_binds_gets_another_name(self):
        # (helper-73: a layer of name "dataset" was bound over the port's dataset, which its loop then iterated;
        # "optimizer" repeated a keyword of the port's tf.train.Checkpoint(...): a SyntaxError)
        for taken in ("dataset", "optimizer", "global_step", "features"):
            source = PROGRAM.replace('name="hidden"', f'name="{taken}"')
            code = apply(textwrap.dedent(source), NativeEstimatorLoopRule, level="native").module.code
            compile(code, "<port>", "exec")
            assert f'{taken}_1 = tf.keras.layers.Dense(4, name="{taken}"' in code, code
            assert f"{taken}_1(" in code and f"{taken} = tf.keras.layers" not in code, code
        # a layer the model_fn binds to such a name itself stays on the Estimator, with the entry
        source = PROGRAM.replace("batch_norm", "dataset")
        (entry,) = self.applied(textwrap.dedent(source), level="native").entries
        assert "`dataset`, a layer, is a name the port binds" in entry.message, entry.message
        self.assertCodemod(source, source, level="native")

    def test_not_at_the_safe_level_and_silent_without_an_estimator(self):
        self.assertCodemod(PROGRAM, PROGRAM, level="safe")
        assert self.refused("import tensorflow as tf\n\nsess = tf.compat.v1.Session()\n") == []
        assert NativeEstimatorLoopRule not in select(level="safe") and NativeEstimatorLoopRule in select(level="native")


# a TF1 Estimator program: a named conv2d, batch normalization in training mode whose updates the train_op runs
# (UPDATE_OPS), pooling, flatten and an unnamed dense, trained with momentum on fixed float32 batches into the
# model_dir of argv[1] up to max_steps=argv[2], keeping 2 checkpoints; the Estimator logs each step's loss
# (log_step_count_steps=1)
EQUIVALENCE = """
    import sys

    import numpy as np
    import tensorflow as tf


    def model_fn(features, labels, mode):
        net = tf.layers.conv2d(features, 4, 3, padding="same", name="conv0")
        net = tf.nn.relu(tf.layers.batch_normalization(net, training=mode == tf.estimator.ModeKeys.TRAIN))
        net = tf.layers.max_pooling2d(net, 2, 2)
        logits = tf.layers.dense(tf.layers.flatten(net), 3)
        loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
        update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
        with tf.control_dependencies(update_ops):
            train_op = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, tf.train.get_or_create_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


    def input_fn():
        rng = np.random.RandomState(0)
        x, y = rng.rand(16, 6, 6, 2).astype(np.float32), rng.randint(0, 3, 16)
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat().make_one_shot_iterator().get_next()


    if __name__ == "__main__":
        tf.logging.set_verbosity(tf.logging.INFO)
        config = tf.estimator.RunConfig(
            model_dir=sys.argv[1], tf_random_seed=1, log_step_count_steps=1, keep_checkpoint_max=2
        )
        tf.estimator.Estimator(model_fn, config=config).train(input_fn, max_steps=int(sys.argv[2]))
"""


def _run(path: str, model_dir: pathlib.Path, max_steps: int = 3) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, path, str(model_dir), str(max_steps)],
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )


def _losses(done: subprocess.CompletedProcess) -> list[float]:
    assert done.returncode == 0, done.stderr[-2000:]
    return [float(found) for found in re.findall(r"loss = (\S+), step = \d+", done.stderr)]


def _summaries(folder: pathlib.Path) -> list[tuple[int, str]]:
    import tensorflow as tf

    found = []
    for path in folder.glob("events.out.tfevents.*"):
        for event in tf.compat.v1.train.summary_iterator(str(path)):
            found += [(int(event.step), v.tag) for v in event.summary.value if v.tag != "global_step/sec"]
    return sorted(found)


def _kept(folder: pathlib.Path) -> tuple[list[str], list[str]]:
    """(the checkpoints whose files are in `folder`, those its checkpoint state lists)."""
    import tensorflow as tf

    files = sorted({re.sub(r"^(model\.ckpt-\d+)\..*", r"\1", path.name) for path in folder.glob("model.ckpt-*")})
    listed = [os.path.basename(p) for p in tf.train.get_checkpoint_state(str(folder)).all_model_checkpoint_paths]
    return files, listed


def test_the_native_port_trains_as_the_estimator_from_its_step_0_checkpoint(tmp_path):
    ported = {}
    for level, (path, report) in migrated(tmp_path, "estimator_loop.py", EQUIVALENCE).items():
        ported[level] = path
        entries = [e for f in report.get("files", []) for e in f.get("entries", [])]
        said = [e["message"] for e in entries if e["rule"] in (NativeEstimatorLoopRule.ID, NativeEstimatorRule.ID)]
        assert [m.startswith(MESSAGE) for m in said] == ([True] if level == "native" else []), said
        # (no entry says the model_fn's optimizer stays at the safe level: the port converted it)
        left = [e["message"] for e in entries if e["rule"] in ("native-layers", "native-optimizer")]
        assert not [m for m in left if "left at the safe level" in m], left
    code = pathlib.Path(ported["native"]).read_text()
    assert "compat.v1" not in code and "tf.estimator" not in code, code
    safe = _losses(_run(ported["safe"], tmp_path / "safe_dir"))
    start = tmp_path / "native_dir"
    start.mkdir()
    for found in (tmp_path / "safe_dir").glob("model.ckpt-0.*"):
        shutil.copy(found, start)
    (start / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-0"\n')
    native = _losses(_run(ported["native"], start))
    assert len(safe) == 3 and len(native) == 3, (safe, native)
    assert max(abs(a - b) / max(1.0, abs(a)) for a, b in zip(safe, native)) <= 1e-5, (safe, native)
    assert (start / "model.ckpt-3.index").exists()
    # the loss summary where the Estimator's summary hook wrote it (not its global_step/sec)
    assert _summaries(tmp_path / "safe_dir") == _summaries(start) == [(1, "loss")]
    # restarted at max_steps, it trains nothing, as the Estimator did
    assert _losses(_run(ported["native"], start)) == []
    # restarted in the safe port's model_dir, it keeps the checkpoints the Estimator kept (keep_checkpoint_max=2: its
    # Saver took over the folder's TF1 checkpoints and deleted the oldest, .meta included, as it saved)
    restart = tmp_path / "restart_dir"
    shutil.copytree(tmp_path / "safe_dir", restart)
    safe_on = _losses(_run(ported["safe"], tmp_path / "safe_dir", max_steps=5))
    native_on = _losses(_run(ported["native"], restart, max_steps=5))
    assert len(safe_on) == len(native_on) == 2, (safe_on, native_on)
    assert max(abs(a - b) / max(1.0, abs(a)) for a, b in zip(safe_on, native_on)) <= 1e-5, (safe_on, native_on)
    assert _kept(tmp_path / "safe_dir") == _kept(restart) == (["model.ckpt-3", "model.ckpt-5"],) * 2
    # a TF1 checkpoint without the model's variables stops it, as the Estimator's restore did (a name-based restore
    # leaves what it does not find at its initial value)
    import tensorflow as tf

    other = tmp_path / "other_dir"
    other.mkdir()
    names, values = ["global_step"], [tf.constant(0, tf.int64)]
    tf.raw_ops.SaveV2(prefix=str(other / "model.ckpt-0"), tensor_names=names, shape_and_slices=[""], tensors=values)
    (other / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-0"\n')
    done = _run(ported["native"], other)
    said = f"CheckpointError: {other / 'model.ckpt-0'}: holds no batch_normalization/beta, which TF1's Saver.restore"
    assert done.returncode != 0 and said in done.stderr, done.stderr[-2000:]


def test_the_port_stops_where_tf_config_names_a_cluster_of_more_than_one_task(monkeypatch):
    """The port's first statement, run as written: no TF_CONFIG and a one-task one (the platform's single-node
    master) go on; two tasks stop it with one line (sys.exit: exit status 1)."""
    code = apply(textwrap.dedent(PROGRAM), NativeEstimatorLoopRule, level="native").module.code
    guard = textwrap.dedent("\n".join(code.split("def main():\n", 1)[1].splitlines()[:2]))
    assert guard.startswith("if sum(len(tasks)"), guard
    master = {"cluster": {"master": ["a:1"]}, "task": {"type": "master", "index": 0}}
    for config in (None, "", json.dumps(master), json.dumps({"task": {"type": "worker", "index": 0}})):
        if config is None:
            monkeypatch.delenv("TF_CONFIG", raising=False)
        else:
            monkeypatch.setenv("TF_CONFIG", config)
        exec(guard, {"json": json, "os": os, "sys": sys})  # noqa: S102 - the port's own code
    for cluster in ({"master": ["a:1"], "worker": ["b:2"]}, {"chief": ["a:1"], "ps": {"0": "b:2"}}):
        monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster, "task": {"type": "chief", "index": 0}}))
        with pytest.raises(SystemExit) as stopped:
            exec(guard, {"json": json, "os": os, "sys": sys})  # noqa: S102
        assert str(stopped.value.code).startswith("TF_CONFIG names a cluster of more than one task; this program")
        assert "\n" not in str(stopped.value.code)


# a TF1 Estimator program reading its params in model_fn (a layer's width, the learning rate) and input_fn (the batch
# size), trained with plain gradient descent on fixed float32 batches into the model_dir of argv[1] up to max_steps=argv[2],
# then evaluated over argv[3] batches (5: until the input's 4 ends, the last one of 2 rows), printing what evaluate returned
PARAMS_EQUIVALENCE = """
    import sys

    import numpy as np
    import tensorflow as tf


    def model_fn(features, labels, mode, params):
        net = tf.layers.dense(features, params["hidden"], activation=tf.nn.relu, name="hidden")
        logits = tf.layers.dense(net, 3)
        loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
        if mode == tf.estimator.ModeKeys.EVAL:
            accuracy = tf.metrics.accuracy(labels, tf.argmax(logits, axis=-1))
            top = tf.metrics.mean(tf.reduce_max(logits, axis=-1))
            # (float predictions of int labels: TF1 cast them to the labels' dtype, truncating)
            truncated = tf.metrics.accuracy(labels, tf.reduce_max(tf.nn.softmax(logits), axis=-1) * 3.0)
            return tf.estimator.EstimatorSpec(
                mode, loss=loss, eval_metric_ops={"accuracy": accuracy, "top": top, "truncated": truncated}
            )
        train_op = tf.train.GradientDescentOptimizer(params["rate"]).minimize(loss, tf.train.get_or_create_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


    def input_fn(params):
        rng = np.random.RandomState(0)
        x, y = rng.rand(20, 5).astype(np.float32), rng.randint(0, 3, 20)
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(params["batch_size"])


    if __name__ == "__main__":
        tf.logging.set_verbosity(tf.logging.INFO)
        config = tf.estimator.RunConfig(model_dir=sys.argv[1], tf_random_seed=1, log_step_count_steps=1)
        hparams = {"hidden": 4, "batch_size": 6, "rate": 0.5}
        estimator = tf.estimator.Estimator(model_fn, config=config, params=hparams)
        estimator.train(input_fn, max_steps=int(sys.argv[2]))
        result = estimator.evaluate(input_fn, steps=int(sys.argv[3]) if len(sys.argv) > 3 else 5)
        print("evaluated", repr([(key, type(value).__name__, value.item()) for key, value in result.items()]))
"""


def _from_step_0(tmp_path: pathlib.Path, name: str, source: str) -> tuple[dict, pathlib.Path]:
    """The ports of `source` at both levels (the native one converted by this rule, with no tf.compat.v1 and no
    Estimator), the safe one trained 3 steps into safe_dir, and native_dir holding its step-0 checkpoint."""
    ported = {}
    for level, (path, report) in migrated(tmp_path, name, source).items():
        ported[level] = path
        entries = [e for f in report.get("files", []) for e in f.get("entries", [])]
        said = [e["message"] for e in entries if e["rule"] in (NativeEstimatorLoopRule.ID, NativeEstimatorRule.ID)]
        assert [m.startswith(MESSAGE) for m in said] == ([True] if level == "native" else []), said
    code = pathlib.Path(ported["native"]).read_text()
    assert "compat.v1" not in code and "tf.estimator" not in code, code
    start = tmp_path / "native_dir"
    start.mkdir()
    return ported, start


def _copy_step_0(safe_dir: pathlib.Path, start: pathlib.Path) -> None:
    for found in safe_dir.glob("model.ckpt-0.*"):
        shutil.copy(found, start)
    (start / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-0"\n')


def _evaluated(done: subprocess.CompletedProcess) -> list[tuple[str, str, float]]:
    found = [line for line in done.stdout.splitlines() if line.startswith("evaluated ")]
    assert len(found) == 1, done.stdout
    return ast.literal_eval(found[0].removeprefix("evaluated "))


def test_params_and_evaluate_in_the_port_as_in_the_estimator(tmp_path):
    """params reach model_fn and input_fn; evaluate() returns what the Estimator's did (the same keys in its order,
    NumPy types and values within 1e-6) and writes the same summaries to model_dir/eval."""
    ported, start = _from_step_0(tmp_path, "estimator_params.py", PARAMS_EQUIVALENCE)
    assert 'params = {"hidden": 4, "batch_size": 6, "rate": 0.5}' in pathlib.Path(ported["native"]).read_text()
    safe_run = _run(ported["safe"], tmp_path / "safe_dir")
    _copy_step_0(tmp_path / "safe_dir", start)
    native_run = _run(ported["native"], start)
    safe, native = _losses(safe_run), _losses(native_run)
    # (batches of params["batch_size"]: 3 steps of 6 rows; another width or rate would give other losses)
    assert len(safe) == len(native) == 3, (safe, native)
    assert max(abs(a - b) / max(1.0, abs(a)) for a, b in zip(safe, native)) <= 1e-6, (safe, native)
    safe_result, native_result = _evaluated(safe_run), _evaluated(native_run)
    assert [r[:2] for r in safe_result] == [r[:2] for r in native_result], (safe_result, native_result)
    assert [r[:2] for r in safe_result] == [
        ("accuracy", "float32"),
        ("loss", "float32"),
        ("top", "float32"),
        ("truncated", "float32"),
        ("global_step", "int64"),
    ]
    # (the loss: the mean of the 4 batches' mean losses, not weighted by their sizes, as the Estimator's metric)
    assert max(abs(a[2] - b[2]) for a, b in zip(safe_result, native_result)) <= 1e-6, (safe_result, native_result)
    assert safe_result[4][2] == native_result[4][2] == 3
    assert safe_result[3][2] > 0  # (truncated: a float compare of 1.x and 2.x with int labels gives 0)
    assert _summaries(tmp_path / "safe_dir" / "eval") == _summaries(start / "eval")
    assert _summaries(start / "eval") == [
        (3, "accuracy"),
        (3, "checkpoint_path"),
        (3, "loss"),
        (3, "top"),
        (3, "truncated"),
    ]
    # (and the line it logged: each value as str() gives it, a float32's shortest digits; an f-string's format() of
    # a NumPy float32 gave the digits of the Python float it converts to)
    assert _saved_dicts(native_run) == _saved_dicts(safe_run), (_saved_dicts(safe_run), _saved_dicts(native_run))
    assert len(_saved_dicts(safe_run)) == 1 and _saved_dicts(safe_run)[0].startswith("Saving dict for global step 3:")


def _saved_dicts(done: subprocess.CompletedProcess) -> list[str]:
    return [line[line.index("Saving dict") :] for line in done.stderr.splitlines() if "Saving dict" in line]
