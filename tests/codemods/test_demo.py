"""End to end: the demo, and the bundled TF1 samples after uai-migrate vs after tf_upgrade_v2, on this TensorFlow."""

import sys

import pytest

from tests.support import runs as _runs
from tests.support.processes import REPO
from tests.support.programs import SAMPLE_ARGS

SAMPLES = f"{REPO}/samples/tf1"
FLAGS = {name: args for name, (args, _) in SAMPLE_ARGS.items()}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    from trainlib.data import synth

    out = tmp_path_factory.mktemp("data")
    synth.generate(str(out), train_shards=1, validation_shards=1, images=16, size=32, num_classes=10)
    return out


def _commands(folder, data, tmp_path, scripts):
    return {
        name: [
            sys.executable,
            str(folder / name),
            f"--data_dir={data}",
            f"--output_dir={tmp_path / name}.out",
            *FLAGS[name],
        ]
        for name in scripts
    }


def test_demo_migrates_and_trains_the_resnet_printing_the_loss(tmp_path):
    result = _runs.run([sys.executable, f"{REPO}/demo.py", "--steps=3", f"--keep={tmp_path}"], REPO)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    out = result.stdout
    assert all(f"[{n}/4]" in out for n in (1, 2, 3, 4))
    assert "3 files scanned, 3 migrated into the output tree" in out
    report = out.split("[2/4]")[1].split("[3/4]")[0]
    # the table per rule, not a line per change (-q), and one file's diff
    table = report[report.index("rule ") : report.index("3 files scanned")].splitlines()
    assert {"tf-estimator", "contrib-slim", "tf-device"} <= {row.split()[0] for row in table[1:]}
    assert "info tf1-api" not in report
    assert report.count("\n--- ") == 1 and "+import compat.flags as flags" in report
    assert len(out.split("[3/4]")[0].splitlines()) <= 50, "the report no longer fits on one screen"
    losses = [line for line in out.splitlines() if line.strip().startswith("loss = ")]
    assert [line.split("step = ")[1].split()[0] for line in losses] == ["0", "1", "2"]
    assert (tmp_path / "migrated" / "resnet_estimator.py").exists()
    assert any(p.name.startswith("model.ckpt-3") for p in (tmp_path / "model").iterdir())
    unmodified = out.split("[4/4]")[1]  # the sample as written, through uai-run
    assert [line.split()[1] for line in unmodified.splitlines() if line.strip().startswith("step ")] == ["0", "1", "2"]


def test_samples_run_after_uai_migrate_and_fail_after_tf_upgrade_v2(tmp_path, data):
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    migrated = _runs.migrate("--out", ours, SAMPLES, cwd=tmp_path)
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    upgraded = _runs.tf_upgrade_v2(SAMPLES, theirs, cwd=tmp_path)
    assert upgraded.returncode == 0, upgraded.stderr
    # the ResNet sample trains in the demo test; here the other two of ours, and all three of theirs
    commands = {
        **{
            ("ours", k): v
            for k, v in _commands(
                ours, data, tmp_path / "o", ["train_slim_classifier.py", "session_classifier.py"]
            ).items()
        },
        **{("theirs", k): v for k, v in _commands(theirs, data, tmp_path / "t", FLAGS).items()},
    }
    results = _runs.run_all(commands, tmp_path)
    for name in ("train_slim_classifier.py", "session_classifier.py"):
        result = results["ours", name]
        assert result.returncode == 0, f"{name}: {result.stderr[-3000:]}"
    assert "step 2 loss" in results["ours", "session_classifier.py"].stdout
    assert "step 3 loss" in results["ours", "train_slim_classifier.py"].stdout
    failures = {name: results["theirs", name] for name in FLAGS}
    assert all(r.returncode != 0 for r in failures.values()), {n: r.returncode for n, r in failures.items()}
    # and they fail for the reasons docs/traps.md lists (tf_upgrade_v2 section)
    assert "tensorflow.contrib" in failures["train_slim_classifier.py"].stderr
    assert "estimator" in failures["resnet_estimator.py"].stderr
    session = failures["session_classifier.py"].stderr
    assert "Keras 3" in session or "eager" in session
