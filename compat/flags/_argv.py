"""Dashed flag names: the platform launches `--train-batch-size=32` for a flag `train_batch_size`.

absl only knows the underscore spelling. We rewrite a `--a-b[=v]` token to `--a_b[=v]` only
when `a_b` (or, for booleans, `noa_b`) is a defined flag and `a-b` is not, so nothing that
absl would have understood changes meaning. Tokens after a lone `--` are left alone.
"""

from collections.abc import Container, Iterable, Sequence


def _dashed_to_defined(name: str, known: Container[str]) -> str:
    if "-" not in name or name in known:
        return name
    underscored = name.replace("-", "_")
    if underscored in known:
        return underscored
    # `--no-sync` / `--no_sync` for a boolean `sync`: absl spells it `--nosync`.
    if underscored.startswith("no_") and underscored[3:] in known:
        return "no" + underscored[3:]
    return name


def normalize_argv(argv: Sequence[str], known_names: Iterable[str]) -> list[str]:
    """Return argv with dashed spellings of known flags rewritten to their defined names."""
    known = set(known_names)
    out = []
    passthrough = False
    for index, arg in enumerate(argv):
        if index == 0 or passthrough or not arg.startswith("-") or arg in ("-", "--"):
            passthrough = passthrough or arg == "--"
            out.append(arg)
            continue
        dashes = "--" if arg.startswith("--") else "-"
        body = arg[len(dashes) :]
        name, sep, value = body.partition("=")
        out.append(dashes + _dashed_to_defined(name, known) + sep + value)
    return out
