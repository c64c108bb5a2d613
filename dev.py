#!/usr/bin/env python3
"""Run a project task with only python3 present: `python3 dev.py test` / `python3 dev.py demo` / `python3 dev.py lint`.

`python3 dev.py test` runs lint, the two suites and the TF-range smoke on TF 2.18 side by side; `--all-tf`
also runs the other TF-range sessions (TF 2.16 ... 2.20, and TF 2.21 on Python 3.10 and 3.12), one after
another once the test sessions end; `python3 dev.py tfrange` runs only those.

`python3 dev.py reference` compares with real TF 1.15 (not in CI, which it does not fit): it builds the
tf115, tf1 and tf2 environments, then runs bench/reference.py --check on its fast subset (the three
samples and four corpus scripts, six ways each: 5.6 minutes here on two cores at load 1-5). It exits 1
when a way's first loss is more than 1e-6 (relative) from 1.15's in the same invocation, for the programs
whose first loss matched 1.15's in bench/RESULTS.md. After `--`: reference.py's options, e.g.
`-- --all --ordered-input` (every program, tensor2tensor's input read in one order so that 1.15 repeats
itself), `-- --only NAME ...`, `-- --workers 2`, `-- --help`.

Creates `.nox/_tools` with the pinned nox on first use, then runs nox sessions from
noxfile.py. Anyone with nox installed can run `nox -s <session>` instead.
"""

import ast
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import venv

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, ".nox", "_tools")
# The one TF-range session the test command (and so CI) runs beside the suites: a middle release of the
# range, its smoke (noxfile.py RANGE_SMOKE); the others run with `--all-tf` or `tfrange`.
CI_RANGE = "tfrange-2.18"
# What CI_RANGE leaves out of the smoke in the test command: its longest test, the modern slim program training
# resnet_v1_50 (~90 s of a core), which the suites run on 2.15 and 2.21 and `--all-tf` / `tfrange` on every
# release. With it the test command took 35.5 min on a quiet clean clone here (bench/RESULTS.md, ci16).
CI_RANGE_DESELECTED = [
    "--deselect",
    "tests/tf2/test_modern_programs.py::test_slim_main_trains_a_slim_zoo_net[resnet_v1_50]",
]
# task -> (nox sessions = environments, the task run inside them; None: the session has a single job)
TASKS: dict[str, tuple[list[str], str | None]] = {
    "test": (["lint", "tf1", "tf2", CI_RANGE], "tests"),
    "test-tf1": (["tf1"], "tests"),
    "test-tf2": (["tf2"], "tests"),
    "demo": (["tf2"], "demo"),
    "bench": (["tf1", "tf2"], "bench"),
    # the TF 1.15 reference (Python 3.7): every golden file of tests/common/golden by default; not part of `test` or CI
    "tf115": (["tf115"], "golden"),
    # bench/reference.py against TF 1.15: its three environments, installed in this order, then run in tf2's
    "reference": (["tf115", "tf1", "tf2"], "reference"),
    "lint": (["lint"], None),
}
# Tasks whose sessions run side by side, each in a process of its own: lint and the two suites share
# nothing (a venv each), and one suite alone leaves the second core mostly idle (its time goes to
# TensorFlow processes started one after another). A suite listed in parts (noxfile.py SUITES) has its
# venv installed once, then its parts run side by side in it, so the test command takes about as long
# as the suites' total over the two cores rather than as long as the longest suite.
SIDE_BY_SIDE = {"test"}
# The TF-range sessions (noxfile.py RANGE, tagged `tfrange`): each TensorFlow release between the suites' 2.15
# and 2.21. `test` runs CI_RANGE's only (5-15 min a release on two cores): `test --all-tf` adds them all,
# `tfrange` runs them alone (its arguments after `--` go to their pytest).
RANGE_TASK = "tfrange"
SHARED = "UAI_TEST_SHARED"  # tests/support/once.py
ALL_TF = "--all-tf"


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
    tasks = [*TASKS, RANGE_TASK]
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in tasks:
        print(__doc__.strip(), file=sys.stderr)
        print("\ntasks: " + ", ".join(tasks) + "   (extra arguments after `--` go to the task)", file=sys.stderr)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    all_tf = argv[0] == "test" and argv[1:2] == [ALL_TF]
    if all_tf:
        argv = [argv[0], *argv[2:]]
    extra = argv[1:]
    if extra[:1] == ["--"]:
        extra = extra[1:]
    nox = [_tools_python(), "-m", "nox", "-f", os.path.join(HERE, "noxfile.py")]
    if argv[0] == RANGE_TASK:
        return _tf_range(nox, extra)
    code = _task(nox, argv[0], extra)
    # the test sessions' pytest arguments select in their suites, not in the range's smoke
    return max(code, _tf_range(nox, [])) if all_tf else code


def _tf_range(nox: list[str], extra: list[str]) -> int:
    """Run every TF-range session, one after another (each installs a TensorFlow): 0 if all pass."""
    return subprocess.call([*nox, "-t", "tfrange", *(["--", *extra] if extra else [])], cwd=HERE)


def _suite_parts() -> dict[str, int]:
    """{session: how many parts noxfile.py's SUITES splits its suite in} (read, not imported: no nox here)."""
    tree = ast.parse(open(os.path.join(HERE, "noxfile.py")).read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "SUITES" for t in node.targets):
            return {env: len(parts) for env, parts in ast.literal_eval(node.value).items()}
    raise SystemExit("dev.py: noxfile.py has no SUITES table")


def _task(nox: list[str], name: str, extra: list[str]) -> int:
    sessions, task = TASKS[name]
    if task is None and extra:
        print(f"dev.py: {name} takes no arguments", file=sys.stderr)
        return 2
    if name in SIDE_BY_SIDE:
        # the parts of a suite compute the runs they all compare with once, here (tests/support/once.py)
        with tempfile.TemporaryDirectory(prefix="uai-test-shared-", ignore_cleanup_errors=True) as shared:
            return _side_by_side(_jobs(nox, sessions, task, extra), {**os.environ, SHARED: shared})
    command = [*nox, "-s", *sessions, *(["--", task, *extra] if task is not None else [])]
    return subprocess.call(command, cwd=HERE)


Job = tuple[list[str], list[list[str]]]  # (command run first, alone; commands then run side by side)


def _jobs(nox: list[str], sessions: list[str], task: str | None, extra: list[str]) -> dict[str, Job]:
    """{name: job} for a side-by-side task: a session whose suite has parts installs its venv, then runs them."""
    parts = _suite_parts()
    jobs: dict[str, Job] = {}
    for session in sessions:
        # lint and the range session run one thing each, whatever the task
        args = ["--", task, *extra] if task is not None and session not in ("lint", CI_RANGE) else []
        if session == CI_RANGE and task == "tests":
            args = ["--", *CI_RANGE_DESELECTED]
        run = [*nox, "-s", session, *args]
        count = parts.get(session, 1) if task == "tests" else 1
        if task is None or count == 1:
            jobs[session] = (run, [])
            continue
        jobs[session] = (
            [*nox, "-s", session, "--install-only"],
            [[*nox, "-s", session, "--no-install", "--", task, f"--part={k}", *extra] for k in range(1, count + 1)],
        )
    return jobs


def _free_disk(when: str) -> str:
    # the venvs and the tests' files take gigabytes of a disk other jobs may share: a full disk fails a run
    # midway (pip's "No space left on device"), and this line in the log says so
    checkout, temporary = (shutil.disk_usage(path).free / 1e9 for path in (HERE, tempfile.gettempdir()))
    return f"dev.py: disk free {when}: {checkout:.1f} GB for the checkout, {temporary:.1f} GB for temporary files"


def _side_by_side(jobs: dict[str, Job], env: dict[str, str]) -> int:
    """Run the jobs at once in `env`, every output line prefixed with its job (and part); 0 if all pass."""
    lock = threading.Lock()
    started = time.monotonic()
    print(_free_disk("at the start"), flush=True)
    processes: list[subprocess.Popen] = []
    finished: dict[str, tuple[int, float]] = {}

    def run(name: str, command: list[str]) -> int:
        with lock:
            process = subprocess.Popen(
                command,
                cwd=HERE,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                errors="replace",
            )
            processes.append(process)
        assert process.stdout is not None
        for line in process.stdout:
            with lock:
                sys.stdout.write(f"[{name}] {line}")
                sys.stdout.flush()
        finished[name] = (process.wait(), time.monotonic() - started)
        return finished[name][0]

    def job(name: str, first: list[str], then: list[list[str]]) -> None:
        if run(name, first) != 0 or not then:
            return
        del finished[name]  # the venv is ready: the parts report for it
        parts = [
            threading.Thread(target=run, args=(f"{name} part {k}/{len(then)}", command))
            for k, command in enumerate(then, 1)
        ]
        for thread in parts:
            thread.start()
        for thread in parts:
            thread.join()

    threads = [threading.Thread(target=job, args=(name, *commands)) for name, commands in jobs.items()]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join()
    except KeyboardInterrupt:  # the sessions got the terminal's Ctrl-C too; stop what is left
        with lock:
            for process in processes:
                process.terminate()
        return 130
    for name, (code, seconds) in sorted(finished.items(), key=lambda item: item[1][1]):
        print(f"dev.py: {name} {'passed' if code == 0 else f'FAILED (exit {code})'} after {seconds / 60:.1f} min")
    print(_free_disk("at the end"))
    return 0 if all(code == 0 for code, _ in finished.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
