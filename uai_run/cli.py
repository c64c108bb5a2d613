"""`uai-run [--tf1|--auto] [--tf1-everywhere] [--explain] [--report FILE] script.py args...` (or `-m module args...`).

Runs an unmodified TF1 program on this TensorFlow as `python script.py args...` would: as `__main__`,
`sys.argv` as given, the script's folder first on `sys.path`, its exit code passed through. Its
`import tensorflow ...` statements get the TF1 face (see uai_run). With `--auto`, a program whose
files name nothing only TF1 had is TF 2 code: python itself runs it (uai_run._auto), unless it names
something this TensorFlow lacks and compat provides (`tf.estimator` on TF >= 2.16), or needs TF1's graph
mode (an Estimator with MultiWorkerMirroredStrategy, compat.graph_mode): then it runs here with compat's
runtime (`compat.install()`, and graph mode for the latter) and without the TF1 face.
"""

import argparse
import ast
import importlib.util
import os
import runpy
import signal
import subprocess
import sys
from types import TracebackType
from typing import NoReturn

from compat.cli_errors import fail
from compat.errors import CompatError, MissingRuntimePiece
from compat.outputs import OutputFile, output_file

DESCRIPTION = "Run an unmodified TF1 program on this TensorFlow (TF1 API at import time, files untouched)."


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="uai-run", description=DESCRIPTION)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--tf1", action="store_true", help="the program is TF1 code: give it the TF1 face (the default)")
    mode.add_argument(
        "--auto",
        action="store_true",
        help="read the program's files first: TF1 code gets the TF1 face; TF 2 code is run by python as it is, "
        "or with compat's runtime and no TF1 face when it names what this TensorFlow lacks and compat provides "
        "(tf.estimator on TF >= 2.16), in TF1's graph mode when it needs it (an Estimator with "
        "MultiWorkerMirroredStrategy). For folders of mixed scripts; it imports TensorFlow once more before a "
        "TF 2 program starts",
    )
    parser.add_argument(
        "--tf1-everywhere",
        action="store_true",
        help="give libraries (site-packages) the TF1 face too, not only your own files",
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help="after the run, print the aliases applied as JSON (uai-migrate's report schema) on stderr",
    )
    parser.add_argument("--report", metavar="FILE", help="write that JSON report to FILE")
    parser.add_argument(
        "--doctor",
        action="store_true",
        help="list what this environment gives a TF1 program (TensorFlow, Keras, tf-keras, the Estimator, "
        "tf-slim) with a pip line per missing piece, and exit",
    )
    parser.add_argument("-m", dest="module", metavar="MODULE", help="run a module, as python -m does")
    parser.add_argument("target", nargs=argparse.REMAINDER, help="script.py and its arguments")
    own, module, rest = _split_module(list(argv))
    args = parser.parse_args(own)
    if module is not None:  # as python -m: every argument after the module's name is the module's
        args.module, args.target = module, rest[1:] if rest[:1] == ["--"] else rest
    if args.module is None and not args.target and not args.doctor:
        parser.error("the script to run is missing (uai-run script.py args..., or uai-run -m module args...)")
    return args


# uai-run's options that take a value (argparse also takes an unambiguous prefix: --rep FILE)
_VALUED = ("--report",)


def _split_module(argv: list[str]) -> tuple[list[str], str | None, list[str]]:
    """(uai-run's own options, the -m module or None, the module's arguments): argparse would read the
    module's `--flag=value` as uai-run's own. A `--` right after the module only separates them."""
    at = 0
    while at < len(argv):
        arg = argv[at]
        if arg == "--" or not arg.startswith("-"):
            break  # the script (or `--`): what follows is the script's
        if arg == "-m":
            return argv[:at], argv[at + 1] if at + 1 < len(argv) else None, argv[at + 2 :]
        if arg.startswith("-m"):
            return argv[:at], arg[2:], argv[at + 1 :]
        valued = "=" not in arg and len(arg) > 2 and any(option.startswith(arg) for option in _VALUED)
        at += 2 if valued else 1  # an option's value (`--report -m`) is no `-m`
    return argv, None, []


def _runnable_module(module: str) -> str | None:
    """Why `python -m module` would stop before running any of it (python's own words), or None."""
    if not module:
        return "-m: empty module name"
    try:
        spec = importlib.util.find_spec(module)
        if spec is not None and spec.submodule_search_locations is not None:
            if importlib.util.find_spec(module + ".__main__") is None:
                return f"No module named {module}.__main__; {module} is a package and cannot be directly executed"
    except (ImportError, ValueError) as err:  # a parent package missing, or a relative name
        return str(err) or f"No module named {module}"
    return None if spec is not None else f"No module named {module}"


def _runnable_path(script: str) -> str | None:
    """Why `python script` would stop before running any of it (python's own words), or None."""
    if os.path.isdir(script) and not os.path.isfile(os.path.join(script, "__main__.py")):
        return f"can't find '__main__' module in {script!r}"
    return None


def _run(args: argparse.Namespace) -> int:
    """Run the program in this process; return its exit code."""
    if args.module is not None:
        sys.argv = [args.module, *args.target]
        runpy.run_module(args.module, run_name="__main__", alter_sys=True)
        return 0
    script = args.target[0]
    sys.argv = list(args.target)
    sys.path[0] = _program_folder(script)
    runpy.run_path(script, run_name="__main__")
    return 0


def _program_folder(script: str) -> str:
    """What python puts first on sys.path for `python script`: the folder of the real file (a
    symlinked script imports its real folder's siblings), or a folder run as a program."""
    real = os.path.realpath(script)
    return real if os.path.isdir(real) else os.path.dirname(real)


# A module of the user's with one of these names, first on the program's sys.path, would be imported
# in place of the package: TensorFlow (python would do the same, and compat imports it), or compat
# itself (already loaded by uai-run, so the program would get ours where python gives it its own).
_SHADOWED = {
    "tensorflow": "takes the place of TensorFlow for this program (python would import it): rename it",
    "compat": "has the name of uai-compat's package, which uai-run has loaded: the program would get "
    "uai-compat's where python gives it yours; rename it to run under uai-run",
}


def _shadowing(folder: str) -> tuple[str, str] | None:
    """(path, why) of a module of the user's in `folder` that shadows a package uai-run needs, or None."""
    for package, why in _SHADOWED.items():
        for path in (os.path.join(folder, package + ".py"), os.path.join(folder, package, "__init__.py")):
            if os.path.isfile(path):
                return os.path.dirname(path) if path.endswith("__init__.py") else path, why
    return None


def _program_traceback(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    """Print the program's uncaught exception as python would: from the program's first frame,
    without uai-run's own (its console script, its CLI, runpy) above it."""
    first = _program_frames(tb)
    if first is not None:
        value = value.with_traceback(first)  # python prints the exception's own traceback, not `tb`
    sys.__excepthook__(kind, value, value.__traceback__)


def _program_frames(tb: TracebackType | None) -> TracebackType | None:
    """The entries of `tb` below `_run`'s call into runpy and runpy's own: the program's first frame on
    (by position, not by file: the console script lies outside every library folder, as a user's file
    does). runpy's first frame if the error is runpy's; None if `_run` is not in `tb`."""
    entry = tb
    while entry is not None and entry.tb_frame.f_code is not _run.__code__:
        entry = entry.tb_next
    if entry is None:
        return None
    runpy_first = program = entry.tb_next
    while program is not None and program.tb_frame.f_globals.get("__name__") == "runpy":
        program = program.tb_next
    return program or runpy_first


def _exit_code(code: object) -> int:
    """The status `SystemExit(code)` gives, as the interpreter computes it (a process status is one
    byte: 256 is 0, -1 is 255; True is 1; a message is 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return int(code) & 0xFF
    return 1


def _program_files(args: argparse.Namespace) -> list[tuple[str, ast.Module | SyntaxError | None]]:
    """The program's file and the user's modules it imports, each read and parsed once (for --report's
    check and --auto's decision); [] for a module uai-run cannot find."""
    from uai_run import _auto

    path = _auto.module_file(args.module) if args.module is not None else os.path.abspath(args.target[0])
    return list(_auto.program_files(path)) if path is not None else []


def _report_file(
    args: argparse.Namespace, files: list[tuple[str, ast.Module | SyntaxError | None]]
) -> OutputFile | None:
    """The checked --report, resolved now (the program may change folder): never the program, nor a
    module of its folder that it imports, nor a device or FIFO, nor an existing file but a report (compat/outputs.py)."""
    if args.report is None:
        return None
    return output_file("--report", args.report, [read for read, _ in files])


def _write_report(args: argparse.Namespace, report: OutputFile | None, code: int) -> None:
    from uai_run import _explain

    if args.explain or report is not None:
        text = _explain.report_json(code)
        if report is not None:
            report.write(text)
        if args.explain:
            sys.stderr.flush()
            sys.stderr.write(text)


def _report_on_os_exit(args: argparse.Namespace, report: OutputFile | None) -> None:
    """A program that ends in `os._exit` (forked trainers, some launchers) skips every `finally`:
    write the report first, with the code it exits with."""
    real_exit = os._exit

    def exit_after_the_report(status: int) -> NoReturn:
        os._exit = real_exit  # once: a child forked by the program exits as it would
        if os.getpid() == parent:
            try:
                _write_report(args, report, status)
            except CompatError as err:
                print(f"uai-run: error: {err}", file=sys.stderr)
        real_exit(status)

    parent = os.getpid()
    os._exit = exit_after_the_report


def _choose(
    args: argparse.Namespace, report: OutputFile | None, files: list[tuple[str, ast.Module | SyntaxError | None]]
) -> str:
    """--auto: "tf1" for a TF1 program (the face follows); "compat" for a TF 2 program that needs compat's
    runtime, "graph" for one that needs it in TF1's graph mode (both run here, without the face); run any other
    TF 2 program with python, in place of this process."""
    from compat import _keras_setup, tf1_names
    from uai_run import _auto, _explain

    found = _auto.evidence(files)
    if found is not None:
        _explain.note_at(
            found.rule,
            f"--auto: {found.why}: the TF1 face",
            found.path,
            found.line,
        )
        return "tf1"
    if not files:
        return "tf1"  # a module uai-run cannot read: the default, the TF1 face
    graph = _auto.graph_evidence(files)
    if graph is not None:
        _explain.note_at(graph.rule, f"--auto: {graph.why}: {_auto.GRAPH_MODE}", graph.path, graph.line)
        return "graph"
    needs = _auto.needs_compat(files)
    if needs is not None:
        message = f"--auto: {needs.why}: run as TF 2 code with compat's runtime"
        _explain.note_at(needs.rule, message, needs.path, needs.line)
        return "compat"
    program = files[0][0]
    _explain.note_at(
        tf1_names.RULES[tf1_names.TF], "--auto: nothing only TF1 had: run by python as TF 2 code", program, 0
    )
    sys.stdout.flush()
    sys.stderr.flush()
    command = [sys.executable, *(["-m", args.module] if args.module is not None else []), *args.target]
    env = _keras_setup.user_environment()
    if report is None and not args.explain:
        os.execve(sys.executable, command, env)
    # a report must carry the program's exit status: python runs it as a child, waited for
    status = _run_as_child(command, env)
    _write_report(args, report, status if status >= 0 else 128 - status)
    if status < 0:  # ended by a signal: end the same way, as the exec'd program would have
        signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
    raise SystemExit(status)


def _run_as_child(command: list[str], env: dict[str, str]) -> int:
    """The child's exit status (negative: the signal that ended it). Ctrl-C reaches the child from the
    terminal, as with a shell running it; a SIGTERM sent to uai-run is passed on."""
    child = subprocess.Popen(command, env=env)
    previous = {
        signal.SIGINT: signal.signal(signal.SIGINT, signal.SIG_IGN),
        signal.SIGTERM: signal.signal(signal.SIGTERM, lambda signum, _frame: child.send_signal(signum)),
    }
    try:
        return child.wait()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _one_line_stop(args: argparse.Namespace, err: BaseException) -> CompatError | None:
    """The one line for a program's exception that names its fix (a TF 2 name the face lacks, a missing
    runtime piece), or None: python's traceback."""
    from compat import doctor
    from uai_run import _auto, _explain, _tf1_modules

    tf2 = _tf1_modules.tf2_name(err, lambda: _auto.evidence(_program_files(args)) is None)
    if tf2 is not None:
        _explain.note_error(tf2)
        return tf2
    fix = doctor.missing_piece(err) if isinstance(err, Exception) else None
    return MissingRuntimePiece(fix) if fix is not None else None


def main(argv: list[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.doctor:
        from compat import doctor

        return doctor.main()
    if args.module is None and not os.path.exists(args.target[0]):
        fail(f"{args.target[0]}: no such file")
    if args.module is not None:
        sys.path[0] = os.getcwd()  # as python -m: the module is found from the working folder
    shadow = _shadowing(os.getcwd() if args.module is not None else _program_folder(args.target[0]))
    if shadow is not None:
        fail(f"{shadow[0]} {shadow[1]}")
    why = _runnable_module(args.module) if args.module is not None else _runnable_path(args.target[0])
    if why is not None:
        fail(why)
    files = _program_files(args) if args.auto or args.report is not None else []
    try:
        report = _report_file(args, files)
    except CompatError as err:
        fail(str(err))
    import compat  # legacy Keras and tf.estimator before anything imports TensorFlow
    from uai_run import MissingTF1Module, MissingTF1Name, _code_owner, _explain, _source, install, spawned_children_too

    chosen = _choose(args, report, files) if args.auto else "tf1"
    if chosen == "tf1":
        install(everywhere=args.tf1_everywhere)
    else:  # TF 2 code needing what compat provides on this TensorFlow, or graph mode: its runtime, no TF1 face
        try:
            compat.install()
        except CompatError as err:
            fail(str(err))
        setup = "import compat; compat.install()"
        if chosen == "graph":
            from compat import graph_mode

            graph_mode.enter()
            setup += "; import compat.graph_mode; compat.graph_mode.enter()"
        spawned_children_too(setup)
    if args.explain or report is not None:
        _report_on_os_exit(args, report)
    code, started = 0, os.getpid()
    error: BaseException | None = None
    try:
        code = _run(args)
    except SystemExit as exit_:
        code, error = _exit_code(exit_.code), exit_
    except CompatError as err:
        code, error = 2, err
        if isinstance(err, (MissingTF1Name, MissingTF1Module)):
            _explain.note_error(err)
    except SyntaxError as err:
        if not _code_owner.is_user(err.filename):
            code = 1
            raise  # a library's: a traceback, as python would print it
        code, error = 2, _source.UnparsableSource(err)
        _explain.note_error(error)
    except BaseException as err:
        stop = _one_line_stop(args, err)
        if stop is None:
            # a traceback follows, as python would print it; the report still says it failed, with the
            # status python ends with (Ctrl-C: killed by SIGINT, which a shell reports as 130)
            code = 128 + signal.SIGINT if isinstance(err, KeyboardInterrupt) else 1
            sys.excepthook = _program_traceback
            raise
        code, error = 2, stop
    finally:
        if os.getpid() == started:  # a child the program forked ends here too: the report is the program's
            try:
                _write_report(args, report, code)
            except CompatError as err:
                error = err
    if isinstance(error, CompatError):
        fail(str(error))
    if error is not None:
        raise error
    return code


def run() -> None:
    """The `uai-run` console script."""
    sys.exit(main())
