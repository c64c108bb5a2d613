"""`tf.io.write_graph(..., as_text=True)` on TensorFlow releases that pass protobuf an argument it removed.

TF 2.20 (and the releases before it) writes a text GraphDef with
`text_format.MessageToString(graph_def, float_format='')`. protobuf 7.34 removed `float_format`, and
TF 2.20 asks for protobuf >= 5.28 with no upper bound, so pip installs 7.x beside it: every text
`write_graph` raised TypeError, among them the Estimator's, which writes graph.pbtxt when training
starts. TF 2.21 calls `MessageToString(graph_def)`. Where protobuf has no
`float_format`, TensorFlow's `graph_io` module gets a `text_format` whose `MessageToString` leaves it
out: the text TF 2.21 writes, which parses back to the same GraphDef.
"""

import importlib
import inspect
import sys
import types
from typing import Any

_GRAPH_IO = "tensorflow.python.framework.graph_io"


class TextFormat(types.ModuleType):
    """google.protobuf.text_format, but `MessageToString` drops the `float_format` protobuf >= 7 refuses."""

    def __init__(self, real: types.ModuleType) -> None:
        super().__init__(real.__name__, real.__doc__)
        self.real = real

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def MessageToString(self, message: Any, *args: Any, float_format: str | None = None, **kwargs: Any) -> str:  # noqa: N802 (protobuf's name)
        return self.real.MessageToString(message, *args, **kwargs)


def _takes_float_format(text_format: types.ModuleType) -> bool:
    try:
        return "float_format" in inspect.signature(text_format.MessageToString).parameters
    except (TypeError, ValueError):  # no signature to read: leave it as it is
        return True


def install() -> None:
    """Give graph_io the text_format it can call, when protobuf lacks `float_format` (imports TensorFlow)."""
    graph_io = importlib.import_module(_GRAPH_IO)
    text_format = getattr(graph_io, "text_format", None)
    if isinstance(text_format, types.ModuleType) and not isinstance(text_format, TextFormat):
        if not _takes_float_format(text_format):
            graph_io.text_format = TextFormat(text_format)  # type: ignore[attr-defined]


def watch() -> None:
    """Install once TensorFlow is imported, at once if it already is; never imports it itself."""
    from compat import _import_hook

    if "tensorflow" in sys.modules:
        install()
    _import_hook.on_import("tensorflow", after=install)
