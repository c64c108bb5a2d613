"""native-session in a file written against `tensorflow.compat.v1` (`import tensorflow.compat.v1 as tf` and
`tf.disable_v2_behavior()`, as tf_upgrade_v2's output and many hand ports read): when its Session script
converts, the switch statements go (the converted code runs eagerly) and the import becomes
`import tensorflow as tf`, where every `tf.<name>` the converted file reads is the same in TF 2 (the API
table's names that moved, differ or are TF1's only are refused; a function whose parameters differ only where
the call passes them the same way passes).

What TF 2 behaviour changes besides eager execution (disable_v2_behavior turned v1 shapes and tensor equality on
too) is proven absent: no `.value` (a v1 Dimension's; TF 2's shapes hold ints) and no `==` / `!=` between the
graph's tensors (v1 compared them as objects, TF 2 element-wise)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

import libcst as cst

from codemods.rules import _native_tables as tables
from codemods.rules import _tf
from codemods.rules._native_syntax import Refused, collect, single
from codemods.rules._shared import compatible, target
from codemods.rules._tf_bindings import tf_imports

V1 = _tf.TF + ".compat.v1"
# TF 2 names native-session writes itself whose TF1 namesakes differ (it writes them for TF 2's: the variables
# it makes, Checkpoint, v2 summaries, TF 2's initializers); every other name the converted file reads is checked
WRITTEN = frozenset(
    {
        "Variable",
        "train.Checkpoint",
        "summary.scalar",
        "summary.histogram",
        *(v2 for v2, _, _ in tables.INITIALIZERS.values()),
    }
)
# the switches such a file turns graph mode on with (a statement of its own, no arguments)
SWITCHES = frozenset(f"{V1}.{n}" for n in ("disable_v2_behavior", "disable_eager_execution"))


@dataclasses.dataclass
class V1Module:
    alias: str  # the name bound to tensorflow.compat.v1
    imported: cst.BaseStatement  # `import tensorflow.compat.v1 as <alias>`
    switches: list[cst.BaseStatement]  # the switch statements


def v1_module(
    module: cst.Module, v1_aliases: set[str], tf_aliases: set[str], switch_calls: Sequence[cst.Call], names: dict
) -> V1Module | None:
    """The file's compat.v1 import and switches, if it is such a file (None: it is not); Refused where it is but
    a switch or a v1 behaviour is one the conversion does not prove. `names`: id(switch call) -> its names."""
    if len(v1_aliases) != 1 or tf_aliases:
        return None
    alias = min(v1_aliases)
    imported = next((s for s in module.body if _imports_v1(s, alias)), None)
    imports: list[cst.Import | cst.ImportFrom] = [*collect(module, cst.Import), *collect(module, cst.ImportFrom)]
    others = [i for i in imports if _tensorflow(i)]
    if imported is None or len(others) != 1:  # (another import of TensorFlow's names: not only the alias reads them)
        return None
    lines = {id(small.value): stmt for stmt in module.body if isinstance(small := single(stmt), cst.Expr)}
    switches: list[cst.BaseStatement] = []
    for call in switch_calls:
        line = lines.get(id(call))
        if line is None or call.args or not names.get(id(call), frozenset()) & SWITCHES:
            raise Refused(call, "the file switches eager execution itself (not as a statement of its own at the top)")
        switches.append(line)
    values = [a for a in collect(module, cst.Attribute) if a.attr.value == "value"]
    if values:
        raise Refused(values[0], "`.value` under disable_v2_behavior's v1 shapes (TF 2's shapes hold ints)")
    for comparison in collect(module, cst.Comparison):
        identity = any(isinstance(c.operator, (cst.Is, cst.IsNot)) for c in comparison.comparisons)
        if identity and any(a.attr.value in ("shape", "get_shape") for a in collect(comparison, cst.Attribute)):
            raise Refused(comparison, "a shape compared by `is` (v1 shapes give Dimension(None), TF 2's None)")
    return V1Module(alias, imported, switches)


def _tensorflow(node: cst.Import | cst.ImportFrom) -> bool:
    """Does the import statement import TensorFlow or a module of it (names of it, `*` included)?"""
    found = tf_imports(node)
    return bool(found.bindings or found.star)


def _imports_v1(stmt: cst.BaseStatement, alias: str) -> bool:
    small = single(stmt)
    if not isinstance(small, cst.Import) or len(small.names) != 1:
        return False
    name = small.names[0]
    asname = name.asname.name if name.asname is not None else None
    return _tf.full_name(name.name) == V1 and isinstance(asname, cst.Name) and asname.value == alias


def check_equality(statements: Iterable[cst.CSTNode], graph: set[str]) -> None:
    """No `==` / `!=` between the graph's tensors (v1 behaviour compared them as objects)."""
    for stmt in statements:
        for comparison in collect(stmt, cst.Comparison):
            if any(isinstance(c.operator, (cst.Equal, cst.NotEqual)) for c in comparison.comparisons):
                names = {n.value for n in collect(comparison, cst.Name)}
                if names & graph:
                    raise Refused(
                        stmt, "`==` between tensors (v1 behaviour compared them as objects, TF 2 element-wise)"
                    )


def tf2_import(module: cst.Module, v1: V1Module, updated: dict[int, cst.BaseStatement]) -> cst.Module:
    """The converted module with `import tensorflow as <alias>` and no switches; Refused where a name it reads
    through the alias is not the same in TF 2."""
    switches = {id(updated.get(id(s), s)) for s in v1.switches}
    imported = updated.get(id(v1.imported), v1.imported)
    new_import = cst.parse_statement(f"import tensorflow as {v1.alias}\n").with_changes(
        leading_lines=getattr(imported, "leading_lines", ())
    )
    body = [new_import if s is imported else s for s in module.body if id(s) not in switches]
    module = module.with_changes(body=body)
    calls = {id(c.func): c for c in collect(module, cst.Call)}
    inner: set[int] = set()
    for node in collect(module, cst.Attribute):
        if id(node) in inner:
            continue
        chain: cst.BaseExpression = node
        parts = []
        while isinstance(chain, cst.Attribute):
            parts.append(chain.attr.value)
            inner.add(id(chain.value))
            chain = chain.value
        if not (isinstance(chain, cst.Name) and chain.value == v1.alias):
            continue
        path = ".".join(reversed(parts))
        if path not in WRITTEN and not same_in_tf2(path, calls.get(id(node))):
            raise Refused(node, f"tf.{path}: not the same in TF 2 (the file imports tensorflow.compat.v1)")
    return module


def same_in_tf2(path: str, call: cst.Call | None) -> bool:
    """Is TF1's `tf.<path>` the same in TF 2 (the API table's names that moved, differ or are TF1's only are not; a
    function whose parameters differ is where `call`, its call, passes them the same way)?"""
    api = _tf.api()
    for prefix in _prefixes(path):
        params = api["differs"].get(prefix)
        passed = call if prefix == path else None
        same = target(api, prefix) is None and prefix not in api["v1_only_modules"]
        if prefix.startswith("compat") or not same or (prefix in api["differs"] and not _passes(passed, params)):
            return False
    return True


def _prefixes(path: str) -> list[str]:
    parts = path.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _passes(call: cst.Call | None, params: dict | None) -> bool:
    """A function TF 2 changed: the call passes it arguments TF 2 reads as TF1 did."""
    return call is not None and params is not None and compatible(call.args, params)
