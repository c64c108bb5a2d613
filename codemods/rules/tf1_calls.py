"""TF 1.x calls TF 2 rejects -> TF 2's spelling, from compat/tf1_names.py's call-signature table (uai-run's too).

`dataset.map(parse, num_threads=4, output_buffer_size=8)` (TF 1.2-1.4's tf.contrib.data) becomes
`dataset.map(parse, num_parallel_calls=4).prefetch(8)`, and
`dataset.apply(tf.contrib.data.batch_and_drop_remainder(n))` becomes `dataset.batch(n, drop_remainder=True)`.
Nothing before run time knows a method call's receiver, so a method is recognised by its name and a TF1
keyword of the table: TF 2's method of that name refuses the keyword, so in a module that imports TensorFlow
such a call is TF1's. A transformation that is not applied where it is made (`t = batch_and_drop_remainder(n)`)
is an error entry naming the manual step.
"""

from collections.abc import Mapping
from typing import cast

import libcst as cst

from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import InsideImport
from codemods.rule_description import Example
from codemods.rules import _shared, _tf
from compat import tf1_names
from compat.tf1_calls import spelled

_V1_TWINS = tf1_names.with_v1_twins


def _short(name: str) -> str:
    return "tf" + name[len(_tf.TF) :] if name.startswith(_tf.TF + ".") else name


def _methods() -> dict[str, tuple[str, dict]]:
    """CALL_KEYWORDS' methods as {method name: (TF1 name, keywords)}."""
    methods = {}
    for name, keywords in tf1_names.CALL_KEYWORDS.items():
        if name not in tf1_names.CALLABLES:
            methods[name.rpartition(".")[2]] = (name, keywords)
    return methods


def _callables() -> dict[str, str]:
    """{TF1 name: its CALL_KEYWORDS callable row}: the rows, the tf.contrib names that were their objects on TF 1.15
    (SAME_IN_TF1), in both spellings (`tensorflow.compat.v1.<path>`)."""
    found = {name: name for name in tf1_names.CALLABLES}
    for old, new in tf1_names.SAME_IN_TF1.items():
        if f"{_tf.TF}.{new}" in tf1_names.CALLABLES:
            found[f"{_tf.TF}.contrib.{old}"] = f"{_tf.TF}.{new}"
    return _V1_TWINS(found)


METHODS = _methods()
CALLABLES = _callables()
_CALLABLE_NAMES = frozenset(CALLABLES)
TRANSFORMATIONS = _V1_TWINS(tf1_names.TRANSFORMATIONS)
_TRANSFORMATION_NAMES = frozenset(TRANSFORMATIONS)


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _keyword(arg: cst.Arg) -> str:
    """The argument's keyword, "" for a positional one (no keyword of the tables)."""
    return _shared.keyword_of(arg) or ""


def _is_inert(value: cst.BaseExpression, inert: object) -> bool:
    """Is `value` written as `inert` (TF1's behaviour without the keyword) or None?"""
    return _is_none(value) or cst.parse_expression(repr(inert)).deep_equals(value)


def _with_last_comma(args: list[cst.Arg], comma: cst.Comma | cst.MaybeSentinel) -> list[cst.Arg]:
    """`args` ending as the original call ended (a trailing comma or none)."""
    if args:
        args[-1] = args[-1].with_changes(comma=comma)
    return args


class Tf1CallsRule(InsideImport, Rule):
    ID = "tf1-calls"
    DESCRIPTION = (
        "TF 1.x call signatures TF 2 rejects (tf.contrib.data's map(num_threads=, output_buffer_size=), "
        "batch_and_drop_remainder) -> TF 2's calls (compat/tf1_names.py's table, uai-run's too)."
    )
    ORDER = 100
    EXAMPLE = Example(
        why="TF 1.4's tf.contrib.data Dataset took num_threads= and output_buffer_size= in map, and applied "
        "batch_and_drop_remainder; TF 2's Dataset refuses both with a TypeError at run time.",
        before="import tensorflow as tf\nd = d.map(parse, num_threads=4, output_buffer_size=8)\n"
        "d = d.apply(tf.contrib.data.batch_and_drop_remainder(32))\n",
        after="import tensorflow as tf\nd = d.map(parse, num_parallel_calls=4).prefetch(8)\nd = d.batch(32, drop_remainder=True)\n",
    )
    CLAIMS = _TRANSFORMATION_NAMES
    # a method is known by its TF1 keyword; a transformation by a name bound to TensorFlow
    WORDS = frozenset(keyword for _, keywords in METHODS.values() for keyword in keywords)

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._applied: set[int] = set()  # transformation calls that are the argument of `x.apply(...)`
        self._called: set[int] = set()  # transformation names that are called
        self._attrs: set[int] = (
            set()
        )  # the attribute names of attribute chains (`x.<name>`): no references of their own
        self._tensorflow = _tf.imports_tensorflow(state)

    # -- which nodes are what
    def _transformation(self, node: cst.BaseExpression) -> str | None:
        if not isinstance(node, (cst.Name, cst.Attribute)) or id(node) in self._attrs:
            return None
        return self.match(node, _TRANSFORMATION_NAMES)

    def _applied_transformation(self, node: cst.Call) -> cst.Call | None:
        """The transformation call `node` applies, when `node` is `x.apply(<transformation>(...))`."""
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "apply" and len(node.args) == 1):
            return None
        arg = node.args[0]
        if arg.keyword is not None or arg.star or not isinstance(arg.value, cst.Call):
            return None
        return arg.value if self._transformation(arg.value.func) else None

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._attrs.add(id(node.attr))

    def visit_Call(self, node: cst.Call) -> None:
        if self._transformation(node.func):
            self._called.add(id(node.func))
        inner = self._applied_transformation(node)
        if inner is not None:
            self._applied.add(id(inner))

    # -- a transformation named but not applied in place: the person writes the method call
    def _unapplied(self, node: cst.CSTNode, name: str) -> None:
        method, fixed = TRANSFORMATIONS[name]
        added = ", ".join(f"{k}={v!r}" for k, v in fixed.items())
        self.report(
            node,
            f"{_short(tf1_names.tf1_name(name))} is gone in TF 2 and is not applied here (dataset.apply(...))",
            severity="error",
            manual=f"write dataset.{method}(<its arguments>, {added}) where the dataset is transformed",
        )

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        self._reference(original_node)
        return updated_node

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        self._reference(original_node)
        return updated_node

    def _reference(self, node: cst.Attribute | cst.Name) -> None:
        if self.in_import or id(node) in self._called:
            return
        name = self._transformation(node)
        if name is not None:
            self._unapplied(node, name)

    # -- calls
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if self.in_import:
            return updated_node
        inner = self._applied_transformation(original_node)
        if inner is not None:
            return self._apply(original_node, updated_node, inner)
        name = self._transformation(original_node.func)
        if name is not None:
            if id(original_node) not in self._applied:
                self._unapplied(original_node, name)
            return updated_node
        if isinstance(original_node.func, (cst.Name, cst.Attribute)) and id(original_node.func) not in self._attrs:
            row = self.match(original_node.func, _CALLABLE_NAMES)
            if row is not None:
                return self._callable(original_node, updated_node, CALLABLES[row])
        func = original_node.func
        if self._tensorflow and isinstance(func, cst.Attribute) and func.attr.value in METHODS:
            name, keywords = METHODS[func.attr.value]
            if any(_shared.keyword_of(arg) in keywords for arg in original_node.args):
                return self._keywords(original_node, updated_node, name, keywords)
        return updated_node

    def _keywords(self, node: cst.Call, updated: cst.Call, name: str, keywords: Mapping[str, str]) -> cst.Call:
        """The call with TF 2's keywords, and `.method(value)` calls for the keywords TF 2 spells so."""
        given = [_keyword(arg) for arg in updated.args if _keyword(arg) in keywords]
        if not given:
            return updated
        present = {_keyword(arg) for arg in updated.args}
        clash = [k for k in given if not keywords[k].startswith(".") and keywords[k] in present]
        if clash:
            self.report(
                node,
                f"{_short(name)}: both {clash[0]}= and {keywords[clash[0]]}= are given",
                severity="error",
                manual=f"keep one of them as {keywords[clash[0]]}= (TF 1.4 used {clash[0]}=)",
            )
            return updated
        args, then = [], []
        for arg in updated.args:
            keyword = _keyword(arg)
            if keyword not in keywords:
                args.append(arg)
            elif _is_none(arg.value):
                continue  # TF1's default
            elif keywords[keyword].startswith("."):
                then.append((keywords[keyword][1:], arg.value))
            else:
                args.append(arg.with_changes(keyword=cst.Name(keywords[keyword])))
        result = updated.with_changes(args=_with_last_comma(args, updated.args[-1].comma))
        for method, value in then:
            result = cst.Call(func=cst.Attribute(value=result, attr=cst.Name(method)), args=[cst.Arg(value)])
        text = ", ".join(f"{k}= -> {spelled(keywords[k])}" for k in given)
        self.report(node, f"{_short(name)}: {text}")
        return result

    def _callable(self, node: cst.Call, updated: cst.Call, name: str) -> cst.BaseExpression:
        """A TF1 function or class called with TF1's arguments: TF 1.15's positional arguments as keywords where
        TF 2 dropped or reordered parameters (TF1_PARAMETERS), then each TF1 keyword as TF 2 spells it."""
        keywords, order = tf1_names.CALL_KEYWORDS[name], tf1_names.TF1_PARAMETERS.get(name)
        args = list(updated.args)
        positional = [arg for arg in args if arg.keyword is None]
        if order is not None and positional:
            if any(arg.star for arg in args) or len(positional) > len(order):
                return self._refuse(
                    node,
                    updated,
                    name,
                    "its positional arguments cannot be matched to TF 1.15's parameters",
                    "pass them by keyword, as TF 2's parameters are named",
                )
            names = iter(order)
            args = [
                arg if arg.keyword else arg.with_changes(keyword=cst.Name(next(names)), equal=_shared.NO_SPACE)
                for arg in args
            ]
        given = {_keyword(arg): arg for arg in args if _keyword(arg) in keywords}
        if not given and not (order and positional):
            return updated
        set_by: dict[str, str] = {}  # TF 2 keyword -> the TF1 keyword giving it
        for keyword, arg in given.items():
            new = keywords[keyword]
            if isinstance(new, tf1_names.Dropped):
                if not _is_inert(arg.value, new.inert):
                    return self._refuse(
                        node,
                        updated,
                        name,
                        f"TF 2 has no {keyword}= (TF 1 did without it as {new.inert!r})",
                        new.manual,
                    )
            elif not _is_none(arg.value) and not new.startswith("."):
                target = new.partition("=")[0]
                if target in set_by or any(_keyword(a) == target and not _is_none(a.value) for a in args):
                    other = set_by.get(target, target)
                    return self._refuse(
                        node, updated, name, f"both {other}= and {keyword}= are given", f"keep one of them as {target}="
                    )
                set_by[target] = keyword
        out, then = [], []
        for arg in args:
            keyword = _keyword(arg)
            if keyword not in keywords:
                if not (keyword in set_by and _is_none(arg.value)):  # TF's default, given again below
                    out.append(arg)
                continue
            new = keywords[keyword]
            if isinstance(new, tf1_names.Dropped) or _is_none(arg.value):
                continue
            if new.startswith("."):
                then.append((new[1:], arg.value))
                continue
            target, _, convert = new.partition("=")
            value = arg.value
            if convert:
                module, attribute = tf1_names.split(convert)
                self.add_needed_import(module)
                _tf.ensure_compat(self)
                func = cst.parse_expression(f"{module}.{attribute}")
                value = cst.Call(func=func, args=[cst.Arg(arg.value)])
            out.append(arg.with_changes(keyword=cst.Name(target), value=value))
        comma = updated.args[-1].comma if updated.args else cst.MaybeSentinel.DEFAULT
        result: cst.BaseExpression = updated.with_changes(args=_with_last_comma(out, comma))
        for method, value in then:
            result = cst.Call(func=cst.Attribute(value=result, attr=cst.Name(method)), args=[cst.Arg(value)])
        done = [f"{k}= -> {spelled(keywords[k])}" for k in given]
        if order and positional:
            done.insert(0, "positional arguments -> TF 1.15's keywords")
        self.report(node, f"{_short(name)}: " + ", ".join(done))
        return result

    def _refuse(self, node: cst.Call, updated: cst.Call, name: str, problem: str, manual: str) -> cst.Call:
        """The call's arguments stay as they are, with an error entry naming the manual step."""
        self.report(node, f"{_short(name)}: {problem}", severity="error", manual=manual)
        return updated

    def _apply(self, node: cst.Call, updated: cst.Call, inner: cst.Call) -> cst.Call:
        """`x.apply(f(*args))` -> `x.<method>(*args, <keywords>)`."""
        name = cast(str, self._transformation(inner.func))  # (`inner` is one: _applied_transformation)
        method, fixed = TRANSFORMATIONS[name]
        # the transformation call, its arguments as the other rules left them
        made = cast(cst.Call, updated.args[0].value)
        args = [*made.args]
        if any(arg.star for arg in args) or {_shared.keyword_of(a) for a in args} & fixed.keys():
            self._unapplied(node, name)
            return updated
        args = _with_last_comma(args, cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        args += [
            cst.Arg(
                keyword=cst.Name(keyword),
                value=cst.parse_expression(repr(value)),
                equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
            )
            for keyword, value in fixed.items()
        ]
        self._drop_import(inner.func, name)
        added = ", ".join(f"{k}={v!r}" for k, v in fixed.items())
        self.report(node, f"dataset.apply({_short(tf1_names.tf1_name(name))}(...)) -> dataset.{method}(..., {added})")
        return updated.with_changes(func=updated.func.with_changes(attr=cst.Name(method)), args=args)

    def _drop_import(self, func: cst.BaseExpression, name: str) -> None:
        """`from tensorflow.contrib.data import batch_and_drop_remainder` is dead once its uses are rewritten."""
        if isinstance(func, cst.Name):
            module, _, obj = name.rpartition(".")
            self.remove_unused_import(module, obj, func.value if func.value != obj else None)
