"""native-session on a Session script with a lookup table, TF1's RNN cells under dynamic_rnn and a static shape
read into a Python value (codemods/rules/_native_lookup.py, _native_rnn.py, _native_shapes.py): the before/after
fixtures, and the scripts it must leave at the safe level, each with its reason. The rule runs alone here (the
safe rules' rewrites are not applied). The cell against TF 1.15's and the trained losses: test_native_rnn.py.
"""

import textwrap

from codemods.rules.native_session import NativeSessionRule
from tests.support.rule_test import RuleTest

# a script of the shape, its parts replaced one at a time by the must-not-fire cases below
SCRIPT = textwrap.dedent(
    """
    import numpy as np
    import tensorflow as tf

    table = tf.contrib.lookup.HashTable(tf.contrib.lookup.KeyValueTensorInitializer(["a", "b"], [0, 1]), -1)
    words = tf.placeholder(tf.string, [None, 4])
    embeddings = tf.get_variable("embeddings", [2, 3])
    inputs = tf.nn.embedding_lookup(embeddings, table.lookup(words))
    steps = inputs.get_shape()[1].value
    cell = tf.nn.rnn_cell.BasicLSTMCell(5)
    outputs, _ = tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32)
    loss = tf.reduce_mean(outputs[:, steps - 1])
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
        _, value = sess.run([train_op, loss], {words: [["a", "b", "a", "b"]]})
"""
)


class TestNativeSessionRecurrent(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_a_lookup_table_an_lstm_under_dynamic_rnn_and_a_static_shape_read(self):
        before = """
            import numpy as np
            import tensorflow as tf

            table = tf.contrib.lookup.HashTable(tf.contrib.lookup.KeyValueTensorInitializer(tf.constant(["a", "b"]), tf.constant([0, 1], tf.int64)), 0)
            words = tf.placeholder(tf.string, [None, 4])
            labels = tf.placeholder(tf.int64, [None])
            embeddings = tf.get_variable("embeddings", [2, 3])
            ids = table.lookup(words)
            inputs = tf.nn.embedding_lookup(embeddings, ids)
            steps = inputs.get_shape()[1].value
            cell = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicLSTMCell(5, forget_bias=0.5), output_keep_prob=1.0)
            outputs, state = tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32)
            logits = tf.layers.dense(outputs[:, steps - 1], 2)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
                for _ in range(2):
                    _, value = sess.run([train_op, loss], {words: np.array([["a", "b", "a", "c"]]), labels: [1]})
        """
        after = '''
            import compat
            import numpy as np
            import tensorflow as tf

            table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(tf.constant(["a", "b"]), tf.constant([0, 1], tf.int64)), 0)
            embeddings = tf.Variable(tf.keras.initializers.GlorotUniform()([2, 3]), name="embeddings")
            steps = 4  # inputs.get_shape()[1].value: the static shape TF1 read

            class BasicLSTMCell(tf.keras.layers.Layer):
                """TF1's BasicLSTMCell: one kernel [input depth + units, 4 * units] and a bias, gates i, j, f, o, forget_bias
                added to f, so that a TF1 checkpoint loads into it by name and it computes what TF1 computed."""

                def __init__(self, units, forget_bias=1.0, **kwargs):
                    super().__init__(**kwargs)
                    self.units, self.forget_bias = units, forget_bias
                    self.state_size = [units, units]  # (c, h), as TF1's LSTMStateTuple
                    self.output_size = units

                def build(self, input_shape):
                    depth = input_shape[-1] + self.units
                    self.kernel = self.add_weight("kernel", [depth, 4 * self.units], initializer="glorot_uniform")
                    self.bias = self.add_weight("bias", [4 * self.units], initializer="zeros")

                def call(self, inputs, states):
                    c, h = states
                    gates = tf.nn.bias_add(tf.matmul(tf.concat([inputs, h], 1), self.kernel), self.bias)
                    i, j, f, o = tf.split(gates, 4, axis=1)
                    new_c = c * tf.sigmoid(f + self.forget_bias) + tf.sigmoid(i) * tf.tanh(j)
                    new_h = tf.tanh(new_c) * tf.sigmoid(o)
                    return new_h, [new_c, new_h]

            dense = tf.keras.layers.Dense(units=2, name="dense")
            rnn = tf.keras.layers.RNN(BasicLSTMCell(5, forget_bias=0.5, name="basic_lstm_cell"), return_sequences=True, name="rnn")

            def model(words, labels):
                ids = table.lookup(words)
                inputs = tf.nn.embedding_lookup(embeddings, ids)
                outputs = rnn(inputs)
                logits = dense(outputs[:, steps - 1])
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
                return {"loss": loss}

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

            @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.string), tf.TensorSpec([None], tf.int64)])
            def train_step(words, labels):
                with tf.GradientTape() as tape:
                    outputs = model(words, labels)
                variables = tape.watched_variables()
                optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                return outputs["loss"]

            for _ in range(2):
                value = train_step(np.array([["a", "b", "a", "c"]]), [1]).numpy()
        '''
        self.assertCodemod(before, after, level="native")
        (said,) = [e.message for e in self.applied(before, level="native").entries]
        assert "lookup table table -> tf.lookup.StaticHashTable made once" in said, said
        assert "(rnn/basic_lstm_cell/kernel, bias)" in said and "(steps = 4)" in said, said

    def test_multi_rnn_cells_keep_tf1_s_scopes_the_corpus_shape_and_a_stack(self):
        contrib = "tf.contrib.rnn.BasicLSTMCell(5)"
        stacks = {
            f"[tf.contrib.rnn.DropoutWrapper({contrib}, output_keep_prob=1.0)]": [5],  # (the corpus' shape)
            "[tf.nn.rnn_cell.BasicLSTMCell(5) for _ in range(2)]": [5, 5],
            "[tf.nn.rnn_cell.BasicLSTMCell(5), tf.nn.rnn_cell.BasicLSTMCell(2, forget_bias=0.0)]": [
                5,
                "2, forget_bias=0.0",
            ],
        }
        for cells, arguments in stacks.items():
            source = SCRIPT.replace("tf.nn.rnn_cell.BasicLSTMCell(5)", f"tf.contrib.rnn.MultiRNNCell({cells})")
            applied = self.applied(source, level="native")
            (said,) = [e.message for e in applied.entries]
            scopes = [f"rnn/multi_rnn_cell/cell_{i}/basic_lstm_cell/kernel, bias" for i in range(len(arguments))]
            assert f"({', '.join(scopes)})" in said, said
            written = ", ".join(f'BasicLSTMCell({a}, name="cell_{i}/basic_lstm_cell")' for i, a in enumerate(arguments))
            expected = f'RNN(tf.keras.layers.StackedRNNCells([{written}], name="multi_rnn_cell"), return_sequences=True'
            assert expected in applied.module.code, applied.module.code

    def test_must_not_fire_on_cells_tables_and_shapes_it_cannot_prove(self):
        lstm = "tf.nn.rnn_cell.BasicLSTMCell(5)"
        cases = [
            (
                [("outputs, _ =", "outputs, state ="), ("[:, steps - 1])", "[:, steps - 1]) + tf.reduce_sum(state.c)")],
                "the RNN's final state `state` is read",
            ),
            (
                [(lstm, f"tf.nn.rnn_cell.DropoutWrapper({lstm}, output_keep_prob=0.5)")],
                "a DropoutWrapper whose output_keep_prob is not the literal 1",
            ),
            ([(lstm, "tf.nn.rnn_cell.LSTMCell(5)")], "not a cell the rule reads"),
            (
                [(lstm, f"tf.nn.rnn_cell.MultiRNNCell([{lstm}, tf.nn.rnn_cell.GRUCell(5)])")],
                "a MultiRNNCell of cells other than TF1's BasicLSTMCell",
            ),
            (
                [(lstm, "tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(n) for n in (4, 5)])")],
                "a MultiRNNCell of other than a list of cells or [<cell> for _ in range(<integer>)]",
            ),
            ([(lstm, "tf.nn.rnn_cell.BasicLSTMCell(5, activation=tf.nn.relu)")], "BasicLSTMCell(activation=...)"),
            (
                [("dtype=tf.float32)", "dtype=tf.float32, sequence_length=[2])")],
                "a dynamic_rnn with other arguments than its cell, inputs and dtype=tf.float32",
            ),
            ([(f"cell = {lstm}", f"cell = {lstm}\nprint(cell)")], "the cell `cell` is used besides by one dynamic_rnn"),
            ([("get_shape()[1]", "get_shape()[0]")], "a dimension TF1 knew only when run"),
            (
                [("steps = inputs.get_shape()", "doubled = inputs * 2\nsteps = doubled.get_shape()")],
                "a static shape of `doubled`, which the rule does not prove from the op making it",
            ),
            (  # (TF1 read the shape of the variable bound last: the rule does not follow which binding is read)
                [
                    (
                        'embeddings = tf.get_variable("embeddings", [2, 3])',
                        'embeddings = tf.get_variable("unused", [2, 7])\nembeddings = tf.get_variable("embeddings", [2, 3])',
                    ),
                    ("steps = inputs.get_shape()[1].value", "steps = inputs.get_shape()[2].value"),
                ],
                "a static shape read through `embeddings`, bound more than once",
            ),
            ([("-1)", "-1)\nprint(table.size())")], "the lookup table `table` is used besides by its lookup() calls"),
            (
                [
                    (
                        "embeddings = ",
                        "other = tf.contrib.lookup.HashTable(tf.contrib.lookup.KeyValueTensorInitializer(words, [0, 1]), -1)\nembeddings = ",
                    )
                ],
                "a lookup table of the graph's tensors (`words`)",
            ),
        ]
        for replacements, why in cases:
            source = SCRIPT
            for old, new in replacements:
                assert old in source, old
                source = source.replace(old, new)
            messages = self.refused(source)
            assert len(messages) == 1 and why in messages[0], (why, messages)  # (the reason: RuleTest.refused)
