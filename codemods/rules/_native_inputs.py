"""native-session's inputs: placeholders (the train step's arguments), a tf.data pipeline's one-shot
iterator (Python iteration), and the feed dicts of sess.run turned into the step's arguments."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

import libcst as cst

from codemods.rules import _native_tables as tables
from codemods.rules import _tf
from codemods.rules._native_dtypes import (
    CONSTANTS,
    DATASET_METHODS,
    OTHER_FLOATS,
    Element,
    bindings,
    dtype_name,
    unshaped,
)
from codemods.rules._native_names import LITERAL_DTYPES, PREFIXES
from codemods.rules._native_state import ConverterState
from codemods.rules._native_syntax import (
    Refused,
    arguments,
    assigned,
    collect,
    lines_of,
    names_in,
    single,
    source_of,
    target_names,
)


class Inputs(ConverterState):
    """Placeholders, the tf.data input and the feeds."""

    def placeholder(self, stmt: cst.BaseStatement, name: str, call: cst.Call) -> bool:
        updated = self.updated_call(stmt)
        args = arguments(updated, ("dtype", "shape", "name"), stmt, "tf.placeholder")
        if "dtype" not in args:
            raise Refused(stmt, "tf.placeholder without a dtype")
        if name in ("tape", "outputs", "variables"):
            raise Refused(stmt, f"a placeholder named `{name}`, a name the train step uses")
        shape = source_of(args["shape"].value) if "shape" in args else "None"
        self.placeholders[name] = (source_of(args["dtype"].value), shape)
        self.graph.add(name)
        self.replacements[id(stmt)] = []
        return True

    def float32_inputs(self, line: cst.CSTNode, what: str, inputs: cst.CSTNode | None = None) -> None:
        """Refused if a placeholder has a float dtype other than float32: TF1's layers made their variables in
        their input's dtype, and the Keras layers the rule makes once, before any input, are float32. `inputs`: the
        layer's input, where the caller has it (Pipelines reads the tf.data element it reads)."""
        for name, (dtype, _) in self.placeholders.items():
            if dtype.strip("\"'").rsplit(".", 1)[-1] in OTHER_FLOATS:
                raise Refused(
                    line,
                    f"{what} in a graph whose placeholder {name} is not float32 ({dtype}): TF1's layers made their "
                    "variables in their input's dtype, the Keras layers the rule makes are float32",
                )
        self.float32_constants(line, what, inputs)
        for stmt in self.computes:  # (a cast to float64 in the graph: TF1's layer of it was float64)
            for node in [*collect(stmt, cst.Attribute), *collect(stmt, cst.SimpleString)]:
                other = dtype_name(node)
                if other in OTHER_FLOATS:
                    raise Refused(
                        line,
                        f"{what} in a graph that computes in {other} (`{source_of(node)}`): TF1's layers made their "
                        "variables in their input's dtype, the Keras layers the rule makes are float32",
                    )

    def float32_constants(self, line: cst.CSTNode, what: str, inputs: cst.CSTNode | None) -> None:
        """Refused where the layer's `inputs` (else `line`) read a constant of the graph not proven float32:
        `tf.constant(np.random.rand(...))` is float64, numpy's default, and TF1's layer of it made float64 variables."""
        read = names_in(inputs or line).names
        reached = set(read).union(*(self.depends.get(n, set()) for n in read))
        smalls = [(s, single(s)) for s in self.computes]
        sources = [inputs or line, *(s for s, small in smalls if small and set(target_names(small) or ()) & reached)]
        scope = Element(bindings(list(self.block.original)), {})
        names = {p + c for p in PREFIXES for c in CONSTANTS}
        values = [assigned(small)[1] for s, small in smalls if s in sources]
        for value in (inputs, *values) if isinstance(inputs, cst.BaseExpression) else values:
            self.host_input(line, what, value)
        for call in (c for source in sources for c in collect(source, cst.Call) if self.rule.tf_names(c) & names):
            self.proven_float32(line, f"{what} reads a constant, `{source_of(call)}`,", scope.tensor(call))

    def host_input(self, line: cst.CSTNode, what: str, value: cst.BaseExpression | None) -> None:
        """Refused where `value`, a layer's input (or a tensor it reads), is a host value (through shape ops) not
        proven float32: TF1 made a tensor of it in its dtype, numpy's float64 for an array."""
        value = unshaped(value)
        if not isinstance(value, cst.Name) or value.value in self.graph or value.value in ("True", "False", "None"):
            return
        dtype = Element(bindings(list(self.block.original)), {}).tensor(value)
        self.proven_float32(line, f"{what} reads `{value.value}`, a host value", dtype)

    def proven_float32(self, line: cst.CSTNode, reads: str, dtype: str | None) -> None:
        """Refused unless `dtype` (of what a layer reads) is float32 or not a float."""
        if dtype is None or dtype in OTHER_FLOATS:
            why = f"is {dtype}" if dtype else "the rule cannot prove float32 (numpy's arrays are float64)"
            raise Refused(
                line,
                f"{reads} whose dtype {why}: TF1's layers made their variables in their input's dtype, the Keras "
                "layers the rule makes are float32",
            )

    def placeholder_with_default(self, stmt: cst.BaseStatement, name: str) -> bool:
        """An argument that calls not feeding it pass its default (a literal: its dtype is the literal's)."""
        args = arguments(self.updated_call(stmt), ("input", "shape", "name"), stmt, "tf.placeholder_with_default")
        default = args["input"].value if "input" in args else None
        dtype = LITERAL_DTYPES.get(type(default)) if default is not None else None
        if isinstance(default, cst.Name) and default.value not in ("True", "False"):
            dtype = None
        if dtype is None or "shape" not in args:
            raise Refused(stmt, "tf.placeholder_with_default of something other than a literal, or without a shape")
        self.placeholders[name] = (f"{self.alias}.{dtype}", source_of(args["shape"].value))
        self.defaults[name] = source_of(cast(cst.BaseExpression, default))
        self.graph.add(name)
        self.replacements[id(stmt)] = []
        return True

    def dataset_head(self, value: cst.BaseExpression) -> bool:
        """Is `value` a method chain on a tf.data call (`tf.data.Dataset.from_tensor_slices(...).batch(4)`) or on a
        pipeline of the block (`dataset = dataset.map(parse)`: the pipeline, not a tensor for model())?"""
        chained = isinstance(value, cst.Call)
        while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
            if any(n.startswith(tuple(p + "data." for p in PREFIXES)) for n in self.rule.tf_names(value)):
                return True
            chained &= value.func.attr.value in DATASET_METHODS  # (not its iterator's element)
            value = value.func.value
        return chained and isinstance(value, cst.Name) and value.value in self.datasets

    def tf2_dataset(self, stmt: cst.BaseStatement) -> cst.BaseStatement:
        """The pipeline on TF 2's dataset classes: the safe pass wrote TF1's (tf.compat.v1.data.Dataset), whose
        make_one_shot_iterator this rule replaces; the pipeline's methods are the same."""
        v1 = {f"{self.alias}.compat.v1.data.{name}": name for name in tables.DATASETS}
        alias = self.alias

        class Classes(cst.CSTTransformer):
            def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
                name = v1.get(_tf.full_name(updated_node))
                return _tf.dotted(f"{alias}.data.{name}") if name else updated_node

        return cast(cst.BaseStatement, stmt.visit(Classes()))

    def one_shot(self, value: cst.BaseExpression) -> str | None:
        """`dataset` of `dataset.make_one_shot_iterator().get_next()` (a name bound to a pipeline), else None."""
        dataset = one_shot_element(value)
        return dataset if dataset in self.datasets else None

    def iterator(self, stmt: cst.BaseStatement, small: cst.Assign) -> bool:
        """`x, y = dataset.make_one_shot_iterator().get_next()` -> `iterator = iter(dataset)`: each step
        takes the next element, as each sess.run of the train op drew one."""
        dataset = cast(str, self.one_shot(small.value))
        targets = target_names(small)
        if self.inputs is not None or targets is None or len(small.targets) != 1:
            raise Refused(stmt, "a second iterator, or an element not unpacked into names")
        single = isinstance(small.targets[0].target, cst.Name)
        self.inputs = (dataset, targets, single)
        self.graph.update(targets)
        self.replacements[id(stmt)] = [cst.parse_statement(f"{self.names_iterator()} = iter({dataset})\n")]
        return True

    def names_iterator(self) -> str:
        if "iterator" not in self.names:
            taken = self.rule.module_names()
            self.names["iterator"] = next(n for n in ("iterator", "iterator_fn", "data_iterator") if n not in taken)
        return self.names["iterator"]

    def element_args(self) -> list[str]:
        """The step's leading arguments: the next element of the input pipeline (none without one)."""
        if self.inputs is None:
            return []
        return [f"{'' if self.inputs[2] else '*'}{self.names_iterator()}.get_next()"]

    def feed_variables(self, run: Sequence[cst.BaseStatement]) -> dict[int, str]:
        """The run region's `feed = {x: ..., y: ...}` lines (every key a placeholder), when the name is
        used only so and as sess.run's feed: they become `feed = {"x": ..., "y": ...}` and `step(**feed)`."""
        lines = [line for stmt in run for line in lines_of(stmt)]
        found: dict[int, str] = {}
        for line in lines:
            name, value = assigned(single(line))
            if name is not None and isinstance(value, cst.Dict) and value.elements:
                keys = [e.key for e in value.elements if isinstance(e, cst.DictElement)]
                if len(keys) == len(value.elements) and all(
                    isinstance(k, cst.Name) and k.value in self.placeholders for k in keys
                ):
                    found[id(line)] = name
        for name in set(found.values()):
            for line in lines:
                if id(line) in found or name not in names_in(line).names:
                    continue
                runs = [c for c in names_in(line).calls if self.session_method(c) == "run"]
                fed = [self.feed_argument(line, run) for run in runs]
                uses = [n for n in names_in(line).nodes if n.value == name]
                if len(uses) != sum(isinstance(f, cst.Name) and f.value == name for f in fed):
                    raise Refused(line, f"`{name}`, a feed dict, is used besides as sess.run's feed")
        return found

    def feed(self, line: cst.CSTNode, run: cst.Call, updated: cst.Call) -> str:
        """The step's arguments: the input pipeline's next element, then the placeholders' values."""
        fed = self.fed(line, run, updated)
        return ", ".join(part for part in (*self.element_args(), fed) if part)

    def fed(self, line: cst.CSTNode, run: cst.Call, updated: cst.Call) -> str:
        """The placeholders' arguments, from a sess.run's feed dict of every placeholder."""
        feed = self.feed_argument(line, run)
        if feed is None and set(self.placeholders) <= set(self.defaults):
            return ", ".join(self.defaults[name] for name in self.placeholders)
        if isinstance(feed, cst.Name) and feed.value in self.feed_lines.values():
            return self.feed_variable(line, feed.value)
        if not isinstance(feed, cst.Dict):
            raise Refused(line, "sess.run without a feed dict literal of the placeholders")
        keys = [
            e.key.value if isinstance(e, cst.DictElement) and isinstance(e.key, cst.Name) else None
            for e in feed.elements
        ]
        fed = [k or "" for k in keys]
        needed = set(self.placeholders) - set(self.defaults)
        if len(set(fed)) != len(fed) or not needed <= set(fed) <= set(self.placeholders):
            raise Refused(line, "a sess.run that does not feed every placeholder (the step takes them all)")
        updated_feed = arguments(updated, ("fetches", "feed_dict"), line, "sess.run")["feed_dict"].value
        if not isinstance(updated_feed, cst.Dict) or len(updated_feed.elements) != len(keys):
            raise Refused(line, "the feed dict changed shape in the safe pass")
        read = {n for e in feed.elements for n in names_in(e.value).names} & self.watched()
        if read:
            raise Refused(line, f"a feed value computed from the graph (`{min(read)}`)")
        values = {cast(str, k): source_of(cast(cst.DictElement, e).value) for k, e in zip(keys, updated_feed.elements)}
        order = [name for name in self.placeholders if name in values]
        if list(values) == order:  # positional: the values are evaluated in the order they are written
            return ", ".join(values[name] if name in values else self.defaults[name] for name in self.placeholders)
        return ", ".join([*(f"{k}={v}" for k, v in values.items()), *self.unfed(values)])

    def unfed(self, fed: Iterable[str]) -> list[str]:
        """`name=default` for the placeholders with a default a feed leaves out."""
        return [f"{name}={default}" for name, default in self.defaults.items() if name not in set(fed)]

    def feed_variable(self, line: cst.CSTNode, name: str) -> str:
        """`**feed` (with the defaults its dicts leave out), when every dict bound to `feed` feeds what the step needs."""
        fed: set[str] | None = None
        for stmt in self.block.original:
            for candidate in lines_of(stmt):
                if self.feed_lines.get(id(candidate)) == name:
                    value = cast(cst.Dict, assigned(single(candidate))[1])
                    keys = {cast(cst.Name, cast(cst.DictElement, e).key).value for e in value.elements}
                    fed = keys if fed is None else fed & keys
                    if not set(self.placeholders) - set(self.defaults) <= keys:
                        raise Refused(
                            candidate, "a sess.run that does not feed every placeholder (the step takes them all)"
                        )
                    if fed != keys:
                        raise Refused(candidate, f"dicts bound to `{name}` that feed different placeholders")
        return ", ".join([f"**{name}", *self.unfed(fed or ())])

    def string_keys(self, line: cst.SimpleStatementLine, updated: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        """`feed = {x: a, y: b}` -> `feed = {"x": a, "y": b}`: the step's keyword arguments, in the same order."""
        _, value = assigned(single(updated))
        if not isinstance(value, cst.Dict) or not all(
            isinstance(e, cst.DictElement) and isinstance(e.key, cst.Name) for e in value.elements
        ):
            raise Refused(line, "the feed dict changed shape in the safe pass")
        read = {n for e in value.elements for n in names_in(cast(cst.DictElement, e).value).names}
        if read & self.watched():
            raise Refused(line, f"a feed value computed from the graph (`{min(read & self.watched())}`)")
        elements = [
            e.with_changes(key=cst.SimpleString(f'"{cast(cst.Name, e.key).value}"'))
            for e in cast(Sequence[cst.DictElement], value.elements)
        ]
        assign = cast(cst.Assign, single(updated))
        return updated.with_changes(body=[assign.with_changes(value=value.with_changes(elements=elements))])


def one_shot_element(value: cst.BaseExpression | None) -> str | None:
    """`dataset` of `dataset.make_one_shot_iterator().get_next()` (any name), else None."""
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and not value.args):
        return None
    made = value.func.value
    if value.func.attr.value != "get_next" or not isinstance(made, cst.Call) or made.args:
        return None
    if not isinstance(made.func, cst.Attribute) or made.func.attr.value != "make_one_shot_iterator":
        return None
    return made.func.value.value if isinstance(made.func.value, cst.Name) else None
