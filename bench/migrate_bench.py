"""uai-migrate speed on a generated tree of TF1-style code, against tf_upgrade_v2 and libcst's floor.

    python bench/migrate_bench.py [--lines 40000] [--jobs N] [--rounds 3] [--keep DIR]
    python bench/migrate_bench.py --sizes 1000,5000,20000,50000   (per-line cost of one module by size)
    python bench/migrate_bench.py --profile DIR     (where the time goes on a tree: engine phases, each rule)
    python bench/migrate_bench.py --memory 50000    (peak memory of one module's migration against its parse)

Each round measures, on the same files (wall time, each tool in its own process):
  tf_upgrade_v2 --intree      TensorFlow's own upgrade script (tf2 env), TF import included
  floor                        libcst parse + code generation of every file, no transforms, one process
  no-op transformer            the floor plus one libcst transformer pass that changes nothing
  uai-migrate -j1 / -jN        first run (empty cache), migrated copy written with --out
  uai-migrate rerun            same tree again, result cache warm
The machine is shared and its load swings within a minute, so one pass is not a measurement:
the rows run in turn, round after round (order reversed every other round), and the table shows
each row's median wall time and the median of its per-round ratios. Targets: <= 0.5x
tf_upgrade_v2, <= 1.5x the floor, re-run <= 0.1x.
"""

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLOOR = """
import pathlib, sys, libcst
visit = sys.argv[2] == "visit"
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.py")):
    module = libcst.parse_module(path.read_text())
    (module.visit(libcst.CSTTransformer()) if visit else module).code
"""
FLOOR_ROW = "floor: libcst parse + codegen (1 process)"

HEADER = '''"""Generated TF1-era training module {index}."""
import os

import numpy as np
import tensorflow as tf
{slim_import}
from uaitrain.arch.tensorflow import uflag

flags = tf.app.flags
flags.DEFINE_integer("batch_size_{index}", 32, "images per step")
flags.DEFINE_float("learning_rate_{index}", 0.1, "initial learning rate")
tf.app.flags.DEFINE_string("model_dir_{index}", "/tmp/model", "checkpoints")
FLAGS = tf.app.flags.FLAGS
'''

SLIM_IMPORTS = [
    "import tensorflow.contrib.slim as slim",
    "from tensorflow.contrib import slim",
    "slim = tf.contrib.slim",
]

BLOCKS = [
    '''

def conv_block_{n}(inputs, filters, is_training):
    """A conv - batch norm - relu block."""
    with tf.variable_scope("block_{n}"):
        net = tf.layers.conv2d(inputs, filters, 3, padding="same", use_bias=False)
        net = tf.layers.batch_normalization(net, training=is_training)
        net = tf.nn.relu(net)
        if filters > 64:
            net = tf.layers.max_pooling2d(net, 2, 2)
        return net
''',
    """

def slim_head_{n}(net, num_classes, keep_prob=0.8):
    with slim.arg_scope([slim.fully_connected], activation_fn=tf.nn.relu):
        net = slim.flatten(net)
        net = slim.fully_connected(net, 256, scope="fc_{n}")
        net = tf.nn.dropout(net, keep_prob=keep_prob)
        logits = slim.fully_connected(net, num_classes, activation_fn=None, scope="logits_{n}")
    return logits
""",
    """

def loss_{n}(logits, labels, weight_decay=1e-4):
    cross_entropy = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    l2 = weight_decay * tf.add_n([tf.nn.l2_loss(v) for v in tf.trainable_variables()])
    tf.summary.scalar("cross_entropy_{n}", cross_entropy)
    accuracy = tf.reduce_mean(tf.to_float(tf.equal(tf.argmax(logits, 1), labels)), reduction_indices=[0])
    return cross_entropy + l2, accuracy
""",
    """

def train_op_{n}(total_loss, global_step):
    learning_rate = tf.train.piecewise_constant(global_step, [1000, 2000], [0.1, 0.01, 0.001])
    optimizer = tf.train.MomentumOptimizer(learning_rate, momentum=0.9)
    update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    with tf.control_dependencies(update_ops):
        return optimizer.minimize(total_loss, global_step=global_step)
""",
    """

def input_fn_{n}(data_dir, batch_size):
    files = tf.gfile.Glob(os.path.join(data_dir, "train-*"))

    def parse(record):
        features = tf.parse_single_example(record, {{
            "image/encoded": tf.FixedLenFeature([], tf.string),
            "image/class/label": tf.FixedLenFeature([], tf.int64),
        }})
        image = tf.image.decode_jpeg(features["image/encoded"], channels=3)
        image = tf.image.resize_images(image, [32, 32])
        return image, features["image/class/label"]

    dataset = tf.data.TFRecordDataset(files).map(parse).shuffle(1024).repeat()
    return dataset.batch(batch_size).make_one_shot_iterator().get_next()
""",
    """

def run_session_{n}(train_op, loss, steps):
    init = tf.global_variables_initializer()
    config = tf.ConfigProto(allow_soft_placement=True)
    with tf.Session(config=config) as sess:
        sess.run(init)
        for step in range(steps):
            _, value = sess.run([train_op, loss])
            if step % 10 == 0:
                tf.logging.info("step %d loss %.3f", step, value)
    return value
""",
    '''

class Model_{n}(object):
    """A small model object, as TF1 code often had."""

    def __init__(self, num_classes, data_format="channels_last"):
        self.num_classes = num_classes
        self.data_format = data_format

    def __call__(self, inputs, training):
        net = tf.layers.conv2d(inputs, 16, 3, data_format=self.data_format)
        net = tf.layers.flatten(net)
        return tf.layers.dense(net, self.num_classes)
''',
]

FOOTER = """

def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    return FLAGS.batch_size_{index}


if __name__ == "__main__":
    tf.app.run()
"""


def generate(root, lines):
    """Write TF1-style modules under `root` until they hold at least `lines` lines; return the count."""
    rng = random.Random(7)
    total = index = 0
    while total < lines:
        parts = [HEADER.format(index=index, slim_import=SLIM_IMPORTS[index % 3])]
        parts += [rng.choice(BLOCKS).format(n=n) for n in range(rng.randint(8, 16))]
        parts.append(FOOTER.format(index=index))
        text = "".join(parts)
        path = os.path.join(root, f"pkg{index % 10}", f"model_{index}.py")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(text)
        total += text.count("\n")
        index += 1
    return total, index


def generate_module(lines: int) -> str:
    """One TF1-style module of at least `lines` lines (the blocks of `generate`, numbered on)."""
    rng = random.Random(7)
    parts = [HEADER.format(index=0, slim_import=SLIM_IMPORTS[0])]
    total, n = parts[0].count("\n"), 0
    while total < lines:
        parts.append(rng.choice(BLOCKS).format(n=n))
        total += parts[-1].count("\n")
        n += 1
    parts.append(FOOTER.format(index=0))
    return "".join(parts)


def per_line(sizes: list) -> None:
    """Migrate one generated module of each size in this process: CPU time and calls per line, and
    the peak memory of the migration against the size of the module's libcst parse tree."""
    import cProfile
    import pstats
    import tracemalloc

    sys.path.insert(0, REPO)
    sys.setrecursionlimit(10_000)
    import libcst

    from codemods import _migrate_file as _engine

    options = _engine.Options()
    _engine.migrate("python", generate_module(1000).encode(), options)  # the tables the rules load on first use
    print(
        f"{'lines':>7} {'CPU s':>7} {'us/line':>8} {'calls/line':>10} {'peak MiB':>9} {'tree MiB':>9} {'peak/tree':>9}"
    )
    for size in sizes:
        data = generate_module(size).encode()
        lines = data.count(b"\n")
        start = time.process_time()
        _engine.migrate("python", data, options)
        cpu = time.process_time() - start
        profile = cProfile.Profile()
        profile.runcall(_engine.migrate, "python", data, options)
        calls = pstats.Stats(profile).total_calls
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        tree = libcst.parse_module(data.decode())
        tree_bytes = tracemalloc.get_traced_memory()[0] - before
        del tree
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        _engine.migrate("python", data, options)
        peak = tracemalloc.get_traced_memory()[1] - before
        tracemalloc.stop()
        print(
            f"{lines:7d} {cpu:7.2f} {cpu / lines * 1e6:8.0f} {calls / lines:10.0f} "
            f"{peak / 2**20:9.1f} {tree_bytes / 2**20:9.1f} {peak / tree_bytes:9.1f}",
            flush=True,
        )
    print(f"one process, CPU time of one run per size; load average {os.getloadavg()[0]:.2f} at the end")


class _Phases:
    """Exclusive wall time per phase: a wrapped call's time minus that of the wrapped calls inside it."""

    def __init__(self):
        import collections

        self.seconds, self.calls, self._inner = collections.Counter(), collections.Counter(), [0.0]

    def wrap(self, phase, function):
        def timed_call(*args, **kwargs):
            name = phase(*args) if callable(phase) else phase
            self._inner.append(0.0)
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - start
                self.seconds[name] += elapsed - self._inner.pop()
                self._inner[-1] += elapsed
                self.calls[name] += 1

        return timed_call


def profile(root: str) -> None:
    """Migrate every .py file under `root` in this process (rules at --level safe), timing each engine
    phase and each rule's visit/leave methods (their names lookups apart), against libcst's parse +
    codegen of the same files."""
    import ast
    import pathlib

    sys.path.insert(0, REPO)
    sys.setrecursionlimit(10_000)
    import libcst

    from codemods import _migrate_file
    from codemods.engine import apply, imports, names, positions, quiet

    datas = [path.read_bytes() for path in sorted(pathlib.Path(root).rglob("*.py"))]
    options = _migrate_file.Options()
    _migrate_file.migrate("python", datas[0], options)  # the tables the rules load on first use
    start = time.perf_counter()
    for data in datas:
        _ = libcst.parse_module(data.decode("utf-8", "replace")).code
    floor = time.perf_counter() - start

    phases = _Phases()
    libcst.parse_module = phases.wrap("libcst parse", libcst.parse_module)
    libcst.Module.code = property(phases.wrap("libcst codegen", libcst.Module.code.fget))
    libcst.Module.visit = phases.wrap(lambda module, visitor: f"pass: {type(visitor).__name__}", libcst.Module.visit)
    ast.parse = phases.wrap("ast parse", ast.parse)
    names.scan = phases.wrap("name table", names.scan)
    names.ScopeNames.__init__ = phases.wrap("scope analysis (re-bound names)", names.ScopeNames.__init__)
    for kind in (names.TableNames, names.ScopeNames):
        kind.qualified = phases.wrap("qualified-name lookups", kind.qualified)
    quiet.quiet_statements = phases.wrap("quiet statements", quiet.quiet_statements)
    for name in ("add_plain_imports", "add_other_imports", "remove_unused_imports"):
        setattr(imports, name, phases.wrap(f"imports: {name}", getattr(imports, name)))
    positions.positioned = phases.wrap("report positions", positions.positioned)

    class Dispatcher(apply._Dispatcher):
        def __init__(self, rules, state, skip=frozenset()):
            super().__init__(rules, state, skip)
            for table in (self._visit, self._leave):
                for node_type, methods in table.items():
                    table[node_type] = [phases.wrap(f"rule {m.__self__.ID}", m) for m in methods]

    apply._Dispatcher = Dispatcher
    start = time.perf_counter()
    for data in datas:
        _migrate_file.migrate("python", data, options)
    total = time.perf_counter() - start
    phases.seconds["other (decoding, prefilter, rule selection ...)"] = total - sum(phases.seconds.values())
    lines = sum(data.count(b"\n") for data in datas)
    print(f"{len(datas)} files, {lines} lines: migration {total:.2f} s, libcst parse + codegen {floor:.2f} s")
    print(f"{'phase (exclusive wall time)':52} {'s':>7} {'share':>6} {'calls':>8}")
    for phase, seconds in phases.seconds.most_common():
        print(f"{phase:52} {seconds:7.2f} {seconds / total:6.1%} {phases.calls[phase]:8d}")
    print(f"one process; load average {os.getloadavg()[0]:.2f} at the end")


PARSE_ONLY = "import sys, libcst; libcst.parse_module(open(sys.argv[1], encoding='utf-8').read())"
STARTED = "import sys, libcst"


def peak_rss(cmd: list, env: dict | None = None) -> tuple[float, float]:
    """(peak resident memory in MiB, wall seconds) of running `cmd` to completion (exit 0 or 1)."""
    start = time.perf_counter()
    process = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{cmd[:3]} failed ({code}): {process.stderr.read().decode()[-2000:]}")
    process.stderr.close()
    return usage.ru_maxrss / 1024, elapsed  # (Linux counts ru_maxrss in KiB)


def memory(lines: int) -> None:
    """Peak memory of `uai-migrate -j1` on one generated module of `lines` lines, against libcst's own
    parse of that file alone (the anchor), each a whole process; and of the interpreter with libcst
    imported, which both include."""
    work = tempfile.mkdtemp(prefix="migrate-memory-")
    try:
        path = os.path.join(work, "tree", "big.py")
        os.makedirs(os.path.dirname(path))
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(generate_module(lines))
        env = dict(os.environ, PYTHONPATH=REPO, TF_CPP_MIN_LOG_LEVEL="3")
        migrate = [sys.executable, "-m", "codemods", "--out", os.path.join(work, "out"), "--no-cache", "-j1"]
        rows = {
            "python + import libcst": [sys.executable, "-c", STARTED],
            "libcst parse of the file (anchor)": [sys.executable, "-c", PARSE_ONLY, path],
            "uai-migrate -j1 --no-cache": [*migrate, os.path.dirname(path)],
        }
        load = os.getloadavg()
        measured = {name: peak_rss(command, env) for name, command in rows.items()}
        anchor = measured["libcst parse of the file (anchor)"][0]
        print(f"one module of {open(path).read().count(chr(10))} lines (bench/migrate_bench.py's blocks)")
        print(f"{'process':40} {'peak MiB':>9} {'/ anchor':>9} {'wall s':>7}")
        for name, (peak, seconds) in measured.items():
            print(f"{name:40} {peak:9.0f} {peak / anchor:9.2f} {seconds:7.1f}")
        print(load_line(load))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def timed(cmd: list, env: dict | None = None) -> tuple[float, subprocess.CompletedProcess]:
    """Wall seconds of running `cmd` to completion, and its result (exit 0 or 1 expected)."""
    start = time.perf_counter()
    result = subprocess.run(cmd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode not in (0, 1):
        raise SystemExit(f"{cmd[:3]} failed ({result.returncode}): {result.stderr[-2000:]}")
    return elapsed, result


def run_rounds(units: list, rounds: int, env: dict | None = None) -> tuple[list, dict]:
    """Run `units` (lists of (row name, argv factory)) in turn, `rounds` times; return the per-round
    {row: wall seconds} and each row's last CompletedProcess.

    The machine is shared and its load swings within a minute, so the rows take turns and the
    order is reversed every other round; the rows of one unit always run together, in order
    (a first run and its re-run). A factory is called just before its row runs.
    """
    per_round, last = [], {}
    for index in range(rounds):
        rows = {}
        for unit in reversed(units) if index % 2 else units:
            for name, command in unit:
                rows[name], last[name] = timed(command(), env)
        per_round.append(rows)
        print(
            f"round {index + 1}/{rounds}: " + " | ".join(f"{n} {s:.1f} s" for n, s in rows.items()),
            file=sys.stderr,
            flush=True,
        )
    return per_round, last


def print_ratios(per_round: list, anchor: str, bases: dict) -> None:
    """Each row's median wall time, the medians of its per-round ratios to each row named in
    `bases` ({column label: row name}, `anchor` among them), and its per-round ratios to `anchor`."""

    def ratio(name, base):
        return statistics.median(r[name] / r[base] for r in per_round)

    print(f"{len(per_round)} rounds; wall s = median of rounds; ratios = median of the per-round ratios")
    anchor_label = next(label for label, row in bases.items() if row == anchor)
    print(f"{'run':48} {'wall s':>8} " + " ".join(f"{c:>16}" for c in bases) + f"  per-round {anchor_label}")
    for name in per_round[0]:
        per = " ".join(f"{r[name] / r[anchor]:.2f}" for r in per_round)
        cells = " ".join(f"{ratio(name, base):16.2f}" for base in bases.values())
        print(f"{name:48} {statistics.median(r[name] for r in per_round):8.2f} {cells}  {per}")


def load_line(before: tuple) -> str:
    """The load averages at the start (`before`) and now, for the table's footnote."""
    return "load average (1/5/15 min) at start {:.2f} {:.2f} {:.2f}, at end {:.2f} {:.2f} {:.2f}".format(
        *before, *os.getloadavg()
    )


def units_for(tree: str, work: str, jobs: int) -> list:
    """The rows of one round on `tree`, each writing its output under `work`."""
    upgrade = os.path.join(os.path.dirname(sys.executable), "tf_upgrade_v2")
    migrate = [sys.executable, "-m", "codemods", "--format", "json"]

    def out(name):
        path = os.path.join(work, name)
        shutil.rmtree(path, ignore_errors=True)
        return path

    def first_run():
        # the first run of a round starts from an empty cache; its re-run follows it in the same unit
        shutil.rmtree(os.path.join(work, "cache"), ignore_errors=True)
        return [*migrate, f"-j{jobs}", "--out", out("mN"), tree]

    return [
        [
            (
                "tf_upgrade_v2 --intree",
                lambda: [
                    upgrade,
                    "--intree",
                    tree,
                    "--outtree",
                    out("upgraded"),
                    "--reportfile",
                    os.path.join(work, "report.txt"),
                ],
            )
        ],
        [(FLOOR_ROW, lambda: [sys.executable, "-c", FLOOR, tree, "-"])],
        [("libcst parse + no-op transformer + codegen", lambda: [sys.executable, "-c", FLOOR, tree, "visit"])],
        [("uai-migrate -j1 --no-cache", lambda: [*migrate, "-j1", "--no-cache", "--out", out("m1"), tree])],
        [
            (f"uai-migrate -j{jobs} (first run)", first_run),
            (f"uai-migrate -j{jobs} (re-run, cache warm)", lambda: [*migrate, f"-j{jobs}", "--out", out("mN2"), tree]),
        ],
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=40000)
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--rounds", type=int, default=3, help="passes over every row (default: 3)")
    parser.add_argument("--keep", help="generate the tree here and keep it")
    parser.add_argument(
        "--sizes",
        help="instead: CPU time, calls and peak memory per line of one generated module of each size "
        "(comma-separated line counts, e.g. 1000,5000,20000,50000)",
    )
    parser.add_argument("--profile", metavar="DIR", help="instead: the time per engine phase and rule on DIR's files")
    parser.add_argument(
        "--memory",
        type=int,
        metavar="LINES",
        help="instead: peak memory of uai-migrate on one module of LINES lines against libcst's parse of it",
    )
    args = parser.parse_args()
    if args.sizes:
        per_line([int(size) for size in args.sizes.split(",")])
        return
    if args.profile:
        profile(args.profile)
        return
    if args.memory:
        memory(args.memory)
        return
    work = args.keep or tempfile.mkdtemp(prefix="migrate-bench-")
    tree = os.path.join(work, "tree")
    shutil.rmtree(tree, ignore_errors=True)
    lines, files = generate(tree, args.lines)
    env = dict(os.environ, PYTHONPATH=REPO, XDG_CACHE_HOME=os.path.join(work, "cache"), TF_CPP_MIN_LOG_LEVEL="3")
    load_before = os.getloadavg()
    first, again = f"uai-migrate -j{args.jobs} (first run)", f"uai-migrate -j{args.jobs} (re-run, cache warm)"
    per_round, last = run_rounds(units_for(tree, work, args.jobs), args.rounds, env)
    summary, summary_again = (json.loads(last[name].stdout)["summary"] for name in (first, again))
    print(
        f"tree: {files} files, {lines} lines; uai-migrate changed {summary['changed']} files, "
        f"{summary['info']} changes, {summary['error']} errors reported; re-run: {summary_again['cached']} from cache"
    )
    anchor = "tf_upgrade_v2 --intree"
    print_ratios(per_round, anchor, {"/ tf_upgrade_v2": anchor, "/ floor": FLOOR_ROW, "/ first run": first})
    print(load_line(load_before))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
