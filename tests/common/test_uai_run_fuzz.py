"""uai-run's command line and program behaviours, fuzzed: whatever the argv and `--report` value,
it is accepted or refused in one line (exit 2) before the program runs, and never writes over a
file the program reads; whatever the program does (exit codes, exceptions, chdir, fork, os._exit),
the report lands where `--report` pointed at start-up, with the program's exit code.

In-process, `uai_run.cli`'s checks before TensorFlow is imported (argparse, the program's
existence, `python -m`'s refusals, the output-path policy) meet hundreds of argument lists in a
scratch tree holding the program, a module it imports, links to both, a folder and a FIFO. A few
generated programs run for real under `python -m uai_run`; they import no TensorFlow, so each
run costs a fraction of a second.
"""

import contextlib
import importlib.util
import io
import json
import os
import signal
import stat
import subprocess
import sys
import tempfile

from hypothesis import example, given, settings
from hypothesis import strategies as st

from compat.cli_errors import fail
from compat.errors import CompatError
from tests.support.processes import REPO, python_env
from uai_run import _auto, cli

PROGRAM = "import helper\nprint(helper.VALUE)\n"
# What the scratch tree holds, relative to its root (the working folder of each case).
FILES = {
    "p/train.py": PROGRAM,
    "p/helper.py": "VALUE = 1\n",
    "p/data.txt": "not read by the program\n",
}
READ = ("p/train.py", "p/helper.py")  # the program and the module of its folder it imports


def _build(root: str) -> None:
    for name, text in FILES.items():
        os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
        with open(os.path.join(root, name), "w") as handle:
            handle.write(text)
    os.makedirs(os.path.join(root, "p", "sub"))
    os.symlink("train.py", os.path.join(root, "p", "link.py"))
    os.link(os.path.join(root, "p", "helper.py"), os.path.join(root, "p", "hard.py"))
    os.mkfifo(os.path.join(root, "p", "fifo"))


def _state(root: str) -> dict[str, tuple[int, bytes | None]]:
    """(mode, bytes of a regular file) of every entry of the tree, by relative path."""
    found = {}
    for folder, dirs, names in os.walk(root):
        for name in dirs + names:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            data = None
            if stat.S_ISREG(info.st_mode):
                with open(path, "rb") as handle:
                    data = handle.read()
            found[os.path.relpath(path, root)] = (info.st_mode, data)
    return found


# Report values aimed at what broke before: the program and its module (directly, through a
# symlink, a hard link or `..`), a folder, a FIFO, a device, stdout, relative and odd names.
REPORTS = st.one_of(
    st.sampled_from(
        [
            "",
            "-",
            "r.json",
            "p/r.json",
            "p/train.py",
            "./p/../p/train.py",
            "p/sub/../helper.py",
            "p/link.py",
            "p/hard.py",
            "p/data.txt",
            "p",
            "p/sub/",
            ".",
            "..",
            "../r.json",
            "p/fifo",
            "/dev/null",
            "/dev/stdout",
            "/proc/uai-run-fuzz/r.json",
            "no/such/r.json",
            "p/train.py/r.json",
            "r" * 300 + ".json",
            "r\udcff.json",
            "r\x00.json",
            "r\n.json",
            "-x",
        ]
    ),
    # no leading `/`: an accepted report is written, and only inside the scratch tree
    st.text(st.sampled_from([*"ap./-_ \n\t", "\x85", "\u2028", "\u00e9", "\udcff"]), max_size=10).map(
        lambda text: text.lstrip("/")
    ),
)
MODES = st.lists(st.sampled_from(["--tf1", "--auto", "--tf1-everywhere", "--explain"]), max_size=2, unique=True)
# `-m` modules whose lookup imports nothing new in this process: the standard library and compat.
MODULES = st.sampled_from(["", "json.tool", "json", "nothere", "nothere.sub", ".rel", "uai_run"])
TARGETS = st.sampled_from(["p/train.py", "p/link.py", "p", "p/sub", "missing.py", "", "-", "p/data.txt"])
PROGRAM_ARGS = st.lists(st.sampled_from(["--report", "x.json", "-m", "--", "a b", "\udcff"]), max_size=3)


@st.composite
def argvs(draw):
    argv = list(draw(MODES))
    for value in draw(st.lists(REPORTS, max_size=2)):
        argv += draw(st.sampled_from([["--report", value], [f"--report={value}"]]))
    if draw(st.booleans()):
        argv += ["-m", draw(MODULES)]
    elif draw(st.booleans()):
        argv.append(draw(TARGETS))
    return argv + draw(PROGRAM_ARGS)


def _checks(argv: list[str]):
    """What `cli.main` does before it imports compat and TensorFlow: the parsed arguments and the
    checked report (an `OutputFile` or None), or SystemExit(2) after one line on stderr."""
    args = cli.parse(argv)
    if args.module is None and not os.path.exists(args.target[0]):
        fail(f"{args.target[0]}: no such file")
    why = cli._runnable_module(args.module) if args.module is not None else cli._runnable_path(args.target[0])
    if why is not None:
        fail(why)
    try:
        return args, cli._report_file(args, cli._program_files(args) if args.report is not None else [])
    except CompatError as err:
        fail(str(err))


def _reads(argv: list[str]) -> list[str]:
    """The files the program an argv names reads (told apart from uai-run's own view of it), if it is one."""
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            args = cli.parse(argv)
    except SystemExit:
        return []
    if args.module is not None:
        spec = importlib.util.find_spec(args.module) if args.module in ("json.tool", "uai_run") else None
        return [spec.origin] if spec and spec.origin and spec.submodule_search_locations is None else []
    target = args.target[0]
    return list(READ) if target in ("p/train.py", "p/link.py") else [target] if os.path.isfile(target) else []


@contextlib.contextmanager
def _scratch():
    """A new scratch tree as the working folder."""
    before = os.getcwd()
    with tempfile.TemporaryDirectory() as base:
        root = os.path.join(base, "work")
        os.makedirs(root)
        _build(root)
        os.chdir(root)
        try:
            yield root
        finally:
            os.chdir(before)


@settings(max_examples=200, deadline=None)
@given(argvs())
@example(["--report", "p/train.py", "p/train.py"])
@example(["--report", "p/link.py", "p/train.py"])
@example(["--report=p/hard.py", "p/train.py"])
@example(["--report", "./p/../p/train.py", "p/train.py"])
@example(["--report", "p/fifo", "p/train.py"])
@example(["--report", "/dev/null", "p/train.py"])
@example(["--report", "r\n.json", "p/train.py"])
@example(["--report", "r.json", "-m", ""])
@example(["--report=--", "p/train.py"])  # argparse gives the report as [] (CI's hypothesis found it)
@example(["--report", "r.json", "p"])
@example(["--report", os.path.join(REPO, "compat", "run", "__main__.py"), "-m", "uai_run"])
def test_argv_and_report_are_accepted_or_one_line_and_never_the_program_s_files(argv):
    with _scratch() as root:
        before = _state(root)
        reads = {os.stat(name)[1:3] for name in _reads(argv)}  # (inode, device) of what the program reads
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            try:
                args, report = _checks(argv)
            except SystemExit as exit_:
                # argparse prints its usage, then one error line; `fail` prints the error line only
                assert exit_.code == 2, err.getvalue()
                lines = err.getvalue().splitlines()
                assert lines and ": error: " in lines[-1], lines  # `fail` names the process: pytest, here
                assert len(lines) == 1 or lines[0].startswith("usage: uai-run "), lines
                assert not any(": error: " in line for line in lines[:-1]), lines
                assert _state(root) == before
                return
            if report is not None and report.target is not None:
                assert os.path.isabs(report.target)
                if os.path.exists(report.target):
                    assert os.stat(report.target)[1:3] not in reads, argv
                    assert stat.S_ISREG(os.stat(report.target).st_mode), argv
                if report.target.startswith(os.path.dirname(root) + os.sep):  # never write outside the scratch
                    report.write('{"exit_code": 0}\n')
                    with open(report.target) as handle:
                        assert json.load(handle) == {"exit_code": 0}
        after = _state(root)
        for name, (mode, data) in before.items():
            if report is None or report.target != os.path.realpath(name):
                assert after[name] == (mode, data), name  # only the report itself may change
        assert args.report is None or report is not None


# -- real runs: generated programs under uai-run -------------------------------------------------

# (the statement, the exit code python gives it)
ENDINGS = {
    "falls off the end": ("pass", 0),
    "sys.exit()": ("sys.exit()", 0),
    "sys.exit(0)": ("sys.exit(0)", 0),
    "sys.exit(3)": ("sys.exit(3)", 3),
    "sys.exit(255)": ("sys.exit(255)", 255),
    "sys.exit('message')": ("sys.exit('a message')", 1),
    "raise": ("raise ValueError('boom')", 1),
    "os._exit(4)": ("os._exit(4)", 4),
    "os._exit(0)": ("os._exit(0)", 0),
    # the forked child ends first, its way; the parent waits for it, then exits 6
    "fork, child sys.exit": ("pid = os.fork()\nif pid == 0:\n    sys.exit(9)\nos.waitpid(pid, 0)\nsys.exit(6)", 6),
    "fork, child os._exit": ("pid = os.fork()\nif pid == 0:\n    os._exit(9)\nos.waitpid(pid, 0)\nsys.exit(6)", 6),
    # the parent exits first; the child ends later while the test waits on its output
    "fork, parent exits first, child os._exit": (
        "if os.fork() == 0:\n    time.sleep(0.5)\n    os._exit(9)\nos._exit(6)",
        6,
    ),
    "fork, child raises": (
        "pid = os.fork()\nif pid == 0:\n    raise ValueError('child')\nos.waitpid(pid, 0)\nos._exit(6)",
        6,
    ),
    # the child's sys.exit ran uai-run's own ending again and wrote its code over the parent's report
    "fork, parent exits first, child sys.exit": (
        "if os.fork() == 0:\n    time.sleep(0.5)\n    sys.exit(9)\nsys.exit(6)",
        6,
    ),
    # the report carries the status the process ends with, as python computes it
    "sys.exit(256)": ("sys.exit(256)", 0),
    "sys.exit(-1)": ("sys.exit(-1)", 255),
    "sys.exit(True)": ("sys.exit(True)", 1),
    "KeyboardInterrupt": ("raise KeyboardInterrupt", 130),
}
KILLED_BY = {"KeyboardInterrupt": signal.SIGINT}  # endings whose process dies by a signal
STEPS = {
    "chdir into a sub-folder": "os.chdir(os.path.join(START, 'sub'))",
    "chdir to /": "os.chdir('/')",
    "chdir to the temporary folder": "os.chdir(tempfile.gettempdir())",
    "print": "print('output')",
    "write to stderr": "sys.stderr.write('progress\\n')",
}
REPORT_PLACES = st.sampled_from(["uai-run-fuzz-report.json", "reports/uai-run-fuzz-report.json", "absolute"])


@settings(max_examples=10, deadline=None)
@given(
    steps=st.lists(st.sampled_from(sorted(STEPS)), max_size=3),
    ending=st.sampled_from(sorted(ENDINGS)),
    place=REPORT_PLACES,
    modes=st.lists(st.sampled_from(["--tf1", "--explain", "--tf1-everywhere"]), max_size=2, unique=True),
    invocation=st.sampled_from([["p.py"], ["-m", "p"]]),
)
@example(steps=["chdir to /"], ending="sys.exit(3)", place="uai-run-fuzz-report.json", modes=[], invocation=["p.py"])
@example(
    steps=["chdir into a sub-folder"],
    ending="os._exit(4)",
    place="uai-run-fuzz-report.json",
    modes=[],
    invocation=["-m", "p"],
)
@example(
    steps=[], ending="fork, child sys.exit", place="reports/uai-run-fuzz-report.json", modes=[], invocation=["p.py"]
)
@example(steps=[], ending="fork, child raises", place="absolute", modes=["--explain"], invocation=["p.py"])
@example(steps=[], ending="fork, parent exits first, child os._exit", place="absolute", modes=[], invocation=["p.py"])
@example(steps=[], ending="fork, parent exits first, child sys.exit", place="absolute", modes=[], invocation=["p.py"])
@example(steps=[], ending="KeyboardInterrupt", place="absolute", modes=[], invocation=["p.py"])
def test_the_report_lands_where_it_pointed_at_start_up_with_the_program_s_exit_code(
    steps, ending, place, modes, invocation
):
    statement, code = ENDINGS[ending]
    source = (
        "import os, sys, tempfile, time\nimport helper\n\nSTART = os.getcwd()\n"
        + "\n".join(STEPS[s] for s in steps)
        + "\n"
        + statement
        + "\n"
    )
    with tempfile.TemporaryDirectory() as root:
        program = os.path.join(root, "p")
        os.makedirs(os.path.join(root, "reports"))
        os.makedirs(os.path.join(root, "sub"))
        with open(os.path.join(program + ".py"), "w") as handle:
            handle.write(source)
        with open(os.path.join(root, "helper.py"), "w") as handle:
            handle.write("VALUE = 1\n")
        report = os.path.join(root, "uai-run-fuzz-report.json") if place == "absolute" else place
        before = {name: _state(root)[name] for name in ("p.py", "helper.py")}
        result = subprocess.run(
            [sys.executable, "-m", "uai_run", *modes, "--report", report, *invocation],
            cwd=root,
            env=python_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        # python ends an uncaught KeyboardInterrupt by SIGINT (a shell shows 130, subprocess -2)
        killed_by = KILLED_BY.get(ending)
        assert result.returncode == (-killed_by if killed_by else code), (source, result.stderr)
        assert ("Traceback" in result.stderr) == ("raise" in statement), result.stderr
        with open(os.path.join(root, report)) as handle:
            assert json.load(handle)["exit_code"] == code, source
        assert {name: _state(root)[name] for name in ("p.py", "helper.py")} == before
        # nowhere else: not where the program changed folder to
        assert not os.path.exists(os.path.join(root, "sub", "uai-run-fuzz-report.json"))
        for folder in ("/", tempfile.gettempdir()):
            assert not os.path.exists(os.path.join(folder, "uai-run-fuzz-report.json"))


def test_a_refused_report_stops_the_real_command_in_one_line_before_the_program_runs(tmp_path):
    program = tmp_path / "p.py"
    program.write_text("open('ran', 'w').close()\n")
    for value in ("p.py", "./sub/../p.py", "", "/dev/null", "sub"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        result = subprocess.run(
            [sys.executable, "-m", "uai_run", "--report", value, "p.py"],
            cwd=tmp_path,
            env=python_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 2 and len(result.stderr.splitlines()) == 1, (value, result.stderr)
        assert result.stderr.startswith("python -m uai_run: error: --report "), result.stderr
        assert program.read_text() == "open('ran', 'w').close()\n" and not (tmp_path / "ran").exists()


def test_the_files_the_fuzzer_protects_are_the_ones_uai_run_finds_the_program_reads():
    with _scratch():
        reads = {os.path.realpath(path) for path, _ in _auto.program_files("p/train.py")}
        assert reads == {os.path.realpath(name) for name in READ}
