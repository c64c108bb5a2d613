"""TF1 names -> their TF2 home or `tf.compat.v1.*`, from the table derived from the installed TensorFlow.

`tf.log` -> `tf.math.log` (the very same object in TF2), `tf.Session` -> `tf.compat.v1.Session`
(TF1 only), `tf.data.TFRecordDataset` -> `tf.compat.v1.data.TFRecordDataset` (a class whose TF2
namesake behaves differently, e.g. no `make_one_shot_iterator`), `tf.argmax(x, dimension=1)` ->
`tf.compat.v1.argmax(...)` (a call TF2's function would read differently). Hand-written on top:
the semantic changes of TF2 that have a faithful rewrite (`tf.to_float(x)` -> `tf.cast(x, tf.float32)`,
`keep_dims=` -> `keepdims=`, `reduction_indices=` -> `axis=`, dropout's `keep_prob=k` -> `rate=1 - k`).
The user's alias stays (`tensorflow.Session` stays `tensorflow.compat.v1.Session`).
"""

import libcst as cst

from codemods.engine.rule import Rule
from codemods.engine.syntax import InnerDecides, InsideImport, OutermostChain
from codemods.rules import _tf

CASTS = {
    "to_float": "float32",
    "to_double": "float64",
    "to_int32": "int32",
    "to_int64": "int64",
    "to_bfloat16": "bfloat16",
    "to_complex64": "complex64",
    "to_complex128": "complex128",
}
# TF1 keyword -> its TF2 name, applied when the TF2 function has the new name and not the old one
KEYWORDS = {
    "keep_dims": "keepdims",
    "reduction_indices": "axis",
    "dim": "axis",
    "dimension": "axis",
    "squeeze_dims": "axis",
}
# TF 0.12 arguments TF 1.x no longer takes and ignored before: dropped, with an entry.
DROPPED_KEYWORDS = {"train.SyncReplicasOptimizer": ("replica_id",)}
# Needs legacy Keras on TF 2.21 (`import compat`): tf.compat.v1.layers and rnn cells are tf-keras.
NEEDS_COMPAT = ("layers", "nn.rnn_cell", "keras")


def _names_in(target):
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for element in target.elements for n in _names_in(element.value)]
    return []


def _keyword(arg):
    return arg.keyword.value if arg.keyword is not None else None


def _one_minus(value):
    if not isinstance(value, (cst.Name, cst.Attribute, cst.Integer, cst.Float, cst.Call, cst.Subscript)):
        value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.BinaryOperation(left=cst.Integer("1"), operator=cst.Subtract(), right=value)


def compatible(args, params):
    """Does the TF2 function read these call arguments as the TF1 one did?"""
    positional = [a for a in args if a.keyword is None]
    if any(a.star for a in args):
        return False
    n = len(positional)
    if params["v1"][:n] != params["v2"][:n]:
        return False
    names = params["v2_names"]
    given = {*params["v2"][:n], *(_keyword(a) for a in args if a.keyword is not None)}
    if any(name not in given for name in params.get("v2_required", ())):
        return False  # `tf.image.draw_bounding_boxes(images, boxes)`: TF2's needs `colors` too
    return all(_keyword(a) in names or "**" in names for a in args if a.keyword is not None)


class Tf1ApiRule(InnerDecides, OutermostChain, InsideImport, Rule):
    ID = "tf1-api"
    DESCRIPTION = "TF1 symbols -> TF2 home or tf.compat.v1 (table derived from TensorFlow), TF2 semantic changes."

    def begin_file(self, state):
        super().begin_file(state)
        self._api = _tf.api()
        self._called = set()
        self._rebound = set()  # (name, top-level statement) reported

    def visit_Call(self, node):
        self._called.add(id(node.func))

    # -- a `tf` re-bound to something else: later module-level uses are not TensorFlow (codemods/engine/names.py)
    def _rebinds(self, node, names):
        for name in names:
            if (name, self.state.top) not in self._rebound and self.state.table.ends_tensorflow(name, self.state.top):
                self._rebound.add((name, self.state.top))
                self.report(
                    node,
                    f"`{name}` re-bound from TensorFlow to something else: its later uses are left as they are",
                    severity="warning",
                    manual=f"check that the uses of `{name}` after this line are not TensorFlow",
                )

    def visit_Assign(self, node):
        self._rebinds(node, [n.value for t in node.targets for n in _names_in(t.target)])

    def visit_Del(self, node):
        self._rebinds(node, [n.value for n in _names_in(node.target)])

    def visit_Import(self, node):
        super().visit_Import(node)
        self._rebinds(node, [a.evaluated_alias or a.evaluated_name.split(".")[0] for a in node.names])

    # -- which TF name, where it goes
    def _path(self, node):
        for qualified in self.qualified_names(node):
            path = _tf.tf_path(qualified)
            if path and not path.startswith(("compat.", "python.")) and not _tf.claimed_by_others(self, qualified):
                return path
        return None

    def leave_Attribute(self, original_node, updated_node):
        if self.in_import:
            return updated_node
        if self.decided(original_node):
            return updated_node
        path = self._path(original_node)
        if path in self._api["v1_only_modules"] and not self.outermost(original_node):
            return updated_node  # `tf.app.flags.X`: decided for the whole chain (another rule may claim it)
        if path in CASTS and id(original_node) in self._called:
            return updated_node  # leave_Call turns it into tf.cast
        new_path = target(self._api, path) if path else None
        if new_path is None:
            return updated_node
        self.rewritten(original_node)
        return rename(self, original_node, path, new_path)

    # -- calls: semantic changes, and TF1 calls a TF2 namesake would read differently
    def leave_Call(self, original_node, updated_node):
        path = self._path(original_node.func)
        if path is None:
            return updated_node
        return rewrite_call(self, original_node, updated_node, path)

    def _star(self, original_node, updated_node):
        """`from tensorflow import *` bound TF1's names: tf.compat.v1 is that API on TF2 (its names are
        not checked one by one, so the entry says so)."""
        if _tf.full_name(original_node.module) != _tf.TF:
            return updated_node
        _tf.ensure_compat(self)  # tf.compat.v1's layers and rnn cells need legacy Keras
        self.report(
            original_node,
            "from tensorflow import * -> from tensorflow.compat.v1 import * (TF1's names)",
            severity="warning",
            manual="import tensorflow as tf and write the names as tf.<name>, so uai-migrate can check each",
        )
        return updated_node.with_changes(module=_tf.dotted("tensorflow.compat.v1"))

    # -- `from tensorflow import Session` -> `from tensorflow.compat.v1 import Session`
    def leave_ImportFrom(self, original_node, updated_node):
        updated_node = super().leave_ImportFrom(original_node, updated_node)
        if original_node.relative or original_node.module is None:
            return updated_node
        if isinstance(original_node.names, cst.ImportStar):
            return self._star(original_node, updated_node)
        module = _tf.full_name(original_node.module)
        if module != _tf.TF and not module.startswith(_tf.TF + "."):
            return updated_node
        base = module[len(_tf.TF) + 1 :]
        if base.startswith(("compat", "python", "contrib", "estimator")):
            return updated_node
        moving = []
        for alias in original_node.names:
            path = f"{base}.{_tf.full_name(alias.name)}".lstrip(".")
            qualified = f"{_tf.TF}.{path}"
            if _tf.claimed_by_others(self, qualified):
                continue
            if target(self._api, path) is not None or path in self._api["differs"]:
                moving.append(path)
        if not moving:
            return updated_node
        if len(moving) != len(original_node.names):
            self.report(
                original_node,
                f"from {module} import ... mixes TF1-only names ({', '.join(moving)}) with TF2 ones",
                severity="warning",
                manual=f"import {', '.join(moving)} from tensorflow.compat.v1{'.' + base if base else ''} instead",
            )
            return updated_node
        if any(p.startswith(NEEDS_COMPAT) for p in moving):
            _tf.ensure_compat(self)
        new_module = "tensorflow.compat.v1" + (f".{base}" if base else "")
        self.report(original_node, f"from {module} import {', '.join(moving)} -> from {new_module}")
        return updated_node.with_changes(module=_tf.dotted(new_module))


def target(api, path: str) -> str | None:
    """The new path (relative to `tensorflow`) for a TF1 name, or None to keep it (or decide per call)."""
    if path in api["moved"]:
        new = api["moved"][path]
        # TF1 code spells that TF2 home as another class (or a summary op): a second run would move
        # it again, so the TF1 name stays, under compat.v1 (the very same object). Functions: rewrite_call.
        return "compat.v1." + path if new in api["differs"] and api["differs"][new] is None else new
    if path in api["v1_only"] or (path in api["differs"] and api["differs"][path] is None):
        return "compat.v1." + path
    return None


def rename(rule: Rule, original: cst.BaseExpression, path: str, new_path: str) -> cst.BaseExpression:
    if new_path.startswith("compat.v1.") and path.startswith(NEEDS_COMPAT):
        _tf.ensure_compat(rule)
    alias = _tf.tf_alias(rule, original)
    rule.report(original, f"tf.{path} -> tf.{new_path}")
    return _tf.dotted(f"{alias}.{new_path}")


def rewrite_call(rule: Rule, original_node: cst.Call, updated_node: cst.Call, path: str) -> cst.Call:
    """A call of the TF1 function `tf.<path>` as TF2 reads it: tf.cast for the casts, TF2 keywords,
    dropout's rate, or `tf.compat.v1.<path>` when TF2's function would read the arguments otherwise."""
    api = _tf.api()
    dropped = [a for a in updated_node.args if _keyword(a) in DROPPED_KEYWORDS.get(path, ())]
    if dropped:
        rule.report(
            original_node,
            f"tf.{path}: {', '.join(_keyword(a) + '=' for a in dropped)} dropped "
            "(TF 0.12's argument, ignored since TF 1.0)",
        )
        args = [a for a in updated_node.args if a not in dropped]
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        updated_node = updated_node.with_changes(args=args)
    if path in CASTS and updated_node.args:
        alias = _tf.tf_alias(rule, original_node.func)
        dtype = cst.Arg(_tf.dotted(f"{alias}.{CASTS[path]}"))
        first = updated_node.args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        args = [first.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))), dtype]
        if len(updated_node.args) > 1:
            args[-1] = dtype.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            args.extend(updated_node.args[1:])
        rule.report(original_node, f"tf.{path}(x) -> tf.cast(x, tf.{CASTS[path]})")
        return updated_node.with_changes(func=_tf.dotted(f"{alias}.cast"), args=args)
    # a moved function is judged as its new name will be by a second run (`tf.diag_part(x, k)` is
    # `tf.linalg.tensor_diag_part(x, k)` then, which TF1 code reads with tf.compat.v1's parameters)
    params = api["differs"].get(api["moved"].get(path, path))
    if not params:
        return updated_node
    args = list(updated_node.args)
    for index, arg in enumerate(args):
        new = KEYWORDS.get(_keyword(arg))
        if new and new in params["v2_names"] and _keyword(arg) not in params["v2_names"]:
            args[index] = arg.with_changes(keyword=cst.Name(new))
            rule.report(original_node, f"tf.{path}: {_keyword(arg)}= -> {new}=")
    if path == "nn.dropout":
        args = _dropout(rule, original_node, args)
    updated_node = updated_node.with_changes(args=args)
    if compatible(args, params):
        return updated_node
    return updated_node.with_changes(func=rename(rule, original_node.func, path, "compat.v1." + path))


def _dropout(rule, node, args):
    keep = [i for i, a in enumerate(args) if _keyword(a) == "keep_prob"]
    if not keep and len(args) > 1 and args[1].keyword is None:
        keep = [1]
    if not keep:
        return args
    i = keep[0]
    arg = args[i]
    args[i] = arg.with_changes(
        keyword=cst.Name("rate"),
        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
        value=_one_minus(arg.value),
    )
    if i == 1 and arg.keyword is None:
        # later positional arguments would now come after a keyword: name them
        v1 = _tf.api()["differs"]["nn.dropout"]["v1"]
        for j in range(2, len(args)):
            if args[j].keyword is None:
                args[j] = args[j].with_changes(
                    keyword=cst.Name(v1[j]),
                    equal=cst.AssignEqual(
                        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
                    ),
                )
    rule.report(node, "tf.nn.dropout: keep_prob=k -> rate=1 - k")
    return args
