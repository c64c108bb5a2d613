"""Batch normalization's moving-average updates, for native-layers: a Keras BatchNormalization keeps them in
layer.updates, not in the UPDATE_OPS collection TF1's filled, so a model_fn's one read of that collection becomes
its Keras layers' updates (Updates) where the rule proves that read (updates_read), and is refused otherwise."""

from __future__ import annotations

from typing import cast

import libcst as cst

from codemods.rules._layer_scopes import NESTED, enclosing, false, per_module
from codemods.rules._native_syntax import all_names, collect, descendants, source_of
from codemods.rules._native_tables import LAYERS
from codemods.rules._shared import collection_reads

# names besides the UPDATE_OPS read by which a file fills or runs that collection, or that the rewrite of the read
# would meet (a Keras batch normalization of the user's own: TF1 did not run its updates)
_OTHER_UPDATES = frozenset(
    {
        "create_train_op",
        "optimize_loss",
        "add_to_collection",
        "add_to_collections",
        "slim",
        "tf_slim",
        "BatchNormalization",
        "batch_norm",
        "batch_norms",
    }
)
# names through which a file runs the UPDATE_OPS collection (TF's key, tf-slim's create_train_op, contrib's optimize_loss)
_UPDATE_READERS = frozenset({"UPDATE_OPS", "create_train_op", "optimize_loss"})
_AT = ("inputs", *LAYERS["batch_normalization"][1]).index("training")  # (its place in TF1's parameters)


def training_mode(call: cst.Call) -> bool:
    """Does a batch normalization call (as the source wrote it) run in training mode, or may it?"""
    for index, arg in enumerate(call.args):
        if (arg.keyword is not None and arg.keyword.value == "training") or (arg.keyword is None and index == _AT):
            return not false(arg.value)
    return False


def updates_read(
    module: cst.Module, roots: list[str], parent: dict[int, cst.CSTNode], norms: list[cst.Call]
) -> tuple[str, cst.SimpleStatementLine] | None:
    """(the model_fn, the line) where the file's one UPDATE_OPS read, `X = get_collection(GraphKeys.UPDATE_OPS)`,
    follows every batch normalization in training mode (`norms`), each on a line of its own in that same function,
    and nothing else fills or reads the collection: the read can become the Keras layers' updates. Else None."""
    found = the_read(module, parent)
    if found is None or len(found[1].args) != 1:
        return None
    line = found[0]
    function, scope = enclosing(line, parent)
    if function is None or function.name.value not in roots or scope == NESTED:
        return None
    order = {id(n): i for i, n in enumerate(descendants(module))}
    for norm in norms:
        held = parent.get(id(norm))
        while held is not None and not isinstance(held, cst.SimpleStatementLine):
            held = parent.get(id(held))
        if (
            held is None
            or len(held.body) != 1
            or enclosing(norm, parent)[0] is not function
            or order[id(held)] > order[id(line)]
            or sum(1 for n in norms if id(n) in {id(d) for d in descendants(held)}) != 1
        ):
            return None
    return function.name.value, line


@per_module
def the_read(module: cst.Module, parent: dict[int, cst.CSTNode]) -> tuple[cst.SimpleStatementLine, cst.Call] | None:
    """(its line, the call) of the file's one UPDATE_OPS read, `X = get_collection(GraphKeys.UPDATE_OPS, ...)` on a
    line of its own, where nothing else names, fills or reads the collection. Else None."""
    names = [name.value for name in all_names(module)]
    if (
        names.count("UPDATE_OPS") != 1
        or set(names) & _OTHER_UPDATES
        or len(collection_reads(module, "UPDATE_OPS")) != 1
    ):
        return None
    key = next(n for n in all_names(module) if n.value == "UPDATE_OPS")
    line = parent.get(id(key))
    while line is not None and not isinstance(line, cst.SimpleStatementLine):
        line = parent.get(id(line))
    if line is None or len(line.body) != 1 or not isinstance(line.body[0], cst.Assign):
        return None
    assign = line.body[0]
    value = assign.value
    if not (
        len(assign.targets) == 1
        and isinstance(assign.targets[0].target, cst.Name)
        and isinstance(value, cst.Call)
        and value.args
        and isinstance(value.args[0].value, cst.Attribute)
        and value.args[0].value.attr is key
    ):
        return None
    return line, value


class Updates(cst.CSTTransformer):
    """In the model_fn `function`: each Keras batch normalization the rule made is bound to `batch_norm` and kept in
    `batch_norms` (made at the function's start); the UPDATE_OPS read becomes their updates. Only the paths down to
    those lines are rebuilt: the later rules find their calls elsewhere by identity."""

    def __init__(self, alias: str, function: cst.FunctionDef) -> None:
        super().__init__()
        self.layer = f"{alias}.keras.layers.BatchNormalization"
        self.function = id(function)
        above = {id(child): node for node in descendants(function) for child in node.children}
        self.path: set[int] = set()
        for line in collect(function, cst.SimpleStatementLine):
            if self._read(line) or len(self._made(line)) == 1:
                key: cst.CSTNode | None = line
                while key is not None and id(key) not in self.path:
                    self.path.add(id(key))
                    key = above.get(id(key))

    def _read(self, line: cst.SimpleStatementLine) -> bool:
        small = line.body[0]
        return isinstance(small, cst.Assign) and any(n.value == "UPDATE_OPS" for n in all_names(small.value))

    def _made(self, line: cst.SimpleStatementLine) -> list[cst.Call]:
        calls = collect(line, cst.Call)
        return [c for c in calls if isinstance(c.func, cst.Call) and source_of(c.func.func) == self.layer]

    def on_visit(self, node: cst.CSTNode) -> bool:
        return id(node) in self.path and super().on_visit(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef) -> cst.FunctionDef:
        if id(original_node) != self.function:
            return updated_node
        body = list(cast(cst.IndentedBlock, updated_node.body).body)
        first = 1 if body and _docstring(body[0]) else 0
        body.insert(first, cst.parse_statement("batch_norms = []\n"))
        return updated_node.with_changes(body=updated_node.body.with_changes(body=body))

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.FlattenSentinel[cst.BaseStatement]:
        if id(original_node) not in self.path:
            return updated_node  # (libcst leaves a node it did not enter too)
        small = updated_node.body[0]
        if self._read(updated_node) and isinstance(small, cst.Assign):
            reads = "[update for layer in batch_norms for update in layer.updates]"
            return updated_node.with_changes(body=[small.with_changes(value=cst.parse_expression(reads))])
        (norm,) = self._made(updated_node)
        bound = cst.SimpleStatementLine(
            [cst.Assign([cst.AssignTarget(cst.Name("batch_norm"))], norm.func)],
            leading_lines=updated_node.leading_lines,
        )
        kept = cst.parse_statement("batch_norms.append(batch_norm)\n")
        called = updated_node.deep_replace(norm, norm.with_changes(func=cst.Name("batch_norm")))
        return cst.FlattenSentinel([bound, kept, cast(cst.SimpleStatementLine, called).with_changes(leading_lines=[])])


def _docstring(stmt: cst.BaseStatement) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, cst.SimpleString)
    )


@per_module
def update_reader(module: cst.Module) -> str | None:
    """How the file runs the UPDATE_OPS collection (a name, or a collection read by a key that may be it), if it does."""
    names = sorted({name.value for name in all_names(module)} & _UPDATE_READERS)
    return names[0] if names else next(iter(collection_reads(module, "UPDATE_OPS")), None)
