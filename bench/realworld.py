"""uai-migrate judged on real TF1 code: public TF1-era projects from PyPI, on the installed TensorFlow.

    python bench/realworld.py [--projects tflearn,tensorpack] [--cache DIR] [--json OUT] [--keep DIR]
    python bench/realworld.py --speed [--rounds 3] [--projects ...] [--generated LINES] [--dense]
    python bench/realworld.py --list

Run it with the tf2 environment (`.nox/tf2/bin/python`: TensorFlow 2.21). Each project's pinned
source distribution is downloaded once into the cache (`pip download --no-deps --no-binary :all:`,
default $XDG_CACHE_HOME/uai-compat/realworld) and only the .py files of its package are used.

Fidelity (default): three copies of each package, all in a temporary folder:
  as written     the sources untouched
  tf_upgrade_v2  TensorFlow's own upgrader (tensorflow.tools.compatibility), file by file in one process
  uai-migrate    the real CLI: `python -m codemods --out DIR --no-cache --format json` (its JSON report)
and a fourth column on the untouched copy:
  uai-run        the sources as written, through `uai-run`'s TF1 face (uai_run's finder installed
                 and TF1 behaviour on, as at the program's first `import tensorflow`)
and for each:
  references     TensorFlow API references (attribute chains on names bound by imports of
                 tensorflow / tf_slim / tensorflow_estimator / compat, including module-level aliases
                 like `slim = tf.contrib.slim` and names the project re-exports, and the imports
                 themselves) that resolve on the installed TensorFlow, walked with getattr on the
                 real modules in a separate process (`import compat` first for the uai-migrate copy,
                 as the migrated code does; not for the others, whose code does not). An attribute
                 the project assigns itself (`tf.GraphKeys.LAYER_VARIABLES = ...`) counts as resolved.
  modules        each module imported in a process of its own (forked from one that imported
                 TensorFlow, and compat when the module imports compat before TensorFlow; --fresh:
                 nothing), with the project's folder on sys.path and a per-module timeout; a
                 failure that is only a missing non-TensorFlow package counts as "missing dependency".
and, for uai-migrate only:
  silent failures  migrated modules that fail to import on a statement for which uai-migrate's
                   JSON report has no error or warning entry
  not idempotent   files that uai-migrate changes again when run on its own output
Prints a Markdown table per project and overall, the unresolved symbols after uai-migrate
ranked by count and the silent-failure lines; --json writes every number. Progress on stderr.

Speed (--speed): the selected packages in one tree (and bench/migrate_bench.py's generated
tree with --generated LINES); whole processes, no cache, rounds interleaved with the order
reversed every other round (migrate_bench.run_rounds), medians of the per-round ratios:
uai-migrate -j all cores and -j1 (--out into a temporary folder) against tf_upgrade_v2 file by
file in one process (TensorFlow import included) and the libcst parse + codegen floor of the
same files in one process. The load average is printed before and after: a busy core slows
the multi-process run more than the one-process anchor.
--dense times, instead of the whole packages, their files dense in TensorFlow: those in the top
quartile of TF references per line over the selected packages (the references counted as for
fidelity, fallbacks included), where a migration's cost per line is highest, plus this repository's
TF 1.4-era tensorflow/models programs (MODELS_PROGRAMS), as dense as the platform's own code.

--uai DIR judges another checkout of this project (e.g. `git archive` of a commit unpacked in
DIR) instead of this one: its codemods and compat come first on PYTHONPATH.
"""

import argparse
import ast
import collections
import dataclasses
import difflib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import migrate_bench  # noqa: E402

# the TF 1.4-era tensorflow/models-shaped programs of tests/ (cifar10_estimator, research/slim's
# train_image_classifier, official/resnet), written at their real size: part of --dense's tree
MODELS_PROGRAMS = (
    "tests/common/runtime_programs/cifar10_estimator_tf1.py",
    "tests/common/tf1_programs/slim_classifier_tf14",
    "tests/common/tf1_programs/official_resnet",
)


@dataclasses.dataclass(frozen=True)
class Project:
    requirement: str  # pinned, as pip takes it
    package: str  # the folder of the sdist holding the project's importable package


PROJECTS = {
    "tflearn": Project("tflearn==0.5.0", "tflearn"),
    "stable-baselines": Project("stable-baselines==2.10.2", "stable_baselines"),
    "tensorpack": Project("tensorpack==0.9.8", "tensorpack"),
    "tensor2tensor": Project("tensor2tensor==1.15.7", "tensor2tensor"),
}
# Top-level packages whose names count as TensorFlow API. A ModuleNotFoundError for any other
# package (gym, cv2, tensorflow_probability, ...) is the project's missing dependency, not ours.
TF_ROOTS = ("tensorflow", "tf_slim", "tensorflow_estimator", "compat")
VARIANTS = ("as written", "tf_upgrade_v2", "uai-migrate", "uai-run")
MIGRATED = "uai-migrate"
RUN = "uai-run"  # the "as written" files, seen through uai_run's TF1 face

# tf_upgrade_v2's own engine, as its --intree does it: one ASTCodeUpgrader, process_file per file.
# argv: source tree, output tree. A file it cannot handle is copied unchanged; the last stdout
# line is the JSON list of those files (the upgrader prints its own messages before).
UPGRADE = """
import json, pathlib, shutil, sys
from tensorflow.tools.compatibility import ast_edits, tf_upgrade_v2
source, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
upgrader = ast_edits.ASTCodeUpgrader(tf_upgrade_v2.TFAPIChangeSpec())
failed = []
for path in sorted(source.rglob("*.py")):
    target = out / path.relative_to(source)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        upgrader.process_file(str(path), str(target))
    except Exception as err:
        shutil.copyfile(path, target)
        failed.append(f"{path.relative_to(source)}: {type(err).__name__}: {err}")
print("\\n" + json.dumps(failed))
"""


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def default_cache() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "uai-compat", "realworld")


# ---------------------------------------------------------------------------------------------
# the corpus


def download(requirement: str, cache: str, kind: str = "sdist") -> str:
    """The path of the pinned `requirement`'s archive of `kind` ("sdist" or "wheel"), downloaded into the
    cache on first use."""
    downloads = os.path.join(cache, kind, requirement.replace("==", "-"))
    os.makedirs(downloads, exist_ok=True)
    if not os.listdir(downloads):
        log(f"downloading {requirement}" + ("" if kind == "sdist" else f" ({kind})"))
        only = ["--no-binary", ":all:"] if kind == "sdist" else ["--only-binary", ":all:"]
        command = [sys.executable, "-m", "pip", "download", "--no-deps", *only, "--disable-pip-version-check", "-q"]
        result = subprocess.run([*command, "-d", downloads, requirement], capture_output=True, text=True)
        if result.returncode:
            raise SystemExit(f"pip download {requirement} failed: {result.stderr.strip()[-2000:]}")
    (archive,) = os.listdir(downloads)
    return os.path.join(downloads, archive)


def fetch(name: str, cache: str) -> str:
    """The folder holding `name`'s package, unpacked from its pinned sdist (downloaded on first use)."""
    project = PROJECTS[name]
    unpacked = os.path.join(cache, "src", project.requirement.replace("==", "-"))
    package = os.path.join(unpacked, project.package)
    if os.path.isdir(package):
        return unpacked
    archive = download(project.requirement, cache)
    staging = tempfile.mkdtemp(dir=cache)
    with tarfile.open(archive) as tar:
        tar.extractall(staging, filter="data")
    (top,) = os.listdir(staging)
    os.makedirs(os.path.dirname(unpacked), exist_ok=True)
    shutil.rmtree(unpacked, ignore_errors=True)
    os.replace(os.path.join(staging, top), unpacked)
    os.rmdir(staging)
    return unpacked


def package_files(unpacked: str, package: str) -> list[str]:
    """The package's .py files, relative to `unpacked`."""
    files = []
    for folder, _, names in os.walk(os.path.join(unpacked, package)):
        files += [os.path.relpath(os.path.join(folder, n), unpacked) for n in names if n.endswith(".py")]
    return sorted(files)


def copy_files(unpacked: str, files: list[str], dest: str) -> None:
    for rel in files:
        os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
        shutil.copyfile(os.path.join(unpacked, rel), os.path.join(dest, rel))


def copy_package(unpacked: str, package: str, dest: str) -> list[str]:
    """Copy the package's .py files to dest/<package>; return their paths relative to dest."""
    files = package_files(unpacked, package)
    copy_files(unpacked, files, dest)
    return files


def tool_env(uai: str) -> dict:
    """The environment of the tools and checks: `uai` (a checkout of this project) provides
    codemods and compat, ahead of the installed (editable) copy."""
    return dict(os.environ, PYTHONPATH=uai + os.pathsep + os.environ.get("PYTHONPATH", ""), TF_CPP_MIN_LOG_LEVEL="3")


def upgrade_command(tree: str, out: str) -> list[str]:
    return [sys.executable, "-c", UPGRADE, tree, out]


def migrate_command(tree: str, out: str, jobs: int) -> list[str]:
    return [sys.executable, "-m", "codemods", "--out", out, "--no-cache", "-j", str(jobs), "--format", "json", tree]


def run_tool(command: list[str], what: str, uai: str) -> subprocess.CompletedProcess:
    result = subprocess.run(command, cwd=uai, env=tool_env(uai), capture_output=True, text=True)
    if result.returncode not in (0, 1) or "Traceback (most recent call last)" in result.stderr:
        raise SystemExit(f"{what} failed ({result.returncode}): {result.stderr.strip()[-3000:]}")
    return result


def migrate(tree: str, out: str, jobs: int, uai: str) -> dict:
    """uai-migrate's JSON report of migrating `tree` into `out` (exit 1 only says entries need attention)."""
    result = run_tool(migrate_command(tree, out, jobs), f"uai-migrate {tree}", uai)
    try:
        return json.loads(result.stdout)
    except ValueError:
        raise SystemExit(f"uai-migrate {tree}: no JSON report: {result.stderr.strip()[-3000:]}") from None


# ---------------------------------------------------------------------------------------------
# references: static, with ast


def module_name(rel: str) -> str:
    parts = rel[:-3].split(os.sep)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _dotted(node: ast.AST) -> list[str] | None:
    """['tf', 'nn', 'relu'] for `tf.nn.relu`; None when the chain does not start at a name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def _top_level(body: list[ast.stmt]):
    """Module-level statements in order, including those nested in if / try / with blocks."""
    for statement in body:
        yield statement
        if isinstance(statement, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            for field in ("body", "orelse", "finalbody"):
                yield from _top_level(getattr(statement, field, []))
            for handler in getattr(statement, "handlers", []):
                yield from _top_level(handler.body)


def _relative_base(name: str, is_package: bool, level: int) -> str:
    parts = name.split(".") if is_package else name.split(".")[:-1]
    return ".".join(parts[: len(parts) - level + 1])


@dataclasses.dataclass
class ModuleScan:
    """What one module says about the TensorFlow API."""

    tree: ast.Module
    name: str
    is_package: bool
    bound: dict = dataclasses.field(default_factory=dict)  # name -> dotted TF path it stands for
    imports: dict = dataclasses.field(default_factory=dict)  # import statement -> TF paths it imports
    project_imports: list = dataclasses.field(default_factory=list)  # (module, name, as, line)
    aliases: list = dataclasses.field(default_factory=list)  # (name, chain) of `name = a.b.c` at module level

    def bind_aliases(self) -> bool:
        """Bind the aliases whose chain starts at a bound name; True if any was new."""
        changed = False
        for name, parts in self.aliases:
            if parts[0] in self.bound and name not in self.bound:
                self.bound[name] = ".".join([self.bound[parts[0]], *parts[1:]])
                changed = True
        return changed


def _bind_imports(scan: ModuleScan, node: ast.AST) -> None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.split(".")[0] in TF_ROOTS:
                scan.imports.setdefault(node, []).append(alias.name)
                top = alias.name.split(".")[0]
                scan.bound[alias.asname or top] = alias.name if alias.asname else top
    elif isinstance(node, ast.ImportFrom):
        module = node.module or ""
        if node.level:
            base = _relative_base(scan.name, scan.is_package, node.level)
            module = f"{base}.{module}" if module and base else module or base
        elif module.split(".")[0] in TF_ROOTS:
            for alias in node.names:
                path = module if alias.name == "*" else f"{module}.{alias.name}"
                scan.imports.setdefault(node, []).append(path)
                if alias.name != "*":
                    scan.bound[alias.asname or alias.name] = path
            return
        for alias in node.names:
            scan.project_imports.append((module, alias.name, alias.asname or alias.name, node.lineno))


def scan_module(source: str, rel: str) -> ModuleScan:
    """Bindings of a module: its TF imports (any scope) and module-level aliases of TF paths."""
    tree = ast.parse(source)
    scan = ModuleScan(tree, module_name(rel), rel.endswith("__init__.py"))
    for node in ast.walk(tree):
        _bind_imports(scan, node)
    for statement in _top_level(tree.body):
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            parts = _dotted(statement.value)
            if parts:
                scan.aliases.append((statement.targets[0].id, parts))
    while scan.bind_aliases():
        pass
    return scan


def link_project(scans: dict) -> None:
    """Names a module imports from the project that stand for TF paths there (tensorpack's
    `from ..compat import tfv1 as tf`) become bindings too; repeated for re-exports of re-exports."""
    changed = True
    while changed:
        changed = False
        for scan in scans.values():
            for module, name, local, _ in scan.project_imports:
                source = scans.get(module)
                if source is not None and name in source.bound and local not in scan.bound:
                    scan.bound[local] = source.bound[name]
                    changed = True
            changed |= scan.bind_aliases()


def _local_names(function: ast.AST) -> set:
    """Names a function binds itself (arguments, assignments): they shadow module-level bindings."""
    arguments = function.args
    names = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
    names |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
    body = function.body if isinstance(function.body, list) else [function.body]
    for statement in body:
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return names


# An except clause catching one of these holds the fallback of a version test (`try: merge =
# tf.summary.merge` / `except AttributeError: merge = tf.merge_summary`): it runs only when the
# try body failed, whose own references are counted already.
FALLBACK_CATCHES = {"ImportError", "ModuleNotFoundError", "AttributeError", "Exception", "BaseException"}


def _is_fallback(handler: ast.ExceptHandler) -> bool:
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return handler.type is None or any(isinstance(t, ast.Name) and t.id in FALLBACK_CATCHES for t in types)


class _Chains(ast.NodeVisitor):
    """Each TF import and maximal attribute chain on a bound name -> (TF path, line), those in
    version-test fallbacks apart; `tf.X.y = v` -> assigned."""

    def __init__(self, scan: ModuleScan):
        self.bound, self.imports = scan.bound, scan.imports
        self.shadowed = [set()]
        self.references, self.fallbacks, self.assigned = [], [], []
        self.found = self.references

    def _record(self, path, node):
        self.found.append((path, node.lineno))

    def visit_Import(self, node):
        for path in self.imports.get(node, ()):
            self._record(path, node)

    visit_ImportFrom = visit_Import

    def visit_ExceptHandler(self, node):
        if not _is_fallback(node):
            self.generic_visit(node)
            return
        outer, self.found = self.found, self.fallbacks
        self.generic_visit(node)
        self.found = outer

    def _function(self, node):
        self.shadowed.append(_local_names(node) - self.bound.keys() | self.shadowed[-1])
        self.generic_visit(node)
        self.shadowed.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_Attribute(self, node):
        parts = _dotted(node)
        if parts is None:
            self.generic_visit(node)
            return
        if parts[0] not in self.bound or parts[0] in self.shadowed[-1]:
            return
        path = ".".join([self.bound[parts[0]], *parts[1:]])
        if isinstance(node.ctx, ast.Load):
            self._record(path, node)
            return
        self.assigned.append(path)
        if len(parts) > 2:  # the object assigned to must exist: tf.GraphKeys for tf.GraphKeys.X = v
            self._record(path.rsplit(".", 1)[0], node)


def references(scan: ModuleScan) -> tuple[list, list, list]:
    """([(TF path, line)] of the references, [the same] in fallbacks, [TF paths the module assigns])."""
    visitor = _Chains(scan)
    visitor.visit(scan.tree)
    return visitor.references, visitor.fallbacks, visitor.assigned


# Runs in a separate process: {"preload": [...], "paths": [...], "assigned": [...]} on stdin,
# {"tensorflow": version, "resolved": {path: resolves}} on stdout. The walk stops at the first object that is neither a module nor a
# class (`tf.flags.FLAGS.batch_size`: a flag the program defines, not TF API).
RESOLVE = """
import importlib, inspect, json, sys
request = json.load(sys.stdin)
for name in request["preload"]:
    importlib.import_module(name)
assigned = set(request["assigned"])
prefix = ""
if request["face"]:  # `tensorflow...` as uai-run gives it to the program's code
    import uai_run
    from uai_run import _tf1_modules, _finder
    uai_run.install()
    _finder.activate_tf1()
    prefix = _tf1_modules.PREFIX

def load(name):
    return importlib.import_module(prefix + name if name.split(".")[0] == "tensorflow" else name)

def resolves(path):
    parts = path.split(".")
    if any(".".join(parts[:n]) in assigned for n in range(2, len(parts) + 1)):
        return True
    try:
        obj = load(parts[0])
    except Exception:
        return False
    for n in range(1, len(parts)):
        if not (inspect.ismodule(obj) or inspect.isclass(obj)):
            return True
        try:
            obj = getattr(obj, parts[n])
            continue
        except Exception:
            pass
        if not inspect.ismodule(obj):
            return False
        try:
            obj = load(".".join(parts[:n + 1]))
        except Exception:
            return False
    return True

resolved = {path: resolves(path) for path in request["paths"]}
json.dump({"tensorflow": importlib.import_module("tensorflow").__version__, "resolved": resolved}, sys.stdout)
"""


def resolve(paths: set, assigned: set, preload: list, uai: str, face: bool = False) -> tuple[str, dict]:
    """(TensorFlow's version, {path: resolves}) in a fresh process that imported `preload` first
    (`face`: TensorFlow's names as uai-run gives them to the program)."""
    request = json.dumps({"preload": preload, "paths": sorted(paths), "assigned": sorted(assigned), "face": face})
    result = subprocess.run(
        [sys.executable, "-c", RESOLVE],
        input=request,
        capture_output=True,
        text=True,
        env=tool_env(uai),
        cwd=tempfile.gettempdir(),
        timeout=1800,
    )
    if result.returncode:
        raise SystemExit(f"resolving TF references failed: {result.stderr.strip()[-3000:]}")
    answer = json.loads(result.stdout)
    return answer["tensorflow"], answer["resolved"]


# ---------------------------------------------------------------------------------------------
# imports: one forked process per module


# Runs in a separate process: {"root", "package", "modules", "fresh", "roots", "timeout", "jobs"}
# on stdin, {module: {"status": ok|failed|missing|timeout, "error", "file", "line", "missing"}} on
# stdout ("file", "line": the deepest frame in the project, where the import failed).
# Importing TensorFlow costs 3-8 s a process, so every module is imported in a child forked from
# a server that imported it once. That is not neutral: `import compat` after TensorFlow is too
# late for compat's import-time set-up (tensor2tensor's migrated generator_utils imports in a
# fresh process, but fails with `tf.compat.v1.estimator` missing when TensorFlow came first). So a
# probe child (no TensorFlow loaded) first imports the module until its first import of
# TensorFlow, which it stops, noting whether compat was imported by then; the module is then
# imported under a server that preloaded `compat` and TensorFlow, or TensorFlow alone, to match.
# With "face" (the uai-run column) there is no probe: uai-run imports compat first, installs its
# finder and turns TF1 behaviour on at the program's first `import tensorflow`; the checker does the
# same once, before forking (with --fresh: the finder only, each child activating on its own).
IMPORT = r"""
import importlib, importlib.abc, json, os, shutil, signal, sys, tempfile, time, traceback
request = json.load(sys.stdin)
root, package = request["root"], request["package"]
sys.path[0] = root
os.chdir(root)
out_dir = tempfile.mkdtemp()
ROOTS = set(request["roots"]) | {package}
TF = ("tensorflow", "tf_keras", "keras")

class Stop(BaseException):  # not an Exception: the project's `except Exception` must not catch it
    pass

class StopAtTensorFlow(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in TF:
            raise Stop("compat" in sys.modules)

def where(err):
    if isinstance(err, SyntaxError) and err.filename and err.filename.startswith(root):
        return err.filename, err.lineno
    found = (None, 0)
    for frame, line in traceback.walk_tb(err.__traceback__):
        if frame.f_code.co_filename.startswith(root + os.sep):
            found = (frame.f_code.co_filename, line)
    return found

def probe(module):
    sys.meta_path.insert(0, StopAtTensorFlow())
    try:
        importlib.import_module(module)
    except Stop as stop:
        return {"compat_first": stop.args[0]}
    except BaseException:
        pass
    return {"compat_first": False}

def check(module):
    try:
        importlib.import_module(module)
        return {"status": "ok"}
    except BaseException as err:
        missing = getattr(err, "name", None) if isinstance(err, ModuleNotFoundError) else None
        status = "missing" if missing and missing.split(".")[0] not in ROOTS else "failed"
        filename, line = where(err)
        result = {"status": status, "error": f"{type(err).__name__}: {err}"[:400],
                  "file": filename and os.path.relpath(filename, root), "line": line}
        if status == "missing":
            result["missing"] = missing.split(".")[0]
        return result

def child(work, module, path):
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    result = work(module)
    with open(path, "w") as handle:
        json.dump(result, handle)
    os._exit(0)

def fork_each(work, modules, failed):
    # {module: work(module)}, each in a child of this process, `jobs` at a time, within the timeout
    results, running, queue = {}, {}, list(modules)
    while queue or running:
        while queue and len(running) < request["jobs"]:
            module = queue.pop(0)
            path = os.path.join(out_dir, module)
            pid = os.fork()
            if pid == 0:
                child(work, module, path)
            running[pid] = (module, path, time.monotonic())
        pid, _ = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            time.sleep(0.02)
            for pid, (module, path, start) in list(running.items()):
                if time.monotonic() - start > request["timeout"]:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    del running[pid]
                    results[module] = {"status": "timeout", "error": f"no result in {request['timeout']} s"}
            continue
        module, path, _ = running.pop(pid)
        try:
            with open(path) as handle:
                results[module] = json.load(handle)
        except (OSError, ValueError):
            results[module] = failed
    return results

def serve(preload, modules):
    # import `preload` in a server process, then check each module in a child of it
    path = os.path.join(out_dir, "server.json")
    pid = os.fork()
    if pid == 0:
        for name in preload:
            importlib.import_module(name)
        died = {"status": "failed", "error": "the import process died"}
        with open(path, "w") as handle:
            json.dump(fork_each(check, modules, died), handle)
        os._exit(0)
    os.waitpid(pid, 0)
    with open(path) as handle:
        return json.load(handle)

modules = request["modules"]
if request["face"]:
    import uai_run
    from uai_run import _finder
    uai_run.install()
    if not request["fresh"]:
        _finder.activate_tf1()
    results = fork_each(check, modules, {"status": "failed", "error": "the import process died"})
elif request["fresh"]:
    results = fork_each(check, modules, {"status": "failed", "error": "the import process died"})
else:
    probes = fork_each(probe, modules, {"compat_first": False})
    results = {}
    for preload in (["compat", "tensorflow"], ["tensorflow"]):
        group = [m for m in modules if probes[m].get("compat_first", False) == (preload[0] == "compat")]
        if group:
            results.update(serve(preload, group))
shutil.rmtree(out_dir)
json.dump(results, sys.stdout)
"""


def import_modules(root: str, package: str, modules: list, settings: "Settings", face: bool = False) -> dict:
    """{module: outcome} of importing each module of the copy at `root` in a process of its own
    (`face`: under uai-run's TF1 face)."""
    timeout = settings.timeout
    request = {
        "root": root,
        "package": package,
        "modules": modules,
        "jobs": settings.jobs,
        "timeout": timeout,
        "fresh": settings.fresh,
        "roots": TF_ROOTS,
        "face": face,
    }
    env = dict(tool_env(settings.uai), PYTHONPATH=settings.uai)
    env.pop("TF_USE_LEGACY_KERAS", None)  # each migrated module chooses for itself, through compat
    result = subprocess.run(
        [sys.executable, "-c", IMPORT],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout * len(modules) + 600,
    )
    if result.returncode:
        raise SystemExit(f"import check failed: {result.stderr.strip()[-3000:]}")
    return json.loads(result.stdout)


# ---------------------------------------------------------------------------------------------
# silent failures: a failing statement the report says nothing about


def _statement_span(source: str, line: int) -> tuple[int, int]:
    """Lines of the innermost statement of `source` containing `line` (for a compound statement,
    its decorators and header only); the line alone when the source does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return line, line
    best = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        end = node.end_lineno
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and line < body[0].lineno:
            end = body[0].lineno - 1
        if start <= line <= end and (best is None or end - start < best[1] - best[0]):
            best = (start, end)
    return best or (line, line)


def original_lines(old: str, new: str, first: int, last: int) -> set:
    """Lines of `old` that lines first..last of `new` came from (the report numbers the original)."""
    lines, low, high = set(), first - 1, last  # 0-based, half-open
    matcher = difflib.SequenceMatcher(None, old.splitlines(), new.splitlines(), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "delete" or j2 <= low or j1 >= high:
            continue
        if tag == "equal":
            lines |= {i1 + j - j1 + 1 for j in range(max(j1, low), min(j2, high))}
        else:  # replaced lines stand for the original block; inserted ones for their neighbours
            lines |= set(range(i1 + 1, i2 + 1)) or {i1, i1 + 1}
    return lines


def silent_failures(imports: dict, source_tree: str, migrated_tree: str, report: dict) -> list:
    """[{module, file, line, error}] for migrated modules failing on a statement with no
    error or warning entry in the report; one item per module."""
    flagged = collections.defaultdict(set)
    for item in report["files"]:
        rel = os.path.relpath(item["path"], source_tree)
        flagged[rel] |= {e["line"] for e in item["entries"] if e["severity"] in ("warning", "error")}
    silent, texts = [], {}
    for module, result in sorted(imports.items()):
        if result["status"] != "failed":
            continue
        rel, line = result.get("file"), result.get("line") or 0
        if rel is None:
            silent.append({"module": module, "file": None, "line": 0, "error": result["error"]})
            continue
        if rel not in texts:
            texts[rel] = tuple(_read(os.path.join(tree, rel)) for tree in (source_tree, migrated_tree))
        old, new = texts[rel]
        first, last = _statement_span(new, line)
        if not original_lines(old, new, first, last) & flagged[rel]:
            silent.append(
                {
                    "module": module,
                    "file": rel,
                    "line": line,
                    "error": result["error"],
                    "text": new.splitlines()[line - 1].strip() if 0 < line <= new.count("\n") + 1 else "",
                }
            )
    return silent


def _read(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


# ---------------------------------------------------------------------------------------------
# fidelity


def measure_references(tree: str, files: list, preload: list, uai: str, face: bool = False) -> dict:
    scans, unparsable = {}, []
    for rel in files:
        try:
            scans[module_name(rel)] = (rel, scan_module(_read(os.path.join(tree, rel)), rel))
        except (SyntaxError, ValueError):
            unparsable.append(rel)
    link_project({name: scan for name, (_, scan) in scans.items()})
    refs, fallbacks, assigned = [], 0, set()
    for rel, scan in scans.values():
        found, in_fallbacks, sets = references(scan)
        refs += [(path, rel, line) for path, line in found]
        fallbacks += len(in_fallbacks)
        assigned.update(sets)
    version, resolved = resolve({path for path, _, _ in refs}, assigned, preload, uai, face)
    unresolved = collections.Counter(path for path, _, _ in refs if not resolved[path])
    return {
        "tensorflow": version,
        "references": len(refs),
        "resolved": len(refs) - sum(unresolved.values()),
        "unresolved": dict(unresolved.most_common()),
        "unparsable": unparsable,
        "fallbacks": fallbacks,
    }


@dataclasses.dataclass(frozen=True)
class Settings:
    cache: str = dataclasses.field(default_factory=default_cache)
    jobs: int = len(os.sched_getaffinity(0))
    timeout: float = 120.0  # seconds per module import
    variants: tuple = VARIANTS  # the uai-migrate copy is always made (silent failures, idempotency)
    fresh: bool = False  # import each module in a process that has not imported TensorFlow yet
    uai: str = REPO  # the checkout of this project whose uai-migrate and compat are judged


def measure_project(name: str, work: str, settings: Settings) -> dict:
    """Every number of one project (see the module's docstring); copies are made under work/name."""
    project = PROJECTS[name]
    unpacked = fetch(name, settings.cache)
    trees = {variant: os.path.join(work, name, variant.replace(" ", "_")) for variant in VARIANTS}
    trees[RUN] = trees["as written"]  # uai-run leaves the files as they are
    files = copy_package(unpacked, project.package, trees["as written"])
    lines = sum(_read(os.path.join(trees["as written"], rel)).count("\n") for rel in files)
    log(f"{name}: {len(files)} files, {lines} lines")
    result = {"files": len(files), "lines": lines, "variants": {}}
    if "tf_upgrade_v2" in settings.variants:
        start = time.perf_counter()
        upgraded = run_tool(upgrade_command(trees["as written"], trees["tf_upgrade_v2"]), "tf_upgrade_v2", settings.uai)
        result["tf_upgrade_v2_failed_files"] = json.loads(upgraded.stdout.strip().splitlines()[-1])
        log(f"{name}: tf_upgrade_v2 {time.perf_counter() - start:.0f} s")
    start = time.perf_counter()
    report = migrate(trees["as written"], trees[MIGRATED], settings.jobs, settings.uai)
    log(f"{name}: uai-migrate {time.perf_counter() - start:.0f} s")
    again = os.path.join(work, name, "uai-migrate-again")
    result["report_summary"] = report["summary"]
    result["report_summary_again"] = migrate(trees[MIGRATED], again, settings.jobs, settings.uai)["summary"]
    result["not_idempotent"] = [
        rel for rel in files if _read(os.path.join(trees[MIGRATED], rel)) != _read(os.path.join(again, rel))
    ]
    modules = [module_name(rel) for rel in files]
    for variant in settings.variants:
        start = time.perf_counter()
        face = variant == RUN
        refs = measure_references(trees[variant], files, ["compat"] if variant == MIGRATED else [], settings.uai, face)
        imports = import_modules(trees[variant], project.package, modules, settings, face)
        statuses = collections.Counter(r["status"] for r in imports.values())
        missing = collections.Counter(r["missing"] for r in imports.values() if r["status"] == "missing")
        result["variants"][variant] = {
            **refs,
            "modules": len(modules),
            "imported": statuses["ok"],
            "missing_dependency": statuses["missing"],
            "failed": statuses["failed"],
            "timeout": statuses["timeout"],
            "missing_packages": dict(missing),
            "imports": imports,
        }
        log(
            f"{name} / {variant}: {refs['resolved']}/{refs['references']} references resolve, "
            f"{statuses['ok']}/{len(modules)} modules import ({time.perf_counter() - start:.0f} s)"
        )
    result["silent_failures"] = silent_failures(imports_of(result), trees["as written"], trees[MIGRATED], report)
    return result


def imports_of(result: dict) -> dict:
    return result["variants"][MIGRATED]["imports"]


def overall(results: dict) -> dict:
    """The projects' counts summed, per variant."""
    total = {"files": 0, "lines": 0, "not_idempotent": [], "silent_failures": [], "variants": {}}
    for name, result in results.items():
        total["files"] += result["files"]
        total["lines"] += result["lines"]
        total["not_idempotent"] += [f"{name}/{rel}" for rel in result["not_idempotent"]]
        total["silent_failures"] += [dict(item, project=name) for item in result["silent_failures"]]
        for variant, numbers in result["variants"].items():
            into = total["variants"].setdefault(variant, {"unresolved": collections.Counter()})
            for key in COUNTS:
                into[key] = into.get(key, 0) + numbers[key]
            into["unresolved"].update(numbers["unresolved"])
    return total


COUNTS = ("references", "resolved", "fallbacks", "modules", "imported", "missing_dependency", "failed", "timeout")


def share(numbers: dict) -> float:
    """The fraction of TF references that resolve."""
    return numbers["resolved"] / max(numbers["references"], 1)


def silent_lines(silent: list) -> collections.Counter:
    """{(file, line, statement, error): modules failing there}: many modules fail on one line of a
    package's __init__ chain."""
    return collections.Counter((i["file"], i["line"], i.get("text", ""), i["error"]) for i in silent)


def print_table(title: str, result: dict) -> None:
    variants = result["variants"]
    shown = [v for v in VARIANTS if v in variants]
    print(f"\n### {title}: {result['files']} files, {result['lines']} lines\n")
    print("| | " + " | ".join(shown) + " |")
    print("|---|" + "---:|" * len(shown))
    rows = [
        ("TF references that resolve", lambda n: f"{100 * share(n):.1f}% ({n['resolved']}/{n['references']})"),
        ("(references in except-fallbacks, not counted)", lambda n: str(n["fallbacks"])),
        ("modules that import", lambda n: f"{n['imported']}/{n['modules']}"),
        ("modules missing a non-TF dependency", lambda n: str(n["missing_dependency"])),
        ("modules failing (TF or the code)", lambda n: str(n["failed"])),
        ("modules timing out", lambda n: str(n["timeout"])),
    ]
    for label, cell in rows:
        print(f"| {label} | " + " | ".join(cell(variants[v]) for v in shown) + " |")

    def migrated_only(value):  # a row about uai-migrate's output: blank in the other columns
        return " | ".join(value if v == MIGRATED else "" for v in shown)

    silent = result["silent_failures"]
    print(f"| silent failures: modules (lines) | {migrated_only(f'{len(silent)} ({len(silent_lines(silent))})')} |")
    print(f"| files changed again by a second run | {migrated_only(str(len(result['not_idempotent'])))} |")


def print_details(results: dict, total: dict, top: int) -> None:
    unresolved = total["variants"][MIGRATED]["unresolved"]
    print(f"\n### Unresolved TF references after uai-migrate (top {top} of {len(unresolved)})\n")
    print("| count | reference |\n|---:|---|")
    for path, count in unresolved.most_common(top):
        print(f"| {count} | `{path}` |")
    print("\n### Silent failures after uai-migrate (failing line: modules that fail there)\n")
    for name, result in results.items():
        for (rel, line, text, error), count in silent_lines(result["silent_failures"]).most_common():
            print(f"- {name}: {rel}:{line} `{text}`: {error} ({count} modules)")
    for name, result in results.items():
        missing = collections.Counter(result["variants"][MIGRATED]["missing_packages"])
        if missing:
            print(
                f"\n{name}: modules stopped by a missing non-TF package after uai-migrate: "
                + ", ".join(f"{p} ({c})" for p, c in missing.most_common())
            )


def fidelity(args: argparse.Namespace, work: str) -> int:
    settings = Settings(args.cache, args.jobs, args.timeout, args.variants, args.fresh, args.uai)
    results = {name: measure_project(name, work, settings) for name in args.projects}
    total = overall(results)
    version = results[args.projects[0]]["variants"][MIGRATED]["tensorflow"]
    print(f"## uai-migrate on real TF1 code: TensorFlow {version}")
    for name, result in results.items():
        print_table(name, result)
    if len(results) > 1:
        print_table("overall", total)
    print_details(results, total, args.top)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"tensorflow": version, "projects": results, "overall": total}, handle, indent=1)
    return 0


# ---------------------------------------------------------------------------------------------
# speed


def dense_files(projects: list, cache: str) -> list[tuple[str, str, str]]:
    """(project, unpacked folder, file) of the projects' files in the top quartile of TF references
    per line, in the projects' order."""
    found = []
    for name in projects:
        unpacked = fetch(name, cache)
        files = package_files(unpacked, PROJECTS[name].package)
        scans = {}
        for rel in files:
            try:
                scans[module_name(rel)] = (rel, scan_module(_read(os.path.join(unpacked, rel)), rel))
            except (SyntaxError, ValueError):
                continue
        link_project({module: scan for module, (_, scan) in scans.items()})
        for rel, scan in scans.values():
            refs, fallbacks, _ = references(scan)
            lines = max(_read(os.path.join(unpacked, rel)).count("\n"), 1)
            found.append(((len(refs) + len(fallbacks)) / lines, name, unpacked, rel))
    cut = statistics.quantiles([density for density, *_ in found], n=4)[2]
    return [(name, unpacked, rel) for density, name, unpacked, rel in found if density >= cut]


def speed(args: argparse.Namespace, work: str) -> int:
    """Interleaved rounds of whole-process runs on the selected packages in one tree (with --dense:
    their files dense in TF references; and bench/migrate_bench.py's generated tree with
    --generated); a ratio table per tree."""
    trees = {}
    if args.dense:
        trees["dense: " + ", ".join([*args.projects, "tensorflow/models TF 1.4"])] = tree = os.path.join(work, "dense")
        for name, unpacked, rel in dense_files(args.projects, args.cache):
            copy_files(unpacked, [rel], os.path.join(tree, name))
        models = [rel for rel in MODELS_PROGRAMS if rel.endswith(".py")]
        models += [path for rel in MODELS_PROGRAMS if not rel.endswith(".py") for path in package_files(REPO, rel)]
        copy_files(REPO, models, os.path.join(tree, "tensorflow-models"))
    else:
        trees[", ".join(args.projects)] = tree = os.path.join(work, "tree")
        for name in args.projects:
            copy_package(fetch(name, args.cache), PROJECTS[name].package, tree)
    if args.generated:
        trees["generated"] = os.path.join(work, "generated")
        migrate_bench.generate(trees["generated"], args.generated)
    load_before = os.getloadavg()
    log("speed: load average {:.2f} {:.2f} {:.2f}".format(*load_before))

    def out(label):
        path = os.path.join(work, "out", label)
        shutil.rmtree(path, ignore_errors=True)
        return path

    rows, units = {}, []
    for index, (label, tree) in enumerate(trees.items()):
        rows[label] = {
            "anchor": f"{label}: tf_upgrade_v2 (1 process, TF import included)",
            "floor": f"{label}: {migrate_bench.FLOOR_ROW}",
            "jobs": f"{label}: uai-migrate -j{args.jobs} --no-cache",
            "one": f"{label}: uai-migrate -j1 --no-cache",
        }
        units += [
            [(rows[label]["anchor"], lambda t=tree, i=index: upgrade_command(t, out(f"upgraded{i}")))],
            [(rows[label]["floor"], lambda t=tree: [sys.executable, "-c", migrate_bench.FLOOR, t, "-"])],
            [(rows[label]["jobs"], lambda t=tree, i=index: migrate_command(t, out(f"mN{i}"), args.jobs))],
            [(rows[label]["one"], lambda t=tree, i=index: migrate_command(t, out(f"m1{i}"), 1))],
        ]
    per_round, _ = migrate_bench.run_rounds(units, args.rounds, tool_env(args.uai))
    for label, tree in trees.items():
        files = [os.path.join(folder, f) for folder, _, names in os.walk(tree) for f in names if f.endswith(".py")]
        lines = sum(_read(path).count("\n") for path in files)
        print(f"\n{label}: {len(files)} files, {lines} lines")
        short = {name: name[len(label) + 2 :] for name in rows[label].values()}
        mine = [{short[name]: seconds for name, seconds in r.items() if name in short} for r in per_round]
        anchor = short[rows[label]["anchor"]]
        migrate_bench.print_ratios(mine, anchor, {"/ tf_upgrade_v2": anchor, "/ floor": short[rows[label]["floor"]]})
    print(migrate_bench.load_line(load_before))
    return 0


# ---------------------------------------------------------------------------------------------


def _projects(value: str) -> list:
    names = [v.strip() for v in value.split(",") if v.strip()]
    unknown = [n for n in names if n not in PROJECTS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown project(s) {', '.join(unknown)} (--list shows them)")
    return names


def _variants(value: str) -> tuple:
    names = {v.strip() for v in value.split(",") if v.strip()}
    if names - set(VARIANTS):
        raise argparse.ArgumentTypeError(f"unknown variant(s) {', '.join(sorted(names - set(VARIANTS)))}")
    return tuple(v for v in VARIANTS if v in names | {MIGRATED})


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--projects", type=_projects, default=list(PROJECTS), help="comma-separated (default: all)")
    parser.add_argument("--list", action="store_true", help="list the projects and exit")
    parser.add_argument("--cache", default=default_cache(), help="downloaded sources (default: %(default)s)")
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and keep the copies")
    parser.add_argument("--json", metavar="OUT", help="write every number to OUT")
    parser.add_argument("-j", "--jobs", type=int, default=len(os.sched_getaffinity(0)), help="processes at once")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per module import (default: 120)")
    parser.add_argument("--top", type=int, default=30, help="unresolved references listed (default: 30)")
    parser.add_argument("--speed", action="store_true", help="time uai-migrate against tf_upgrade_v2 and the floor")
    parser.add_argument("--rounds", type=int, default=3, help="--speed: interleaved rounds (default: 3)")
    parser.add_argument(
        "--generated",
        type=int,
        default=0,
        metavar="LINES",
        help="--speed: also time bench/migrate_bench.py's generated tree of this many lines",
    )
    parser.add_argument(
        "--dense",
        action="store_true",
        help="--speed: time the packages' files in the top quartile of TF references per line instead",
    )
    parser.add_argument(
        "--variants",
        type=_variants,
        default=VARIANTS,
        help=f"comma-separated, of: {', '.join(VARIANTS)} (default: all; uai-migrate is always measured)",
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="import each module in a process that has not imported TensorFlow (slower; the check of the default)",
    )
    parser.add_argument(
        "--uai",
        default=REPO,
        metavar="DIR",
        help="the uai-compat checkout to judge, e.g. `git archive` of a commit (default: this one)",
    )
    args = parser.parse_args(argv)
    args.uai = os.path.abspath(args.uai)
    if args.list:
        for name, project in PROJECTS.items():
            print(f"{name:18} {project.requirement:28} package {project.package}/")
        return 0
    work = args.keep or tempfile.mkdtemp(prefix="uai-realworld-")
    os.makedirs(work, exist_ok=True)
    try:
        return speed(args, work) if args.speed else fidelity(args, work)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
