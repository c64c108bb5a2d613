"""TF1 names -> their TF2 home or `tf.compat.v1.*`, from the table derived from the installed TensorFlow.

`tf.log` -> `tf.math.log` (the very same object in TF2), `tf.Session` -> `tf.compat.v1.Session`
(TF1 only), `tf.data.TFRecordDataset` -> `tf.compat.v1.data.TFRecordDataset` (a class whose TF2
namesake behaves differently, e.g. no `make_one_shot_iterator`), `tf.argmax(x, dimension=1)` ->
`tf.compat.v1.argmax(...)` (a call TF2's function would read differently). Hand-written on top:
the semantic changes of TF2 that have a faithful rewrite (`tf.to_float(x)` -> `tf.cast(x, tf.float32)`,
`keep_dims=` -> `keepdims=`, `reduction_indices=` -> `axis=`, dropout's `keep_prob=k` -> `rate=1 - k`).
The user's alias stays (`tensorflow.Session` stays `tensorflow.compat.v1.Session`).

A TF1 optimizer (`tf.compat.v1.train.*Optimizer`) in a file that uses tf.keras gets `import compat`:
Keras 3, tf.keras on TF >= 2.16, rejects it in `compile` ("Could not interpret optimizer identifier");
Keras 2, which compat selects, wraps it as TF1's tf.keras did.
"""

from typing import cast

import libcst as cst

from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import InnerDecides, InsideImport, OutermostChain
from codemods.rule_description import Example
from codemods.rules import _shared, _tf

_V1_TRAIN = (f"{_tf.TF}.train.", f"{_tf.TF}.compat.v1.train.")


def _is_v1_optimizer(qualified: str) -> bool:
    return any(
        qualified.startswith(home) and "." not in qualified[len(home) :] and qualified.endswith("Optimizer")
        for home in _V1_TRAIN
    )


def _narrowed_modules(api: dict) -> frozenset[str]:
    """TF1 modules TF 2 keeps at the same path with fewer names: one of their TF1 names is v1-only or moved
    (`train`: its optimizers). Read as a value (`dir(tf.train)`, `getattr(tf.train, name)`, an alias),
    TF1 code means TF1's namespace, `tf.compat.v1.<module>`."""
    return frozenset(name.rsplit(".", 1)[0] for name in [*api["v1_only"], *api["moved"]] if "." in name)


def _names_in(target: cst.BaseExpression) -> list[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for element in target.elements for n in _names_in(element.value)]
    return []


class Tf1ApiRule(InnerDecides, OutermostChain, InsideImport, Rule):
    ID = "tf1-api"
    DESCRIPTION = "TF1 symbols -> TF2 home or tf.compat.v1 (table derived from TensorFlow), TF2 semantic changes."
    ORDER = 160  # after the rules claiming particular tf.* names
    EXAMPLE = Example(
        why="TF1 symbols that TF2 moved or removed: their TF2 home, else tf.compat.v1 (the table is derived "
        "from the installed TensorFlow).",
        before="import tensorflow as tf\nloss = tf.losses.softmax_cross_entropy(labels, logits)\n",
        after="import tensorflow as tf\nloss = tf.compat.v1.losses.softmax_cross_entropy(labels, logits)\n",
    )

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._api = _tf.api()
        self._narrowed = _narrowed_modules(self._api)
        self._called: set[int] = set()
        self._rebound: set[tuple[str, int]] = set()  # (name, top-level statement) reported
        self._uses_keras = False
        self._optimizers: list[tuple[cst.CSTNode, int]] = []  # TF1 optimizers, at their top-level statement

    def visit_Call(self, node: cst.Call) -> None:
        self._called.add(id(node.func))

    # -- a `tf` re-bound to something else: later module-level uses are not TensorFlow (codemods/engine/names.py)
    def _rebinds(self, node: cst.CSTNode, names: list[str]) -> None:
        for name in names:
            if (name, self.state.top) not in self._rebound and self.state.table.ends_tensorflow(name, self.state.top):
                self._rebound.add((name, self.state.top))
                self.report(
                    node,
                    f"`{name}` re-bound from TensorFlow to something else: its later uses are left as they are",
                    severity="warning",
                    manual=f"check that the uses of `{name}` after this line are not TensorFlow",
                )

    def visit_Assign(self, node: cst.Assign) -> None:
        self._rebinds(node, [n.value for t in node.targets for n in _names_in(t.target)])

    def visit_Del(self, node: cst.Del) -> None:
        self._rebinds(node, [n.value for n in _names_in(node.target)])

    def visit_Import(self, node: cst.Import) -> None:
        super().visit_Import(node)
        self._uses_keras |= any(_tf.is_keras(_tf.full_name(a.name)) for a in node.names)
        self._rebinds(node, [a.evaluated_alias or a.evaluated_name.split(".")[0] for a in node.names])

    # -- which TF name, where it goes
    def _path(self, node: cst.BaseExpression) -> str | None:
        for qualified in self.qualified_names(node):
            path = _tf.tf_path(qualified)
            if path and not path.startswith(("compat.", "python.")) and not _tf.claimed_by_others(self, qualified):
                return path
        return None

    def _keras_and_optimizers(self, node: cst.Attribute) -> None:
        """Notes tf.keras uses and TF1 optimizers (their chains at the outermost name)."""
        names = self.qualified_names(node)
        self._uses_keras |= any(_tf.is_keras(q) for q in names)
        if any(_is_v1_optimizer(q) and not _tf.claimed_by_others(self, q) for q in names):
            self._optimizers.append((node, self.state.top))

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if self.in_import:
            return updated_node
        if self.outermost(original_node):
            self._keras_and_optimizers(original_node)
        if self.decided(original_node):
            return updated_node
        path = self._path(original_node)
        if path in self._api["v1_only_modules"] and not self.outermost(original_node):
            return updated_node  # `tf.app.flags.X`: decided for the whole chain (another rule may claim it)
        if path in _shared.CASTS and id(original_node) in self._called:
            return updated_node  # leave_Call turns it into tf.cast
        new_path = _shared.target(self._api, path) if path else None
        if new_path is None and path in self._narrowed and self.outermost(original_node):
            new_path = f"compat.v1.{path}"  # the module itself, read as a value: TF1's namespace
        if path is None or new_path is None:
            return updated_node
        self.rewritten(original_node)
        return _shared.rename(self, original_node, path, new_path)

    # -- calls: semantic changes, and TF1 calls a TF2 namesake would read differently
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        path = self._path(original_node.func)
        if path is None:
            return updated_node
        return _shared.rewrite_call(self, original_node, updated_node, path)

    def _star(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom) -> cst.ImportFrom:
        """`from tensorflow import *` bound TF1's names: tf.compat.v1 is that API on TF2 (its names are
        not checked one by one, so the entry says so)."""
        if _tf.full_name(cast(cst.CSTNode, original_node.module)) != _tf.TF:  # (a module's: not relative)
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
    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.FlattenSentinel[cst.BaseSmallStatement] | cst.RemovalSentinel:
        # (the mixins return the node itself)
        updated_node = cast(cst.ImportFrom, super().leave_ImportFrom(original_node, updated_node))
        if original_node.relative or original_node.module is None:
            return updated_node
        if isinstance(original_node.names, cst.ImportStar):
            return self._star(original_node, updated_node)
        module = _tf.full_name(original_node.module)
        self._uses_keras |= _tf.is_keras(module) or any(
            _tf.is_keras(f"{module}.{_tf.full_name(alias.name)}") for alias in original_node.names
        )
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
            if _shared.target(self._api, path) is not None or path in self._api["differs"]:
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
        if any(f"compat.v1.{p}".startswith(_shared.NEEDS_COMPAT) for p in moving):
            _tf.ensure_compat(self)
        new_module = "tensorflow.compat.v1" + (f".{base}" if base else "")
        self.report(original_node, f"from {module} import {', '.join(moving)} -> from {new_module}")
        return updated_node.with_changes(module=_tf.dotted(new_module))

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if self._uses_keras and self._optimizers:
            _tf.ensure_compat(self)
            for node, statement in self._optimizers:
                self.report(
                    node,
                    "TF1 optimizer in a file using tf.keras: `import compat` makes tf.keras Keras 2 on TF >= 2.16, "
                    "which takes it (Keras 3 rejects it in compile)",
                    statement=statement,
                )
        return updated_node
