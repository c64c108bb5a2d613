"""`python -m compat COMMAND`: the commands of the compat package itself (`doctor`)."""

import argparse

from compat import doctor

COMMANDS = {"doctor": "list TensorFlow, Keras, tf-keras, the Estimator, tf-slim and a pip line per missing piece"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m compat", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, summary in COMMANDS.items():
        commands.add_parser(name, help=summary, description=summary)
    parser.parse_args(argv)
    return doctor.main()


if __name__ == "__main__":
    raise SystemExit(main())
