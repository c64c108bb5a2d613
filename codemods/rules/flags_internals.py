"""TF <= 1.4's argparse-era flags internals -> absl's public API: `FLAGS._parse_flags()`, `FLAGS.__flags`.

Before TF 1.5, `tf.app.flags` was argparse: programs parsed with `FLAGS._parse_flags()` (argparse's
parse_known_args of sys.argv; it returned the arguments no flag took) and printed their settings from
`FLAGS.__flags`, a dict {flag name: value}. absl's FlagValues has neither (compat.flags serves both to
unmodified programs, under uai-run), so the port writes what absl says for them:

    FLAGS._parse_flags()          -> FLAGS(sys.argv, known_only=True)
    rest = FLAGS._parse_flags()   -> rest = FLAGS(sys.argv, known_only=True)[1:]   (absl keeps argv[0])
    FLAGS._parse_flags(args)      -> FLAGS([sys.argv[0], *args], known_only=True)
    FLAGS.__flags                 -> FLAGS.flag_values_dict()

`FLAGS.__flags` meant {name: value} only before TF 1.5: on absl (TF >= 1.5) it is {name: Flag}, and
programs of that era read `FLAGS.__flags[name].value`. A module that calls `FLAGS._parse_flags()`, which
only TF <= 1.4 had, is of the argparse era and its `FLAGS.__flags` is rewritten (compat.flags, under uai-run,
decides the same way); elsewhere it is left, with a warning. `flag_values_dict()` is a copy, where TF 1.4's
dict was the flags' storage: a write to `FLAGS.__flags` is an error entry. Inside a class, Python mangles
`FLAGS.__flags` to `FLAGS._<Class>__flags`, which TF 1 had no more than absl has: left, with a warning.
"""

from typing import cast

import libcst as cst
import libcst.matchers as m

from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import InsideImport
from codemods.rule_description import Example
from codemods.rules import _shared

# TF1's FLAGS object, in every spelling of its module (tf.app.flags, tf.flags, tensorflow.python.platform.flags ...)
FLAGS_OBJECTS = frozenset(
    f"{old}.FLAGS" for old, (new, attr) in _shared.flags_moves().items() if (new, attr) == (_shared.FLAGS_HOME, None)
)
# dict methods that change it: TF 1.4's dict was the flags' values, a copy's change would be lost
MUTATORS = frozenset({"update", "pop", "popitem", "setdefault", "clear", "__setitem__", "__delitem__"})


def _call(func: cst.BaseExpression, *args: cst.Arg) -> cst.Call:
    return cst.Call(func=func, args=list(args))


def _known_only() -> cst.Arg:
    return cst.Arg(
        keyword=cst.Name("known_only"),
        value=cst.Name("True"),
        equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
    )


def _comma() -> cst.Comma:
    return cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


class FlagsInternalsRule(InsideImport, Rule):
    ID = "tf-flags-internals"
    DESCRIPTION = (
        "TF <= 1.4's FLAGS._parse_flags() and FLAGS.__flags -> FLAGS(sys.argv, known_only=True) and "
        "FLAGS.flag_values_dict() (absl's API)."
    )
    ORDER = 40
    EXAMPLE = Example(
        why="TF <= 1.4's tf.app.flags was argparse: programs called FLAGS._parse_flags() and read FLAGS.__flags "
        "({name: value}); absl's FLAGS has neither (AttributeError at run time).",
        before="import tensorflow as tf\nFLAGS = tf.flags.FLAGS\nFLAGS._parse_flags()\nprint(FLAGS.__flags)\n",
        after="import tensorflow as tf\nimport sys\n\nFLAGS = tf.flags.FLAGS\n"
        "FLAGS(sys.argv, known_only=True)\nprint(FLAGS.flag_values_dict())\n",
    )
    WORDS = frozenset({"_parse_flags", "__flags"})  # on a name bound to FLAGS, which is TensorFlow's

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._classes = 0  # class bodies (and their methods) around the node: `__flags` is mangled there
        self._statements: set[int] = set()  # calls whose result is thrown away (an expression statement)
        self._written: set[int] = set()  # `FLAGS.__flags` nodes something writes through

    def _flags_object(self, node: cst.BaseExpression) -> bool:
        """TF1's FLAGS, or a name the module binds to it once (`FLAGS = tf.flags.FLAGS`, bound nowhere else)."""
        if isinstance(node, cst.Name) and self.state.table.toplevel.get(node.value) in FLAGS_OBJECTS:
            return True
        return self.match(node, FLAGS_OBJECTS) is not None

    def _is_flags_dict(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Attribute) and node.attr.value == "__flags" and self._flags_object(node.value)

    # -- context
    def visit_Module(self, node: cst.Module) -> None:
        # a search of the whole tree costs about a third of a pass: only where the text has the name
        if "_parse_flags" not in self.state.source:
            self._argparse_era = False
            return
        parse_calls = m.findall(node, m.Call(func=m.Attribute(attr=m.Name("_parse_flags"))))
        # (the matcher found calls of an attribute)
        self._argparse_era = any(
            self._flags_object(cast(cst.Attribute, cast(cst.Call, call).func).value) for call in parse_calls
        )

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes += 1

    def leave_ClassDef(
        self, original_node: cst.ClassDef, updated_node: cst.ClassDef
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement] | cst.RemovalSentinel:
        self._classes -= 1
        return updated_node

    def visit_Expr(self, node: cst.Expr) -> None:
        self._statements.add(id(node.value))

    def _writes(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Subscript):
            target = target.value
        if self._is_flags_dict(target):
            self._written.add(id(target))

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._writes(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._writes(node.target)

    def visit_Del(self, node: cst.Del) -> None:
        targets = node.target.elements if isinstance(node.target, cst.Tuple) else ()
        for target in [node.target, *(element.value for element in targets)]:
            self._writes(target)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in MUTATORS:
            self._writes(func.value)

    # -- FLAGS.__flags
    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if self.in_import or not self._is_flags_dict(original_node):
            return updated_node
        if self._classes:
            self.report(
                original_node,
                "FLAGS.__flags in a class is FLAGS._<Class>__flags (Python mangles the name): TF 1 failed here too",
                severity="warning",
                manual="write FLAGS.flag_values_dict() for {flag name: value}",
            )
            return updated_node
        if not self._argparse_era:
            self.report(
                original_node,
                "FLAGS.__flags is {name: Flag} on absl (TF >= 1.5), {name: value} on TF <= 1.4; this module calls "
                "no FLAGS._parse_flags() (TF <= 1.4's): left as absl reads it",
                severity="warning",
                manual="if this is TF <= 1.4 code reading values, write FLAGS.flag_values_dict()",
            )
            return updated_node
        if id(original_node) in self._written:
            self.report(
                original_node,
                "FLAGS.__flags is written: TF 1.4's dict held the flags' values, absl's flag_values_dict() is a copy",
                severity="error",
                manual="set the flag itself: FLAGS.<name> = value",
            )
            return updated_node
        self.report(original_node, "FLAGS.__flags -> FLAGS.flag_values_dict()")
        return _call(updated_node.with_changes(attr=cst.Name("flag_values_dict")))

    # -- FLAGS._parse_flags(...)
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = original_node.func
        if self.in_import or not (
            isinstance(func, cst.Attribute) and func.attr.value == "_parse_flags" and self._flags_object(func.value)
        ):
            return updated_node
        given = [arg for arg in original_node.args if arg.keyword is None or arg.keyword.value == "args"]
        if len(given) != len(original_node.args) or len(given) > 1 or any(arg.star for arg in given):
            self.report(
                original_node,
                "FLAGS._parse_flags(...) with arguments absl does not take",
                severity="error",
                manual="parse with FLAGS([sys.argv[0], *args], known_only=True)",
            )
            return updated_node
        self.add_needed_import("sys")
        argv = cst.parse_expression("sys.argv")
        if given:
            program = cst.parse_expression("sys.argv[0]")
            rest = cst.StarredElement(value=given[0].value)
            argv = cst.List(elements=[cst.Element(value=program, comma=_comma()), rest])
        parsed = _call(cast(cst.Attribute, updated_node.func).value, cst.Arg(value=argv, comma=_comma()), _known_only())
        if id(original_node) in self._statements:
            self.report(original_node, "FLAGS._parse_flags() -> FLAGS(sys.argv, known_only=True)")
            return parsed
        # TF 1.4 returned the arguments no flag took; absl returns them after argv[0]
        self.report(original_node, "FLAGS._parse_flags() -> FLAGS(sys.argv, known_only=True)[1:]")
        return cst.Subscript(
            value=parsed,
            slice=[cst.SubscriptElement(slice=cst.Slice(lower=cst.Integer("1"), upper=None))],
        )
