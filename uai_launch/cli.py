"""The `uai-launch` command line."""

import argparse
import contextlib
import math
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Sequence
from types import FrameType

from compat import tf_config
from compat.cli_errors import fail, main_guard
from compat.outputs import OutputFile, Reads, output_file, output_folder
from uai_launch._errors import LaunchError, reason
from uai_launch._kubeflow import check_name, tfjob_manifest, write_manifest
from uai_launch._layout import LAUNCH_DIALECTS, Layout
from uai_launch._processes import Interrupted, LocalCluster, command_files

GRACE_SECONDS = 10.0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="uai-launch",
        description="Run COMMAND once per task of a local TensorFlow cluster on 127.0.0.1, each process with "
        "its own TF_CONFIG (free ports), output prefixed with the task. Exits with the chief's status, or the "
        "first failure of another task.",
        epilog="example: uai-launch --chief 1 --workers 2 --ps 1 --dialect master -- "
        "python -m modern_tf2.imagenet_main --data_dir /tmp/data --output_dir /tmp/out",
    )
    parser.add_argument("--chief", type=int, default=1, help="0 or 1 chief (master) task (default: 1)")
    parser.add_argument("--workers", type=int, default=1, help="number of worker tasks (default: 1)")
    parser.add_argument("--ps", type=int, default=0, help="number of parameter-server tasks (default: 0)")
    parser.add_argument("--evaluator", action="store_true", help="add one evaluator task")
    parser.add_argument(
        "--dialect",
        choices=LAUNCH_DIALECTS,
        default="master",
        help=f"how TF_CONFIG names the chief: {tf_config.describe(LAUNCH_DIALECTS)} "
        "(default: master, as the platform writes it)",
    )
    parser.add_argument("--log-dir", help="per-task log files go here (default: a new temporary folder)")
    parser.add_argument("--timeout", type=float, help="stop everything and exit 124 if the chief runs longer (seconds)")
    parser.add_argument("--keep-going", action="store_true", help="a failing non-chief task does not end the job")
    parser.add_argument("--print-config", action="store_true", help="print each task's TF_CONFIG and exit")
    parser.add_argument("--kubeflow", metavar="FILE", help="write a Kubeflow TFJob manifest for this layout and exit")
    parser.add_argument("--image", help="container image for --kubeflow")
    parser.add_argument("--name", default="uai-job", help="job name for --kubeflow (default: uai-job)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command each task runs")
    return parser


class _Echo:
    """Copies task output to stdout until stdout is closed (`uai-launch ... | head`); the logs still get all of it."""

    def __init__(self, log_dir: str) -> None:
        self.log_dir = log_dir
        self._lock = threading.Lock()
        self._closed = False

    def __call__(self, data: bytes) -> None:
        with self._lock:
            if self._closed:
                return
            try:
                sys.stdout.buffer.write(data)
                sys.stdout.buffer.flush()
            except BrokenPipeError:
                self._closed = True
                # What is left in Python's stdout buffer would fail again, with a message, at exit.
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
                os.close(devnull)
                print(f"uai-launch: stdout was closed; task output goes on in {self.log_dir}", file=sys.stderr)


def _check_outputs(args: argparse.Namespace, command: Sequence[str]) -> OutputFile | None:
    """Check --log-dir (its log files are checked as the cluster makes them) and --kubeflow; return
    the checked --kubeflow."""
    if args.log_dir is not None:
        output_folder("--log-dir", args.log_dir)
    reads = Reads(command_files(command))
    return output_file("--kubeflow", args.kubeflow, reads) if args.kubeflow is not None else None


def _check_options(args: argparse.Namespace) -> None:
    if args.timeout is not None and not (math.isfinite(args.timeout) and args.timeout > 0):
        raise LaunchError("--timeout", f"must be a positive number of seconds, got {args.timeout}")
    for option, value in (("--log-dir", args.log_dir), ("--kubeflow", args.kubeflow), ("--image", args.image)):
        if value == "":
            raise LaunchError(option, "must not be empty")
    if args.kubeflow is not None:
        check_name(args.name)
        if args.image is None:
            raise LaunchError("--image", "--kubeflow needs the container image each task runs")


def parse(argv: Sequence[str] | None = None) -> tuple[Layout, list[str], argparse.Namespace]:
    """(layout, command, options) of a command line; `LaunchError`/`TFConfigError`/`OutputPathError`, or
    argparse's exit 2, if bad. `options.kubeflow_file` is the checked --kubeflow.

    Only checks: opens nothing, starts nothing.
    """
    args = build_parser().parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    layout = Layout(chief=args.chief, workers=args.workers, ps=args.ps, evaluator=args.evaluator, dialect=args.dialect)
    layout.validate()
    _check_options(args)
    args.kubeflow_file = _check_outputs(args, command)
    return layout, command, args


def _temporary_log_dir() -> str:
    try:
        return tempfile.mkdtemp(prefix="uai-launch-")
    except OSError as err:
        raise LaunchError("--log-dir", f"no temporary folder for the logs ({reason(err)}): give one") from None


def _run(layout: Layout, command: list[str], args: argparse.Namespace) -> int:
    if args.log_dir is not None:
        return _run_cluster(layout, command, args, args.log_dir)
    log_dir = _temporary_log_dir()
    try:
        return _run_cluster(layout, command, args, log_dir)
    finally:
        # a cluster that never started (its command not found, no free port) wrote no log: its folder goes too
        with contextlib.suppress(OSError):
            os.rmdir(log_dir)  # (an empty folder only: logs are kept)


def _run_cluster(layout: Layout, command: list[str], args: argparse.Namespace, log_dir: str) -> int:
    # A subreaper: uai-launch runs nothing but the cluster, so every process it adopts is the tasks'.
    cluster = LocalCluster(layout, command, log_dir, echo=_Echo(log_dir), keep_going=args.keep_going, subreaper=True)

    def interrupt(signum: int, _frame: FrameType | None) -> None:
        # The first Ctrl-C / SIGTERM reaches every task's process group, so tasks can save and exit;
        # the next one kills them. Installed until every task is stopped: nothing raises midway.
        cluster.interrupt(signum)

    previous = {sig: signal.signal(sig, interrupt) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        cluster.start()
        print(f"uai-launch: {len(layout.tasks())} tasks, logs in {log_dir}", file=sys.stderr, flush=True)
        status = None
        try:
            status = cluster.wait(timeout=args.timeout)
        except Interrupted:
            pass  # it set cluster.interrupted: the status is the signal's, below
        except TimeoutError as err:
            print(f"uai-launch: {err}; stopping all tasks", file=sys.stderr)
            return 124
        if cluster.interrupted is not None:
            print("uai-launch: interrupted; stopping all tasks", file=sys.stderr, flush=True)
            cluster.wait_all(GRACE_SECONDS)
            return 128 + cluster.interrupted  # the shell's status for death by that signal: 130, 143
        assert status is not None  # only Interrupted leaves it unset, and that sets cluster.interrupted
        return status
    finally:
        cluster.stop()
        # The outcome is decided: a later SIGINT/SIGTERM (a third Ctrl-C, a SIGTERM sent twice) stays pending
        # until the process ends. Left deliverable, it killed uai-launch by the default action once Python's
        # exit had put that back (-15 instead of 143: the repeated-signals test, 1 run in 2 under load).
        signal.pthread_sigmask(signal.SIG_BLOCK, previous)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@main_guard
def main(argv: Sequence[str] | None = None) -> int:
    try:
        layout, command, args = parse(argv)
        if args.print_config:
            for task, config in layout.task_configs(layout.cluster()).items():
                print(f"{task}\t{config}")
            return 0
        if not command:
            fail("no command given: put it after `--`, e.g. uai-launch --workers 2 -- python train.py")
        if args.kubeflow is not None:
            write_manifest(args.kubeflow_file, tfjob_manifest(layout, command, args.image, name=args.name))
            print(
                f"uai-launch: wrote TFJob manifest {args.kubeflow} (kubectl apply -f {args.kubeflow})", file=sys.stderr
            )
            return 0
        return _run(layout, command, args)
    except KeyboardInterrupt:  # before the tasks' signal handling is in place, or after it is gone
        print("uai-launch: interrupted", file=sys.stderr)
        return 128 + signal.SIGINT


if __name__ == "__main__":
    sys.exit(main())
