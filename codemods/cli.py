"""`uai-migrate`: port TF1-era scripts, notebooks and trees to current TensorFlow (see README)."""

import argparse
import os
import sys

from compat.cli import fail, main_guard


def _default_jobs():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def build_parser():
    from codemods.rules import RULES

    parser = argparse.ArgumentParser(
        prog="uai-migrate",
        description="Migrate TF1-era code to run on current TensorFlow. By default shows a diff and changes nothing.",
        epilog="rules: " + ", ".join(f"{r.ID} ({r.LEVEL})" for r in RULES)
        + ". Exit codes: 0 nothing left to do by hand, 1 something needs attention (or --check found changes), "
        "2 usage error or a file could not be read/written.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="Python files, notebooks (.ipynb) or folders")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--write", action="store_true", help="change the files in place")
    what.add_argument("--out", metavar="DIR", help="write a migrated copy of the whole tree into DIR")
    what.add_argument("--check", action="store_true", help="change nothing; exit 1 if anything would change")
    parser.add_argument("--report", metavar="FILE", help="also write the report as JSON to FILE")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="stdout format")
    parser.add_argument("-j", "--jobs", type=int, default=_default_jobs(), help="worker processes (default: all cores)")
    parser.add_argument("--select", action="append", default=[], metavar="RULE", help="run only these rules")
    parser.add_argument("--ignore", action="append", default=[], metavar="RULE", help="skip these rules")
    parser.add_argument(
        "--level",
        choices=("safe", "native"),
        default="safe",
        help="safe: run on current TF through compat with the least change; "
        "native: also idiomatic TF2 rewrites that can change behaviour (labelled in the report)",
    )
    parser.add_argument("--cache-dir", default=None, help="result cache (default: $XDG_CACHE_HOME/uai-migrate)")
    parser.add_argument("--no-cache", action="store_true", help="do not read or write the result cache")
    return parser


def _split(values):
    return tuple(v.strip() for value in values for v in value.split(",") if v.strip())


@main_guard
def main(argv=None):
    args = build_parser().parse_args(argv)
    from codemods import _cache, _runner
    from codemods._engine import Options
    from codemods.rules import select

    options = Options(select=_split(args.select), ignore=_split(args.ignore), level=args.level)
    try:
        select(options.select, options.ignore, options.level)
    except KeyError as err:
        fail(f"unknown rule id {err.args[0]!r} (see --help for the rules)")
    if args.jobs < 1:
        fail("--jobs must be at least 1")
    if args.out and os.path.exists(args.out) and not os.path.isdir(args.out):
        fail(f"--out {args.out}: exists and is not a folder")
    mode = "write" if args.write else "out" if args.out else "check" if args.check else "diff"
    config = _runner.RunConfig(
        paths=args.paths,
        mode=mode,
        out=args.out,
        options=options,
        jobs=args.jobs,
        cache_dir=None if args.no_cache else (args.cache_dir or _cache.default_dir()),
        progress=sys.stderr.isatty(),
    )
    report = _runner.run(config)
    if args.report:
        try:
            with open(args.report, "w", encoding="utf-8") as handle:
                handle.write(report.to_json())
        except OSError as err:
            fail(f"--report {args.report}: {err.strerror}")
    sys.stdout.write(report.to_json() if args.format == "json" else report.to_text())
    return report.exit_code()
