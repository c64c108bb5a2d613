"""What native-session proves and writes (codemods/rules/native_session.py is the rule): the TF1 names it
reads, the statements of a Session script's block it classifies (graph, host, session, saver), and the
native code it writes for them; `Refused` says why a block stays at the safe level."""

from __future__ import annotations

import dataclasses
import keyword
import re
from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar, cast

import libcst as cst

from codemods.engine.rule import Rule
from codemods.rules import _native_tables as tables
from codemods.rules import _tf
from codemods.rules._shared import graph_names


class NativeSessionRule(Protocol):
    """What a Converter asks the native-session rule (codemods/rules/native_session.py): a Protocol, so
    this module does not import the rule that imports it."""

    _aliases: set[str]
    _updated: dict[int, cst.BaseStatement]
    _functions: list[tuple[int, cst.FunctionDef]]

    def module_names(self) -> dict[str, int]: ...
    def session_call(self, stmt: cst.BaseStatement) -> tuple[cst.Call, str] | None: ...
    def tf_names(self, call: cst.Call) -> frozenset[str]: ...
    def is_call(self, node: cst.CSTNode, names: Iterable[str]) -> str | None: ...
    def qualified_in(self, node: cst.CSTNode, names: frozenset[str]) -> bool: ...
    def shadowed_tf(self, node: cst.CSTNode) -> bool: ...
    def tf_calls(self, node: cst.CSTNode) -> list[cst.Call]: ...


_PREFIXES = ("tensorflow.", "tensorflow.compat.v1.")
_Node = TypeVar("_Node", bound=cst.CSTNode)


def _names(*names: str) -> frozenset[str]:
    return frozenset(p + n for n in names for p in _PREFIXES)


SESSIONS = _names("Session", "InteractiveSession")
PLACEHOLDER = _names("placeholder")
VARIABLE = _names("Variable")
INITIALIZERS = _names("global_variables_initializer", "initialize_all_variables")
SEED = _names("set_random_seed")
WITH_DEFAULT = _names("placeholder_with_default")
SAVER = _names("train.Saver")
SIDE_EFFECTS = frozenset({"tensorflow.print", "tensorflow.io.write_file"})
GET_VARIABLE = _names("get_variable")
GLOBAL_STEP = _names("train.get_or_create_global_step", "train.create_global_step")
ASSIGNS = {p + n: n for n in ("assign", "assign_add", "assign_sub") for p in _PREFIXES}
# v1 summary ops the rule writes as tf.summary v2 (the same tag; v2 takes the step where v1's FileWriter did)
SUMMARIES = {p + "summary." + n: n for n in ("scalar", "histogram") for p in _PREFIXES}
MERGE_ALL = _names("summary.merge_all")
FILE_WRITER = _names("summary.FileWriter")
CONTROL_DEPENDENCIES = _names("control_dependencies")
GET_COLLECTION = _names("get_collection")
UPDATE_OPS = _names("GraphKeys.UPDATE_OPS")
LOSSES = {p + "losses." + n: n for n in tables.LOSSES for p in _PREFIXES}
# the dtype of a placeholder_with_default's literal default
_LITERAL_DTYPES = {cst.Name: "bool", cst.Integer: "int32", cst.Float: "float32"}
# TF1's tf.Variable parameters in positional order (TF 2's takes initial_value, trainable, name and dtype alike)
VARIABLE_PARAMS = (
    "initial_value",
    "trainable",
    "collections",
    "validate_shape",
    "caching_device",
    "name",
    "variable_def",
    "dtype",
)
OPTIMIZERS = {p + "train." + n: n for n in tables.OPTIMIZERS for p in _PREFIXES}
LAYERS = {p + "layers." + n: n for n in tables.LAYERS for p in _PREFIXES}
# what a function the graph calls may not do: it would run on every step of the converted code
STATEFUL = frozenset({*_names("variable_scope", "get_variable", "get_collection"), *VARIABLE, *LAYERS})
_EMPTY = cst.Module(body=[])
_EQUAL = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
_INITIALIZER = "<tf.global_variables_initializer()>"  # what sess.run(tf.global_variables_initializer()) fetches


def source_of(node: cst.CSTNode) -> str:
    return _EMPTY.code_for_node(node)


class Refused(Exception):
    """The block is not proven to be the shape: it stays at the safe level, and the report says why."""

    def __init__(self, node: cst.CSTNode, why: str) -> None:
        super().__init__(why)
        self.node, self.why = node, why


class _Reads(cst.CSTVisitor):
    """The names a node reads or binds (Name nodes, not attribute names or keywords), and its Call nodes."""

    def __init__(self, into_lines: bool = True) -> None:
        self.names: list[str] = []
        self.nodes: list[cst.Name] = []
        self.calls: list[cst.Call] = []
        self._into_lines = into_lines

    def visit_Name(self, node: cst.Name) -> None:
        self.names.append(node.value)
        self.nodes.append(node)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        return self._into_lines


def names_in(node: cst.CSTNode, into_lines: bool = True) -> _Reads:
    found = _Reads(into_lines)
    if isinstance(node, cst.SimpleStatementLine) and not into_lines:
        return found
    node.visit(found)
    return found


def _collect(node: cst.CSTNode, kind: type[_Node], below: bool = True) -> list[_Node]:
    """The nodes of `kind` in `node` (itself included), in the order of the source; `below`: also those
    inside one found."""
    found: list[_Node] = []

    class Collect(cst.CSTVisitor):
        def on_visit(self, child: cst.CSTNode) -> bool:
            if isinstance(child, kind):
                found.append(child)
                return below
            return True

    node.visit(Collect())
    return found


def _lines(node: cst.CSTNode) -> list[cst.SimpleStatementLine]:
    """Every simple statement line inside a compound statement (or the line itself)."""
    return _collect(node, cst.SimpleStatementLine, below=False)


def single(stmt: cst.BaseStatement) -> cst.BaseSmallStatement | None:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        return stmt.body[0]
    return None


def assigned(small: cst.BaseSmallStatement | None) -> tuple[str | None, cst.BaseExpression | None]:
    """(`name`, value) of `name = value`, else (None, None)."""
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
        return small.targets[0].target.value, small.value
    return None, None


def _target_names(small: cst.BaseSmallStatement) -> list[str] | None:
    """The names an assignment binds (`a = ...`, `a, b = ...`), None for anything else."""
    if not isinstance(small, cst.Assign):
        return None
    names: list[str] = []
    for target in small.targets:
        node = target.target
        elements = node.elements if isinstance(node, (cst.Tuple, cst.List)) else [cst.Element(node)]
        for element in elements:
            if not isinstance(element.value, cst.Name):
                return None
            names.append(element.value.value)
    return names


def arguments(call: cst.Call, params: Sequence[str], node: cst.CSTNode, what: str) -> dict[str, cst.Arg]:
    """A call's arguments by parameter name (positional ones in `params` order); Refused for others."""
    found: dict[str, cst.Arg] = {}
    for index, arg in enumerate(call.args):
        if arg.star:
            raise Refused(node, f"{what} with *args or **kwargs")
        if arg.keyword is None:
            if index >= len(params):
                raise Refused(node, f"{what} with more positional arguments than the rule knows")
            found[params[index]] = arg
        elif arg.keyword.value in params:
            found[arg.keyword.value] = arg
        else:
            raise Refused(node, f"{what}({arg.keyword.value}=...), which the native equivalent does not take as is")
    return found


@dataclasses.dataclass
class Block:
    """A function body or the module body, with its statements as the pass left them."""

    original: Sequence[cst.BaseStatement]
    updated: Sequence[cst.BaseStatement]
    top: int | None  # the top-level statement holding the block (None: the module itself)


def _comments_only(stmt: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
    """A statement moved into a new block: its comments kept above it, at the block's indentation."""
    comments = [cst.EmptyLine(comment=line.comment) for line in stmt.leading_lines if line.comment]
    return stmt.with_changes(leading_lines=comments)


def leading(stmt: cst.BaseStatement) -> Sequence[cst.EmptyLine]:
    """A statement's blank lines and comments above it (every statement kind has them)."""
    return cast(Sequence[cst.EmptyLine], getattr(stmt, "leading_lines", ()))


def descendants(node: cst.CSTNode) -> list[cst.CSTNode]:
    return _collect(node, cast("type[cst.CSTNode]", cst.CSTNode))  # (mypy: the abstract base is a kind too)


def all_names(node: cst.CSTNode) -> list[cst.Name]:
    return _collect(node, cst.Name)


def _bound(stmt: cst.CSTNode) -> set[str]:
    """The names a statement (and the statements inside it) binds by assignment or as a loop target."""
    found: set[str] = set()

    class Bound(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            found.update(n.value for n in all_names(node.target) if _is_binding(node.target, n))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            found.update(n.value for n in all_names(node.target) if _is_binding(node.target, n))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            found.update(n.value for n in all_names(node.target) if _is_binding(node.target, n))

        def visit_For(self, node: cst.For) -> None:
            found.update(n.value for n in all_names(node.target) if _is_binding(node.target, n))

        def visit_AsName(self, node: cst.AsName) -> None:
            found.update(n.value for n in all_names(node.name))

    stmt.visit(Bound())
    return found


def _is_binding(target: cst.BaseExpression, name: cst.Name) -> bool:
    """Is `name` bound by assigning to `target` (not a name read in `a[i] = ...` or `a.b = ...`)?"""
    if isinstance(target, cst.Name):
        return target is name
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_is_binding(e.value, name) for e in target.elements)
    if isinstance(target, cst.StarredElement):
        return _is_binding(target.value, name)
    return False


@dataclasses.dataclass
class _Layer:
    var: str  # the Python name of the layer object
    keras: str  # the Keras class
    keywords: list[str]  # the constructor's keyword arguments, as code
    name: str  # the TF1 name (its variables' scope)


class Converter:
    """One block's conversion: Refused, or the replacement of each of its statements."""

    def __init__(self, rule: NativeSessionRule, block: Block) -> None:
        self.rule, self.block = rule, block
        self.placeholders: dict[str, tuple[str, str]] = {}  # name -> (dtype, shape) as code
        self.defaults: dict[str, str] = {}  # placeholder_with_default's name -> its default, as code
        self.sess = ""  # the first session's name (for the report)
        self.sessions: set[str] = set()
        self.session_number = 0  # sessions entered so far, in the order of the block
        self.saver: str | None = None  # `saver = tf.train.Saver()` -> saver
        self.datasets: set[str] = set()  # names bound to a tf.data pipeline (they stay, built eagerly)
        # `x, y = dataset.make_one_shot_iterator().get_next()`: (dataset, the element's names, one name?)
        self.inputs: tuple[str, list[str], bool] | None = None
        self.depends: dict[str, set[str]] = {}  # graph name -> the graph names it is computed from
        self.steps_seen = False  # a train_step / evaluate call written before this line
        self.layers_pending = False  # the graph has tf.layers calls (their Keras variables appear at the first step)
        self.feed_lines: dict[int, str] = {}  # id(line) of `feed = {x: ..., y: ...}` in the run region -> `feed`
        self.graph: set[str] = set()  # every name the graph binds
        self.variables: set[str] = set()
        self.computes: list[cst.SimpleStatementLine] = []
        self.train_op: str | None = None
        self.loss = ""
        self.optimizer_code = ""
        self.optimizer_said = ""
        self.inits: set[str] = set()
        self.host_reads: dict[str, cst.CSTNode] = {}  # host names the graph's expressions read
        self.rebound: set[str] = set()  # names bound after the graph reads them
        self.train_outputs: list[str] | None = None
        self.eval_outputs: list[str] = []
        self.replacements: dict[int, list[cst.BaseStatement]] = {}
        self.alias = "tf"
        self.names: dict[str, str] = {}  # model, train_step, evaluate, optimizer -> the names written
        self.layers: list[_Layer] = []
        self.losses = 0  # tf.losses calls rewritten
        self.tf1_counts: dict[str, int] = {}  # base name -> how many TF1 uniquified so far
        self.tf1_taken: set[str] = set()
        self.assigns: dict[str, tuple[str, str]] = {}  # assign op's name -> (its variable, the eager call as code)
        self.unmerged: list[tuple[str, str, str]] = []  # summaries no merge_all collected yet: (kind, tag, tensor)
        self.merged: dict[str, list[tuple[str, str, str]]] = {}  # merge_all's name -> the summaries it collects
        self.merge_lines: dict[int, cst.SimpleStatementLine] = {}  # id(merge_all line) -> its line in model()
        self.writer: str | None = None  # `writer = tf.summary.FileWriter(logdir)` -> writer
        self.summary_values: dict[str, str] = {}  # a name holding a fetched merge_all -> that merge_all's name
        self.summary_uses: set[int] = set()  # id() of the Name nodes of those names the conversion reads
        self.state_runs = False  # a sess.run of assign ops or variables only

    def up(self, node: cst.CSTNode) -> cst.CSTNode:
        return self.rule._updated.get(id(node), node)  # noqa: SLF001 - the rule's record of the pass

    # -- the proof
    def watched(self) -> set[str]:
        """The names the converted code no longer has: the graph's, the sessions', the saver's."""
        return self.graph | self.sessions | {n for n in (self.saver, self.writer) if n}

    def convert(self, session: int) -> tuple[dict[int, list[cst.BaseStatement]], set[int], str]:
        stmts = self.block.original
        heads = {i: self.rule.session_call(s) for i, s in enumerate(stmts) if i >= session}
        sessions = {i: found for i, found in heads.items() if found is not None}
        self.sess = sessions[session][1]
        self.sessions = {name for _, name in sessions.values()}
        for call, _ in sessions.values():
            if call.args:
                raise Refused(call, "tf.Session(...) with arguments (a target or a config the eager runtime sets)")
        self.alias = _tf.tf_alias(cast(Rule, self.rule), sessions[session][0].func)  # the rule is a Rule
        last = -1
        for index, stmt in enumerate(stmts[:session]):
            if self.graph_statement(stmt):
                last = index
        head = stmts[session]
        area = list(stmts[session:])
        if self.inputs is not None and not set(self.inputs[1]) & self.depends.get(self.loss, set()):
            raise Refused(head, "a tf.data input the loss does not read (TF1 draws only when a fetch needs it)")
        self.layers_pending = any(self.rule.is_call(c, LAYERS) for s in self.computes for c in names_in(s).calls)
        self.choose_names()
        self.feed_lines = self.feed_variables(area)
        for index, stmt in enumerate(stmts[session:], start=session):
            if index in sessions:
                self.session_number += 1
                body = cast(cst.IndentedBlock, stmt.body).body if isinstance(stmt, cst.With) else ()
                self.replacements[id(stmt)] = [new for line in body for new in self.run_statement(line)]
            else:
                self.replacements[id(stmt)] = self.run_statement(stmt)
        bound = set().union(*(_bound(s) for s in area))
        captured = sorted(set(self.host_reads) & (self.rebound | bound))
        if captured:
            name = captured[0]
            raise Refused(self.host_reads[name], f"the graph reads `{name}`, which changes after the graph is built")
        if self.graph & bound:
            raise Refused(head, f"`{min(self.graph & bound)}`, a graph name, is re-bound after the session starts")
        if self.unmerged:
            raise Refused(head, f"a tf.summary.{self.unmerged[0][0]} no merge_all collects")
        self.check_summary_values(area)
        if self.train_op is None and not self.eval_outputs and not self.state_runs:
            raise Refused(head, "no sess.run of the graph's tensors or of an optimizer's minimize(loss)")
        generated = self.generate()
        self.replacements.setdefault(id(stmts[last]), [])
        self.replacements[id(stmts[last])] = [*self.replacements[id(stmts[last])], *generated]
        self.check_result(head)
        # the graph-mode calls this conversion removes (any other one in the file keeps it at the safe level)
        removed = [s for s in stmts[:session] if id(s) in self.replacements]
        covered = {id(c) for s in removed for c in names_in(s).calls} | {id(call) for call, _ in sessions.values()}
        return self.replacements, covered, self.said()

    def graph_statement(self, stmt: cst.BaseStatement) -> bool:
        """Classify a statement before the session: True when it is part of the graph (it is replaced)."""
        if isinstance(stmt, cst.SimpleStatementLine) and all(
            isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body
        ):
            return False
        rule = self.rule
        if rule.shadowed_tf(stmt):
            raise Refused(stmt, "a name bound to TensorFlow is something else here")
        reads = names_in(stmt)
        tf_calls = rule.tf_calls(stmt)
        small = single(stmt)
        name, value = assigned(small)
        if name is not None and isinstance(value, cst.Call):
            if rule.is_call(value, PLACEHOLDER):
                return self.placeholder(stmt, name, value)
            if rule.is_call(value, WITH_DEFAULT):
                return self.placeholder_with_default(stmt, name)
            if rule.is_call(value, SAVER):
                if value.args or self.saver is not None:
                    raise Refused(stmt, "a tf.train.Saver with arguments (var_list, max_to_keep ...), or two")
                self.saver = name
                self.replacements[id(stmt)] = []
                return True
            if rule.is_call(value, GET_VARIABLE):
                return self.get_variable(stmt, name, value)
            if rule.is_call(value, GLOBAL_STEP) and not value.args:
                return self.global_step(stmt, name)
            if rule.is_call(value, MERGE_ALL) and not value.args:
                return self.merge_all(stmt, name)
            if rule.is_call(value, FILE_WRITER):
                return self.file_writer(stmt, name)
            if self.assigned_variable(value) is not None:
                return self.assign(stmt, name, value)
            if rule.is_call(value, VARIABLE):
                return self.variable(stmt, name, value)
            if rule.is_call(value, INITIALIZERS) and not value.args:
                self.inits.add(name)
                self.graph.add(name)
                self.replacements[id(stmt)] = []
                return True
            func = value.func
            if isinstance(func, cst.Attribute) and func.attr.value == "minimize":
                if rule.is_call(func.value, OPTIMIZERS):
                    return self.minimize(stmt, name, value)
        if name is not None and value is not None and self.dataset_head(value):
            if set(reads.names) & self.graph:
                raise Refused(stmt, "a tf.data pipeline built from the graph's tensors")
            self.datasets.add(name)
            self.replacements[id(stmt)] = [self.tf2_dataset(cast(cst.BaseStatement, self.up(stmt)))]
            return False
        if isinstance(small, cst.Assign) and self.one_shot(small.value) is not None:
            return self.iterator(stmt, small)
        if isinstance(stmt, cst.With) and self.updates_first(stmt):
            inner = cast(cst.IndentedBlock, stmt.body).body[0]
            name, value = assigned(single(inner))
            self.minimize(inner, cast(str, name), cast(cst.Call, value), statement=stmt)
            return True
        if isinstance(small, cst.Expr) and rule.is_call(small.value, SUMMARIES):
            return self.summary(stmt, cast(cst.Call, small.value))
        if isinstance(small, cst.Expr) and rule.is_call(small.value, SEED):
            updated = cast(cst.Expr, single(cast(cst.BaseStatement, self.up(stmt)))).value
            args = ", ".join(source_of(a) for a in cast(cst.Call, updated).args).rstrip(", ")
            self.replacements[id(stmt)] = [cst.parse_statement(f"{self.alias}.random.set_seed({args})\n")]
            return False
        if not tf_calls and not set(reads.names) & self.graph:
            if self.computes:
                self.rebound |= _bound(stmt)
            return False
        for call in reads.calls:  # model() computes every graph tensor on each call: no side effects allowed
            method = call.func.attr.value if isinstance(call.func, cst.Attribute) else ""
            effect = self.rule.tf_names(call) & SIDE_EFFECTS
            if method.startswith(("assign", "scatter_")) or effect:
                what = min(effect) if effect else f".{method}()"
                raise Refused(stmt, f"{what} in the graph: run on every step in TF 2, only when fetched in TF1")
        for call in tf_calls:
            names = self.rule.tf_names(call)
            machinery = [n for n in names if n.startswith(tuple(p + "train." for p in _PREFIXES))]
            if machinery or names & graph_names():
                raise Refused(stmt, f"{_tf.full_name(call.func)}, which the rule does not convert")
        if small is None or not isinstance(stmt, cst.SimpleStatementLine):
            raise Refused(stmt, f"a {type(stmt).__name__} statement that builds the graph")
        targets = _target_names(small)
        if targets is None:
            raise Refused(stmt, "a graph statement that is not an assignment to names")
        fixed = set(targets) & (set(self.placeholders) | self.variables | {self.train_op})
        if fixed:
            raise Refused(stmt, f"`{min(fixed)}` (a placeholder, variable or train op) is re-bound")
        self.check_helpers(stmt, reads.calls)
        value_names = set(names_in(cast(cst.Assign, small).value).names)
        for read in sorted(value_names - self.graph - self.rule._aliases):  # noqa: SLF001
            self.host_reads.setdefault(read, stmt)
        self.computes.append(stmt)
        sources: set[str] = value_names & self.graph
        for target in targets:
            self.depends[target] = sources.union(*(self.depends.get(r, {r}) for r in sources))
        self.graph.update(targets)
        self.replacements[id(stmt)] = []
        return True

    def check_helpers(self, stmt: cst.BaseStatement, calls: Sequence[cst.Call]) -> None:
        """A graph expression calling a function of this module: model() calls it on every step, eagerly, so it
        may not build graph state (variables, scopes, layers) nor keep code the safe pass left in tf.compat.v1."""
        functions = {fn.name.value: fn for _, fn in self.rule._functions}  # noqa: SLF001
        for call in calls:
            fn = functions.get(call.func.value) if isinstance(call.func, cst.Name) else None
            if fn is None:
                continue
            made = [c for c in names_in(fn).calls if self.rule.is_call(c, STATEFUL)]
            left = re.search(r"\w+\.compat\.v1\.[\w.]+", source_of(self.up(fn)))
            if made or left:
                what = _tf.full_name(made[0].func) if made else cast(re.Match, left).group(0)
                raise Refused(
                    stmt,
                    f"the graph calls {fn.name.value}(), which builds graph state the rule does not convert ({what})",
                )

    def updated_call(self, stmt: cst.BaseStatement) -> cst.Call:
        _, value = assigned(single(cast(cst.BaseStatement, self.up(stmt))))
        if not isinstance(value, cst.Call):
            raise Refused(stmt, "the statement changed shape in the safe pass")
        return value

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

    def dataset_head(self, value: cst.BaseExpression) -> bool:
        """Is `value` a method chain on a tf.data call (`tf.data.Dataset.from_tensor_slices(...).batch(4)`)?"""
        while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
            if any(n.startswith(tuple(p + "data." for p in _PREFIXES)) for n in self.rule.tf_names(value)):
                return True
            value = value.func.value
        return False

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
        if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and not value.args):
            return None
        made = value.func.value
        if value.func.attr.value != "get_next" or not isinstance(made, cst.Call) or made.args:
            return None
        if not isinstance(made.func, cst.Attribute) or made.func.attr.value != "make_one_shot_iterator":
            return None
        dataset = made.func.value
        return dataset.value if isinstance(dataset, cst.Name) and dataset.value in self.datasets else None

    def iterator(self, stmt: cst.BaseStatement, small: cst.Assign) -> bool:
        """`x, y = dataset.make_one_shot_iterator().get_next()` -> `iterator = iter(dataset)`: each step
        takes the next element, as each sess.run of the train op drew one."""
        dataset = cast(str, self.one_shot(small.value))
        targets = _target_names(small)
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

    def placeholder_with_default(self, stmt: cst.BaseStatement, name: str) -> bool:
        """An argument that calls not feeding it pass its default (a literal: its dtype is the literal's)."""
        args = arguments(self.updated_call(stmt), ("input", "shape", "name"), stmt, "tf.placeholder_with_default")
        default = args["input"].value if "input" in args else None
        dtype = _LITERAL_DTYPES.get(type(default)) if default is not None else None
        if isinstance(default, cst.Name) and default.value not in ("True", "False"):
            dtype = None
        if dtype is None or "shape" not in args:
            raise Refused(stmt, "tf.placeholder_with_default of something other than a literal, or without a shape")
        self.placeholders[name] = (f"{self.alias}.{dtype}", source_of(args["shape"].value))
        self.defaults[name] = source_of(cast(cst.BaseExpression, default))
        self.graph.add(name)
        self.replacements[id(stmt)] = []
        return True

    def updates_first(self, stmt: cst.With) -> bool:
        """`with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)): train_op = opt.minimize(loss)`:
        the layers' updates (batch norm's moving statistics) before the step, which Keras layers run in their call."""
        if len(stmt.items) != 1 or stmt.items[0].asname is not None or not isinstance(stmt.body, cst.IndentedBlock):
            return False
        call = stmt.items[0].item
        if not (isinstance(call, cst.Call) and self.rule.is_call(call, CONTROL_DEPENDENCIES) and len(call.args) == 1):
            return False
        collection = call.args[0].value
        if not (isinstance(collection, cst.Call) and self.rule.is_call(collection, GET_COLLECTION)):
            return False
        key = collection.args[0].value if len(collection.args) == 1 else None
        if key is None or not self.rule.qualified_in(key, UPDATE_OPS) or len(stmt.body.body) != 1:
            return False
        name, value = assigned(single(stmt.body.body[0]))
        func = value.func if isinstance(value, cst.Call) else None
        return name is not None and isinstance(func, cst.Attribute) and func.attr.value == "minimize"

    def variable(self, stmt: cst.BaseStatement, name: str, call: cst.Call) -> bool:
        params = VARIABLE_PARAMS
        args = arguments(call, params, stmt, "tf.Variable")
        extra = set(args) - {"initial_value", "trainable", "name", "dtype"}
        if extra or "initial_value" not in args:
            raise Refused(stmt, f"tf.Variable({min(extra or {'no initial value'})}=...)")
        if set(names_in(args["initial_value"].value).names) & self.graph:
            raise Refused(stmt, "a variable initialised from the graph's tensors")
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

    def minimize(
        self, stmt: cst.BaseStatement, name: str, call: cst.Call, statement: cst.BaseStatement | None = None
    ) -> bool:
        if self.train_op is not None:
            raise Refused(stmt, "a second train op")
        if len(call.args) != 1 or call.args[0].keyword is not None or not isinstance(call.args[0].value, cst.Name):
            raise Refused(stmt, "minimize() with arguments besides the loss (global_step, var_list ...)")
        loss = call.args[0].value.value
        if loss not in self.graph or loss in self.placeholders or loss in self.variables:
            raise Refused(stmt, f"minimize({loss}) of a name the graph does not compute")
        optimizer = self.rule.is_call(cast(cst.Attribute, call.func).value, OPTIMIZERS)
        if optimizer is None:
            raise Refused(
                stmt, f"{_tf.full_name(cast(cst.Attribute, call.func).value)}: not a tf.train optimizer the rule knows"
            )
        kind = OPTIMIZERS[optimizer]
        row = tables.OPTIMIZERS[kind]
        updated = cast(cst.Call, cast(cst.Attribute, self.updated_call(stmt).func).value)
        args = arguments(updated, row.params, stmt, f"tf.train.{kind}")
        if "use_locking" in args:
            raise Refused(stmt, f"tf.train.{kind}(use_locking=...)")
        values = {p: source_of(a.value) for p, a in args.items()}
        self.optimizer_code, self.optimizer_said = tables.keras_optimizer(self.alias, kind, values)
        self.train_op, self.loss = name, loss
        self.graph.add(name)
        self.replacements[id(statement or stmt)] = []
        return True

    # -- TF1's graph-unique names, written out
    def tf1_name(self, base: str) -> str:
        count = self.tf1_counts.get(base, 0)
        while True:
            name = base if count == 0 else f"{base}_{count}"
            count += 1
            if name not in self.tf1_taken:
                break
        self.tf1_counts[base] = count
        self.tf1_taken.add(name)
        return name

    def take_name(self, name: str, node: cst.CSTNode) -> None:
        if name in self.tf1_taken:
            raise Refused(node, f"two variables or layers named {name!r}: TF1 would have renamed one")
        self.tf1_taken.add(name)

    def choose_names(self) -> None:
        """model / train_step / evaluate / optimizer, or with a suffix where the module uses the name."""
        removed = {cast(str, self.train_op), *self.inits}
        block_names = [n for s in self.block.original for n in names_in(s).names]
        everywhere = self.rule.module_names()
        for wanted in ("model", "train_step", "evaluate", "optimizer"):
            name = wanted
            if name in everywhere and not (name in removed and everywhere[name] == block_names.count(name)):
                name = f"{wanted}_fn"
                if name in everywhere:
                    raise Refused(self.block.original[0], f"both {wanted} and {name} are used in this module")
            self.names[wanted] = name

    # -- the run region
    def run_statement(self, stmt: cst.BaseStatement) -> list[cst.BaseStatement]:
        watched = self.watched()
        if isinstance(stmt, cst.SimpleStatementLine):
            return self.run_line(stmt)
        if set(names_in(stmt, into_lines=False).names) & watched:
            raise Refused(stmt, "the graph or the session is used outside a sess.run statement")
        lines = {id(self.up(line)): self.run_line(line) for line in _lines(stmt)}
        changed = {key: new for key, new in lines.items() if not (len(new) == 1 and id(new[0]) == key)}

        class Replace(cst.CSTTransformer):
            def leave_SimpleStatementLine(
                self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
            ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement] | cst.RemovalSentinel:
                if id(original_node) not in changed:
                    return updated_node
                new = changed[id(original_node)]
                return cst.FlattenSentinel(new) if new else cst.RemoveFromParent()

        updated = cast(cst.BaseStatement, self.up(stmt))
        return [cast(cst.BaseStatement, updated.visit(Replace()))]

    def feed_variables(self, run: Sequence[cst.BaseStatement]) -> dict[int, str]:
        """The run region's `feed = {x: ..., y: ...}` lines (every key a placeholder), when the name is
        used only so and as sess.run's feed: they become `feed = {"x": ..., "y": ...}` and `step(**feed)`."""
        lines = [line for stmt in run for line in _lines(stmt)]
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

    def feed_argument(self, line: cst.CSTNode, run: cst.Call) -> cst.BaseExpression | None:
        args = arguments(run, ("fetches", "feed_dict"), line, f"{self.sess}.run")
        return args["feed_dict"].value if "feed_dict" in args else None

    def run_line(self, line: cst.SimpleStatementLine) -> list[cst.BaseStatement]:
        updated = cast(cst.SimpleStatementLine, self.up(line))
        if self.rule.shadowed_tf(line):
            raise Refused(line, "a name bound to TensorFlow is something else here")
        if id(line) in self.feed_lines:
            return [self.string_keys(line, updated)]
        small = single(line)
        value = small.value if isinstance(small, (cst.Expr, cst.Assign)) else None
        if isinstance(small, cst.Expr) and isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
            if value.func.attr.value == "run" and self.rule.is_call(value.func.value, INITIALIZERS):
                return self.initializer(line)  # tf.global_variables_initializer().run()
            if self.session_method(value) == "close" and not value.args:
                return []
            if self.writer_method(value) in ("close", "flush") and not value.args:
                return [updated]  # (TF 2's summary writer has both)
            if self.writer_method(value) == "add_summary":
                return [self.add_summary(line, value, cast(cst.Call, cast(cst.Expr, single(updated)).value))]
        reads = names_in(line)
        if not set(reads.names) & self.watched():
            return [updated]
        runs = [c for c in reads.calls if self.session_method(c) == "run"]
        saving = [c for c in reads.calls if self.saver_method(c)]
        inside = {id(n) for call in (*runs, *saving) for n in descendants(call)}
        outside = [n for n in reads.nodes if id(n) not in inside and n.value in self.watched()]
        if outside:
            raise Refused(line, f"`{outside[0].value}` is used outside a sess.run call the rule reads")
        updated_runs = [c for c in names_in(updated).calls if self.session_method(c) == "run"]
        updated_saving = [c for c in names_in(updated).calls if self.saver_method(c)]
        if len(updated_runs) != len(runs) or len(updated_saving) != len(saving):
            raise Refused(line, "the sess.run calls changed in the safe pass")
        if saving:
            return [self.checkpoint_line(line, small, saving, updated, updated_saving, bool(runs))]
        parsed = [self.fetches(line, run) for run in runs]
        self.steps_seen = True  # (a Refused below ends the conversion anyway)
        if len(runs) == 1 and runs[0] is value:
            fetches, listed = parsed[0]
            if set(fetches) <= self.inits and isinstance(small, cst.Expr):
                return self.initializer(line)
            if set(fetches) <= self.state() and isinstance(small, cst.Expr):
                self.state_run(line, runs[0], fetches)
                return [cst.parse_statement(self.assigns[f][1] + "\n") for f in fetches if f in self.assigns]
            if self.train_op in fetches:
                call_args = self.feed(line, runs[0], updated_runs[0])
                return [cst.parse_statement(self.training_call(line, small, runs[0], fetches, listed, call_args))]
        replaced: dict[int, cst.BaseExpression] = {}
        for run, new, (fetches, listed) in zip(runs, updated_runs, parsed):
            if self.train_op in fetches and listed and fetches.index(self.train_op) == 0 and len(runs) == 1:
                # sess.run([train_op, loss, ...]) in an expression: the list it returned, None first
                self.train_fetches(line, fetches)
                self.record_summaries(line, small, run, fetches, listed)  # (a fetched merge_all: Refused)
                step = f"{self.names['train_step']}({self.feed(line, run, new)})"
                rest = f"{step}.numpy()" if len(fetches) == 2 else f"*(value.numpy() for value in {step})"
                replaced[id(new)] = cst.parse_expression(f"[None, {rest}]" if len(fetches) > 1 else "[None]")
                continue
            if self.train_op in fetches or set(fetches) & self.inits:
                raise Refused(line, "a sess.run of the train op or the initializer inside an expression")
            replaced[id(new)] = cst.parse_expression(self.evaluation(line, small, run, new, fetches, listed))

        class Evaluations(cst.CSTTransformer):
            def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
                return replaced.get(id(original_node), updated_node)

        return [cast(cst.SimpleStatementLine, updated.visit(Evaluations()))]

    def evaluation(
        self,
        line: cst.CSTNode,
        small: cst.BaseSmallStatement | None,
        run: cst.Call,
        new: cst.Call,
        fetches: list[str],
        listed: bool,
    ) -> str:
        """An evaluation sess.run as code: the graph's tensors from one `evaluate(...)` call, a variable's value,
        an assign op run where the sess.run ran it (its new value, as TF1 fetched it)."""
        self.record_summaries(line, small, run, fetches, listed)
        state = self.state()
        evaluated = [name for name in fetches if name not in state]
        if not evaluated:
            self.state_run(line, run, fetches)
            codes = [self.state_code(name) for name in fetches]
            return f"[{', '.join(codes)}]" if listed else codes[0]
        self.check_state(line, fetches)
        if self.inputs is not None:
            raise Refused(line, "an evaluation sess.run with a tf.data input (TF1 draws only when a fetch needs it)")
        for name in evaluated:
            if name not in self.eval_outputs:
                self.eval_outputs.append(name)
        call = f"{self.names['evaluate']}({self.feed(line, run, new)})"
        if not listed:
            return f'{call}["{fetches[0]}"]' + ("" if fetches[0] in self.merged else ".numpy()")
        if len(evaluated) == len(fetches) and not set(fetches) & set(self.merged):
            # sess.run([a, b]) returns a list: one evaluation, its values in the fetches' order
            keys = ", ".join(f'"{name}"' for name in fetches) + ("," if len(fetches) == 1 else "")
            return f"[outputs[name].numpy() for outputs in [{call}] for name in ({keys})]"
        codes = [
            self.state_code(name)
            if name in state
            else f'outputs["{name}"]' + ("" if name in self.merged else ".numpy()")
            for name in fetches
        ]
        return f"[value for outputs in [{call}] for value in ({', '.join(codes)})]"

    # -- variables, assign ops and summaries
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

    def get_variable(self, stmt: cst.BaseStatement, name: str, call: cst.Call) -> bool:
        """`tf.get_variable("v", initializer=<a value>)` -> `tf.Variable(<the value>, name="v")`."""
        params = ("name", "shape", "dtype", "initializer", "regularizer", "trainable")
        args = arguments(self.updated_call(stmt), params, stmt, "tf.get_variable")
        literal = args["name"].value if "name" in args else None
        if not isinstance(literal, cst.SimpleString):
            raise Refused(stmt, "tf.get_variable with a computed name")
        if "initializer" not in args or set(args) - {"name", "initializer", "dtype", "trainable"}:
            raise Refused(stmt, "tf.get_variable with a shape or without an initial value (an initializer it draws)")
        if set(names_in(args["initializer"].value).names) & self.graph:
            raise Refused(stmt, "a variable initialised from the graph's tensors")
        tf1_name = str(literal.evaluated_value)
        self.take_name(tf1_name, stmt)
        keywords = [f"{p}={source_of(args[p].value)}" for p in ("dtype", "trainable") if p in args]
        code = f"{name} = {self.alias}.Variable({source_of(args['initializer'].value)}, {', '.join(keywords + [f'name={source_of(literal)}'])})\n"
        self.replacements[id(stmt)] = [cst.parse_statement(code)]
        self.graph.add(name)
        self.variables.add(name)
        return True

    def global_step(self, stmt: cst.BaseStatement, name: str) -> bool:
        """tf.train.get_or_create_global_step() -> TF1's global step as a variable: int64, 0, `global_step`."""
        self.take_name("global_step", stmt)
        code = f'{name} = {self.alias}.Variable(0, dtype={self.alias}.int64, trainable=False, name="global_step")\n'
        self.replacements[id(stmt)] = [cst.parse_statement(code)]
        self.graph.add(name)
        self.variables.add(name)
        return True

    def summary(self, stmt: cst.BaseStatement, call: cst.Call) -> bool:
        """`tf.summary.scalar("tag", tensor)`: the tensor becomes part of merge_all's value, written by add_summary."""
        kind = SUMMARIES[cast(str, self.rule.is_call(call, SUMMARIES))]
        updated = cast(cst.Call, cast(cst.Expr, single(cast(cst.BaseStatement, self.up(stmt)))).value)
        args = arguments(updated, ("name", "tensor" if kind == "scalar" else "values"), stmt, f"tf.summary.{kind}")
        tag = args["name"].value if "name" in args else None
        if not isinstance(tag, cst.SimpleString) or len(args) != 2:
            raise Refused(stmt, f"tf.summary.{kind} without a literal tag and its tensor")
        tags = [t for _, t, _ in self.unmerged] + [t for s in self.merged.values() for _, t, _ in s]
        if str(tag.evaluated_value) in tags:
            raise Refused(stmt, f"two summaries tagged {tag.evaluated_value!r}: TF1 would have renamed one")
        tensor = args["tensor" if kind == "scalar" else "values"].value
        reads = set(names_in(tensor).names)
        for read in sorted(reads - self.graph - self.rule._aliases):  # noqa: SLF001
            self.host_reads.setdefault(read, stmt)
        code = source_of(tensor)
        if isinstance(tensor, cst.Name) and tensor.value in self.variables:
            code = f"{self.alias}.identity({code})"  # its value when summarized (TF1: in the run), not a variable
        self.unmerged.append((kind, str(tag.evaluated_value), code))
        self.depends.setdefault("<summaries>", set()).update(reads & self.graph)
        self.replacements[id(stmt)] = []
        return True

    def merge_all(self, stmt: cst.BaseStatement, name: str) -> bool:
        """`merged = tf.summary.merge_all()` -> `merged = {"tag": tensor, ...}` in model(): the summaries' values."""
        if not self.unmerged or self.merged:
            raise Refused(stmt, "tf.summary.merge_all with no summary before it, or twice")
        self.merged[name] = self.unmerged
        self.unmerged = []
        values = ", ".join(f"{tag!r}: {tensor}".replace("'", '"', 2) for _, tag, tensor in self.merged[name])
        line = cast(cst.SimpleStatementLine, cst.parse_statement(f"{name} = {{{values}}}\n"))
        self.merge_lines[id(stmt)] = line.with_changes(leading_lines=leading(stmt))
        self.computes.append(cast(cst.SimpleStatementLine, stmt))
        self.depends[name] = self.depends.pop("<summaries>", set())
        self.graph.add(name)
        self.replacements[id(stmt)] = []
        return True

    def file_writer(self, stmt: cst.BaseStatement, name: str) -> bool:
        """`writer = tf.summary.FileWriter(logdir)` -> `writer = tf.summary.create_file_writer(logdir)`."""
        if self.writer is not None:
            raise Refused(stmt, "two tf.summary.FileWriter")
        args = arguments(self.updated_call(stmt), ("logdir",), stmt, "tf.summary.FileWriter")
        if "logdir" not in args or set(names_in(args["logdir"].value).names) & self.graph:
            raise Refused(stmt, "tf.summary.FileWriter without a logdir, or with one the graph computes")
        self.writer = name
        code = f"{name} = {self.alias}.summary.create_file_writer({source_of(args['logdir'].value)})\n"
        self.replacements[id(stmt)] = [cst.parse_statement(code)]
        return False

    def writer_method(self, call: cst.Call) -> str | None:
        func = call.func
        if self.writer and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            return func.attr.value if func.value.value == self.writer else None
        return None

    def record_summaries(
        self, line: cst.CSTNode, small: cst.BaseSmallStatement | None, run: cst.Call, fetches: list[str], listed: bool
    ) -> None:
        """A fetched merge_all's value must go into a name (that add_summary writes): record which."""
        merged = [i for i, name in enumerate(fetches) if name in self.merged]
        if not merged:
            return
        target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else None
        if not isinstance(small, cst.Assign) or small.value is not run:
            target = None
        if listed and isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == len(fetches):
            found = [target.elements[i].value for i in merged]
        else:
            found = [target] if not listed and target is not None else []
        if not found or not all(isinstance(n, cst.Name) for n in found):
            raise Refused(line, "a fetched merge_all that is not unpacked into a name")
        for index, node in zip(merged, found):
            self.summary_values[cast(cst.Name, node).value] = fetches[index]
            self.summary_uses.add(id(node))

    def add_summary(self, line: cst.SimpleStatementLine, call: cst.Call, updated: cst.Call) -> cst.BaseStatement:
        """`writer.add_summary(summary, step)` -> the summaries written with tf.summary v2 to the writer as default."""
        args = arguments(call, ("summary", "global_step"), line, f"{self.writer}.add_summary")
        value = args["summary"].value if "summary" in args else None
        if not isinstance(value, cst.Name) or value.value not in self.summary_values or "global_step" not in args:
            raise Refused(
                line, f"{self.writer}.add_summary of something other than a fetched merge_all, or without a step"
            )
        self.summary_uses.add(id(value))
        step = source_of(arguments(updated, ("summary", "global_step"), line, "add_summary")["global_step"].value)
        if set(names_in(args["global_step"].value).names) & self.watched():
            raise Refused(line, "a summary step computed from the graph")
        written = "".join(
            f'    {self.alias}.summary.{kind}("{tag}", {value.value}["{tag}"])\n'
            for kind, tag, _ in self.merged[self.summary_values[value.value]]
        )
        new = cst.parse_statement(f"with {self.writer}.as_default(step={step}):\n{written}")
        return new.with_changes(leading_lines=leading(line))

    def check_summary_values(self, area: Sequence[cst.BaseStatement]) -> None:
        """The names holding a fetched merge_all hold nothing else and go only to add_summary (their value is
        no longer TF1's serialized Summary)."""
        for stmt in area:
            for node in all_names(stmt):
                if node.value in self.summary_values and id(node) not in self.summary_uses:
                    raise Refused(stmt, f"`{node.value}`, a fetched summary, is used besides by add_summary")

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

    def initializer(self, line: cst.CSTNode) -> list[cst.BaseStatement]:
        """An initializer run: nothing in eager mode, where variables start initialised (in the first session)."""
        if self.session_number > 1:
            raise Refused(line, "a later session initialises the variables again (eager variables keep their values)")
        return []

    def saver_method(self, call: cst.CSTNode) -> str | None:
        """`save` / `restore` of `saver.save(sess, path)` / `saver.restore(sess, path)`, else None."""
        if self.saver and isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute):
            func = call.func
            if isinstance(func.value, cst.Name) and func.value.value == self.saver:
                return func.attr.value if func.attr.value in ("save", "restore") else None
        return None

    def checkpoint_line(
        self,
        line: cst.SimpleStatementLine,
        small: cst.BaseSmallStatement | None,
        calls: list[cst.Call],
        updated: cst.SimpleStatementLine,
        updated_calls: list[cst.Call],
        runs: bool,
    ) -> cst.SimpleStatementLine:
        """saver.save(sess, path) -> saver.write(path) (it returns the path too); a whole-statement
        saver.restore(sess, path) -> saver.restore(path), which also reads a TF1 checkpoint by its names."""
        if runs or len(calls) != 1:
            raise Refused(line, "a line with a sess.run and the saver, or the saver twice")
        call, new = calls[0], updated_calls[0]
        method = self.saver_method(call)
        args = arguments(call, ("sess", "save_path"), line, f"{self.saver}.{method}")
        session = args["sess"].value if "sess" in args else None
        if not (isinstance(session, cst.Name) and session.value in self.sessions) or "save_path" not in args:
            raise Refused(line, f"{self.saver}.{method} without the session and a path (global_step, ...)")
        path = arguments(new, ("sess", "save_path"), line, f"{self.saver}.{method}")["save_path"].value
        if method == "restore":
            if not (isinstance(small, cst.Expr) and small.value is call):
                raise Refused(line, f"the value of {self.saver}.restore (None in TF1) is used")
            replacement = cst.parse_expression(f"{self.saver}.restore({source_of(path)})")
        else:
            if self.layers_pending and not self.steps_seen:
                raise Refused(line, "a save before any step: the Keras layers have no variables yet")
            replacement = cst.parse_expression(f"{self.saver}.write({source_of(path)})")

        class Swap(cst.CSTTransformer):
            def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
                return replacement if original_node is new else updated_node

        return cast(cst.SimpleStatementLine, updated.visit(Swap()))

    def session_method(self, call: cst.CSTNode) -> str | None:
        """`run` of `sess.run(...)` (the session's name), else None."""
        if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute):
            if isinstance(call.func.value, cst.Name) and call.func.value.value in self.sessions:
                return call.func.attr.value
        return None

    def fetches(self, line: cst.CSTNode, run: cst.Call) -> tuple[list[str], bool]:
        """(the fetched graph names, fetched as a list?) of a sess.run call."""
        args = arguments(run, ("fetches", "feed_dict"), line, f"{self.sess}.run")
        fetched = args["fetches"].value if "fetches" in args else None
        if isinstance(fetched, cst.Call) and self.rule.is_call(fetched, INITIALIZERS) and not fetched.args:
            self.inits.add(_INITIALIZER)  # (a name no Python variable has)
            return [_INITIALIZER], False
        if isinstance(fetched, cst.Name):
            fetches, listed = [fetched.value], False
        elif isinstance(fetched, (cst.List, cst.Tuple)) and all(
            isinstance(e.value, cst.Name) for e in fetched.elements
        ):
            fetches, listed = [cast(cst.Name, e.value).value for e in fetched.elements], True
        else:
            raise Refused(line, f"{self.sess}.run of something other than graph names")
        for name in fetches:
            known = name in self.graph and name not in self.placeholders
            if name != self.train_op and name not in self.inits and not known:
                raise Refused(line, f"{self.sess}.run fetches `{name}`, which is not a tensor the graph computes")
        return fetches, listed

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
            for candidate in _lines(stmt):
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

    def train_fetches(self, line: cst.CSTNode, fetches: list[str]) -> None:
        """What the train step returns: the training runs' fetches besides the train op, the same in every run."""
        outputs = [f for f in fetches if f != self.train_op]
        if set(outputs) & self.state():
            raise Refused(line, "a training sess.run that also fetches variables or assign ops")
        if self.train_outputs is None:
            self.train_outputs = outputs
        elif self.train_outputs != outputs:
            raise Refused(line, "training sess.run calls that fetch different tensors")

    def training_call(
        self,
        line: cst.CSTNode,
        small: cst.BaseSmallStatement | None,
        run: cst.Call,
        fetches: list[str],
        listed: bool,
        args: str,
    ) -> str:
        self.train_fetches(line, fetches)
        self.record_summaries(line, small, run, fetches, listed)
        call = f"{self.names['train_step']}({args})"
        if isinstance(small, cst.Expr):
            return call + "\n"
        assign = cast(cst.Assign, small)
        target = assign.targets[0].target if len(assign.targets) == 1 else None
        elements = target.elements if listed and isinstance(target, (cst.Tuple, cst.List)) else None
        if elements is None or len(elements) != len(fetches):
            raise Refused(line, "a training sess.run whose result is not unpacked into one name per fetch")
        index = fetches.index(cast(str, self.train_op))
        dropped = elements[index].value
        if not (isinstance(dropped, cst.Name) and dropped.value == "_"):
            raise Refused(line, "the train op's value (None) is kept in a name")
        names = [source_of(e.value) for i, e in enumerate(elements) if i != index]
        if not names:
            return call + "\n"
        outputs = [f for f in fetches if f != self.train_op]
        if set(outputs) & set(self.merged):  # (a merge_all's value: the summaries' tensors, for add_summary)
            values = [f"outputs[{i}]" + ("" if o in self.merged else ".numpy()") for i, o in enumerate(outputs)]
            if len(names) == 1:
                return f"{names[0]} = {call}\n"
            return f"{', '.join(names)} = [value for outputs in [{call}] for value in ({', '.join(values)})]\n"
        if len(names) == 1:
            return f"{names[0]} = {call}.numpy()\n"
        return f"{', '.join(names)} = (value.numpy() for value in {call})\n"

    # -- the native code
    def generate(self) -> list[cst.BaseStatement]:
        alias, names = self.alias, self.names
        layers: list[_Layer] = []
        calls = [
            c for stmt in self.computes for c in names_in(stmt).calls if self.rule.is_call(c, {**LAYERS, **LOSSES})
        ]
        self.losses = 0
        body = [
            self.layer_calls(s, self.merge_lines.get(id(s)) or cast(cst.SimpleStatementLine, self.up(s)), layers)
            for s in self.computes
        ]
        if len(layers) + self.losses != len(calls):
            raise Refused(self.computes[0], "a tf.layers or tf.losses call the safe pass wrote in another form")
        outputs = list(
            dict.fromkeys([*([self.loss] if self.loss else []), *(self.train_outputs or []), *self.eval_outputs])
        )
        elements = self.inputs[1] if self.inputs else []
        params = ", ".join([*elements, *self.placeholders])
        specs = [f"{alias}.TensorSpec({shape}, {dtype})" for dtype, shape in self.placeholders.values()]
        if self.inputs is not None:
            dataset, _, single = self.inputs
            specs.insert(0, f"{'' if single else '*'}{dataset}.element_spec")
        signature = ", ".join(specs)
        lines = [f"{layer.var} = {alias}.keras.layers.{layer.keras}({', '.join(layer.keywords)})\n" for layer in layers]
        returned = ", ".join(f'"{o}": {o}' for o in outputs)
        modelled = bool(outputs or body)  # (a script of variables and assign ops only has no model())
        if modelled:
            lines.append(f"\ndef {names['model']}({params}):\n    return {{{returned}}}\n")
        train = ", ".join(f'outputs["{o}"]' for o in self.train_outputs or [])
        if self.train_op is not None:
            lines.append(f"\n{names['optimizer']} = {self.optimizer_code}\n")
            lines.append(
                f"\n@{alias}.function(input_signature=[{signature}])\n"
                f"def {names['train_step']}({params}):\n"
                f"    with {alias}.GradientTape() as tape:\n"
                f"        outputs = {names['model']}({params})\n"
                "    variables = tape.watched_variables()\n"
                f'    {names["optimizer"]}.apply_gradients(zip(tape.gradient(outputs["{self.loss}"], variables), variables))\n'
                + (f"    return {train}\n" if train else "")
            )
        if self.eval_outputs:
            lines.append(f"\n{names['evaluate']} = {alias}.function({names['model']}, input_signature=[{signature}])\n")
        if self.saver:
            tracked = [layer.var for layer in layers] + sorted(self.variables)
            tracked += [names["optimizer"]] if self.train_op is not None else []
            objects = ", ".join(f"{name}={name}" for name in tracked)
            lines.append(f"\n{self.saver} = {alias}.train.Checkpoint({objects})\n")
        self.layers = layers
        # (a first line so that the blank lines before the defs stay theirs, not the module header's)
        generated = list(cst.parse_module("pass\n" + "".join(lines)).body)[1:]
        if modelled:
            model = cast(cst.FunctionDef, generated[len(layers)])
            block = cast(cst.IndentedBlock, model.body)
            generated[len(layers)] = model.with_changes(
                body=block.with_changes(body=[*map(_comments_only, body), *block.body])
            )
        # a blank line before each def, not indented where the block is a function body
        return [
            s.with_changes(leading_lines=[cst.EmptyLine(indent=False)] if s.leading_lines else []) for s in generated
        ]

    def layer_calls(
        self, original: cst.SimpleStatementLine, line: cst.SimpleStatementLine, layers: list[_Layer]
    ) -> cst.SimpleStatementLine:
        """`tf.layers.dense(x, 3)` (or its safe form tf.compat.v1.layers.dense) -> `dense(x)`, the layer made once."""
        converter = self
        spellings = {f"{self.alias}.{p}layers.{n}": n for n in tables.LAYERS for p in ("", "compat.v1.")}
        losses = {f"{self.alias}.{p}losses.{n}": n for n in tables.LOSSES for p in ("", "compat.v1.")}

        class Calls(cst.CSTTransformer):
            def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
                name = _tf.full_name(updated_node.func)
                if name in losses:
                    return converter.loss_call(original, losses[name], updated_node)
                function = spellings.get(name)
                if function is None:
                    return updated_node
                return converter.layer(original, function, updated_node, layers)

        return cast(cst.SimpleStatementLine, line.visit(Calls()))

    def loss_call(self, line: cst.CSTNode, function: str, call: cst.Call) -> cst.BaseExpression:
        """`tf.losses.<function>(...)` -> the TF 2 expression computing the same mean."""
        params, template = tables.LOSSES[function]
        args = arguments(call, params, line, f"tf.losses.{function}")
        if set(args) != set(params):
            raise Refused(line, f"tf.losses.{function} without its {' and '.join(params)}")
        self.losses += 1
        values = {p: source_of(a.value) for p, a in args.items()}
        return cst.parse_expression(template.format(tf=self.alias, **values))

    def layer(self, line: cst.CSTNode, function: str, call: cst.Call, layers: list[_Layer]) -> cst.BaseExpression:
        keras, params, call_keywords = tables.LAYERS[function]
        args = arguments(call, ("inputs", *params, "name"), line, f"tf.layers.{function}")
        if "inputs" not in args:
            raise Refused(line, f"tf.layers.{function} without its inputs")
        if "name" in args:
            literal = args["name"].value
            if not isinstance(literal, cst.SimpleString):
                raise Refused(line, f"tf.layers.{function} with a computed name")
            name = str(literal.evaluated_value)
            self.take_name(name, line)
        else:
            name = self.tf1_name(function)
        var = name if name.isidentifier() and not keyword.iskeyword(name) else f"layer_{len(layers)}"
        if var in self.rule.module_names() or var in {layer.var for layer in layers} or var in self.names.values():
            var = f"{var}_layer"
            if var in self.rule.module_names():
                raise Refused(line, f"no free name for the layer {name!r}")
        keywords = [f"{p}={source_of(a.value)}" for p, a in args.items() if p not in ("inputs", "name", *call_keywords)]
        layers.append(_Layer(var, keras, [*keywords, f'name="{name}"'], name))
        call_args = [cst.Arg(args["inputs"].value)] + [
            cst.Arg(args[k].value, keyword=cst.Name(k), equal=_EQUAL) for k in call_keywords if k in args
        ]
        return cst.Call(func=cst.Name(var), args=call_args)

    def check_result(self, head: cst.CSTNode) -> None:
        for statements in self.replacements.values():
            for stmt in statements:
                code = source_of(stmt)
                left = re.search(r"\w+\.compat\.v1\.[\w.]+", code)
                if left:
                    raise Refused(head, f"{left.group(0)} has no native equivalent the rule knows")
                if any(n.value in self.sessions for n in all_names(stmt)):
                    raise Refused(head, "the session is used in a way the rule does not convert")

    def said(self) -> str:
        """The report entry of a conversion: what became what."""
        made = [f"Keras layers {', '.join(layer.name for layer in self.layers)}"] if self.layers else []
        made += [f"variables {', '.join(sorted(self.variables))}"] if self.variables else []
        parts = [f"{' and '.join(made)} created once under their TF1 names"] if made else []
        if self.inputs is not None:
            parts += [f"{self.inputs[0]}.make_one_shot_iterator() -> iter({self.inputs[0]}), an element per step"]
        placeholders = ", ".join([*(self.inputs[1] if self.inputs else []), *self.placeholders]) or "(none)"
        if self.train_op is not None:
            step = self.names["train_step"]
            parts += [f"inputs {placeholders} -> arguments of tf.function {step}", self.optimizer_said]
            parts += [f"training sess.run -> {step}()"]
        elif self.placeholders or self.inputs is not None:
            parts += [f"inputs {placeholders} -> arguments of the graph's function"]
        if self.eval_outputs:
            parts += [f"evaluation sess.run -> {self.names['evaluate']}()"]
        if self.assigns:
            parts += [f"assign ops {', '.join(sorted(self.assigns))} -> eager assign calls where sess.run ran them"]
        if self.merged and self.writer:
            parts += [
                "v1 summaries and merge_all -> the summarized tensors, written by tf.summary v2 under "
                f"{self.writer}.as_default(step=...) (FileWriter -> tf.summary.create_file_writer)"
            ]
        if self.saver:
            parts += [
                "tf.train.Saver -> tf.train.Checkpoint (save -> write; restore also reads TF1 checkpoints by name)"
            ]
        kind = "training script" if self.train_op is not None else "script"
        return f"Session {kind} -> eager TF 2: " + "; ".join(parts)
