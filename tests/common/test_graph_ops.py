"""compat.graph_ops.with_dependencies builds what TF 1.x's private control_flow_ops.with_dependencies built."""

import pytest


def _build(with_dependencies, values):
    """(graph, result, the counter's variable) of `with_dependencies([increment], values, name="after")`."""
    import tensorflow as tf

    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        counter = v1.get_variable("counter", initializer=0, use_resource=True)
        increment = v1.assign_add(counter, 1)
        result = with_dependencies([increment], values(), name="after")
    return graph, result, counter


@pytest.mark.parametrize("kind", ["tensor", "indexed_slices"])
def test_the_same_ops_and_values_as_the_private_function(kind):
    import tensorflow as tf
    from tensorflow.python.ops import control_flow_ops

    import compat.graph_ops

    def values():
        dense = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        if kind == "tensor":
            return dense
        return tf.IndexedSlices(dense, tf.constant([0, 2]), tf.constant([3, 2]))

    built = {}
    for way, function in (
        ("private", control_flow_ops.with_dependencies),
        ("compat", compat.graph_ops.with_dependencies),
    ):
        graph, result, counter = _build(function, values)
        with tf.compat.v1.Session(graph=graph) as session:
            session.run(counter.initializer)
            value = session.run(result)
            ran = session.run(counter)  # the dependency ran once, with the result
        nodes = [(op.type, op.name, [c.decode() for c in op.colocation_groups()]) for op in graph.get_operations()]
        built[way] = (type(result).__name__, nodes, str(value), ran)
    assert built["compat"] == built["private"]
    assert built["compat"][3] == 1


def test_eager_returns_the_value_itself():
    import tensorflow as tf

    import compat.graph_ops

    value = tf.constant(3.0)
    assert compat.graph_ops.with_dependencies([], value) is value
