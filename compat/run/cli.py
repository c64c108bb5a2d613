"""`uai-run [--tf1|--auto] [--tf1-everywhere] [--explain] [--report FILE] script.py args...` (or `-m module args...`).

Runs an unmodified TF1 program on this TensorFlow as `python script.py args...` would: as `__main__`,
`sys.argv` as given, the script's folder first on `sys.path`, its exit code passed through. Its
`import tensorflow ...` statements get the TF1 face (see compat.run). With `--auto`, a program whose
files name nothing only TF1 had is TF 2 code: python itself runs it (compat.run._auto).
"""

import argparse
import os
import runpy
import sys

from compat.cli import check_output_file, fail, write_output_file
from compat.errors import CompatError

DESCRIPTION = "Run an unmodified TF1 program on this TensorFlow (TF1 API at import time, files untouched)."


def parse(argv):
    parser = argparse.ArgumentParser(prog="uai-run", description=DESCRIPTION)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--tf1", action="store_true", help="the program is TF1 code: give it the TF1 face (the default)")
    mode.add_argument(
        "--auto",
        action="store_true",
        help="read the program's files first: TF1 code gets the TF1 face, TF 2 code is run by python as it is "
        "(for folders of mixed scripts; it imports TensorFlow once more before a TF 2 program starts)",
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
    parser.add_argument("-m", dest="module", metavar="MODULE", help="run a module, as python -m does")
    parser.add_argument("target", nargs=argparse.REMAINDER, help="script.py and its arguments")
    args = parser.parse_args(argv)
    if args.module is None and not args.target:
        parser.error("the script to run is missing (uai-run script.py args..., or uai-run -m module args...)")
    return args


def _run(args):
    """Run the program in this process; return its exit code."""
    if args.module is not None:
        sys.argv = [args.module, *args.target]
        sys.path[0] = os.getcwd()
        runpy.run_module(args.module, run_name="__main__", alter_sys=True)
        return 0
    script = args.target[0]
    sys.argv = list(args.target)
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    runpy.run_path(script, run_name="__main__")
    return 0


def _exit_code(code) -> int:
    """The status `SystemExit(code)` gives, as the interpreter computes it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    return 1


def _write_report(args, code: int) -> None:
    from compat.run import _explain

    if args.explain or args.report is not None:
        text = _explain.to_json(code)
        if args.report is not None:
            write_output_file("--report", args.report, text)
        if args.explain:
            sys.stderr.flush()
            sys.stderr.write(text)


def _choose(args) -> None:
    """--auto: return for a TF1 program (the face follows); run a TF 2 program with python, in place of this process."""
    from compat import _keras_setup, tf1_names
    from compat.run import _auto, _explain

    path = _auto.module_file(args.module) if args.module is not None else os.path.abspath(args.target[0])
    found = _auto.evidence(path) if path is not None else None
    if found is not None:
        _explain.note_at(
            found.rule,
            f"--auto: {found.why}: the TF1 face",
            found.path,
            found.line,
        )
        return
    if path is None:
        return  # a module uai-run cannot read: the default, the TF1 face
    _explain.note_at(tf1_names.RULES[tf1_names.TF], "--auto: nothing only TF1 had: run by python as TF 2 code", path, 0)
    _write_report(args, 0)
    sys.stdout.flush()
    sys.stderr.flush()
    command = [sys.executable, *(["-m", args.module] if args.module is not None else []), *args.target]
    os.execve(sys.executable, command, _keras_setup.user_environment())


def main(argv=None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.report is not None:
        check_output_file("--report", args.report)
    if args.module is None and not os.path.exists(args.target[0]):
        fail(f"{args.target[0]}: no such file")
    import compat  # noqa: F401 - legacy Keras and tf.estimator before anything imports TensorFlow
    from compat.run import MissingTF1Module, MissingTF1Name, _explain, _source, _where, install

    if args.auto:
        _choose(args)
    install(everywhere=args.tf1_everywhere)
    code, error = 0, None
    try:
        code = _run(args)
    except SystemExit as exit_:
        code, error = _exit_code(exit_.code), exit_
    except CompatError as err:
        code, error = 2, err
        if isinstance(err, (MissingTF1Name, MissingTF1Module)):
            _explain.note_error(err)
    except SyntaxError as err:
        if not _where.is_user(err.filename):
            code = 1
            raise  # a library's: a traceback, as python would print it
        code, error = 2, _source.UnparsableSource(err)
        _explain.note_error(error)
    except BaseException:
        code = 1  # a traceback follows, as python would print it; the report still says it failed
        raise
    finally:
        _write_report(args, code)
    if isinstance(error, CompatError):
        fail(str(error))
    if error is not None:
        raise error
    return code


def run() -> None:
    """The `uai-run` console script."""
    sys.exit(main())
