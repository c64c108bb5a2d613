"""Processes of a local cluster: start, prefix and log their output, stop them all, always."""

import ctypes
import os
import signal
import subprocess
import sys
import threading
import time

_PR_SET_PDEATHSIG = 1


def _die_with_launcher():
    # Runs in the child between fork and exec. Its own session lets us signal the task's whole
    # process tree; PDEATHSIG kills it if the launcher dies without cleaning up (SIGKILL).
    os.setsid()
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def exit_status(returncode):
    """A shell-style status: a task killed by signal N counts as 128 + N."""
    return 128 - returncode if returncode < 0 else returncode


class TaskProcess:
    """One task: its process, its log file, and a thread copying its output with a `[job:i]` prefix."""

    def __init__(self, task, command, env, log_path, echo, cwd=None):
        self.task = task
        self.command = list(command)
        self.env = env
        self.log_path = log_path
        self.echo = echo
        self.cwd = cwd
        self.process = None
        self._pump = None

    def start(self):
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            self.command,
            env=self.env,
            cwd=self.cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            preexec_fn=_die_with_launcher,
        )
        self._pump = threading.Thread(target=self._copy_output, args=(log,), daemon=True)
        self._pump.start()
        return self

    def _copy_output(self, log):
        prefix = f"[{self.task}] ".encode()
        with log:
            for line in iter(self.process.stdout.readline, b""):
                log.write(line)
                log.flush()
                if self.echo is not None:
                    self.echo(prefix + line)
        self.process.stdout.close()

    def poll(self):
        return self.process.poll()

    def signal(self, signum):
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signum)
            except ProcessLookupError:
                pass

    def wait(self, timeout=None):
        code = self.process.wait(timeout)
        self._pump.join(5)
        return code


class LocalCluster:
    """Run `command` once per task of `layout` on 127.0.0.1, each with its own TF_CONFIG.

    Use as a context manager: leaving the block stops every task (SIGTERM, then SIGKILL), so
    no process outlives it, whatever happened inside.
    """

    def __init__(self, layout, command, log_dir, echo=None, env=None, cwd=None, keep_going=False):
        self.layout = layout.validate()
        self.command = list(command)
        self.log_dir = log_dir
        self.echo = echo
        self.base_env = dict(os.environ if env is None else env)
        self.cwd = cwd
        self.keep_going = keep_going
        self.cluster = layout.cluster()
        self.configs = layout.task_configs(self.cluster)
        self.tasks = {}

    # -- lifecycle ----------------------------------------------------------------------
    def start_task(self, task):
        """(Re)start one task with its TF_CONFIG; its log file is appended to across restarts."""
        env = dict(self.base_env, TF_CONFIG=self.configs[task], PYTHONUNBUFFERED="1")
        log_path = os.path.join(self.log_dir, f"{task.type}-{task.index}.log")
        self.tasks[task] = TaskProcess(task, self.command, env, log_path, self.echo, self.cwd).start()
        return self.tasks[task]

    def start(self):
        os.makedirs(self.log_dir, exist_ok=True)
        for task in self.layout.tasks():
            self.start_task(task)
        return self

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def stop(self, grace=5.0):
        """SIGTERM every live task, SIGKILL what is left after `grace` seconds."""
        self.signal_all(signal.SIGTERM)
        deadline = time.monotonic() + grace
        for proc in self.tasks.values():
            try:
                proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        self.signal_all(signal.SIGKILL)
        for proc in self.tasks.values():
            proc.wait()

    def signal_all(self, signum):
        for proc in self.tasks.values():
            proc.signal(signum)

    def kill(self, task, signum=signal.SIGKILL):
        self.tasks[task].signal(signum)
        return self.tasks[task].wait()

    # -- the job's outcome ----------------------------------------------------------------
    @property
    def chief_task(self):
        job = "chief" if self.layout.chief else "worker"
        return next(task for task in self.tasks if task.type == job and task.index == 0)

    def wait(self, timeout=None, poll=0.2, grace=10.0):
        """Wait for the chief; return the job's exit status.

        The status is the chief's, or that of the first other task that fails before the
        chief ends (unless `keep_going`, for jobs that survive losing a worker). When the chief
        ends, tasks still running get `grace` seconds (MultiWorkerMirrored workers finish with
        it), then the rest (servers that only join(): ps, PS-strategy workers) are stopped.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        chief = self.tasks[self.chief_task]
        while chief.poll() is None:
            if not self.keep_going:
                for proc in self.tasks.values():
                    code = proc.poll()
                    if proc is not chief and code not in (None, 0):
                        return exit_status(code)
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"the chief ({self.chief_task}) did not finish within {timeout:.0f} s")
            time.sleep(poll)
        status = exit_status(chief.wait())
        self.wait_all(grace, poll)
        return status

    def wait_all(self, timeout, poll=0.2):
        """Wait up to `timeout` seconds for every task to end by itself; True if all did."""
        end = time.monotonic() + timeout
        while any(p.poll() is None for p in self.tasks.values()):
            if time.monotonic() >= end:
                return False
            time.sleep(poll)
        return True

    def logs(self):
        """{task: text of its log file so far}."""
        out = {}
        for task, proc in self.tasks.items():
            with open(proc.log_path, "rb") as log:
                out[task] = log.read().decode(errors="replace")
        return out
