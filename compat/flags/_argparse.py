"""The platform flags for scripts that parse their command line with argparse."""

import argparse

from compat.flags._platform import PLATFORM_FLAGS

_TYPES = {"string": str, "integer": int}


def add_platform_flags(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add `--work_dir ... --max_step` (and dashed spellings) to an `argparse.ArgumentParser`.

    Options the script already defines (in either spelling) are left as the script wrote them.
    Returns the parser, so it can be chained.
    """
    taken = set(parser._option_string_actions)  # argparse has no public lookup of defined options
    for spec in PLATFORM_FLAGS:
        spellings = [f"--{spec.name}", f"--{spec.name.replace('_', '-')}"]
        if taken.intersection(spellings):
            continue
        parser.add_argument(
            *dict.fromkeys(spellings),
            dest=spec.name,
            type=_TYPES[spec.kind],
            default=spec.default,
            help=f"{spec.help} (default: {spec.default})",
        )
    return parser
