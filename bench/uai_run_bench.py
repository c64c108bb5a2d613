"""What `uai-run` costs: start-up of its import hook, and training step time plain vs under uai-run.

    python bench/uai_run_bench.py [--rounds 3] [--starts 5] [--steps 60] [--interval 20] [--batch 32] [--startup-only]

Start-up (target: the hook adds < 5%): wall time of a fresh process that reaches TF1 graph mode,
  ported   `python ported.py`: what uai-migrate's output does first (`import compat`,
           `compat.install()`, `import tensorflow as tf`, `tf.compat.v1.disable_v2_behavior()`)
  uai-run  `python -m uai_run tf1.py`: the unmodified `import tensorflow as tf`
both building and running one op; the two alternate, `--starts` times each per round, median.
Wall time and CPU time (user + system of the process): on a shared machine the wall time of a
start follows the load, its CPU time much less.
Training (target: nothing measurable): train_bench's native TF1 loop (`native_tf1`: the tiny
ResNet's `Session.run(train_op)`) in a fresh process, plain and under uai-run, alternating per
round, on the same generated TFRecords; images/s of each interval of `--interval` steps, the first
(warm-up) dropped, median. The machine is shared: the load average is printed with the figures.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
PORTED = """import compat
compat.install()
import tensorflow as tf
tf.compat.v1.disable_v2_behavior()
print(tf.compat.v1.Session().run(tf.constant(1.0) + 1.0))
"""
TF1 = """import tensorflow as tf
print(tf.Session().run(tf.constant(1.0) + 1.0))
"""


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (REPO, env.get("PYTHONPATH")) if p)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    env.pop("TF_USE_LEGACY_KERAS", None)  # compat chooses, as in a user's shell
    return env


def _cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(command):
    """(wall seconds, CPU seconds, stdout) of one process (run one at a time: RUSAGE_CHILDREN sums them)."""
    start, cpu = time.perf_counter(), _cpu()
    result = subprocess.run(command, env=_env(), capture_output=True, text=True, cwd=REPO)
    elapsed, used = time.perf_counter() - start, _cpu() - cpu
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{result.stderr[-3000:]}")
    return elapsed, used, result.stdout


def startup(folder, starts):
    """{variant: [(wall, CPU) seconds of each start]}, the two variants alternating."""
    scripts = {"ported": os.path.join(folder, "ported.py"), "uai-run": os.path.join(folder, "tf1.py")}
    for path, text in zip(scripts.values(), (PORTED, TF1)):
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    commands = {
        "ported": [sys.executable, scripts["ported"]],
        "uai-run": [sys.executable, "-m", "uai_run", scripts["uai-run"]],
    }
    times = {name: [] for name in commands}
    for index in range(starts):
        for name in list(commands) if index % 2 == 0 else list(reversed(commands)):
            times[name].append(_run(commands[name])[:2])
    return times


def training(data_dir, args, flip):
    """{variant: images/s}: a fresh process each, train_bench's native_tf1 loop."""
    child = [
        __file__,
        "--child",
        data_dir,
        "--steps",
        str(args.steps),
        "--interval",
        str(args.interval),
        "--batch",
        str(args.batch),
    ]
    commands = {"plain": [sys.executable, *child], "uai-run": [sys.executable, "-m", "uai_run", *child]}
    rates = {}
    for name in list(commands) if not flip else list(reversed(commands)):
        rates[name] = json.loads(_run(commands[name])[2].strip().splitlines()[-1])["images_per_s"]
    return rates


def child(args):
    """Run train_bench's native TF1 loop here (plain or under uai-run) and print its median images/s."""
    sys.path.insert(0, BENCH)
    import train_bench

    stream = train_bench.native_tf1(args.child, args)
    try:
        rates = [next(stream) for _ in range(args.steps // args.interval)]
    finally:
        stream.close()
    print(json.dumps({"images_per_s": statistics.median(rates[1:])}))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default: 3)")
    parser.add_argument("--starts", type=int, default=5, help="starts of each variant per round (default: 5)")
    parser.add_argument("--steps", type=int, default=60, help="training steps per process (default: 60)")
    parser.add_argument("--interval", type=int, default=20, help="steps per measured interval (default: 20)")
    parser.add_argument("--batch", type=int, default=32, help="batch (default: 32)")
    parser.add_argument("--startup-only", action="store_true", help="measure the start-up only, not training")
    parser.add_argument("--child", metavar="DATA_DIR", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args)
    if args.steps < 2 * args.interval:
        parser.error("--steps: at least two intervals (the first is warm-up)")
    load_before = os.getloadavg()
    starts = {"ported": [], "uai-run": []}
    rates = {"plain": [], "uai-run": []}
    with tempfile.TemporaryDirectory() as folder:
        if not args.startup_only:
            _run(
                [
                    sys.executable,
                    "-m",
                    "trainlib.data.synth",
                    "--out",
                    folder,
                    "--train-shards",
                    "1",
                    "--validation-shards",
                    "1",
                    "--images",
                    "256",
                    "--size",
                    "40",
                ]
            )
        for flip in range(args.rounds):
            for name, values in startup(folder, args.starts).items():
                starts[name].extend(values)
            if not args.startup_only:
                for name, value in training(folder, args, flip % 2).items():
                    rates[name].append(value)
    (ported, ported_cpu), (hooked, hooked_cpu) = (
        [statistics.median(values) for values in zip(*starts[name])] for name in ("ported", "uai-run")
    )
    print(
        f"{args.rounds} rounds; start-up: {args.starts} starts of each per round; training: {args.steps} steps, batch {args.batch}"
    )
    print(
        f"start-up  ported {ported:.2f} s  uai-run {hooked:.2f} s  overhead {100 * (hooked / ported - 1):+.1f}%  (target < 5%)"
    )
    print(
        f"start-up CPU  ported {ported_cpu:.2f} s  uai-run {hooked_cpu:.2f} s  "
        f"overhead {100 * (hooked_cpu / ported_cpu - 1):+.1f}%"
    )
    if not args.startup_only:
        plain, under = statistics.median(rates["plain"]), statistics.median(rates["uai-run"])
        print(f"training  plain {plain:.0f} images/s  uai-run {under:.0f} images/s  ratio {under / plain:.3f}")
    print(
        "load average (1/5/15 min) at start {:.2f} {:.2f} {:.2f}, at end {:.2f} {:.2f} {:.2f}".format(
            *load_before, *os.getloadavg()
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
