"""Layer calls in the functions a model_fn's towers call, for native-layers: cifar10_estimator's shape, where
`for i in range(n): with variable_scope("resnet", reuse=i > 0): with name_scope("tower_%d" % i): tower_fn(...)`
runs helpers (a network function, a residual block under its own `variable_scope(name)`) that call tf.layers.

TF1 named and shared those layers' variables by the variable scope's path at the call (resnet/stage0/conv1/kernel),
whichever function made the call and under whichever name scope, so the rule writes the Keras layer of that path,
`compat.scoped_layers.layer(tf.keras.layers.Conv2D, ..., name="conv1")(x)`: made where the scope does not reuse
(tower 0), built under the path (TF1's names), the same layer where it reuses (later towers), raising as TF1 did
otherwise. What the runtime cannot see, `called_from_towers` proves: every way to the call starts in a proven tower
(`_layer_towers`), through direct calls of module functions, under no scope that names variables otherwise than by
its path (a variable_scope of a name only, a name_scope, a device), and the layer's arguments read nothing that
may differ from one tower to the next (a later tower's TF1 layer was made with its own arguments around the shared
variables; the Keras layer has the first tower's). `first_tower_updates` proves cifar10's UPDATE_OPS read of the
first tower's name scope, which only the layers made by then fill.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

from codemods.rules._layer_scopes import NESTED, SCOPES, name_uses
from codemods.rules._layer_towers import Tower, reuse_scope, tower_at
from codemods.rules._layer_updates import the_read
from codemods.rules._native_syntax import Refused, all_names, bound_names, descendants, names_in

_DEVICES = frozenset({"device", "colocate_with"})  # with-items that place ops and name nothing


@dataclasses.dataclass(frozen=True)
class Called:
    """The towers whose calls reach a layer call, and the names of its function that may differ per tower."""

    towers: tuple[Tower, ...]
    varying: frozenset[str]
    sites: tuple[cst.Call, ...]  # the towers' calls of the module functions on the way


def _called(call: cst.Call) -> str:
    func = call.func
    return func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")


def defined(module: cst.Module) -> dict[str, cst.FunctionDef]:
    """The module-level functions bound once."""
    defs: dict[str, cst.FunctionDef] = {}
    seen: set[str] = set()
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef):
            if stmt.name.value in seen:
                defs.pop(stmt.name.value, None)
            else:
                defs[stmt.name.value] = stmt
            seen.add(stmt.name.value)
    return defs


def _check_with(node: cst.With, call: cst.CSTNode) -> None:
    """Refused unless every item of `node` names variables by the variable scope's path alone or names nothing."""
    for item in node.items:
        scope = item.item
        if not isinstance(scope, cst.Call):
            raise Refused(call, f"under `with {type(scope).__name__}`: which scope it enters is unknown")
        name = _called(scope)
        if name in _DEVICES or name in ("name_scope", "op_scope"):
            continue  # (a name scope names ops, not TF1's variables, and not the layer's: built under its path)
        if name == "variable_scope" and len(scope.args) == 1 and not scope.args[0].star:
            if scope.args[0].keyword is None or scope.args[0].keyword.value == "name_or_scope":
                continue
        if name in SCOPES:
            raise Refused(
                call,
                f"under {name}(...) with arguments besides its name (reuse, initializer, regularizer, custom "
                "getter, default_name): TF1's layers took them from the scope, a Keras layer does not",
            )
        raise Refused(call, f"under a with-statement other than a scope or a device ({name}(...))")


def _up_to_function(
    node: cst.CSTNode, call: cst.Call, parent: dict[int, cst.CSTNode], tower: cst.With | None = None
) -> cst.FunctionDef:
    """The module-level function holding `node`, Refused for the scopes on the way that are not a path's (but the
    with-statement of a tower's reuse scope, `tower`, which `tower_at` proves)."""
    found = parent.get(id(node))
    while found is not None:
        if isinstance(found, cst.Lambda):
            raise Refused(call, NESTED)
        if isinstance(found, cst.FunctionDef):
            if not isinstance(parent.get(id(found)), cst.Module):
                raise Refused(call, NESTED)
            return found
        if isinstance(found, cst.With) and found is not tower:
            _check_with(found, call)
        found = parent.get(id(found))
    raise Refused(call, "not in a function")


def called_from_towers(
    call: cst.Call, module: cst.Module, parent: dict[int, cst.CSTNode], model_fns: set[str]
) -> Called:
    """How the layer call `call` is reached from a model_fn's towers (see the module's doc), or Refused."""
    defs = defined(module)
    function = _up_to_function(call, call, parent)
    towers: list[Tower] = []
    sites: list[cst.Call] = []
    varying: dict[str, set[str]] = {}  # function -> its parameters that may differ per tower
    seen: set[str] = set()
    todo = [function]
    while todo:
        current = todo.pop()
        name = current.name.value
        if name in seen:
            continue
        seen.add(name)
        if name in model_fns or name not in defs:
            raise Refused(call, f"in {name}, which a model_fn's tower does not call: not in a tower")
        for site, where, scope in _sites(current, module, parent, call):
            if scope is not None:
                tower = tower_at(site, scope, parent)
                if where.name.value not in model_fns:
                    raise Refused(call, f"towers in {where.name.value}, not in the model_fn given to the Estimator")
                towers.append(tower)
                sites.append(site)
                differ = tower.per_tower()
            elif where.name.value in model_fns:
                raise Refused(
                    call,
                    f"in {name}, which {where.name.value} calls outside its towers too: the rule shares layers by "
                    "variable scope only where a tower's reuse did",
                )
            else:
                todo.append(where)
                differ = set()  # (a caller's own are known once all are visited: below)
            varying.setdefault(name, set()).update(_params_given(site, current, call, differ))
    read: dict[tuple[str, frozenset[str]], set[str]] = {}  # (a function, its varying parameters) -> its names
    changed = True
    while changed:
        changed = False
        for name in seen:
            for site, where, scope in _sites(defs[name], module, parent, call):
                if scope is None:
                    key = (where.name.value, frozenset(varying.get(where.name.value, set())))
                    inside = read[key] if key in read else read.setdefault(key, _varying_in(where, set(key[1])))
                    given = _params_given(site, defs[name], call, inside)
                    changed = changed or not given <= varying[name]
                    varying[name] |= given
    return Called(tuple(towers), frozenset(_varying_in(function, varying[function.name.value])), tuple(sites))


def named_in_tower(call: cst.Call, parent: dict[int, cst.CSTNode]) -> bool:
    """Is `call` written in a tower's reuse scope under a name_scope inside it (cifar10's tower_%d)? Such a call is
    one of the scoped layers too (`called_in_tower`): a Keras layer built there would take the name scope's name."""
    scope = reuse_scope(call, parent)
    node = parent.get(id(call))
    while scope is not None and node is not None and node is not scope[0]:
        if isinstance(node, cst.With) and any(
            isinstance(i.item, cst.Call) and _called(i.item) == "name_scope" for i in node.items
        ):
            return True
        node = parent.get(id(node))
    return False


def called_in_tower(call: cst.Call, parent: dict[int, cst.CSTNode], model_fns: set[str]) -> Called:
    """The tower a layer call written in it (`named_in_tower`) belongs to, its scopes proven as a helper's are
    (`called_from_towers`), or Refused."""
    scope = reuse_scope(call, parent)
    if scope is None:
        raise Refused(call, "not in a tower")
    function = _up_to_function(call, call, parent, scope[0])
    if function.name.value not in model_fns:
        raise Refused(call, f"towers in {function.name.value}, not in the model_fn given to the Estimator")
    tower = tower_at(call, scope, parent)
    return Called((tower,), frozenset(tower.per_tower()), (call,))


def _sites(
    function: cst.FunctionDef, module: cst.Module, parent: dict[int, cst.CSTNode], call: cst.Call
) -> list[tuple[cst.Call, cst.FunctionDef, tuple[cst.With, cst.Call] | None]]:
    """The calls of `function` in `module`: (the call, the module-level function holding it, the tower's reuse scope
    around it or None), Refused where it is named otherwise or called under a scope not a path's."""
    found = []
    for name in name_uses(module).get(function.name.value, []):
        if name is function.name:
            continue
        site = parent.get(id(name))
        if not (isinstance(site, cst.Call) and site.func is name):
            raise Refused(call, f"{function.name.value} is named otherwise than called: where it runs is unknown")
        scope = reuse_scope(site, parent)
        found.append((site, _up_to_function(site, call, parent, scope[0] if scope else None), scope))
    if not found:
        raise Refused(call, f"{function.name.value} is not called in the file")
    return found


def _params_given(site: cst.Call, function: cst.FunctionDef, call: cst.Call, differ: set[str]) -> set[str]:
    """The parameters of `function` to which `site` gives a value reading a name of `differ`."""
    params = [p.name.value for p in function.params.params]
    if function.params.star_arg is not cst.MaybeSentinel.DEFAULT or function.params.star_kwarg is not None:
        raise Refused(call, f"{function.name.value} takes *args or **kwargs: which argument is which is unknown")
    found = set()
    for index, arg in enumerate(site.args):
        if arg.star:
            raise Refused(call, f"{function.name.value} called with *args or **kwargs")
        param = arg.keyword.value if arg.keyword is not None else (params[index] if index < len(params) else None)
        if param is None:
            raise Refused(call, f"{function.name.value} called with more arguments than it takes")
        if set(names_in(arg.value).names) & differ:
            found.add(param)
    return found


def _varying_in(function: cst.FunctionDef, params: set[str]) -> set[str]:
    """The names of `function` whose value may differ per tower: `params`, and what is bound from them (assigned,
    looped over, or under a condition or loop reading them), until nothing more is."""
    found = set(params)
    nodes = descendants(function.body)
    changed = True
    while changed:
        changed = False
        for node in nodes:
            bound: set[str] = set()
            if isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and node.value is not None:
                if set(names_in(node.value).names) & found:
                    bound = bound_names(cst.SimpleStatementLine([node]))
            elif isinstance(node, (cst.For, cst.If, cst.While)):
                read = node.iter if isinstance(node, cst.For) else node.test
                if set(names_in(read).names) & found:
                    bound = bound_names(node)
            elif isinstance(node, cst.With):
                if any(set(names_in(i.item).names) & found for i in node.items):
                    bound = {n.value for i in node.items if i.asname is not None for n in all_names(i.asname)}
            if bound - found:
                found |= bound
                changed = True
    return found


def first_tower_updates(
    module: cst.Module, parent: dict[int, cst.CSTNode], called: list[Called]
) -> cst.SimpleStatementLine | None:
    """The line of cifar10's read of the first tower's updates, where it is proven to be the updates of the Keras
    layers made by then: `if i == 0: X = get_collection(GraphKeys.UPDATE_OPS[, scope])` in the towers every `called`
    layer is reached from, after the tower's calls of the functions on the way, `scope` the `as` name of a
    name_scope holding them all, and nothing else filling or running the collection. Else None."""
    towers = {id(t.scope) for c in called for t in c.towers}
    found = the_read(module, parent)
    if found is None or len(towers) != 1:
        return None
    line, read = found
    if _called(read) != "get_collection" or len(read.args) > 2 or any(a.star or a.keyword for a in read.args):
        return None
    tower = called[0].towers[0]
    guard = parent.get(id(parent.get(id(line))))
    if not (isinstance(guard, cst.If) and guard.orelse is None and _is_first(guard.test, tower.index)):
        return None
    holders = [n for n in _above(guard, parent) if isinstance(n, cst.With)]
    if not any(n is tower.scope for n in holders):
        return None
    order = {id(n): i for i, n in enumerate(descendants(module))}
    sites = [s for c in called for s in c.sites]
    if any(order[id(s)] > order[id(line)] or id(s) not in {id(d) for d in descendants(tower.scope)} for s in sites):
        return None
    if len(read.args) == 2:
        scope = read.args[1].value
        named = [
            h
            for h in holders
            for i in h.items
            if isinstance(i.item, cst.Call)
            and _called(i.item) == "name_scope"
            and i.asname is not None
            and isinstance(i.asname.name, cst.Name)
            and isinstance(scope, cst.Name)
            and i.asname.name.value == scope.value
        ]
        if len(named) != 1 or any(id(s) not in {id(d) for d in descendants(named[0])} for s in sites):
            return None
    return line


def _above(node: cst.CSTNode, parent: dict[int, cst.CSTNode]) -> list[cst.CSTNode]:
    found = []
    above = parent.get(id(node))
    while above is not None:
        found.append(above)
        above = parent.get(id(above))
    return found


def _is_first(test: cst.BaseExpression, index: str) -> bool:
    """Is `test` `<index> == 0` (or `0 == <index>`, `not <index>`)?"""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return isinstance(test.expression, cst.Name) and test.expression.value == index
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return False
    (compared,) = test.comparisons
    sides = {type(test.left), type(compared.comparator)}
    values = {getattr(test.left, "value", None), getattr(compared.comparator, "value", None)}
    return isinstance(compared.operator, cst.Equal) and sides == {cst.Name, cst.Integer} and values == {index, "0"}
