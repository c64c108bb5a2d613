"""native-data's Estimator input functions: an input_fn ending in `return dataset.make_one_shot_iterator().get_next()`
returns the dataset, where that is proven the same input (codemods/rules/native_data.py is the rule).

An Estimator takes from its input_fn either a (features, labels) element or a tf.data dataset; of a dataset it makes
an initializable iterator, which a hook initializes when the session starts, and reads its get_next() element. The
pipeline's ops (its shuffle seeds among them) are made as before, in the same order, so the batches are the same,
in the same order. Proven, for every one-shot iterator of the file:

- it ends a top-level def: `return D.make_one_shot_iterator().get_next()` (or `tf.compat.v1.data.make_one_shot_iterator(D)`),
  the def's only return (no yield, decorator or async);
- D is a tf.data dataset the def builds: a method chain on a tf.data call, or a name of the def bound only to such
  chains (or to chains on itself) and read only as `D.method`, an argument or the value returned;
- the def's name is read only as the input_fn of an Estimator's train, evaluate or predict (the first argument or
  `input_fn=`, or a lambda calling it there), the Estimator being `tf.estimator.Estimator(...)` itself or a name bound
  only to such calls and read only as `name.attribute`: a TPUEstimator (per-host input, its batch size in params),
  train_and_evaluate's specs and any other read of the def are not proven;
- the file names no distribution (`train_distribute`, `tf.distribute`): a strategy distributes the input otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import libcst as cst

from codemods.rules._native_eager import parents
from codemods.rules._native_pipeline import DATA
from codemods.rules._native_syntax import Refused, all_names, collect, descendants, names_in, single, source_of

ITERATOR = "make_one_shot_iterator"
ESTIMATORS = frozenset(
    {
        "tensorflow.estimator.Estimator",
        "tensorflow.compat.v1.estimator.Estimator",
        "tensorflow_estimator.estimator.Estimator",
        "tensorflow_estimator.python.estimator.estimator.Estimator",
    }
)
METHODS = frozenset({"train", "evaluate", "predict"})  # the Estimator's methods taking an input_fn first
ITERATOR_FUNCTIONS = frozenset(f"tensorflow.{p}data.{ITERATOR}" for p in ("", "compat.v1."))
DISTRIBUTION = frozenset({"distribute", "train_distribute", "eval_distribute", "experimental_distribute"})
NOT_INPUT = "a one-shot iterator whose element is not what an Estimator's input_fn returns"

Qualified = Callable[[cst.CSTNode, int], frozenset[str]]  # a node's qualified names, given its top-level statement


def proven(module: cst.Module, qualified: Qualified) -> list[str]:
    """The top-level defs of `module` (the original, as the pass read it) whose one-shot element may be their
    dataset: every one-shot iterator of the file is one of theirs. [] where the file makes no one-shot iterator or
    has no Estimator input to prove; Refused saying why not."""
    made: list[cst.CSTNode] = [
        n for n in descendants(module) if isinstance(n, cst.Attribute) and n.attr.value == ITERATOR
    ]
    made += [n for n in names_in(module).nodes if n.value == ITERATOR]
    if not made:
        return []
    tops = {id(n): top for top, stmt in enumerate(module.body) for n in descendants(stmt)}
    found: dict[str, tuple[cst.FunctionDef, int]] = {}
    covered: set[int] = set()
    for top, stmt in enumerate(module.body):
        element = _element(stmt, _at(qualified, top)) if isinstance(stmt, cst.FunctionDef) else None
        if element is not None:
            found[cast(cst.FunctionDef, stmt).name.value] = (cast(cst.FunctionDef, stmt), top)
            covered.add(id(element[1]))
    estimators = {
        id(call) for call in collect(module, cst.Call) if qualified(call.func, tops.get(id(call), -1)) & ESTIMATORS
    }
    if not found and not estimators:
        return []  # (a graph program of another kind: the caller's reason is the file's graph-mode code)
    if any(id(n) not in covered for n in made):
        raise Refused(module, NOT_INPUT)
    named = sorted({n.value for n in collect(module, cst.Name)} & DISTRIBUTION)
    if named:
        raise Refused(
            module, f"the file names a distribution ({named[0]}): the Estimator reads a distributed input otherwise"
        )
    above = parents(module)
    for fn, top in found.values():
        _check_def(fn, _at(qualified, top), above)
        _check_uses(module, fn, above, estimators)
    return list(found)


def _at(qualified: Qualified, top: int) -> Callable[[cst.CSTNode], frozenset[str]]:
    """`qualified` for the nodes of the top-level statement `top`."""
    return lambda node: qualified(node, top)


def returned_dataset(fn: cst.FunctionDef) -> cst.FunctionDef:
    """`fn` (as the pass left it) returning the dataset its last statement took the one-shot element of, else Refused."""
    name = fn.name.value
    element = _element(fn, None)
    if element is None:
        raise Refused(fn, f"{name}()'s return changed in the safe pass")
    block = cast(cst.IndentedBlock, fn.body)
    last = cast(cst.SimpleStatementLine, block.body[-1])
    done = last.with_changes(body=[cast(cst.Return, last.body[0]).with_changes(value=element[0])])
    return fn.with_changes(body=block.with_changes(body=[*block.body[:-1], done]))


def _element(
    fn: cst.FunctionDef, qualified: Callable[[cst.CSTNode], frozenset[str]] | None
) -> tuple[cst.BaseExpression, cst.CSTNode] | None:
    """(D, the node naming make_one_shot_iterator) of a def ending in `return <D's one-shot element>`, else None.
    `qualified` None: the def as the pass left it, whose function form was proven on the original."""
    body = fn.body.body if isinstance(fn.body, cst.IndentedBlock) else ()
    last = single(body[-1]) if body else None
    value = last.value if isinstance(last, cst.Return) else None
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and not value.args):
        return None
    made = value.func.value
    if value.func.attr.value != "get_next" or not isinstance(made, cst.Call):
        return None
    func, args = made.func, made.args
    if not args and isinstance(func, cst.Attribute) and func.attr.value == ITERATOR:
        return func.value, func
    if len(args) == 1 and args[0].keyword is None and not args[0].star:
        if qualified is None or qualified(func) & ITERATOR_FUNCTIONS:
            return args[0].value, func
    return None


class _Own(cst.CSTVisitor):
    """The returns and yields of a def's own body (not of the defs, lambdas and classes inside it)."""

    def __init__(self, fn: cst.FunctionDef) -> None:
        self.fn = fn
        self.exits: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, (cst.Return, cst.Yield)):
            self.exits.append(node)
        return node is self.fn or not isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef))


def _check_def(
    fn: cst.FunctionDef, qualified: Callable[[cst.CSTNode], frozenset[str]], above: dict[int, cst.CSTNode]
) -> None:
    name = fn.name.value
    own = _Own(fn)
    fn.visit(own)
    if fn.decorators or fn.asynchronous or len(own.exits) != 1:
        raise Refused(fn, f"{name}() has another return, a yield, decorators or is asynchronous")
    dataset, _ = cast(tuple[cst.BaseExpression, cst.CSTNode], _element(fn, qualified))
    if _pipeline(dataset, qualified, None):
        return
    what = dataset.value if isinstance(dataset, cst.Name) else source_of(dataset)
    not_built = Refused(
        fn, f"{name}() returns the element of `{what}`, which is not proven a tf.data dataset it builds"
    )
    if not isinstance(dataset, cst.Name):
        raise not_built
    bindings = 0
    for node in names_in(fn).nodes:
        if node.value != what or node is dataset:
            continue
        parent = above.get(id(node))
        if isinstance(parent, cst.AssignTarget) and parent.target is node:
            assign = above.get(id(parent))
            if not (
                isinstance(assign, cst.Assign) and len(assign.targets) == 1 and _pipeline(assign.value, qualified, what)
            ):
                raise not_built
            bindings += 1
        elif not (isinstance(parent, cst.Attribute) and parent.value is node) and not isinstance(parent, cst.Arg):
            raise not_built  # (a parameter, a loop's target, a global ...: something else may be bound)
    if not bindings or any(
        what in {n.value for n in all_names(s)} for s in collect(fn, cst.Global) + collect(fn, cst.Nonlocal)
    ):
        raise not_built


def _pipeline(
    value: cst.BaseExpression, qualified: Callable[[cst.CSTNode], frozenset[str]], itself: str | None
) -> bool:
    """Is `value` a method chain on a tf.data call (or on the name `itself`)?"""
    while isinstance(value, cst.Call):
        if any(n.startswith(DATA) for n in qualified(value.func)):
            return True
        if not isinstance(value.func, cst.Attribute):
            return False
        value = value.func.value
    return itself is not None and isinstance(value, cst.Name) and value.value == itself


def _check_uses(module: cst.Module, fn: cst.FunctionDef, above: dict[int, cst.CSTNode], estimators: set[int]) -> None:
    """Is the def's name read only as an Estimator's input_fn (Refused if not)?"""
    name = fn.name.value
    reads = [n for n in names_in(module).nodes if n.value == name and n is not fn.name]
    for node in reads:
        parent = above.get(id(node))
        if isinstance(parent, cst.Call) and parent.func is node:  # (lambda: input_fn(...))
            lambda_ = above.get(id(parent))
            called = isinstance(lambda_, cst.Lambda) and lambda_.body is parent
            parent = above.get(id(lambda_)) if called else None
        if not (isinstance(parent, cst.Arg) and _estimator_input(parent, above, estimators, module)):
            raise Refused(
                fn,
                f"{name}() (a one-shot iterator's element) is read otherwise than as a tf.estimator.Estimator's input_fn",
            )


def _estimator_input(arg: cst.Arg, above: dict[int, cst.CSTNode], estimators: set[int], module: cst.Module) -> bool:
    call = above.get(id(arg))
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value in METHODS):
        return False
    keyword = arg.keyword.value if arg.keyword is not None else None
    if not ((call.args[0] is arg and keyword is None and not arg.star) or keyword == "input_fn"):
        return False
    receiver = call.func.value
    if isinstance(receiver, cst.Call):
        return id(receiver) in estimators
    if not isinstance(receiver, cst.Name):
        return False
    for node in names_in(module).nodes:  # every read of the name is `name.attribute`, every binding an Estimator
        if node.value != receiver.value:
            continue
        parent = above.get(id(node))
        if isinstance(parent, cst.Attribute) and parent.value is node:
            continue
        assign = above.get(id(parent)) if isinstance(parent, cst.AssignTarget) and parent.target is node else None
        if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and id(assign.value) in estimators):
            return False
    return True
