"""Where CI's CPU goes: the per-test CPU seconds tests/support/cpu_times.py recorded, summed per job and file.

    PYTEST_ADDOPTS="-p tests.support.cpu_times" UAI_CPU_TIMES=/tmp/cpu CI=true bash .ci/run
    python3 bench/ci_cpu.py /tmp/cpu [--most 30]

A job is one pytest process (a suite's part, the TF-range smoke); a test's CPU is its own process's and
that of the subprocesses it waited for (TensorFlow programs, clusters), which is most of it.
"""

import argparse
import glob
import json
import os
from collections import defaultdict


def load(folder: str) -> list[dict]:
    """Every row of the folder's files."""
    rows = []
    for path in sorted(glob.glob(os.path.join(folder, "*.jsonl"))):
        with open(path, encoding="utf-8") as lines:
            rows.extend(json.loads(line) for line in lines if line.strip())
    return rows


def _name(row: dict, key: str) -> str:
    """The row's name in the `key` table ("job", "file" or "test")."""
    if key == "file":
        return row["test"].split("::")[0]
    return f"{row['job']} #{row['pid']}" if key == "job" else row["test"]


def totals(rows: list[dict], key: str) -> list[tuple[str, float, int]]:
    """(key value, CPU seconds, tests) per `key` ("job", "file" or "test"), the largest first."""
    cpu: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    for row in rows:
        name = _name(row, key)
        cpu[name] += row["own"] + row["children"]
        count[name] += 1
    return sorted(((name, cpu[name], count[name]) for name in cpu), key=lambda item: -item[1])


def setups(rows: list[dict], key: str) -> dict[str, float]:
    """The CPU seconds of fixtures' setup within each `key` total: a module or session fixture is charged to the
    first test asking for it, so a large row may be a shared fixture's (rows written before the field count 0)."""
    found: dict[str, float] = defaultdict(float)
    for row in rows:
        found[_name(row, key)] += row.get("setup", 0.0)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", help="the UAI_CPU_TIMES folder of a run")
    parser.add_argument("--most", type=int, default=30, help="rows of the file and test tables (default 30)")
    args = parser.parse_args(argv)
    rows = load(args.folder)
    if not rows:
        parser.error(f"no rows in {args.folder}")
    print(f"{sum(r['own'] + r['children'] for r in rows):.0f} CPU-s over {len(rows)} tests")
    for key, most in (("job", None), ("file", args.most), ("test", args.most)):
        print(f"\nper {key} (CPU-s, of which fixtures' setup, tests):")
        setup = setups(rows, key)
        for name, cpu, count in totals(rows, key)[:most]:
            print(f"{cpu:8.1f}  {setup[name]:7.1f}  {count:4d}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
