"""Migrating a file runs without the cyclic garbage collector, which is on again afterwards.

Its passes over the heap a large file's libcst tree fills made the time per line grow with the
file's size (one process, generated TF1 module: 394 us/line at 1k lines, 518 at 20k with it; 305
and 314 without). A migration makes no reference cycles on plain modules (scope analysis makes a
few, which the collector frees once it runs again).
"""

import gc

from codemods._migrate_file import Options, migrate

MODULE = "import tensorflow as tf\n\n" + "".join(
    f"def f{n}(x):\n    y = tf.placeholder(tf.float32)\n    return tf.layers.dense(x + y, {n})\n\n\n"
    for n in range(300)
)


def _collections_during(function):
    started = []

    def note(phase, info):
        if phase == "start":
            started.append(info["generation"])

    gc.collect()  # the next pass is hundreds of allocations away
    gc.callbacks.append(note)
    try:
        function()
    finally:
        gc.callbacks.remove(note)
    return started


def test_migrating_a_file_runs_no_cyclic_collection_and_turns_the_collector_back_on():
    assert gc.isenabled()
    outcome = None

    def run():
        nonlocal outcome
        outcome = migrate("python", MODULE.encode(), Options())

    # (with the collector on, hundreds of passes; once on again, it owes one young pass)
    assert _collections_during(run) in ([], [0])
    assert outcome.new and b"tf.compat.v1.placeholder" in outcome.new  # it did migrate
    assert gc.isenabled()
    # (the collector does run in this process: allocations alone trigger it)
    assert _collections_during(lambda: [[] for _ in range(100_000)]) != []


def test_a_collector_switched_off_by_the_caller_stays_off():
    gc.disable()
    try:
        migrate("python", MODULE.encode(), Options())
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_plain_module_migrates_without_making_reference_cycles():
    gc.collect()
    gc.disable()
    try:
        migrate("python", MODULE.encode(), Options())
    finally:
        gc.enable()
    assert gc.collect() == 0
