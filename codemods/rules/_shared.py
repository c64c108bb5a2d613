"""What more than one rule knows, in one place: rules read it here and never import another rule.

- Where a TF1 name goes and how its call is rewritten (tf1-api's knowledge, also used by tf-upgrade,
  tf-private and contrib-equivalents so that a second run changes nothing): `target`, `rename`,
  `rewrite_call`, the casts, the TF1 keywords and dropout's rate.
- The tf-upgrade table (tf_upgrade_v2's renames, TensorFlow 0.x names, contrib's moves): `upgrade_table`,
  `upgrade_lookup`.
- Which targets need `import compat` on TF 2.21 (tf-keras, the Estimator): `NEEDS_COMPAT`.
- The Estimator's modules (tf-estimator keeps them, native-estimator says a program stays on them): `ESTIMATOR`.
- Where a file reads a graph collection by a key that may be a given one (native-losses' LOSSES, native-layers'
  UPDATE_OPS): `collection_reads`.
"""

import functools
from collections.abc import Mapping, Sequence
from typing import Any, cast

import libcst as cst

from codemods import tables
from codemods.engine.rule import Rule
from codemods.rules import _tf
from codemods.rules._native_syntax import collect, source_of
from compat import graph_mode, tf1_names

ESTIMATOR = ("tensorflow.estimator", "tensorflow.compat.v1.estimator", "tensorflow_estimator")
CASTS = {
    "to_float": "float32",
    "to_double": "float64",
    "to_int32": "int32",
    "to_int64": "int64",
    "to_bfloat16": "bfloat16",
    "to_complex64": "complex64",
    "to_complex128": "complex128",
}
# TF 0.12 arguments TF 1.x no longer takes and ignored before: dropped, with an entry.
DROPPED_KEYWORDS = {"train.SyncReplicasOptimizer": ("replica_id",)}


# `keyword=value` as code writes a call's keyword arguments
NO_SPACE = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))


def keyword_of(arg: cst.Arg) -> str | None:
    return arg.keyword.value if arg.keyword is not None else None


def _one_minus(value: cst.BaseExpression) -> cst.BinaryOperation:
    if not isinstance(value, (cst.Name, cst.Attribute, cst.Integer, cst.Float, cst.Call, cst.Subscript)):
        value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.BinaryOperation(left=cst.Integer("1"), operator=cst.Subtract(), right=value)


def compatible(args: Sequence[cst.Arg], params: Mapping[str, Any]) -> bool:
    """Does the TF2 function read these call arguments as the TF1 one did?"""
    positional = [a for a in args if a.keyword is None]
    if any(a.star for a in args):
        return False
    n = len(positional)
    if params["v1"][:n] != params["v2"][:n]:
        return False
    names = params["v2_names"]
    given = {*params["v2"][:n], *(keyword_of(a) for a in args if a.keyword is not None)}
    if any(name not in given for name in params.get("v2_required", ())):
        return False  # `tf.image.draw_bounding_boxes(images, boxes)`: TF2's needs `colors` too
    return all(keyword_of(a) in names or "**" in names for a in args if a.keyword is not None)


def target(api: Mapping[str, Any], path: str) -> str | None:
    """The new path (relative to `tensorflow`) for a TF1 name, or None to keep it (or decide per call)."""
    if path in api["moved"]:
        new = api["moved"][path]
        # TF1 code spells that TF2 home as another class (or a summary op): a second run would move
        # it again, so the TF1 name stays, under compat.v1 (the very same object). Functions: rewrite_call.
        return "compat.v1." + path if new in api["differs"] and api["differs"][new] is None else new
    if path in api["v1_only"] or (path in api["differs"] and api["differs"][path] is None):
        return "compat.v1." + path
    return None


def rename(rule: Rule, original: cst.BaseExpression, path: str, new_path: str) -> cst.BaseExpression:
    if new_path.startswith(NEEDS_COMPAT):
        _tf.ensure_compat(rule)
    alias = _tf.tf_alias(rule, original)
    rule.report(original, f"tf.{path} -> tf.{new_path}")
    return _tf.dotted(f"{alias}.{new_path}")


def rewrite_call(rule: Rule, original_node: cst.Call, updated_node: cst.Call, path: str) -> cst.Call:
    """A call of the TF1 function `tf.<path>` as TF2 reads it: tf.cast for the casts, TF2 keywords,
    dropout's rate, or `tf.compat.v1.<path>` when TF2's function would read the arguments otherwise."""
    api = _tf.api()
    dropped = [a for a in updated_node.args if keyword_of(a) in DROPPED_KEYWORDS.get(path, ())]
    if dropped:
        rule.report(
            original_node,
            # (the dropped arguments are keywords)
            f"tf.{path}: {', '.join(cast(str, keyword_of(a)) + '=' for a in dropped)} dropped "
            "(TF 0.12's argument, ignored since TF 1.0)",
        )
        args = [a for a in updated_node.args if a not in dropped]
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        updated_node = updated_node.with_changes(args=args)
    if path in CASTS and updated_node.args:
        alias = _tf.tf_alias(rule, original_node.func)
        dtype = cst.Arg(_tf.dotted(f"{alias}.{CASTS[path]}"))
        first = updated_node.args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        args = [first.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))), dtype]
        if len(updated_node.args) > 1:
            args[-1] = dtype.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            args.extend(updated_node.args[1:])
        rule.report(original_node, f"tf.{path}(x) -> tf.cast(x, tf.{CASTS[path]})")
        return updated_node.with_changes(func=_tf.dotted(f"{alias}.cast"), args=args)
    # a moved function is judged as its new name will be by a second run (`tf.diag_part(x, k)` is
    # `tf.linalg.tensor_diag_part(x, k)` then, which TF1 code reads with tf.compat.v1's parameters)
    params = api["differs"].get(api["moved"].get(path, path))
    if not params:
        return updated_node
    args = list(updated_node.args)
    renames = tables.tf_upgrade()["keywords"].get(path, {})  # tf_upgrade_v2's keyword renames of this function
    for index, arg in enumerate(args):
        new = renames.get(keyword_of(arg))
        if new and new in params["v2_names"] and keyword_of(arg) not in params["v2_names"]:
            args[index] = arg.with_changes(keyword=cst.Name(new))
            rule.report(original_node, f"tf.{path}: {keyword_of(arg)}= -> {new}=")
    if path == "nn.dropout":
        args = _dropout(rule, original_node, args)
    updated_node = updated_node.with_changes(args=args)
    if compatible(args, params):
        return updated_node
    return updated_node.with_changes(func=rename(rule, original_node.func, path, "compat.v1." + path))


def _dropout(rule: Rule, node: cst.Call, args: list[cst.Arg]) -> list[cst.Arg]:
    keep = [i for i, a in enumerate(args) if keyword_of(a) == "keep_prob"]
    if not keep and len(args) > 1 and args[1].keyword is None:
        keep = [1]
    if not keep:
        return args
    i = keep[0]
    arg = args[i]
    args[i] = arg.with_changes(
        keyword=cst.Name("rate"),
        equal=NO_SPACE,
        value=_one_minus(arg.value),
    )
    if i == 1 and arg.keyword is None:
        # later positional arguments would now come after a keyword: name them
        v1 = _tf.api()["differs"]["nn.dropout"]["v1"]
        for j in range(2, len(args)):
            if args[j].keyword is None:
                args[j] = args[j].with_changes(keyword=cst.Name(v1[j]), equal=NO_SPACE)
    rule.report(node, "tf.nn.dropout: keep_prob=k -> rate=1 - k")
    return args


# targets (relative to `tensorflow`) that are tf-keras or tf.estimator on TF 2.21: they need `import compat`
NEEDS_COMPAT = (
    "compat.v1.estimator",
    "estimator.",
    "compat.v1.nn.rnn_cell",
    "compat.v1.layers",
    "keras.",
    "compat.v1.keras",
)


def _final(api: dict, table: dict, path: str) -> str:
    """Follow the table (a target may be a TF1 name again) and write the end as `tf1-api` would."""
    seen = {path}
    while path in table and table[path] not in seen:
        path = table[path]
        seen.add(path)
    return target(api, path) or path


@functools.cache
def upgrade_table() -> dict:
    """{TF1 path: target path} for the names this rule rewrites (relative to `tensorflow`)."""
    api, upgrade = _tf.api(), tables.tf_upgrade()
    raw = {**tables.pre_1_0(), **upgrade["contrib"], **upgrade["renames"]}  # tf_upgrade_v2's own choice first
    known = api["moved"].keys() | api["v1_only"] | api["differs"].keys()
    mine = {path: new for path, new in raw.items() if path not in known and not path.startswith(("compat.", "python."))}
    return {path: _final(api, raw, path) for path in mine}


# contrib modules whose internal layout (`python.layers`, `python.ops`) contrib-slim moves to tf-slim's
SLIM_PARTS = frozenset({"slim", "layers", "framework"})


@functools.cache
def internal_prefixes() -> frozenset:
    """`tensorflow.contrib.rnn.python` ...: contrib's implementation modules, whose public names the
    module's `__init__` re-exported (`contrib.rnn.python.ops.core_rnn_cell.RNNCell` is `contrib.rnn.RNNCell`)."""
    modules = {path.split(".")[1] for path in upgrade_table() if path.startswith("contrib.")}
    return frozenset(f"{_tf.TF}.contrib.{module}.python" for module in modules - SLIM_PARTS)


def upgrade_lookup(path: str) -> str | None:
    """The target of a TF1 path (relative to `tensorflow`), contrib's implementation modules included."""
    if path in upgrade_table():
        return upgrade_table()[path]
    parts = path.split(".")
    if len(parts) > 4 and parts[0] == "contrib" and parts[2] == "python" and parts[1] not in SLIM_PARTS:
        return upgrade_table().get(f"contrib.{parts[1]}.{parts[-1]}")
    return None


CONTRIB = "tensorflow.contrib"
# the same module as TF 1.13+ code wrote it (`import tensorflow.compat.v1 as tf; tf.contrib.layers`)
CONTRIBS = (CONTRIB, tf1_names.v1_twin(CONTRIB))
CONTRIB_BELOW = tuple(f"{contrib}." for contrib in CONTRIBS)


SLIM_HOME = "compat.slim"
SLIM = "tensorflow.contrib.slim"
# contrib modules whose names uai-run looks up in compat.slim first: contrib.layers, contrib.framework
PARTS_OF_SLIM = tuple(old for old, targets in tf1_names.MODULES.items() if targets[:1] == (SLIM_HOME,) and old != SLIM)


@functools.cache
def slim_moves() -> dict:
    """{contrib name: (compat.slim, name)}: contrib.slim itself and every contrib.layers/framework name
    tf-slim kept (contrib-slim moves them; contrib-equivalents leaves them to it)."""
    return tf1_names.with_v1_twins(
        {
            SLIM: (SLIM_HOME, None),
            **{f"{part}.{name}": (SLIM_HOME, name) for part in PARTS_OF_SLIM for name in _tf.api()["slim"]},
        }
    )


@functools.cache
def attribute_homes() -> dict[str, str]:
    """{contrib name: its home, relative to `tensorflow`} for the names contrib-equivalents takes from tf-upgrade's
    table (a contrib module of compat's table whose homes Python cannot all import by name: `from tensorflow.contrib.tpu
    import TPUEstimator` -> `TPUEstimator = tf.compat.v1.estimator.tpu.TPUEstimator`); tf-upgrade leaves them to it."""
    importable = set(tables.tf_upgrade()["modules"])
    homes = {f"{_tf.TF}.{path}": new for path, new in upgrade_table().items() if path.startswith("contrib.")}
    modules = {name.rpartition(".")[0] for name, new in homes.items() if new.rpartition(".")[0] not in importable}
    found = {name: new for name, new in homes.items() if name.rpartition(".")[0] in modules & tf1_names.MODULES.keys()}
    # (every contrib name has a tf.compat.v1 twin)
    found.update({cast(str, tf1_names.v1_twin(name)): new for name, new in homes.items()})
    return {name: new for name, new in found.items() if name not in slim_moves()}


FLAGS_HOME = "compat.flags"


@functools.cache
def flags_moves() -> dict:
    """{TF1 flags name: (compat.flags, name)}: the flag modules and tf.app.run (tf-flags moves them;
    tf-flags-internals reads which of them is a FLAGS object)."""
    return tf1_names.with_v1_twins(
        {
            old: tf1_names.split(target)
            for old, target in tf1_names.SYMBOLS.items()
            if tf1_names.split(target)[0] == FLAGS_HOME
        }
    )


# -- graph-mode TF1 code: what makes a script one, and the switches (the graph-mode and native-session rules)
GRAPH_ONLY = (
    "Session",
    "InteractiveSession",
    "placeholder",
    "placeholder_with_default",
    "sparse_placeholder",
    "train.MonitoredTrainingSession",
    "train.MonitoredSession",
    "train.SingularMonitoredSession",
    "train.Supervisor",
    "train.start_queue_runners",
    "train.QueueRunner",
    "train.string_input_producer",
    "train.batch",
    "train.shuffle_batch",
)
# tf-slim's training and evaluation loops build their own Supervisor sessions
SLIM_LOOPS = ("learning.train", "evaluation.evaluation_loop", "evaluation.evaluate_once")
SWITCHES = ("disable_eager_execution", "disable_v2_behavior", "enable_eager_execution", "enable_v2_behavior")
CONTROL_FLOW_SWITCHES = ("disable_control_flow_v2", "enable_control_flow_v2")
RESOURCE_SWITCHES = ("disable_resource_variables", "enable_resource_variables")
# module-level calls that build no graph state (see the module docstring)
NO_GRAPH_STATE = tuple(
    f"tensorflow.{p}{n}" for n in ("app.flags", "flags", "logging", "get_logger") for p in ("", "compat.v1.")
) + ("tensorflow.python.platform.flags", "tensorflow.python.platform.tf_logging")
TF_ROOTS = ("tensorflow", "tf_slim", "compat.slim")
GRAPH_NAMES = frozenset(f"tensorflow.{p}{n}" for n in GRAPH_ONLY for p in ("", "compat.v1.")) | frozenset(
    f"{p}.{n}" for n in SLIM_LOOPS for p in ("tensorflow.contrib.slim", "tf_slim", "compat.slim")
)
STAR_MODULES = ("tensorflow", "tensorflow.compat.v1")
# An Estimator with a strategy it cannot deep-copy in eager mode is graph code (compat.graph_mode says why):
# the strategies and the configs, read by uai-run --auto too.
EAGER_UNCOPIABLE, ESTIMATOR_CONFIGS = graph_mode.EAGER_UNCOPIABLE, graph_mode.ESTIMATOR_CONFIGS
SWITCH_NAMES = frozenset(f"tensorflow.{p}{n}" for n in SWITCHES for p in ("", "compat.v1."))
CONTROL_FLOW_NAMES = frozenset(f"tensorflow.{p}{n}" for n in CONTROL_FLOW_SWITCHES for p in ("", "compat.v1."))
RESOURCE_NAMES = frozenset(f"tensorflow.{p}{n}" for n in RESOURCE_SWITCHES for p in ("", "compat.v1."))


@functools.lru_cache(maxsize=1)
def graph_names() -> frozenset:
    """GRAPH_NAMES and their private `tensorflow.python.*` spellings (`session.Session`), which the
    tf-private rule turns into the public ones: a second run must find nothing new."""
    private = {
        f"{module}.{name}"
        for module, names in _tf.api()["private"].items()
        for name, homes in names.items()
        if any(home and home.removeprefix("compat.v1.") in GRAPH_ONLY for home in homes)
    }
    return GRAPH_NAMES | private


_COLLECTION_READS = frozenset({"get_collection", "get_collection_ref"})


def collection_reads(module: cst.Module, key: str) -> list[str]:
    """The collection reads of `module` whose key may be the collection GraphKeys.`key` (its string is `key` in
    lower case): any key but another GraphKeys name or another string, as `get_collection(key)` (for an entry)."""
    found = []
    for call in collect(module, cst.Call):
        func = call.func
        name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
        if name not in _COLLECTION_READS:
            continue
        given = call.args[0].value if call.args and not call.args[0].star else None
        graph_key = isinstance(given, cst.Attribute) and _tf.full_name(given.value).endswith("GraphKeys")
        other_key = graph_key and cast(cst.Attribute, given).attr.value != key
        other_string = isinstance(given, cst.SimpleString) and given.evaluated_value != key.lower()
        if not (other_key or other_string):
            found.append(f"{name}({source_of(given) if given is not None else ''})")
    return found
