"""TF 1.x graph helpers whose only home was private TensorFlow, on public TensorFlow.

`with_dependencies` is `tensorflow.python.ops.control_flow_ops.with_dependencies`, which TF1-era
programs imported (research/slim's train_image_classifier builds its train op with it). TF 2.15 and
2.21 still ship the private function, so uai-run's programs keep calling it; uai-migrate rewrites
the call to this one (codemods/rules/private.py), which builds the same ops through public names.
"""

from collections.abc import Iterable
from typing import Any


def with_dependencies(dependencies: Iterable[Any], output_tensor: Any, name: str | None = None) -> Any:
    """`output_tensor`, produced only after every op of `dependencies` has run.

    In a graph: an identity of it (of its values for an IndexedSlices), colocated with it, under
    control dependencies on `dependencies`, in the name scope `name` (default "control_dependency").
    Eagerly, the ops have already run: `output_tensor` itself.
    """
    import tensorflow as tf

    v1 = tf.compat.v1
    if tf.executing_eagerly():
        return output_tensor
    dependencies = list(dependencies)
    with v1.name_scope(name, "control_dependency", [*dependencies, output_tensor]) as scope:
        with v1.colocate_with(output_tensor):
            with v1.control_dependencies(dependencies):
                output_tensor = v1.convert_to_tensor_or_indexed_slices(output_tensor)
                if isinstance(output_tensor, tf.IndexedSlices):
                    values = tf.identity(output_tensor.values, name=scope)
                    return tf.IndexedSlices(values, output_tensor.indices, output_tensor.dense_shape)
                return tf.identity(output_tensor, name=scope)
