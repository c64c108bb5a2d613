"""`python -m compat COMMAND`: the commands of the compat package itself (`doctor`)."""

import argparse

from compat import doctor

COMMANDS = {"doctor": "list TensorFlow, Keras, tf-keras, the Estimator, tf-slim and a pip line per missing piece"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m compat", description=__doc__.splitlines()[0])
    # Not `required=True`: argparse would then answer an unknown option before the command with "COMMAND is
    # required" instead of naming the option.
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    summary = COMMANDS["doctor"]
    command = commands.add_parser("doctor", help=summary, description=summary)
    command.add_argument(
        "--fix",
        action="store_true",
        help="run the pip line of each missing piece with this Python's pip (pinned for the TensorFlow found, "
        "--no-deps where a dependency would replace it), then report again; steps pip cannot take are listed",
    )
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.command is None:
        parser.error(f"a COMMAND is required: {', '.join(COMMANDS)}")
    return doctor.fix() if args.fix else doctor.main()


if __name__ == "__main__":
    raise SystemExit(main())
