"""A TF 1 program calling, as TF 1.15 took them, functions and classes whose keywords TF 2 renamed or dropped:
set_virtual_device_configuration(virtual_devices=), create_rng_state(algorithm=), contrib.lookup's
index tables (mapping=) and contrib.distribute's MirroredStrategy(num_gpus=, num_gpus_per_worker=,
cross_tower_ops=), by keyword and by position; and set_loop_options(back_prop=) in a loop autograph converts.
Prints `RESULT <json>`: what each call made.

Its output on real TensorFlow 1.15 is tests/common/golden/tf115_call_keywords.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py); test_tf1_signatures.py compares uai-run's
and the port's.
"""

import json

import tensorflow as tf

# first: the logical devices are fixed when the runtime starts
cpu = tf.config.experimental.list_physical_devices("CPU")[0]
tf.config.experimental.set_virtual_device_configuration(
    cpu, virtual_devices=[tf.config.experimental.VirtualDeviceConfiguration()] * 2
)
result = {"logical CPUs": len(tf.config.experimental.list_logical_devices("CPU"))}

# (a numpy array on TF 1.15, a tensor on TF 2: fetched as a tensor)
rng_states = {
    "rng state, algorithm=": tf.convert_to_tensor(tf.random.experimental.create_rng_state(42, algorithm=1)),
    "rng state, by position": tf.convert_to_tensor(tf.random.experimental.create_rng_state(7, 1)),
}

ids = tf.contrib.lookup.index_table_from_tensor(mapping=tf.constant(["a", "b", "c"]), num_oov_buckets=1)
words = tf.contrib.lookup.index_to_string_table_from_tensor(mapping=["a", "b", "c"], default_value="?")
by_position = tf.contrib.lookup.index_table_from_tensor(["x", "y"], 0, 9)

strategies = {
    "num_gpus=0": tf.contrib.distribute.MirroredStrategy(num_gpus=0),
    "num_gpus_per_worker=1": tf.contrib.distribute.MirroredStrategy(num_gpus_per_worker=1),
    "None, 0 by position": tf.contrib.distribute.MirroredStrategy(None, 0),
    "num_gpus=0, cross_tower_ops=": tf.contrib.distribute.MirroredStrategy(
        num_gpus=0, cross_tower_ops=tf.distribute.ReductionToOneDevice()
    ),
}
for name, strategy in strategies.items():
    # (TF 1.15 named them without the job; the device is what the call chose)
    result[f"MirroredStrategy({name}) devices"] = [d.split("/device:")[-1] for d in strategy.extended.worker_devices]
    result[f"MirroredStrategy({name}) replicas"] = strategy.num_replicas_in_sync
with strategies["num_gpus=0"].scope():
    doubled = tf.Variable(2.0) * 2


@tf.function
def count_to(n):
    i = tf.constant(0)
    while i < n:
        # (a directive of the loop autograph converts: TF 2 passes back_prop= on to it, as TF 1.15 did)
        tf.autograph.experimental.set_loop_options(parallel_iterations=1, back_prop=True)
        i += 1
    return i


with tf.Session() as session:
    session.run([tf.tables_initializer(), tf.global_variables_initializer()])
    looked_up = session.run(
        {
            "ids": ids.lookup(tf.constant(["b", "z", "a"])),
            "words": words.lookup(tf.constant([2, 5, 0], tf.int64)),
            "ids, by position": by_position.lookup(tf.constant(["y", "q"])),
            "variable under the strategy, doubled": doubled,
            **rng_states,
            "loop with set_loop_options(back_prop=True), to 5": count_to(tf.constant(5)),
        }
    )
result.update({name: looked_up[name].tolist() for name in rng_states})
result["index_table_from_tensor(mapping=)"] = looked_up["ids"].tolist()
result["index_to_string_table_from_tensor(mapping=)"] = [w.decode() for w in looked_up["words"]]
result["index_table_from_tensor, by position"] = looked_up["ids, by position"].tolist()
result["variable under the strategy, doubled"] = float(looked_up["variable under the strategy, doubled"])
result["loop with set_loop_options(back_prop=True), to 5"] = int(
    looked_up["loop with set_loop_options(back_prop=True), to 5"]
)
print("RESULT " + json.dumps(result, sort_keys=True))
