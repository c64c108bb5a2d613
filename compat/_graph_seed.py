"""TF 1.x's op seeds in graph mode: an op without a seed of its own takes the graph's op count.

TF 1.15's `get_seed` (tensorflow/python/framework/random_seed.py), when only the graph seed is set,
used `ops.get_default_graph()._last_id` as the op seed: the number of operations created in the
graph so far. TF 2.15 and 2.21 keep a separate counter per graph instead
(`_graph_to_seed_dict.setdefault(graph, 0)`, then `+= 1`): 0 for the first random op, 1 for the
second, whatever else the graph holds. So a seeded TF 1 program drew other numbers on TF 2 —
measured: `tf.set_random_seed(0); tf.random_normal([3])` is [-1.4095545, -0.5366828, -0.5652379] on
TF 1.15 and [0.12391895, 2.798774, -1.7961729] through tf.compat.v1 on TF 2.15 and 2.21.

TF 2's `Graph.version` is the op count TF 1.15's `_last_id` was (every Operation added counts one,
on both). We replace the counter dictionary, not `get_seed`: `get_seed` is also bound by name in
`framework_lib` and in the generated API modules (`tf.compat.v1.get_seed`), which all keep working.
A function traced while the program runs in graph mode (a `Dataset.map` function) counts its own
ops, as TF 1.15's FuncGraph did (measured: the same draws in a map function). Eager execution, and
functions traced under it (TF 2 programs), keep TF 2's derivation.

An op count only gives TF 1.15's seeds if the graph holds TF 1.15's ops, so the builders that TF 2
changed build TF 1.15's ops again in graph mode (measured on the graphs of
tests/common/tf1_programs/seeded_draws.py, TF 1.15 against TF 2.15 and 2.21):
  - `random_uniform` from the Python int 0: TF 2 skips `- min` and `+ min` (2 ops fewer), and with
    the default maximum also the `min`/`max` constants and `* (max - min)` (5 ops fewer); the values
    are the same bits;
  - `random_gamma`: TF 1.15 broadcast alpha as `alpha + zeros_like(beta)` (2 ops), TF 2 with
    `broadcast_to(alpha, broadcast_dynamic_shape(...))` (4 ops; the same alpha);
  - dropout (`tf.nn.dropout`, `tf.layers.dropout`, Keras' and slim's): TF 1.15 built
    `x * (1 / (1 - rate)) * cast(uniform >= rate)`, the scale computed in float32 in the graph;
    TF 2 computes the scale in Python (float64) and selects with `where`: 14 ops against 8;
  - `tf.split` into a number of pieces: TF 1.15 converted the number to a tensor it did not use
    (1 op), TF 2 does not;
  - Keras' `Flatten` (`tf.layers.flatten`, `slim.flatten`) with an unknown batch size: TF 1.15
    reshaped to `(tf.shape(x)[0], -1)` (8 ops), TF 2 to a constant `[-1, n]` (2 ops);
  - Keras' `Conv` (`tf.layers.conv2d`, `slim.conv2d`): TF 1.15's build made a `dilation_rate`
    constant for its `nn_ops.Convolution`, TF 2 makes none (1 op);
  - Keras' `Conv2DTranspose` (`tf.layers.conv2d_transpose`, `slim.conv2d_transpose`): TF 1.15 read the output's
    height and width from `tf.shape(inputs)` (strided slices, the output length's arithmetic), TF 2 from the static
    shape where it is known (10 ops fewer for a stride-2 SAME layer; tests/common/tf1_programs/conv_transpose_op_seeds.py);
  - Keras' fused batch normalization (`tf.layers.batch_normalization`, `slim.batch_norm`): training,
    TF 1.15 passed empty mean and variance constants to the fused op (2 ops) where TF 2 passes the
    moving averages (which the op ignores when training); not training, TF 1.15 still made its
    momentum constant (1 op). With `training` a tensor TF 1.15 built both branches: not measured,
    left as TF 2 builds it;
  - `tf.tensordot` (`tf.layers.dense` on a rank-3 input, as BERT's): TF 1.15 transposed and reshaped
    each side of known shape and, both known, reshaped the product, whatever the shapes (2 ops each),
    TF 2 only where the permutation or the shape changes (a dense layer: 6 ops fewer; 4, the kernel's,
    when the batch size is unknown, as in tensor2tensor);
  - `tf.ones` / `tf.zeros` of a shape holding tensors: TF 1.15 asked numpy whether the shape was small
    (a Mul per tensor step, `< 1000`: 3 to 6 unused ops), TF 2 does not; counted;
  - `tf.data.experimental.parallel_interleave` (tf.contrib.data's): TF 1.15's dataset op took `sloppy`
    as a constant input (1 op), TF 2's takes it as an attribute;
  - `shuffle(...).repeat(...)` and `tf.data.experimental.shuffle_and_repeat` with a seed: not an op count but
    the order. TF 1.15's default static optimization fused the first into the second's op, whose first epoch is
    the order a shuffle that does not reshuffle draws on TF 2 (measured, real TF 1.15 against 2.15 and 2.21;
    tensor2tensor's training input); built so, the extra ops counted out. Later epochs stay TF 2's (docs/traps.md).
    1.15 optimized when the iterator was made or initialized: a `repeat(1)` was dropped first (noop_elimination:
    a plain shuffle's order), and a count fed to an initializable iterator was fused or dropped by its value
    (tests/common/tf1_programs/fed_input_pipelines.py);
  - an initializable iterator (`make_initializable_iterator`, the Estimator's input): TF 1.15 applied
    the dataset's options there as ops of the graph (by default the `optimizations` constant,
    OptimizeDataset and ModelDataset: 3 ops), TF 2 applies them at run time (none). Not reproduced:
    a dataset capturing a ref variable (TF 1.15 then skipped OptimizeDataset), and `with_options`,
    for which TF 2 builds an OptionsDataset op TF 1.15 did not;
  - the global step's read (the Estimator builds it before the model): TF 1.15's v1 cond over a ref
    variable is 9 ops; in uai-migrate's output the global step is a resource variable and TF 2 reads
    it with VarIsInitializedOp, If and an Identity (2 once the resource variable's ops are counted
    out). Under uai-run's TF1 face it is TF 1.15's cond already;
  - a TensorArray's `size()` (which `stack()` calls: `dynamic_rnn`'s outputs): TF 1.15 built a TensorArraySizeV3
    op, TF 2 answers a size known when the array was made with that size (no op where it is a tensor), and its
    `concat()` asks `size()` for the static shape, which TF 1.15's did not (measured:
    tests/common/tf1_programs/tensor_array_op_seeds.py; a GRU made after an LSTM's dynamic_rnn started from other
    weights); both are TF 1.15's again, op for op;
  - `matrix_diag`, `matrix_diag_part` and `matrix_set_diag` (`tf.eye`, the identity initializer): TF 1.15 built
    the v1 ops, TF 2 the v3 ones with constants for k, the sizes and the padding (1 to 4 ops more); a
    `tf.tensordot` of a Python list (`rgb_to_grayscale`'s weights) is counted as of a tensor of its shape;
    `crop_to_bounding_box` (`resize_image_with_crop_or_pad`, the cifar10 tutorial's eval input): TF 2 reads the
    slice's batch and depth from the image's shape (12 ops where TF 1.15 made one constant). Measured:
    tests/common/tf1_programs/image_matrix_op_seeds.py;
  - a variable made with a regularizer (`tf.get_variable(regularizer=)`, `tf.variable_scope(regularizer=)`, tf-slim's
    variables): TF 1.15 ran the regularizer once and collected its loss; TF 2 runs it once more to see whether it
    gives one (3 ops for an l2 regularizer) and collects a tensor that builds it again whenever it is read. Made
    as 1.15 made it (measured: tests/common/tf1_programs/regularized_variables.py);
  - a reduction over all the axes of a scalar (`tf.losses`' weighted sums, so model_deploy's clone losses):
    TF 1.15 made the empty constant of its axes, TF 2 `range(0, rank(x))` (4 ops; measured on the
    research/slim-style program, tests/common/tf1_programs/slim_classifier_tf14: its second clone's
    dropout drew with op seed 484 against 1.15's 478).
The input pipeline's builders (parsing, image decoding, tf-slim's data path) are compat/_graph_seed_inputs.py's,
tf.feature_column's compat/_graph_seed_columns.py's.
Where TF 1.15 built other ops or kernels for the same values, it counts the difference instead of building
them (`count_tf1_ops`: the op count answered is the graph's plus what was counted, per graph).
`random_uniform`, `random_gamma`, `split`, `tensordot`, `ones`, `zeros`, the three diagonal ops and
`crop_to_bounding_box` are replaced where every binding sees them (`random_ops` and the
API modules: `tf.random.uniform`, `tf.compat.v1.random_uniform`, ...), the dropout body in `nn_ops`, the reductions'
axes in `math_ops`, the iterator's method on `DatasetV1` (which `tf.compat.v1.data.make_initializable_iterator` calls), the global
step's read in `training_util`, and the Keras methods on Keras 2's classes (tf-keras on TF 2.21, Keras 2.15 on TF 2.15, and TensorFlow's
internal Keras, which tf-slim's layers use).
"""

import functools
import inspect
import math
import numbers
import sys
import weakref
from typing import Any

from compat import _graph_seed_columns
from compat._graph_seed_ops import _TF1_COUNTED, _is_tensor, _rebind, _tf, _tf1_graph, count_tf1_ops

_RANDOM_SEED = "tensorflow.python.framework.random_seed"


class _TF1OpSeeds(weakref.WeakKeyDictionary):
    """`random_seed._graph_to_seed_dict`, answering a v1 graph's op count where TF 2 asks for its counter."""

    tf1_op_seeds = True

    def setdefault(self, graph: Any, default: Any = None) -> Any:
        counter = super().setdefault(graph, default)  # kept: get_seed adds one to it next
        if not _tf1_graph():
            return counter
        resource_ops = _resource_variable_ops(graph) if _resource_variables_by_default() else 0
        return graph.version + _TF1_COUNTED.get(graph, 0) - resource_ops


def _resource_variables_by_default() -> bool:
    """True in uai-migrate's output (TF 2's default); False under uai-run's TF1 face, where a resource
    variable is one the program asked for, as it was on TF 1.15 (TPUEstimator's global step)."""
    toggle = sys.modules.get("tensorflow.python.ops.resource_variables_toggle") or _tf("ops.variable_scope")
    return bool(toggle.resource_variables_enabled())


def _resource_variable_ops(graph: Any) -> int:
    """The ops `graph` holds because its variables are resource variables, beyond what TF 1.15's ref variables built.

    uai-migrate's graph-mode output keeps TF 2's resource variables (uai-run's TF1 face has ref variables).
    Made in a graph, a ref variable is 3 ops (VariableV2, Assign, the `read` Identity every use reads), a
    resource variable 4 (VarHandleOp, VarIsInitializedOp, AssignVariableOp, a ReadVariableOp), and every
    further use reads it with one more ReadVariableOp, but gathers (`tf.nn.embedding_lookup`) with one
    ResourceGather where a ref variable took an `axis` constant and a GatherV2: counted out, the op seeds
    are TF 1.15's again.
    Only where resource variables are the default (`_resource_variables_by_default`), and not for a
    variable the program asked for as a resource variable (`get_variable(use_resource=True)`,
    TPUEstimator's global step): it was one on TF 1.15 too.
    """
    asked = _ASKED_RESOURCE.get(graph)
    if not asked:
        types = [op.type for op in graph.get_operations()]
        handles = types.count("VarHandleOp")
        extra = types.count("VarIsInitializedOp") + types.count("ReadVariableOp") - types.count("ResourceGather")
        return extra - handles if handles else 0
    handles = extra = 0
    for op in graph.get_operations():
        if op.type == "VarHandleOp":
            handles += op.name not in asked
        elif op.type in ("VarIsInitializedOp", "ReadVariableOp"):
            extra += _handle_of(op) not in asked
        elif op.type == "ResourceGather":
            extra -= _handle_of(op) not in asked
    return extra - handles if handles else 0


def _handle_of(op: Any) -> str:
    """The name of the VarHandleOp `op` reads, through the Switch and Identity ops of a v1 cond ('' if another)."""
    while op.type != "VarHandleOp":
        reads = ("VarIsInitializedOp", "ReadVariableOp", "ResourceGather", "Switch", "Identity", "Enter")
        if op.type not in reads or not op.inputs:
            return ""
        op = op.inputs[0].op
    return op.name


# graph -> names of the VarHandleOps of the variables asked for with `use_resource=True` where it is the default
_ASKED_RESOURCE: "weakref.WeakKeyDictionary[Any, set[str]]" = weakref.WeakKeyDictionary()


def _tf1_get_variable(original: Any) -> Any:
    @functools.wraps(original)
    def get_variable(*args: Any, **kwargs: Any) -> Any:
        variable = original(*args, **kwargs)
        handle = getattr(variable, "handle", None)
        if kwargs.get("use_resource") is True and handle is not None and _tf1_graph():
            _ASKED_RESOURCE.setdefault(handle.graph, set()).add(handle.op.name)
        return variable

    get_variable.tf1_ops = original  # type: ignore[attr-defined]
    return get_variable


def _tf1_random_uniform(original: Any) -> Any:
    @functools.wraps(original)
    def random_uniform(
        shape: Any,
        minval: Any = 0,
        maxval: Any = None,
        dtype: Any = None,
        seed: int | None = None,
        name: str | None = None,
    ) -> Any:
        dtypes = _tf("framework.dtypes")
        dtype = dtypes.float32 if dtype is None else dtypes.as_dtype(dtype)
        if isinstance(minval, int) and minval == 0 and dtype.is_floating and _tf1_graph():
            # TF 2 shortcuts a Python int 0 (no `- min`, `+ min`) and a Python int 1 (no `* (max - min)`);
            # with a float 0.0 it builds TF 1.15's `rnd * (max - min) + min`, whatever the maximum
            minval, maxval = 0.0, 1.0 if maxval is None else maxval
        return original(shape, minval=minval, maxval=maxval, dtype=dtype, seed=seed, name=name)

    random_uniform.tf1_ops = original  # type: ignore[attr-defined]
    return random_uniform


def _tf1_random_gamma(original: Any) -> Any:
    @functools.wraps(original)
    def random_gamma(
        shape: Any, alpha: Any, beta: Any = None, dtype: Any = None, seed: int | None = None, name: str | None = None
    ) -> Any:
        dtypes = _tf("framework.dtypes")
        dtype = dtypes.float32 if dtype is None else dtypes.as_dtype(dtype)
        if not _tf1_graph():
            return original(shape, alpha, beta=beta, dtype=dtype, seed=seed, name=name)
        np, ops, random_seed = sys.modules["numpy"], _tf("framework.ops"), _tf("framework.random_seed")
        array_ops, gen_random_ops, math_ops = _tf("ops.array_ops"), _tf("ops.gen_random_ops"), _tf("ops.math_ops")
        random_ops = _tf("ops.random_ops")

        # TF 1.15's random_gamma, op for op
        with ops.name_scope(name, "random_gamma", [shape, alpha, beta]):
            shape = ops.convert_to_tensor(shape, name="shape", dtype=dtypes.int32)
            alpha = ops.convert_to_tensor(alpha, name="alpha", dtype=dtype)
            beta = ops.convert_to_tensor(beta if beta is not None else 1, name="beta", dtype=dtype)
            alpha_broadcast = alpha + array_ops.zeros_like(beta)
            seed1, seed2 = random_seed.get_seed(seed)
            sample = gen_random_ops.random_gamma(shape, alpha_broadcast, seed=seed1, seed2=seed2)
            result = math_ops.maximum(np.finfo(alpha.dtype.as_numpy_dtype).tiny, sample / beta)
            random_ops._maybe_set_static_shape_helper(result, shape, alpha_broadcast)
            return result

    random_gamma.tf1_ops = original  # type: ignore[attr-defined]
    return random_gamma


def _tf1_split(original: Any) -> Any:
    @functools.wraps(original)
    def split(value: Any, num_or_size_splits: Any, axis: Any = 0, num: int | None = None, name: str = "split") -> Any:
        if isinstance(num_or_size_splits, numbers.Integral) and _tf1_graph():
            # the constant TF 1.15's split made of the count before using the count itself: it counts one op
            _tf("framework.ops").convert_to_tensor(num_or_size_splits)
        return original(value, num_or_size_splits, axis=axis, num=num, name=name)

    split.tf1_ops = original  # type: ignore[attr-defined]
    return split


def _static_shape(value: Any) -> Any:
    """The TensorShape of `value`, a tensor or what tensordot converts to one (a Python list: rgb_to_grayscale's
    weights), or None."""
    shape = getattr(value, "shape", None)
    if shape is None:
        import numpy

        try:
            shape = numpy.shape(value)
        except ValueError:  # a ragged list: no shape
            return None
    return _tf("framework.tensor_shape").TensorShape(shape)


def _tensordot_skipped(a: Any, b: Any, axes: Any) -> int:
    """The ops TF 2's tensordot leaves out for `a`, `b` where TF 1.15's built them: with the axes given as
    numbers, TF 1.15 transposed and reshaped each side whose shape is fully known (a permutation constant and
    a Transpose, a shape constant and a Reshape) and, both known, reshaped the product (2 more); TF 2 each
    only when the permutation or the shape changes. A side of unknown shape (a batch of unknown size, as
    tensor2tensor's dense layers have) takes the dynamic path on both, with the same ops."""
    known = [_static_shape(x) for x in (a, b)]
    if any(shape is None or shape.rank is None for shape in known):
        return 0
    rank_a = known[0].rank
    if isinstance(axes, numbers.Integral):
        pairs = [list(range(rank_a - int(axes), rank_a)), list(range(int(axes)))]
    elif isinstance(axes, (list, tuple)) and len(axes) == 2:
        pairs = [[int(axes[i])] if isinstance(axes[i], numbers.Integral) else [int(n) for n in axes[i]] for i in (0, 1)]
    else:
        return 0
    skipped, free_dims, products = 0, [], []
    for side, contracted, flipped in ((known[0], pairs[0], False), (known[1], pairs[1], True)):
        if not side.is_fully_defined():
            continue
        shape: list[int] = side.as_list()
        contracted = [i if i >= 0 else i + len(shape) for i in contracted]
        free = [i for i in range(len(shape)) if i not in contracted]
        perm = contracted + free if flipped else free + contracted
        sizes = [math.prod(shape[i] for i in dims) for dims in (free, contracted)]
        new_shape = sizes[::-1] if flipped else sizes
        skipped += 2 * (perm == list(range(len(shape)))) + 2 * ([shape[i] for i in perm] == new_shape)
        free_dims += [shape[i] for i in free]
        products.append(sizes[0])
    both_known = len(products) == 2
    return skipped + 2 * (both_known and products == free_dims)


def _tf1_tensordot(original: Any) -> Any:
    @functools.wraps(original)
    def tensordot(a: Any, b: Any, axes: Any, name: Any = None) -> Any:
        result = original(a, b, axes, name=name)
        if _tf1_graph():
            for _ in range(_tensordot_skipped(a, b, axes)):  # unused, they count
                _tf("framework.constant_op").constant(0, name="tensordot_tf1")
        return result

    tensordot.tf1_ops = original  # type: ignore[attr-defined]
    return tensordot


def _small_constant_check_ops(shape: Any) -> int:
    """The ops TF 1.15's `ones` / `zeros` built, and left unused, asking whether a shape holding tensors
    (`[tf.shape(x)[0], 3]`: tensor2tensor's attention biases) was small enough for a constant: numpy's product
    of the dims, a Mul per step that met a tensor (and a constant per Python number it met), then `< 1000`, a
    constant and a Less, before `if` refused the tensor. TF 2's numpy refuses the tensors at once (no op)."""
    if not isinstance(shape, (list, tuple)) or not any(_is_tensor(dim) for dim in shape):
        return 0
    ops, product_is_tensor = 0, _is_tensor(shape[0])
    for dim in shape[1:]:
        if product_is_tensor or _is_tensor(dim):
            ops += 1 + (not product_is_tensor) + (not _is_tensor(dim))
            product_is_tensor = True
    return ops + 2


def _tf1_fill(original: Any) -> Any:
    @functools.wraps(original)
    def fill(shape: Any, *args: Any, **kwargs: Any) -> Any:
        result = original(shape, *args, **kwargs)
        if _tf1_graph():
            count_tf1_ops(_tf("framework.ops").get_default_graph(), _small_constant_check_ops(shape))
        return result

    fill.tf1_ops = original  # type: ignore[attr-defined]
    return fill


def _is_default(value: Any, default: Any) -> bool:
    return not _is_tensor(value) and isinstance(value, (int, float, str)) and value == default


def _tf1_matrix_diag(original: Any) -> Any:
    # TF 1.15's matrix_diag, matrix_diag_part and matrix_set_diag called the v1 ops (its forward-compatibility
    # horizon came before the v2 ones'); TF 2 builds the v3 op with constants for k, the sizes and the padding.
    # The same values where those are the defaults.
    @functools.wraps(original)
    def matrix_diag(
        diagonal: Any,
        name: str = "diag",
        k: Any = 0,
        num_rows: Any = -1,
        num_cols: Any = -1,
        padding_value: Any = 0,
        align: str = "RIGHT_LEFT",
    ) -> Any:
        defaults = ((k, 0), (num_rows, -1), (num_cols, -1), (padding_value, 0), (align, "RIGHT_LEFT"))
        if _tf1_graph() and all(_is_default(value, default) for value, default in defaults):
            return _tf("ops.gen_array_ops").matrix_diag(diagonal=diagonal, name=name)
        return original(diagonal, name, k, num_rows, num_cols, padding_value, align)

    matrix_diag.tf1_ops = original  # type: ignore[attr-defined]
    return matrix_diag


def _tf1_matrix_diag_part(original: Any) -> Any:
    @functools.wraps(original)
    def matrix_diag_part(
        input: Any,  # noqa: A002 - TensorFlow's parameter name, passed by keyword
        name: str = "diag_part",
        k: Any = 0,
        padding_value: Any = 0,
        align: str = "RIGHT_LEFT",
    ) -> Any:
        defaults = ((k, 0), (padding_value, 0), (align, "RIGHT_LEFT"))
        if _tf1_graph() and all(_is_default(value, default) for value, default in defaults):
            return _tf("ops.gen_array_ops").matrix_diag_part(input=input, name=name)
        return original(input, name, k, padding_value, align)

    matrix_diag_part.tf1_ops = original  # type: ignore[attr-defined]
    return matrix_diag_part


def _tf1_matrix_set_diag(original: Any) -> Any:
    @functools.wraps(original)
    def matrix_set_diag(
        input: Any,  # noqa: A002 - TensorFlow's parameter name, passed by keyword
        diagonal: Any,
        name: str = "set_diag",
        k: Any = 0,
        align: str = "RIGHT_LEFT",
    ) -> Any:
        if _tf1_graph() and _is_default(k, 0) and _is_default(align, "RIGHT_LEFT"):
            return _tf("ops.gen_array_ops").matrix_set_diag(input=input, diagonal=diagonal, name=name)
        return original(input, diagonal, name, k, align)

    matrix_set_diag.tf1_ops = original  # type: ignore[attr-defined]
    return matrix_set_diag


def _tf1_crop_to_bounding_box(original: Any) -> Any:
    @functools.wraps(original)
    def crop_to_bounding_box(
        image: Any, offset_height: Any, offset_width: Any, target_height: Any, target_width: Any
    ) -> Any:
        if not _tf1_graph():
            return original(image, offset_height, offset_width, target_height, target_width)
        # TF 1.15's body, op for op: TF 2 reads the batch and depth of the slice's size from the image's shape (10
        # ops more), where TF 1.15 gave -1; the same slice
        ops, array_ops = _tf("framework.ops"), _tf("ops.array_ops")
        impl = _tf("ops.image_ops_impl")
        with ops.name_scope(None, "crop_to_bounding_box", [image]):
            image = ops.convert_to_tensor(image, name="image")
            is_batch = True
            ndims = image.get_shape().ndims
            if ndims == 3 or ndims is None:
                is_batch = False
                image = array_ops.expand_dims(image, 0)
                if ndims is None:
                    image.set_shape([None] * 4)
            elif ndims != 4:
                raise ValueError("'image' must have either 3 or 4 dimensions.")
            assert_ops = impl._CheckAtLeast3DImage(image, require_static=False)
            batch, height, width, depth = impl._ImageDimensions(image, rank=4)
            checks = (
                (offset_width >= 0, "offset_width must be >= 0."),
                (offset_height >= 0, "offset_height must be >= 0."),
                (target_width > 0, "target_width must be > 0."),
                (target_height > 0, "target_height must be > 0."),
                (width >= (target_width + offset_width), "width must be >= target + offset."),
                (height >= (target_height + offset_height), "height must be >= target + offset."),
            )
            for condition, message in checks:
                assert_ops += impl._assert(condition, ValueError, message)
            image = _tf("ops.control_flow_ops").with_dependencies(assert_ops, image)
            cropped = array_ops.slice(
                image,
                array_ops.stack([0, offset_height, offset_width, 0]),
                array_ops.stack([-1, target_height, target_width, -1]),
            )
            dims = [batch, target_height, target_width, depth]
            cropped.set_shape([None if impl._is_tensor(i) else i for i in dims])
            return cropped if is_batch else array_ops.squeeze(cropped, axis=[0])

    crop_to_bounding_box.tf1_ops = original  # type: ignore[attr-defined]
    return crop_to_bounding_box


def _tf1_reduction_dims(original: Any) -> Any:
    @functools.wraps(original)
    def _ReductionDims(x: Any, axis: Any) -> Any:  # noqa: N802 - the name TensorFlow's reductions call
        if axis is None and getattr(getattr(x, "shape", None), "rank", None) == 0 and _tf1_graph():
            # a scalar's axes: TF 1.15 made the empty constant, TF 2 `range(0, rank(x))` (4 ops)
            return _tf("framework.constant_op").constant(sys.modules["numpy"].arange(0), dtype="int32")
        return original(x, axis)

    _ReductionDims.tf1_ops = original  # type: ignore[attr-defined]
    return _ReductionDims


def _tf1_dropout(original: Any) -> Any:
    @functools.wraps(original)
    def _dropout(
        x: Any,
        rate: Any,
        noise_shape: Any,
        uniform_sampler: Any,
        dummy_rng_step: Any,
        name: str | None,
        default_name: str,
    ) -> Any:
        ops, tensor_util, math_ops = _tf("framework.ops"), _tf("framework.tensor_util"), _tf("ops.math_ops")
        nn_ops, random_ops = _tf("ops.nn_ops"), _tf("ops.random_ops")

        sampler = getattr(uniform_sampler, "func", None)
        stateful = sampler is not None and getattr(sampler, "__name__", "") == "random_uniform"
        if not stateful or not _tf1_graph():  # stateless and general dropout, eager, functions: TF 2's
            return original(x, rate, noise_shape, uniform_sampler, dummy_rng_step, name, default_name)
        # TF 1.15's dropout_v2, op for op
        with ops.name_scope(name, default_name, [x]) as name:
            x = ops.convert_to_tensor(x, name="x")
            if not x.dtype.is_floating:
                raise ValueError(f"x has to be a floating point tensor since it's going to be scaled. Got {x.dtype}")
            if isinstance(rate, numbers.Real) and not 0 <= float(rate) < 1:
                raise ValueError(f"rate must be a scalar tensor or a float in the range [0, 1), got {rate:g}")
            if isinstance(rate, numbers.Real) and rate == 0:
                return x
            rate = ops.convert_to_tensor(rate, dtype=x.dtype, name="rate")
            rate.get_shape().assert_has_rank(0)
            if tensor_util.constant_value(rate) == 0:
                return x
            noise_shape = nn_ops._get_noise_shape(x, noise_shape)
            seed = uniform_sampler.keywords.get("seed")
            random_tensor = random_ops.random_uniform(noise_shape, seed=seed, dtype=x.dtype)
            keep_prob = 1 - rate
            scale = 1 / keep_prob
            keep_mask = random_tensor >= rate
            ret = x * scale * math_ops.cast(keep_mask, x.dtype)
            ret.set_shape(x.get_shape())
            return ret

    _dropout.tf1_ops = original  # type: ignore[attr-defined]
    return _dropout


# The ops of TF 1.15's v1 cond reading a ref variable's value if initialized (IsVariableInitialized, Switch,
# switch_t, switch_f, pred_id, the read, RefSwitch, the other branch's Switch, Merge)
_TF1_GLOBAL_STEP_COND_OPS = 9


def _tf1_global_step_read(original: Any) -> Any:
    @functools.wraps(original)
    def _get_or_create_global_step_read(graph: Any = None) -> Any:
        ops, training_util = _tf("framework.ops"), _tf("training.training_util")
        target = graph or ops.get_default_graph()
        done = training_util._get_global_step_read(target) is not None
        if done or not _tf1_graph() or not _resource_variables_by_default():  # uai-run: TF 1.15's cond
            return original(graph)
        before = len(target.get_operations())
        read = original(graph)
        built = target.get_operations()[before:]  # in the order they were made
        if read is not None:
            # in uai-migrate's output the global step is a resource variable: TF 2's cond over it is
            # VarIsInitializedOp, If and its output's Identity with control flow v2 (2 ops once the
            # resource variable's are counted out), 8 with v1's; TF 1.15's over a ref variable was 9
            names = _ASKED_RESOURCE.get(target, set())
            reads = [op for op in built if op.type in ("VarIsInitializedOp", "ReadVariableOp")]
            counted_out = sum(_handle_of(op) not in names for op in reads)
            # over a resource variable (TPUEstimator's, asked for) TF 1.15's cond read it with 1 op more
            handle = getattr(training_util.get_global_step(target), "handle", None)
            tf1_ops = _TF1_GLOBAL_STEP_COND_OPS + (handle is not None and handle.op.name in names)
            missing = tf1_ops - (len(built) - 2 - counted_out)  # 2: `+ 0`'s constant and add
            with target.as_default():
                for _ in range(max(missing, 0)):
                    _tf("framework.constant_op").constant(0, name="global_step_cond")
        return read

    _get_or_create_global_step_read.tf1_ops = original  # type: ignore[attr-defined]
    return _get_or_create_global_step_read


def _install_builders() -> None:
    random_ops = sys.modules.get("tensorflow.python.ops.random_ops")
    nn_ops = sys.modules.get("tensorflow.python.ops.nn_ops")
    if random_ops is None or nn_ops is None or hasattr(random_ops.random_uniform, "tf1_ops"):
        return
    _rebind(random_ops.random_uniform, _tf1_random_uniform(random_ops.random_uniform))
    _rebind(random_ops.random_gamma, _tf1_random_gamma(random_ops.random_gamma))
    array_ops, math_ops = _tf("ops.array_ops"), _tf("ops.math_ops")
    _rebind(array_ops.split, _tf1_split(array_ops.split))
    _rebind(math_ops.tensordot, _tf1_tensordot(math_ops.tensordot))
    _rebind(array_ops.ones, _tf1_fill(array_ops.ones))
    _rebind(array_ops.zeros, _tf1_fill(array_ops.zeros))
    # tf.matrix_diag is their deprecated endpoint's wrapper; tf.linalg.diag the function it wraps
    for name, make in (
        ("matrix_diag", _tf1_matrix_diag),
        ("matrix_diag_part", _tf1_matrix_diag_part),
        ("matrix_set_diag", _tf1_matrix_set_diag),
    ):
        endpoint = getattr(array_ops, name)
        for original in (endpoint, getattr(endpoint, "__wrapped__", None)):
            if original is not None:
                _rebind(original, make(original))
    image_ops_impl = _tf("ops.image_ops_impl")
    _rebind(image_ops_impl.crop_to_bounding_box, _tf1_crop_to_bounding_box(image_ops_impl.crop_to_bounding_box))
    # `tf.compat.v1.get_variable` only: TF 2's tf.layers pass use_resource=True themselves (TF 1.15's did not)
    variable_scope = _tf("ops.variable_scope")
    _rebind(variable_scope.get_variable, _tf1_get_variable(variable_scope.get_variable), api_only=True)
    # the body every dropout entry point calls, and the axes every reduction without `axis` takes (both called
    # through their module)
    nn_ops._dropout = _tf1_dropout(nn_ops._dropout)  # type: ignore[attr-defined]
    math_ops._ReductionDims = _tf1_reduction_dims(math_ops._ReductionDims)
    # the Estimator's and the optimizers' read of the global step (called through the module)
    training_util = _tf("training.training_util")
    read = training_util._get_or_create_global_step_read
    training_util._get_or_create_global_step_read = _tf1_global_step_read(read)


def _tf1_flatten_call(original: Any) -> Any:
    @functools.wraps(original)
    def call(self: Any, inputs: Any) -> Any:
        rank = inputs.shape.rank
        if not rank or rank < 2 or not _tf1_graph():
            return original(self, inputs)
        tensor_shape, array_ops = _tf("framework.tensor_shape"), _tf("ops.array_ops")

        # TF 1.15's Flatten.call, op for op
        if self._channels_first:
            inputs = array_ops.transpose(inputs, perm=[0, *range(2, rank), 1])
        batch = tensor_shape.dimension_value(inputs.shape[0]) or array_ops.shape(inputs)[0]
        outputs = array_ops.reshape(inputs, (batch, -1))
        outputs.set_shape(self.compute_output_shape(inputs.shape))
        return outputs

    call.tf1_ops = original  # type: ignore[attr-defined]
    return call


def _tf1_conv_build(original: Any) -> Any:
    @functools.wraps(original)
    def build(self: Any, input_shape: Any) -> None:
        original(self, input_shape)
        if _tf1_graph():
            constant_op, dtypes = _tf("framework.constant_op"), _tf("framework.dtypes")
            # the constant TF 1.15's build made for nn_ops.Convolution: unused, it counts one op
            constant_op.constant(list(self.dilation_rate), dtype=dtypes.int32, name="dilation_rate")

    build.tf1_ops = original  # type: ignore[attr-defined]
    return build


def _tf1_conv2d_transpose_call(original: Any) -> Any:
    @functools.wraps(original)
    def call(self: Any, inputs: Any) -> Any:
        if not _tf1_graph():
            return original(self, inputs)
        # TF 1.15's Conv2DTranspose.call, op for op: the output's height and width from tf.shape(inputs), where
        # Keras 2 reads the static shape when it is known (10 ops fewer for a stride-2 SAME layer); the same values.
        # conv_utils and backend: those of the Keras copy the class is defined in.
        keras = sys.modules[original.__module__]
        conv_utils, backend, array_ops = keras.conv_utils, keras.backend, _tf("ops.array_ops")
        shape = array_ops.shape(inputs)
        h_axis, w_axis = (2, 3) if self.data_format == "channels_first" else (1, 2)
        out_pads = (None, None) if self.output_padding is None else self.output_padding
        height, width = (
            conv_utils.deconv_output_length(
                shape[axis],
                self.kernel_size[i],
                padding=self.padding,
                output_padding=out_pads[i],
                stride=self.strides[i],
                dilation=self.dilation_rate[i],
            )
            for i, axis in enumerate((h_axis, w_axis))
        )
        if self.data_format == "channels_first":
            output_shape = (shape[0], self.filters, height, width)
        else:
            output_shape = (shape[0], height, width, self.filters)
        outputs = backend.conv2d_transpose(
            inputs,
            self.kernel,
            array_ops.stack(output_shape),
            strides=self.strides,
            padding=self.padding,
            data_format=self.data_format,
            dilation_rate=self.dilation_rate,
        )
        if inputs.shape.rank:
            outputs.set_shape(self.compute_output_shape(inputs.shape))
        if self.use_bias:
            data_format = conv_utils.convert_data_format(self.data_format, ndim=4)
            outputs = _tf("ops.nn_ops").bias_add(outputs, self.bias, data_format=data_format)
        return outputs if self.activation is None else self.activation(outputs)

    call.tf1_ops = original  # type: ignore[attr-defined]
    return call


def _tf1_fused_batch_norm(original: Any) -> Any:
    @functools.wraps(original)
    def _fused_batch_norm(self: Any, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        training = kwargs.get("training", args[-1] if args else None)
        try:
            value = _tf("framework.smart_cond").smart_constant_value(training)
        except TypeError:  # neither a tensor nor a bool: nothing TF 1.15's branches were measured for
            value = None
        if value is not None and _tf1_graph():
            constant_op = _tf("framework.constant_op")
            if value:  # the empty mean and variance of TF 1.15's training branch, unused on TF 2
                constant_op.constant([])
                constant_op.constant([])
            else:  # the momentum TF 1.15 converted whether it was used or not
                constant_op.constant(self.momentum)
        return original(self, inputs, *args, **kwargs)

    _fused_batch_norm.tf1_ops = original  # type: ignore[attr-defined]
    return _fused_batch_norm


def _tf1_static_optimizations(options: Any) -> bool:
    """Whether TF 1.15 had static optimizations to apply for `options` (TF 2's Options, read as 1.15 read its own):
    its defaults (map_and_batch_fusion, noop_elimination, shuffle_and_repeat_fusion) unless they were turned off,
    else any optimization turned on, the nondeterministic order (`make_sloppy`) or slack."""
    optimization = options.experimental_optimization
    if optimization.apply_default_optimizations is not False:
        return True
    named = (getattr(optimization, name) for name in dir(optimization) if not name.startswith("_"))
    return any(value is True for value in named) or options.deterministic is False or options.experimental_slack is True


def _tf1_initializable_iterator(original: Any) -> Any:
    @functools.wraps(original)
    def _make_initializable_iterator(self: Any, shared_name: str | None = None) -> Any:
        if _tf1_graph():
            # TF 1.15 applied the dataset's options here as ops of the graph (`_apply_options`): each threading
            # option a constant and a dataset op, the static optimizations the constant of their names and
            # OptimizeDataset, autotuning ModelDataset; TF 2 applies them at run time. Unused, they count.
            constant_op = _tf("framework.constant_op")
            options = self.options()
            threading = options.threading
            names = []
            if threading.max_intra_op_parallelism is not None:
                names += ["max_intra_op_parallelism", "MaxIntraOpParallelismDataset"]
            if threading.private_threadpool_size is not None:
                names += ["num_threads", "PrivateThreadPoolDataset"]
            if _tf1_static_optimizations(options):
                names += ["optimizations", "OptimizeDataset"]
            if options.autotune.enabled is not False:
                names += ["ModelDataset"]
            for name in names:
                constant_op.constant(0, name=name)
        return original(self, shared_name)

    _make_initializable_iterator.tf1_ops = original  # type: ignore[attr-defined]
    return _make_initializable_iterator


def _tf1_parallel_interleave(original: Any) -> Any:
    def __init__(
        self: Any,
        input_dataset: Any,
        map_func: Any,
        cycle_length: Any,
        block_length: Any,
        sloppy: Any,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        original(self, input_dataset, map_func, cycle_length, block_length, sloppy, *args, **kwargs)
        if _tf1_graph():
            # TF 1.15's op took `sloppy` as a constant input; TF 2's takes an attribute: it counts one op
            _tf("framework.ops").convert_to_tensor(bool(sloppy), name="sloppy")

    __init__.tf1_ops = original  # type: ignore[attr-defined]
    return __init__


def _unseeded(seed: Any, seed2: Any) -> bool:
    """A dataset's seed pair made without a graph or op seed: two zero constants (then any order is TF 1.15's)."""
    constant_value = _tf("framework.tensor_util").constant_value
    return all(t.op.type == "Const" and constant_value(t) == 0 for t in (seed, seed2))


def _seeded_reshuffle(dataset: Any) -> Any:
    """The `shuffle` `dataset` is (under its v1 adapters), if it reshuffles each epoch from a seed; else None."""
    while hasattr(dataset, "_dataset") and type(dataset).__name__ == "DatasetV1Adapter":
        dataset = dataset._dataset
    if type(dataset).__name__ != "_ShuffleDataset":
        return None
    op = dataset._variant_tensor.op
    if op.type != "ShuffleDataset" or not op.get_attr("reshuffle_each_iteration"):  # V3: eager or a function
        return None
    return None if _unseeded(dataset._seed, dataset._seed2) else dataset


def _tf1_fused_shuffle_and_repeat(options: Any) -> bool:
    """Whether TF 1.15's static optimizations fused a shuffle and the repeat after it, for `options`."""
    optimization = options.experimental_optimization
    fusion = optimization.shuffle_and_repeat_fusion
    return fusion is True or (fusion is None and optimization.apply_default_optimizations is not False)


def _tf1_first_epoch(
    dataset: Any, built: int, source: Any, shuffle: tuple, more_epochs: Any, once_unfused: bool = False
) -> None:
    """Give `dataset`, a repeat of a shuffle of the variant `source` whose ops were just built (the graph held `built`
    ops before), TF 1.15's ShuffleAndRepeatDataset's first epoch.

    That op's iterator drew the first epoch's order from (seed, seed2) themselves; TF 2's shuffle, fused or not,
    draws each epoch's from seeds it derives from them (another order from the first element: tensor2tensor's
    first batch). A shuffle that does not reshuffle draws from the seeds: 1.15's first epoch, then TF 2's
    reshuffled epochs (`more_epochs(n)`: n of them). 1.15's later orders continued one random stream, which no
    TF 2 op reproduces. The ops built beyond `dataset`'s own are counted out: the op count stays 1.15's.
    `shuffle`: (buffer_size, seed, seed2) tensors. `once_unfused`: a count of one was not fused (`repeat(1)`, which
    1.15's noop_elimination dropped first: a plain shuffle's order, TF 2's).
    1.15 optimized a dataset when its iterator was made or initialized, so a count fed to an initializable
    iterator was known by then: such a count picks the datasets at run time (`_tf1_fed_epochs`).
    """
    graph = _tf("framework.ops").get_default_graph()
    tf1_ops = graph.version - built
    epochs = _tf("framework.tensor_util").constant_value(dataset._count)
    if epochs == 0 or (epochs == 1 and once_unfused):
        return
    gen_dataset_ops = _tf("ops.gen_dataset_ops")
    buffer_size, seed, seed2 = shuffle
    structure = dataset._flat_structure
    variant = gen_dataset_ops.shuffle_dataset(
        source, buffer_size=buffer_size, seed=seed, seed2=seed2, reshuffle_each_iteration=False, **structure
    )
    if epochs is None:
        variant = _tf1_fed_epochs(dataset, variant, source, shuffle, once_unfused)
    elif epochs != 1:
        rest = dataset._variant_tensor if epochs < 0 else more_epochs(epochs - 1)
        variant = gen_dataset_ops.concatenate_dataset(variant, rest, **structure)
    dataset._variant_tensor_attr = variant
    count_tf1_ops(graph, built + tf1_ops - graph.version)


def _tf1_fed_epochs(dataset: Any, first: Any, source: Any, shuffle: tuple, once_unfused: bool) -> Any:
    """The variant of `dataset`, repeated a count known at run time: `first` (the fused first epoch), then TF 2's
    reshuffled epochs; or only these where 1.15 did not fuse (a count of 0, or of 1 if `once_unfused`)."""
    gen_dataset_ops, math_ops = _tf("ops.gen_dataset_ops"), _tf("ops.math_ops")
    where, constant = _tf("ops.array_ops").where_v2, _tf("framework.constant_op").constant
    count = dataset._count
    unfused = math_ops.equal(count, 0)
    if once_unfused:
        unfused = math_ops.logical_or(unfused, math_ops.equal(count, 1))
    structure = dataset._flat_structure
    first = gen_dataset_ops.take_dataset(first, count=where(unfused, constant(0, count.dtype), -1), **structure)
    buffer_size, seed, seed2 = shuffle
    reshuffled = gen_dataset_ops.shuffle_dataset(
        source, buffer_size=buffer_size, seed=seed, seed2=seed2, reshuffle_each_iteration=True, **structure
    )
    later = where(unfused, count, where(math_ops.greater(count, 0), count - 1, count))
    # none as a take of one: TF 2's own static optimization fuses this repeat with its shuffle at run time, and the
    # fused op refuses a count of 0
    none = math_ops.equal(later, 0)
    rest = gen_dataset_ops.repeat_dataset(reshuffled, count=where(none, constant(1, count.dtype), later), **structure)
    rest = gen_dataset_ops.take_dataset(rest, count=where(none, constant(0, count.dtype), -1), **structure)
    return gen_dataset_ops.concatenate_dataset(first, rest, **structure)


def _tf1_repeat(original: Any) -> Any:
    def __init__(self: Any, input_dataset: Any, count: Any, name: Any = None) -> None:
        # TF 1.15 fused `shuffle().repeat()` (its default static optimization shuffle_and_repeat_fusion)
        shuffle = _seeded_reshuffle(input_dataset) if _tf1_graph() else None
        if shuffle is None or not _tf1_fused_shuffle_and_repeat(input_dataset.options()):
            original(self, input_dataset, count, name)
            return
        built = _tf("framework.ops").get_default_graph().version
        original(self, input_dataset, count, name)
        repeat = _tf("ops.gen_dataset_ops").repeat_dataset
        _tf1_first_epoch(
            self,
            built,
            shuffle._input_dataset._variant_tensor,
            (shuffle._buffer_size, shuffle._seed, shuffle._seed2),
            lambda n: repeat(input_dataset._variant_tensor, count=n, **self._flat_structure),
            once_unfused=True,
        )

    __init__.tf1_ops = original  # type: ignore[attr-defined]
    return __init__


def _tf1_shuffle_and_repeat(original: Any) -> Any:
    def __init__(self: Any, input_dataset: Any, buffer_size: Any, count: Any = None, seed: Any = None) -> None:
        # tf.data.experimental.shuffle_and_repeat: TF 1.15's fused op itself
        built = _tf("framework.ops").get_default_graph().version
        original(self, input_dataset, buffer_size, count, seed)
        if not _tf1_graph() or _unseeded(self._seed, self._seed2):
            return
        shuffle = (self._buffer_size, self._seed, self._seed2)
        fused = _tf("ops.gen_dataset_ops").shuffle_and_repeat_dataset
        _tf1_first_epoch(
            self,
            built,
            input_dataset._variant_tensor,
            shuffle,
            lambda n: fused(
                input_dataset._variant_tensor,
                buffer_size=self._buffer_size,
                seed=self._seed,
                seed2=self._seed2,
                count=n,
                **self._flat_structure,
            ),
        )

    __init__.tf1_ops = original  # type: ignore[attr-defined]
    return __init__


def _tf1_tensor_array_size(original: Any) -> Any:
    @functools.wraps(original)
    def size(self: Any, name: Any = None) -> Any:
        # TF 1.15's size() asked the TensorArray (one TensorArraySizeV3 op, stack() built it too); TF 2's answers a
        # size known when it was made with that size, building no op where it is a tensor: every op seed after a
        # dynamic_rnn was another. The same value.
        if self._dynamic_size or self._size is None or not _tf1_graph():
            return original(self, name)
        return _tf("ops.gen_data_flow_ops").tensor_array_size_v3(handle=self._handle, flow_in=self.flow, name=name)

    size.tf1_ops = original  # type: ignore[attr-defined]
    return size


def _tf1_tensor_array_concat(original: Any) -> Any:
    @functools.wraps(original)
    def concat(self: Any, name: Any = None) -> Any:
        if not _tf1_graph():
            return original(self, name)
        # TF 1.15's concat, op for op: TF 2's asks size() for the static shape (TF 1.15's size() op, above)
        value, _ = _tf("ops.gen_data_flow_ops").tensor_array_concat_v3(
            handle=self._handle,
            flow_in=self._flow,
            dtype=self._dtype,
            name=name,
            element_shape_except0=self.element_shape[1:],
        )
        if self.element_shape:
            value.set_shape([None] + self.element_shape.dims[1:])
        return value

    concat.tf1_ops = original  # type: ignore[attr-defined]
    return concat


def _tf1_single_variable(original: Any) -> Any:
    signature = inspect.signature(original)

    @functools.wraps(original)
    def _get_single_variable(self: Any, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(self, *args, **kwargs)
        regularizer = bound.arguments.get("regularizer")
        if regularizer is None or not _tf1_graph():
            return original(self, *args, **kwargs)
        # TF 1.15 ran a variable's regularizer once, when it made the variable, and collected that loss; TF 2 runs it
        # once more to see whether it gives a loss, and collects a tensor that runs it again each time it is read
        name = bound.arguments["name"]
        made = name not in self._vars
        bound.arguments["regularizer"] = None
        variable = original(*bound.args, **bound.kwargs)
        if made:
            ops = _tf("framework.ops")
            with ops.colocate_with(variable):
                with ops.name_scope(name + "/Regularizer/"):
                    with ops.init_scope():
                        loss = regularizer(variable)
            if loss is not None:
                ops.add_to_collection(ops.GraphKeys.REGULARIZATION_LOSSES, loss)
        return variable

    _get_single_variable.tf1_ops = original  # type: ignore[attr-defined]
    return _get_single_variable


# Keras 2's, tf.data's and TensorArray's modules (tf-keras, Keras 2.15) -> [(class, method, the TF 1.15 version of
# the method)] (tf-slim's layers use TensorFlow's own internal Keras, tensorflow.python.keras, which has the same two)
_CLASSES = {
    **{
        f"{package}.src.layers.{module}": [(cls, method, make)]
        for package in ("tf_keras", "keras")
        for module, cls, method, make in (
            ("reshaping.flatten", "Flatten", "call", _tf1_flatten_call),
            ("convolutional.base_conv", "Conv", "build", _tf1_conv_build),
            ("convolutional.conv2d_transpose", "Conv2DTranspose", "call", _tf1_conv2d_transpose_call),
            ("normalization.batch_normalization", "BatchNormalizationBase", "_fused_batch_norm", _tf1_fused_batch_norm),
        )
    },
    "tensorflow.python.keras.layers.core": [("Flatten", "call", _tf1_flatten_call)],
    "tensorflow.python.keras.layers.convolutional": [
        ("Conv", "build", _tf1_conv_build),
        ("Conv2DTranspose", "call", _tf1_conv2d_transpose_call),
    ],
    "tensorflow.python.data.ops.readers": [("ParallelInterleaveDataset", "__init__", _tf1_parallel_interleave)],
    "tensorflow.python.data.ops.repeat_op": [("_RepeatDataset", "__init__", _tf1_repeat)],
    "tensorflow.python.data.experimental.ops.shuffle_ops": [
        ("_ShuffleAndRepeatDataset", "__init__", _tf1_shuffle_and_repeat),
    ],
    "tensorflow.python.data.ops.dataset_ops": [
        ("DatasetV1", "_make_initializable_iterator", _tf1_initializable_iterator),
    ],
    # a variable made with a regularizer (tf.get_variable, tf-slim's variables)
    "tensorflow.python.ops.variable_scope": [("_VariableStore", "_get_single_variable", _tf1_single_variable)],
    # the v1 control flow's TensorArray (uai-run's TF1 face and uai-migrate's graph-mode output)
    **_graph_seed_columns.CLASSES,
    "tensorflow.python.ops.tensor_array_ops": [
        ("_GraphTensorArray", "size", _tf1_tensor_array_size),
        ("_GraphTensorArray", "concat", _tf1_tensor_array_concat),
    ],
}


def _install_methods() -> None:
    for name, methods in _CLASSES.items():
        for cls_name, method, make in methods:
            cls = getattr(sys.modules.get(name), cls_name, None)
            current = getattr(cls, method, None) if cls is not None else None
            if current is not None and not hasattr(current, "tf1_ops"):
                setattr(cls, method, make(current))


def _install_loaded() -> None:
    module = sys.modules.get(_RANDOM_SEED)
    current = getattr(module, "_graph_to_seed_dict", None)
    if current is None or getattr(current, "tf1_op_seeds", False):
        return
    replacement = _TF1OpSeeds()
    replacement.update(current)
    module._graph_to_seed_dict = replacement  # type: ignore[union-attr]


def tf1_op_seeds() -> None:
    """Give graph-mode random ops TF 1.x's op seeds from the graph seed, now or when TensorFlow is imported."""
    from compat import _graph_seed_inputs, _import_hook  # the input pipeline's builders (built on this module)

    _install_loaded()
    _import_hook.on_import(_RANDOM_SEED, after=_install_loaded)
    # the builders once TensorFlow's API modules, which bind random_uniform too, are all loaded
    for install in (_install_builders, _graph_seed_inputs.install, _graph_seed_columns.install):
        if "tensorflow" in sys.modules:
            install()
        _import_hook.on_import("tensorflow", after=install)
    _install_methods()
    for name in _CLASSES:
        _import_hook.on_import(name, after=_install_methods)
