"""native-session on the graph a function of the module builds with tf.Variable (TensorFlow's MNIST tutorial shape:
`logits = inference(images, units)`, its weights and biases `tf.Variable(..., name="weights")` under
`with tf.name_scope("hidden1"):`): called once by the graph, the function is kept and each tf.Variable becomes the
module's get_variable of its TF1 name (`hidden1/weights`), made at the first step (codemods/rules/_native_scopes.py).

The rule runs alone in the before/after cases (the safe rules' rewrites are not applied); the equivalence test
runs both ports from the safe port's checkpoint.
"""

import os
import textwrap

import pytest

from bench import native
from codemods.rules.native_session import NativeSessionRule
from tests.support.rule_test import RuleTest

PREFIX = "Session script left at the safe level: "
# the helper the cases share: two name scopes, a variable name used in both, one variable not trained
INFERENCE = """
import tensorflow as tf


def inference(images, units):
    with tf.name_scope("hidden1"):
        weights = tf.Variable(tf.truncated_normal([2, units], stddev=0.5), name="weights")
        biases = tf.Variable(tf.zeros([units]), name="biases")
        hidden = tf.nn.relu(tf.matmul(images, weights) + biases)
    with tf.name_scope("softmax_linear"):
        weights = tf.Variable(tf.truncated_normal([units, 3], stddev=0.5), name="weights")
        scale = tf.Variable(2.0, trainable=False, name="scale")
        return tf.matmul(hidden, weights) * scale
"""


class TestNativeSessionHelpers(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_a_helper_making_tf_variables_under_name_scopes_keeps_their_tf1_names(self):
        before = (
            INFERENCE
            + """

def main():
    x = tf.placeholder(tf.float32, [None, 2])
    logits = inference(x, 4)
    loss = tf.reduce_mean(tf.square(logits))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train_op, {x: [[1.0, 2.0]]})
        print(sess.run(logits, {x: [[1.0, 2.0]]}))
"""
        )
        after = """
import compat
import tensorflow as tf


# TF1's variables: each made once, at the first call asking for its name (name_scope/name)
tf1_variables = {}


def get_variable(name, initial_value, trainable=True):
    if name not in tf1_variables:
        tf1_variables[name] = tf.Variable(initial_value, trainable=trainable, name=name)
    return tf1_variables[name]


def inference(images, units):
    weights = get_variable("hidden1/weights", lambda: tf.truncated_normal([2, units], stddev=0.5))
    biases = get_variable("hidden1/biases", lambda: tf.zeros([units]))
    hidden = tf.nn.relu(tf.matmul(images, weights) + biases)
    weights = get_variable("softmax_linear/weights", lambda: tf.truncated_normal([units, 3], stddev=0.5))
    scale = get_variable("softmax_linear/scale", lambda: 2.0, trainable=False)
    return tf.matmul(hidden, weights) * scale


def main():

    def model(x):
        logits = inference(x, 4)
        loss = tf.reduce_mean(tf.square(logits))
        return {"loss": loss, "logits": logits}

    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def train_step(x):
        with tf.GradientTape() as tape:
            outputs = model(x)
        variables = tape.watched_variables()
        optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))

    evaluate = tf.function(model, input_signature=[tf.TensorSpec([None, 2], tf.float32)])

    train_step([[1.0, 2.0]])
    print(evaluate([[1.0, 2.0]])["logits"].numpy())
"""
        self.assertCodemod(before, after, level="native")
        said = [e.message for e in self.applied(before, level="native").entries if e.rule == NativeSessionRule.ID]
        self.assertIn(
            "tf.Variable in inference() -> get_variable(), each variable made once, at the first step, under its TF1 "
            "name (hidden1/weights, hidden1/biases, softmax_linear/weights, softmax_linear/scale)",
            said[0],
        )

    def test_must_not_fire_on_a_tf_variable_helper_it_cannot_prove(self):
        # TF1 made new variables at each call of the helper (its name scopes numbered: hidden1_1/weights); model()
        # calling it on every step may make them once only where the graph called it once
        run = (
            "    with tf.Session() as sess:\n"
            "        sess.run(tf.global_variables_initializer())\n"
            "        print(sess.run(a, {x: [[1.0, 2.0]]}))\n"
        )
        main = "\n\ndef main():\n    x = tf.placeholder(tf.float32, [None, 2])\n"
        cases = {
            INFERENCE + main + "    a = inference(x, 4) + inference(x, 4)\n" + run: (
                "inference() called twice by the graph: TF1 made new variables at each call, under new name scopes"
            ),
            INFERENCE + main + "    a = tf.add_n([inference(x, i) for i in range(1, 3)])\n" + run: (
                "inference() called in a comprehension or a lambda (it may run more than once)"
            ),
            INFERENCE.replace('"softmax_linear"', '"hidden1"') + main + "    a = inference(x, 4)\n" + run: (
                "two name scopes 'hidden1' in inference(): TF1 named the second hidden1_1"
            ),
            INFERENCE.replace(', name="biases"', "") + main + "    a = inference(x, 4)\n" + run: (
                "a tf.Variable in inference() without a literal name"
            ),
            INFERENCE.replace(', name="biases"', ', name="biases", dtype=tf.float64')
            + main
            + "    a = inference(x, 4)\n"
            + run: ("tf.Variable(dtype=...) in inference()"),
            INFERENCE.replace("tf.zeros([units])", "tf.zeros_like(images[0])")
            + main
            + "    a = inference(x, 4)\n"
            + run: ("a variable of inference() initialised from the graph's tensors"),
            INFERENCE + main + "    w = tf.Variable(1.0, name='hidden1')\n    a = inference(x, 4) * w\n" + run: (
                "two variables or layers named 'hidden1': TF1 would have renamed one"
            ),
            INFERENCE + "\n\ndef other(x):\n    return inference(x, 2)\n" + main + "    a = inference(x, 4)\n" + run: (
                "inference() is used besides by the graph's calls"
            ),
            INFERENCE.replace('    with tf.name_scope("hidden1"):', "    for _ in range(1):")
            + main
            + "    a = inference(x, 4)\n"
            + run: ("inference() has a For statement (the rule reads straight lines)"),
        }
        for code, why in cases.items():
            with self.subTest(why=why):
                self.assertEqual(self.refused(code), [why])
        # (a helper called from a loop of the graph: the loop is no graph statement the rule reads)
        looped = INFERENCE + main + "    for _ in range(2):\n        a = inference(x, 4)\n" + run
        self.assertEqual(self.refused(looped), ["a For statement that builds the graph"])

    def test_a_sessions_minimize_increments_its_global_step_after_the_update(self):
        # (the tutorial's `global_step = tf.Variable(0, name="global_step", trainable=False)`, the train op
        # minimize(loss, global_step=global_step), run by a tf.Session: TF1's apply_gradients added one after the update)
        before = """
            import tensorflow as tf

            def main():
                x = tf.placeholder(tf.float32, [None, 2])
                w = tf.Variable(tf.zeros([2, 1]))
                loss = tf.reduce_mean(tf.matmul(x, w))
                global_step = tf.Variable(0, name="global_step", trainable=False)
                train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step)
                with tf.Session() as sess:
                    sess.run(tf.global_variables_initializer())
                    sess.run(train_op, {x: [[1.0, 2.0]]})
                    print(sess.run(global_step))
        """
        after = """
            import compat
            import tensorflow as tf

            def main():
                w = tf.Variable(tf.zeros([2, 1]), name="Variable")
                global_step = tf.Variable(0, name="global_step", trainable=False)

                def model(x):
                    loss = tf.reduce_mean(tf.matmul(x, w))
                    return {"loss": loss}

                optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

                @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
                def train_step(x):
                    with tf.GradientTape() as tape:
                        outputs = model(x)
                    variables = tape.watched_variables()
                    optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                    global_step.assign_add(1)

                train_step([[1.0, 2.0]])
                print(global_step.numpy())
        """
        self.assertCodemod(before, after, level="native")
        said = [e.message for e in self.applied(before, level="native").entries if e.rule == NativeSessionRule.ID]
        self.assertIn("minimize(loss, global_step) -> the train step increments global_step after the update", said[0])
        # must not fire: a trainable variable as the global step (TF1 would have trained it), a global step whose value
        # the graph computes (a Session has none of the MonitoredTrainingSession's hooks reading it), positional too
        graph = textwrap.dedent(before)
        trainable = graph.replace(", trainable=False)", ")")
        self.assertEqual(
            self.refused(trainable),
            ["minimize(global_step=...) of a variable that is not the global step (trainable, or none of the graph)"],
        )
        positional = graph.replace("global_step=global_step)", "global_step)")
        self.assertIn("-> eager TF 2", self.applied(positional, level="native").entries[0].message)

    def test_a_helper_making_the_train_op_is_read_as_the_graphs_minimize(self):
        # (the tutorial's training(loss, learning_rate): its optimizer of the call's learning rate, its global step)
        before = """
            import tensorflow as tf


            def training(loss, learning_rate):
                \"\"\"The train op.\"\"\"
                optimizer = tf.train.MomentumOptimizer(learning_rate, 0.9)
                global_step = tf.Variable(0, name="global_step", trainable=False)
                train_op = optimizer.minimize(loss, global_step=global_step)
                return train_op


            def main(rate):
                x = tf.placeholder(tf.float32, [None, 2])
                w = tf.Variable(tf.zeros([2, 1]))
                loss = tf.reduce_mean(tf.matmul(x, w))
                train_op = training(loss, rate * 2)
                with tf.Session() as sess:
                    sess.run(tf.global_variables_initializer())
                    sess.run(train_op, {x: [[1.0, 2.0]]})
        """
        after = """
            import compat
            import tensorflow as tf


            def main(rate):
                w = tf.Variable(tf.zeros([2, 1]), name="Variable")
                global_step = tf.Variable(0, name="global_step", trainable=False)

                def model(x):
                    loss = tf.reduce_mean(tf.matmul(x, w))
                    return {"loss": loss}

                optimizer = tf.keras.optimizers.SGD(learning_rate=(rate * 2), momentum=0.9)

                @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
                def train_step(x):
                    with tf.GradientTape() as tape:
                        outputs = model(x)
                    variables = tape.watched_variables()
                    optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                    global_step.assign_add(1)

                train_step([[1.0, 2.0]])
        """
        self.assertCodemod(before, after, level="native")
        said = [e.message for e in self.applied(before, level="native").entries if e.rule == NativeSessionRule.ID]
        self.assertIn("training() -> the train op it returned", said[0])
        self.assertIn("minimize(loss, global_step) -> the train step increments global_step after the update", said[0])
        graph = textwrap.dedent(before)
        cases = {
            graph.replace("train_op = training(loss, rate * 2)", "train_op = training(loss, rate * w)"): (
                "training()'s optimizer of `w`, a value of the graph (the Keras optimizer is made once, out of the "
                "graph's function)"
            ),
            graph.replace("train_op = training(loss, rate * 2)", "train_op = training(loss + 1.0, 0.1)"): (
                "training()'s minimize of other than a parameter the call passes a tensor of the graph"
            ),
            graph.replace("    return train_op\n", "    tf.summary.scalar('loss', loss)\n    return train_op\n"): (
                "training() holds `tf.summary.scalar('loss', loss)`, which the rule does not read as its train op"
            ),
            graph.replace(", trainable=False)", ")"): (
                "training() makes a variable besides a global step (trainable=False)"
            ),
            graph.replace(
                "    train_op = training(loss, rate * 2)\n",
                "    train_op = training(loss, 0.1)\n    again = training(loss, 0.1)\n",
            ): ("training(), which makes the train op, is used besides by this call"),
            graph.replace("    train_op = training(loss, rate * 2)\n", "    train_op = [training(loss, 0.1)]\n"): (
                "training() makes a train op, called other than as `name = training(...)`"
            ),
            graph.replace("def main(rate):", "def main(rate):\n    global_step = 3"): (
                "`global_step`, the global step of training(), is a name used outside it too"
            ),
        }
        for code, why in cases.items():
            with self.subTest(why=why):
                self.assertEqual(self.refused(code), [why])

    def test_in_top_k_is_tf2s_in_the_graph_and_in_the_functions_it_calls(self):
        # (the tutorial's evaluation(): TF1's in_top_k(predictions, targets, k), which the safe pass writes through
        # tf.compat.v1, is TF 2's in_top_k(targets, predictions, k): the same op)
        before = """
            import tensorflow as tf


            def evaluation(logits, labels):
                correct = tf.compat.v1.nn.in_top_k(logits, labels, 1)
                return tf.reduce_sum(tf.cast(correct, tf.int32))


            def main():
                x = tf.placeholder(tf.float32, [None, 2])
                y = tf.placeholder(tf.int32, [None])
                w = tf.Variable(1.0)
                logits = x * w
                correct = evaluation(logits, y)
                top = tf.compat.v1.math.in_top_k(predictions=logits, targets=y, k=2)
                with tf.Session() as sess:
                    sess.run(tf.global_variables_initializer())
                    print(sess.run([correct, top], {x: [[1.0, 2.0]], y: [1]}))
        """
        after = """
            import compat
            import tensorflow as tf


            def evaluation(logits, labels):
                correct = tf.math.in_top_k(targets=labels, predictions=logits, k=1)
                return tf.reduce_sum(tf.cast(correct, tf.int32))


            def main():
                w = tf.Variable(1.0, name="Variable")

                def model(x, y):
                    logits = x * w
                    correct = evaluation(logits, y)
                    top = tf.math.in_top_k(targets=y, predictions=logits, k=2)
                    return {"correct": correct, "top": top}

                evaluate = tf.function(model, input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None], tf.int32)])

                print([outputs[name].numpy() for outputs in [evaluate([[1.0, 2.0]], [1])] for name in ("correct", "top")])
        """
        self.assertCodemod(before, after, level="native")
        said = [e.message for e in self.applied(before, level="native").entries if e.rule == NativeSessionRule.ID]
        self.assertIn("tf.compat.v1.nn.in_top_k(predictions, targets, k) -> tf.math.in_top_k(", said[0])
        # must not fire: another tf.compat.v1 name in the function the graph calls stays at the safe level
        other = textwrap.dedent(before).replace(
            "tf.reduce_sum(tf.cast(correct", "tf.compat.v1.to_float(tf.cast(correct"
        )
        self.assertEqual(
            self.refused(other),
            [
                "the graph calls evaluation(), which builds graph state the rule does not convert (tf.compat.v1.to_float)"
            ],
        )

    def test_must_not_fire_on_a_variable_made_inside_an_expression_of_the_graph(self):
        # (TF1 made it once, with the graph; in model(), traced by the train step and by evaluate, it would be made
        # at each trace: evaluate() would read another variable than the one trained)
        graph = (
            "import tensorflow as tf\n"
            "x = tf.placeholder(tf.float32, [None, 2])\n"
            "{line}\n"
            "with tf.Session() as sess:\n"
            "    sess.run(tf.global_variables_initializer())\n"
            "    print(sess.run(y, {{x: [[1.0, 2.0]]}}))\n"
        )
        cases = {
            "y = x * tf.Variable(1.0)": "tf.Variable inside an expression: model() would make it at each call (TF1 made it once)",
            "y = x * tf.get_variable('w', initializer=1.0)": (
                "tf.get_variable inside an expression: model() would make it at each call (TF1 made it once)"
            ),
        }
        for line, why in cases.items():
            with self.subTest(line=line):
                self.assertEqual(self.refused(graph.format(line=line)), [why])


@pytest.mark.parametrize("which", ["helpers", "global_step"])
def test_the_native_port_of_a_tf_variable_helper_trains_like_the_safe_port(tmp_path, which):
    """The tutorial's shape at a small size: inference() with its variables under name scopes, loss(), training()
    making the train op that increments its global step, and evaluation; the native port loads the safe port's
    step-0 checkpoint by the TF1 names, and prints the same losses and evaluation. `global_step`: the train op and
    its global step in the graph's block instead, the global step printed at the end."""
    script = tmp_path / "tutorial_helpers.py"
    program = TUTORIAL if which == "helpers" else TUTORIAL_GLOBAL_STEP
    script.write_text(textwrap.dedent(program))
    ported = {
        level: native.migrate([str(script)], str(tmp_path / level), level, in_process=True)
        for level in ("safe", "native")
    }
    assert [os.path.basename(p) for p in native.converted(ported["native"])] == [script.name]
    files = {level: native.ported_file(str(tmp_path / level), script.name, script.name) for level in ported}
    with open(files["native"], encoding="utf-8") as handle:
        code = handle.read()
    assert native.references(code)[1] == 0  # no tf.* reference through tf.compat.v1
    assert ".Session(" not in code and ".placeholder(" not in code and "sess.run" not in code
    folder = tmp_path / "runs"
    folder.mkdir()
    row = native.equivalence(script.name, files["safe"], files["native"], [], str(folder))
    assert row["unloaded"] == [] and row["steps"] >= 4, row
    # (hidden1/weights, hidden1/biases, hidden2/..., softmax_linear/...: the bench saves the trainable variables; the
    # global step is compared by what both print)
    assert row["loaded"] == "6/6", row
    assert row["equal"], row
    evaluations = [[line for line in out.splitlines() if line.startswith("eval")] for out in row["stdout"]]
    assert len(evaluations[0]) == (1 if which == "helpers" else 2) and evaluations[0] == evaluations[1]
    assert which == "helpers" or evaluations[0][1] == "eval global step 5"


# our own program of the MNIST tutorial's shape (mnist.py's inference and loss, fully_connected_feed.py's loop),
# tiny, on generated data
TUTORIAL = """
    import math

    import numpy as np
    import tensorflow as tf

    FEATURES = 6
    CLASSES = 3
    BATCH = 8


    def inference(images, hidden1_units, hidden2_units):
        with tf.name_scope("hidden1"):
            weights = tf.Variable(
                tf.truncated_normal([FEATURES, hidden1_units], stddev=1.0 / math.sqrt(float(FEATURES))), name="weights"
            )
            biases = tf.Variable(tf.zeros([hidden1_units]), name="biases")
            hidden1 = tf.nn.relu(tf.matmul(images, weights) + biases)
        with tf.name_scope("hidden2"):
            weights = tf.Variable(
                tf.truncated_normal([hidden1_units, hidden2_units], stddev=1.0 / math.sqrt(float(hidden1_units))),
                name="weights",
            )
            biases = tf.Variable(tf.zeros([hidden2_units]), name="biases")
            hidden2 = tf.nn.relu(tf.matmul(hidden1, weights) + biases)
        with tf.name_scope("softmax_linear"):
            weights = tf.Variable(
                tf.truncated_normal([hidden2_units, CLASSES], stddev=1.0 / math.sqrt(float(hidden2_units))),
                name="weights",
            )
            biases = tf.Variable(tf.zeros([CLASSES]), name="biases")
            logits = tf.matmul(hidden2, weights) + biases
        return logits


    def loss(logits, labels):
        labels = tf.to_int64(labels)
        cross_entropy = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        return tf.reduce_mean(cross_entropy)


    def evaluation(logits, labels):
        correct = tf.nn.in_top_k(logits, labels, 1)
        return tf.reduce_sum(tf.cast(correct, tf.int32))


    def training(loss, learning_rate):
        optimizer = tf.train.GradientDescentOptimizer(learning_rate)
        global_step = tf.Variable(0, name="global_step", trainable=False)
        train_op = optimizer.minimize(loss, global_step=global_step)
        return train_op


    def run_training():
        rng = np.random.RandomState(0)
        images_placeholder = tf.placeholder(tf.float32, shape=(None, FEATURES))
        labels_placeholder = tf.placeholder(tf.int32, shape=(None,))
        logits = inference(images_placeholder, 5, 4)
        loss_op = loss(logits, labels_placeholder)
        train_op = training(loss_op, 0.1)
        eval_correct = evaluation(logits, labels_placeholder)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(5):
                feed_dict = {
                    images_placeholder: rng.rand(BATCH, FEATURES),
                    labels_placeholder: rng.randint(0, CLASSES, BATCH),
                }
                _, loss_value = sess.run([train_op, loss_op], feed_dict=feed_dict)
                print("step %d loss %.6f" % (step, loss_value))
            feed_dict = {images_placeholder: rng.rand(BATCH, FEATURES), labels_placeholder: rng.randint(0, CLASSES, BATCH)}
            print("eval correct", sess.run(eval_correct, feed_dict=feed_dict))


    if __name__ == "__main__":
        run_training()
"""
# the train op and its global step written in the graph's block, the global step read after the loop
TUTORIAL_GLOBAL_STEP = (
    TUTORIAL.replace(TUTORIAL[TUTORIAL.index("    def training(") : TUTORIAL.index("    def run_training(")], "")
    .replace(
        "        train_op = training(loss_op, 0.1)\n",
        '        global_step = tf.Variable(0, name="global_step", trainable=False)\n'
        "        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss_op, global_step=global_step)\n",
    )
    .replace(
        '            print("eval correct", sess.run(eval_correct, feed_dict=feed_dict))\n',
        '            print("eval correct", sess.run(eval_correct, feed_dict=feed_dict))\n'
        '            print("eval global step", sess.run(global_step))\n',
    )
)
