"""native-session: the dtype of a tf.data element read by the layers it makes once.

TF1's layers (tf.layers, tf-slim's) made their variables in their input's dtype: from_tensor_slices of numpy arrays
(float64, numpy's default) trained a float64 model. The Keras layers native-session makes once, before any input,
are float32: where the rule cannot prove an element a layer reads float32, the script stays at the safe level. So too
for a graph's constant a layer reads (`tf.constant(np.random.rand(...))` is float64), in a Session script and under
tf-slim's learning.train.
"""

import libcst as cst

from bench import native
from codemods.rules.native_session import NativeSessionRule
from tests.support.native_ports import migrated
from tests.support.rule_test import RuleTest

PREFIX = "Session script left at the safe level: "
GRAPH = """
x, y = dataset.make_one_shot_iterator().get_next()
pred = {layer}
loss = tf.reduce_mean(tf.square(pred - y))
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        _, value = sess.run([train_op, loss])
        print("step", step, value, np.asarray(value).dtype)
"""
ITERATOR = "x, y = dataset.make_one_shot_iterator().get_next()\n"
HEAD = "import numpy as np\nimport tensorflow as tf\nimport tf_slim as slim\nrng = np.random.RandomState(0)\n"
LAYERS = {
    "dense": "tf.layers.dense(tf.layers.dense(x, 4, activation=tf.nn.tanh), 1)",
    "conv2d": "tf.layers.dense(tf.layers.flatten(tf.layers.conv2d(tf.reshape(x, [-1, 1, 1, 3]), 2, 1)), 1)",
    "fully_connected": "slim.fully_connected(x, 1, activation_fn=None)",
    "slim.conv2d": "slim.fully_connected(slim.flatten(slim.conv2d(tf.reshape(x, [-1, 1, 1, 3]), 2, [1, 1])), 1)",
}
# an element a layer reads whose dtype is float64, or not proven float32
FLOAT64 = {
    "numpy's default": "dataset = tf.data.Dataset.from_tensor_slices((rng.rand(8, 3), rng.rand(8, 1))).batch(4)\n",
    "numpy arrays bound to names": (
        "features, targets = rng.rand(8, 3), rng.rand(8, 1)\n"
        "dataset = tf.data.Dataset.from_tensor_slices((features, targets))\ndataset = dataset.batch(4)\n"
    ),
    "astype(float)": (
        "dataset = tf.data.Dataset.from_tensor_slices((rng.rand(8, 3).astype(float), rng.rand(8, 1))).batch(4)\n"
    ),
    "a generator's output_types": (
        "rows = [(rng.rand(3), rng.rand(1)) for _ in range(8)]\n"
        "dataset = tf.data.Dataset.from_generator(lambda: rows, (tf.float64, tf.float64), ([3], [1])).batch(4)\n"
    ),
    "a cast to float64 in a map": (
        "features = rng.rand(8, 3).astype(np.float32)\n"
        "dataset = tf.data.Dataset.from_tensor_slices((features, features[:, :1])).map("
        "lambda a, b: (tf.cast(a, tf.float64), tf.cast(b, tf.float64))).batch(4)\n"
    ),
    "a TFRecord's float64 feature": (
        "def parse(record):\n"
        "    parsed = tf.parse_single_example(record, {'x': tf.FixedLenFeature([3], tf.float64), "
        "'y': tf.FixedLenFeature([1], tf.float32)})\n"
        "    return parsed['x'], parsed['y']\n"
        "dataset = tf.data.TFRecordDataset(['data.tfrecord']).map(parse).batch(4)\n"
    ),
    "an input function's numpy arrays": (
        "def input_fn():\n"
        "    dataset = tf.data.Dataset.from_tensor_slices((rng.rand(8, 3), rng.rand(8, 1))).batch(4)\n"
        "    return dataset.make_one_shot_iterator().get_next()\n"
    ),
}
# an element proven float32 (a layer reads x; an unproven y is read by no layer)
FLOAT32 = {
    "astype(np.float32)": (
        "features = rng.rand(8, 3).astype(np.float32)\n"
        "dataset = tf.data.Dataset.from_tensor_slices((features, rng.rand(8, 1).astype('float32'))).batch(4)\n"
    ),
    "a cast in a map": (
        "dataset = tf.data.Dataset.from_tensor_slices((rng.rand(8, 3), rng.rand(8, 1)))\n"
        "dataset = dataset.map(lambda a, b: (tf.cast(a, tf.float32), tf.cast(b, tf.float32))).batch(4).repeat()\n"
    ),
    "a tf.constant of Python floats": (
        "dataset = tf.data.Dataset.from_tensor_slices((tf.constant([[0.5, 1.0, 2.0]] * 8), "
        "tf.constant([[1.0]] * 8))).batch(4)\n"
    ),
    "a generator's output_types": (
        "rows = [(rng.rand(3), rng.rand(1)) for _ in range(8)]\n"
        "dataset = tf.data.Dataset.from_generator(lambda: rows, output_types=(tf.float32, tf.float32), "
        "output_shapes=([3], [1])).batch(4)\n"
    ),
    "a TFRecord's float32 features": (
        "def parse(record):\n"
        "    parsed = tf.parse_single_example(record, {'x': tf.FixedLenFeature([3], tf.float32), "
        "'y': tf.FixedLenFeature([1], tf.float32)})\n"
        "    return tf.reshape(parsed['x'], [3]), parsed['y']\n"
        "dataset = tf.data.TFRecordDataset(['data.tfrecord']).map(parse).batch(4)\n"
    ),
    "only the labels unproven": (
        "labels = np.load('labels.npy')\n"
        "dataset = tf.data.Dataset.from_tensor_slices((rng.rand(8, 3).astype(np.float32), labels)).batch(4)\n"
    ),
}


def script(pipeline: str, layer: str) -> str:
    graph = GRAPH.format(layer=LAYERS[layer])
    if "def input_fn" in pipeline:
        graph = graph.replace("dataset.make_one_shot_iterator().get_next()", "input_fn()")
    return HEAD + pipeline + graph


class TestPipelineDtypes(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_must_not_fire_on_layers_of_an_element_not_proven_float32(self):
        for case, pipeline in FLOAT64.items():
            for layer in LAYERS:
                with self.subTest(case=case, layer=layer):
                    (message,) = self.refused(script(pipeline, layer))
                    assert "input pipeline's element `x`" in message, message
                    assert "float32" in message, message

    def test_layers_of_an_element_proven_float32_convert(self):
        for case, pipeline in FLOAT32.items():
            for layer in LAYERS:
                with self.subTest(case=case, layer=layer):
                    entries = self.applied(script(pipeline, layer), level="native").entries
                    messages = [e.message for e in entries if e.rule == NativeSessionRule.ID]
                    assert len(messages) == 1 and messages[0].startswith("Session training script"), messages
                    # (a pipeline built over two statements stays one: `dataset = dataset.map(...)` is not model()'s)
                    model = self.applied(script(pipeline, layer), level="native").module.code.split("def model")[1]
                    assert "dataset" not in model.split("return")[0], model


def test_a_mapped_cast_to_float32_trains_like_the_safe_port(tmp_path):
    # numpy's float64 arrays cast to float32 by the pipeline: the native port's float32 layers start from the safe
    # port's step-0 checkpoint, all of it loaded, and train on the same batches to the same float32 losses
    found = migrated(tmp_path, "cast.py", script(FLOAT32["a cast in a map"], "dense"))
    assert native.converted(found["native"][1]), found["native"][1]
    folder = tmp_path / "runs"
    folder.mkdir()
    row = native.equivalence("cast.py", found["safe"][0], found["native"][0], [], str(folder))
    assert row["equal"] and row["steps"] == 3 and row["loaded"] == "4/4", row
    dtypes = [{line.split()[-1] for line in out.splitlines() if line.startswith("step")} for out in row["stdout"]]
    assert dtypes == [{"float32"}, {"float32"}], dtypes


class TestVariableDtypes(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_must_not_fire_on_a_variable_whose_dtype_is_read_off_the_graph(self):
        # the variables are made once, before the graph's tensors: `x.dtype` there is a NameError (the probe's port of
        # get_variable(..., dtype=x.dtype) over a pipeline's element crashed so)
        made = {
            "get_variable": "tf.get_variable('w', [3, 1], dtype=x.dtype, initializer=tf.zeros_initializer())",
            "Variable": "tf.Variable(tf.zeros([3, 1]), dtype=x.dtype)",
        }
        for inputs in ("x = tf.placeholder(tf.float32, [None, 3])\n", FLOAT32["astype(np.float32)"] + ITERATOR):
            for kind, variable in made.items():
                source = (
                    f"{HEAD}{inputs}w = {variable}\nloss = tf.reduce_sum(tf.matmul(x, w))\n"
                    "train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
                    "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                    "    print(sess.run([train_op, loss]"
                    + (", {x: [[1.0, 2.0, 3.0]]})" if "placeholder" in inputs else ")")
                    + "[1])\n"
                )
                with self.subTest(kind=kind, inputs=inputs[:20]):
                    (message,) = self.refused(source)
                    assert "dtype is read off the graph's tensors" in message, message


class TestGraphDtypes(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_must_not_fire_on_layers_in_a_graph_that_computes_in_another_float(self):
        # a float32 input cast to float64 in the graph: TF1's layer of it made float64 variables
        for inputs in ("x = tf.placeholder(tf.float32, [None, 3])\n", FLOAT32["astype(np.float32)"] + ITERATOR):
            for cast in ("tf.cast(x, tf.float64)", "tf.cast(x, 'float64')", "tf.cast(x, dtype=np.double)"):
                for layer in ("tf.layers.dense({}, 1)", "slim.fully_connected({}, 1)"):
                    feed = ", {x: [[1.0, 2.0, 3.0]]}" if "placeholder" in inputs else ""
                    source = (
                        f"{HEAD}{inputs}h = {cast}\npred = {layer.format('h')}\nloss = tf.reduce_sum(pred)\n"
                        "train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
                        "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                        f"    print(sess.run([train_op, loss]{feed})[1])\n"
                    )
                    with self.subTest(inputs=inputs[:20], cast=cast, layer=layer):
                        (message,) = self.refused(source)
                        assert "a graph that computes in float64" in message, message


# a graph tensor of a constant: numpy's arrays are float64 (TF1's layer of one made float64 variables), Python floats
# float32
CONSTANTS_FLOAT64 = {
    "np.random.rand": "tf.constant(np.random.rand(8, 3))",
    "RandomState(0).rand": "tf.constant(np.random.RandomState(0).rand(8, 3))",
    "np.ones": "tf.convert_to_tensor(np.ones((8, 3)))",
    "np.zeros": "tf.constant(np.zeros([8, 3]))",
    "a name bound to numpy's array": "tf.constant(data)",
    "numpy's array itself": "data",
}
CONSTANTS_FLOAT32 = {
    "a list of floats": "tf.constant([[0.5, 1.0, 2.0]] * 8)",
    "astype(np.float32)": "tf.constant(np.random.RandomState(0).rand(8, 3).astype(np.float32))",
    "np.ones of float32": "tf.convert_to_tensor(np.ones((8, 3), dtype=np.float32))",
    "a float32 dtype": "tf.constant(np.zeros([8, 3]), dtype=tf.float32)",
    "a bool constant beside": "tf.constant([[0.5, 1.0, 2.0]] * 8) * tf.cast(tf.constant(True), tf.float32)",
    "astype('float32') of a name": "tf.constant(data.astype('float32'))",
    "a name bound to a float32 array": "tf.convert_to_tensor(data32)",
    "a float32 array itself": "data32",
}
SESSION = """
data = rng.rand(8, 3)
data32 = data.astype(np.float32)
x = {constant}
pred = {layer}
loss = tf.reduce_mean(tf.square(pred - 1.0))
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        print(sess.run([train_op, loss])[1])
"""
LEARNING = """
def main(train_dir):
    with tf.Graph().as_default():
        data = rng.rand(8, 3)
        data32 = data.astype(np.float32)
        x = {constant}
        tf.losses.mean_squared_error(tf.ones([8, 1]), {layer})
        total = tf.losses.get_total_loss()
        train_op = slim.learning.create_train_op(total, tf.train.AdamOptimizer(0.01))
        final = slim.learning.train(train_op, train_dir, number_of_steps=3)
        print("final loss", final)
"""


class TestConstantDtypes(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_must_not_fire_on_layers_of_a_numpy_constant(self):
        for case, constant in CONSTANTS_FLOAT64.items():
            for layer in LAYERS:
                for loop in (SESSION, LEARNING):
                    with self.subTest(case=case, layer=layer, learning=loop is LEARNING):
                        (message,) = self.refused(HEAD + loop.format(constant=constant, layer=LAYERS[layer]))
                        assert f"reads {'`x`, a host value' if constant == 'data' else 'a constant, `tf.'}" in message
                        assert "whose dtype the rule cannot prove float32 (numpy's arrays" in message, message

    def test_layers_of_a_float32_constant_convert(self):
        for case, constant in CONSTANTS_FLOAT32.items():
            for layer in LAYERS:
                for loop in (SESSION, LEARNING):
                    with self.subTest(case=case, layer=layer, learning=loop is LEARNING):
                        source = HEAD + loop.format(constant=constant, layer=LAYERS[layer])
                        entries = self.applied(source, level="native").entries
                        messages = [e.message for e in entries if e.rule == NativeSessionRule.ID]
                        assert len(messages) == 1 and "left at the safe level" not in messages[0], messages

    def test_a_layer_of_a_host_array_is_called_by_the_train_step(self):
        # pred = slim.fully_connected(x, 1) over a host x: before 58ca926 a host statement, run once outside model(),
        # and the port trained nothing (the loss of step 1 at every step)
        for layer in LAYERS:
            with self.subTest(layer=layer):
                module = self.applied(
                    HEAD + SESSION.format(constant="data32", layer=LAYERS[layer]), level="native"
                ).module
                [model] = [s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == "model"]
                assert "pred = " in module.code_for_node(model), module.code
