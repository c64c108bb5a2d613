"""native-io: TF1's file, logging, parsing and seed functions -> the TF 2 functions they call, or that only call
them (--level native).

The safe level keeps them as tf.compat.v1 names. Each v1 function of the table is a wrapper that calls the
TF 2 one with the same arguments (TensorFlow's own source: tensorflow/python/lib/io/file_io.py,
platform/tf_logging.py, ops/parsing_ops.py), so the call becomes a call of that function, in any file
(graph mode or eager: they build no graph state, or the same ops):

- `tf.gfile.Exists(filename)` and the other gfile functions -> `tf.io.gfile.exists(path)` ..., the
  parameters TF 2 renamed passed by their new names;
- `tf.logging.set_verbosity(v)` -> `tf.get_logger().setLevel(v)`, the logger TF1's functions write to (a
  `tf.logging.INFO`-style level as its name, `"INFO"`, which setLevel takes); `get_verbosity()` ->
  `getEffectiveLevel()`. The message functions (tf.logging.info ...) stay, with one entry per file saying why: a
  record names its caller by counting frames from theirs;
- `tf.parse_single_example` / `tf.parse_example` -> `tf.io.parse_single_example` / `tf.io.parse_example`
  (`name` and `example_names` swapped places: a third or fourth positional argument is passed by keyword);
- `tf.set_random_seed(seed)` -> `tf.random.set_seed(seed)`, which calls it (in a graph it sets the graph's seed,
  eagerly the global one, as TF1's did).

A call with *args or **kwargs where a parameter was renamed, and every other name, stays at the safe level.
"""

from __future__ import annotations

import libcst as cst

from codemods.engine.rule import FileState, Rule
from codemods.rule_description import Example
from codemods.rules import _tf
from codemods.rules._native_syntax import EQUAL, descendants

_PREFIXES = ("tensorflow.", "tensorflow.compat.v1.")
# v1 gfile function -> (its TF 2 function under tf., TF1's parameter names in order, renamed: TF1's -> TF 2's)
_GFILE: dict[str, tuple[str, tuple[str, ...], dict[str, str]]] = {
    "Exists": ("io.gfile.exists", ("filename",), {"filename": "path"}),
    "Remove": ("io.gfile.remove", ("filename",), {"filename": "path"}),
    "Glob": ("io.gfile.glob", ("filename",), {"filename": "pattern"}),
    "MkDir": ("io.gfile.mkdir", ("dirname",), {"dirname": "path"}),
    "MakeDirs": ("io.gfile.makedirs", ("dirname",), {"dirname": "path"}),
    "Copy": ("io.gfile.copy", ("oldpath", "newpath", "overwrite"), {"oldpath": "src", "newpath": "dst"}),
    "Rename": ("io.gfile.rename", ("oldname", "newname", "overwrite"), {"oldname": "src", "newname": "dst"}),
    "DeleteRecursively": ("io.gfile.rmtree", ("dirname",), {"dirname": "path"}),
    "IsDirectory": ("io.gfile.isdir", ("dirname",), {"dirname": "path"}),
    "ListDirectory": ("io.gfile.listdir", ("dirname",), {"dirname": "path"}),
    "Walk": ("io.gfile.walk", ("top", "in_order"), {"in_order": "topdown"}),
    "Stat": ("io.gfile.stat", ("filename",), {"filename": "path"}),
    "GFile": ("io.gfile.GFile", ("name", "mode"), {}),  # (the same class)
    "Open": ("io.gfile.GFile", ("name", "mode"), {}),
}
# v1 logging function -> the method of the logger it calls (tf.get_logger(), TF1's "tensorflow" logger). Not the
# message functions (info, warning ...): TF's logger finds a record's caller a fixed number of frames up, counting
# their own frame, so a direct logger.info call would name another file and line in the record.
_LOGGING = {"set_verbosity": "setLevel", "get_verbosity": "getEffectiveLevel"}
# their parameters, TF1's -> the logger method's (set_verbosity(v) calls setLevel(level))
_LOGGING_PARAMS: dict[str, dict[str, str]] = {"set_verbosity": {"v": "level"}, "get_verbosity": {}}
_MESSAGES = tuple("debug info warn warning error fatal log log_every_n log_first_n log_if vlog".split())
MESSAGES_STAY = (
    "TF's logger names a record's caller by counting frames from the message function's, and each TF 2 spelling "
    '(tf.get_logger().info, logging.getLogger("tensorflow").info, absl.logging.info) names another file and line '
    "under tf.app.run or a handler printing the caller, where TF 1.15 named the call (measured)"
)
_LEVELS = ("DEBUG", "INFO", "WARN", "ERROR", "FATAL")  # tf.logging's levels: Python logging's, by these names
# v1 parser -> TF 2's (the v1 one calls it with name and example_names swapped)
_PARSERS = {"parse_single_example": "io.parse_single_example", "parse_example": "io.parse_example"}
_PARSER_PARAMS = ("serialized", "features", "name", "example_names")
# TF1's seed function: TF 2's tf.random.set_seed only calls it
_SEEDS = ("set_random_seed", "random.set_random_seed")

# (and the private modules TF1 utilities imported them from, which the safe level spells as tf.compat.v1 too)
_GFILES = (*(p + "gfile." for p in _PREFIXES), "tensorflow.python.platform.gfile.")
_LOGGERS = (*(p + "logging." for p in _PREFIXES), "tensorflow.python.platform.tf_logging.")
_NAMES: dict[str, tuple[str, str]] = {  # qualified name -> (kind, the v1 function)
    **{p + n: ("gfile", n) for n in _GFILE for p in _GFILES},
    **{p + n: ("logging", n) for n in _LOGGING for p in _LOGGERS},
    **{p + n: ("parser", n) for n in _PARSERS for p in _PREFIXES},
    **{p + "io." + n: ("parser", n) for n in _PARSERS for p in _PREFIXES[1:]},
    **{p + n: ("seed", n) for n in _SEEDS for p in _PREFIXES},
}
_LEVEL_NAMES = {p + n: n for n in _LEVELS for p in _LOGGERS}
_MESSAGE_NAMES = frozenset(p + n for n in _MESSAGES for p in _LOGGERS)


class NativeIoRule(Rule):
    ID = "native-io"
    DESCRIPTION = (
        "TF1's gfile functions, logging verbosity, parse_(single_)example and set_random_seed -> the TF 2 "
        "functions they call (tf.io.gfile, tf.get_logger().setLevel, tf.io.parse_*) or that call them "
        "(tf.random.set_seed)."
    )
    LEVEL = "native"
    ORDER = 185  # after tf1-api (it rewrites its tf.compat.v1 spelling); before native-session, which reads the result
    EXAMPLE = Example(
        "The safe level keeps TF1's file, logging and parsing functions as tf.compat.v1 names. These are wrappers "
        "calling a TF 2 function with the same arguments: tf.gfile.Exists(filename) calls "
        "tf.io.gfile.exists(path), tf.logging.set_verbosity(v) calls tf.get_logger().setLevel(v), "
        "tf.parse_single_example calls tf.io.parse_single_example (name and example_names in the other order), "
        "and TF 2's tf.random.set_seed only calls tf.set_random_seed, "
        "so the call becomes that function's, in any file. What may change: nothing (a level such as "
        'tf.logging.INFO is written as its name, "INFO", which setLevel takes); a call passing a renamed parameter '
        "through *args or **kwargs is left, and so are tf.logging.info and the other message functions (TF's "
        "logger names a record's caller by counting frames from theirs).",
        "import tensorflow as tf\n"
        "tf.logging.set_verbosity(tf.logging.INFO)\n"
        'if not tf.gfile.Exists(filename="/tmp/out"):\n'
        '    tf.gfile.MakeDirs("/tmp/out")\n'
        'print(tf.gfile.Glob("/tmp/out/*"))\n',
        "import tensorflow as tf\n"
        'tf.get_logger().setLevel("INFO")\n'
        'if not tf.io.gfile.exists(path="/tmp/out"):\n'
        '    tf.io.gfile.makedirs("/tmp/out")\n'
        'print(tf.io.gfile.glob("/tmp/out/*"))\n',
    )
    WORDS = frozenset()  # it acts on TensorFlow's names only

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._found: dict[int, tuple[str, str]] = {}  # id(original call) -> (kind, v1 function)
        self._levels: set[int] = set()  # id() of the original tf.logging.<LEVEL> arguments of set_verbosity
        self._done: list[cst.Call] = []  # the original calls rewritten
        self._messages: list[tuple[cst.Call, int]] = []  # the message calls left, and their top-level statements

    def visit_Call(self, node: cst.Call) -> None:
        if self.level != "native":
            return
        name = self.match(node.func, _NAMES.keys())
        if name is None:
            if self.match(node.func, _MESSAGE_NAMES) is not None:
                self._messages.append((node, self.state.top))
            return
        self._found[id(node)] = _NAMES[name]
        if _NAMES[name][1] == "set_verbosity":
            self._levels |= {id(a.value) for a in node.args if self.match(a.value, _LEVEL_NAMES.keys())}

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        found = self._found.get(id(original_node))
        if found is None:
            return updated_node
        kind, function = found
        if any(arg.star for arg in original_node.args):
            return self._left(original_node, updated_node, "*args or **kwargs (they may hold a renamed parameter)")
        alias = _tf.tf_alias(self, original_node.func)
        args = list(updated_node.args)
        if kind == "gfile":
            target, params, renamed = _GFILE[function]
            v1, v2 = f"gfile.{function}", target
            func: cst.BaseExpression = _tf.dotted(f"{alias}.{target}")
            args = [_renamed(arg, renamed) for arg in args]
            if any(arg.keyword is not None and arg.keyword.value not in (*params, *renamed.values()) for arg in args):
                return self._left(original_node, updated_node, "a keyword the TF1 function does not take")
        elif kind == "logging":
            func = cst.parse_expression(f"{alias}.get_logger().{_LOGGING[function]}")
            v1, v2 = f"logging.{function}", f"get_logger().{_LOGGING[function]}"
            renamed = _LOGGING_PARAMS[function]
            if any(arg.keyword is not None and arg.keyword.value not in renamed for arg in args):
                return self._left(original_node, updated_node, "a keyword the TF1 function does not take")
            args = [_renamed(arg, renamed) for arg in args]
            if function == "set_verbosity":
                args = [_level(original, arg, self._levels) for original, arg in zip(original_node.args, args)]
        elif kind == "seed":
            func, v1, v2 = _tf.dotted(f"{alias}.random.set_seed"), function, "random.set_seed"
        else:
            func = _tf.dotted(f"{alias}.{_PARSERS[function]}")
            v1, v2 = function, _PARSERS[function]
            if any(arg.keyword is not None and arg.keyword.value not in _PARSER_PARAMS for arg in args):
                return self._left(original_node, updated_node, "a keyword the TF1 function does not take")
            args = [
                arg.with_changes(keyword=cst.Name(_PARSER_PARAMS[i]), equal=EQUAL)
                if i >= 2 and not arg.keyword
                else arg
                for i, arg in enumerate(args)
            ]
        self._done.append(original_node)
        self.report(original_node, f"tf.{v1} -> tf.{v2} (the TF 2 function it calls)", native=True)
        return updated_node.with_changes(func=func, args=args)

    def _left(self, original: cst.Call, updated: cst.Call, why: str) -> cst.Call:
        self.report(original, f"{_tf.full_name(original.func)} left at the safe level: {why}", native=True)
        return updated

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if self._messages:  # one entry for the file: the reason is the same for each call
            (first, top), others = self._messages[0], len(self._messages) - 1
            name = _tf.full_name(first.func).replace(".compat.v1.", ".")
            calls = f"{name} and {others} other message call{'s' if others > 1 else ''}" if others else name
            self.report(first, f"{calls} left at the safe level: {MESSAGES_STAY}", native=True, statement=top)
        if self._done:  # tf1-api's entries for the names rewritten again here
            inside = {id(n) for call in self._done for n in descendants(call.func)}
            inside |= self._levels
            self.state.reports[:] = [
                (top, node, entry)
                for top, node, entry in self.state.reports
                if not (id(node) in inside and entry.rule != self.ID and "compat.v1" in entry.message)
            ]
        return updated_node


def _renamed(arg: cst.Arg, renamed: dict[str, str]) -> cst.Arg:
    if arg.keyword is not None and arg.keyword.value in renamed:
        return arg.with_changes(keyword=cst.Name(renamed[arg.keyword.value]))
    return arg


def _level(original: cst.Arg, arg: cst.Arg, levels: set[int]) -> cst.Arg:
    """tf.logging.INFO as set_verbosity's argument -> "INFO" (setLevel takes a level's name)."""
    if id(original.value) not in levels:
        return arg
    name = _tf.full_name(original.value).rpartition(".")[2]
    return arg.with_changes(value=cst.SimpleString(f'"{name}"'))
