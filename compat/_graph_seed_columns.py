"""TF 1.x's op seeds through tf.feature_column: the ops TF 1.15's columns built that TF 2's do not.

compat/_graph_seed.py gives a random op the graph's op count as its op seed, TF 1.15's, which is only TF 1.15's
number if the graph holds as many ops as 1.15's did. Measured op by op on the graphs of
tests/common/tf1_programs/feature_column_op_seeds.py (real TF 1.15 against TF 2.15 and 2.21 under uai-run), in
graph mode:

Built (TF 1.15's ops, which also check something):
  - an identity column without a default value (`categorical_column_with_identity("id", 4)`, under
    `embedding_column`, `indicator_column` or `linear_model`): TF 1.15 asserted that each id lay in
    [0, num_buckets), so an id out of range stopped the run with "Bucket index for categorical column ... exceeds
    number of buckets" (38 ops: the bound and 0 cast to int64, two asserts in v1 conds, an identity); TF 2 checks
    nothing. An embedding column of it started from other weights, and every draw after it was another.
  - `linear_model`'s weights and bias: TF 1.15 made them resource variables (4 ops each, and a read of the bias)
    where uai-run's TF1 face gives the layers of tf.layers ref variables (3 ops).
Counted (`_graph_seed_ops.count_tf1_ops`: the same values through other ops):
  - `embedding_lookup_sparse` without weights (every embedding column's lookup) over one partition: TF 1.15 cast
    the segment ids, took the ids' unique values, gathered those rows and reduced them by the unique ids' indices
    (5 ops before the segment reduction); TF 2 reduces the rows of the ids themselves (`SparseSegmentMean` of the
    variable: the same rows, added in the same order), or, over a resource variable, builds 2 ops fewer than 1.15.
"""

import functools
from typing import Any

from compat._graph_seed_ops import _tf, _tf1_graph, count_tf1_ops

_COLUMNS = "tensorflow.python.feature_column.feature_column_v2"
# the ops TF 1.15's embedding_lookup_sparse built before its segment reduction that TF 2's fast path (a ref variable or
# a tensor: no Unique) does not: the segment ids' Cast to int32, Unique, and the lookup's three (the gather's axis
# constant, GatherV2 and its Identity; of a resource variable ResourceGather and two Identities). TF 2's other path
# (a resource variable) builds Unique and the lookup but not the Cast nor the lookup's second Identity.
_SPARSE_LOOKUP_OPS = 5
_SEGMENT_IDS_CAST = _GATHER_IDENTITY = 1


def _tf1_identity_ids(original: Any) -> Any:
    @functools.wraps(original)
    def _transform_input_tensor(self: Any, input_tensor: Any, *args: Any, **kwargs: Any) -> Any:
        ids = original(self, input_tensor, *args, **kwargs)
        if self.default_value is not None or not _tf1_graph():
            return ids
        math_ops, check_ops, dtypes = _tf("ops.math_ops"), _tf("ops.check_ops"), _tf("framework.dtypes")
        num_buckets = math_ops.cast(self.num_buckets, dtypes.int64, name="num_buckets")
        zero = math_ops.cast(0, dtypes.int64, name="zero")
        below = check_ops.assert_less(
            ids.values,
            num_buckets,
            data=(ids.values, num_buckets),
            message=f'Bucket index for categorical column "{self.name}" exceeds number of buckets',
            name="assert_less_than_num_buckets",
        )
        above = check_ops.assert_greater_equal(
            ids.values,
            zero,
            data=(ids.values,),
            message=f'Negative bucket index for categorical column "{self.name}"',
            name="assert_greater_or_equal_0",
        )
        with _tf("framework.ops").control_dependencies((below, above)):
            values = _tf("ops.array_ops").identity(ids.values)
        return _tf("framework.sparse_tensor").SparseTensor(ids.indices, values, ids.dense_shape)

    _transform_input_tensor.tf1_ops = original  # type: ignore[attr-defined]
    return _transform_input_tensor


def _tf1_sparse_lookup(original: Any) -> Any:
    @functools.wraps(original)
    def embedding_lookup_sparse_impl(params: Any, segment_ids: Any, sp_weights: Any, *args: Any, **kwargs: Any) -> Any:
        # measured without weights over one partition (an embedding column's lookup); left as TF 2 builds otherwise
        if not _tf1_graph() or sp_weights is not None or len(params) != 1:
            return original(params, segment_ids, sp_weights, *args, **kwargs)
        graph = _tf("framework.ops").get_default_graph()
        before = len(graph.get_operations())
        result = original(params, segment_ids, sp_weights, *args, **kwargs)
        unique = any(op.type == "Unique" for op in graph.get_operations()[before:])
        count_tf1_ops(graph, _SEGMENT_IDS_CAST + _GATHER_IDENTITY if unique else _SPARSE_LOOKUP_OPS)
        return result

    embedding_lookup_sparse_impl.tf1_ops = original  # type: ignore[attr-defined]
    return embedding_lookup_sparse_impl


def _tf1_resource_weights(original: Any) -> Any:
    """The build of linear_model's layers, making resource variables in a v1 graph as TF 1.15's did."""

    @functools.wraps(original)
    def build(self: Any, input_shape: Any) -> None:
        if not _tf1_graph():
            return original(self, input_shape)
        self.add_variable = functools.partial(type(self).add_variable, self, use_resource=True)
        try:
            return original(self, input_shape)
        finally:
            del self.add_variable

    build.tf1_ops = original  # type: ignore[attr-defined]
    return build


# module -> [(class, method, replacement maker)], installed by compat/_graph_seed.py with its own
CLASSES = {
    _COLUMNS: [("IdentityCategoricalColumn", "_transform_input_tensor", _tf1_identity_ids)],
    "tensorflow.python.feature_column.feature_column": [
        ("_FCLinearWrapper", "build", _tf1_resource_weights),
        ("_BiasLayer", "build", _tf1_resource_weights),
    ],
}


def install() -> None:
    """Replace TF 2's sparse embedding lookup (called through its module) once TensorFlow is loaded."""
    embedding_ops = _tf("ops.embedding_ops")
    current = getattr(embedding_ops, "embedding_lookup_sparse_impl", None)  # (measured on TF 2.15 and 2.21)
    if current is not None and not hasattr(current, "tf1_ops"):
        embedding_ops.embedding_lookup_sparse_impl = _tf1_sparse_lookup(current)
