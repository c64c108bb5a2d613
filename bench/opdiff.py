"""Which op first computes another value than on TF 1.15: one training step's every op output, compared by name.

    python3 bench/opdiff.py --only NAME ... [--ways "uai-run 2.21" ...] [--run N] [--dumps DIR]
    python3 bench/opdiff.py --compare DUMP_A DUMP_B

Runs bench/reference.py's programs (its data, trees, arguments and ways; its table is printed too) with
bench/opdiff_hook on PYTHONPATH: in each run, TensorFlow's own debugger (tfdbg's `watch_graph`, DebugIdentity
ops writing to a file:// root) dumps every op's output of the first main-thread `session.run` that runs an
optimizer op (`--train-ops`, a regular expression over op types; `--run N`: the N-th main-thread run), on
TF 1.15 (standalone there: our packages do not import on Python 3.7) as on TF 2.x. Each way's dump is then
matched with 1.15's by tensor name, and the report names:
  the first differing tensor in 1.15's execution order, with its op type on each side and the difference;
  the origins: tensors that differ while no input of their op (on either side) carries a difference (the
  ops whose kernel, or whose inputs from outside the step, computed another value: a VariableV2 there is
  another initial weight, an IteratorGetNext or a dequeue another batch, a MatMul or a FusedBatchNorm
  another rounding), in 1.15's execution order.
A tensor that one side's dump lacks (TF 2's graph optimizations fuse, fold or rename some: a Switch, a
_FusedMatMul) is not compared, but carries a difference on when it is computed from one that differs. An
origin's inputs are also compared by position, each side's value from its own dump: `=` equal, `x`
different (another argument, as an empty constant on one side and a moving average on the other), `?` not
dumped (resources, variants).
"""

import argparse
import glob
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterable
from typing import NamedTuple

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOOK = os.path.join(REPO, "bench", "opdiff_hook")
sys.path.insert(0, REPO)
# ops whose output is memory allocated and not written yet (parallel_stack's start) or filled in place by
# other ops while it is dumped (parallel_stack's updates): any value, not compared
UNINITIALIZED = {"_ParallelConcatStart", "_ParallelConcatUpdate", "Empty"}


class Tensor(NamedTuple):
    name: str  # node:slot
    op: str  # the op type that ran (after TF's graph optimizations)
    inputs: list[str]  # node:slot, control inputs left out
    order: int  # position in the run's execution order (dump timestamps)
    value: "np.ndarray | None"  # None: a dtype tfdbg does not convert (resources, variants)


class Difference(NamedTuple):
    differing: int  # elements that differ (all of them when the shapes do)
    size: int
    max_abs: float  # nan for non-numbers
    max_rel: float
    shapes: str = ""  # "(8,) against (8, 1)" when the shapes differ

    def __str__(self) -> str:
        if self.shapes:
            return f"shapes differ: {self.shapes}"
        if np.isnan(self.max_abs):
            return f"{self.differing} of {self.size} values differ"
        return f"{self.differing} of {self.size} values differ, by at most {self.max_abs:.2e} ({self.max_rel:.2e} relative)"


class Report(NamedTuple):
    compared: int  # tensors in both dumps
    only_a: int
    only_b: int
    differing: list[tuple[Tensor, Tensor, Difference]]  # in A's execution order
    origins: list[tuple[Tensor, Tensor, Difference, list["bool | None"]]]  # ... and its inputs compared by position


def load(folder: str) -> dict[str, Tensor]:
    """One dump (a folder bench/opdiff_hook wrote: ops.json and tensors.npz), by tensor name."""
    with open(os.path.join(folder, "ops.json")) as handle:
        ops = json.load(handle)["ops"]
    with np.load(os.path.join(folder, "tensors.npz")) as arrays:
        return {
            op["tensor"]: Tensor(op["tensor"], op["op"], op["inputs"], order, arrays[op["key"]] if op["key"] else None)
            for order, op in enumerate(ops)
        }


def difference(a: "np.ndarray | None", b: "np.ndarray | None") -> "Difference | None":
    """None when equal (bit for bit for numbers, NaN equal to NaN; in row-major order where only the shapes
    differ and not the sizes), or how they differ."""
    if a is None or b is None:
        return None
    if a.shape != b.shape and a.size == b.size:  # a gradient's Sum kept its dims on one side: values compared
        return difference(a.reshape(-1), b.reshape(-1))
    if a.shape != b.shape:
        size = max(a.size, b.size)
        return Difference(size, size, float("nan"), float("nan"), f"{a.shape} against {b.shape}")
    numeric = a.dtype.kind in "fciub" and b.dtype.kind in "fciub"
    if not numeric:
        unequal = a != b
        count = int(np.count_nonzero(unequal))
        return Difference(count, a.size, float("nan"), float("nan")) if count else None
    x, y = a.astype(np.float64), b.astype(np.float64)
    unequal = ~((x == y) | (np.isnan(x) & np.isnan(y)))
    count = int(np.count_nonzero(unequal))
    if not count:
        return None
    gap = np.abs(x - y)[unequal]
    scale = np.maximum(np.abs(x), np.abs(y))[unequal]
    relative = np.where(scale > 0, gap / np.where(scale > 0, scale, 1), 0)
    return Difference(count, a.size, float(np.nanmax(gap)), float(np.nanmax(relative)))


def _positional(tensor_a: Tensor, tensor_b: Tensor, a: dict[str, Tensor], b: dict[str, Tensor]) -> list["bool | None"]:
    """The op's inputs position by position, each side's value from its own dump (names may differ: a graph
    optimization or another builder may have renamed a Switch): True equal, False different, None not known."""
    found: list[bool | None] = []
    for name_a, name_b in zip(tensor_a.inputs, tensor_b.inputs):
        value_a = a[name_a].value if name_a in a else None
        value_b = b[name_b].value if name_b in b else None
        found.append(None if value_a is None or value_b is None else difference(value_a, value_b) is None)
    return found + [None] * abs(len(tensor_a.inputs) - len(tensor_b.inputs))


def _carriers(side: dict[str, Tensor], differs: dict[str, "Difference | None"]) -> set[str]:
    """The tensors of one dump that carry a difference: those that differ from the other dump's namesake, and
    those the other dump lacks (a renamed Switch, a fused op) computed from one that carries it."""
    carrying: set[str] = {name for name, found in differs.items() if found is not None}
    for tensor in side.values():  # the execution order: inputs come first (a loop's back edges aside)
        if tensor.name not in differs and any(name in carrying for name in tensor.inputs):
            carrying.add(tensor.name)
    return carrying


def compare(a: dict[str, Tensor], b: dict[str, Tensor]) -> Report:
    """B's tensors against A's (A: the reference), by name."""
    common = [name for name in a if name in b and not {a[name].op, b[name].op} & UNINITIALIZED]
    differs = {name: difference(a[name].value, b[name].value) for name in common}
    differing = [(a[name], b[name], found) for name, found in differs.items() if found is not None]
    carrying_a, carrying_b = _carriers(a, differs), _carriers(b, differs)
    origins = []
    seen_ops = set()
    for tensor_a, tensor_b, found in differing:
        node = tensor_a.name.rsplit(":", 1)[0]
        if node in seen_ops:
            continue
        seen_ops.add(node)
        if any(name in carrying_a for name in tensor_a.inputs) or any(name in carrying_b for name in tensor_b.inputs):
            continue
        origins.append((tensor_a, tensor_b, found, _positional(tensor_a, tensor_b, a, b)))
    return Report(len(common), len(a) - len(common), len(b) - len(common), differing, origins)


def _describe(tensor_a: Tensor, tensor_b: Tensor, found: Difference) -> str:
    ops = tensor_a.op if tensor_a.op == tensor_b.op else f"{tensor_a.op} / {tensor_b.op}"
    return f"{tensor_a.name} ({ops}): {found}"


def report_lines(report: Report, limit: int = 10) -> list[str]:
    """What the command prints for one comparison."""
    lines = [
        f"{report.compared} tensors compared ({report.only_a} of the reference's only, {report.only_b} of the other's)"
    ]
    if not report.differing:
        return lines + ["no difference"]
    lines.append(f"{len(report.differing)} differ; the first, in the reference's execution order:")
    lines.append("  " + _describe(*report.differing[0]))
    lines.append(f"origins (differ, no input carrying a difference): {len(report.origins)}")
    for tensor_a, tensor_b, found, positions in report.origins[:limit]:
        note = ""
        if positions:
            marks = "".join("=" if same else "?" if same is None else "x" for same in positions)
            note = f" [inputs by position: {marks}]"
        lines.append("  " + _describe(tensor_a, tensor_b, found) + note)
    if len(report.origins) > limit:
        lines.append(f"  ... {len(report.origins) - limit} more")
    return lines


def dumps(folder: str) -> list[str]:
    """The dumps under a folder (one per process that ran a dumped step)."""
    return sorted(os.path.dirname(path) for path in glob.glob(os.path.join(folder, "**", "ops.json"), recursive=True))


def _dumping(command: Callable[[str, str], tuple[list[str], dict]], root: str) -> Callable:
    """reference.py's `command` with the dumper on PYTHONPATH, each (program, way) dumping into its own folder."""

    def wrapped(way: str, script: str) -> tuple[list[str], dict]:
        argv, extra = command(way, script)
        extra["PYTHONPATH"] = HOOK + os.pathsep + extra["PYTHONPATH"]
        extra["OPDIFF_DIR"] = os.path.join(root, os.path.basename(script), way.replace(" ", "_"))
        return argv, extra

    return wrapped


def run_programs(names: Iterable[str], ways: list[str], root: str, extra: list[str]) -> None:
    """reference.py's runs of `names` in `ways` (1.15 too), each dumping one step under `root`."""
    from bench import reference

    reference.command = _dumping(reference.command, root)
    reference.main(["--only", *names, "--ways", *ways, "--workers", "1", *extra])


def main(argv: "list[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--only", nargs="+", metavar="NAME", help="bench/reference.py's programs to run and compare")
    which.add_argument("--compare", nargs=2, metavar="DUMP", help="two dump folders: the reference's, the other's")
    parser.add_argument("--ways", nargs="+", default=["uai-run 2.15", "uai-run 2.21"], help="reference.py's ways")
    parser.add_argument(
        "--run", type=int, default=0, help="dump the N-th main-thread session.run (default: the first training step)"
    )
    parser.add_argument("--train-ops", default=r"^(Resource)?(Sparse)?Apply", help="op types that mark a training step")
    parser.add_argument("--dumps", help="keep the dumps here (default: a temporary folder)")
    parser.add_argument("--limit", type=int, default=10, help="origins printed per comparison")
    parser.add_argument("--ordered-input", action="store_true", help="passed to reference.py")
    options = parser.parse_args(argv)
    if options.compare:
        print("\n".join(report_lines(compare(load(options.compare[0]), load(options.compare[1])), options.limit)))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        root = options.dumps or tmp
        os.environ.update(OPDIFF_RUN=str(options.run), OPDIFF_TRAIN_OPS=options.train_ops)
        run_programs(options.only, options.ways, root, ["--ordered-input"] * options.ordered_input)
        for program in sorted(os.listdir(root)):
            found = {way: dumps(os.path.join(root, program, way)) for way in os.listdir(os.path.join(root, program))}
            reference = found.pop("tf1.15", [])
            for way, paths in sorted(found.items()):
                print(f"\n{program}: {way.replace('_', ' ')} against tf1.15")
                if len(reference) != 1 or len(paths) != 1:
                    print(f"  not compared: {len(reference)} and {len(paths)} dumps (one each expected)")
                    continue
                lines = report_lines(compare(load(reference[0]), load(paths[0])), options.limit)
                print("\n".join("  " + line for line in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
