"""modern_tf2 under real faults: SIGKILLed tasks of real clusters started by uai_launch.

Each test prints `FAULT-RESULT | fault | what happened | steps lost | recovery s` (pytest -s
shows it): steps lost are steps trained but not kept (or not trained at all); recovery is the
time from the kill until training went on (or, for MultiWorkerMirrored, until the job stopped).
"""

import signal
import time

import pytest

from tests.support.programs import Job, checkpoint_index, imagenet_args, losses


def fault_result(fault, happened, steps_lost, recovery):
    print(f"FAULT-RESULT | {fault} | {happened} | {steps_lost} | {recovery:.1f}", flush=True)


@pytest.mark.slow
def test_parameter_server_job_finishes_after_a_worker_is_killed(program_data, tmp_path):
    steps = 40
    args = imagenet_args(program_data, tmp_path / "run", steps)
    with Job(tmp_path, args, chief=1, workers=2, ps=1, dialect="master", keep_going=True) as job:
        job.wait_for(r"step 10/")
        job.cluster.kill(job.task("worker:1"), signal.SIGKILL)
        killed_at = time.monotonic()
        next_line, _ = job.wait_for(r"step \d+/", after=killed_at, timeout=60)
        status = job.cluster.wait(timeout=120, grace=1)
    chief = job.text("chief:0")
    assert status == 0, chief[-3000:]
    # the master dialect's PS cluster (test_modern_distributed.py runs one in the chief dialect)
    assert "strategy parameter_server (ParameterServerStrategyV2, 1 replica(s) in sync)" in chief
    assert f"done at step {steps}" in chief and max(losses(chief)) == steps
    assert checkpoint_index(tmp_path / "run")[-1] == f"ckpt-{steps}"
    fault_result(
        "PS: worker SIGKILLed mid-run (2 workers)",
        f"coordinator rescheduled its steps on the other worker; all {steps} steps done",
        0,
        next_line - killed_at,
    )


def saved_step(out):
    names = checkpoint_index(out) if (out / "checkpoint").exists() else []
    return int(names[-1].rsplit("-", 1)[1]) if names else 0


@pytest.mark.slow
def test_parameter_server_chief_killed_and_restarted_resumes_from_its_checkpoint(program_data, tmp_path):
    steps, out = 40, tmp_path / "run"
    with Job(tmp_path, imagenet_args(program_data, out, steps), chief=1, workers=1, ps=1, dialect="master") as job:
        job.wait_for(r"step 25/")
        chief = job.task("chief:0")
        job.cluster.kill(chief, signal.SIGKILL)
        killed_at = time.monotonic()
        trained = max(losses(job.text("chief:0")))
        kept = saved_step(out)  # the index still names complete files after the kill (checked inside)
        assert kept >= 20
        job.cluster.start_task(chief)  # same TF_CONFIG, same output folder
        _, restored = job.wait_for(r"restored \S+ at step (\d+)", after=killed_at)
        resumed_at, _ = job.wait_for(r"step \d+/", after=killed_at)
        status = job.cluster.wait(timeout=120, grace=1)
    text = job.text("chief:0")
    assert status == 0, text[-3000:]
    assert int(restored.group(1)) == kept > 0
    assert f"done at step {steps}" in text and saved_step(out) == steps
    fault_result(
        "PS: chief SIGKILLed, restarted",
        f"resumed from ckpt-{kept} in the same folder; finished {steps} steps",
        trained - kept,
        resumed_at - killed_at,
    )


@pytest.mark.slow
def test_multi_worker_mirrored_fails_fast_when_a_worker_dies_and_a_restart_resumes(program_data, tmp_path):
    steps, out = 20, tmp_path / "run"
    job = Job(tmp_path, imagenet_args(program_data, out, steps), chief=1, workers=1, dialect="master")
    with job:
        job.wait_for(r"step 15/")  # ckpt-10 is written
        job.cluster.kill(job.task("worker:0"), signal.SIGKILL)
        killed_at = time.monotonic()
        # The chief's own status (the launcher's would be the killed worker's); a hang fails here.
        status = job.cluster.tasks[job.task("chief:0")].wait(timeout=45)
        stopped_after = time.monotonic() - killed_at
    chief = job.text("chief:0")
    errors = [line for line in chief.splitlines() if ": error: " in line]
    assert status == 1 and "Traceback" not in chief, chief[-3000:]
    assert len(errors) == 1 and "a MultiWorkerMirrored peer was lost" in errors[0], chief[-3000:]
    trained, kept = max(losses(chief)), saved_step(out)
    fault_result(
        "MWMS: worker SIGKILLed",
        "chief stopped with one line (peer lost), exit 1; no hang",
        trained - kept,
        stopped_after,
    )

    with job:  # the whole job again, same ports and folder
        _, restored = job.wait_for(r"restored \S+ at step (\d+)", after=killed_at + stopped_after)
        status = job.cluster.wait(timeout=120)
    assert status == 0, job.text()[-3000:]
    assert int(restored.group(1)) == kept >= 10
    assert f"done at step {steps}" in job.text("chief:0")
