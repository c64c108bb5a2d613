"""native-session's lookup tables: `table = HashTable(KeyValueTensorInitializer(keys, values), default)`
(tf.contrib.lookup's, tf.lookup's v1 StaticHashTable) -> TF 2's `tf.lookup.StaticHashTable`, made once where the
script made it.

TF1's table was filled by a tables_initializer run; TF 2's is filled when it is made (eagerly), so the runs of
tables_initializer go with the other initializer runs. Its keys and values are host values (a table of the
graph's tensors is not proven), and the table is read only by `table.lookup(...)` in the graph's statements,
which model() runs on every step as TF1 ran the lookup op in each sess.run: the same kernel on the same keys.
"""

from __future__ import annotations

from typing import cast

import libcst as cst

from codemods.engine.rule import Rule
from codemods.rules import _tf
from codemods.rules._native_names import PREFIXES
from codemods.rules._native_shapes import StaticShapes
from codemods.rules._native_syntax import Refused, arguments, assigned, collect, names_in, single, source_of
from codemods.rules._tf_bindings import tf_imports

TABLES = frozenset(p + n for n in ("contrib.lookup.HashTable", "lookup.StaticHashTable") for p in PREFIXES)
KEY_VALUE = frozenset(
    p + n for n in ("contrib.lookup.KeyValueTensorInitializer", "lookup.KeyValueTensorInitializer") for p in PREFIXES
)
# the v1 constructors' parameters in positional order, up to those the TF 2 ones take alike
TABLE_PARAMS = ("initializer", "default_value")
KEY_VALUE_PARAMS = ("keys", "values", "key_dtype", "value_dtype")


class Lookup(StaticShapes):
    """Lookup tables made once."""

    def lookup_table(self, stmt: cst.BaseStatement) -> bool | None:
        """`table = HashTable(KeyValueTensorInitializer(...), default)` -> TF 2's table, a host statement made
        where the script made it; None: not one."""
        name, value = assigned(single(stmt))
        if name is None or not (isinstance(value, cst.Call) and self.rule.is_call(value, TABLES)):
            return None
        what = _tf.full_name(value.func)
        updated = self.updated_call(stmt)
        args = arguments(updated, TABLE_PARAMS, stmt, what)
        original = arguments(value, TABLE_PARAMS, stmt, what)
        initializer = original["initializer"].value if "initializer" in original else None
        if not (isinstance(initializer, cst.Call) and self.rule.is_call(initializer, KEY_VALUE)):
            raise Refused(stmt, f"{what} whose initializer is not a KeyValueTensorInitializer(keys, values) call")
        if "default_value" not in args:
            raise Refused(stmt, f"{what} without its default value")
        filled = arguments(
            cast(cst.Call, args["initializer"].value), KEY_VALUE_PARAMS, stmt, "KeyValueTensorInitializer"
        )
        if "keys" not in filled or "values" not in filled:
            raise Refused(stmt, "KeyValueTensorInitializer without its keys and values")
        reads = set(names_in(cast(cst.Assign, single(stmt)).value).names)
        if reads & self.graph:
            raise Refused(stmt, f"a lookup table of the graph's tensors (`{min(reads & self.graph)}`)")
        lookups = [
            call
            for call in collect(self.rule._module, cst.Call)  # noqa: SLF001 - the module as the source has it
            if isinstance(call.func, cst.Attribute)
            and call.func.attr.value == "lookup"
            and isinstance(call.func.value, cst.Name)
            and call.func.value.value == name
        ]
        if self.rule.module_names().get(name) != 1 + len(lookups):
            raise Refused(stmt, f"the lookup table `{name}` is used besides by its lookup() calls")
        keywords = [source_of(filled["keys"].value), source_of(filled["values"].value)]
        keywords += [f"{p}={source_of(filled[p].value)}" for p in KEY_VALUE_PARAMS[2:] if p in filled]
        code = (
            f"{name} = {self.alias}.lookup.StaticHashTable({self.alias}.lookup.KeyValueTensorInitializer("
            f"{', '.join(keywords)}), {source_of(args['default_value'].value)})\n"
        )
        line = cst.parse_statement(code)
        self.replacements[id(stmt)] = [line]
        self.tables.add(name)
        self.graph.add(name)  # (any other read of it, in the run region, is refused as a graph name's)
        return False


def drop_v1_imports(rule: Rule, module: cst.Module) -> None:
    """The `from tensorflow.compat.v1.<module> import ...` lines (the safe pass's) the converted code no longer reads:
    dropped by the engine where nothing uses them (a table's class, now spelled tf.lookup.StaticHashTable)."""
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue  # (the safe pass writes such lines at the top level)
        for binding in tf_imports(stmt).bindings:
            imported, name, as_name = binding.imported
            if name is not None and imported.startswith(f"{_tf.TF}.compat.v1."):
                rule.remove_unused_import(imported, name, as_name)
