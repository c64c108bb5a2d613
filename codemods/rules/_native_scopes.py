"""native-session's variable-scope helpers: a function of the module that the graph calls and that makes its
variables with `tf.variable_scope` and `tf.get_variable` (a `layer(x, name, reuse=False)` helper).

The helper keeps its signature and its expressions; each get_variable call becomes `get_variable(<TF1 name>,
lambda: <initial value>)`, a function written once for the module that makes the variable at the first call
asking for that name (`scope/name`, as TF1 named it) and returns it after, keeping it in a dict by name (which
`tf.trainable_variables()` reads). model() calls the helper on every step; the variables are made at the first
one, as Keras layers are built at their first call.

Proven from the graph's calls of the helper, in the order TF1 ran them: each scope name and reuse flag is a
literal there (or the parameter's default), a variable is made by a call that does not reuse and reused by one
that does (TF1 raises otherwise), and the helper is called nowhere else.

A tf.Variable helper (TensorFlow's MNIST tutorial's `inference`: `tf.Variable(<value>, name="weights")` under
`with tf.name_scope("hidden1"):`) converts the same way, each tf.Variable a call of that get_variable under TF1's
`name_scope/name` and the name_scope blocks flattened, where the graph calls it once (TF1 made new variables, under
new name scopes, at each call), outside a comprehension or a lambda, every name and name scope a literal (the
scopes distinct: TF1 named a second `hidden1_1`)."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import cast

import libcst as cst

from codemods.rules import _tf
from codemods.rules._native_names import (
    AUTO_REUSE,
    BUILDERS,
    GET_VARIABLE,
    NAME_SCOPE,
    STATEFUL,
    TRAINABLE_VARIABLES,
    VARIABLE,
    VARIABLE_PARAMS,
    VARIABLE_SCOPE,
)
from codemods.rules._native_syntax import (
    Refused,
    arguments,
    bound_names,
    collect,
    descendants,
    leading,
    names_in,
    source_of,
)
from codemods.rules._native_train_helper import minimize_call
from codemods.rules._native_variables import Variables

# tf.get_variable's parameters in positional order, up to the last one a helper's call may reach by position
GET_VARIABLE_PARAMS = ("name", "shape", "dtype", "initializer", "regularizer", "trainable", "collections")
# tf.variable_scope's, up to reuse
SCOPE_PARAMS = (
    "name_or_scope",
    "default_name",
    "values",
    "initializer",
    "regularizer",
    "caching_device",
    "partitioner",
    "custom_getter",
    "reuse",
)
_REPEATED = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.Lambda)  # code that may run many times


@dataclasses.dataclass
class Made:
    """A get_variable call of a helper."""

    call: cst.Call  # as the source has it
    scope: cst.BaseExpression | None  # the name of its variable scope (None: outside any)
    reuse: cst.BaseExpression | None  # the scope's reuse argument (None: not given)
    name: str  # the variable's name in its scope
    variable: bool = False  # a tf.Variable call (under a name_scope, whose name is `scope`), not get_variable


@dataclasses.dataclass
class Helper:
    fn: cst.FunctionDef  # as the source has it
    params: list[str]
    defaults: dict[str, cst.BaseExpression]
    made: list[Made]
    scopes: list[cst.With]  # the variable_scope (name_scope) blocks (their statements take their place)
    calls: int = 0  # the graph's calls of it
    variables: bool = False  # a tf.Variable helper (name scopes), not a variable-scope one
    names: list[str] = dataclasses.field(default_factory=list)  # the TF1 names it makes (scope/name)
    # the graph statement of its first call (where an entry about it goes: the def may be outside the block)
    site: cst.BaseStatement | None = None


def tf1_name(made: Made) -> str:
    """TF1's name of a helper's tf.Variable: `name_scope/name` (its name scope a literal)."""
    if made.scope is None:
        return made.name
    return f"{cast(cst.SimpleString, made.scope).evaluated_value!s}/{made.name}"


def evaluation_order(node: cst.CSTNode) -> list[cst.Call]:
    """The calls in `node` in the order Python makes them (a call's arguments before the call)."""
    found: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def leave_Call(self, original_node: cst.Call) -> None:
            found.append(original_node)

    node.visit(Calls())
    return found


def repeated(node: cst.CSTNode) -> set[int]:
    """id() of the nodes of `node` inside a comprehension or a lambda."""
    return {id(n) for kind in _REPEATED for inner in collect(node, kind) for n in descendants(inner)}


class Scopes(Variables):
    """Variable-scope helpers."""

    def scope_helper(self, fn: cst.FunctionDef) -> bool:
        """Does `fn` make variables with variable_scope / get_variable (then it converts as one or is refused)?"""
        return any(self.rule.is_call(c, VARIABLE_SCOPE | GET_VARIABLE) for c in names_in(fn).calls)

    def helper_call(self, stmt: cst.BaseStatement, call: cst.Call, fn: cst.FunctionDef) -> None:
        """A graph statement's call of a variable-scope helper: the variables it makes or reuses, as TF1 did."""
        name = fn.name.value
        if id(call) in repeated(stmt):
            raise Refused(stmt, f"{name}() called in a comprehension or a lambda (it may run more than once)")
        helper = self.scope_helpers.get(name) or self.read_helper(fn, stmt)
        self.scope_helpers[name] = helper
        helper.site = helper.site or stmt
        helper.calls += 1
        bound = self.bind(call, helper, stmt)
        for made in helper.made:
            scope = self.literal_scope(made.scope, bound, helper, stmt)
            reuse = self.literal_reuse(made.reuse, bound, helper, stmt)
            full = made.name if scope is None else f"{scope}/{made.name}"
            if full in self.scope_made and reuse is False:
                raise Refused(stmt, f"{name}() makes {full!r} again without reuse (TF1 raises: it exists)")
            if full not in self.scope_made:
                if reuse is True:
                    raise Refused(stmt, f"{name}() reuses {full!r} before it is made (TF1 raises)")
                self.take_name(full, stmt)
                self.scope_made.append(full)
                helper.names.append(full)

    def variable_helper(self, fn: cst.FunctionDef) -> bool:
        """Does `fn` make variables with tf.Variable, none with variable_scope / get_variable (then it converts as
        a tf.Variable helper or is refused)?"""
        calls = names_in(fn).calls
        return (
            not self.scope_helper(fn)
            and minimize_call(fn) is None  # (a train helper: _native_train_helper)
            and any(self.rule.is_call(c, VARIABLE) for c in calls)
        )

    def variable_helper_call(self, stmt: cst.BaseStatement, call: cst.Call, fn: cst.FunctionDef) -> None:
        """A graph statement's call of a tf.Variable helper: TF1 made its variables at this one call, named by the
        helper's name scopes (`hidden1/weights`); model() calls it on every step, get_variable making them once."""
        name = fn.name.value
        if id(call) in repeated(stmt):
            raise Refused(stmt, f"{name}() called in a comprehension or a lambda (it may run more than once)")
        if name in self.scope_helpers:
            raise Refused(
                stmt, f"{name}() called twice by the graph: TF1 made new variables at each call, under new name scopes"
            )
        helper = self.read_variable_helper(fn, stmt)
        helper.site = stmt
        self.scope_helpers[name] = helper
        helper.calls += 1
        bound = self.bind(call, helper, stmt)
        graph_params = {p for p, value in bound.items() if set(names_in(value).names) & self.graph}
        for made in helper.made:
            initial = arguments(made.call, VARIABLE_PARAMS, stmt, "tf.Variable")["initial_value"].value
            if set(names_in(initial).names) & graph_params:
                raise Refused(stmt, f"a variable of {name}() initialised from the graph's tensors")
        scopes = [self.name_scope(w, helper, stmt) for w in helper.scopes]
        for scope in scopes:
            self.take_name(scope, stmt)  # (a name scope takes its name among the graph's: TF1 numbered a second)
        for made in helper.made:
            full = tf1_name(made)
            self.take_name(full, stmt)
            self.scope_made.append(full)
            helper.names.append(full)

    def name_scope(self, with_: cst.With, helper: Helper, stmt: cst.BaseStatement) -> str:
        """The literal name of `with tf.name_scope("name"):` in a tf.Variable helper."""
        item = with_.items[0].item if len(with_.items) == 1 and with_.items[0].asname is None else None
        if not (isinstance(item, cst.Call) and self.rule.is_call(item, NAME_SCOPE)):
            raise Refused(stmt, f"{helper.fn.name.value}() has a with block other than `with tf.name_scope(name):`")
        args = arguments(item, ("name", "default_name", "values"), stmt, "tf.name_scope")
        literal = args["name"].value if set(args) == {"name"} else None
        if not isinstance(literal, cst.SimpleString) or not re.fullmatch(r"[\w.-]+", str(literal.evaluated_value)):
            raise Refused(stmt, f"a name scope of {helper.fn.name.value}() other than one literal name")
        return str(literal.evaluated_value)

    def read_variable_helper(self, fn: cst.FunctionDef, stmt: cst.BaseStatement) -> Helper:
        """Its statements: straight lines, or `with tf.name_scope("name"):` blocks of them (distinct names), making
        variables by tf.Variable of a literal name, an initial value and `trainable`."""
        name = fn.name.value
        helper = self.new_helper(fn, stmt)
        helper.variables = True
        seen: set[str] = set()
        for inner in cast(cst.IndentedBlock, fn.body).body:
            if isinstance(inner, cst.With):
                scope = self.name_scope(inner, helper, stmt)
                if scope in seen:
                    raise Refused(stmt, f"two name scopes {scope!r} in {name}(): TF1 named the second {scope}_1")
                seen.add(scope)
                helper.scopes.append(inner)
                for line in cast(cst.IndentedBlock, inner.body).body:
                    if not isinstance(line, cst.SimpleStatementLine):
                        raise Refused(stmt, f"{name}() has a {type(line).__name__} in its name scope")
                    self.variable_line(line, cast(cst.Call, inner.items[0].item), helper, stmt)
            elif isinstance(inner, cst.SimpleStatementLine):
                self.variable_line(inner, None, helper, stmt)
            else:
                raise Refused(stmt, f"{name}() has a {type(inner).__name__} statement (the rule reads straight lines)")
        rebound = bound_names(cast(cst.IndentedBlock, fn.body)) & set(helper.params)
        if rebound:
            raise Refused(stmt, f"{name}() re-binds its parameter `{min(rebound)}`")
        return helper

    def variable_line(
        self, line: cst.SimpleStatementLine, scope: cst.Call | None, helper: Helper, stmt: cst.BaseStatement
    ) -> None:
        name = helper.fn.name.value
        functions = {fn.name.value for _, fn in self.rule._functions}  # noqa: SLF001
        inside = repeated(line)
        for call in evaluation_order(line):
            if self.rule.is_call(call, VARIABLE):
                if id(call) in inside:
                    raise Refused(stmt, f"tf.Variable in a comprehension or a lambda of {name}()")
                args = arguments(call, VARIABLE_PARAMS, stmt, "tf.Variable")
                extra = set(args) - {"initial_value", "trainable", "name"}
                if extra or "initial_value" not in args:
                    raise Refused(stmt, f"tf.Variable({min(extra or {'no initial value'})}=...) in {name}()")
                literal = args["name"].value if "name" in args else None
                if not isinstance(literal, cst.SimpleString) or not re.fullmatch(
                    r"[\w.-]+", str(literal.evaluated_value)
                ):
                    raise Refused(stmt, f"a tf.Variable in {name}() without a literal name")
                where = scope.args[0].value if scope is not None else None
                helper.made.append(Made(call, where, None, str(literal.evaluated_value), variable=True))
                continue
            library = self.rule.variable_library(call)
            if self.rule.is_call(call, STATEFUL | BUILDERS) or library:
                what = library or _tf.full_name(call.func)
                raise Refused(stmt, f"{name}() calls {what}, which the rule does not convert there")
            if isinstance(call.func, cst.Name) and call.func.value in functions:
                raise Refused(stmt, f"{name}() calls {call.func.value}(), another function of the module")

    def new_helper(self, fn: cst.FunctionDef, stmt: cst.BaseStatement) -> Helper:
        """A helper of plain parameters (Refused for decorators, *args, **kwargs, keyword-only parameters)."""
        name = fn.name.value
        params = fn.params
        if (
            fn.decorators
            or fn.asynchronous
            or not isinstance(params.star_arg, cst.MaybeSentinel)
            or params.star_kwarg
            or params.kwonly_params
            or params.posonly_params
            or not isinstance(fn.body, cst.IndentedBlock)
        ):
            raise Refused(stmt, f"{name}() has decorators, *args, **kwargs or keyword-only parameters")
        return Helper(
            fn,
            [p.name.value for p in params.params],
            {p.name.value: p.default for p in params.params if p.default is not None},
            [],
            [],
        )

    def read_helper(self, fn: cst.FunctionDef, stmt: cst.BaseStatement) -> Helper:
        name = fn.name.value
        helper = self.new_helper(fn, stmt)
        for inner in cast(cst.IndentedBlock, fn.body).body:
            if isinstance(inner, cst.With):
                scope, reuse = self.scope_arguments(inner, helper, stmt)
                helper.scopes.append(inner)
                for line in cast(cst.IndentedBlock, inner.body).body:
                    if not isinstance(line, cst.SimpleStatementLine):
                        raise Refused(stmt, f"{name}() has a {type(line).__name__} in its variable scope")
                    self.helper_line(line, scope, reuse, helper, stmt)
            elif isinstance(inner, cst.SimpleStatementLine):
                self.helper_line(inner, None, None, helper, stmt)
            else:
                raise Refused(stmt, f"{name}() has a {type(inner).__name__} statement (the rule reads straight lines)")
        rebound = bound_names(cast(cst.IndentedBlock, fn.body)) & set(helper.params)
        if rebound:
            raise Refused(stmt, f"{name}() re-binds its parameter `{min(rebound)}`")
        if not helper.made:
            raise Refused(stmt, f"{name}() has a variable scope but no get_variable call")
        return helper

    def scope_arguments(
        self, with_: cst.With, helper: Helper, stmt: cst.BaseStatement
    ) -> tuple[cst.BaseExpression, cst.BaseExpression | None]:
        """(the scope's name, its reuse argument) of `with tf.variable_scope(name, reuse=...):`."""
        name = helper.fn.name.value
        item = with_.items[0].item if len(with_.items) == 1 and with_.items[0].asname is None else None
        if not (isinstance(item, cst.Call) and self.rule.is_call(item, VARIABLE_SCOPE)):
            raise Refused(stmt, f"{name}() has a with block other than `with tf.variable_scope(name):`")
        args = arguments(item, SCOPE_PARAMS, stmt, "tf.variable_scope")
        if set(args) - {"name_or_scope", "reuse"} or "name_or_scope" not in args:
            raise Refused(stmt, f"tf.variable_scope in {name}() with arguments besides its name and reuse")
        reuse = args["reuse"].value if "reuse" in args else None
        return args["name_or_scope"].value, reuse

    def helper_line(
        self,
        line: cst.SimpleStatementLine,
        scope: cst.BaseExpression | None,
        reuse: cst.BaseExpression | None,
        helper: Helper,
        stmt: cst.BaseStatement,
    ) -> None:
        name = helper.fn.name.value
        functions = {fn.name.value for _, fn in self.rule._functions}  # noqa: SLF001
        inside = repeated(line)
        for call in evaluation_order(line):
            if self.rule.is_call(call, GET_VARIABLE):
                if id(call) in inside:
                    raise Refused(stmt, f"get_variable in a comprehension or a lambda of {name}()")
                helper.made.append(Made(call, scope, reuse, self.variable_name(call, helper, stmt)))
                continue
            library = self.rule.variable_library(call)
            if self.rule.is_call(call, STATEFUL) or library:
                what = library or _tf.full_name(call.func)
                raise Refused(stmt, f"{name}() calls {what}, which the rule does not convert there")
            if isinstance(call.func, cst.Name) and call.func.value in functions:
                raise Refused(stmt, f"{name}() calls {call.func.value}(), another function of the module")

    def variable_name(self, call: cst.Call, helper: Helper, stmt: cst.BaseStatement) -> str:
        """The variable's name in its scope, once its arguments are proven."""
        name = helper.fn.name.value
        args = arguments(call, GET_VARIABLE_PARAMS, stmt, "tf.get_variable")
        extra = set(args) - {"name", "shape", "dtype", "initializer", "trainable"}
        if extra:
            raise Refused(stmt, f"tf.get_variable({min(extra)}=...) in {name}()")
        literal = args["name"].value if "name" in args else None
        if not isinstance(literal, cst.SimpleString) or not re.fullmatch(r"[\w.-]+", str(literal.evaluated_value)):
            raise Refused(stmt, f"tf.get_variable in {name}() without a literal name")
        initializer = args["initializer"].value if "initializer" in args else None
        if "shape" in args:
            self.drawn_value(args, args, stmt, f" in {name}()")  # (Refused for an initializer it does not know)
        elif initializer is None or set(names_in(initializer).names) - self.rule._aliases or "dtype" in args:  # noqa: SLF001
            raise Refused(stmt, f"tf.get_variable in {name}() without a shape and a literal initial value")
        return str(literal.evaluated_value)

    def bind(self, call: cst.Call, helper: Helper, stmt: cst.BaseStatement) -> dict[str, cst.BaseExpression]:
        """The helper's parameters -> the expressions a call passes them (or their defaults)."""
        name = helper.fn.name.value
        values: dict[str, cst.BaseExpression] = {}
        for index, arg in enumerate(call.args):
            keyword = arg.keyword.value if arg.keyword is not None else None
            if arg.star or (keyword is None and index >= len(helper.params)):
                raise Refused(stmt, f"a call of {name}() with *args, **kwargs or more arguments than it takes")
            if keyword is not None and keyword not in helper.params:
                raise Refused(stmt, f"a call of {name}() with {keyword}=, which it does not take")
            values[keyword or helper.params[index]] = arg.value
        return {**helper.defaults, **values}

    def literal_scope(
        self,
        scope: cst.BaseExpression | None,
        bound: dict[str, cst.BaseExpression],
        helper: Helper,
        stmt: cst.BaseStatement,
    ) -> str | None:
        if scope is None:
            return None
        if isinstance(scope, cst.Name) and scope.value in helper.params:
            scope = bound.get(scope.value)
        if not (isinstance(scope, cst.SimpleString) and isinstance(scope.evaluated_value, str)):
            raise Refused(stmt, f"a variable scope of {helper.fn.name.value}() named by other than a literal string")
        return scope.evaluated_value

    def literal_reuse(
        self,
        reuse: cst.BaseExpression | None,
        bound: dict[str, cst.BaseExpression],
        helper: Helper,
        stmt: cst.BaseStatement,
    ) -> bool | None:
        """True: reuse; False: make (TF1's default at the top of the graph); None: tf.AUTO_REUSE (either)."""
        if isinstance(reuse, cst.Name) and reuse.value in helper.params:
            reuse = bound.get(reuse.value)
        if reuse is None or (isinstance(reuse, cst.Name) and reuse.value in ("False", "None")):
            return False
        if isinstance(reuse, cst.Name) and reuse.value == "True":
            return True
        if self.rule.qualified_in(reuse, AUTO_REUSE):
            return None
        raise Refused(stmt, f"a variable scope of {helper.fn.name.value}() whose reuse is not a literal")

    # -- the code
    def scope_names(self) -> tuple[str, str]:
        """The names of the dict of variables and of the function making them (free in the module)."""
        taken = self.rule.module_names()
        if "scope_store" not in self.names:
            store = next((n for n in ("tf1_variables", "tf1_variables_by_name") if n not in taken), None)
            function = next((n for n in ("get_variable", "get_tf1_variable") if n not in taken), None)
            if store is None or function is None:
                raise Refused(self.block.original[0], "no free name for the variables of get_variable")
            self.names["scope_store"], self.names["get_variable"] = store, function
        return self.names["scope_store"], self.names["get_variable"]

    def scope_code(self) -> None:
        """The helpers' replacements (the first with the dict and the function making the variables)."""
        if not self.scope_helpers:
            return
        if self.saver:
            raise Refused(self.block.original[0], "a Saver with variables a helper makes at the first step")
        store, function = self.scope_names()
        first = True
        for name, helper in self.scope_helpers.items():
            if self.rule.module_names().get(name) != 1 + helper.calls:
                raise Refused(helper.site or helper.fn, f"{name}() is used besides by the graph's calls")
            new = self.rewrite_helper(helper, function)
            if first:
                kind = (
                    "TF1's variables: each made once, at the first call asking for its name (name_scope/name)"
                    if all(h.variables for h in self.scope_helpers.values())
                    else "TF1's get_variable: each variable made once, at the first call asking for its name (scope/name)"
                )
                code = (
                    f"# {kind}\n"
                    f"{store} = {{}}\n\n\n"
                    f"def {function}(name, initial_value, trainable=True):\n"
                    f"    if name not in {store}:\n"
                    f"        {store}[name] = {self.alias}.Variable(initial_value, trainable=trainable, name=name)\n"
                    f"    return {store}[name]\n"
                )
                made = list(cst.parse_module("pass\n" + code).body)[1:]  # (the comment stays the statement's)
                blank = [cst.EmptyLine(indent=False)] * 2
                made[0] = made[0].with_changes(leading_lines=[*new.leading_lines, *made[0].leading_lines])
                new = new.with_changes(leading_lines=blank)
                self.replacements[id(helper.fn)] = [*made, new]
                first = False
            else:
                self.replacements[id(helper.fn)] = [new]

    def rewrite_helper(self, helper: Helper, function: str) -> cst.FunctionDef:
        """The helper as the pass left it, each get_variable call made `function(<TF1 name>, lambda: <value>)`
        and each variable scope's statements in its place."""
        updated = cast(cst.FunctionDef, self.up(helper.fn))
        before, after = evaluation_order(helper.fn), evaluation_order(updated)
        withs, new_withs = collect(helper.fn, cst.With), collect(updated, cst.With)
        if len(before) != len(after) or len(withs) != len(new_withs):
            raise Refused(helper.site or helper.fn, f"{helper.fn.name.value}() changed shape in the safe pass")
        position = {id(call): index for index, call in enumerate(before)}
        calls = {
            id(after[position[id(m.call)]]): self.variable_code(m, after[position[id(m.call)]], function)
            for m in helper.made
        }
        scopes = {id(new_withs[withs.index(w)]) for w in helper.scopes}

        class Rewrite(cst.CSTTransformer):
            def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
                code = calls.get(id(original_node))
                return cst.parse_expression(code) if code else updated_node

            def leave_With(
                self, original_node: cst.With, updated_node: cst.With
            ) -> cst.With | cst.FlattenSentinel[cst.BaseStatement]:
                if id(original_node) not in scopes:
                    return updated_node
                body = list(cast(cst.IndentedBlock, updated_node.body).body)
                body[0] = body[0].with_changes(leading_lines=[*updated_node.leading_lines, *leading(body[0])])
                return cst.FlattenSentinel(body)

        return cast(cst.FunctionDef, updated.visit(Rewrite()))

    def variable_code(self, made: Made, new: cst.Call, function: str) -> str:
        """`function(<TF1 name>, lambda: <the initial value>)` for a get_variable call (`new`: as the pass left it)."""
        if made.variable:  # (tf.Variable under a literal name scope: its initial value and trainable as given)
            given = arguments(new, VARIABLE_PARAMS, made.call, "tf.Variable")
            key = json.dumps(tf1_name(made))
            trainable = f", trainable={source_of(given['trainable'].value)}" if "trainable" in given else ""
            return f"{function}({key}, lambda: {source_of(given['initial_value'].value)}{trainable})"
        args = {p: a.value for p, a in arguments(new, GET_VARIABLE_PARAMS, made.call, "tf.get_variable").items()}
        originals = arguments(made.call, GET_VARIABLE_PARAMS, made.call, "tf.get_variable")
        if made.scope is None:
            key = json.dumps(made.name)
        elif isinstance(made.scope, cst.Name):
            key = f'f"{{{made.scope.value}}}/{made.name}"'
        else:
            key = json.dumps(f"{cast(str, cast(cst.SimpleString, made.scope).evaluated_value)}/{made.name}")
        if "shape" in args:
            updated = arguments(new, GET_VARIABLE_PARAMS, made.call, "tf.get_variable")
            value = self.drawn_value(originals, updated, made.call, "")
        else:
            value = source_of(args["initializer"])
        trainable = f", trainable={source_of(args['trainable'])}" if "trainable" in args else ""
        return f"{function}({key}, lambda: {value}{trainable})"

    def trainable_variables(
        self, line: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine:
        """`tf.trainable_variables()` in the run region, where the graph's variables are all get_variable's: the
        trainable ones of the dict, in the order they were made (TF1's order)."""
        found = [c for c in evaluation_order(line) if self.rule.is_call(c, TRAINABLE_VARIABLES)]
        if not found or not self.scope_helpers:
            return updated
        if self.variables or self.layers_pending or any(c.args for c in found):
            raise Refused(line, "tf.trainable_variables() with variables besides get_variable's, or arguments")
        if not self.steps_seen:
            raise Refused(line, "tf.trainable_variables() before any step (get_variable makes them at the first)")
        store, _ = self.scope_names()
        before, after = evaluation_order(line), evaluation_order(updated)
        if len(before) != len(after):
            raise Refused(line, "the line changed shape in the safe pass")
        targets = {id(after[before.index(c)]) for c in found}
        code = f"[variable for variable in {store}.values() if variable.trainable]"
        self.trainable_read = True

        class Replace(cst.CSTTransformer):
            def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
                return cst.parse_expression(code) if id(original_node) in targets else updated_node

        return cast(cst.SimpleStatementLine, updated.visit(Replace()))
