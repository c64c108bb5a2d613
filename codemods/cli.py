"""`uai-migrate`: port TF1-era scripts, notebooks and trees to current TensorFlow (see README)."""

import argparse
import math
import os
import signal
import sys
from typing import TYPE_CHECKING

from compat.cli_errors import fail, main_guard
from compat.files import is_inside
from compat.outputs import OutputFile, Reads, output_file, output_folder

if TYPE_CHECKING:
    from codemods._options import Options


def _default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _epilog() -> str:
    from codemods import tables
    from codemods.explain import rules_help

    return (
        "rules (--explain RULE for what, why and an example):\n"
        + rules_help()
        + "\n\nTF 2 code (--explain tf2-code): a file holding the line `# uai-migrate: tf2` in the comments before its "
        "first code (a notebook: in its first code cell) keeps its tf names as TF 2's at every level, unless it names "
        "what TF 2 lacks (a warning); --level native writes the line into each port it made fully TF 2."
        "\n\nexit codes: 0 nothing left to do by hand, 1 something needs attention (or --check found changes), "
        "2 usage error or a file could not be read/written.\n\n" + tables.provenance() + "."
    )


class _Parser(argparse.ArgumentParser):
    """Writes its epilog, a line per rule, when it shows its help: a run imports no rule's module to parse its
    arguments (one at the safe level imports no native rule's: codemods/rules/__init__.py)."""

    def format_help(self) -> str:
        if self.epilog is None:
            self.epilog = _epilog()
        return super().format_help()


def build_parser() -> argparse.ArgumentParser:
    from codemods.formats import FORMATS

    parser = _Parser(
        prog="uai-migrate",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Migrate TF1-era code (and its Dockerfiles and requirements*.txt) to run on current "
        "TensorFlow. By default shows a diff and changes nothing.",
    )
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="Python files, notebooks (.ipynb), Dockerfiles, requirements*.txt or folders",
    )
    parser.add_argument("--explain", metavar="RULE", help="print what RULE does, why, an example and its level")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--write", action="store_true", help="change the files in place")
    what.add_argument("--out", metavar="DIR", help="write a migrated copy of the whole tree into DIR")
    what.add_argument("--check", action="store_true", help="change nothing; exit 1 if anything would change")
    parser.add_argument("--report", metavar="FILE", help="also write the report as JSON to FILE")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="stdout: text, json, github (workflow annotations) or sarif (SARIF 2.1.0)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="text: only the table per rule and the summary")
    parser.add_argument("-j", "--jobs", type=int, default=_default_jobs(), help="worker processes (default: all cores)")
    parser.add_argument(
        "--select",
        action="append",
        default=[],
        metavar="RULE",
        help="run only these rules (code rules and the Dockerfile/requirements rules)",
    )
    parser.add_argument("--ignore", action="append", default=[], metavar="RULE", help="skip these rules")
    parser.add_argument(
        "--level",
        choices=("safe", "native"),
        default="safe",
        help="safe: run on current TF through compat with the least change; "
        "native: also the rewrites to idiomatic TF 2 that can change behaviour (--explain RULE says how); "
        "native-session: Session scripts of the tutorial shape (placeholders, sess.run, a tf.train optimizer's "
        "minimize; their lookup tables, dynamic_rnn over a BasicLSTMCell, static shape reads and queue-runner input "
        "(string_input_producer, TFRecordReader, shuffle_batch: a tf.data pipeline, in another batch order) too; a MonitoredSession "
        "without arguments, a local replica_device_setter, and a MonitoredTrainingSession loop of a checkpoint_dir and a "
        "StopAtStepHook on this process, and tf-slim's learning.train over create_train_op, with slim's conv2d, "
        "fully_connected and flatten layers, a tf-slim zoo net under its arg_scope (compat.slim_nets) and tf-slim's "
        "model_deploy clones) become eager TF 2 "
        "with Keras layers and a tf.function step, and the platform's uai_dist cluster MonitoredTrainingSession "
        "(master, is_chief) ParameterServerStrategy training, whose chief computes no step (a notebook's code cells "
        "are migrated as "
        "one program at this level); in any file: native-io (tf.gfile "
        "functions -> tf.io.gfile, tf.logging.set_verbosity -> tf.get_logger().setLevel, tf.parse_single_example "
        "and parse_example -> tf.io's, tf.set_random_seed -> tf.random.set_seed) and native-image "
        "(tf.image.resize_images of a decoded image to a literal size, where it runs in a graph -> the ResizeBilinear "
        "op it runs); in programs, "
        "graph code (an Estimator's model_fn) included: native-layers (tf.layers conv2d, dense, batch_normalization, "
        "flatten and pooling in an Estimator's model_fn -> Keras 2 layers, the variables' names kept, and its one "
        "UPDATE_OPS read after the batch norms -> their layer.updates; in a model_fn's towers (for i in range(n) under "
        "variable_scope(name, reuse=i > 0), and the cifar10_estimator shape through compat.scoped_layers) each layer "
        "made once and shared as reuse shared its variables; "
        "tf-slim's conv2d, fully_connected and flatten in its body, also under one arg_scope, alike), "
        "native-losses (tf.losses.sparse_softmax_cross_entropy -> "
        "tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True) where tf.keras is Keras 2 and no loss "
        "collection is read), native-data's dataset classes where no one-shot iterator is made; in files proven eager (no "
        "graph-mode code, a program no other module of the tree imports): native-optimizer (tf.train GradientDescent, Momentum, Adam, Adagrad used by "
        "apply_gradients, minimize with var_list or Keras compile -> tf.keras.optimizers), native-data "
        "(tf.compat.v1.data datasets -> tf.data, make_one_shot_iterator() -> iter()), native-eager-defaults "
        "(enable_eager_execution() and the other switches to TF 2's defaults, and the initializer no-ops, "
        "deleted), native-variable (tf.compat.v1.Variable -> tf.Variable); "
        "a single-process Estimator program of Keras layers, a tf.train optimizer's minimize (or towers averaging "
        "their gradients for apply_gradients) and train(max_steps) -> "
        "an eager loop restoring model_dir's TF1 checkpoint (native-estimator-loop; it stops where TF_CONFIG names a "
        "cluster), any other stays on the Estimator (native-estimator: one info entry per file says why and what "
        "stays in tf.compat.v1); "
        "everything else stays at the safe level, with an info entry where a rule could not prove its "
        "pattern",
    )
    parser.add_argument("--cache-dir", default=None, help="result cache (default: $XDG_CACHE_HOME/uai-migrate)")
    parser.add_argument("--no-cache", action="store_true", help="do not read or write the result cache")
    parser.add_argument(
        "--max-file-size",
        type=float,
        default=16,
        metavar="MB",
        help="skip (and report) files larger than this (default: 16 MB)",
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar on stderr (default: when stderr is a terminal)",
    )
    return parser


def _split(values: list[str]) -> tuple[str, ...]:
    return tuple(v.strip() for value in values for v in value.split(",") if v.strip())


def _check_values(args: argparse.Namespace) -> None:
    """Every option value is usable: checked before any file is read or written."""
    for option, value in (("--out", args.out), ("--cache-dir", args.cache_dir), ("--report", args.report)):
        if value == "":
            fail(f"{option}: empty value")
    for option, values in (("--select", args.select), ("--ignore", args.ignore)):
        if any(not v.strip(" ,") for v in values):
            fail(f"{option}: empty value")
    if args.jobs < 1:
        fail("--jobs must be at least 1")
    # a size in bytes must be a whole number: 1e400 and inf parse as floats but are none
    if not (math.isfinite(args.max_file_size) and args.max_file_size > 0):
        fail("--max-file-size must be a positive number of MB")
    if args.cache_dir and not args.no_cache:
        # the cache is written to: a file or a device named here left the run without one, and no word of it
        output_folder("--cache-dir", args.cache_dir)
    if args.out and not args.no_cache:
        from codemods import _cache

        # (its records in --out would stop the next run into it: files uai-migrate did not write there)
        cache = args.cache_dir or _cache.default_dir()
        real_cache = os.path.realpath(cache)
        if is_inside(real_cache, os.path.realpath(args.out)):
            fail(f"--cache-dir {cache}: lies inside --out {args.out}: name a folder elsewhere, or --no-cache")
        # a folder --out copies would carry its records into the output (they are not inputs: only copied)
        for path in args.paths:
            if os.path.isdir(path) and is_inside(real_cache, os.path.realpath(path)):
                fail(
                    f"--cache-dir {cache}: lies inside {path}, which --out copies with its records: "
                    "name a folder elsewhere, or --no-cache"
                )


def _report_file(args: argparse.Namespace, reads: Reads) -> OutputFile | None:
    """The checked --report: never a file the run reads, never inside --out (the marker owns that), never an
    existing file but a report (compat/outputs.py)."""
    if args.report is None:
        return None
    outside = [("--out", args.out)] if args.out else []
    return output_file("--report", args.report, reads, outside=outside)


def _options(args: argparse.Namespace) -> tuple["Options", tuple[str, ...], bool]:
    """(Options for the code rules, the file rules selected, whether any code rule runs) from
    --select/--ignore/--level."""
    from codemods import files
    from codemods._options import Options

    chosen, ignored = _split(args.select), _split(args.ignore)
    if not chosen and not ignored:  # every rule of the level, a safe one at least: no rule's module imported
        return Options(level=args.level), files.RULE_IDS, True
    from codemods.rules import BY_ID, select  # (every rule's module, the native ones too: asked for by id)

    for rule_id in (*chosen, *ignored):
        if rule_id not in BY_ID and rule_id not in files.RULE_IDS:
            fail(f"unknown rule id {rule_id!r} (see --help for the rules)")
    code_select = tuple(r for r in chosen if r in BY_ID)
    options = Options(select=code_select, ignore=tuple(r for r in ignored if r in BY_ID), level=args.level)
    # only file rules selected, or every code rule ignored: code files are not even parsed
    code_rules = bool(select(options.select, options.ignore, options.level)) and not (chosen and not code_select)
    file_rules = tuple(r for r in files.RULE_IDS if (not chosen or r in chosen) and r not in ignored)
    return options, file_rules, code_rules


def _explain(rule_id: str) -> int:
    from codemods.explain import explain

    try:
        sys.stdout.write(explain(rule_id) + "\n")
    except KeyError:
        fail(f"unknown rule id {rule_id!r} (see --help for the rules)")
    return 0


# the modules of uai-compat's [migrate] extra (pyproject.toml), which a wheel installed without it lacks
MIGRATE_EXTRA = frozenset({"libcst", "packaging", "dockerfile_parse", "fissix"})


@main_guard
def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except ModuleNotFoundError as missing:
        if missing.name not in MIGRATE_EXTRA:
            raise
        fail(f'uai-migrate needs {missing.name}, which this environment lacks: pip install "uai-compat[migrate]"')


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.explain is not None:
        return _explain(args.explain)
    if not args.paths:
        parser.error("the following arguments are required: PATH")
    _check_values(args)
    from codemods import _cache, _discover, _interrupts, tables
    from codemods import _migrate_tree as _runner
    from codemods.formats import render
    from compat import doctor

    warning = tables.installed_warning(doctor.installed_tensorflow())
    if warning is not None:
        print(f"uai-migrate: warning: {warning}", file=sys.stderr)
    options, file_rules, code_rules = _options(args)
    mode = "write" if args.write else "out" if args.out else "check" if args.check else "diff"
    config = _runner.RunConfig(
        paths=args.paths,
        mode=mode,
        out=args.out,
        options=options,
        jobs=args.jobs,
        cache_dir=None if args.no_cache else (args.cache_dir or _cache.default_dir()),
        progress=sys.stderr.isatty() if args.progress is None else args.progress,
        max_file_size=int(args.max_file_size * _runner.MB),
        file_rules=file_rules,
        code_rules=code_rules,
    )
    # Both signals stop the run the same way, whatever this process inherited: a shell runs a
    # background job with SIGINT ignored, and Python then installs no handler of its own, so
    # without ours a Ctrl-C sent to such a run was ignored and every file was written.
    previous = {sig: signal.signal(sig, _interrupts.interrupted) for sig in (signal.SIGINT, signal.SIGTERM)}
    report_file = None
    try:
        found = _discover.discover(args.paths, out=args.out)
        report_file = _report_file(args, Reads([*args.paths, *(item.real for item in found[0])]))
        report = _runner.run(config, found=found)
    except KeyboardInterrupt as stop:
        signum = stop.args[0] if stop.args else signal.SIGINT
        fail("interrupted before any file was written", code=128 + signum)
    except _runner.Interrupted as stop:
        stop.report.interrupted = True
        if report_file is not None:
            report_file.write(stop.report.to_json())
        fail(
            f"interrupted after {stop.written} files were written (each is wholly old or wholly new"
            + (f"; {args.report} lists them)" if report_file is not None else ")"),
            code=128 + stop.signum,
        )
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if report_file is not None:
        report_file.write(report.to_json())
    sys.stdout.write(render(report, args.format, quiet=args.quiet))
    return report.exit_code()
