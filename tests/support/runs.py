"""Run several scripts as real subprocesses at once (2 cores: TensorFlow imports overlap with work)."""

import concurrent.futures
import os
import subprocess
import sys

from tests.support.processes import python_env


def clean_env(extra=None):
    """The environment of a user's shell: no Keras choice inherited from this test process."""
    env = python_env(extra)
    env.pop("TF_USE_LEGACY_KERAS", None)
    return env


def run(command, cwd, timeout=300, env=None):
    return subprocess.run(
        command, cwd=str(cwd), env=env or clean_env(), capture_output=True, text=True, timeout=timeout
    )


def run_all(commands, cwd, workers=2, timeout=300):
    """{key: CompletedProcess} for {key: argv}, run `workers` at a time."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {key: pool.submit(run, argv, cwd, timeout) for key, argv in commands.items()}
        return {key: future.result() for key, future in futures.items()}


def migrate(*args, cwd):
    """`uai-migrate --no-cache ARGS` run in `cwd`, in this process (its CLI, -j1: a Python start-up and libcst's
    import less than a process; the tests of the CLI itself start it); a CompletedProcess."""
    from bench import native

    argv = ["--no-cache", *map(str, args)]
    here = os.getcwd()
    os.chdir(cwd)  # (not contextlib.chdir: the python-3.10 smoke runs this too)
    try:
        code, out, err = native.migrate_here(argv)
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(["uai-migrate", *argv], code, out, err)


def tf_upgrade_v2(src, out, cwd):
    main = "tensorflow.tools.compatibility.tf_upgrade_v2_main"
    return run(
        [sys.executable, "-m", main, "--intree", str(src), "--outtree", str(out), "--reportfile", str(out) + ".txt"],
        cwd,
    )
