"""Where a layer call of an Estimator program runs, for native-layers: the functions given to an Estimator as its
model_fn, the module-level functions those run, and the scopes (variable_scope, name_scope) around a call on the
way, which name a TF1 layer's variables otherwise than a Keras layer's."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import libcst as cst

from codemods.rules._native_syntax import collect
from codemods.rules._shared import ESTIMATOR

ESTIMATORS = frozenset({"Estimator", "TPUEstimator"})
FAMILY = (*ESTIMATOR, "tensorflow.contrib.")  # (contrib.tpu's TPUEstimator, contrib.learn's Estimator)
# the with-items that name variables otherwise for TF1's variable scopes and Keras's name scopes
SCOPES = frozenset({"variable_scope", "name_scope", "variable_op_scope", "op_scope"})


def off_tpu(call: cst.Call) -> bool:
    """Does a TPUEstimator(...) call say use_tpu=False (its default is True)?"""
    given = [a for a in call.args if a.keyword is not None and a.keyword.value == "use_tpu"]
    return bool(given) and false(given[0].value)


def false(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.Name) and value.value == "False"


def scope_of(node: cst.With) -> str | None:
    """Why a with-statement names variables otherwise for TF1 and Keras (None: it does not)."""
    for item in node.items:
        call = item.item
        if not isinstance(call, cst.Call):
            continue
        func = call.func
        name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
        if name not in SCOPES:
            continue
        reuse = [a for a in call.args if a.keyword is not None and a.keyword.value == "reuse"]
        if reuse and not (isinstance(reuse[0].value, cst.Name) and reuse[0].value.value in ("None", "False")):
            return (
                "under variable_scope(reuse=...): its variables are shared by name between calls (towers), "
                "which a Keras layer does only by being called again"
            )
        return (
            f"under {name}(...): TF1 names a layer's variables by the variable scope, Keras by the name scope, "
            "so the checkpoint names would not be kept"
        )
    return None


_Read = TypeVar("_Read")


def per_module(read: Callable[..., _Read]) -> Callable[..., _Read]:
    """`read(module, ...)`, a function of the module alone, computed once for the last module given: the rule asks
    it again for each layer call (a full walk of the module each time made a file's check quadratic)."""
    last: list[Any] = []  # [the module, its value] (nodes are immutable: the same object, the same value)

    @functools.wraps(read)
    def once(module: cst.CSTNode, *args: Any) -> _Read:
        if not last or last[0] is not module:
            last[:] = [module, read(module, *args)]
        return last[1]

    return once


@per_module
def name_uses(module: cst.CSTNode) -> dict[str, list[cst.Name]]:
    """The names of `module` by their value, in the order of the source, but a keyword's (model_fn=...) and an
    attribute's (x.model_fn)."""
    other = {id(n.keyword) for n in collect(module, cst.Arg)} | {id(n.attr) for n in collect(module, cst.Attribute)}
    found: dict[str, list[cst.Name]] = {}
    for name in collect(module, cst.Name):
        if id(name) not in other:
            found.setdefault(name.value, []).append(name)
    return found


NESTED = "in a function defined in another one: the rule does not follow where (under which scopes) it is called"


def enclosing(node: cst.CSTNode, parent: dict[int, cst.CSTNode]) -> tuple[cst.FunctionDef | None, str | None]:
    """The module-level function holding `node`, and why a scope around it there names variables otherwise (a
    shared one's reason first; None: no scope)."""
    scopes = []
    found = parent.get(id(node))
    function = None
    while found is not None:
        if isinstance(found, cst.With):
            scopes.append(scope_of(found))
        if isinstance(found, (cst.FunctionDef, cst.Lambda)):
            if function is not None:
                scopes.append(NESTED)  # (where it is called, and under which scope, is not followed)
            function = found
        found = parent.get(id(found))
    if not isinstance(function, cst.FunctionDef):
        return None, None
    said = [why for why in scopes if why is not None]
    return function, next((why for why in said if "reuse" in why), said[0] if said else None)


def model_fn_functions(module: cst.Module, roots: list[str], parent: dict[int, cst.CSTNode]) -> dict[str, str]:
    """The module-level functions a model_fn runs (the roots and the functions they call by name, at any depth):
    name -> "" or why a scope around a call on the way names variables otherwise."""
    defs: dict[str, cst.FunctionDef] = {}
    seen: set[str] = set()
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef):
            name = stmt.name.value
            if name in seen:
                defs.pop(name, None)  # (bound twice: which one runs is not the rule's to prove)
            else:
                defs[name] = stmt
            seen.add(name)
    found: dict[str, str] = {}
    todo = [(root, "") for root in roots if root in defs]
    while todo:
        name, why = todo.pop()
        if name in found and (found[name] or not why):
            continue
        found[name] = why
        for call in collect(defs[name], cst.Call):
            if isinstance(call.func, cst.Name) and call.func.value in defs:
                _, scope = enclosing(call, parent)
                todo.append((call.func.value, why or scope or ""))
    return found
