"""TF 1.x's op seeds through an input pipeline's builders: parsing, image decoding and the ops around them.

compat/_graph_seed.py gives a random op the graph's op count as its op seed, TF 1.15's, which is only
TF 1.15's number if the graph holds as many ops as 1.15's did. tf-slim's data path (DatasetDataProvider,
TFExampleDecoder and its handlers) and the research/slim preprocessing after it build other ops on TF 2:
measured op by op on the graph of tests/common/tf1_programs/slim_classifier_tf14 (1.15's graph.pbtxt against
TF 2.15's and 2.21's), 64 ops fewer on TF 2 before conv1's initializer (op seed 240 against 304), and on
each builder alone and in a v1 cond branch (tests/common/tf1_programs/data_path_op_seeds.py, golden
tests/common/golden/tf115_data_path_op_seeds.json). Per builder, in graph mode:

Counted (TF 2's ops are kept and the graph's op count takes TF 1.15's number, `_graph_seed_ops.count_tf1_ops`):
where 1.15 built other ops, or other kernels, that give the same values, so building them again would
only change what runs.
  - `parse_single_example`: 1.15 made one ParseSingleExample op (its keys attributes) and each dense
    feature's default: nothing for a tensor (a reshape of it, 2 ops, if its first dimension is unknown),
    a constant if none, a constant and a reshape with its shape if a value (3). TF 2 parses with
    ParseExampleV2 on the record made a batch of one (4 ops more with research/slim's 5 features), and
    asserts that a record of unknown rank, as a queue dequeues it, is a scalar (7 more): 20 ops against
    9 in the program.
  - `parse_example`: 1.15's ParseExample took each key as a constant of its own and the example names
    as one, TF 2's ParseExampleV2 each list as one constant: 18 ops against 16 with research/slim's
    features (5 dense), 9 against 10 with one sparse and one dense feature.
  - `decode_image`: 1.15 picked the decoder with v1 conds over the header (is_jpeg, is_png, is_gif, else
    BMP, with asserts on the channels and a dtype conversion in each branch): 76 ops for uint8 (82 for
    uint16, 84 for float32; 3 more without expanding animations); TF 2 decodes with one DecodeImage op,
    through the same decoders. tf-slim's `tfexample_decoder.Image` decodes with it.
  - `one_hot` with its on or off value a Python number (tf-slim's `one_hot_encoding`): 1.15 converted
    each once more to read its dtype, unused (1 op each).
Built (TF 1.15's ops, where the op is a constant's type or the tensor returned):
  - `reshape` to an empty shape (`()`, `[]`: tf-slim reshapes every scalar feature so): TF 2's op builder
    converts the Python value as float32 first, then drops that constant for an int32 one (1 op more);
    given an int32 array it makes only that one, as 1.15 did.
  - `per_image_standardization` of a float32 image: 1.15 returned its result through
    `convert_image_dtype(..., float32)`, an Identity (1 op).
Left as TF 2 builds them: `SparseFeature` and `RaggedFeature`, and `example_names` given to
`parse_single_example` (1.15's other path), not measured; `per_image_standardization` of other
dtypes, whose result TF 2 changed, not only its ops. `decode_jpeg`, `decode_png`, `is_jpeg` and the
random image ops (crop, flips, brightness, contrast) build the same ops on both.
"""

import functools
import inspect
import sys
import threading
from collections.abc import Callable
from typing import Any

from compat._graph_seed_ops import _is_tensor, _rebind, _tf, _tf1_graph, count_tf1_ops

# TF 1.15's decode_image: its ops for a uint8 image, more for the dtype's conversions, more without animations
_TF1_DECODE_IMAGE_OPS = 76
_TF1_DECODE_IMAGE_DTYPE_OPS = {"uint8": 0, "uint16": 6, "float32": 8}
_TF1_DECODE_IMAGE_FIRST_FRAME_OPS = 3


class _Depth(threading.local):
    calls = 0  # counted builders running in this thread: the outer one counts what the inner ones build


_COUNTING = _Depth()


def _counted(original: Any, tf1_ops: Callable[[dict[str, Any], int], int | None]) -> Any:
    """`original` in graph mode counting as many ops as TF 1.15's built: `tf1_ops(arguments, built)`, given the
    call's arguments by name and the ops TF 2's built, is their number (None: not measured, TF 2's count stays).
    Neither counts the ops a v1 cond or loop around the call adds to bring the call's inputs in: both made those."""
    signature = inspect.signature(original)

    @functools.wraps(original)
    def builder(*args: Any, **kwargs: Any) -> Any:
        if _COUNTING.calls or not _tf1_graph():
            return original(*args, **kwargs)
        graph = _tf("framework.ops").get_default_graph()
        before, in_context = graph.version, graph._get_control_flow_context() is not None
        operations = len(graph.get_operations()) if in_context else 0
        _COUNTING.calls += 1
        try:
            result = original(*args, **kwargs)
        finally:
            _COUNTING.calls -= 1
        arguments = signature.bind(*args, **kwargs)
        arguments.apply_defaults()
        built = graph.version - before - (_inputs_brought_in(graph.get_operations()[operations:]) if in_context else 0)
        tf1 = tf1_ops(arguments.arguments, built)
        if tf1 is not None:
            count_tf1_ops(graph, tf1 - built)
        return result

    builder.tf1_ops = original  # type: ignore[attr-defined]
    return builder


def _inputs_brought_in(built: list[Any]) -> int:
    """How many of the ops `built` bring a tensor made before them into a v1 cond branch or loop (Switch, Enter)."""
    names = {op.name for op in built}
    entries = ("Switch", "RefSwitch", "Enter", "RefEnter")
    return sum(op.type in entries and op.inputs[0].op.name not in names for op in built)


def _tf1_parsing_ops(features: Any, serialized: Any) -> int | None:
    """The ops TF 1.15's parsing built for `features` beyond its parsing op and keys: converting `serialized`,
    and each dense feature's default (`_process_raw_parameters`); None for features it was not measured with."""
    config = _tf("ops.parsing_config")
    dense = (config.FixedLenFeature, config.FixedLenSequenceFeature)
    if not isinstance(features, dict) or not all(
        isinstance(f, (*dense, config.VarLenFeature)) for f in features.values()
    ):
        return None
    ops = 0 if _is_tensor(serialized) else 1
    for feature in features.values():
        if isinstance(feature, config.VarLenFeature):
            continue
        variable_stride = isinstance(feature, config.FixedLenSequenceFeature)  # 1.15 prepended a None dimension
        if feature.default_value is None:
            ops += 1  # an empty constant, or the padding value's
        elif not _is_tensor(feature.default_value):
            ops += 3  # the value, and a reshape of it with its shape constant
        elif variable_stride:
            ops += 2  # a reshape of the tensor to a scalar
    return ops


def _tf1_parse_single_example_ops(arguments: dict[str, Any], built: int) -> int | None:
    if arguments["example_names"] is not None:
        return None
    defaults = _tf1_parsing_ops(arguments["features"], arguments["serialized"])
    return None if defaults is None else defaults + 1  # ParseSingleExample


def _tf1_parse_example_ops(arguments: dict[str, Any], built: int) -> int | None:
    defaults = _tf1_parsing_ops(arguments["features"], arguments["serialized"])
    if defaults is None:
        return None
    names = 0 if _is_tensor(arguments["example_names"]) else 1  # `[]` when not given
    return defaults + 1 + names + len(arguments["features"])  # ParseExample, the names, a constant per key


def _tf1_decode_image_ops(arguments: dict[str, Any], built: int) -> int | None:
    dtype = _tf("framework.dtypes").as_dtype(arguments["dtype"]).name
    if dtype not in _TF1_DECODE_IMAGE_DTYPE_OPS or not _is_tensor(arguments["contents"]):
        return None  # 1.15 converted Python bytes once per use
    first_frame = not arguments["expand_animations"]
    return _TF1_DECODE_IMAGE_OPS + _TF1_DECODE_IMAGE_DTYPE_OPS[dtype] + _TF1_DECODE_IMAGE_FIRST_FRAME_OPS * first_frame


def _tf1_one_hot_ops(arguments: dict[str, Any], built: int) -> int:
    values = (arguments["on_value"], arguments["off_value"])
    return built + sum(value is not None and not _is_tensor(value) for value in values)


def _tf1_reshape(original: Any) -> Any:
    @functools.wraps(original)
    def reshape(tensor: Any, shape: Any, name: str | None = None) -> Any:
        if isinstance(shape, (list, tuple)) and not shape and _tf1_graph():
            shape = sys.modules["numpy"].zeros([0], "int32")  # the one int32 constant TF 1.15 made
        return original(tensor, shape, name=name)

    reshape.tf1_ops = original  # type: ignore[attr-defined]
    return reshape


def _tf1_per_image_standardization(original: Any) -> Any:
    @functools.wraps(original)
    def per_image_standardization(image: Any) -> Any:
        result = original(image)
        if getattr(image, "dtype", None) != _tf("framework.dtypes").float32 or not _tf1_graph():
            return result
        # TF 1.15's last step, `convert_image_dtype(result, float32)`: an Identity in the op's name scope
        with _tf("framework.ops").name_scope(result.op.name + "/"):
            return _tf("ops.array_ops").identity(result)

    per_image_standardization.tf1_ops = original  # type: ignore[attr-defined]
    return per_image_standardization


def install() -> None:
    """Replace the builders everywhere TensorFlow binds them (once its API modules are loaded)."""
    parsing_ops = sys.modules.get("tensorflow.python.ops.parsing_ops")
    if parsing_ops is None or hasattr(parsing_ops.parse_example_v2, "tf1_ops"):
        return
    image_ops, array_ops = _tf("ops.image_ops_impl"), _tf("ops.array_ops")
    # the v1 functions (tf.compat.v1.parse_single_example ...) call these through the module
    _rebind(
        parsing_ops.parse_single_example_v2,
        _counted(parsing_ops.parse_single_example_v2, _tf1_parse_single_example_ops),
    )
    _rebind(parsing_ops.parse_example_v2, _counted(parsing_ops.parse_example_v2, _tf1_parse_example_ops))
    _rebind(image_ops.decode_image, _counted(image_ops.decode_image, _tf1_decode_image_ops))
    _rebind(array_ops.one_hot, _counted(array_ops.one_hot, _tf1_one_hot_ops))
    _rebind(array_ops.reshape, _tf1_reshape(array_ops.reshape))
    _rebind(image_ops.per_image_standardization, _tf1_per_image_standardization(image_ops.per_image_standardization))
