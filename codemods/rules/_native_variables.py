"""native-session's state: tf.Variable, get_variable and the global step under their TF1 names, and the assign
ops and fetched variables that a sess.run ran, as eager calls."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

import libcst as cst

from codemods.rules import _native_tables as tables
from codemods.rules import _tf
from codemods.rules._native_names import ASSIGNS, INITIALIZER_FUNCTIONS, VARIABLE_PARAMS
from codemods.rules._native_queues import Queues
from codemods.rules._native_syntax import Refused, arguments, names_in, source_of


class Variables(Queues):
    """Variables and assign ops."""

    def state(self) -> set[str]:
        """The fetches that are no tensor of model(): assign ops and variables."""
        return set(self.assigns) | self.variables

    def state_code(self, name: str) -> str:
        return f"{self.assigns[name][1] if name in self.assigns else name}.numpy()"

    def state_run(self, line: cst.CSTNode, run: cst.Call, fetches: list[str]) -> None:
        """A sess.run of assign ops and variables only: it takes no feed (the eager calls read none)."""
        if self.feed_argument(line, run) is not None:
            raise Refused(line, "a sess.run of assign ops or variables with a feed dict")
        self.check_state(line, fetches)
        self.state_runs = True

    def check_state(self, line: cst.CSTNode, fetches: list[str]) -> None:
        """TF1 runs the fetches of one sess.run in no set order: an assign op and a fetch reading its variable
        have no one answer, nor two assign ops on one variable."""
        variables = [self.assigns[name][0] for name in fetches if name in self.assigns]
        if len(set(variables)) != len(variables):
            raise Refused(line, "one sess.run of two assign ops on one variable (TF1 runs them in no set order)")
        for name in fetches:
            reads = self.depends.get(name, set()) | {name}
            for other in fetches:
                if other != name and other in self.assigns and self.assigns[other][0] in reads:
                    raise Refused(line, f"one sess.run of `{other}` and a fetch reading its variable (no set order)")

    def assigned_variable(self, value: cst.BaseExpression) -> str | None:
        """The variable of `tf.assign_add(v, ...)` / `v.assign_add(...)` (a variable of the graph), else None."""
        if not isinstance(value, cst.Call):
            return None
        func = value.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in self.variables:
            return func.value.value if func.attr.value in ASSIGNS.values() else None
        if self.rule.is_call(value, ASSIGNS) and value.args and isinstance(value.args[0].value, cst.Name):
            variable = value.args[0].value.value
            return variable if variable in self.variables else None
        return None

    def assign(self, stmt: cst.BaseStatement, name: str, call: cst.Call) -> bool:
        """`op = tf.assign_add(v, delta)`: run where a sess.run fetches it (`v.assign_add(delta)`), never in model()."""
        variable = cast(str, self.assigned_variable(call))
        updated = self.updated_call(stmt)
        method = self.rule.is_call(call, ASSIGNS)
        params = ("value", "use_locking", "name", "read_value")
        if method is not None:
            method, params = ASSIGNS[method], ("ref", *params[:3])
        else:
            method = cast(cst.Attribute, call.func).attr.value
        args = arguments(updated, params, stmt, f"{method}")
        if set(args) - {"ref", "value", "name"} or "value" not in args:
            raise Refused(stmt, f"{method}() with {min(set(args) - {'ref', 'value', 'name'} or {'no value'})}")
        reads = set(names_in(args["value"].value).names)
        if reads & (self.graph - self.variables):
            raise Refused(
                stmt, f"{method}() of a value the graph computes (`{min(reads & (self.graph - self.variables))}`)"
            )
        for read in sorted(reads - self.graph - self.rule._aliases):  # noqa: SLF001
            self.host_reads.setdefault(read, stmt)
        self.assigns[name] = (variable, f"{variable}.{method}({source_of(args['value'].value)})")
        self.depends[name] = {variable} | (reads & self.variables)
        self.graph.add(name)
        self.replacements[id(stmt)] = []
        return True

    def variable(self, stmt: cst.BaseStatement, name: str, call: cst.Call) -> bool:
        params = VARIABLE_PARAMS
        args = arguments(call, params, stmt, "tf.Variable")
        extra = set(args) - {"initial_value", "trainable", "name", "dtype"}
        if extra or "initial_value" not in args:
            raise Refused(stmt, f"tf.Variable({min(extra or {'no initial value'})}=...)")
        if set(names_in(args["initial_value"].value).names) & self.graph:
            raise Refused(stmt, "a variable initialised from the graph's tensors")
        self.dtype_of_host(stmt, args)
        updated = self.updated_call(stmt)
        keywords = [
            f"{p}={source_of(a.value)}"
            for p, a in arguments(updated, params, stmt, "tf.Variable").items()
            if p != "initial_value"
        ]
        if "name" not in args:
            keywords.append(f'name="{self.tf1_name("Variable")}"')
        elif isinstance(args["name"].value, cst.SimpleString):
            self.take_name(str(cast(cst.SimpleString, args["name"].value).evaluated_value), stmt)
        else:
            raise Refused(stmt, "a variable whose name is computed")
        initial = source_of(arguments(updated, params, stmt, "tf.Variable")["initial_value"].value)
        code = f"{name} = {self.alias}.Variable({', '.join([initial, *keywords])})\n"
        self.replacements[id(stmt)] = [cst.parse_statement(code)]
        self.graph.add(name)
        self.variables.add(name)
        return True

    def dtype_of_host(self, stmt: cst.BaseStatement, args: dict[str, cst.Arg]) -> None:
        """The variables are made once, before the graph's tensors: a dtype read off them (`x.dtype`) is not there."""
        if "dtype" in args and set(names_in(args["dtype"].value).names) & self.graph:
            raise Refused(stmt, "a variable whose dtype is read off the graph's tensors (made before them)")

    def get_variable(self, stmt: cst.BaseStatement, name: str, call: cst.Call) -> bool:
        """`tf.get_variable("v", initializer=<a value>)` -> `tf.Variable(<the value>, name="v")`; with a shape and a
        v1 initializer (or none: Glorot's), `tf.Variable(<TF 2's initializer>(<shape>), name="v")`."""
        params = ("name", "shape", "dtype", "initializer", "regularizer", "trainable")
        args = arguments(self.updated_call(stmt), params, stmt, "tf.get_variable")
        literal = args["name"].value if "name" in args else None
        if not isinstance(literal, cst.SimpleString):
            raise Refused(stmt, "tf.get_variable with a computed name")
        if set(args) - {"name", "shape", "initializer", "dtype", "trainable"}:
            raise Refused(
                stmt, f"tf.get_variable({min(set(args) - {'name', 'shape', 'initializer', 'dtype', 'trainable'})}=...)"
            )
        self.dtype_of_host(stmt, args)
        if "shape" in args:
            if set(names_in(args["shape"].value).names) & self.graph:
                raise Refused(stmt, "a variable whose shape is read off the graph's tensors (made before them)")
            value = self.drawn_value(arguments(call, params, stmt, "tf.get_variable"), args, stmt, "")
            keywords = [f"{p}={source_of(args[p].value)}" for p in ("trainable",) if p in args]
        elif "initializer" in args:
            value = source_of(args["initializer"].value)
            keywords = [f"{p}={source_of(args[p].value)}" for p in ("dtype", "trainable") if p in args]
        else:
            raise Refused(stmt, "tf.get_variable without a shape or an initial value")
        if set(names_in(args.get("initializer", args["name"]).value).names) & self.graph:
            raise Refused(stmt, "a variable initialised from the graph's tensors")
        tf1_name = str(literal.evaluated_value)
        self.take_name(tf1_name, stmt)
        code = f"{name} = {self.alias}.Variable({value}, {', '.join(keywords + [f'name={source_of(literal)}'])})\n"
        self.replacements[id(stmt)] = [cst.parse_statement(code)]
        self.graph.add(name)
        self.variables.add(name)
        return True

    def drawn_value(
        self, original: Mapping[str, cst.Arg], updated: Mapping[str, cst.Arg], node: cst.CSTNode, where: str
    ) -> str:
        """The code drawing a get_variable's initial value from its shape and v1 initializer (or none: TF1's default
        for a float, Glorot's uniform), as TF 2's initializer with TF1's defaults written out; Refused for another."""
        shape = source_of(updated["shape"].value)
        dtype = f", dtype={source_of(updated['dtype'].value)}" if "dtype" in updated else ""
        initializer = original["initializer"].value if "initializer" in original else None
        if initializer is None:
            if dtype:  # (TF1's default initializer depends on the dtype: Glorot for floats, zeros for integers)
                raise Refused(node, f"tf.get_variable{where} without an initializer and with a dtype")
            return f"{self.alias}.keras.initializers.GlorotUniform()({shape})"
        found = self.rule.is_call(initializer, INITIALIZER_FUNCTIONS)
        if found is None:
            raise Refused(node, f"tf.get_variable{where} with an initializer the rule does not know")
        v1 = INITIALIZER_FUNCTIONS[found]
        v2, params, pinned = tables.INITIALIZERS[v1]
        arguments(cast(cst.Call, initializer), params, node, f"tf.{v1}")
        given = arguments(cast(cst.Call, updated["initializer"].value), params, node, f"tf.{v1}")
        values = {**pinned, **{p: source_of(a.value) for p, a in given.items()}}
        keywords = [f"{p}={values[p]}" for p in params if p in values]
        return f"{self.alias}.{v2}({', '.join(keywords)})({shape}{dtype})"

    def layer_initializer(self, value: cst.BaseExpression, node: cst.CSTNode) -> str | None:
        """A layer's `kernel_initializer=tf.<v1 initializer>(...)` (as the safe pass left it, tf.compat.v1's) as the
        TF 2 initializer of the table get_variable reads, TF1's defaults written out; None for another value."""
        func = _tf.full_name(value.func) if isinstance(value, cst.Call) else ""
        v1 = next(
            (n for n in tables.INITIALIZERS if func in (f"{self.alias}.{n}", f"{self.alias}.compat.v1.{n}")), None
        )
        if v1 is None:
            return None
        v2, params, pinned = tables.INITIALIZERS[v1]
        given = arguments(cast(cst.Call, value), params, node, f"tf.{v1}")
        values = {**pinned, **{p: source_of(a.value) for p, a in given.items()}}
        return f"{self.alias}.{v2}({', '.join(f'{p}={values[p]}' for p in params if p in values)})"

    def global_step(self, stmt: cst.BaseStatement, name: str) -> bool:
        """tf.train.get_or_create_global_step() -> TF1's global step as a variable: int64, 0, `global_step`."""
        self.take_name("global_step", stmt)
        code = f'{name} = {self.alias}.Variable(0, dtype={self.alias}.int64, trainable=False, name="global_step")\n'
        self.replacements[id(stmt)] = [cst.parse_statement(code)]
        self.graph.add(name)
        self.variables.add(name)
        return True
