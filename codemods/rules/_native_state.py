"""What a native-session conversion knows of its block so far (`ConverterState`), the rule as a converter
sees it (a Protocol: this module does not import the rule), and the helpers every part of the conversion uses:
TF1's graph-unique names, the statement as the safe pass left it, the session's and feed's calls.

The conversion is one class built in layers, each module adding one concern on the one below:
_native_inputs (placeholders, tf.data, feeds), _native_variables (variables and assign ops), _native_scopes
(variable-scope helpers), _native_summaries, _native_metrics, _native_checkpoint (Saver), _native_slim (tf-slim's
layers), _native_shapes (static shape reads), _native_lookup (lookup tables), _native_rnn (dynamic_rnn's cells),
_native_model (layers, losses, the optimizer and the written code), _native_run (the sess.run region) and _native_graph (`Converter`: reading the block)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Protocol, cast

import libcst as cst

from codemods.rules._native_syntax import Block, Refused, arguments, assigned, single
from codemods.rules._native_v1_module import V1Module


class NativeSessionRule(Protocol):
    """What a Converter asks the native-session rule (codemods/rules/native_session.py): a Protocol, so
    this module does not import the rule that imports it."""

    _aliases: set[str]
    _updated: dict[int, cst.BaseStatement]
    _functions: list[tuple[int, cst.FunctionDef]]
    _module: cst.Module
    v1: V1Module | None

    def module_names(self) -> dict[str, int]: ...
    def session_call(self, stmt: cst.BaseStatement) -> tuple[cst.Call, str] | None: ...
    def tf_names(self, call: cst.Call) -> frozenset[str]: ...
    def is_call(self, node: cst.CSTNode, names: Iterable[str]) -> str | None: ...
    def qualified_in(self, node: cst.CSTNode, names: frozenset[str]) -> bool: ...
    def shadowed_tf(self, node: cst.CSTNode) -> bool: ...
    def variable_library(self, call: cst.Call) -> str | None: ...
    def library_names(self, call: cst.CSTNode) -> frozenset[str]: ...
    def attribute_names(self, node: cst.CSTNode) -> frozenset[str]: ...

    updated_calls: dict[int, cst.Call]
    slim_converted: bool

    def tf_calls(self, node: cst.CSTNode) -> list[cst.Call]: ...


@dataclasses.dataclass
class Layer:
    var: str  # the Python name of the layer object
    keras: str  # the Keras class
    keywords: list[str]  # the constructor's keyword arguments, as code
    name: str  # the TF1 name (its variables' scope)
    cls: str = ""  # a class the converted code defines (else tf.keras.layers.<keras>)


class ConverterState:
    """What the conversion has found in its block, and the lookups every part uses."""

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
        self.steps_seen = False  # a train_step / evaluate call (model() traced, layers built) before this line
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
        self.layers: list[Layer] = []
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
        self.devices: dict[int, str] = {}  # id(graph statement) -> the device (as code) it was built under
        self.metrics: dict[str, str] = {}  # a v1 metric's value -> the Keras metric object's name
        self.metric_updates: dict[str, tuple[str, list[str]]] = {}  # update op -> (the metric, update_state's inputs)
        self.metric_objects: list[tuple[str, str, str]] = []  # (the object's name, the Keras metric, the v1 function)
        self.metric_updated = False  # an update_state call written before this line
        self.looped: set[int] = set()  # id() of the run region's lines inside a loop
        # a variable made under tf.device -> what TF1's `variable.device` gave, as code (None: not known)
        self.variable_devices: dict[str, str | None] = {}
        self.device_reads: set[str] = set()  # the variables whose .device the converted code writes as a literal
        self.device_args: dict[str, str] = {}  # a tf.device argument as written -> the device it names, as code
        self.setters: dict[str, str] = {}  # a replica_device_setter's name -> its one local device (_native_monitored)
        # a MonitoredTrainingSession's loop (_native_monitored): its call, the hooks lists bound to a name (-> the
        # StopAtStepHook's parameter and value), the global step the train op increments, what the entry says
        self.training_session: cst.Call | None = None
        self.stop_hooks: dict[str, tuple[str, cst.BaseExpression]] = {}
        self.step_counter: str | None = None
        self.monitored_said: tuple[str, bool] | None = None
        # tf.losses' collection (_native_slim_loops): the names holding each loss TF1 added to it, in order; a loss
        # the rule could not name (inside an expression); id(`total = tf.losses.get_total_loss()`) -> the losses then
        self.collected_losses: list[str] = []
        self.unnamed_loss: cst.CSTNode | None = None
        self.total_losses: dict[int, list[str]] = {}
        # tf-slim's learning.train (_native_slim_loops): its call and statement, and whether the train step checks
        # the loss as create_train_op did (check_numerics)
        self.slim_train: tuple[cst.Call, cst.BaseStatement] | None = None
        self.checked_loss = False
        self.created_train_op = False  # the train op is create_train_op's
        # `optimizer = tf.train.AdamOptimizer(...)` read by create_train_op alone: name -> (its call, as the safe pass
        # left it)
        self.optimizers: dict[str, tuple[cst.Call, cst.BaseExpression | None]] = {}
        self.slim_said: tuple[str, str] | None = None  # (number_of_steps, the seconds between saves) as code
        self.scope_helpers: dict = {}  # a variable-scope helper's name -> what _native_scopes read of it (a Helper)
        self.scope_made: list[str] = []  # the TF1 names (scope/name) its get_variable calls make, in TF1's order
        # a train helper (_native_train_helper): its name, the global steps it made (moved to the call's place)
        self.train_helper: str | None = None
        self.helper_steps: set[str] = set()
        self.in_top_k = False  # a tf.compat.v1.nn.in_top_k written as TF 2's (_native_in_top_k)
        self.trainable_read = False  # a tf.trainable_variables() written as the dict's trainable variables
        # tf-slim (_native_slim): names bound to xavier_initializer(), the arg_scope being read (parameter ->
        # (its value as written, as the safe pass left it)), the arg_scope defaults of each graph statement under one
        # (by the layer they are for)
        self.slim_initializers: set[str] = set()
        self.scope_defaults: dict[str, tuple[cst.BaseExpression, cst.BaseExpression]] | None = None
        self.scope_kinds: set[str] = set()  # the tf-slim layers (SLIM_LAYERS' rows) that arg_scope sets
        self.statement_defaults: dict[int, dict[str, dict[str, tuple[cst.BaseExpression, cst.BaseExpression]]]] = {}

    def up(self, node: cst.CSTNode) -> cst.CSTNode:
        return self.rule._updated.get(id(node), node)  # noqa: SLF001 - the rule's record of the pass

    def watched(self) -> set[str]:
        """The names the converted code no longer has: the graph's, the sessions', the saver's."""
        return self.graph | self.sessions | {n for n in (self.saver, self.writer) if n}

    def updated_call(self, stmt: cst.BaseStatement) -> cst.Call:
        _, value = assigned(single(cast(cst.BaseStatement, self.up(stmt))))
        if not isinstance(value, cst.Call):
            raise Refused(stmt, "the statement changed shape in the safe pass")
        return value

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

    def session_method(self, call: cst.CSTNode) -> str | None:
        """`run` of `sess.run(...)` (the session's name), else None."""
        if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute):
            if isinstance(call.func.value, cst.Name) and call.func.value.value in self.sessions:
                return call.func.attr.value
        return None

    def feed_argument(self, line: cst.CSTNode, run: cst.Call) -> cst.BaseExpression | None:
        args = arguments(run, ("fetches", "feed_dict"), line, f"{self.sess}.run")
        return args["feed_dict"].value if "feed_dict" in args else None
