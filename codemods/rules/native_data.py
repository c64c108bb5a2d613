"""native-data: in eager code, TF1's datasets (`tf.compat.v1.data.Dataset` ...) -> TF 2's `tf.data` classes and
`dataset.make_one_shot_iterator()` -> `iter(dataset)` (--level native).

The safe level keeps TF1's dataset classes (tf.compat.v1.data.*): their TF 2 namesakes lack
make_one_shot_iterator, output_shapes and the other TF1-only members. In a file proven eager
(codemods/rules/_native_eager.py) that uses none of those members, the pipeline is the same on the TF 2
class, and TF1's eager one-shot iterator is Python iteration over the dataset (`iter(dataset)` has
`get_next()` and `next()`, and a loop over it ends where the data does). In graph code (an Estimator's
input_fn, a graph-mode program) that makes no one-shot iterator, the classes convert too: the TF 2 class builds
the same dataset ops (the v1 class only wraps it), and the Estimator, like tf.compat.v1.data's iterator
functions, reads both; a library module is left (its callers may use a TF1-only member). An Estimator's input_fn
ending in `return dataset.make_one_shot_iterator().get_next()` returns the dataset where it is proven only an
Estimator's input (codemods/rules/_native_input_fns.py): the Estimator makes the iterator and reads the same batches.
The whole file converts, or none of it, with an info entry saying why.
"""

from __future__ import annotations

from typing import cast

import libcst as cst

from codemods.engine import tree
from codemods.rule_description import Example
from codemods.rules import _native_input_fns as input_fns
from codemods.rules import _native_tables as tables
from codemods.rules import _tf
from codemods.rules._native_eager import EagerRewrite
from codemods.rules._native_syntax import Refused, descendants

_ITERATOR = "make_one_shot_iterator"
# TF1-only members of its datasets and iterators: a file naming one keeps TF1's classes
_V1_ONLY = frozenset(
    {
        "make_initializable_iterator",
        "output_shapes",
        "output_types",
        "output_classes",
        "string_handle",
        "make_initializer",
        "initializer",
        "from_string_handle",
        "from_structure",
        "map_with_legacy_function",
        "filter_with_legacy_function",
        "flat_map_with_legacy_function",
    }
)


class NativeDataRule(EagerRewrite):
    ID = "native-data"
    DESCRIPTION = (
        "tf.compat.v1.data datasets -> tf.data (in eager code, and in a graph program without a one-shot iterator "
        "but an Estimator input_fn's), make_one_shot_iterator() -> iter(dataset) in eager code, an Estimator "
        "input_fn's one-shot element -> its dataset."
    )
    LEVEL = "native"
    ORDER = 197  # the last native rule: it rewrites by the text (the others find their calls by identity)
    EXAMPLE = Example(
        "The safe level keeps TF1's dataset classes (tf.compat.v1.data.Dataset ...), whose one-shot iterator TF 2's "
        "lack. In a file proven eager (no graph-mode code, a program) that uses no TF1-only member of a dataset or "
        "iterator (make_initializable_iterator, output_shapes, output_types, output_classes, string_handle, "
        "initializer ...), the datasets are TF 2's and the one-shot iterator is Python iteration over the dataset. "
        "In graph code of a program (an Estimator's input_fn) with no one-shot iterator, the dataset classes are "
        "TF 2's too: the same dataset ops, read by the Estimator alike. An input_fn returning its one-shot "
        "iterator's element (`return dataset.make_one_shot_iterator().get_next()`) returns the dataset where its "
        "only reads are as the input_fn of a tf.estimator.Estimator's train, evaluate or predict, or of the TrainSpec or "
        "EvalSpec of its train_and_evaluate (not a TPUEstimator, a direct call; no distribution strategy nor "
        "CheckpointInputPipelineHook in the file): the Estimator makes an "
        "initializable iterator of it and reads the same batches in the same order. "
        "What may change: nothing in the pipeline (the TF 2 classes have the same methods and elements); "
        "`isinstance(d, tf.data.Dataset)` is also true of TF1 datasets made elsewhere; iter(dataset) is TF 2's "
        "iterator, whose get_next() raises tf.errors.OutOfRangeError at the end as TF1's did, and next() "
        "StopIteration; in graph code, a module the program hands a dataset to that calls a TF1-only member on it "
        "fails (AttributeError) where TF1's class had it; an Estimator given the dataset makes other iterator ops before "
        "the model_fn runs, so the op seeds a graph seed gives the model_fn's initializers and random ops are others "
        "(from the same checkpoint, training is the same); migrated with its tree, a file another module or notebook "
        "of the tree imports keeps its input_fns (that module may call them), but a module outside the files migrated together "
        "that imports such an input_fn and calls it gets the dataset.",
        "import tensorflow as tf\n"
        "\n"
        "dataset = tf.data.Dataset.range(3).batch(2)\n"
        "iterator = dataset.make_one_shot_iterator()\n"
        "print(iterator.get_next())\n",
        "import tensorflow as tf\n\ndataset = tf.data.Dataset.range(3).batch(2)\niterator = iter(dataset)\nprint(iterator.get_next())\n",
    )
    WORDS = frozenset({_ITERATOR})  # and TensorFlow's names

    def candidate(self, names: frozenset[str]) -> str | None:
        return None  # (it reads the whole module once the pass is done: leave_Module)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if self.level != "native":
            return updated_node
        aliases = {n for n, q in self.state.table.toplevel.items() if q == _tf.TF}
        classes = {f"{a}.compat.v1.data.{c}": f"{a}.data.{c}" for a in aliases for c in tables.DATASETS}
        functions = {f"{a}.compat.v1.data.{_ITERATOR}" for a in aliases}
        found = _Convert(classes, functions)
        converted = cast(cst.Module, updated_node.visit(found))
        if not found.changed:
            return updated_node
        first, top = _first(original_node)
        why = self._eager.why_not(original_node, self._tf_calls)
        program = why is not None and self._eager.why_not(original_node, self._tf_calls, graph=True) is None
        inputs: list[str] = []  # the Estimator input_fns returning their dataset, not its one-shot element
        refused: str | None = None
        if program and found.iterators:
            try:
                inputs = input_fns.proven(original_node, self.state.names.qualified)
                if inputs:
                    self.state.signals.add(tree.INPUT_FN)  # (whatever the tree tells: Facts are the bytes')
                    importers = self.state.tree.importers if self.state.tree else ()
                    if importers:
                        raise Refused(
                            original_node,
                            f"the tree's {', '.join(importers)} import{'s' * (len(importers) == 1)} this module: "
                            f"{', '.join(f'{name}()' for name in inputs)} called there would return the dataset, not "
                            "its one-shot iterator's element",
                        )
                    found = _Convert(classes, functions)
                    converted = cast(cst.Module, _returning_datasets(updated_node, inputs).visit(found))
            except Refused as not_proven:
                inputs, refused = [], not_proven.why
        # graph code (an Estimator's input_fn): the classes build the same dataset ops; iter() needs eager execution
        graph = why is not None and not found.iterators
        if graph and program:
            why = None
        elif refused is not None:
            why = f"{why}, and {refused}"
        why = why or self._v1_member(original_node, found)
        if why is not None:
            self.report(first, f"TF1 datasets left at the safe level: {why}", native=True, statement=top)
            return updated_node
        parts = [f"{found.classes} TF1 dataset class references -> tf.data"] * bool(found.classes)
        parts += [f"{found.iterators} make_one_shot_iterator() -> iter()"] * bool(found.iterators)
        if inputs:
            parts += [
                "an Estimator's input_fn returns its dataset, not its one-shot iterator's element (the Estimator makes "
                f"the iterator): {', '.join(f'{name}()' for name in inputs)}"
            ]
        said = "; ".join(parts)
        self.report(first, f"{'graph' if graph else 'eager'} code: {said}", native=True, statement=top)
        self.state.reports[:] = [  # tf1-api's entries for the classes written back here
            (top, node, entry)
            for top, node, entry in self.state.reports
            if not (
                entry.rule != self.ID and entry.message.startswith(tuple(f"tf.data.{c} ->" for c in tables.DATASETS))
            )
        ]
        return converted

    def _v1_member(self, module: cst.Module, found: _Convert) -> str | None:
        named = sorted({n.attr.value for n in descendants(module) if isinstance(n, cst.Attribute)} & _V1_ONLY)
        if named:
            return f"the file uses .{named[0]}, a member only TF1's datasets and iterators have"
        if found.refused:
            return found.refused
        return None


def _returning_datasets(module: cst.Module, inputs: list[str]) -> cst.Module:
    """The top-level defs named in `inputs` (as the pass left them) returning their datasets."""
    body = [
        input_fns.returned_dataset(stmt) if isinstance(stmt, cst.FunctionDef) and stmt.name.value in inputs else stmt
        for stmt in module.body
    ]
    return module.with_changes(body=body)


def _first(module: cst.Module) -> tuple[cst.CSTNode, int]:
    """The first dataset class or one-shot iterator of the source, and its top-level statement (the report's place)."""
    for top, stmt in enumerate(module.body):
        for node in descendants(stmt):
            if isinstance(node, cst.Attribute) and node.attr.value == _ITERATOR:
                return node, top
            if isinstance(node, cst.Attribute) and node.attr.value in tables.DATASETS:
                if _tf.full_name(node.value).endswith(".data"):
                    return node, top
    return module, 0  # (not reached: the pass found one)


class _Convert(cst.CSTTransformer):
    """The TF1 dataset classes by TF 2's and the one-shot iterators by iter(): what it changed, or why not."""

    def __init__(self, classes: dict[str, str], functions: set[str]) -> None:
        super().__init__()
        self.classes_map, self.functions = classes, functions
        self.changed = 0
        self.classes = 0
        self.iterators = 0
        self.refused: str | None = None
        self.made: dict[int, cst.BaseExpression] = {}  # id(iter(value)) written -> value

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        new = self.classes_map.get(_tf.full_name(updated_node))
        if new is None:
            return updated_node
        self.changed += 1
        self.classes += 1
        return _tf.dotted(new)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if isinstance(func, cst.Attribute) and func.attr.value == _ITERATOR:
            value, args = func.value, updated_node.args
            if _tf.full_name(original_node.func) in self.functions or _tf.full_name(func) in self.functions:
                if len(args) != 1 or args[0].keyword is not None or args[0].star:
                    self.refused = self.refused or f"{_ITERATOR}() with other arguments than the dataset"
                    return updated_node
                value, args = args[0].value, ()
            if args:
                self.refused = self.refused or f"{_ITERATOR}() with arguments"
                return updated_node
            self.changed += 1
            self.iterators += 1
            made = cst.Call(func=cst.Name("iter"), args=[cst.Arg(value)])
            self.made[id(made)] = value
            return made
        return updated_node

    def leave_For(self, original_node: cst.For, updated_node: cst.For) -> cst.For:
        """`for x in iter(dataset)` -> `for x in dataset`."""
        value = self.made.get(id(updated_node.iter))
        return updated_node if value is None else updated_node.with_changes(iter=value)
