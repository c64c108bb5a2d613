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
- the def's name is read only as the input_fn (the first argument or `input_fn=`, or a lambda calling it there) of
  an Estimator's train, evaluate or predict, or of a TrainSpec or EvalSpec that only train_and_evaluate of an
  Estimator reads (it passes the input_fn to the Estimator's train and evaluate). The Estimator is
  `tf.estimator.Estimator(...)` itself, or a name bound only to such calls and read only as `name.attribute` or an
  argument; the spec is the call itself, or a name bound only to spec calls. A TPUEstimator (per-host input, its
  batch size in params) and any other read of the def are not proven;
- the file names no distribution (`train_distribute`, `tf.distribute`): a strategy distributes the input otherwise;
  nor CheckpointInputPipelineHook, which saves the state of the input's iterator;
- no other module of the tree migrated with the file imports it (it may call an input_fn and read the element):
  codemods/engine/tree.py tells the rule which do; a file migrated alone is told of none.
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
_HOMES = ("tensorflow.estimator.", "tensorflow.compat.v1.estimator.", "tensorflow_estimator.estimator.")
SPECS = frozenset(f"{home}{spec}" for home in _HOMES for spec in ("TrainSpec", "EvalSpec"))
RUNS = frozenset(f"{home}train_and_evaluate" for home in _HOMES)  # (its specs' input_fns: the Estimator's)
METHODS = frozenset({"train", "evaluate", "predict"})  # the Estimator's methods taking an input_fn first
ITERATOR_FUNCTIONS = frozenset(f"tensorflow.{p}data.{ITERATOR}" for p in ("", "compat.v1."))
DISTRIBUTION = frozenset({"distribute", "train_distribute", "eval_distribute", "experimental_distribute"})
SAVED_INPUT = "CheckpointInputPipelineHook"
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
    calls: dict[str, set[int]] = {"estimator": set(), "spec": set(), "run": set()}
    for call in collect(module, cst.Call):
        names = qualified(call.func, tops.get(id(call), -1))
        for kind, known in (("estimator", ESTIMATORS), ("spec", SPECS), ("run", RUNS)):
            if names & known:
                calls[kind].add(id(call))
    if not found and not calls["estimator"]:
        return []  # (a graph program of another kind: the caller's reason is the file's graph-mode code)
    if any(id(n) not in covered for n in made):
        raise Refused(module, NOT_INPUT)
    named = sorted({n.value for n in collect(module, cst.Name)} & DISTRIBUTION)
    if named:
        raise Refused(
            module, f"the file names a distribution ({named[0]}): the Estimator reads a distributed input otherwise"
        )
    if any(n.value == SAVED_INPUT for n in collect(module, cst.Name)):
        raise Refused(
            module, f"the file names {SAVED_INPUT}, which saves the state of the input's iterator (another one here)"
        )
    above = parents(module)
    uses = _Uses(module, above, calls)
    for fn, top in found.values():
        _check_def(fn, _at(qualified, top), above)
        uses.check(fn)
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


class _Uses:
    """Where the module's names are read and bound: the reads of an input_fn, a spec, an Estimator proven."""

    def __init__(self, module: cst.Module, above: dict[int, cst.CSTNode], calls: dict[str, set[int]]) -> None:
        self.above, self.calls = above, calls  # calls: "estimator", "spec", "run" -> the ids of those calls
        self.names: dict[str, list[cst.Name]] = {}
        for node in names_in(module).nodes:
            self.names.setdefault(node.value, []).append(node)

    def check(self, fn: cst.FunctionDef) -> None:
        """Is the def's name read only as an Estimator's input_fn (Refused if not)?"""
        name = fn.name.value
        for node in self.names.get(name, []):
            if node is fn.name:
                continue
            parent = self.above.get(id(node))
            if isinstance(parent, cst.Call) and parent.func is node:  # (lambda: input_fn(...))
                lambda_ = self.above.get(id(parent))
                called = isinstance(lambda_, cst.Lambda) and lambda_.body is parent
                parent = self.above.get(id(lambda_)) if called else None
            if not (isinstance(parent, cst.Arg) and self.input_arg(parent)):
                raise Refused(
                    fn,
                    f"{name}() (a one-shot iterator's element) is read otherwise than as a tf.estimator.Estimator's "
                    "input_fn",
                )

    def input_arg(self, arg: cst.Arg) -> bool:
        """Is `arg` the input_fn of a proven Estimator's train/evaluate/predict, or of a spec only its
        train_and_evaluate reads?"""
        call = self.above.get(id(arg))
        if not isinstance(call, cst.Call) or not _fills(call, arg, 0, "input_fn"):
            return False
        if isinstance(call.func, cst.Attribute) and call.func.attr.value in METHODS:
            return self.estimator(call.func.value)
        return id(call) in self.calls["spec"] and self.only_read(call, "spec", self.spec_arg)

    def spec_arg(self, node: cst.CSTNode) -> bool:
        """Is `node` a spec argument of train_and_evaluate (its train_spec or eval_spec) of a proven Estimator?"""
        arg = self.above.get(id(node))
        run = self.above.get(id(arg))
        if not (isinstance(arg, cst.Arg) and isinstance(run, cst.Call) and id(run) in self.calls["run"]):
            return False
        if not (_fills(run, arg, 1, "train_spec") or _fills(run, arg, 2, "eval_spec")):
            return False
        estimator = [a for a in run.args if _fills(run, a, 0, "estimator")]
        return len(estimator) == 1 and self.estimator(estimator[0].value)

    def estimator(self, node: cst.CSTNode) -> bool:
        """Is `node` a tf.estimator.Estimator: its construction, or a name bound only to those and read only as
        `name.attribute` or an argument?"""
        if isinstance(node, cst.Call):
            return id(node) in self.calls["estimator"]
        return self.only_read(node, "estimator", self.read)

    def read(self, node: cst.CSTNode) -> bool:
        """Is the name `node` read as `name.attribute` or an argument (not bound there)?"""
        parent = self.above.get(id(node))
        return (isinstance(parent, cst.Attribute) and parent.value is node) or isinstance(parent, cst.Arg)

    def only_read(self, node: cst.CSTNode, kind: str, read: Callable[[cst.CSTNode], bool]) -> bool:
        """Is `node` (a call of `kind`, or a name) read only as `read` accepts: the call itself, or every read of
        the name it is bound to (every binding of which is a call of `kind`)?"""
        if isinstance(node, cst.Call):
            assign = self.above.get(id(node))
            if read(node):
                return True
            if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and assign.value is node):
                return False
            node = assign.targets[0].target
        if not isinstance(node, cst.Name):
            return False
        for found in self.names.get(node.value, []):
            parent = self.above.get(id(found))
            if isinstance(parent, cst.AssignTarget) and parent.target is found:
                assign = self.above.get(id(parent))
                if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1):
                    return False
                if id(assign.value) not in self.calls[kind]:
                    return False
            elif not read(found):
                return False
        return True


def _fills(call: cst.Call, arg: cst.Arg, index: int, keyword: str) -> bool:
    """Does `arg` of `call` fill the parameter at `index` named `keyword`?"""
    if arg.star:
        return False
    if arg.keyword is not None:
        return arg.keyword.value == keyword
    return index < len(call.args) and call.args[index] is arg
