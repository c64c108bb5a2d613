"""modern_tf2 programs as a user runs them, one process each: train, checkpoint, export, resume, Mirrored, slim, bad input.

The helpers (generated data, the tiny-ResNet command line, progress lines) are `tests.programs`'.
"""

import json
import math
import os
import re

import pytest

from tests.support import tf_free
from tests.support.processes import run_module
from tests.support.programs import NUM_CLASSES, checkpoint_index, imagenet_args, losses


@pytest.mark.slow
def test_trains_exports_and_resumes_under_mirrored(program_data, tmp_path, run_py):
    out = tmp_path / "run"
    first = run_module("modern_tf2.imagenet_main", imagenet_args(program_data, out, 20))
    assert first.returncode == 0, first.stderr[-3000:]
    assert "strategy one_device" in first.stdout
    reported = losses(first.stdout)
    assert sorted(reported) == [5, 10, 15, 20] and all(math.isfinite(v) for v in reported.values()), first.stdout
    assert reported[20] < reported[5], reported  # it learns: the generated classes are easy
    assert checkpoint_index(out) == ["ckpt-10", "ckpt-20"]
    assert re.search(r"eval step 20 top_1_accuracy \S+ top_5_accuracy \S+ images 32", first.stdout)

    served = run_py(
        """
        import sys
        import numpy as np
        import tensorflow as tf
        loaded = tf.saved_model.load(sys.argv[1])
        serve = loaded.signatures["serving_default"]
        images = np.random.RandomState(0).uniform(-1, 1, (3, 32, 32, 3)).astype("float32")
        out = serve(images=tf.constant(images))
        print("SHAPES", out["classes"].shape, out["probabilities"].shape)
        print("SUMS", np.round(out["probabilities"].numpy().sum(1), 4).tolist())
        """,
        str(out / "export" / "20"),
    )
    assert served.returncode == 0, served.stderr[-3000:]
    assert f"SHAPES (3,) (3, {NUM_CLASSES})" in served.stdout and "SUMS [1.0, 1.0, 1.0]" in served.stdout

    # A restart continues at the saved step (here on 2 logical CPUs: Mirrored restores the one-device checkpoint).
    second = run_module("modern_tf2.imagenet_main", imagenet_args(program_data, out, 30, "--num_gpus", "2"))
    assert second.returncode == 0, second.stderr[-3000:]
    assert "strategy mirrored (MirroredStrategy, 2 replica(s) in sync)" in second.stdout
    assert f"restored {out / 'ckpt-20'} at step 20" in second.stdout
    assert sorted(losses(second.stdout)) == [25, 30], second.stdout
    assert checkpoint_index(out)[-1] == "ckpt-30" and (out / "export" / "30" / "saved_model.pb").exists()
    assert any(name.startswith("events.out.tfevents") for name in os.listdir(out))  # TensorBoard summaries


@pytest.mark.slow
@pytest.mark.parametrize("model_name", ["resnet_v1_50", "lenet"])  # a tf-slim net, and our own
def test_slim_main_trains_a_slim_zoo_net(program_data, tmp_path, model_name):
    out = tmp_path / "slim"
    args = [
        "--data_dir",
        program_data,
        "--output_dir",
        str(out),
        "--model_name",
        model_name,
        "--train_image_size",
        "32",
        "--num_classes",
        str(NUM_CLASSES),
        "--batch_size",
        "4",
        "--eval_batch_size",
        "16",
        "--max_step",
        "3",
        "--log_every_n_steps",
        "3",
        "--save_checkpoints_steps",
        "3",
        "--optimizer",
        "momentum",
        "--learning_rate",
        "0.001",
        "--noexport",
    ]
    result = run_module("modern_tf2.slim_main", args)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "strategy one_device" in result.stdout and "done at step 3" in result.stdout
    assert math.isfinite(losses(result.stdout)[3])
    assert checkpoint_index(out) == ["ckpt-3"]


def test_a_batch_that_does_not_split_over_the_replicas_is_one_line_and_exit_2(program_data, tmp_path):
    result = run_module(
        "modern_tf2.imagenet_main", [*imagenet_args(program_data, tmp_path / "out", 5), "--num_gpus", "3"]
    )
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr[-3000:]
    assert len(errors) == 1 and "the batch of 16 does not split evenly over 3 replicas" in errors[0], errors


@pytest.mark.parametrize(
    "extra, env, message",
    [
        ([], {"TF_CONFIG": '{"cluster": {"worker": ["127.0.0.1:1"]}, "task": {"type": "ps", "index": 0}}'}, "task"),
        (["--data_dir", "/nonexistent/imagenet"], None, "data dir '/nonexistent/imagenet' does not exist"),
        (
            ["--checkpoint_path", "/nonexistent/model.ckpt-1"],
            None,
            "--checkpoint_path '/nonexistent/model.ckpt-1' does",
        ),
        (["--resnet_version", "3"], None, "--resnet_version"),
    ],
    ids=["bad-tf-config", "missing-data", "missing-checkpoint", "bad-enum"],
)
def test_bad_input_is_one_line_and_exit_2_before_tensorflow_is_imported(program_data, tmp_path, extra, env, message):
    args = imagenet_args(program_data, tmp_path / "out", 5) + extra
    tf_free.assert_one_line_error_before_tensorflow(tf_free.run_module("modern_tf2.imagenet_main", args, env), message)


def test_after_report_sees_each_progress_line_and_its_pause_is_left_out_of_the_rate(tmp_path, run_py):
    # bench/train_bench.py pauses the loop here while other loops take their turn.
    result = run_py(
        f"""
        import json, time
        import tensorflow as tf
        from modern_tf2 import run_loop, trainer

        seen = []

        def after_report(values):
            seen.append(values)
            time.sleep(2.0)

        program = run_loop.Program(
            build_model=lambda: tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(3)]),
            build_optimizer=lambda: trainer.sgd_momentum(0.1, 0.9),
            train_dataset=lambda context: tf.data.Dataset.from_tensors(
                (tf.zeros([4, 4, 4, 3]), tf.zeros([4], tf.int32))).repeat(),
            eval_dataset=None, weight_decay=0.0, decayed_weights=lambda variables: 0.0, image_size=4,
        )
        settings = run_loop.Settings(output_dir=r"{tmp_path / "out"}", log_dir=r"{tmp_path / "log"}", train_steps=6,
                                     global_batch=4, log_every=2, save_every=100, export=False, after_report=after_report)
        run_loop.run(program, settings)
        print("RATES " + json.dumps([v["images_per_sec"] for v in seen]))
    """,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    rates = json.loads(result.stdout.split("RATES ", 1)[1])
    assert len(rates) == 3
    # 2 steps of 4 images per report: with the 2 s pause counted a rate could not pass 4 images/s. 8 leaves the
    # two steps a second: with a 0.5 s pause and 32 (a quarter second) the test failed in a CI run at load 9.
    assert all(rate > 8 for rate in rates[1:]), rates


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--model_name", "resnet_v9", "--max_step", "1"], "--model_name must be one of"),
        (["--model_name", "lenet"], "set --max_number_of_steps"),
        (["--model_name", "lenet", "--max_step", "1", "--checkpoint_path", "/nonexistent"], "'/nonexistent' does not"),
    ],
    ids=["unknown-model", "no-steps", "missing-checkpoint"],
)
def test_slim_main_refuses_bad_input_before_it_imports_tensorflow(program_data, tmp_path, extra, message):
    """One check of --model_name for both slim programs (the zoo's): the same one line and exit 2."""
    args = ["--data_dir", str(program_data), "--output_dir", str(tmp_path / "out"), *extra]
    tf_free.assert_one_line_error_before_tensorflow(tf_free.run_module("modern_tf2.slim_main", args), message)
