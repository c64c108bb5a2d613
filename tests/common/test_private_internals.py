"""Every TensorFlow internal that tf-slim and tensorflow-estimator read resolves with compat installed.

Both libraries reach into TensorFlow's private modules (`from tensorflow.python.ops import
control_flow_ops`, then `control_flow_ops.case(...)`), and TensorFlow moves or drops those names
between releases without notice. Fixing them one traceback at a time leaves the next one for a
user to find, so this test derives the whole list from the installed libraries' source: it parses
every module of `tf_slim` and `tensorflow_estimator` with `ast`, follows each name bound by an
import of a private TensorFlow module (`tensorflow.python.*`, `tensorflow.core.*`, ...) through
its function and class scopes, and collects every attribute chain read on it. A subprocess then
imports compat, TensorFlow and both libraries as a program would and resolves every chain.

Not asserted, and listed separately in the output:
  - chains the library reads only where it handles their absence itself: inside a `try` whose
    handler catches AttributeError/ImportError (or a base of them), under `if hasattr(mod, "name")`,
    or through `getattr(mod, "name", default)`;
  - the libraries' own test suites (`TEST_SUPPORT`): no program imports them.
"""

import ast
import builtins
import dataclasses
import functools
import importlib.machinery
import json
import os

from tests.support.processes import run_script

LIBRARIES = ("tf_slim", "tensorflow_estimator")
# TensorFlow's public API modules; everything else under `tensorflow.` is private.
PUBLIC = ("tensorflow", "tensorflow.compat", "tensorflow._api")
# Exceptions a handler must catch for a chain in its `try` body to count as handled: the
# errors a missing module or attribute raises, or one of their bases.
HANDLED = {"AttributeError", "ImportError", "ModuleNotFoundError", "Exception", "BaseException"}
# The guarded reads the audit leaves out, each with its guard: a new one fails
# test_guarded_chains_are_only_the_ones_shown, to be looked at.
EXPECTED_GUARDED = {
    # tpu_context.py: `if hasattr(summary_ops_v2, '_summary_state'):` around both reads
    "tensorflow.python.ops.summary_ops_v2._summary_state",
}
# The libraries' own test suites: unit tests (`*_test.py`) and the TestCase base classes they
# share (`canned/*testing_utils*.py`, `data/test_utils.py`); no program imports them. One of them
# reads `feature_column_v2.LinearModel`, gone since TF 2.x: even on TF 2.15 with its own Estimator
# that test method fails.
TEST_SUPPORT = ("_test.py", "testing_utils.py", "testing_utils_v1.py", "test_utils.py")


@dataclasses.dataclass(frozen=True)
class Chain:
    """`root` (a module name) then `attributes`, read at `where`; `imported` when an import statement reads it."""

    root: str
    attributes: tuple[str, ...]
    where: str
    imported: bool = False
    guarded: bool = False

    @property
    def dotted(self) -> str:
        return ".".join((self.root, *self.attributes))


def is_private(dotted: str) -> bool:
    if not dotted.startswith("tensorflow."):
        return False
    return not any(dotted == public or dotted.startswith(public + ".") for public in PUBLIC[1:])


def library_files(package: str) -> list[str]:
    """The package's module files, without its test suites (`TEST_SUPPORT`); located without importing it."""
    spec = importlib.machinery.PathFinder.find_spec(package)
    assert spec is not None and spec.submodule_search_locations, f"{package} is not installed"
    top = list(spec.submodule_search_locations)[0]
    files = []
    for folder, _, names in os.walk(top):
        files += [os.path.join(folder, n) for n in names if n.endswith(".py") and not n.endswith(TEST_SUPPORT)]
    return sorted(files)


# A binding: (module name, attributes read from it by the import) for a name a private import bound.
Binding = tuple[str, tuple[str, ...]]


def _stored_names(body: list[ast.stmt] | list[ast.expr]) -> set[str]:
    """Names a function or class body binds other than by import (they shadow outer bindings),
    without descending into nested functions and classes (their own scopes)."""
    names: set[str] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
            stack += node.decorator_list
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            names.difference_update(node.names)
        stack += list(ast.iter_child_nodes(node))
    return names


def _parameters(arguments: ast.arguments) -> set[str]:
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    return {a.arg for a in every}


def _handles_missing(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(c, ast.Name) and c.id in HANDLED for c in caught)


def _hasattr_tests(test: ast.expr) -> set[tuple[str, str]]:
    """(name, attribute) pairs an `if` condition checks with `hasattr(name, "attribute")`."""
    pairs = set()
    for node in ast.walk(test):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "hasattr"
            and len(node.args) == 2
            and isinstance(node.args[0], ast.Name)
            and isinstance(node.args[1], ast.Constant)
        ):
            pairs.add((node.args[0].id, node.args[1].value))
    return pairs


class _Collector(ast.NodeVisitor):
    """Walks one module, scope by scope, and records every chain read on a private TensorFlow import."""

    def __init__(self, path: str, module: str) -> None:
        self.path = path
        self.module = module  # the file's dotted module name, for relative imports
        self.chains: list[Chain] = []
        # innermost last; a class scope is skipped by the functions nested in it, as in Python
        self.scopes: list[tuple[dict[str, Binding | None], bool]] = []
        self.guards = 0  # depth of enclosing `try` bodies whose handlers catch a missing name
        self.checked: list[set[tuple[str, str]]] = []  # hasattr() conditions of enclosing `if`s

    # -- scopes ------------------------------------------------------------------------------
    def _imports_in(self, body: list[ast.stmt]) -> dict[str, Binding | None]:
        """The private bindings of the import statements directly in this scope (not nested defs)."""
        bound: dict[str, Binding | None] = {}
        stack: list[ast.AST] = list(body)
        while stack:
            node = stack.pop()
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
                continue
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        bound[alias.asname] = (alias.name, ()) if is_private(alias.name) else None
                    else:  # `import tensorflow.python.x` binds `tensorflow`: chains through it start there
                        top = alias.name.split(".")[0]
                        bound[top] = (top, ()) if top == "tensorflow" else None
            elif isinstance(node, ast.ImportFrom):
                source = self._absolute(node)
                for alias in node.names:
                    name = alias.asname or alias.name
                    bound[name] = (source, (alias.name,)) if is_private(f"{source}.{alias.name}") else None
            stack += list(ast.iter_child_nodes(node))
        return bound

    def _absolute(self, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = self.module.split(".")[: -node.level]
        return ".".join([*base, node.module] if node.module else base)

    def _enter(self, body: list[ast.stmt], shadowed: set[str], is_class: bool) -> None:
        imported = self._imports_in(body)
        scope: dict[str, Binding | None] = dict.fromkeys(shadowed - set(imported))
        scope.update(imported)
        self.scopes.append((scope, is_class))

    def lookup(self, name: str) -> Binding | None:
        innermost = True
        for scope, is_class in reversed(self.scopes):
            if is_class and not innermost:
                continue
            innermost = False
            if name in scope:
                return scope[name]
        return None

    def visit_Module(self, node: ast.Module) -> None:
        self._enter(node.body, set(), is_class=False)
        self.generic_visit(node)

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        for default in [*node.args.defaults, *node.args.kw_defaults]:
            if default is not None:
                self.visit(default)
        if not isinstance(node, ast.Lambda):
            for decorator in node.decorator_list:
                self.visit(decorator)
        body = node.body if isinstance(node.body, list) else [ast.Expr(node.body)]
        self._enter(body, _parameters(node.args) | _stored_names(body), is_class=False)
        for statement in body:
            self.visit(statement)
        self.scopes.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _visit_function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for expression in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(expression)
        self._enter(node.body, _stored_names(node.body), is_class=True)
        for statement in node.body:
            self.visit(statement)
        self.scopes.pop()

    # -- guards ------------------------------------------------------------------------------
    def visit_Try(self, node: ast.Try) -> None:
        handled = any(_handles_missing(h) for h in node.handlers)
        self.guards += handled
        for statement in node.body:
            self.visit(statement)
        self.guards -= handled
        for part in [*node.handlers, *node.orelse, *node.finalbody]:
            self.visit(part)

    def visit_If(self, node: ast.If) -> None:
        self.visit(node.test)
        self.checked.append(_hasattr_tests(node.test))
        for statement in node.body:
            self.visit(statement)
        self.checked.pop()
        for statement in node.orelse:
            self.visit(statement)

    # -- reads -------------------------------------------------------------------------------
    def _record(self, root: str, attributes: tuple[str, ...], node: ast.AST, imported: bool, guarded: bool) -> None:
        where = f"{self.path}:{getattr(node, 'lineno', 0)}"
        self.chains.append(Chain(root, attributes, where, imported, guarded or self.guards > 0))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if is_private(alias.name):
                self._record(alias.name, (), node, imported=True, guarded=False)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        source = self._absolute(node)
        for alias in node.names:
            if is_private(f"{source}.{alias.name}"):
                self._record(source, (alias.name,), node, imported=True, guarded=False)

    def _chain(self, node: ast.expr) -> tuple[str, list[str]] | None:
        """(root name, attributes) of a pure `name.a.b` expression, else None."""
        attributes: list[str] = []
        while isinstance(node, ast.Attribute):
            attributes.insert(0, node.attr)
            node = node.value
        return (node.id, attributes) if isinstance(node, ast.Name) else None

    def visit_Attribute(self, node: ast.Attribute) -> None:
        found = self._chain(node)
        if found is None:
            self.generic_visit(node)
            return
        name, attributes = found
        if not isinstance(node.ctx, ast.Load):  # `mod.x = ...` reads only `mod`
            attributes = attributes[:-1]
        binding = self.lookup(name)
        if binding is None or not attributes:
            return
        root, imported = binding
        full = (*imported, *attributes)
        if not is_private(".".join((root, *full))):
            return  # `tensorflow.compat.v1....` through a bare `import tensorflow.x`
        guarded = any((name, attributes[0]) in pairs for pairs in self.checked)
        self._record(root, full, node, imported=False, guarded=guarded)

    def visit_Call(self, node: ast.Call) -> None:
        # getattr(mod, "name", default) reads `name` and handles its absence; with two arguments it does not
        if (
            isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and len(node.args) >= 2
            and isinstance(node.args[0], ast.Name)
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            binding = self.lookup(node.args[0].id)
            if binding is not None:
                root, imported = binding
                full = (*imported, node.args[1].value)
                if is_private(".".join((root, *full))):
                    self._record(root, full, node, imported=False, guarded=len(node.args) > 2)
        self.generic_visit(node)


def collect(package: str) -> list[Chain]:
    top = os.path.dirname(list(importlib.machinery.PathFinder.find_spec(package).submodule_search_locations)[0])
    chains = []
    for path in library_files(package):
        module = os.path.relpath(path, top)[: -len(".py")].replace(os.sep, ".")
        module = module.removesuffix(".__init__")
        if path.endswith("__init__.py"):
            module += ".__init__"  # relative imports in a package's __init__ resolve from the package itself
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read(), path)
        collector = _Collector(os.path.relpath(path, top), module)
        collector.visit(tree)
        chains += collector.chains
    return chains


@functools.cache
def all_chains() -> tuple[Chain, ...]:
    """Every chain both libraries read (parsing them takes about two seconds: once per session)."""
    return tuple(chain for package in LIBRARIES for chain in collect(package))


# Runs in a fresh process, as a program would: compat first, then TensorFlow and both libraries,
# every module of theirs imported so each repair that fires on import has fired.
RESOLVER = """
    import importlib, json, pkgutil, sys, traceback
    import compat
    import tensorflow as tf
    import tf_slim
    import tensorflow_estimator
    tf.compat.v1.estimator.Estimator  # the lazy API compat attaches on TF 2.21

    broken = {}
    for package in (tf_slim, tensorflow_estimator):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if info.name.endswith(("_test", "testing_utils", "testing_utils_v1", "test_utils")):
                continue  # the libraries' test suites, as TEST_SUPPORT
            try:
                importlib.import_module(info.name)
            except Exception as error:  # recorded: a library module that does not import is a finding
                broken[info.name] = f"{type(error).__name__}: {error}"

    def resolve(root, attributes, imported):
        obj = importlib.import_module(root)
        for index, name in enumerate(attributes):
            if hasattr(obj, name):
                obj = getattr(obj, name)
            elif imported and index == len(attributes) - 1 and hasattr(obj, "__path__"):
                obj = importlib.import_module(f"{obj.__name__}.{name}")  # `from package import submodule`
            else:
                raise AttributeError(f"{getattr(obj, '__name__', obj)!r} has no attribute {name!r}")
        return obj

    chains = json.load(open(sys.argv[1]))
    missing, standins = {}, []
    for root, attributes, imported in chains:
        try:
            found = resolve(root, attributes, imported)
        except Exception as error:
            missing[".".join([root, *attributes])] = f"{type(error).__name__}: {error}"
            continue
        # compat's TPU stand-ins (TF >= 2.16) resolve every name to a placeholder that raises when used
        if getattr(found, "__module__", None) == "compat._estimator_support._tpu_standins":
            standins.append(".".join([root, *attributes]))
    result = {"missing": missing, "broken_modules": broken, "standins": standins, "tf": tf.__version__}
    print("RESULT " + json.dumps(result))
"""


def test_the_audit_derives_the_known_chains() -> None:
    # The collector is what the audit's "0 missing" rests on: it must find the reads the issue
    # names, where the libraries make them (tf-slim's data path, and its layers' use of ops.Tensor).
    chains = {chain.dotted: chain for chain in all_chains() if not chain.guarded}
    for dotted in (
        "tensorflow.python.ops.control_flow_ops.case",
        "tensorflow.python.ops.control_flow_ops.while_loop",
        "tensorflow.python.ops.control_flow_ops.Assert",
        "tensorflow.python.ops.control_flow_ops.cond",
        "tensorflow.python.framework.ops.Tensor",
        "tensorflow.python.distribute.estimator_training",
    ):
        assert dotted in chains, dotted
    assert chains["tensorflow.python.ops.control_flow_ops.case"].where.startswith("tf_slim/data/tfexample_decoder.py:")
    # Scopes are followed: a function parameter named like a module is not the module.
    assert not any(chain.dotted.startswith("tensorflow.python.ops.math_ops.self") for chain in chains.values())


def test_every_private_tensorflow_name_the_libraries_read_resolves(tmp_path) -> None:
    chains = all_chains()
    wanted = sorted({(c.root, c.attributes, c.imported) for c in chains if not c.guarded})
    listing = tmp_path / "chains.json"
    listing.write_text(json.dumps(wanted))
    result = run_script(tmp_path, RESOLVER, [str(listing)], timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(next(line for line in result.stdout.splitlines() if line.startswith("RESULT "))[7:])
    where: dict[str, list[str]] = {}
    for chain in chains:
        where.setdefault(chain.dotted, []).append(chain.where)
    report = [
        f"{dotted}  ({error}; read at {', '.join(where[dotted][:3])})" for dotted, error in out["missing"].items()
    ]
    guarded = sorted({c.dotted for c in chains if c.guarded})
    builtins.print(
        f"TF {out['tf']}: {len(wanted)} chains read on private TensorFlow modules, {len(report)} missing; "
        f"{len(guarded)} only read under the libraries' own guards, {len(out['standins'])} TPU-only names "
        "through compat's stand-ins (they raise EstimatorSupportError when used)"
    )
    for line in report:
        builtins.print("  MISSING", line)
    assert report == [], "\n".join(report)
    assert out["broken_modules"] == {}, out["broken_modules"]
    assert len(wanted) > 500  # the walk really read both libraries


def test_guarded_chains_are_only_the_ones_shown() -> None:
    # What the audit leaves out must stay small and reviewed: each guarded read is listed here
    # with the guard the library wraps it in, so a new one shows up as a failure to look at.
    guarded = {chain.dotted: chain.where for chain in all_chains() if chain.guarded}
    builtins.print("\n".join(f"  GUARDED {dotted} at {where}" for dotted, where in sorted(guarded.items())))
    assert set(guarded) == EXPECTED_GUARDED, sorted(guarded.items())


# One public tf-slim call per repaired name (compat/_slim_fix.py's MOVED and `variable`), run in
# graph mode with known answers: the names resolve *and* their new homes behave as tf-slim expects.
BEHAVIOUR = """
    import json
    import numpy as np
    import compat
    import tensorflow.compat.v1 as tf
    import tf_slim as slim
    from tf_slim.layers import layers, optimizers
    from tf_slim.losses import metric_learning

    tf.disable_v2_behavior()
    out = {}
    with tf.Graph().as_default(), tf.Session() as session:
        local = slim.local_variable([1.0, 2.0], name="counts")          # variable_scope.variable
        kept = slim.global_variable(3.0, name="kept")
        x = tf.constant(np.ones((2, 3, 4), np.float32))
        y = layers.legacy_fully_connected(x, 5, weight_init=tf.ones_initializer())  # array_ops.(un)stack
        auc, update = slim.metrics.auc_using_histogram(                  # control_flow_ops.Assert
            tf.constant([True, False, True, False]), tf.constant([0.9, 0.1, 0.8, 0.3]), score_range=(0.0, 1.0)
        )
        embedding = tf.get_variable("embedding", initializer=tf.ones([10, 2]))
        loss = tf.reduce_sum(tf.nn.embedding_lookup(embedding, [1, 3]))
        step = tf.train.get_or_create_global_step()
        train = optimizers.optimize_loss(                                 # ops.IndexedSlices
            loss, step, 0.5, "SGD", clip_gradients=optimizers.adaptive_clipping_fn(), summaries=["gradients"]
        )
        points = tf.constant([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0], [5.1, 5.0]])
        labels = tf.constant([0, 0, 1, 1], tf.int64)
        chosen = metric_learning.compute_augmented_facility_locations(    # control_flow_ops.while_loop
            metric_learning.pairwise_distance(points), labels, tf.range(4), 1.0, "const"
        )
        session.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        out["local"] = [local in tf.local_variables(), session.run(local).tolist()]
        out["global"] = [kept in tf.global_variables(), kept not in tf.trainable_variables(), float(session.run(kept))]
        out["dense"] = session.run(y).tolist()
        session.run(update)
        out["auc"] = float(session.run(auc))
        session.run(train)
        rows = session.run(embedding)
        out["embedding_rows_moved"] = sorted(int(i) for i in np.nonzero((rows != 1.0).any(axis=1))[0])
        out["facilities"] = sorted(session.run(chosen).tolist())
    # On TF >= 2.16 the TPU embedding module is compat's stand-in (in place once the Estimator is
    # loaded): a TPU-only call fails in one typed line.
    tf.estimator.Estimator
    from tensorflow.python.tpu import tpu_embedding
    from compat.errors import EstimatorSupportError
    if tpu_embedding.__class__.__name__ == "_StandinModule":
        try:
            tpu_embedding.EnqueueData.from_sparse_tensor(None)
        except EstimatorSupportError as error:
            out["tpu"] = str(error).split(" was removed")[0]
    else:
        out["tpu"] = "real"
    print("RESULT " + json.dumps(out))
"""


def test_each_repaired_name_works_where_tf_slim_calls_it(tmp_path) -> None:
    result = run_script(tmp_path, BEHAVIOUR, timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(next(line for line in result.stdout.splitlines() if line.startswith("RESULT "))[7:])
    assert out["local"] == [True, [1.0, 2.0]]
    assert out["global"] == [True, True, 3.0]
    assert out["dense"] == [[[4.0] * 5] * 3] * 2  # ones(4) . ones(4, 5), reshaped back to (2, 3, 5)
    assert out["auc"] > 0.99  # every positive scores above every negative
    assert out["embedding_rows_moved"] == [1, 3]  # the sparse gradient reached only the looked-up rows
    assert len(out["facilities"]) == 2 and set(out["facilities"]) <= {0, 1, 2, 3}  # one facility per cluster
    assert out["tpu"] in ("real", "tensorflow.python.tpu.tpu_embedding.EnqueueData.from_sparse_tensor")
