"""End to end: the demo, and the bundled TF1 samples after uai-migrate vs after tf_upgrade_v2, on this TensorFlow."""

import sys

from tests.support import runs as _runs
from tests.support.processes import REPO
from tests.support.programs import SAMPLE_ARGS

SAMPLES = f"{REPO}/samples/tf1"
FLAGS = {name: args for name, (args, _) in SAMPLE_ARGS.items()}


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


def test_samples_run_after_uai_migrate_and_fail_after_tf_upgrade_v2(tmp_path, corpus_data, samples_after_uai_migrate):
    # ours: the samples' uai-migrate ports as tests/conftest.py runs them (compared with uai-run's losses in
    # tests/tf2/test_uai_run_migrate.py), on the data tf_upgrade_v2's ports get here
    for name, (_, output) in SAMPLE_ARGS.items():
        result = samples_after_uai_migrate[name]
        assert result.returncode == 0 and output in result.stdout + result.stderr, f"{name}: {result.stderr[-3000:]}"
    assert "step 2 loss" in samples_after_uai_migrate["session_classifier.py"].stdout
    assert "step 3 loss" in samples_after_uai_migrate["train_slim_classifier.py"].stdout
    theirs = tmp_path / "theirs"
    upgraded = _runs.tf_upgrade_v2(SAMPLES, theirs, cwd=tmp_path)
    assert upgraded.returncode == 0, upgraded.stderr
    failures = _runs.run_all(_commands(theirs, corpus_data, tmp_path / "t", FLAGS), tmp_path)
    assert all(r.returncode != 0 for r in failures.values()), {n: r.returncode for n, r in failures.items()}
    # and they fail for the reasons docs/traps.md lists (tf_upgrade_v2 section)
    assert "tensorflow.contrib" in failures["train_slim_classifier.py"].stderr
    assert "estimator" in failures["resnet_estimator.py"].stderr
    session = failures["session_classifier.py"].stderr
    assert "Keras 3" in session or "eager" in session
