"""`run(main)`: what `tf.app.run` did, on absl."""

import sys

from absl import app as absl_app
from absl import flags as absl_flags

from compat.cli import fail


def _parse_tolerating_unknown(argv):
    # TF1's tf.app.run tolerated flags it did not know and handed them to main(argv): scripts
    # that parse the rest with argparse rely on that.
    from compat.flags._registry import FLAGS

    try:
        return FLAGS(argv, known_only=True)
    except absl_flags.Error as err:
        fail(f"{err} (--helpfull lists the flags)")


def run(main=None, argv=None):
    """Parse flags from argv (dashed names accepted) and call `main(remaining_argv)`; exit with its result."""
    if main is None:
        main = sys.modules["__main__"].main
    absl_app.run(main, argv=argv, flags_parser=_parse_tolerating_unknown)
