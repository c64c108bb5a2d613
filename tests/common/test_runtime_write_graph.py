"""`tf.io.write_graph(..., as_text=True)` writes a text GraphDef that parses back to the graph, under compat, on
every TensorFlow with the protobuf pip gives it. The Estimator writes graph.pbtxt this way when training starts;
TF 2.20 asks protobuf to format floats with an argument protobuf 7 removed (compat/_protobuf_text.py)."""

from tests.support.processes import result_json, run_script

PROGRAM = """
    import compat  # noqa: F401
    import json, sys
    import tensorflow as tf
    from google.protobuf import text_format

    with tf.Graph().as_default() as graph:
        # float32 values whose shortest text differs from their float64 one, in a tensor and in an attribute
        values = tf.constant([0.1, 1e-7, 3.4028235e38], name="values")
        tf.nn.leaky_relu(values, alpha=0.3, name="leaky")
    path = tf.io.write_graph(graph, sys.argv[1], "graph.pbtxt", as_text=True)
    with open(path) as handle:
        parsed = text_format.Parse(handle.read(), tf.compat.v1.GraphDef())
    print("RESULT", json.dumps({"same": parsed == graph.as_graph_def(), "nodes": [node.name for node in parsed.node]}))
"""


def test_a_text_graph_is_written_and_parses_back_to_the_same_graph(tmp_path):
    result = run_script(tmp_path, PROGRAM, [str(tmp_path / "out")])
    assert result.returncode == 0, result.stderr[-3000:]
    assert result_json(result.stdout) == {"same": True, "nodes": ["values", "leaky"]}
