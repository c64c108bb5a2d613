"""native-image: TF1's `tf.image.resize_images(image, size)` of an image decoded in place, to a literal size -> the
ResizeBilinear op it runs (--level native).

The safe level keeps it as tf.compat.v1.image.resize_images. With its defaults it runs the ResizeBilinear op
without half-pixel centres (align_corners and half_pixel_centers False) on the image made a batch of one, and
takes the one image back; TF 2's tf.image.resize samples at half-pixel centres, other pixels. So the call becomes
`tf.raw_ops.ResizeBilinear(images=tf.expand_dims(image, 0), size=size)[0]`, the same op on the same batch (as
native-session writes it in a Session script's input function: codemods/rules/_native_pipeline.py), in any
file (an Estimator's input_fn, graph code, a library) where the call runs in a graph: in a function a dataset maps
(tf.data traces it) or in a program that turns eager execution off. There a decoded image's size is never known, so
TF1 always resized it (eagerly it returned an image already of the size as it was, its dtype kept). Only
where the image's rank is known to be 3 (a decode_jpeg/png/bmp call in place, or a name the statement
just before binds to one: the rank-4 path of resize_images differs) and the size a literal pair; a method, align_corners or preserve_aspect_ratio is left,
with an info entry. A Session script native-session converts is its business: this rule runs after it.
"""

from __future__ import annotations

from typing import cast

import libcst as cst

from codemods.rule_description import Example
from codemods.rules import _tf
from codemods.rules._native_eager import EagerRewrite, is_main_guard
from codemods.rules._native_pipeline import DECODERS, MAPPING, resize
from codemods.rules._native_syntax import Refused, assigned, collect, single

_RESIZE = frozenset(f"tensorflow.{p}image.resize_images" for p in ("", "compat.v1."))


class NativeImageRule(EagerRewrite):
    ID = "native-image"
    DESCRIPTION = (
        "tf.image.resize_images(decoded image, [h, w]) -> tf.raw_ops.ResizeBilinear, the op it runs "
        "(TF 2's tf.image.resize samples other pixels)."
    )
    LEVEL = "native"
    ORDER = 192  # after native-session, which converts the resizes of a Session script's input function itself
    GRAPH = True  # the same op in any graph, in a program or a library (it proves the call runs in one)
    EXAMPLE = Example(
        "TF1's tf.image.resize_images lives on in TF 2 only as tf.compat.v1.image.resize_images; TF 2's "
        "tf.image.resize samples at half-pixel centres, so it computes other pixels. With its defaults, on one "
        "image, resize_images runs the ResizeBilinear op without half-pixel centres on the image made a batch of "
        "one: the call becomes that op, in any file, where it runs in a graph: in a function a dataset maps (tf.data "
        "traces it), or in a program that turns eager execution off. Only for an image decoded in place (decode_jpeg, "
        "decode_png, decode_bmp: rank 3; or a name the statement just before binds to one) and a literal pair of "
        "sizes. What may change: nothing in the pixels or their dtype (in a graph a decoded image's size is not "
        "known, so TF1 always resized it to float32; eagerly it returned an image already of the size as it was, "
        "which is why a call that may run eagerly is left); the op's name in the graph (resize_images' name scope is "
        "gone).",
        "import tensorflow as tf\n\n"
        "def parse(raw):\n"
        "    return tf.image.resize_images(tf.image.decode_jpeg(raw, 3), [32, 32])\n\n"
        'images = tf.data.TFRecordDataset("train.tfrecord").map(parse)\n',
        "import tensorflow as tf\n\n"
        "def parse(raw):\n"
        "    return tf.raw_ops.ResizeBilinear(images=tf.expand_dims(tf.image.decode_jpeg(raw, 3), 0), size=[32, 32])[0]\n\n"
        'images = tf.data.TFRecordDataset("train.tfrecord").map(parse)\n',
    )
    CLAIMS = ()  # it rewrites the safe pass's result (tf.compat.v1.image.resize_images), which tf1-api writes
    WORDS = frozenset()  # it acts on TensorFlow's names only

    def candidate(self, names: frozenset[str]) -> str | None:
        return "tf.image.resize_images" if names & _RESIZE else None

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        self._ported = updated_node  # (with the safe pass's graph-mode switches, which a TF1 program did not need)
        return super().leave_Module(original_node, updated_node)

    def convert(
        self, call: cst.Call, what: str, updated: cst.Call, module: cst.Module, parent: dict[int, cst.CSTNode]
    ) -> tuple[cst.BaseExpression | None, str]:
        alias = _tf.tf_alias(self, call.func)
        written = resize(updated, alias, call, _decoded_before(call, parent, alias))
        if not _in_a_graph(call, parent, module, self._ported):
            raise Refused(
                call, "it may run eagerly, where TF1 returned an image already of the size as it was (its dtype kept)"
            )
        return written, f"{what} -> tf.raw_ops.ResizeBilinear, the op it runs on the image made a batch of one"


def _decoded_before(call: cst.Call, parent: dict[int, cst.CSTNode], alias: str) -> str | None:
    """The name the call resizes, if the statement just before the call's binds it to a decoded image (so it holds
    one there: `image = tf.image.decode_jpeg(...)` then `image = tf.image.resize_images(image, size)`)."""
    image = call.args[0].value if call.args and call.args[0].keyword is None else None
    line: cst.CSTNode | None = call
    while line is not None and not isinstance(line, cst.SimpleStatementLine):
        line = parent.get(id(line))
    block = parent.get(id(line)) if line is not None else None
    body = list(block.body) if isinstance(block, (cst.IndentedBlock, cst.Module)) else []
    index = next((i for i, stmt in enumerate(body) if stmt is line), 0)
    if not isinstance(image, cst.Name) or index == 0:
        return None
    name, value = assigned(single(body[index - 1]))
    decoders = {f"{alias}.{d}" for d in DECODERS}
    decoded = isinstance(value, cst.Call) and _tf.full_name(value.func) in decoders
    return image.value if decoded and name == image.value else None


_SWITCHES = ("disable_eager_execution", "disable_v2_behavior")


def _in_a_graph(call: cst.Call, parent: dict[int, cst.CSTNode], module: cst.Module, ported: cst.Module) -> bool:
    """Does the call run in a graph, where a decoded image's size is never known (so TF1 resized it): in a function
    a dataset maps (tf.data traces it), or in a program that turns eager execution off (a statement of the module
    or of its main block, as `ported`, the pass's result, has it)? Eagerly, TF1 returned an image already of the
    size as it was."""
    node = parent.get(id(call))
    while node is not None and not isinstance(node, cst.FunctionDef):
        node = parent.get(id(node))
    mapped = set()
    for found in collect(module, cst.Call):
        method = found.func.attr.value if isinstance(found.func, cst.Attribute) else ""
        for index, arg in enumerate(found.args if method in MAPPING else ()):
            if isinstance(arg.value, cst.Name) and (
                arg.keyword is None and index == 0 or _keyword(arg) == MAPPING[method]
            ):
                mapped.add(arg.value.value)
    if isinstance(node, cst.FunctionDef) and node.name.value in mapped:
        return True
    guards = [stmt for stmt in ported.body if is_main_guard(stmt)]
    statements = [*ported.body, *(s for g in guards for s in cast(cst.If, g).body.body)]
    return any(
        isinstance(stmt, cst.SimpleStatementLine)
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, cst.Call)
        and _tf.full_name(stmt.body[0].value.func).endswith(_SWITCHES)
        for stmt in statements
    )


def _keyword(arg: cst.Arg) -> str:
    return arg.keyword.value if arg.keyword is not None else ""
