"""native-session on a tf-slim zoo net: `with slim.arg_scope(resnet_v1.resnet_arg_scope()):` around one
`logits, end_points = resnet_v1.resnet_v1_50(images, num_classes=10, is_training=True)` (any function of tf-slim's
nets, `tf.contrib.slim.nets`'s in TF1) -> a compat.slim_nets.SlimNet made once where the `with` stood, of the
function, its arg_scope and its keyword arguments, called in model() with the inputs:

    resnet_v1_50 = compat.slim_nets.SlimNet(resnet_v1.resnet_v1_50, resnet_v1.resnet_arg_scope(), num_classes=10,
                                            is_training=True)
    def model(images, labels):
        logits, end_points = resnet_v1_50(images)

The layer makes the net's variables at the first step under TF1's names (compat/slim_nets.py), so a TF1 checkpoint's
values load into them by name; a batch normalization in training mode updates its moving statistics in the call.
What the layer cannot be proven to do as TF1 did leaves the script at the safe level (`checked`): a net in training
mode whose UPDATE_OPS the train op does not run (TF1's moving statistics stayed), or which an evaluation sess.run
computes (TF1 ran no update there, the layer updates at each call); a Saver, a total loss, tf-slim's or a monitored
session's loop (their checkpoints and collections hold the layers the conversion lists, not this one); a second net;
an argument computed by the graph, given by position, or reuse.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol, cast

import libcst as cst

from codemods.rules._native_names import ARG_SCOPE, unrun_updates
from codemods.rules._native_state import NativeSessionRule
from codemods.rules._native_syntax import Refused, names_in, single, source_of

# tf-slim's nets in each home (tf.contrib.slim's, tf-slim's, the safe pass's compat.slim)
NETS_HOMES = (
    "tensorflow.contrib.slim.nets.",
    "tensorflow.contrib.slim.python.slim.nets.",
    "tf_slim.nets.",
    "compat.slim.nets.",
)
SAID = (
    "{var} = compat.slim_nets.SlimNet({function}, {scope}, ...): tf-slim's {function} under its arg_scope made once "
    "as a Keras layer (its variables made at the first step under TF1's names, {name}/...{training})"
)
# (the net in training mode: what its call does that TF1's step did through UPDATE_OPS)
TRAINING_SAID = (
    "; a batch normalization in training mode updates its moving statistics in the call, where UPDATE_OPS ran them "
    "with the step"
)


@dataclasses.dataclass
class ZooNet:
    var: str  # the layer's Python name
    function: str  # the net function, as the safe pass left it (resnet_v1.resnet_v1_50)
    scope: str  # its arg_scope's dict, as code (resnet_v1.resnet_arg_scope())
    name: str  # TF1's scope of its variables (the function's name, or scope=)
    training: bool  # is_training not a literal False: its batch normalizations update their moving statistics
    statement: cst.BaseStatement  # the `with arg_scope(...)` statement
    inner: cst.BaseStatement  # the net's statement in it


class SlimLayers(Protocol):
    """What this module asks of the converter (_native_slim's SlimLayers, as the Converter makes it): a Protocol, so
    that the module _native_slim imports does not import it back."""

    rule: NativeSessionRule
    zoo_net: ZooNet | None
    graph: set[str]
    replacements: dict[int, list[cst.BaseStatement]]
    merge_lines: dict[int, cst.SimpleStatementLine]
    saver: str | None
    slim_train: Any
    training_session: cst.Call | None
    total_losses: dict[int, list[str]]
    train_op: str | None
    updates_run: bool
    created_train_op: bool
    eval_outputs: list[str]

    @property
    def slim_names(self) -> Any: ...
    def float32_inputs(self, line: cst.CSTNode, what: str, inputs: cst.CSTNode | None = None) -> None: ...
    def host_input(self, line: cst.CSTNode, what: str, value: cst.BaseExpression | None) -> None: ...
    def layer_var(self, name: str, layers: list[Any], line: cst.CSTNode) -> str: ...
    def graph_statement(self, stmt: cst.BaseStatement) -> bool: ...
    def up(self, node: cst.CSTNode) -> cst.CSTNode: ...


class LibraryNames(Protocol):
    """What reading a zoo net asks of the rule that recorded the calls (native-session; its cluster port alike)."""

    updated_calls: dict[int, cst.Call]  # id(a library call) -> as the safe pass left it

    def library_names(self, call: cst.CSTNode) -> frozenset[str]: ...


def net_name(rule: LibraryNames, node: cst.CSTNode) -> str | None:
    """The qualified name of a call of tf-slim's nets (`tf_slim.nets.resnet_v1.resnet_v1_50`), else None."""
    found = sorted(n for n in rule.library_names(node) if n.startswith(NETS_HOMES))
    return found[0] if found else None


def zoo_scope(rule: LibraryNames, call: cst.Call) -> cst.Call | None:
    """The `resnet_v1.resnet_arg_scope(...)` call of `arg_scope(resnet_v1.resnet_arg_scope(...))`, else None."""
    if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        return None
    inner = call.args[0].value
    name = net_name(rule, inner)
    return cast(cst.Call, inner) if name is not None and name.endswith("arg_scope") else None


def zoo_with(rule: LibraryNames, stmt: cst.BaseStatement) -> cst.Call | None:
    """The zoo's arg_scope call of `with slim.arg_scope(resnet_v1.resnet_arg_scope(...)):` around a block, else
    None (for a builder reading statements of its own: the cluster port's)."""
    if not isinstance(stmt, cst.With) or len(stmt.items) != 1 or stmt.items[0].asname is not None:
        return None
    call = stmt.items[0].item
    if not (
        isinstance(call, cst.Call) and rule.library_names(call) & ARG_SCOPE and isinstance(stmt.body, cst.IndentedBlock)
    ):
        return None
    return zoo_scope(rule, call)


@dataclasses.dataclass
class NetCode:
    """A zoo net's statement read (`read_net`): the layer's code and its call's."""

    function: str  # the net function, as the safe pass left it (resnet_v1.resnet_v1_50)
    scope: str  # its arg_scope's dict, as code (resnet_v1.resnet_arg_scope())
    keywords: list[str]  # the net's keyword arguments, as code
    name: str  # TF1's scope of its variables (the function's name, or scope=)
    training: bool  # is_training not a literal False: its batch normalizations update their moving statistics
    inner: cst.BaseStatement  # the net's statement (original)
    inputs: cst.BaseExpression  # its inputs (original)
    updated_inputs: str  # its inputs as the safe pass left them, as code

    def made(self, var: str) -> str:
        """`var = compat.slim_nets.SlimNet(...)`: the layer, made once."""
        return f"{var} = compat.slim_nets.SlimNet({', '.join([self.function, self.scope, *self.keywords])})"

    def called(self, var: str, updated: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        """The net's statement (`updated`: as the safe pass left it) with the layer's call for the net's."""
        assign = cast(cst.Assign, updated.body[0])
        return updated.with_changes(
            body=[assign.with_changes(value=cst.parse_expression(f"{var}({self.updated_inputs})"))]
        )


def read_net(rule: LibraryNames, stmt: cst.With, scope_call: cst.Call, graph: set[str]) -> NetCode:
    """`with arg_scope(<zoo>_arg_scope(...)):` around one `names = <zoo net>(inputs, keyword=value ...)`, its inputs
    reading `graph`'s tensors, its arguments none: the net's code, or Refused saying why not."""
    body = cast(cst.IndentedBlock, stmt.body).body
    inner = body[0] if len(body) == 1 else None
    small = single(inner) if inner is not None else None
    value = small.value if isinstance(small, cst.Assign) and len(small.targets) == 1 else None
    if inner is None or not isinstance(value, cst.Call) or net_name(rule, value) is None:
        raise Refused(stmt, "a zoo net's arg_scope block holding other than one assignment of the net's call")
    function = cast(str, net_name(rule, value))
    if function.endswith("arg_scope"):
        raise Refused(stmt, f"{function} inside a zoo net's arg_scope")
    updated = rule.updated_calls.get(id(value))
    updated_scope = rule.updated_calls.get(id(scope_call))
    if updated is None or updated_scope is None or len(updated.args) != len(value.args):
        raise Refused(stmt, "a zoo net's call the safe pass rewrote out of shape")
    what = f"tf-slim's {function.rpartition('.')[2]}"
    if not value.args or value.args[0].keyword is not None or value.args[0].star:
        raise Refused(stmt, f"{what} without its inputs as its first argument")
    if not set(names_in(value.args[0].value).names) & graph:
        raise Refused(stmt, f"{what} of inputs that are no tensor of the graph (a zoo module's helper, not a net)")
    keywords: dict[str, cst.Arg] = {}
    for arg, new in zip(value.args[1:], updated.args[1:]):
        if arg.keyword is None or arg.star:
            raise Refused(stmt, f"{what} with an argument after its inputs given by position or unpacked")
        keywords[arg.keyword.value] = new
    if "reuse" in keywords:
        raise Refused(stmt, f"{what}(reuse=...): the layer keeps its variables, TF1's variable scope reused them")
    computed = set(names_in(scope_call).names).union(*(names_in(a.value).names for a in value.args[1:]))
    if computed & graph:
        read = min(computed & graph)
        raise Refused(stmt, f"{what} or its arg_scope reads `{read}`, a tensor of the graph (the layer is made once)")
    scope = keywords.get("scope")
    if scope is not None and not isinstance(scope.value, cst.SimpleString):
        raise Refused(stmt, f"{what} with a computed scope")
    name = str(cast(cst.SimpleString, scope.value).evaluated_value) if scope else function.rpartition(".")[2]
    training_arg = keywords.get("is_training")
    if training_arg is not None and not (
        isinstance(training_arg.value, cst.Name) and training_arg.value.value in ("True", "False")
    ):
        raise Refused(stmt, f"{what}(is_training=...) other than a literal True or False (the layer is made once)")
    training = training_arg is None or cast(cst.Name, training_arg.value).value == "True"
    written = [f"{keyword}={source_of(arg.value)}" for keyword, arg in keywords.items()]
    return NetCode(
        source_of(updated.func),
        source_of(updated_scope),
        written,
        name,
        training,
        inner,
        value.args[0].value,
        source_of(updated.args[0].value),
    )


def net_block(converter: SlimLayers, stmt: cst.With, scope_call: cst.Call) -> bool:
    """`with arg_scope(<zoo>_arg_scope(...)):` around one `names = <zoo net>(inputs, keyword=value ...)`: the
    layer made where the with statement stood, its call in model() (the statement a graph statement)."""
    if converter.zoo_net is not None:
        raise Refused(stmt, "a second tf-slim zoo net (the rule makes one)")
    code = read_net(converter.slim_names, stmt, scope_call, converter.graph)
    what = f"tf-slim's {code.function.rpartition('.')[2]}"
    converter.float32_inputs(stmt, what, code.inputs)
    converter.host_input(stmt, what, code.inputs)
    var = converter.layer_var(code.name, [], stmt)
    converter.zoo_net = ZooNet(var, code.function, code.scope, code.name, code.training, stmt, code.inner)
    if not converter.graph_statement(code.inner):  # (its call accepted by slim_calls: is_net_call)
        raise Refused(stmt, "a zoo net's statement that is no tensor of the graph")
    converter.replacements.pop(id(code.inner), None)
    converter.replacements[id(stmt)] = [cst.parse_statement(code.made(var) + "\n")]
    line = code.called(var, cast(cst.SimpleStatementLine, converter.up(code.inner)))
    converter.merge_lines[id(code.inner)] = line.with_changes(leading_lines=stmt.leading_lines)
    converter.rule.slim_converted = True  # (tf-slim's imports go where nothing reads them: the nets' module stays)
    return True  # (`import compat`: the rule's, for every conversion)


def is_net_call(converter: SlimLayers, stmt: cst.BaseStatement, call: cst.Call) -> bool:
    """Is `call` the zoo net's call of the statement net_block reads (slim_calls accepts it)?"""
    net = converter.zoo_net
    return net is not None and stmt is net.inner and cast(cst.Assign, single(stmt)).value is call


def checked(converter: SlimLayers) -> list[str]:
    """Refused for what the converted block does that the layer would not do as TF1 did (read once the block is
    converted: its train op, evaluations and loops known); the report's part for the net."""
    net = converter.zoo_net
    if net is None:
        return []
    stmt = net.statement
    if converter.saver or converter.slim_train is not None or converter.training_session is not None:
        raise Refused(
            stmt,
            "a zoo net in a graph with a Saver or a checkpointing loop (learning.train, MonitoredTrainingSession), "
            "whose checkpoint the rule writes of the layers it lists, not of the net",
        )
    if converter.total_losses:
        raise Refused(
            stmt, "a total loss (get_total_loss) of a graph with a zoo net, whose regularization losses it adds"
        )
    if net.training:
        if converter.train_op is None or not (converter.updates_run or converter.created_train_op):
            raise Refused(stmt, unrun_updates(net.name))
        if converter.eval_outputs:
            raise Refused(
                stmt,
                f"an evaluation sess.run of `{net.name}` in training mode: TF1 ran no UPDATE_OPS there, the layer "
                "updates its moving statistics at each call",
            )
    training = TRAINING_SAID if net.training else ""
    return [SAID.format(var=net.var, function=net.function, scope=net.scope, name=net.name, training=training)]
