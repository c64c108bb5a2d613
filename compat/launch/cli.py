"""The `uai-launch` command line."""

import argparse
import json
import os
import signal
import sys
import tempfile

from compat.cli import fail, main_guard
from compat.launch._kubeflow import tfjob_manifest, write_manifest
from compat.launch._layout import LAUNCH_DIALECTS, Layout
from compat.launch._processes import LocalCluster

GRACE_SECONDS = 10.0


def build_parser():
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
        help="how TF_CONFIG names the chief: master (the platform, Estimator), chief (TF2), kubeflow, sagemaker "
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


def _write(data):
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _run(layout, command, args):
    log_dir = args.log_dir or tempfile.mkdtemp(prefix="uai-launch-")
    cluster = LocalCluster(layout, command, log_dir, echo=_write, keep_going=args.keep_going)
    print(f"uai-launch: {len(layout.tasks())} tasks, logs in {log_dir}", file=sys.stderr, flush=True)

    def forward(signum, _frame):
        # Ctrl-C / SIGTERM reach every task's process group; tasks get a moment to save and
        # exit on their own before the `finally` below stops what is left.
        cluster.signal_all(signum)
        raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        cluster.start()
        return cluster.wait(timeout=args.timeout)
    except TimeoutError as err:
        print(f"uai-launch: {err}; stopping all tasks", file=sys.stderr)
        return 124
    except KeyboardInterrupt:
        print("uai-launch: interrupted; stopping all tasks", file=sys.stderr)
        cluster.wait_all(GRACE_SECONDS)
        return 130
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        cluster.stop()


@main_guard
def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    layout = Layout(chief=args.chief, workers=args.workers, ps=args.ps, evaluator=args.evaluator, dialect=args.dialect)
    layout.validate()
    if args.print_config:
        cluster = layout.cluster()
        for task, config in layout.task_configs(cluster).items():
            print(f"{task}\t{config}")
        return 0
    if not command:
        fail("no command given: put it after `--`, e.g. uai-launch --workers 2 -- python train.py")
    if args.kubeflow:
        if not args.image:
            fail("--kubeflow needs --image (the container image each task runs)")
        write_manifest(args.kubeflow, tfjob_manifest(layout, command, args.image, name=args.name))
        print(f"uai-launch: wrote TFJob manifest {args.kubeflow} (kubectl apply -f {args.kubeflow})", file=sys.stderr)
        return 0
    return _run(layout, command, args)


if __name__ == "__main__":
    sys.exit(main())
