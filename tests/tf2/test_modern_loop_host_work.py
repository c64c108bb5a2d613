"""The host work of modern_tf2's training loop between two progress lines, counted (not timed).

A process trains a tiny model with `run_loop.run` and profiles (cProfile) the intervals after
the first report: everything traced is traced by then, so what remains is the per-step and
per-report work. Counted properties:
- one device-to-host read per report (`EagerTensor._numpy`): loss, rate, metrics and step come
  back together, no read per step;
- no tf.function traced again (a Python value passed where a tensor belongs retraces each call);
- on one CPU device the steps read the dataset without `tf.distribute`'s input pipeline (its
  multi-device iterator hops threads and copies to the device the data is already on).
"""

import pytest

from tests.support.processes import result_json

REPORTS = 4


@pytest.mark.parametrize("num_devices", [1, 2])
def test_between_reports_one_host_read_no_retrace(tmp_path, run_py, num_devices):
    result = run_py(
        f"""
        import cProfile, json, pstats
        import tensorflow as tf
        from modern_tf2 import run_loop, trainer

        profile, seen = cProfile.Profile(), []

        def after_report(values):
            seen.append(values)
            if len(seen) == 1:
                profile.enable()
            elif len(seen) == {REPORTS}:
                profile.disable()

        program = run_loop.Program(
            build_model=lambda: tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(5)]),
            build_optimizer=lambda: trainer.sgd_momentum(trainer.resnet_learning_rate(0.1, 10), 0.9),
            train_dataset=lambda context: tf.data.Dataset.range(8).map(
                lambda i: (tf.fill([4, 4, 3], tf.cast(i, tf.float32)), i % 5)).repeat().batch(4, drop_remainder=True),
            eval_dataset=None, weight_decay=0.0, decayed_weights=lambda variables: 0.0, image_size=4,
        )
        settings = run_loop.Settings(output_dir=r"{tmp_path / "out"}", log_dir=r"{tmp_path / "log"}",
                                     train_steps={REPORTS} * 3, global_batch=4, num_devices={num_devices},
                                     log_every=3, save_every=100, export=False, after_report=after_report)
        run_loop.run(program, settings)
        calls = {{}}
        for (path, _, name), (_, count, *_) in pstats.Stats(profile).stats.items():
            key = name if name in ("_numpy", "_create_concrete_function") else path.rsplit("/", 2)[-2:]
            calls[str(key)] = calls.get(str(key), 0) + count
        print("RESULT " + json.dumps(dict(
            reads=calls.get("_numpy", 0),
            traces=calls.get("_create_concrete_function", 0),
            input_lib=calls.get(str(["distribute", "input_lib.py"]), 0),
            reported=[values["loss"] for values in seen],
        )))
    """,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    counts = result_json(result.stdout)
    assert len(counts["reported"]) == REPORTS, counts
    assert counts["reads"] == REPORTS - 1, counts
    assert counts["traces"] == 0, counts
    if num_devices == 1:
        assert counts["input_lib"] == 0, counts
