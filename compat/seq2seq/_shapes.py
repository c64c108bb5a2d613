"""Shape helpers the decoders and the attention wrapper share: zero states of a cell's sizes, and the swap
of batch and time axes."""

from typing import Any

import tensorflow as tf


def swap_batch_time(tensor: Any) -> Any:
    """[batch, time, ...] <-> [time, batch, ...]; a tensor of rank below 2 (a sample id's scalar per step
    is rank 1 once stacked) stays as it is, as TF 1.15's decoders left it."""
    tensor = tf.convert_to_tensor(tensor)
    rank = tensor.shape.rank
    if rank is not None and rank < 2:
        return tensor
    if rank is None:
        perm = tf.concat([[1, 0], tf.range(2, tf.rank(tensor))], 0)
        return tf.transpose(tensor, perm)
    swapped = tf.transpose(tensor, [1, 0, *range(2, rank)])
    swapped.set_shape([tensor.shape[1], tensor.shape[0], *tensor.shape[2:]])
    return swapped


def static_batch(batch_size: Any) -> int | None:
    """The batch size as a Python int when the graph knows it, else None."""
    value = tf.get_static_value(batch_size)
    return None if value is None else int(value)


def zeros_of(size: Any, batch_size: Any, dtype: Any) -> Any:
    """Zeros of shape [batch_size, *size] for each size of a (nested) cell size: an int, a TensorShape, or a
    tensor (an attention's memory length, known only when the graph runs)."""

    def zeros(one: Any) -> Any:
        if tf.is_tensor(one):
            dims = tf.reshape(one, [-1])
            known = tf.get_static_value(dims)
            static = tf.TensorShape([None] * dims.shape[0] if known is None else known.tolist())
        else:
            static = tf.TensorShape(one)
            dims = static.as_list()
        shape = tf.concat([tf.reshape(batch_size, [1]), tf.cast(dims, tf.int32)], 0)
        out = tf.zeros(shape, dtype=dtype)
        out.set_shape(tf.TensorShape([static_batch(batch_size)]).concatenate(static))
        return out

    return tf.nest.map_structure(zeros, size)
