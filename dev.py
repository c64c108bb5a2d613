#!/usr/bin/env python3
"""Run a project task with only python3 present: `python3 dev.py test` / `python3 dev.py demo` / `python3 dev.py lint`.

Creates `.nox/_tools` with the pinned nox on first use, then runs nox sessions from
noxfile.py. Anyone with nox installed can run `nox -s <session>` instead.
"""

import os
import subprocess
import sys
import venv

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, ".nox", "_tools")
# task -> (nox sessions = environments, the task run inside them; None: the session has a single job)
TASKS: dict[str, tuple[list[str], str | None]] = {
    "test": (["lint", "tf1", "tf2"], "tests"),
    "test-tf1": (["tf1"], "tests"),
    "test-tf2": (["tf2"], "tests"),
    "demo": (["tf2"], "demo"),
    "bench": (["tf1", "tf2"], "bench"),
    # the TF 1.15 reference (Python 3.7): the golden random draws by default; not part of `test` or CI
    "tf115": (["tf115"], "golden"),
    "lint": (["lint"], None),
}


def _tools_python() -> str:
    python = os.path.join(TOOLS, "bin", "python")
    stamp = os.path.join(TOOLS, "requirements.txt")
    wanted = open(os.path.join(HERE, "requirements", "nox.txt")).read()
    if not os.path.exists(python) or not os.path.exists(stamp) or open(stamp).read() != wanted:
        print("dev.py: setting up nox in .nox/_tools ...", file=sys.stderr, flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(TOOLS)
        subprocess.run(
            [python, "-m", "pip", "install", "-q", "-r", os.path.join(HERE, "requirements", "nox.txt")], check=True
        )
        with open(stamp, "w") as out:
            out.write(wanted)
    return python


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in TASKS:
        print(__doc__.strip(), file=sys.stderr)
        print("\ntasks: " + ", ".join(TASKS) + "   (extra arguments after `--` go to the task)", file=sys.stderr)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    sessions, task = TASKS[argv[0]]
    extra = argv[1:]
    if extra[:1] == ["--"]:
        extra = extra[1:]
    if task is None and extra:
        print(f"dev.py: {argv[0]} takes no arguments", file=sys.stderr)
        return 2
    command = [_tools_python(), "-m", "nox", "-f", os.path.join(HERE, "noxfile.py"), "-s", *sessions]
    if task is not None:
        command += ["--", task, *extra]
    return subprocess.call(command, cwd=HERE)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
