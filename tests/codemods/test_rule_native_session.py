"""native-session: a Session training script of the tutorial shape -> eager TF 2 (Keras layers, a tf.function
train step with GradientTape and a Keras optimizer), or the safe level with an info entry saying why.

The rule runs alone here (the safe rules' rewrites are not applied): the fixtures' expressions are TF 2
already. The whole pipeline and the trained losses are test_native_equivalence.py's.
"""

import ast
import os

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bench.native import references
from codemods.rules import select
from codemods.rules.native_session import NativeSessionRule
from tests.support.processes import REPO
from tests.support.rule_test import RuleTest, apply

PREFIX = "Session script left at the safe level: "
READS = "the rule reads the statements of module and function bodies"
WRITER_GRAPH = (
    "tf.summary.FileWriter given the graph: TF1 wrote the graph into the event file, TF 2's "
    "tf.summary.create_file_writer writes none"
)


class TestNativeSessionRule(RuleTest):
    TRANSFORM = NativeSessionRule

    def refused(self, source: str) -> list[str]:
        """The rule's messages for a source it must leave as it is."""
        self.assertCodemod(source, source, level="native")
        return [e.message for e in self.applied(source, level="native").entries if e.rule == NativeSessionRule.ID]

    def test_function_script_with_layers_adam_and_a_training_loop(self):
        before = """
            import tensorflow as tf

            def main():
                tf.set_random_seed(0)
                x = tf.placeholder(tf.float32, [None, 4], name="x")
                y = tf.placeholder(tf.int64, [None])
                hidden = tf.layers.dense(x, 8, activation=tf.nn.relu)
                logits = tf.layers.dense(hidden, 3, name="out")
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
                train_op = tf.train.AdamOptimizer(0.01, beta1=0.8).minimize(loss)
                with tf.Session() as sess:
                    sess.run(tf.global_variables_initializer())
                    for step in range(3):
                        _, value = sess.run([train_op, loss], feed_dict={x: batch(), y: labels()})
                        print(step, value)
        """
        after = """
            import compat
            import tensorflow as tf

            def main():
                tf.keras.utils.set_random_seed(0)
                dense = tf.keras.layers.Dense(units=8, activation=tf.nn.relu, name="dense")
                out = tf.keras.layers.Dense(units=3, name="out")

                def model(x, y):
                    hidden = dense(x)
                    logits = out(hidden)
                    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
                    return {"loss": loss}

                optimizer = tf.keras.optimizers.Adam(learning_rate=0.01, beta_1=0.8, epsilon=1e-08)

                @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32), tf.TensorSpec([None], tf.int64)])
                def train_step(x, y):
                    with tf.GradientTape() as tape:
                        outputs = model(x, y)
                    variables = tape.watched_variables()
                    optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                    return outputs["loss"]

                for step in range(3):
                    value = train_step(batch(), labels()).numpy()
                    print(step, value)
        """
        self.assertCodemod(before, after, level="native")

    def test_module_level_interactive_session_variables_and_an_evaluation_run(self):
        before = """
            import tensorflow as tf

            x = tf.placeholder(tf.float32, [None, 2])
            w = tf.Variable(tf.zeros([2, 1]))
            b = tf.Variable(tf.zeros([1]), name="bias")
            error = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - 1.0))
            train = tf.train.MomentumOptimizer(0.1, 0.9).minimize(error)
            init = tf.global_variables_initializer()
            sess = tf.InteractiveSession()
            sess.run(init)
            for _ in range(2):
                sess.run(train, {x: [[1.0, 2.0]]})
            final = sess.run(error, feed_dict={x: [[1.0, 2.0]]})
            sess.close()
            print(final)
        """
        after = """
            import compat
            import tensorflow as tf

            w = tf.Variable(tf.zeros([2, 1]), name="Variable")
            b = tf.Variable(tf.zeros([1]), name="bias")

            def model(x):
                error = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - 1.0))
                return {"error": error}

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)

            @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
            def train_step(x):
                with tf.GradientTape() as tape:
                    outputs = model(x)
                variables = tape.watched_variables()
                optimizer.apply_gradients(zip(tape.gradient(outputs["error"], variables), variables))

            evaluate = tf.function(model, input_signature=[tf.TensorSpec([None, 2], tf.float32)])

            for _ in range(2):
                train_step([[1.0, 2.0]])
            final = evaluate([[1.0, 2.0]])["error"].numpy()
            print(final)
        """
        self.assertCodemod(before, after, level="native")

    def test_batch_norm_updates_a_default_placeholder_a_v1_loss_and_a_feed_variable(self):
        before = """
            import tensorflow as tf

            def main():
                images = tf.placeholder(tf.float32, [None, 4])
                labels = tf.placeholder(tf.int64, [None])
                training = tf.placeholder_with_default(False, [])
                net = tf.layers.batch_normalization(images, training=training)
                loss = tf.losses.sparse_softmax_cross_entropy(labels, tf.layers.dense(net, 2))
                with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
                    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
                with tf.Session() as sess:
                    sess.run(tf.global_variables_initializer())
                    for step in range(2):
                        feed = {labels: next_labels(), images: next_images(), training: True}
                        print("loss", sess.run([train_op, loss], feed)[1])
                    print("eval", sess.run(loss, {images: next_images(), labels: next_labels()}))
        """
        after = """
            import compat
            import tensorflow as tf

            def main():
                batch_normalization = tf.keras.layers.BatchNormalization(name="batch_normalization")
                dense = tf.keras.layers.Dense(units=2, name="dense")

                def model(images, labels, training):
                    net = batch_normalization(images, training=training)
                    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, dense(net))
                    return {"loss": loss}

                optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

                @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32), tf.TensorSpec([None], tf.int64), tf.TensorSpec([], tf.bool)])
                def train_step(images, labels, training):
                    with tf.GradientTape() as tape:
                        outputs = model(images, labels, training)
                    variables = tape.watched_variables()
                    optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                    return outputs["loss"]

                evaluate = tf.function(model, input_signature=[tf.TensorSpec([None, 4], tf.float32), tf.TensorSpec([None], tf.int64), tf.TensorSpec([], tf.bool)])

                for step in range(2):
                    feed = {"labels": next_labels(), "images": next_images(), "training": True}
                    print("loss", [None, train_step(**feed).numpy()][1])
                print("eval", evaluate(next_images(), next_labels(), False)["loss"].numpy())
        """
        self.assertCodemod(before, after, level="native")

    def test_must_not_fire_on_a_batch_normalization_whose_updates_no_train_op_runs(self):
        # (TF1's moving statistics stayed at their initial values; a Keras layer called in training mode updates
        # them: the same training, another evaluation. The test above, with the updates run, converts.)
        source = """
            import tensorflow as tf
            x = tf.placeholder(tf.float32, [None, 4])
            y = tf.placeholder(tf.int64, [None])
            training = tf.placeholder(tf.bool)
            net = tf.layers.batch_normalization(x, training=training, name="bn")
            loss = tf.losses.sparse_softmax_cross_entropy(y, tf.layers.dense(net, 2))
            train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(train_op, {x: next_images(), y: next_labels(), training: True})
                print(sess.run(loss, {x: next_images(), y: next_labels(), training: False}))
        """
        self.assertEqual(
            self.refused(source),
            [
                PREFIX + "`bn`, a BatchNormalization whose updates the train op does not run (TF1's moving statistics "
                "stayed; a Keras layer in eager updates them at each call)"
            ],
        )
        # in inference mode (tf.layers' default) neither updates them
        inference = source.replace("training=training, ", "")
        self.assertIn(
            'bn = tf.keras.layers.BatchNormalization(name="bn")', self.applied(inference, level="native").module.code
        )

    def test_the_tf_docs_update_ops_line_converts_as_the_inline_collection(self):
        # (`update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)` on its own line, read once by the with statement:
        # the same port as the collection read inline; the equivalence: test_native_equivalence_optimizer.py)
        inline = """
            import tensorflow as tf
            x = tf.placeholder(tf.float32, [None, 4])
            training = tf.placeholder(tf.bool, [])
            loss = tf.reduce_sum(tf.layers.batch_normalization(x, training=training))
            with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
                train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(train_op, {x: next_images(), training: True})
        """
        docs = inline.replace(
            "with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):",
            "update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)\n            with tf.control_dependencies(update_ops):",
        )
        converted = self.applied(inline, level="native").module.code
        self.assertIn("BatchNormalization", converted)
        self.assertCodemod(docs, converted, level="native")
        # read again elsewhere: TF1's collection, which Keras layers do not fill
        again = docs.replace("sess.run(train_op,", "sess.run(update_ops)\n                sess.run(train_op,")
        self.assertEqual(len(self.refused(again)), 1)

    def test_a_layer_s_v1_initializer_is_the_tf2_initializer_of_the_table_get_variable_reads(self):
        # (native-estimator-loop's and get_variable's table, _native_tables.INITIALIZERS: TF1's defaults written out)
        source = """
            import tensorflow as tf
            x = tf.placeholder(tf.float32, [None, 4])
            init = tf.truncated_normal_initializer(stddev=0.1)
            out = tf.layers.dense(x, 2, kernel_initializer=tf.truncated_normal_initializer(stddev=0.1), bias_initializer=tf.zeros_initializer())
            loss = tf.reduce_sum(out)
            op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(op, {x: next_images()})
        """.replace("            init = tf.truncated_normal_initializer(stddev=0.1)\n", "")
        code = self.applied(source, level="native").module.code
        self.assertIn(
            "dense = tf.keras.layers.Dense(units=2, kernel_initializer=tf.keras.initializers.TruncatedNormal(stddev=0.1), "
            'bias_initializer=tf.zeros_initializer(), name="dense")',
            code,
        )
        # an initializer the table does not hold stays (after the safe pass: tf.compat.v1's), with its entry
        other = self.make_fixture_data(
            source.replace("tf.truncated_normal_initializer(stddev=0.1)", "tf.orthogonal_initializer()")
        )
        said = [
            e.message
            for e in apply(other, *select(level="native"), level="native").entries
            if e.rule == "native-session"
        ]
        self.assertEqual(said, [PREFIX + "tf.compat.v1.orthogonal_initializer has no native equivalent the rule knows"])

    def test_a_feed_written_in_another_order_passes_keywords_evaluated_as_written(self):
        source = """
            import tensorflow as tf
            x = tf.placeholder(tf.float32, [None])
            y = tf.placeholder(tf.float32, [None])
            v = tf.Variable(1.0)
            loss = tf.reduce_sum(x * y * v)
            op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run(op, {y: draw(), x: draw()})
        """
        code = self.applied(source, level="native").module.code
        self.assertEqual(code.rstrip().splitlines()[-1], "train_step(y=draw(), x=draw())")

    def test_saver_and_a_second_session_that_restores(self):
        before = """
            import tensorflow as tf
            x = tf.placeholder(tf.float32, [None, 2])
            w = tf.Variable(tf.ones([2, 1]))
            loss = tf.reduce_sum(tf.matmul(x, w))
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            saver = tf.train.Saver()
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(train_op, {x: [[1.0, 2.0]]})
                path = saver.save(sess, "/tmp/model.ckpt")
            with tf.Session() as other:
                saver.restore(other, path)
                print(other.run(loss, {x: [[1.0, 1.0]]}))
        """
        after = """
            import compat.tf1_saver
            import compat.tf1_slots
            import tensorflow as tf
            w = tf.Variable(tf.ones([2, 1]), name="Variable")

            def model(x):
                loss = tf.reduce_sum(tf.matmul(x, w))
                return {"loss": loss}

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

            @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
            def train_step(x):
                with tf.GradientTape() as tape:
                    outputs = model(x)
                variables = tape.watched_variables()
                optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))

            evaluate = tf.function(model, input_signature=[tf.TensorSpec([None, 2], tf.float32)])

            saver = tf.train.Checkpoint(w=w, optimizer=optimizer)

            train_step([[1.0, 2.0]])
            path = compat.tf1_saver.save(saver, "/tmp/model.ckpt")
            saver.restore(path)
            compat.tf1_slots.restore_slots_when_built(optimizer, path)
            print(evaluate([[1.0, 1.0]])["loss"].numpy())
        """
        self.assertCodemod(before, after, level="native")

    def test_must_not_fire_on_sessions_and_savers_eager_code_cannot_mirror(self):
        graph = (
            "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 1])\n"
            "loss = tf.reduce_sum(tf.layers.dense(x, 1))\nop = tf.train.AdamOptimizer(0.1).minimize(loss)\n"
        )
        cases = {
            "saver = tf.train.Saver(max_to_keep=2)\nwith tf.Session() as sess:\n    sess.run(op, {x: [[1.0]]})\n": (
                "a tf.train.Saver with arguments (var_list, max_to_keep ...), or two"
            ),
            "saver = tf.train.Saver()\nwith tf.Session() as sess:\n    saver.save(sess, 'm')\n"
            "    sess.run(op, {x: [[1.0]]})\n": "a save before any step: the Keras layers have no variables yet",
            # (an initializer run is no step: the layers are still unbuilt)
            "saver = tf.train.Saver()\nwith tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
            "    saver.save(sess, 'm')\n    sess.run(op, {x: [[1.0]]})\n": (
                "a save before any step: the Keras layers have no variables yet"
            ),
            "with tf.Session() as sess:\n    sess.run(op, {x: [[1.0]]})\nwith tf.Session() as sess:\n"
            "    sess.run(tf.global_variables_initializer())\n": (
                "a later session initialises the variables again (eager variables keep their values)"
            ),
            "saver = tf.train.Saver()\nwith tf.Session() as sess:\n    sess.run(op, {x: [[1.0]]})\n"
            "    saver.save(sess, 'm', write_meta_graph=False)\n": (
                "saver.save(write_meta_graph=...), which the native equivalent does not take as is"
            ),
        }
        for session, why in cases.items():
            with self.subTest(session=session):
                self.assertEqual(self.refused(graph + session), [PREFIX + why])

    def test_a_one_shot_iterator_becomes_python_iteration_over_the_dataset(self):
        before = """
            import tensorflow as tf
            dataset = tf.data.Dataset.from_tensor_slices((features.astype("float32"), targets)).batch(4).repeat()
            x, y = dataset.make_one_shot_iterator().get_next()
            loss = tf.reduce_mean(tf.square(tf.layers.dense(x, 1) - y))
            train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                while True:
                    try:
                        _, value = sess.run([train_op, loss])
                    except tf.errors.OutOfRangeError:
                        break
        """
        after = """
            import compat
            import tensorflow as tf
            dataset = tf.data.Dataset.from_tensor_slices((features.astype("float32"), targets)).batch(4).repeat()
            iterator = iter(dataset)
            dense = tf.keras.layers.Dense(units=1, name="dense")

            def model(x, y):
                loss = tf.reduce_mean(tf.square(dense(x) - y))
                return {"loss": loss}

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.5)

            @tf.function(input_signature=[*dataset.element_spec])
            def train_step(x, y):
                with tf.GradientTape() as tape:
                    outputs = model(x, y)
                variables = tape.watched_variables()
                optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                return outputs["loss"]

            while True:
                try:
                    value = train_step(*iterator.get_next()).numpy()
                except tf.errors.OutOfRangeError:
                    break
        """
        self.assertCodemod(before, after, level="native")

    def test_must_not_fire_on_an_evaluation_that_may_not_draw_from_the_iterator(self):
        messages = self.refused("""
            import tensorflow as tf
            dataset = tf.data.Dataset.range(10).map(lambda i: tf.cast(i, tf.float32))
            x = dataset.make_one_shot_iterator().get_next()
            w = tf.Variable(1.0)
            loss = x * w
            train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
            with tf.Session() as sess:
                sess.run(train_op)
                print(sess.run(loss))
        """)
        why = "an evaluation sess.run with a tf.data input (TF1 draws only when a fetch needs it)"
        self.assertEqual(messages, [PREFIX + why])

    def test_an_input_function_returns_its_dataset_and_the_function_it_maps_keeps_tf2_names(self):
        # (as the safe pass leaves TF 1.4's input_fn: tf.contrib.data -> tf.compat.v1.data, contrib.learn's ModeKeys)
        before = """
            import os
            import tensorflow as tf

            def parser(record):
                features = tf.io.parse_single_example(record, {"image": tf.io.FixedLenFeature([], tf.string)})
                image = tf.compat.v1.image.resize_images(tf.image.decode_jpeg(features["image"], channels=3), [8, 8])
                return tf.reshape(image, [192]), tf.strings.length(features["image"]) % 10

            def input_fn(mode):
                \"\"\"The training pipeline.\"\"\"
                files = tf.io.gfile.glob(os.path.join("data", "train-*"))
                dataset = tf.compat.v1.data.TFRecordDataset(files).repeat()
                dataset = dataset.map(parser, num_parallel_calls=4).prefetch(8)
                if mode == tf.compat.v1.estimator.ModeKeys.TRAIN:
                    dataset = dataset.batch(4, drop_remainder=True)
                return dataset.make_one_shot_iterator().get_next()

            images, labels = input_fn(tf.compat.v1.estimator.ModeKeys.TRAIN)
            w = tf.Variable(tf.zeros([192, 10]))
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=tf.matmul(images, w)))
            train_op = tf.compat.v1.train.GradientDescentOptimizer(0.05).minimize(loss)
            with tf.compat.v1.Session() as sess:
                sess.run(tf.compat.v1.global_variables_initializer())
                for step in range(3):
                    _, value = sess.run([train_op, loss])
        """
        after = """
            import os
            import compat
            import tensorflow as tf

            def parser(record):
                features = tf.io.parse_single_example(record, {"image": tf.io.FixedLenFeature([], tf.string)})
                image = tf.raw_ops.ResizeBilinear(images=tf.expand_dims(tf.image.decode_jpeg(features["image"], channels=3), 0), size=[8, 8])[0]
                return tf.reshape(image, [192]), tf.strings.length(features["image"]) % 10

            def input_fn(mode):
                \"\"\"The training pipeline.\"\"\"
                files = tf.io.gfile.glob(os.path.join("data", "train-*"))
                dataset = tf.data.TFRecordDataset(files).repeat()
                dataset = dataset.map(parser, num_parallel_calls=4).prefetch(8)
                if mode == tf.estimator.ModeKeys.TRAIN:
                    dataset = dataset.batch(4, drop_remainder=True)
                return dataset

            iterator = iter(input_fn(tf.estimator.ModeKeys.TRAIN))
            w = tf.Variable(tf.zeros([192, 10]), name="Variable")

            def model(images, labels):
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=tf.matmul(images, w)))
                return {"loss": loss}

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.05)

            @tf.function(input_signature=[*iterator.element_spec])
            def train_step(images, labels):
                with tf.GradientTape() as tape:
                    outputs = model(images, labels)
                variables = tape.watched_variables()
                optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                return outputs["loss"]

            for step in range(3):
                value = train_step(*iterator.get_next()).numpy()
        """
        self.assertCodemod(before, after, level="native")

    def test_must_not_fire_on_input_functions_and_mapped_functions_it_cannot_prove(self):
        parser = (
            "import tensorflow as tf\n"
            "def parser(record):\n"
            "    image = tf.image.decode_jpeg(record, channels=3)\n"
            "    return {body}\n"
            "def input_fn():\n"
            "    dataset = tf.compat.v1.data.TFRecordDataset(['f']).map(parser).batch(2){more}\n"
            "    return dataset.make_one_shot_iterator().get_next()\n"
        )
        graph = (
            "x = input_fn()\nw = tf.Variable(1.0)\nloss = tf.reduce_sum(x) * w\n"
            "op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
            "with tf.compat.v1.Session() as sess:\n    sess.run(op)\n"
        )
        plain = {"body": "tf.cast(image, tf.float32)", "more": ""}
        cases = {
            (parser.format(**plain) + graph + "y = input_fn()\n"): "input_fn() is used elsewhere too (its one call "
            "builds the input pipeline)",
            parser.format(body="tf.image.random_flip_left_right(image)", more=""): (
                "tf.image.random_flip_left_right in parser(), which a pipeline traces: graph and eager op seeds differ"
            ),
            parser.format(body="tf.compat.v1.image.resize_images(image, [4, 4])", more=""): (
                "tf.compat.v1.image.resize_images of an image not decoded in place or to a computed size (its rank "
                "is not known)"
            ),
            parser.format(**plain).replace("    dataset =", "    n = tf.constant(2)\n    dataset ="): (
                "tf.constant in input_fn(), which builds graph state there"
            ),
            parser.format(**plain) + "print(parser(b''))\n": (
                "parser() is used besides as the function of a pipeline the rule converts"
            ),
            parser.format(body="tf.compat.v1.to_float(image)", more=""): (
                "tf.compat.v1.to_float has no native equivalent the rule knows"
            ),
        }
        for source, why in cases.items():
            with self.subTest(source=source):
                code = source if "sess" in source else source + graph
                self.assertEqual(self.refused(code), [PREFIX + why])

    def test_layer_names_follow_tf1s_uniquified_names_and_nested_calls(self):
        before = """
            import tensorflow as tf
            images = tf.placeholder(tf.float32, [None, 8, 8, 1])
            net = tf.layers.conv2d(images, 4, 3)
            net = tf.layers.dense(tf.layers.flatten(tf.layers.max_pooling2d(net, 2, 2)), 2)
            net = tf.layers.dense(net, 1)
            loss = tf.reduce_mean(net)
            step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(step, {images: data})
        """
        applied = self.applied(before, level="native").module.code
        self.assertIn('conv2d = tf.keras.layers.Conv2D(filters=4, kernel_size=3, name="conv2d")', applied)
        self.assertIn(
            'max_pooling2d = tf.keras.layers.MaxPooling2D(pool_size=2, strides=2, name="max_pooling2d")', applied
        )
        self.assertIn('flatten = tf.keras.layers.Flatten(name="flatten")', applied)
        self.assertIn('dense_1 = tf.keras.layers.Dense(units=1, name="dense_1")', applied)
        self.assertIn("net = dense(flatten(max_pooling2d(net)))", applied)
        self.assertNotIn("sess", applied)

    def test_only_the_native_level_selects_it(self):
        self.assertNotIn(NativeSessionRule, select(level="safe"))
        self.assertIn(NativeSessionRule, select(level="native"))
        rules = select(level="native")
        after = rules[rules.index(NativeSessionRule) + 1 :]
        self.assertEqual({rule.LEVEL for rule in after}, {"native"})  # after every safe rule: it reads their result

    def test_inference_script_list_and_nested_evaluations(self):
        before = """
            import tensorflow as tf
            x = tf.placeholder(tf.float32, [None])
            y = x * 2
            total = tf.reduce_sum(y)
            with tf.Session() as sess:
                print(sess.run(y, {x: [1.0]}))
                doubled, summed = sess.run([y, total], feed_dict={x: [2.0]})
        """
        after = """
            import compat
            import tensorflow as tf

            def model(x):
                y = x * 2
                total = tf.reduce_sum(y)
                return {"y": y, "total": total}

            evaluate = tf.function(model, input_signature=[tf.TensorSpec([None], tf.float32)])

            print(evaluate([1.0])["y"].numpy())
            doubled, summed = [outputs[name].numpy() for outputs in [evaluate([2.0])] for name in ("y", "total")]
        """
        self.assertCodemod(before, after, level="native")

    def test_must_not_fire_on_a_shadowed_tf_strings_and_comments(self):
        messages = self.refused("""
            import tensorflow as tf

            def main(tf):
                x = tf.placeholder(tf.float32, [None])
                op = tf.train.GradientDescentOptimizer(0.1).minimize(x)
                with tf.Session() as sess:  # tf.Session of a local object
                    sess.run(op, {x: [1.0]})
            doc = "with tf.Session() as sess: sess.run(train_op)"
        """)
        self.assertEqual(messages, [])

    def test_must_not_fire_when_a_run_does_not_feed_every_placeholder(self):
        messages = self.refused("""
            import tensorflow as tf
            x = tf.placeholder(tf.float32, [None])
            y = tf.placeholder(tf.float32, [None])
            v = tf.Variable(1.0)
            loss = tf.reduce_sum(x * v)
            op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(op, {x: [1.0]})
        """)
        self.assertEqual(
            messages, [PREFIX + "a sess.run that does not feed every placeholder (the step takes them all)"]
        )

    def test_must_not_fire_when_other_code_in_the_file_needs_graph_mode(self):
        messages = self.refused("""
            import tensorflow as tf

            def serve():
                return tf.placeholder(tf.float32, [None])

            def main():
                x = tf.placeholder(tf.float32, [None])
                v = tf.Variable(1.0)
                loss = tf.reduce_sum(x * v)
                op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
                with tf.Session() as sess:
                    sess.run(tf.global_variables_initializer())
                    sess.run(op, {x: [1.0]})
        """)
        self.assertEqual(
            messages, [PREFIX + "the file has other graph-mode code (tf.placeholder), which needs eager execution off"]
        )

    def test_must_not_fire_on_graph_machinery_it_cannot_prove(self):
        cases = {
            "with tf.control_dependencies(deps):\n    op = opt.minimize(loss)": "a With statement that builds the graph",
            "op = tf.train.RMSPropOptimizer(0.1).minimize(loss)": "tf.train.RMSPropOptimizer, which the rule does not convert",
            # (a tf.Session's minimize increments the global step, or a tf.Variable(..., trainable=False): `step`
            # is neither, a name the graph does not bind)
            "op = tf.train.AdamOptimizer(0.1).minimize(loss, global_step=step)": (
                "minimize(global_step=...) of a variable that is not the global step (trainable, or none of the graph)"
            ),
            "op = tf.train.AdamOptimizer(0.1, use_locking=True).minimize(loss)": "tf.train.AdamOptimizer(use_locking=...)",
            # (the loss only, but not by a name the graph binds, or by keyword)
            "op = tf.train.AdamOptimizer(0.1).minimize(loss + loss)": (
                "minimize() of an expression (`loss + loss`), not of a name the graph binds"
            ),
            "op = tf.train.AdamOptimizer(0.1).minimize(loss=loss)": "minimize(loss=...): the loss given by keyword",
            # (TF1 named the slots <variable>/Mom; compat.tf1_slots maps <variable>/Momentum: a restart from a TF1
            # checkpoint would start them at zero, as native-estimator-loop's port did, measured in ce95035)
            'op = tf.train.MomentumOptimizer(0.1, 0.9, name="Mom").minimize(loss)': (
                "tf.train.MomentumOptimizer(name=...): TF1 named its slots <variable>/<name>, compat.tf1_slots reads "
                "<variable>/Momentum (a restart from a TF1 checkpoint would start them at zero)"
            ),
            "w = tf.Variable(1.0)\nbump = w.assign_add(loss)\nop = tf.train.AdamOptimizer(0.1).minimize(loss)": (
                "assign_add() of a value the graph computes (`loss`)"
            ),
            "op = tf.train.AdamOptimizer(0.1).minimize(loss)\nout = tf.layers.dense(x, 1, kernel_regularizer=r)": (
                "tf.layers.dense(kernel_regularizer=...), which the native equivalent does not take as is"
            ),
            "batch = tf.train.shuffle_batch([loss], 2, 8, 4)\nop = tf.train.AdamOptimizer(0.1).minimize(loss)": (
                "tf.train.shuffle_batch: queue-runner input other than the rule converts (a string_input_producer of "
                "file names, one TFRecordReader, shuffle_batch or batch of its record)"
            ),
        }
        for graph, why in cases.items():
            source = (
                "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 1])\nloss = tf.reduce_sum(x)\n"
                f"{graph}\nwith tf.Session() as sess:\n    sess.run(op, {{x: [[1.0]]}})\n"
            )
            with self.subTest(graph=graph):
                self.assertEqual(self.refused(source), [PREFIX + why])

    def test_an_optimizer_bound_to_a_name_then_minimized_converts_as_the_chained_one(self):
        # (TF 1.x's Getting Started shape; the equivalence: test_native_equivalence_optimizer.py)
        before = """
            import tensorflow as tf
            W = tf.Variable([0.3])
            x = tf.placeholder(tf.float32)
            loss = tf.reduce_sum(tf.square(W * x - 1.0))
            optimizer = tf.train.GradientDescentOptimizer(0.01)
            train = optimizer.minimize(loss)
            sess = tf.Session()
            sess.run(tf.global_variables_initializer())
            for i in range(3):
                sess.run(train, {x: [1.0, 2.0]})
        """
        after = """
            import compat
            import tensorflow as tf
            W = tf.Variable([0.3], name="Variable")

            def model(x):
                loss = tf.reduce_sum(tf.square(W * x - 1.0))
                return {"loss": loss}

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)

            @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
            def train_step(x):
                with tf.GradientTape() as tape:
                    outputs = model(x)
                variables = tape.watched_variables()
                optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))

            for i in range(3):
                train_step([1.0, 2.0])
        """
        self.assertCodemod(before, after, level="native")
        # used besides its minimize (its gradients computed, its slots read): not the shape
        used = before.replace("minimize(loss)\n", "minimize(loss)\n            slots = optimizer.get_slot_names()\n")
        self.assertEqual(self.refused(used), [PREFIX + "`optimizer`, the optimizer, is used besides its minimize"])

    def test_must_not_fire_on_an_optimizer_of_a_value_the_graph_computes(self):
        # (the Keras optimizer is made once, at module level: a learning rate fed, computed or assigned in the graph
        # is not there, or not read again; a host value is)
        computed = (
            "tf.train.GradientDescentOptimizer of `{}`, a value the graph computes (a placeholder or a tensor: the "
            "Keras optimizer is made once, out of the graph's function)"
        )
        cases = {
            "lr = tf.placeholder(tf.float32, [])\nop = tf.train.MomentumOptimizer(lr, 0.9).minimize(loss)": (
                computed.format("lr").replace("GradientDescent", "Momentum")
            ),
            "lr = tf.constant(0.1) * 2.0\nop = tf.train.GradientDescentOptimizer(lr).minimize(loss)": computed.format(
                "lr"
            ),
            # (a tf-keras optimizer copies a variable's value into its own learning_rate variable when made)
            "lr = tf.Variable(0.1, trainable=False)\ndecay = tf.assign(lr, lr * 0.5)\n"
            "op = tf.train.GradientDescentOptimizer(lr).minimize(loss)": (
                "tf.train.GradientDescentOptimizer of the variable `lr`, which TF1 read at each step (a Keras "
                "optimizer copies its value once: an assign or restore of it would not reach the optimizer)"
            ),
            "op = tf.train.GradientDescentOptimizer(tf.constant(0.1) * 2.0).minimize(loss)": (
                "tf.train.GradientDescentOptimizer of `tf.constant(0.1) * 2.0`, a value the graph computes (a "
                "placeholder or a tensor: the Keras optimizer is made once, out of the graph's function)"
            ),
        }
        for graph, why in cases.items():
            source = (
                "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 1])\n"
                "v = tf.Variable(1.0)\nloss = tf.reduce_sum(x * v)\n"
                f"{graph}\nwith tf.Session() as sess:\n    sess.run(op, {{x: [[1.0]]}})\n"
            )
            with self.subTest(graph=graph):
                self.assertEqual(self.refused(source), [PREFIX + why])
        # a learning rate of the host (a Python value) is read when the optimizer is made, as TF1 read it
        source = """
            import tensorflow as tf
            rate = 0.1 * 2
            x = tf.placeholder(tf.float32, [None, 1])
            v = tf.Variable(1.0)
            loss = tf.reduce_sum(x * v)
            op = tf.train.GradientDescentOptimizer(rate).minimize(loss)
            with tf.Session() as sess:
                sess.run(op, {x: [[1.0]]})
        """
        code = self.applied(source, level="native").module.code
        self.assertIn("optimizer = tf.keras.optimizers.SGD(learning_rate=rate)", code)

    def test_v1_summaries_merge_all_and_a_file_writer_become_tf_summary_v2_under_a_default_writer(self):
        before = """
            import tensorflow as tf

            def main(log_dir):
                step = tf.train.get_or_create_global_step()
                value = tf.random_uniform([10])
                tf.summary.scalar("mean", tf.reduce_mean(value))
                tf.summary.histogram("values", value)
                merged = tf.summary.merge_all()
                increment = tf.assign_add(step, 1)
                writer = tf.summary.FileWriter(log_dir)
                with tf.Session() as sess:
                    sess.run(tf.global_variables_initializer())
                    for _ in range(3):
                        summary, current = sess.run([merged, increment])
                        writer.add_summary(summary, current)
                writer.close()
        """
        after = """
            import compat
            import tensorflow as tf

            def main(log_dir):
                step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")

                def model():
                    value = tf.random_uniform([10])
                    merged = {"mean": tf.reduce_mean(value), "values": value}
                    return {"merged": merged}

                evaluate = tf.function(model, input_signature=[])

                writer = tf.summary.create_file_writer(log_dir)
                for _ in range(3):
                    summary, current = [value for outputs in [evaluate()] for value in (outputs["merged"], step.assign_add(1).numpy())]
                    with writer.as_default(step=current):
                        tf.summary.scalar("mean", summary["mean"])
                        tf.summary.histogram("values", summary["values"])
                writer.close()
        """
        self.assertCodemod(before, after, level="native")

    def test_summaries_fetched_by_the_training_run(self):
        before = """
            import tensorflow as tf
            x = tf.placeholder(tf.float32, [None, 2])
            w = tf.Variable(tf.ones([2, 1]))
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
            tf.summary.scalar("loss", loss)
            tf.summary.histogram("weights", w)
            merged = tf.summary.merge_all()
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            writer = tf.summary.FileWriter("logs")
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for step in range(3):
                    _, value, summary = sess.run([train_op, loss, merged], {x: batch()})
                    writer.add_summary(summary, step)
            writer.flush()
        """
        after = """
            import compat
            import tensorflow as tf
            w = tf.Variable(tf.ones([2, 1]), name="Variable")

            def model(x):
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
                merged = {"loss": loss, "weights": tf.identity(w)}
                return {"loss": loss, "merged": merged}

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

            @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
            def train_step(x):
                with tf.GradientTape() as tape:
                    outputs = model(x)
                variables = tape.watched_variables()
                optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                return outputs["loss"], outputs["merged"]

            writer = tf.summary.create_file_writer("logs")
            for step in range(3):
                value, summary = [value for outputs in [train_step(batch())] for value in (outputs[0].numpy(), outputs[1])]
                with writer.as_default(step=step):
                    tf.summary.scalar("loss", summary["loss"])
                    tf.summary.histogram("weights", summary["weights"])
            writer.flush()
        """
        self.assertCodemod(before, after, level="native")

    def test_get_variable_an_assign_op_a_fetched_variable_and_a_saver(self):
        before = """
            import tensorflow as tf
            v = tf.get_variable("v", initializer=tf.constant([1.0, 2.0]))
            u = tf.get_variable("u", [2], initializer=tf.random_uniform_initializer(maxval=2.0), trainable=False)
            add = tf.assign_add(v, [1.0, 1.0])
            saver = tf.train.Saver()
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(add)
                path = saver.save(sess, "/tmp/model.ckpt")
            with tf.Session() as sess:
                saver.restore(sess, path)
                print("restored", sess.run(v), sess.run(add))
        """
        after = """
            import compat.tf1_saver
            import tensorflow as tf
            v = tf.Variable(tf.constant([1.0, 2.0]), name="v")
            u = tf.Variable(tf.random_uniform_initializer(minval=0.0, maxval=2.0)([2]), trainable=False, name="u")

            saver = tf.train.Checkpoint(u=u, v=v)
            v.assign_add([1.0, 1.0])
            path = compat.tf1_saver.save(saver, "/tmp/model.ckpt")
            saver.restore(path)
            print("restored", v.numpy(), v.assign_add([1.0, 1.0]).numpy())
        """
        self.assertCodemod(before, after, level="native")
        # the same script fetching two assign ops on one variable in one run: TF1 runs them in no set order
        racing = before.replace("saver = ", "reset = v.assign([0.0, 0.0])\n            saver = ").replace(
            "sess.run(add))", "sess.run([add, reset]))"
        )
        why = "one sess.run of two assign ops on one variable (TF1 runs them in no set order)"
        self.assertEqual(self.refused(racing), [PREFIX + why])

    def test_must_not_fire_on_summaries_and_assign_ops_it_cannot_prove(self):
        graph = (
            "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\nstep = tf.train.get_or_create_global_step()\n"
            "loss = tf.reduce_sum(x)\n"
        )
        run = "with tf.Session() as sess:\n    s, n = sess.run([merged, bump], {x: [1.0]})\n    writer.add_summary(s, n)\n"
        rest = "bump = tf.assign_add(step, 1)\nwriter = tf.summary.FileWriter('logs')\n"
        merged = "tf.summary.scalar('loss', loss)\nmerged = tf.summary.merge_all()\n" + rest
        cases = {
            # a summary merge_all does not collect: TF1 never computes it
            merged + "tf.summary.scalar('late', loss)\n" + run: "a tf.summary.scalar no merge_all collects",
            "merged = tf.summary.merge_all()\n"
            + rest
            + run: "tf.summary.merge_all with no summary before it, or twice",
            merged + run + "    print(s)\n": "`s`, a fetched summary, is used besides by add_summary",
            merged + run.replace("writer.add_summary(s, n)", "writer.add_summary(s)"): (
                "writer.add_summary of something other than a fetched merge_all, or without a step"
            ),
            merged + run.replace("[merged, bump], {x: [1.0]}", "[bump, step]"): (
                "one sess.run of `bump` and a fetch reading its variable (no set order)"
            ),
            merged.replace("loss)", "loss * tf.cast(step, tf.float32))") + run: (
                "one sess.run of `bump` and a fetch reading its variable (no set order)"
            ),
            "w = tf.Variable(1.0)\nscaled = loss * w\nop = tf.train.GradientDescentOptimizer(0.1).minimize(scaled)\n"
            "with tf.Session() as sess:\n    _, s = sess.run([op, w], {x: [1.0]})\n": (
                "a training sess.run that also fetches variables, assign ops or metrics"
            ),
            "w = tf.Variable(1.0)\nscaled = loss * w\nop = tf.train.GradientDescentOptimizer(0.1).minimize(scaled)\n"
            "tf.summary.scalar('loss', loss)\nmerged = tf.summary.merge_all()\n"
            "with tf.Session() as sess:\n    print(sess.run([op, merged], {x: [1.0]})[1])\n": (
                "a fetched merge_all that is not unpacked into a name"
            ),
            "w = tf.get_variable('w', [2], initializer=tf.orthogonal_initializer())\nbump = tf.assign_add(step, 1)\n"
            "with tf.Session() as sess:\n    sess.run(bump)\n": "tf.get_variable with an initializer the rule does not know",
            "w = tf.get_variable('w', [2], tf.int32)\nbump = tf.assign_add(step, 1)\n"
            "with tf.Session() as sess:\n    sess.run(bump)\n": (
                "tf.get_variable without an initializer and with a dtype"
            ),
            "w = tf.get_variable('w', tf.shape(x))\nbump = tf.assign_add(step, 1)\n"
            "with tf.Session() as sess:\n    sess.run(bump)\n": (
                "a variable whose shape is read off the graph's tensors (made before them)"
            ),
            # a FileWriter builds no op: what blocks it is the graph it is given, or its place in the session block
            merged.replace("FileWriter('logs')", "FileWriter('logs', tf.get_default_graph())") + run: WRITER_GRAPH,
            merged.replace("FileWriter('logs')", "FileWriter('logs', graph=tf.get_default_graph())")
            + run: WRITER_GRAPH,
            merged.replace(rest, "bump = tf.assign_add(step, 1)\n")
            + run.replace(":\n", ":\n    writer = tf.summary.FileWriter('logs', sess.graph)\n", 1): WRITER_GRAPH,
            merged.replace(rest, "bump = tf.assign_add(step, 1)\n")
            + run.replace(":\n", ":\n    for _ in range(2):\n        writer = tf.summary.FileWriter('logs')\n", 1): (
                "a tf.summary.FileWriter made in a loop (the rule converts one writer made once)"
            ),
            merged.replace(rest, "bump = tf.assign_add(step, 1)\n")
            + run.replace(":\n", ":\n    writer = tf.summary.FileWriter(sess.graph.get_name_scope())\n", 1): (
                "a tf.summary.FileWriter given the session, the graph or its tensors"
            ),
        }
        for code, why in cases.items():
            with self.subTest(code=code):
                self.assertEqual(self.refused(graph + code), [PREFIX + why])

    def test_variable_scope_helpers_make_each_variable_once_under_its_tf1_name(self):
        before = """
            import tensorflow as tf


            def layer(x, name, units, reuse=False):
                \"\"\"A dense layer of shared weights.\"\"\"
                with tf.variable_scope(name, reuse=reuse):
                    w = tf.get_variable("w", [x.shape[-1], units], initializer=tf.random_normal_initializer(seed=1))
                    b = tf.get_variable("b", [units], initializer=tf.zeros_initializer(), trainable=False)
                    return tf.matmul(x, w) + b


            def bias(x):
                with tf.variable_scope("out", reuse=tf.AUTO_REUSE):
                    return x + tf.get_variable("b", [3])


            def main():
                x = tf.placeholder(tf.float32, [None, 2])
                a, b = layer(x, "shared", 3), layer(x, "shared", 3, reuse=True)
                loss = tf.reduce_sum(bias(a) * bias(b))
                train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
                with tf.Session() as sess:
                    sess.run(tf.global_variables_initializer())
                    sess.run(train_op, {x: [[1.0, 2.0]]})
                    print(len(tf.trainable_variables()))
        """
        # (TF1's random_normal_initializer has stddev 1.0, TF 2's 0.05: written out; get_variable's default
        # initializer for a float is Glorot's uniform)
        after = """
            import compat
            import tensorflow as tf


            # TF1's get_variable: each variable made once, at the first call asking for its name (scope/name)
            tf1_variables = {}


            def get_variable(name, initial_value, trainable=True):
                if name not in tf1_variables:
                    tf1_variables[name] = tf.Variable(initial_value, trainable=trainable, name=name)
                return tf1_variables[name]


            def layer(x, name, units, reuse=False):
                \"\"\"A dense layer of shared weights.\"\"\"
                w = get_variable(f"{name}/w", lambda: tf.random_normal_initializer(stddev=1.0, seed=1)([x.shape[-1], units]))
                b = get_variable(f"{name}/b", lambda: tf.zeros_initializer()([units]), trainable=False)
                return tf.matmul(x, w) + b


            def bias(x):
                return x + get_variable("out/b", lambda: tf.keras.initializers.GlorotUniform()([3]))


            def main():

                def model(x):
                    a, b = layer(x, "shared", 3), layer(x, "shared", 3, reuse=True)
                    loss = tf.reduce_sum(bias(a) * bias(b))
                    return {"loss": loss}

                optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

                @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
                def train_step(x):
                    with tf.GradientTape() as tape:
                        outputs = model(x)
                    variables = tape.watched_variables()
                    optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))

                train_step([[1.0, 2.0]])
                print(len([variable for variable in tf1_variables.values() if variable.trainable]))
        """
        self.assertCodemod(before, after, level="native")
        said = [e.message for e in self.applied(before, level="native").entries if e.rule == NativeSessionRule.ID]
        self.assertIn("under its TF1 name (shared/w, shared/b, out/b)", said[0])

    def test_must_not_fire_on_helpers_building_graph_state_it_cannot_prove(self):
        # model() would call them on every step: only variable_scope/get_variable helpers proven from their calls
        helper = (
            "import tensorflow as tf\n\ndef layer(x, name, reuse=False):\n    with tf.variable_scope(name, reuse=reuse):\n"
            "        return tf.matmul(x, tf.get_variable('w', [2, 3]))\n\nx = tf.placeholder(tf.float32, [None, 2])\n"
        )
        run = "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n    print(sess.run(a, {x: [[1.0, 2.0]]}))\n"
        cases = {
            helper + "a = layer(x, 's', reuse=True)\n" + run: "layer() reuses 's/w' before it is made (TF1 raises)",
            helper + "a = layer(x, 's') + layer(x, 's')\n" + run: (
                "layer() makes 's/w' again without reuse (TF1 raises: it exists)"
            ),
            helper + "a = layer(x, 's' + str(1))\n" + run: (
                "a variable scope of layer() named by other than a literal string"
            ),
            helper + "a = tf.add_n([layer(x, 's', reuse=i > 0) for i in range(2)])\n" + run: (
                "layer() called in a comprehension or a lambda (it may run more than once)"
            ),
            helper.replace("[2, 3]", "[2, 3], regularizer=tf.nn.l2_loss") + "a = layer(x, 's')\n" + run: (
                "tf.get_variable(regularizer=...) in layer()"
            ),
            helper.replace("[2, 3]", "[2, 3], initializer=tf.orthogonal_initializer()") + "a = layer(x, 's')\n" + run: (
                "tf.get_variable in layer() with an initializer the rule does not know"
            ),
            helper.replace("tf.matmul(x,", "tf.layers.dense(x, 3) + tf.matmul(x,") + "a = layer(x, 's')\n" + run: (
                "layer() calls tf.layers.dense, which the rule does not convert there"
            ),
            helper.replace("\nx = ", "\ndef other(x):\n    return layer(x, 'o')\n\nx = ")
            + "a = layer(x, 's')\n"
            + run: ("layer() is used besides by the graph's calls"),
            helper + "a = layer(x, 's')\nsaver = tf.train.Saver()\n" + run: (
                "a Saver with variables a helper makes at the first step"
            ),
            helper
            + "a = layer(x, 's')\n"
            + run.replace("    print(", "    print(tf.trainable_variables())\n    print("): (
                "tf.trainable_variables() before any step (get_variable makes them at the first)"
            ),
            # a helper making variables otherwise: the layer would be made again on every step
            "import tensorflow as tf\n\ndef layer(x):\n    return tf.layers.dense(x, 3)\n\ndef main():\n"
            "    x = tf.placeholder(tf.float32, [None, 2])\n    a = layer(x)\n    "
            + run.replace("\n", "\n    ")[:-4]: (
                "the graph calls layer(), which builds graph state the rule does not convert (tf.layers.dense)"
            ),
        }
        for code, why in cases.items():
            with self.subTest(code=code):
                self.assertEqual(self.refused(code), [PREFIX + why])

    def test_device_blocks_stay_around_the_variables_and_the_model_a_device_function_as_its_one_device(self):
        before = """
            import tensorflow as tf

            def on_cpu(op):
                if op.type in ("Variable", "VariableV2", "VarHandleOp"):
                    return "/cpu:0"
                return "/cpu:0"

            def main():
                x = tf.placeholder(tf.float32, [None, 2])
                with tf.device(on_cpu):
                    w = tf.Variable(tf.ones([2, 2]))
                    out = tf.matmul(x, w)
                scaled = out * 2.0
                with tf.device("/cpu:0"):
                    total = tf.reduce_sum(scaled)
                train_op = tf.train.GradientDescentOptimizer(0.1).minimize(total)
                with tf.Session() as sess:
                    sess.run(tf.global_variables_initializer())
                    _, value = sess.run([train_op, total], {x: [[1.0, 2.0]]})
        """
        after = """
            import compat
            import tensorflow as tf

            def on_cpu(op):
                if op.type in ("Variable", "VariableV2", "VarHandleOp"):
                    return "/cpu:0"
                return "/cpu:0"

            def main():
                with tf.device("/cpu:0"):
                    w = tf.Variable(tf.ones([2, 2]), name="Variable")

                def model(x):
                    with tf.device("/cpu:0"):
                        out = tf.matmul(x, w)
                    scaled = out * 2.0
                    with tf.device("/cpu:0"):
                        total = tf.reduce_sum(scaled)
                    return {"total": total}

                optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

                @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
                def train_step(x):
                    with tf.GradientTape() as tape:
                        outputs = model(x)
                    variables = tape.watched_variables()
                    optimizer.apply_gradients(zip(tape.gradient(outputs["total"], variables), variables))
                    return outputs["total"]

                value = train_step([[1.0, 2.0]]).numpy()
        """
        self.assertCodemod(before, after, level="native")
        said = [e.message for e in self.applied(before, level="native").entries]
        self.assertIn('tf.device(on_cpu) as tf.device("/cpu:0"), tf.device("/cpu:0") kept around', said[0])

    def test_must_not_fire_on_devices_it_cannot_prove(self):
        function = "def place(op):\n    if op.type == 'VariableV2':\n        return '/cpu:0'\n    return {}\n"
        cases = {
            "with tf.device(place):\n    v = tf.Variable(1.0)": (
                function.format("'/gpu:0'"),
                "tf.device(place), a device function not proven to name one device for every op",
            ),
            "with tf.device(place):\n    v = tf.Variable(2.0)": (
                function.format("pick(op)"),
                "tf.device(place), a device function not proven to name one device for every op",
            ),
            "with tf.device(name):\n    v = tf.Variable(3.0)": (
                "",
                "tf.device(name), a device function not proven to name one device for every op",
            ),
            "with tf.device('/cpu:' + n):\n    v = tf.Variable(4.0)": ("", "tf.device of a computed device"),
            "with tf.device('/cpu:0'):\n    n = 3\n    v = tf.Variable(5.0)": (
                "",
                "a tf.device block holding a statement that is no variable or tensor of the graph",
            ),
            "with tf.device('/cpu:0'):\n    v = tf.Variable(6.0)\n    op = tf.train.AdamOptimizer(0.1).minimize(loss)": (
                "",
                "a tf.device block around a train op, a saver, summaries or an input pipeline",
            ),
            "v = tf.Variable(7.0)\nwith tf.device('/cpu:0'):\n    bump = v.assign_add(1.0)": (
                "",
                "a tf.device block around a train op, a saver, summaries or an input pipeline",
            ),
            "with tf.device('/cpu:0'):\n    tf.summary.scalar('total', loss)\nmerged = tf.summary.merge_all()": (
                "",
                "a tf.device block around a train op, a saver, summaries or an input pipeline",
            ),
        }
        for graph, (helper, why) in cases.items():
            source = (
                f"import tensorflow as tf\n{helper}x = tf.placeholder(tf.float32, [None, 1])\nloss = tf.reduce_sum(x)\n"
                f"{graph}\nwith tf.Session() as sess:\n    sess.run(loss, {{x: [[1.0]]}})\n"
            )
            with self.subTest(graph=graph):
                self.assertEqual(self.refused(source), [PREFIX + why])
        # a variable's .device where the rule does not know the string TF1 recorded (no tf.device; a name with a job)
        for device in ("", "/job:worker/cpu:0"):
            head = f"with tf.device('{device}'):\n    " if device else ""
            messages = self.refused(
                f"import tensorflow as tf\n{head}w = tf.Variable(tf.ones([2]))\ntotal = tf.reduce_sum(w)\n"
                "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                "    print(sess.run(total), w.device)\n"
            )
            why = (
                "`w.device`: eager TF 2 names the device in full (/job:localhost/...), TF1 as it was asked, which the "
                "rule knows only for a variable made under tf.device of one device"
            )
            with self.subTest(device=device):
                self.assertEqual(messages, [PREFIX + why])

    def test_a_variable_s_device_read_is_the_string_tf1_recorded(self):
        # TF1 kept a device function's string as it returned it, and a device name in its canonical form
        before = """
            import tensorflow as tf

            def on_cpu(op):
                return "/cpu:0"

            with tf.device(on_cpu):
                w = tf.Variable(tf.ones([2]))
            with tf.device("/cpu:0"):
                v = tf.Variable(tf.ones([2]))
            total = tf.reduce_sum(w * v)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                print(sess.run(total), w.device, v.device)
        """
        after = """
            import compat
            import tensorflow as tf

            def on_cpu(op):
                return "/cpu:0"

            with tf.device("/cpu:0"):
                w = tf.Variable(tf.ones([2]), name="Variable")
            with tf.device("/cpu:0"):
                v = tf.Variable(tf.ones([2]), name="Variable_1")

            def model():
                total = tf.reduce_sum(w * v)
                return {"total": total}

            evaluate = tf.function(model, input_signature=[])

            print(evaluate()["total"].numpy(), "/cpu:0", "/device:CPU:0")
        """
        self.assertCodemod(before, after, level="native")

    def test_must_not_fire_when_the_graph_calls_a_library_that_makes_variables(self):
        # model() runs on every step: slim's, contrib's and Keras' layers would make their variables again each time
        cases = {
            "slim = tf.contrib.slim\nnet = slim.conv2d_transpose(x, 2, 3)": "tensorflow.contrib.slim.conv2d_transpose",
            "import tf_slim as slim\nnet = slim.separable_conv2d(x, 2, 3, 1)": "tf_slim.separable_conv2d",
            "net = tf.contrib.layers.batch_norm(x)": "tensorflow.contrib.layers.batch_norm",
            "net = tf.keras.layers.Dense(2)(x)": "tensorflow.keras.layers.Dense",
            "import tensorlayer as tl\nnet = tl.layers.DenseLayer(tl.layers.InputLayer(x), 2).outputs": (
                "tensorlayer.layers.DenseLayer"
            ),
        }
        for graph, name in cases.items():
            source = (
                f"import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 3])\n{graph}\nloss = tf.reduce_sum(net)\n"
                "op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
                "with tf.Session() as sess:\n    sess.run(op, {x: [[1.0, 2.0, 3.0]]})\n"
            )
            with self.subTest(graph=graph):
                why = f"{name}: a library whose calls may make variables, which model() would make again on every step"
                self.assertEqual(self.refused(source), [PREFIX + why])
        # a regularizer function makes none: the entry names what stays (the layer's regularizer argument)
        for regularizer in ("tf.contrib.layers.l2_regularizer(0.05)", "tf.contrib.layers.l1_regularizer(0.05)"):
            source = (
                "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 3])\n"
                f"net = tf.layers.dense(x, 2, kernel_regularizer={regularizer})\nloss = tf.reduce_sum(net)\n"
                "op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
                "with tf.Session() as sess:\n    sess.run(op, {x: [[1.0, 2.0, 3.0]]})\n"
            )
            with self.subTest(regularizer=regularizer):
                why = "tf.layers.dense(kernel_regularizer=...), which the native equivalent does not take as is"
                self.assertEqual(self.refused(source), [PREFIX + why])

    def test_slim_fully_connected_under_arg_scope_becomes_a_keras_dense_keeping_tf1_s_variable_names(self):
        before = """
            import tensorflow as tf
            from tensorflow.contrib.framework import arg_scope

            init = tf.contrib.layers.xavier_initializer(seed=1)
            x = tf.placeholder(tf.float32, [None, 3])
            with arg_scope([tf.contrib.layers.fully_connected], weights_initializer=init,
                           weights_regularizer=tf.contrib.layers.l2_regularizer(1e-4)):
                hidden = tf.contrib.layers.fully_connected(x, 4)
                out = tf.contrib.layers.fully_connected(hidden, 1, activation_fn=None, scope="out")
            linear = tf.contrib.layers.fully_connected(x, 1, None, biases_initializer=None)
            loss = tf.reduce_mean(tf.square(out + linear))
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                _, value = sess.run([train_op, loss], {x: [[1.0, 2.0, 3.0]]})
        """
        after = """
            import compat
            import tensorflow as tf

            init = tf.keras.initializers.GlorotUniform(seed=1)

            class FullyConnected(tf.keras.layers.Dense):
                \"\"\"tf-slim's fully_connected: a Dense whose variables keep TF1's names (scope/weights, scope/biases).\"\"\"

                def add_weight(self, name=None, *args, **kwargs):
                    return super().add_weight({"kernel": "weights", "bias": "biases"}.get(name, name), *args, **kwargs)

            fully_connected = FullyConnected(units=4, activation=tf.nn.relu, kernel_initializer=init, kernel_regularizer=tf.keras.regularizers.l2(0.5 * 1e-4), name="fully_connected")
            out_layer = FullyConnected(units=1, activation=None, kernel_initializer=init, kernel_regularizer=tf.keras.regularizers.l2(0.5 * 1e-4), name="out")
            fully_connected_1 = FullyConnected(units=1, activation=None, use_bias=False, name="fully_connected_1")

            def model(x):
                hidden = fully_connected(x)
                out = out_layer(hidden)
                linear = fully_connected_1(x)
                loss = tf.reduce_mean(tf.square(out + linear))
                return {"loss": loss}

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

            @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
            def train_step(x):
                with tf.GradientTape() as tape:
                    outputs = model(x)
                variables = tape.watched_variables()
                optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                return outputs["loss"]

            value = train_step([[1.0, 2.0, 3.0]]).numpy()
        """
        self.assertCodemod(before, after, level="native")

    def test_slim_conv2d_and_flatten_become_keras_layers_keeping_tf1_s_variable_names(self):
        before = """
            import tensorflow as tf
            from tensorflow.contrib import slim

            x = tf.placeholder(tf.float32, [None, 8, 8, 1])
            with slim.arg_scope([slim.conv2d], weights_initializer=slim.xavier_initializer(seed=1), stride=2):
                net = slim.conv2d(x, 2, [3, 3], scope="conv1")
                net = slim.conv2d(net, 2, 3, rate=1, padding="VALID")
            logits = slim.fully_connected(slim.flatten(net), 1, activation_fn=None)
            loss = tf.reduce_mean(tf.square(logits))
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                _, value = sess.run([train_op, loss], {x: [[[[1.0]] * 8] * 8]})
        """
        after = """
            import compat
            import tensorflow as tf


            class Convolution2D(tf.keras.layers.Conv2D):
                \"\"\"tf-slim's conv2d: a Conv2D whose variables keep TF1's names (scope/weights, scope/biases).\"\"\"

                def add_weight(self, name=None, *args, **kwargs):
                    return super().add_weight({"kernel": "weights", "bias": "biases"}.get(name, name), *args, **kwargs)

            class FullyConnected(tf.keras.layers.Dense):
                \"\"\"tf-slim's fully_connected: a Dense whose variables keep TF1's names (scope/weights, scope/biases).\"\"\"

                def add_weight(self, name=None, *args, **kwargs):
                    return super().add_weight({"kernel": "weights", "bias": "biases"}.get(name, name), *args, **kwargs)

            conv1 = Convolution2D(filters=2, kernel_size=[3, 3], strides=2, padding="same", activation=tf.nn.relu, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=1), name="conv1")
            Conv = Convolution2D(filters=2, kernel_size=3, strides=2, dilation_rate=1, padding="valid", activation=tf.nn.relu, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=1), name="Conv")
            Flatten = tf.keras.layers.Flatten(name="Flatten")
            fully_connected = FullyConnected(units=1, activation=None, name="fully_connected")

            def model(x):
                net = conv1(x)
                net = Conv(net)
                logits = fully_connected(Flatten(net))
                loss = tf.reduce_mean(tf.square(logits))
                return {"loss": loss}

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

            @tf.function(input_signature=[tf.TensorSpec([None, 8, 8, 1], tf.float32)])
            def train_step(x):
                with tf.GradientTape() as tape:
                    outputs = model(x)
                variables = tape.watched_variables()
                optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                return outputs["loss"]

            value = train_step([[[[1.0]] * 8] * 8]).numpy()
        """
        self.assertCodemod(before, after, level="native")
        for conv, why in {
            "slim.conv2d(x, 2, 3, data_format='NCHW')": "conv2d(data_format=...) other than NHWC, the Keras layer's "
            "channels_last",
            "slim.conv2d(x, 2, 3, padding=FLAGS.padding)": "conv2d(padding=...) other than a literal SAME or VALID",
            "slim.conv2d(x, 2)": "conv2d without its inputs, num_outputs, kernel_size",
        }.items():
            source = before.replace('slim.conv2d(x, 2, [3, 3], scope="conv1")', conv)
            with self.subTest(conv=conv):
                self.assertEqual(self.refused(source), [PREFIX + why])

    def test_must_not_fire_on_slim_layers_arguments_a_keras_dense_has_no_equal_for(self):
        head = "import tensorflow as tf\nimport tf_slim as slim\nx = tf.placeholder(tf.float32, [None, 3])\n"
        cases = {
            "net = slim.fully_connected(x, 2, normalizer_fn=slim.batch_norm)": "fully_connected(normalizer_fn=...), "
            "which a Keras Dense has no equal for",
            "net = slim.fully_connected(x, 2, weights_initializer=slim.xavier_initializer(uniform=False))": (
                "xavier_initializer(uniform=...): its truncated normal is not Keras's GlorotNormal"
            ),
            "net = slim.fully_connected(x, 2, weights_regularizer=slim.l1_regularizer(0.1))": (
                "fully_connected(weights_regularizer=...), a regularizer the rule does not know"
            ),
            "with slim.arg_scope([slim.batch_norm, slim.fully_connected], weights_regularizer=None):\n"
            "    net = slim.fully_connected(x, 2)": (
                "arg_scope over functions besides fully_connected and conv2d, which the rule converts"
            ),
            "net = slim.fully_connected(x, 2, reuse=True, scope='a')": (
                "fully_connected(reuse=...), which a Keras Dense has no equal for"
            ),
            # (a Keras layer made with trainable=False keeps trainable variables, which the train step's tape watches)
            "net = slim.fully_connected(x, 2, trainable=False)": (
                "fully_connected(trainable=False): a Keras Dense made untrainable keeps trainable variables, which the "
                "train step's GradientTape would watch and train"
            ),
            "FullyConnected = None\nnet = slim.fully_connected(x, 2)": (
                "no free name for the class FullyConnected (the module uses it)"
            ),
            # (the regularizer's loss would be 0 in eager mode: Keras keeps it in the layer's losses)
            "net = slim.fully_connected(x, 2, weights_regularizer=slim.l2_regularizer(0.1))\n"
            "net += tf.losses.get_regularization_loss()": (
                "tf.losses.get_regularization_loss: a graph collection, which Keras layers do not fill"
            ),
        }
        for graph, why in cases.items():
            source = (
                f"{head}{graph}\nloss = tf.reduce_sum(net)\nop = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
                "with tf.Session() as sess:\n    sess.run(op, {x: [[1.0, 2.0, 3.0]]})\n"
            )
            with self.subTest(graph=graph):
                self.assertEqual(self.refused(source), [PREFIX + why])

    def test_must_not_fire_on_layers_of_a_placeholder_that_is_not_float32(self):
        # TF1's layers made their variables in their input's dtype; the Keras layers the rule makes once are float32
        # and would cast the input (helper-52's finding: the port of a float64 script crashed in its model)
        for dtype in ("tf.float64", "tf.double", '"float16"'):
            for layer in ("tf.layers.dense(x, 1)", "slim.fully_connected(x, 1)"):
                source = (
                    f"import tensorflow as tf\nimport tf_slim as slim\nx = tf.placeholder({dtype}, [None, 3])\n"
                    f"pred = {layer}\nloss = tf.reduce_mean(tf.square(pred))\n"
                    "op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
                    "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                    "    sess.run(op, {x: [[1.0, 2.0, 3.0]]})\n"
                )
                with self.subTest(dtype=dtype, layer=layer):
                    (message,) = self.refused(source)
                    assert "placeholder x is not float32" in message, message

    def test_v1_metrics_become_keras_metrics_updated_on_the_model_s_tensors(self):
        before = """
            import tensorflow as tf

            x = tf.placeholder(tf.float32, [None])
            y = tf.placeholder(tf.int64, [None])
            predictions = tf.cast(x > 0.5, tf.int64)
            accuracy, update = tf.metrics.accuracy(y, predictions)
            mean, update_mean = tf.metrics.mean(x)
            with tf.Session() as sess:
                sess.run(tf.local_variables_initializer())
                sess.run(update, {x: [0.2, 0.9], y: [0, 0]})
                sess.run(update_mean, feed_dict={x: [1.0, 2.0], y: [0, 1]})
                print(sess.run(accuracy), sess.run(mean))
        """
        after = """
            import compat
            import tensorflow as tf

            accuracy_metric = tf.keras.metrics.Accuracy()
            mean_metric = tf.keras.metrics.Mean()

            def model(x, y):
                predictions = tf.cast(x > 0.5, tf.int64)
                return {"y": y, "predictions": predictions, "x": x}

            evaluate = tf.function(model, input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.int64)])

            accuracy_metric.update_state(*[(outputs["y"], tf.cast(outputs["predictions"], outputs["y"].dtype)) for outputs in [evaluate([0.2, 0.9], [0, 0])]][0])
            mean_metric.update_state(*[outputs[name] for outputs in [evaluate([1.0, 2.0], [0, 1])] for name in ("x",)])
            print(accuracy_metric.result().numpy(), mean_metric.result().numpy())
        """
        self.assertCodemod(before, after, level="native")

    def test_must_not_fire_on_metrics_it_cannot_prove(self):
        head = (
            "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\nw = tf.Variable(1.0)\n"
            "loss = tf.reduce_sum(x * w)\nop = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
        )
        cases = {
            "acc, update = tf.metrics.accuracy(x, x, weights=x)": (
                "sess.run(update, {x: [1.0]})",
                "accuracy(weights=...), which the native equivalent does not take as is",
            ),
            "acc, update = tf.metrics.accuracy(labels=x)": (
                "sess.run(update, {x: [1.0]})",
                "accuracy() without its labels and predictions",
            ),
            "acc, update = tf.metrics.accuracy(x, x * 2.0)": (
                "sess.run(update, {x: [1.0]})",
                "accuracy() of something other than tensors the graph names",
            ),
            "pair = tf.metrics.mean(x)": (
                "sess.run(pair, {x: [1.0]})",
                "mean() whose value and update op are not unpacked into two names",
            ),
            "m, update = tf.metrics.mean(loss)": (
                "sess.run([m, update], {x: [1.0]})",
                "a sess.run of a metric's value or update op with other fetches",
            ),
            "m, update_m = tf.metrics.mean(loss)": (
                "value = sess.run(update_m, {x: [1.0]})",
                "the value of a metric's update op is used (a sess.run of it is not a statement)",
            ),
            "m, update_mean = tf.metrics.mean(loss)": (
                "sess.run(update_mean, {x: [1.0]})\n    sess.run(tf.local_variables_initializer())",
                "an initializer run after a metric's update (it resets the metric in TF1)",
            ),
            "m, update_each = tf.metrics.mean(loss)": (
                "for epoch in range(2):\n        sess.run(tf.local_variables_initializer())\n        sess.run(update_each, {x: [1.0]})",
                "an initializer run inside a loop (TF1 initialises again on each pass; eager variables keep their values)",
            ),
            "m, bump = tf.metrics.mean(loss)": (
                "sess.run([op, bump], {x: [1.0]})",
                "a training sess.run that also fetches variables, assign ops or metrics",
            ),
        }
        for graph, (run, why) in cases.items():
            source = f"{head}{graph}\nwith tf.Session() as sess:\n    {run}\n"
            with self.subTest(graph=graph):
                self.assertEqual(self.refused(source), [PREFIX + why])

    def test_must_not_fire_on_a_session_in_a_method_and_says_so(self):
        messages = self.refused("""
            import tensorflow as tf

            class Trainer:
                def run(self, op):
                    with tf.Session() as sess:
                        sess.run(op)
        """)
        self.assertEqual(messages, [PREFIX + "a Session inside a class: " + READS])
        messages = self.refused("""
            import tensorflow as tf

            def main(op):
                for _ in range(2):
                    with tf.Session() as sess:
                        sess.run(op)
        """)
        self.assertEqual(messages, [PREFIX + "a Session inside a for block: " + READS])
        self.assertEqual(
            self.refused("import tensorflow as tf\nprint(tf.Session().run(1))\n"),
            [PREFIX + "a Session inside an expression: " + READS],
        )

    def test_a_script_inside_with_graph_as_default_converts_as_one_written_without_it(self):
        before = """
            import tensorflow as tf

            def main(data):
                with tf.Graph().as_default():
                    x = tf.placeholder(tf.float32, [None, 2])
                    w = tf.Variable(tf.zeros([2, 1]))
                    loss = tf.reduce_sum(tf.matmul(x, w))
                    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
                    with tf.Session() as sess:
                        sess.run(tf.global_variables_initializer())
                        for _ in range(2):
                            _, value = sess.run([train_op, loss], {x: data})
                print(value)
        """
        after = """
            import compat
            import tensorflow as tf

            def main(data):
                w = tf.Variable(tf.zeros([2, 1]), name="Variable")

                def model(x):
                    loss = tf.reduce_sum(tf.matmul(x, w))
                    return {"loss": loss}

                optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

                @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
                def train_step(x):
                    with tf.GradientTape() as tape:
                        outputs = model(x)
                    variables = tape.watched_variables()
                    optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                    return outputs["loss"]

                for _ in range(2):
                    value = train_step(data).numpy()
                print(value)
        """
        self.assertCodemod(before, after, level="native")

    def test_must_not_fire_when_a_graph_block_s_names_are_read_after_it(self):
        graph = (
            "import tensorflow as tf\n{head}\n    x = tf.placeholder(tf.float32, [None])\n    y = x * 2.0\n"
            "    sess = tf.Session()\n    print(sess.run(y, {{x: [1.0]}}))\n{after}"
        )
        cases = {
            graph.format(head="with tf.Graph().as_default():", after="print(sess.run(y, {x: [2.0]}))\n"): (
                "`sess`, of the graph or its session, is read after its with block"
            ),
            graph.format(head="with tf.Graph().as_default() as g:", after=""): (
                "a Session inside `with tf.Graph().as_default():`: " + READS
            ),
        }
        for source, why in cases.items():
            with self.subTest(source=source):
                self.assertEqual(self.refused(source), [PREFIX + why])

    def test_must_not_fire_on_a_monitored_session_and_says_so(self):
        messages = self.refused("""
            import tensorflow as tf

            def main(_):
                v = tf.Variable(3.0)
                with tf.train.MonitoredSession(hooks=hooks) as sess:
                    print(sess.run(v * 2))
        """)
        # (one without arguments is a Session: tests/codemods/test_rule_native_monitored.py)
        why = (
            "tf.train.MonitoredSession(hooks=...): hooks run around each run; the rule converts one without arguments, "
            "or a MonitoredTrainingSession of a checkpoint_dir and a StopAtStepHook"
        )
        self.assertEqual(messages, [PREFIX + why])

    def test_must_not_fire_when_the_graph_reads_a_value_the_loop_changes(self):
        messages = self.refused("""
            import tensorflow as tf
            scale = 1.0
            x = tf.placeholder(tf.float32, [None])
            v = tf.Variable(1.0)
            loss = tf.reduce_sum(x * v) * scale
            op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                for scale in (1.0, 2.0):
                    sess.run(op, {x: [1.0]})
        """)
        self.assertEqual(messages, [PREFIX + "the graph reads `scale`, which changes after the graph is built"])

    def test_a_file_written_against_compat_v1_imports_tensorflow_once_its_script_converts(self):
        before = """
            \"\"\"A port to tensorflow.compat.v1.\"\"\"
            import tensorflow.compat.v1 as tf

            tf.disable_v2_behavior()

            x = tf.placeholder(tf.float32, [None, 2])
            w = tf.Variable(tf.ones([2, 1]))
            loss = tf.reduce_sum(tf.matmul(x, w))
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                _, value = sess.run([train_op, loss], {x: [[1.0, 2.0]]})
                print(value)
        """
        after = """
            \"\"\"A port to tensorflow.compat.v1.\"\"\"
            import compat
            import tensorflow as tf

            w = tf.Variable(tf.ones([2, 1]), name="Variable")

            def model(x):
                loss = tf.reduce_sum(tf.matmul(x, w))
                return {"loss": loss}

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

            @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
            def train_step(x):
                with tf.GradientTape() as tape:
                    outputs = model(x)
                variables = tape.watched_variables()
                optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                return outputs["loss"]

            value = train_step([[1.0, 2.0]]).numpy()
            print(value)
        """
        self.assertCodemod(before, after, level="native")
        said = [e.message for e in self.applied(before, level="native").entries]
        self.assertTrue(
            said[0].endswith("import tensorflow.compat.v1 as tf -> import tensorflow as tf, its switches deleted")
        )
        # what TF 2 would read otherwise: v1 shapes, tensor equality, a name that differs, a switch elsewhere
        run = "with tf.Session() as sess:\n    print(sess.run(y, {x: [1.0]}))\n"
        head = "import tensorflow.compat.v1 as tf\n\ntf.disable_v2_behavior()\nx = tf.placeholder(tf.float32, [None])\n"
        cases = {
            head
            + "y = x * x.shape[0].value\n"
            + run: "`.value` under disable_v2_behavior's v1 shapes (TF 2's shapes hold ints)",
            head + "y = tf.cast(x == x, tf.float32)\n" + run: (
                "`==` between tensors (v1 behaviour compared them as objects, TF 2 element-wise)"
            ),
            head + "y = tf.nn.dropout(x, 0.5)\n" + run: (
                "tf.nn.dropout: not the same in TF 2 (the file imports tensorflow.compat.v1)"
            ),
            head.replace("tf.disable_v2_behavior()\n", "def main():\n    tf.disable_v2_behavior()\n")
            + "y = x\n"
            + run: ("the file switches eager execution itself (not as a statement of its own at the top)"),
            "import tensorflow as tf2\n" + head + "y = x\n" + run: "the file switches eager execution itself",
            "from tensorflow.compat.v1 import layers\n"
            + head
            + "y = x\n"
            + run: "the file switches eager execution itself",
            head + "y = x\n" + run + "print(x.shape[0] is None)\n": (
                "a shape compared by `is` (v1 shapes give Dimension(None), TF 2's None)"
            ),
        }
        for code, why in cases.items():
            with self.subTest(code=code):
                self.assertEqual(self.refused(code), [PREFIX + why])

    def test_must_not_fire_on_an_op_built_after_the_session_starts(self):
        # TF1 added it to the graph (printed as a Tensor, computed by no sess.run); eager TF 2 would compute it
        messages = self.refused("""
            import tensorflow as tf
            x = tf.placeholder(tf.float32, [None])
            total = tf.reduce_sum(x)
            with tf.Session() as sess:
                print(sess.run(total, {x: [1.0]}), tf.reduce_sum([1.0, 2.0]))
        """)
        why = "tf.reduce_sum outside a sess.run: TF1 added an op to the graph there, eager TF 2 would compute it"
        self.assertEqual(messages, [PREFIX + why])
        # a function reading files builds none: the script converts
        restoring = """
            import tensorflow as tf
            v = tf.Variable(1.0)
            saver = tf.train.Saver()
            with tf.Session() as sess:
                saver.restore(sess, tf.train.latest_checkpoint("/tmp/run"))
                print(sess.run(v))
        """
        said = [e.message for e in self.applied(restoring, level="native").entries]
        self.assertTrue(said and not said[0].startswith(PREFIX), said)


SCRIPTS = [
    os.path.join(REPO, "tests", "corpus", name)
    for name in (
        "session_softmax.py",
        "layers_graph.py",
        "session_summaries.py",
        "session_saver.py",
        "slim_eval_session.py",
        "session_variable_scope.py",
        "compat_v1_style.py",
        "contrib_data_tf14.py",
    )
]
SCRIPTS.append(os.path.join(REPO, "samples", "tf1", "session_classifier.py"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=st.sampled_from(SCRIPTS), dropped=st.sets(st.integers(0, 40), max_size=3))
def test_never_half_converted_whatever_lines_a_script_lacks(script, dropped):
    """With lines left out, the native level gives either the code of its other rules (the safe level's, with
    native-io's renames) and says why, or a whole conversion: no session, placeholder or tf.compat.v1 left in it."""
    with open(script, encoding="utf-8") as handle:
        lines = handle.read().splitlines(keepends=True)
    source = "".join(line for number, line in enumerate(lines) if number not in dropped)
    try:
        ast.parse(source)
    except SyntaxError:
        assume(False)
    safe = apply(source, *select(level="native", ignore=(NativeSessionRule.ID,)), level="native")
    native = apply(source, *select(level="native"), level="native")
    said = [e.message for e in native.entries if e.rule == NativeSessionRule.ID]
    converted = [m for m in said if not m.startswith(PREFIX)]
    if not converted:
        assert native.module.code == safe.module.code
        return
    code = native.module.code
    ast.parse(code)
    assert references(code)[1] == 0 and "sess.run" not in code and ".placeholder(" not in code  # (no tf.compat.v1)


def test_a_script_whose_function_the_module_calls_on_import_runs_eagerly():
    """A Session script in a function the module calls at its top level (no main block): the safe pass switches
    eager execution off after the imports, which the converted code, eager, must not keep (a plain script, and
    tf-slim's learning.train)."""
    plain = (
        "import tensorflow as tf\n\n\ndef main(steps):\n"
        "    logits = tf.layers.dense(tf.ones([4, 3]), 2)\n"
        "    loss = tf.losses.sparse_softmax_cross_entropy([0, 1, 0, 1], logits)\n"
        "    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
        "    with tf.Session() as sess:\n        sess.run(tf.global_variables_initializer())\n"
        "        for _ in range(steps):\n            print(sess.run([train_op, loss])[1])\n\n\nmain(3)\n"
    )
    slim = (
        "import tensorflow as tf\nimport tf_slim as slim\n\n\ndef main(train_dir):\n"
        "    logits = slim.fully_connected(tf.ones([4, 3]), 2, activation_fn=None)\n"
        "    loss = tf.losses.sparse_softmax_cross_entropy([0, 1, 0, 1], logits)\n"
        "    train_op = slim.learning.create_train_op(loss, tf.train.AdamOptimizer(0.1))\n"
        "    slim.learning.train(train_op, train_dir, number_of_steps=2)\n\n\nmain('train')\n"
    )
    for source in (plain, slim):
        ported = apply(source, *select(level="native"), level="native")
        said = [e.message for e in ported.entries if e.rule == NativeSessionRule.ID]
        assert said and not said[0].startswith(PREFIX), said
        assert references(ported.module.code)[1] == 0, ported.module.code  # (no switch: no tf.compat.v1)
