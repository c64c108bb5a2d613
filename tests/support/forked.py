"""A program's bad-input runs, each a process of its own, sharing the imports the program makes before its checks.

`python -m legacy_tf1.slim_main --model_name=resnet_v9` spends 4-5 s of CPU importing TensorFlow and compat
before its flag check prints one line and exits 2. Here one parent process (started with this interpreter and
the environment `run_module` gives) runs the program's top-level imports, and `compat.install()` calls, in the
program's order, once; then each case is a child forked from it that runs the program's `__main__` as
`python -m` does (runpy, `alter_sys`), with the case's argv and extra environment, and exits as the interpreter
does (atexit handlers, flushed streams). What the parent wrote while importing is part of every case's stderr
and stdout, as it would be in a process of its own: a warning printed at import still breaks a one-line
contract. A case costs a fork and the program's own code, about 0.05 s of CPU.
"""

import ast
import json
import os
import select
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence

import pytest

from tests.support.processes import REPO, python_env

# the parent: imports, then one request per line on stdin ({"argv": [...], "env": {...}}), one reply per line
_PARENT = r"""
import atexit, json, os, runpy, sys, tempfile

module, preload = sys.argv[1], sys.argv[2]
captured = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
saved = [os.dup(1), os.dup(2)]
os.dup2(captured[0].fileno(), 1)
os.dup2(captured[1].fileno(), 2)
exec(compile(preload, module, "exec"), {"__name__": "_uai_preload"})
sys.stdout.flush()
sys.stderr.flush()
os.dup2(saved[0], 1)
os.dup2(saved[1], 2)
at_import = []
for handle in captured:
    handle.seek(0)
    at_import.append(handle.read().decode(errors="replace"))
replies = os.fdopen(saved[0], "w")
for line in iter(sys.stdin.readline, ""):
    request = json.loads(line)
    outputs = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
    pid = os.fork()
    if pid == 0:
        os.dup2(outputs[0].fileno(), 1)
        os.dup2(outputs[1].fileno(), 2)
        os.environ.update(request["env"])
        sys.argv = [module, *request["argv"]]
        code = 0
        try:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
            if not isinstance(stop.code, (int, type(None))):
                print(stop.code, file=sys.stderr)
        except BaseException:
            import traceback

            traceback.print_exc()
            code = 1
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    texts = []
    for handle in outputs:
        handle.seek(0)
        texts.append(handle.read().decode(errors="replace"))
    reply = {"returncode": os.waitstatus_to_exitcode(status), "stdout": at_import[0] + texts[0],
             "stderr": at_import[1] + texts[1]}
    replies.write(json.dumps(reply) + "\n")
    replies.flush()
"""


def program_imports(module: str) -> str:
    """What `python -m module` runs before the module's own code: the import of its packages, then the module's
    top-level imports and `compat.install()` calls, in its order."""
    path = os.path.join(REPO, *module.split(".")) + ".py"
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    packages = module.split(".")[:-1]
    kept = [f"import {'.'.join(packages[: n + 1])}" for n in range(len(packages))]
    for node in tree.body:
        imports = isinstance(node, (ast.Import, ast.ImportFrom)) and getattr(node, "module", None) != "__future__"
        install = isinstance(node, ast.Expr) and ast.unparse(node) == "compat.install()"
        if imports or install:
            kept.append(ast.unparse(node))
    return "\n".join(kept) + "\n"


class ForkedRuns:
    """`run(args, env)` runs `python -m module args` as described in the module's docstring; close() ends the parent."""

    def __init__(self, module: str):
        self.module = module
        self._parent = subprocess.Popen(
            [sys.executable, "-c", _PARENT, module, program_imports(module)],
            cwd=REPO,
            env=python_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its group holds the cases too: a hung one is killed with it
        )

    def run(
        self, args: Sequence[str], env: dict[str, str] | None = None, timeout: float = 300
    ) -> subprocess.CompletedProcess:
        """The case's CompletedProcess. `env` is added at the fork: variables the imports read (TF_CPP_MIN_LOG_LEVEL)
        are the parent's, `run_module`'s."""
        parent = self._parent
        assert parent.stdin is not None and parent.stdout is not None
        parent.stdin.write(json.dumps({"argv": [str(a) for a in args], "env": env or {}}) + "\n")
        parent.stdin.flush()
        ready, _, _ = select.select([parent.stdout], [], [], timeout)
        if not ready:
            os.killpg(parent.pid, signal.SIGKILL)
            parent.wait()
            raise AssertionError(f"{self.module} {args}: no exit within {timeout} s")
        line = parent.stdout.readline()
        assert line, f"the parent of {self.module}'s runs ended (exit {parent.poll()})"
        reply = json.loads(line)
        command = [sys.executable, "-m", self.module, *map(str, args)]
        return subprocess.CompletedProcess(command, reply["returncode"], reply["stdout"], reply["stderr"])

    def close(self) -> None:
        if self._parent.stdin is not None:
            self._parent.stdin.close()
        self._parent.wait(timeout=60)


def fixture(module: str):
    """A module-scoped pytest fixture giving the ForkedRuns of `module` (its parent ends with the test module)."""

    @pytest.fixture(scope="module")
    def runs() -> Iterator[ForkedRuns]:
        forked = ForkedRuns(module)
        yield forked
        forked.close()

    return runs
