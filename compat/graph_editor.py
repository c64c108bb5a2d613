"""`tf.contrib.graph_editor`'s graph walk, the part TF1-era trainers call: `get_backward_walk_ops`.

tensorpack's session creator (0.9.x, TF 1 branch) walks back from each initializer op to warn about
the blocking ops it depends on. The rest of the graph editor (selecting, rerouting, copying subgraphs)
has no TF 2 home and is not provided: under uai-run, reading it stops the program in one line.
"""

from collections.abc import Callable, Iterable
from typing import Any

import tensorflow as tf


def _as_list(values: Any) -> list:
    if isinstance(values, tf.Operation | tf.Tensor):
        return [values]
    return list(values or ())


def get_backward_walk_ops(
    seed_ops: Any,
    inclusive: bool = True,
    within_ops: Iterable[tf.Operation] | None = None,
    within_ops_fn: Callable[[tf.Operation], bool] | None = None,
    stop_at_ts: Any = (),
    control_inputs: bool = False,
) -> list[tf.Operation]:
    """The ops `seed_ops` depend on, walking back through their input tensors (and their control inputs
    with `control_inputs=True`), wave by wave: the seeds first (unless `inclusive=False`), then their
    producers, and so on. Seeds given as tensors stand for the ops producing them. The walk never crosses
    a tensor of `stop_at_ts`, and keeps to `within_ops` / the ops `within_ops_fn` accepts."""
    seeds = [item.op if isinstance(item, tf.Tensor) else item for item in _as_list(seed_ops)]
    within = None if within_ops is None else set(within_ops)
    stops = set(_as_list(stop_at_ts))

    def allowed(op: tf.Operation) -> bool:
        return (within is None or op in within) and (within_ops_fn is None or within_ops_fn(op))

    seeds = [op for op in seeds if within is None or op in within]
    walked = list(dict.fromkeys(seeds))
    seen = set(walked)
    wave = walked
    while wave:
        following = []
        for op in wave:
            producers = [tensor.op for tensor in op.inputs if tensor not in stops]
            if control_inputs:
                producers += op.control_inputs
            for producer in producers:
                if producer not in seen and allowed(producer):
                    seen.add(producer)
                    following.append(producer)
        walked += following
        wave = following
    return walked if inclusive else [op for op in walked if op not in seeds]
