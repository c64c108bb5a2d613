"""`python -m compat.tf_config`: show the cluster in TF_CONFIG, or convert it to another dialect."""

import argparse
import json
import sys
from collections.abc import Sequence

from compat.cli_errors import main_guard
from compat.tf_config import DIALECTS, ClusterConfig, describe, from_environment, from_string, to_dict


def _summary(config: ClusterConfig) -> str:
    if not config.is_distributed:
        if config.source:
            return f"no cluster: {config.source} is set but its 'cluster' is missing or empty (local run)"
        return "no cluster: TF_CONFIG and CLUSTER_SPEC are unset (local run)"
    lines = [f"dialect: {config.dialect}"]
    for job, addresses in config.cluster.items():
        lines.append(f"{job}: {', '.join(addresses)}")
    if config.task:
        lines.append(f"this task: {config.task} at {config.task_address or '(outside the cluster)'}")
        lines.append(
            f"chief: {'yes' if config.is_chief else 'no'}; workers incl. chief: {config.num_workers}; "
            f"global worker id: {config.global_worker_id}"
        )
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m compat.tf_config",
        description="Validate a TF_CONFIG (from the environment, or --config) and print it, or convert it "
        "to another dialect with --to.",
    )
    parser.add_argument("--config", help="TF_CONFIG JSON text to read instead of the environment ('-' for stdin)")
    parser.add_argument(
        "--to",
        choices=sorted(DIALECTS),
        help=f"print TF_CONFIG in this dialect: {describe()}",
    )
    return parser


@main_guard
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.config is None:
        config = from_environment()
    else:
        config = from_string(sys.stdin.read() if args.config == "-" else args.config, source="--config")
    if args.to:
        print(json.dumps(to_dict(config, args.to), indent=2, sort_keys=True))
    else:
        print(_summary(config))
    return 0


if __name__ == "__main__":
    sys.exit(main())
