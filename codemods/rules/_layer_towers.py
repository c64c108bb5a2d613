"""A model_fn's towers, for native-layers: `for i in range(n): with variable_scope("net", reuse=i > 0): ...`, the
multi-GPU shape of TF1 (cifar10_estimator), whose layer calls share their variables by name between the towers.

Tower 0 makes the variables (reuse is False there), every later tower reuses them (reuse is True): a Keras layer
made in tower 0 and called by every tower holds the same variables, and built at tower 0's call, under the
variable scope's name scope ("net/", the scope's first entry), it names them as TF1 did (net/conv2d/kernel).
`tower_of` proves the shape around one call and `shared_alike` that one layer made in tower 0 is what every
tower's TF1 layer was, or they say why not (`Refused`); `whole_towers` keeps a tower whole; `TowerLayers` writes the
layers made in tower 0 (named by `layer_name`) before the statements calling them.
"""

from __future__ import annotations

import dataclasses
from typing import cast

import libcst as cst

from codemods.rules._layer_names import named_alike
from codemods.rules._layer_scopes import NESTED, SCOPES, name_uses, scope_of
from codemods.rules._native_syntax import Refused, all_names, bound_names, descendants

# the nodes between a call and its statement under which a tower may call it otherwise than once
_NOT_ONCE = (cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.IfExp, cst.BooleanOperation)
_DEVICES = frozenset({"device"})  # with-items that place ops and name nothing (tf.device, compat.device)
_SHARED = "reuse=... false in the first tower and true in the others (i > 0, i != 0, bool(i != 0), AUTO_REUSE)"


@dataclasses.dataclass(frozen=True)
class Tower:
    loop: cst.For  # for <index> in range(...)
    scope: cst.With  # with variable_scope(<name>, reuse=...) (and tf.device items)
    call: cst.Call  # the variable_scope(...) call
    index: str
    name: str

    def per_tower(self) -> set[str]:
        """The names whose value may differ from one tower to the next (the loop's)."""
        return bound_names(self.loop)


def _called(call: cst.Call) -> str:
    func = call.func
    return func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")


def _first_tower_only(value: cst.BaseExpression, index: str) -> bool:
    """Is `value` a reuse= that is false for index 0 and true for every later one (or AUTO_REUSE)?"""
    if isinstance(value, cst.Attribute) and value.attr.value == "AUTO_REUSE":
        return True
    if isinstance(value, cst.Call) and _called(value) == "bool" and len(value.args) == 1 and not value.args[0].keyword:
        value = value.args[0].value
    if not (isinstance(value, cst.Comparison) and len(value.comparisons) == 1):
        return False
    left, (compared,) = value.left, value.comparisons
    right, op = compared.comparator, compared.operator

    def _is(node: cst.BaseExpression, text: str) -> bool:
        return (isinstance(node, cst.Name) and node.value == text) or (
            isinstance(node, cst.Integer) and node.value == text
        )

    if _is(left, index) and isinstance(op, (cst.GreaterThan, cst.NotEqual)):
        return _is(right, "0")
    if _is(left, index) and isinstance(op, cst.GreaterThanEqual):
        return _is(right, "1")
    if _is(right, index) and isinstance(op, (cst.LessThan, cst.NotEqual)):
        return _is(left, "0")
    return False


def _tower_scope(node: cst.With) -> cst.Call | None:
    """The variable_scope(...) item of a with holding one beside tf.device items only (None: not a tower's with)."""
    scopes = [i.item for i in node.items if isinstance(i.item, cst.Call) and _called(i.item) in SCOPES]
    others = [i.item for i in node.items if not (isinstance(i.item, cst.Call) and _called(i.item) in SCOPES)]
    if len(scopes) != 1 or _called(scopes[0]) != "variable_scope":
        return None
    if any(not (isinstance(o, cst.Call) and _called(o) in _DEVICES) for o in others):
        return None
    return cast(cst.Call, scopes[0])


def tower_of(call: cst.Call, parent: dict[int, cst.CSTNode]) -> Tower:
    """The tower whose variable scope shares the variables of `call` (a layer call under a reuse scope), or
    Refused saying why the shape is not proven."""
    node: cst.CSTNode = call
    while not isinstance(node, cst.SimpleStatementLine):
        node = parent[id(node)]
        if isinstance(node, _NOT_ONCE):
            raise Refused(call, "in a tower, under a lambda, comprehension or condition: not once in every tower")
        if isinstance(node, (cst.SimpleStatementSuite, cst.BaseCompoundStatement)):
            raise Refused(call, "in a tower, on the line of a compound statement: not a statement of its own")
    scope = None
    while scope is None:
        node = parent[id(node)]
        if isinstance(node, (cst.FunctionDef, cst.Lambda)):
            raise Refused(call, NESTED)
        if isinstance(node, cst.With):
            scope = _tower_scope(node)
            if scope is not None and not any(a.keyword is not None and a.keyword.value == "reuse" for a in scope.args):
                scope = None  # (a scope inside the tower's)
            if scope is None and scope_of(node) is not None:
                raise Refused(
                    call,
                    f"{scope_of(node)}; inside a tower's variable scope, Keras would name the variables by the name "
                    "scope of the tower's first call (net/tower_0/conv2d/kernel), TF1 by the variable scope",
                )
            if scope is None and not all(
                isinstance(i.item, cst.Call) and _called(i.item) in _DEVICES for i in node.items
            ):
                raise Refused(call, "in a tower, under a with-statement other than tf.device")
        elif not isinstance(node, (cst.IndentedBlock, cst.SimpleStatementSuite)):
            raise Refused(call, f"in a tower, under a {type(node).__name__.lower()}: not once in every tower")
    return _tower(call, cast(cst.With, node), scope, parent)


def reuse_scope(node: cst.CSTNode, parent: dict[int, cst.CSTNode]) -> tuple[cst.With, cst.Call] | None:
    """The nearest with-statement around `node` in its function entering a variable_scope(..., reuse=...), and that
    call (None: there is none)."""
    found = parent.get(id(node))
    while found is not None and not isinstance(found, (cst.FunctionDef, cst.Lambda)):
        if isinstance(found, cst.With):
            for item in found.items:
                scope = item.item
                if (
                    isinstance(scope, cst.Call)
                    and _called(scope) == "variable_scope"
                    and any(a.keyword is not None and a.keyword.value == "reuse" for a in scope.args)
                ):
                    return found, scope
        found = parent.get(id(found))
    return None


def tower_at(call: cst.Call, scope: tuple[cst.With, cst.Call], parent: dict[int, cst.CSTNode]) -> Tower:
    """The tower of the reuse scope `scope` (from `reuse_scope`) around `call`, a call of a function of the file,
    or Refused saying why the shape is not proven."""
    if _tower_scope(scope[0]) is not scope[1]:
        raise Refused(call, "in a tower whose with-statement enters more than its variable scope and devices")
    return _tower(call, scope[0], scope[1], parent)


def _tower(call: cst.Call, node: cst.With, scope: cst.Call, parent: dict[int, cst.CSTNode]) -> Tower:
    name = scope.args[0] if scope.args else None
    if (
        name is None
        or (name.keyword is not None and name.keyword.value != "name_or_scope")
        or not isinstance(name.value, cst.SimpleString)
    ):
        raise Refused(
            call, "under a variable_scope without a literal name: which variables the towers share is unknown"
        )
    if any(i.asname is not None for i in node.items if i.item is scope):
        raise Refused(call, "under `variable_scope(...) as ...`: the scope object may be entered again elsewhere")
    reuse = [a.value for a in scope.args[1:] if a.keyword is not None and a.keyword.value == "reuse"]
    if len(scope.args) != 2 or len(reuse) != 1:
        raise Refused(call, "under a variable_scope with arguments besides its name and reuse= (initializer, ...)")
    block = parent.get(id(node))
    loop = parent.get(id(block)) if isinstance(block, cst.IndentedBlock) else None
    if not isinstance(loop, cst.For) or not isinstance(loop.target, cst.Name) or loop.orelse is not None:
        raise Refused(call, f"under a reuse scope not directly in a `for i in range(n)` loop: {_SHARED} unproven")
    index = loop.target.value
    if not (_counts_from_0(loop.iter) and _first_tower_only(reuse[0], index)):
        raise Refused(
            call,
            f"under a variable_scope whose reuse is not proven {_SHARED} of a `for {index} in range(n)` loop: "
            "a tower may reuse variables no tower made, or make them again",
        )
    if index in bound_names(loop.body):
        raise Refused(call, f"in a tower loop that rebinds its index {index}")
    above: cst.CSTNode | None = parent.get(id(loop))
    while above is not None and not isinstance(above, cst.FunctionDef):
        if isinstance(above, (cst.For, cst.While, cst.Lambda, *_NOT_ONCE)) or (
            isinstance(above, cst.With) and scope_of(above) is not None
        ):
            raise Refused(call, "in a tower loop under another loop or scope: its towers may run more than once")
        above = parent.get(id(above))
    if isinstance(above, cst.FunctionDef) and not _run_once(above, parent):
        raise Refused(
            call,
            f"in a function the file names otherwise than once, outside a loop ({above.name.value}): a second run of "
            "its towers would make new Keras layers, where TF1's reuse of the scope (AUTO_REUSE) shared the variables",
        )
    return Tower(loop, node, scope, index, str(name.value.evaluated_value))


def _run_once(function: cst.FunctionDef, parent: dict[int, cst.CSTNode]) -> bool:
    """Is `function` named once in its module besides its def (called, or given to the Estimator), not in a loop?"""
    root: cst.CSTNode = function
    while id(root) in parent:
        root = parent[id(root)]
    uses = [n for n in name_uses(root).get(function.name.value, []) if n is not function.name]
    if len(uses) != 1:
        return False
    node: cst.CSTNode | None = parent.get(id(uses[0]))
    while node is not None and not isinstance(node, (cst.FunctionDef, cst.Module)):
        if isinstance(node, (cst.For, cst.While, cst.Lambda, *_NOT_ONCE)):
            return False
        node = parent.get(id(node))
    return True


def _counts_from_0(iterated: cst.BaseExpression) -> bool:
    """Is `iterated` range(n) or range(0, n)?"""
    if not (isinstance(iterated, cst.Call) and isinstance(iterated.func, cst.Name) and iterated.func.value == "range"):
        return False
    args = iterated.args
    if any(a.keyword is not None or a.star for a in args):
        return False
    return len(args) == 1 or (len(args) == 2 and isinstance(args[0].value, cst.Integer) and args[0].value.value == "0")


def shared_alike(
    call: cst.Call,
    what: str,
    tower: Tower,
    args: dict[str, cst.Arg],
    module: cst.Module,
    call_keywords: tuple[str, ...],
    calls: list[tuple[cst.Call, str]],
) -> None:
    """Refused unless one Keras layer made in the first tower names and computes as each tower's TF1 layer did:
    a literal name or none, no argument a later tower changes, an unnamed layer numbered alike (every call of its
    layer function, `calls` being the file's, in the tower), the tower's scope name no other op's."""
    name = args.get("name")
    if name is not None and not isinstance(name.value, cst.SimpleString):
        raise Refused(
            call,
            "in a tower with a computed name: a later tower may reuse variables the first did not make, and a "
            "layer made once has one name",
        )
    varying = sorted(
        {n.value for k, a in args.items() if k not in ("inputs", *call_keywords) for n in all_names(a.value)}
        & tower.per_tower()
    )
    if varying:
        raise Refused(
            call,
            f"in a tower with arguments read from {', '.join(varying)}, which may differ per tower: TF1's towers "
            "made one layer per call around the shared variables, a Keras layer made in the first tower has its "
            "arguments",
        )
    inside = {id(n) for n in descendants(tower.scope)}
    if name is not None and any(c is not call and id(c) in inside and _named(c) == _named(call) for c, _ in calls):
        raise Refused(
            call,
            f"another layer call of the tower named {_named(call)!r}: TF1 shared one set of variables between them "
            "(AUTO_REUSE), two Keras layers would make two",
        )
    if name is None and any(w == what and id(c) not in inside for c, w in calls):
        raise Refused(
            call,
            f"an unnamed {what} in a tower and another {what} call outside it: TF1 numbers unnamed layers per "
            "variable scope (net/dense), Keras per graph (net/dense_1)",
        )
    clash = named_alike(tower.call.args[0], "", module, {id(c) for c, _ in calls} | {id(tower.call)})
    if clash:
        raise Refused(
            call,
            f"another op or scope of the file is named {clash!r}: the towers' name scope would be numbered "
            f"({tower.name}_1), which names the Keras layers' variables, not TF1's",
        )


def _named(call: cst.Call) -> str | None:
    """A layer call's literal name= (None: none, or computed)."""
    name = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "name"), None)
    return str(name.evaluated_value) if isinstance(name, cst.SimpleString) else None


def layer_name(what: str, name: cst.Arg | None, taken: set[str]) -> str:
    """The name bound to a tower's Keras layer: its TF1 name (or function) and _layer, not one of `taken`."""
    default = what.rsplit(".", 1)[-1]  # (conv2d, dense, batch_normalization...)
    base = str(name.value.evaluated_value) if name is not None and isinstance(name.value, cst.SimpleString) else default
    base = f"{base}_layer" if base.isidentifier() else f"{default}_layer"
    return next(f"{base}{n}" for n in ("", *(f"_{k}" for k in range(1, 1000))) if f"{base}{n}" not in taken)


def whole_towers(
    calls: list[tuple[cst.Call, str]], towers: dict[int, Tower], why: dict[int, str | None], staying: set[str]
) -> None:
    """A tower converts whole or not at all: one of its calls staying, or a call of the same layer function
    elsewhere (they convert all or none), keeps the others (`why`, `staying` updated), until nothing more stays."""
    changed = True
    while changed:
        changed = False
        for call, what in calls:
            tower = towers.get(id(call))
            if tower is None or why.get(id(call)) is not None:
                continue
            inside = {id(n) for n in descendants(tower.scope)}
            kept = [w for c, w in calls if why.get(id(c)) is not None and (id(c) in inside or w == what)]
            if kept:
                why[id(call)] = (
                    f"a {kept[0]} call (in its tower, or of its layer function elsewhere) stays at the safe level: "
                    "a tower converts whole, and the calls of one layer function all or none"
                )
                staying.add(what)
                changed = True


class TowerLayers(cst.CSTTransformer):
    """Before each statement calling layers made in the first tower: `if <index> == 0:` and their constructions,
    in the order TF1 called them. Only the paths down to those statements are rebuilt."""

    def __init__(self, module: cst.Module, made: dict[int, tuple[str, cst.SimpleStatementLine]]) -> None:
        super().__init__()
        self.made = made  # id(the call of the layer) -> (the tower's index, the statement making the layer)
        above = {id(child): node for node in descendants(module) for child in node.children}
        self.path: set[int] = set()
        for key in made:
            node: int | None = key
            while node is not None and node not in self.path:
                self.path.add(node)
                found = above.get(node)
                node = id(found) if found is not None else None

    def on_visit(self, node: cst.CSTNode) -> bool:
        return id(node) in self.path

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.FlattenSentinel[cst.BaseStatement]:
        if id(original_node) not in self.path:
            return updated_node
        inside = {id(n) for n in descendants(original_node)}
        made = [at for key, at in self.made.items() if key in inside]  # (in the order TF1 called the layers)
        if not made:
            return updated_node
        guard = cst.If(
            test=cst.parse_expression(f"{made[0][0]} == 0"),
            body=cst.IndentedBlock(body=[m[1] for m in made]),
            leading_lines=updated_node.leading_lines,
        )
        return cst.FlattenSentinel([guard, updated_node.with_changes(leading_lines=[])])
