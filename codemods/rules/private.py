"""Private `tensorflow.python.*` imports (device_setter, training_util, hooks ...) -> public TensorFlow or compat.

The public name of each object is looked up in the table derived from the installed TensorFlow
(`python -m codemods.tables.gen_tf_api`): `device_setter.replica_device_setter(...)` ->
`tf.compat.v1.train.replica_device_setter(...)`. The seeds' one private helper with a compat
equivalents are hand-written: `device_setter._RoundRobinStrategy(n)` -> `compat.devices.RoundRobin(range(n))`
(the same task indices in turn), `control_flow_ops.with_dependencies(...)` -> `compat.graph_ops.with_dependencies(...)`. A private name TF 2.x renamed gets its public twin under the new
name (`from tensorflow.python.util.nest import is_sequence` -> `from tensorflow.compat.v1.nest import
is_nested as is_sequence`). A private module this TensorFlow no longer ships
(`tensorflow.python.training.training_ops`) is an error entry at its import, where the file fails;
anything else private is an error entry too.

`tf2.enabled()` asks whether TF 2 behaviour is on: TF 1.x answered False, TF 2 answers True, and a
TF1-era library that asks builds another model in a port (tensor2tensor's common_layers.layers():
Keras layers instead of tf.layers, other numbers). Which answer is right is the program's: the one
it runs in. In a tree where a program that imports the module runs in TF 1's graph mode (graph-mode
wrote its switches, or they were there: codemods/engine/tree.py), the read becomes
`compat.graph_mode.tf2_enabled()`, which answers as TF 1.x did in a program running in TF 1's graph
mode (False) and as TF 2 does in any other (True), so every program importing the module gets its
own. A file migrated alone, or a tree with no such program, gets an error entry naming the call that
keeps TF 1's branch.
"""

from collections.abc import Sequence
from typing import Any, cast

import libcst as cst

from codemods.engine import tree
from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import InsideImport, OutermostChain, head, head_name
from codemods.rule_description import Example
from codemods.rules import _shared, _tf
from compat import tf1_names

PRIVATE = "tensorflow.python"
ROUND_ROBIN = "tensorflow.python.training.device_setter._RoundRobinStrategy"
# no public name; compat.graph_ops builds its ops through public ones (TF 1.4's slim train op)
WITH_DEPENDENCIES = "tensorflow.python.ops.control_flow_ops.with_dependencies"
HAND_WRITTEN = (ROUND_ROBIN, WITH_DEPENDENCIES)
MANUAL = (
    "tensorflow.python is TensorFlow's private implementation: use the public tf.* or tf.compat.v1.* name of {name}"
)
# TF 1.x answered False (v2 behaviour was opt-in), TF 2 True: a TF1-era library that asks builds another model
# in a port (tensor2tensor's common_layers.layers(): Keras layers, docs/traps.md). Which answer the port wants
# is the program's: a file alone does not show it, its tree may (the module docstring).
TF2_PROBE = "tensorflow.python.tf2.enabled"
TF2_PROBE_MESSAGE = (
    f"{TF2_PROBE}() asks whether TF 2 behaviour is on: TF 1.x answered False, TF 2 answers True, "
    "so this code takes its TF 2 branch here"
)
# what a program running in TF 1's graph mode asks instead (compat/graph_mode.py)
TF2_ANSWER = "compat.graph_mode.tf2_enabled"
TF2_PROBE_MANUAL = (
    "to take the branch TF 1.x took (and get its numbers), migrate this file in one run with the program that "
    "runs it (a program in TF 1's graph mode gets that answer), or call tf.compat.v1.disable_v2_behavior() first "
    "in that program; to keep the TF 2 branch, delete the check"
)
GONE = (
    "{module} is gone from TensorFlow 2.21: use the public tf.* or tf.compat.v1.* API for what it did "
    "(the raw ops of a private *_ops module are tf.raw_ops.*)"
)


# TF 1.x's private Keras: TF 2 keeps Keras in another package (tf_keras, keras), not in the TF core modules it split,
# so a name's public twins elsewhere say nothing of it (tensorflow.python.keras.optimizers.SGD is no TPU embedding SGD)
_OWN_PACKAGES = (f"{PRIVATE}.keras",)


def _looks_like_module(name: str) -> bool:
    """`tensorflow.python.ops.control_flow_ops`, not `...ops.Graph` (a class, whose attributes are no module's names),
    of TF's core (not TF 1.x's private Keras)."""
    return name.startswith(PRIVATE + ".") and name.islower() and not _tf.under(name, _OWN_PACKAGES)


class PrivateRule(OutermostChain, InsideImport, Rule):
    ID = "tf-private"
    DESCRIPTION = (
        "Private tensorflow.python.* imports -> public tf / tf.compat.v1 / compat names, else an error entry; "
        "tf2.enabled() read by a TF1 graph program of the tree -> compat.graph_mode.tf2_enabled()."
    )
    ORDER = 90
    EXAMPLE = Example(
        why="tensorflow.python.* moves between releases; the public names stay. tf2.enabled() answered False on "
        "TF 1.x: where a program of the tree runs in TF 1's graph mode, compat.graph_mode.tf2_enabled() answers as "
        "TF 1.x did there (and True elsewhere); anywhere else the read is an error entry naming the call that "
        "keeps TF 1's branch.",
        before="from tensorflow.python.ops import math_ops\ny = math_ops.add(1, 2)\n",
        after="import tensorflow as tf\n\ny = tf.add(1, 2)\n",
    )
    CLAIMS = (PRIVATE,)

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._api = _tf.api()
        self._private = self._api["private"]
        self._by_name = self._api["private_by_name"]
        self._modules = self._api["private_modules"]
        self._unconverted: set[str] = set()  # local names whose import must stay

    def _claimed(self, name: str) -> bool:
        return _tf.claimed_by_others(self, name)

    def _public(self, name: str) -> list[Any] | None:  # [public name, its tf.compat.v1 name or None]
        if name in self._modules:
            return None  # a module (`framework.function`): no object, public or not, has its name's meaning
        module, _, attr = name.rpartition(".")
        if module in self._private:
            found = self._private[module].get(attr)
        else:
            found = None
        if found is None and _looks_like_module(module):
            # TF 2.21 split some TF 1.x modules (`control_flow_ops.cond` is `cond.cond` now): a name every
            # private module that has it agrees on has that public name
            found = self._by_name.get(attr)
        return found

    def _gone(self, name: str) -> str | None:
        """The module in dotted private `name` that this TensorFlow does not ship (the import fails
        there), or None: a missing part below a package whose `__init__` binds no names of its own."""
        parts = name.split(".")
        for cut in range(3, len(parts) + 1):
            module = ".".join(parts[:cut])
            if module not in self._modules:
                parent = self._modules.get(".".join(parts[: cut - 1]))
                return module if parent == "package" else None
            if self._modules[module] == "module":
                return None  # what follows is an attribute, known only when it has a public twin
        return None

    # -- uses: module.attr
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if self.match(original_node.func, {ROUND_ROBIN}) and len(original_node.args) == 1:
            _tf.ensure_compat(self)
            self.add_needed_import("compat.devices")
            self.report(original_node, "device_setter._RoundRobinStrategy(n) -> compat.devices.RoundRobin(range(n))")
            self._drop_import(original_node.func)
            arg = cst.Arg(
                cst.Call(
                    func=cst.Name("range"), args=[original_node.args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)]
                )
            )
            return cst.Call(func=_tf.dotted("compat.devices.RoundRobin"), args=[arg])
        if self.match(original_node.func, {WITH_DEPENDENCIES}):
            _tf.ensure_compat(self)
            self.add_needed_import("compat.graph_ops")
            self.report(original_node, f"{WITH_DEPENDENCIES} -> compat.graph_ops.with_dependencies")
            self._drop_import(original_node.func)
            return updated_node.with_changes(func=_tf.dotted("compat.graph_ops.with_dependencies"))
        name = self.match_prefix(original_node.func, (PRIVATE,))
        public = self._public_path(name) if name and not self._claimed(name) else None
        if public and self._api["differs"].get(public):
            return _shared.rewrite_call(self, original_node, updated_node, public)  # as a second run would
        return updated_node

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if self.in_import or not self.outermost(original_node):
            return updated_node
        name = self.match_prefix(original_node, (PRIVATE,))
        if name is None or self._claimed(name) or name.startswith(HAND_WRITTEN):
            return updated_node
        if name == TF2_PROBE and self._tf1_program(original_node):
            self.add_needed_import("compat.graph_mode")
            self._drop_import(original_node)
            return _tf.dotted(TF2_ANSWER)
        public = self._public_path(name, written=True)
        if public is None:
            self._error(original_node, name)
            return updated_node
        if self._claimed(f"tensorflow.{public}"):
            # another rule ports that public name (tf.compat.v1.flags -> compat.flags): writing it here
            # would leave that rule's work to a second run, which must change nothing
            self._unconverted.add(head_name(original_node) or "")
            self.report(
                original_node,
                f"{name} is tf.{public}, which another rule ports",
                severity="error",
                manual=f"write tf.{public} for {name}, then run uai-migrate again",
            )
            return updated_node
        self.report(original_node, f"{name} -> tf.{public}")
        self._published(public)
        self._drop_import(original_node)
        return _tf.dotted(f"{_tf.tf_alias(self)}.{public}")

    def _tf1_program(self, node: cst.CSTNode) -> bool:
        """Does a program of the tree that runs this module run in TF 1's graph mode? Then a tf2.enabled()
        read becomes TF2_ANSWER (reported here)."""
        self.state.signals.add(tree.TF2_PROBE)
        program = self.state.tree.tf1_program if self.state.tree else None
        if program is None:
            return False
        _tf.ensure_compat(self)
        self.report(
            node,
            f"{TF2_PROBE}() -> {TF2_ANSWER}(): False where the program runs in TF 1's graph mode, as TF 1.x "
            f"answered ({program} of this tree does), True in any other, as TF 2 does",
        )
        return True

    def _published(self, public: str) -> None:
        """A name TF 2.16 made public is there on TF 2.15 once compat is imported (tf1_names.PUBLISHED)."""
        if public in tf1_names.PUBLISHED:
            _tf.ensure_compat(self)

    def _public_path(self, name: str, written: bool = False) -> str | None:
        """The public path of a private name (relative to `tensorflow`), None when it has none. `written`:
        its public prefix as the tf1-api rule writes `tf.<prefix>` of TF1 code, so a second run changes
        nothing (`device.DeviceSpec.from_string` -> `compat.v1.DeviceSpec.from_string`: TF1's class)."""
        parts = name.split(".")
        for cut in range(len(parts), 2, -1):  # the longest private prefix with a public name
            found = self._public(".".join(parts[:cut]))
            if found:
                prefix = (_shared.target(self._api, found[0]) or found[0]) if written else found[0]
                return ".".join([prefix, *parts[cut:]])
        return None

    def _drop_import(self, node: cst.BaseExpression) -> None:
        """Schedule the removal of the private import the chain `node` starts from (the engine removes
        it only once unused). The head's scope-resolved name, not the import table: the table leaves out
        a name also bound elsewhere (a def's local `device_setter`), which would keep a dead import."""
        bound = head_name(node)
        if bound is None or bound in self._unconverted:
            return
        for source in sorted(self.qualified_names(head(node))):
            if source.startswith(PRIVATE + "."):
                parent, _, obj = source.rpartition(".")
                self.remove_unused_import(parent, obj, bound if bound != obj else None)

    def _error(self, node: cst.CSTNode, name: str) -> None:
        bound = head_name(node)
        if bound:
            self._unconverted.add(bound)
        if name == TF2_PROBE:
            self.state.signals.add(tree.TF2_PROBE)
            self.report(node, TF2_PROBE_MESSAGE, severity="error", manual=TF2_PROBE_MANUAL)
            return
        gone = self._gone(name)
        if gone:
            self.report(
                node, f"{gone} does not exist on TensorFlow 2.21", severity="error", manual=GONE.format(module=gone)
            )
            return
        self.report(
            node,
            f"{name} is private TensorFlow with no public equivalent",
            severity="error",
            manual=MANUAL.format(name=name),
        )

    def _report_gone(self, node: cst.CSTNode, names: Sequence[str]) -> bool:
        """An error entry for the first of the imported `names` this TensorFlow does not ship."""
        for name in names:
            gone = self._gone(name) if name.startswith(PRIVATE + ".") and not self._claimed(name) else None
            if gone:
                self._error(node, name)
                return True
        return False

    def leave_Import(
        self, original_node: cst.Import, updated_node: cst.Import
    ) -> cst.BaseSmallStatement | cst.FlattenSentinel[cst.BaseSmallStatement] | cst.RemovalSentinel:
        # (the mixins return the node itself)
        updated_node = cast(cst.Import, super().leave_Import(original_node, updated_node))
        self._report_gone(original_node, [_tf.full_name(alias.name) for alias in original_node.names])
        return updated_node

    # -- imports
    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.FlattenSentinel[cst.BaseSmallStatement] | cst.RemovalSentinel:
        """`from tensorflow.python.x.mod import name` -> `from tensorflow.compat.v1.<module> import name`."""
        # (the mixins return the node itself)
        updated_node = cast(cst.ImportFrom, super().leave_ImportFrom(original_node, updated_node))
        if original_node.relative or original_node.module is None or isinstance(original_node.names, cst.ImportStar):
            return updated_node
        module = _tf.full_name(original_node.module)
        if self._report_gone(original_node, [f"{module}.{_tf.full_name(alias.name)}" for alias in original_node.names]):
            return updated_node
        written_names = cast("Sequence[cst.ImportAlias]", updated_node.names)  # (not `import *`: as the original)
        full = [f"{module}.{_tf.full_name(alias.name)}" for alias in original_node.names]
        if TF2_PROBE in full:  # `from tensorflow.python.tf2 import enabled`
            if len(full) == 1 and self._tf1_program(original_node):
                home, _, answer = TF2_ANSWER.rpartition(".")  # the same name, bound to TF2_ANSWER
                return updated_node.with_changes(module=_tf.dotted(home), names=[_renamed(written_names[0], answer)])
            self._error(original_node, TF2_PROBE)
            return updated_node
        if not module.startswith(PRIVATE + ".") or module not in self._private or self._claimed(module):
            return updated_node
        if any(self._claimed(f"{module}.{_tf.full_name(alias.name)}") for alias in original_node.names):
            return updated_node  # `from tensorflow.python.platform import flags` is tf-flags' to move
        if all(f"{module}.{_tf.full_name(alias.name)}" in HAND_WRITTEN for alias in original_node.names):
            return updated_node  # their calls are rewritten (leave_Call), the import goes when unused
        if any(f"{module}.{_tf.full_name(alias.name)}" in self._modules for alias in original_node.names):
            # a module (`tf_logging`): its uses are converted or reported one by one, the import goes when unused
            return updated_node
        homes, names = set(), []
        for alias, written in zip(original_node.names, written_names):
            found = self._public(f"{module}.{_tf.full_name(alias.name)}")
            v1 = found[1] if found else None
            if v1 is None:
                self._error(original_node, f"{module}.{_tf.full_name(alias.name)}")
                return updated_node
            self._published(v1)
            home, _, public = v1.rpartition(".")
            homes.add(home)
            names.append(_renamed(written, public))
        if len(homes) != 1:
            self.report(
                original_node,
                f"names from {module} live in several public modules",
                severity="error",
                manual=MANUAL.format(name=module),
            )
            return updated_node
        new = f"tensorflow.{homes.pop()}"
        self.report(original_node, f"from {module} import ... -> from {new} import ...")
        return updated_node.with_changes(module=_tf.dotted(new), names=names)


def _renamed(alias: cst.ImportAlias, public: str) -> cst.ImportAlias:
    """`is_sequence` imported as its public twin `is_nested`, still bound as `is_sequence`."""
    name = _tf.full_name(alias.name)
    if public == name:
        return alias
    return alias.with_changes(name=cst.Name(public), asname=alias.asname or cst.AsName(name=cst.Name(name)))
