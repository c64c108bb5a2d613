"""compat.devices in a real graph, and Estimator + MirroredStrategy over 2 CPUs through compat.strategy.run_config.

The placement tests build graphs in-process: cheap, and they need no session.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from compat.devices import clone_device, slim_variables_device
from tests.support.processes import result_json

DEVICE_SCRIPT = """
    import json, tempfile
    import compat
    import tensorflow.compat.v1 as tf
    from compat import devices
    tf.disable_v2_behavior()
    out = {}
    with tf.Graph().as_default():
        setter = tf.train.replica_device_setter(ps_tasks=2)
        try:
            import tensorflow as tf2  # the TF2 `tf.device`, what a migrated script calls
            with tf2.device(setter):
                pass
        except RuntimeError as error:
            out["tf_device_error"] = str(error)
        with compat.device(setter):
            a, b, c = tf.Variable(1.0), tf.Variable(2.0), tf.Variable(3.0)
            out["replica"] = [a.device, b.device, c.device, (a + b).device]
        greedy = devices.tower_setter("/cpu:1", ["/cpu:0", "/cpu:2"], balance="greedy")
        with compat.device(greedy):
            big = tf.Variable(tf.zeros([100]))
            small1, small2 = tf.Variable(tf.zeros([10])), tf.Variable(tf.zeros([10]))
            with tf.device("/cpu:3"):
                pinned = tf.identity(big)
            out["greedy"] = [big.device, small1.device, small2.device, (small1 + 1).device, pinned.device]

    def input_fn():
        return tf.data.Dataset.from_tensors(({"x": [[1.0], [2.0]]}, [[2.0], [4.0]])).repeat()

    def model_fn(features, labels, mode):
        pred = tf.layers.dense(features["x"], 1)
        loss = tf.losses.mean_squared_error(labels, pred)
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=tf.train.GradientDescentOptimizer(0.01).minimize(
            loss, tf.train.get_or_create_global_step()))

    config = compat.strategy.run_config(model_dir=tempfile.mkdtemp(), num_devices=2, train_distribute="auto")
    estimator = tf.estimator.Estimator(model_fn, config=config)
    estimator.train(input_fn, max_steps=3)
    out["mirrored"] = [type(config.train_distribute).__name__, config.train_distribute.num_replicas_in_sync,
                       int(estimator.get_variable_value("global_step"))]
    print("RESULT " + json.dumps(out))
"""


def test_device_setters_and_mirrored_estimator(run_py):
    result = run_py(DEVICE_SCRIPT, timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]
    out = result_json(result.stdout)
    assert "does not support functions" in out["tf_device_error"]  # the trap compat.device avoids
    assert out["replica"][:3] == ["/job:ps/task:0", "/job:ps/task:1", "/job:ps/task:0"]
    assert out["replica"][3] == "/job:worker"
    # greedy by bytes: 400 B on cpu:0, then both 40 B variables on the lighter cpu:2;
    # other ops on the tower device, an explicit inner device wins.
    assert out["greedy"] == ["/device:CPU:0", "/device:CPU:2", "/device:CPU:2", "/device:CPU:1", "/device:CPU:3"]
    # Without device_count={"CPU": 2} + soft placement this Estimator hangs on TF 2.15 (docs/traps.md).
    assert out["mirrored"] == ["MirroredStrategy", 2, 3]


def test_device_strings_place_eager_ops_and_device_functions_need_a_graph(run_py):
    # `uai-migrate` rewrites `tf.device(name)` to `compat.device(name)` when `name` is a variable it cannot
    # read: a string there must place eager ops as tf.device does.
    result = run_py(
        """
        import compat
        import tensorflow as tf
        from compat.errors import DeviceError
        compat.logical_cpus(2)
        name = "/device:CPU:1"
        with compat.device(name):
            x = tf.constant(1.0) + 1
        with compat.device(None):
            y = tf.constant(2.0) * 2
        try:
            with compat.device(lambda op: name):
                pass
        except DeviceError as error:
            print("refused:", error)
        print(x.device, y.device)
    """,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    refused, placed = result.stdout.strip().splitlines()[-2:]
    assert refused.startswith("refused: a device function places ops of a graph")
    assert placed.split()[0].endswith("/device:CPU:1") and placed.split()[1].endswith("/device:CPU:0")


def test_slim_model_deploy_devices():
    assert clone_device(1) == "/device:GPU:1"
    assert clone_device(0, num_ps_tasks=2, replica_id=3, on_cpu=True) == "/job:worker/task:3/device:CPU:0"
    assert slim_variables_device() == "/device:CPU:0"
    assert callable(slim_variables_device(num_ps_tasks=2, replica_id=1))


def _placed_tasks(sizes, num_tasks, use_resource, setter_of):
    """Build one float32 variable per size under the setter `setter_of(strategy)`; return their ps task indices."""
    import tensorflow as tf

    from compat import devices

    v1 = tf.compat.v1
    strategy = devices.GreedyLoadBalancingStrategy(num_tasks, devices.byte_size_load_fn)
    with tf.Graph().as_default(), devices.device(setter_of(strategy)):
        created = [v1.get_variable(f"v{i}", [size], use_resource=use_resource) for i, size in enumerate(sizes)]
    return [tf.DeviceSpec.from_string(v.device).task for v in created], created


@settings(max_examples=25, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 64), min_size=1, max_size=6),
    num_tasks=st.integers(1, 3),
    use_resource=st.booleans(),
)
def test_greedy_load_balancing_puts_each_variable_on_the_least_loaded_ps_task(sizes, num_tasks, use_resource):
    """tf.contrib.training.GreedyLoadBalancingStrategy as replica_device_setter's ps_strategy (cifar10_estimator)."""
    import tensorflow as tf

    tasks, _ = _placed_tasks(
        sizes,
        num_tasks,
        use_resource,
        lambda strategy: tf.compat.v1.train.replica_device_setter(ps_tasks=num_tasks, ps_strategy=strategy),
    )
    load = [0] * num_tasks
    for size, task in zip(sizes, tasks):
        assert load[task] == min(load), (sizes, tasks)  # the lightest task so far (ties: any lightest)
        assert task == load.index(min(load))  # ties go to the first, as np.argmin did in tf.contrib
        load[task] += size * 4  # float32 bytes


def test_greedy_load_balancing_strategy_in_compat_tower_setter_and_byte_sizes():
    import tensorflow as tf

    from compat import devices

    tasks, created = _placed_tasks(
        [100, 10, 10, 50],
        2,
        True,
        lambda strategy: devices.tower_setter("/cpu:1", ["/job:ps/task:0", "/job:ps/task:1"], balance=strategy),
    )
    # 400 B on task 0; then 40 B, 40 B, 200 B on task 1, which stays the lighter one.
    assert tasks == [0, 1, 1, 1]
    assert [devices.byte_size_load_fn(v.op) for v in created] == [400, 40, 40, 200]
    with tf.Graph().as_default():
        op = tf.compat.v1.placeholder(tf.float16, [3, 5]).op  # any single-output op: its output's bytes
        assert devices.byte_size_load_fn(op) == 30
