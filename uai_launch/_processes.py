"""Processes of a local cluster: start, prefix and log their output, stop them all, always."""

import ctypes
import fcntl
import os
import secrets
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO

from compat.outputs import Reads, output_file
from compat.tf_config import Task
from uai_launch._errors import LaunchError, reason
from uai_launch._layout import Layout
from uai_launch._watchdog import GRACE_SECONDS, MARKS, process_table, start_time

Echo = Callable[[bytes], None]

_WATCHDOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_watchdog.py")


def exit_status(returncode: int) -> int:
    """A shell-style status: a task killed by signal N counts as 128 + N."""
    return 128 - returncode if returncode < 0 else returncode


def check_command(command: list[str], env: Mapping[str, str], cwd: str | None = None) -> None:
    """Raise `LaunchError` unless `command[0]` is an executable file the tasks can start.

    Resolved the way the tasks' exec resolves it: a name through the tasks' PATH, a path with
    a slash relative to the tasks' working folder.
    """
    program = command[0]
    if os.sep in program:
        path = os.path.join(cwd or os.getcwd(), program)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise LaunchError("command", f"{program!r} is not an executable file")
    elif shutil.which(program, path=env.get("PATH", os.defpath)) is None:
        raise LaunchError("command", f"{program!r} not found on PATH (or not executable)")


_PR_SET_CHILD_SUBREAPER = 36
_PR_GET_CHILD_SUBREAPER = 37


def _subreaper(on: bool) -> bool | None:
    """Make this process a child subreaper (or not); return the previous setting, None where unsupported.

    A subreaper inherits the orphans among its descendants, which init would take otherwise: a
    task's child that left the task's session stays this process's descendant when the task ends.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    previous = ctypes.c_int()
    if prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(previous), 0, 0, 0) != 0:
        return None
    if prctl(_PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) != 0:
        return None
    return bool(previous.value)


class _Watchdog:
    """A process that stops the tasks and all they started when this one is done or dies (see _watchdog.py)."""

    def __init__(self, mark: str, own_all: bool) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-S", _WATCHDOG, mark, str(os.getpid()), "1" if own_all else "0"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        assert self.process.stdin is not None  # stdin=PIPE
        self._stdin = self.process.stdin
        self._lock = threading.Lock()

    def _send(self, line: str) -> None:
        with self._lock:
            try:
                self._stdin.write(line.encode() + b"\n")
                self._stdin.flush()
            except (BrokenPipeError, ValueError):
                pass  # the watchdog is gone (killed by someone); stopping the tasks is still ours

    def watch(self, pid: int) -> None:
        started = start_time(pid)  # the task is not reaped yet: its /proc entry is there
        if started is not None:
            self._send(f"+{pid} {started}")

    def forget(self, pid: int) -> None:
        self._send(f"-{pid}")

    def close(self) -> list[int]:
        """Let it stop whatever the tasks left running (it gets end of file); the pids it signalled."""
        with self._lock:
            try:
                out, _ = self.process.communicate(timeout=GRACE_SECONDS + 10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                out, _ = self.process.communicate()
        return [int(word) for word in out.split() if word.isdigit()]


class TaskProcess:
    """One task: its process group, its log file, and a thread copying its output with a `[job:i]` prefix.

    Started when made, as `subprocess.Popen` is: a TaskProcess always has its process.
    The task leads a session of its own, so a signal reaches its children too, and they are
    stopped with it even when the task itself has already exited.
    """

    def __init__(
        self,
        task: Task,
        command: Sequence[str],
        env: Mapping[str, str],
        log_path: str,
        echo: Echo | None,
        cwd: str | None = None,
    ) -> None:
        self.task = task
        self.command = list(command)
        self.env = env
        self.log_path = log_path
        self.echo = echo
        self.cwd = cwd
        self._group_gone = False
        log = open(self.log_path, "ab")
        try:
            self.process = subprocess.Popen(
                self.command,
                env=self.env,
                cwd=self.cwd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except (OSError, ValueError) as err:  # ValueError: a NUL byte in an argument
            log.close()
            raise LaunchError("command", f"cannot start {self.command[0]!r}: {reason(err)}") from None
        assert self.process.stdout is not None  # stdout=PIPE
        # Written to once the task and its group are gone: the copying thread then reads what the
        # pipe holds and ends, instead of waiting for an end of file that a descendant holding the
        # pipe's write end (one in a session of its own) would put off until it is killed.
        self._wake_read, wake_write = os.pipe()
        self._wake_write: int | None = wake_write
        self._wake_lock = threading.Lock()
        self._finishing = threading.Event()
        self._pump = threading.Thread(target=self._copy_output, args=(log, self.process.stdout), daemon=True)
        self._pump.start()

    @property
    def group(self) -> int:
        return self.process.pid

    def _chunks(self, output: int) -> Iterator[bytes]:
        """What the task writes, until end of file or, once `_finish_output` was called, until the pipe is empty."""
        poller = select.poll()
        poller.register(output, select.POLLIN)
        poller.register(self._wake_read, select.POLLIN)
        while not self._finishing.is_set():
            ready = {fd for fd, _ in poller.poll()}
            if output not in ready:
                continue  # woken: the loop ends
            chunk = os.read(output, 65536)
            if not chunk:
                return
            yield chunk
        # The task has exited, so all it wrote is in the pipe, which holds at most its capacity:
        # reading that much (or until it is empty) copies the task's own output in full.
        os.set_blocking(output, False)
        try:
            budget = fcntl.fcntl(output, fcntl.F_GETPIPE_SZ)
        except (OSError, AttributeError):  # no F_GETPIPE_SZ: Linux's largest pipe by default
            budget = 1 << 20
        while budget > 0:
            try:
                chunk = os.read(output, min(budget, 65536))
            except BlockingIOError:
                return
            if not chunk:
                return
            budget -= len(chunk)
            yield chunk

    def _copy_output(self, log_file: IO[bytes], output: IO[bytes]) -> None:
        # Reads to the end whatever fails downstream: a task writing to a pipe nobody reads blocks.
        prefix = f"[{self.task}] ".encode()
        echo = self.echo
        log: IO[bytes] | None = log_file
        partial = b""
        with log_file, output:
            for chunk in self._chunks(output.fileno()):
                *lines, partial = (partial + chunk).split(b"\n")
                if lines:
                    log, echo = self._emit([line + b"\n" for line in lines], prefix, log, echo)
            if partial:  # a last line without its newline
                self._emit([partial], prefix, log, echo)
        with self._wake_lock:
            self._close_wake()
            os.close(self._wake_read)

    @staticmethod
    def _emit(
        lines: list[bytes], prefix: bytes, log: IO[bytes] | None, echo: Echo | None
    ) -> tuple[IO[bytes] | None, Echo | None]:
        """Write `lines` to the log and, prefixed, to the echo; return those of the two still working."""
        if log is not None:
            try:
                log.write(b"".join(lines))
                log.flush()
            except OSError:
                log = None  # disk full: the echo still shows the output
        if echo is not None:
            try:
                echo(b"".join(prefix + line for line in lines))  # whole lines: tasks' lines never interleave
            except OSError:
                echo = None  # a closed stdout (`| head`): the log still has the output
        return log, echo

    def _close_wake(self) -> None:
        if self._wake_write is not None:
            os.close(self._wake_write)
            self._wake_write = None

    def _finish_output(self) -> None:
        with self._wake_lock:
            self._finishing.set()
            if self._wake_write is not None:  # else the copying has ended already
                os.write(self._wake_write, b"x")
                self._close_wake()

    def poll(self) -> int | None:
        return self.process.poll()

    def group_alive(self) -> bool:
        """True while the task or anything left in its process group runs.

        Once the group is seen empty it is never signalled again: its id, the task's pid, is
        free for the kernel to reuse from then on (not before: a pid stays reserved while
        the task is unreaped or any process of its group lives).
        """
        if self._group_gone:
            return False
        if self.process.poll() is None:
            return True
        try:
            os.killpg(self.group, 0)
        except ProcessLookupError:
            self._group_gone = True
        return not self._group_gone

    def signal(self, signum: int) -> None:
        """Send `signum` to the task's whole process group, including what outlived the task itself."""
        if self.group_alive():
            try:
                os.killpg(self.group, signum)
            except ProcessLookupError:
                self._group_gone = True

    def wait(self, timeout: float | None = None) -> int:
        code = self.process.wait(timeout)
        if self.group_alive():
            # Its children in its group may still write: the reader goes on, and gets a moment
            # to copy what the task itself wrote.
            self._pump.join(0.5)
        else:
            # Nothing of the group is left to write but what left the group (a `setsid` child
            # holding the pipe, stopped with the cluster): copy what the pipe holds, then stop.
            self._finish_output()
            self._pump.join(5)
        return code


class Interrupted(Exception):
    """The launcher got SIGINT or SIGTERM; `signum` is the first one."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(f"interrupted by {signal.Signals(signum).name}")


def command_files(command: Sequence[str]) -> list[str]:
    """The files a command runs or names (its program, a script argument): no output may be one."""
    files = [arg for arg in command if os.path.isfile(arg)]
    program = shutil.which(command[0]) if command else None
    return [*files, program] if program else files


class LocalCluster:
    """Run `command` once per task of `layout` on 127.0.0.1, each with its own TF_CONFIG.

    Use as a context manager: leaving the block stops every task's process group (SIGTERM, then
    SIGKILL), then every other process the tasks started, also one in a session of its own, so no
    process outlives it, whatever happened inside. A watchdog process does the same if this process
    dies first, even by SIGKILL (see _watchdog.py for how descendants are found).

    `subreaper=True` is for a process that runs nothing but the cluster, as uai-launch does: it is a
    child subreaper while the cluster runs, so every orphan of a task becomes its child, and all its
    descendants count as the cluster's, whatever they did to their session or environment.
    """

    def __init__(
        self,
        layout: Layout,
        command: Sequence[str],
        log_dir: str,
        echo: Echo | None = None,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
        keep_going: bool = False,
        subreaper: bool = False,
    ) -> None:
        self.layout = layout.validate()
        self.command = list(command)
        self.log_dir = log_dir
        self.echo = echo
        self.base_env = dict(os.environ if env is None else env)
        self.cwd = cwd
        self.keep_going = keep_going
        self.cluster = layout.cluster()
        self.configs = layout.task_configs(self.cluster)
        self.tasks: dict[Task, TaskProcess] = {}
        self.interrupted: int | None = None
        self.subreaper = subreaper
        self._watchdog: _Watchdog | None = None
        self._started: list[TaskProcess] = []
        # Inherited by everything the tasks start, so the watchdog knows them even once reparented.
        self._mark = secrets.token_hex(8)
        self._was_subreaper: bool | None = None

    # -- lifecycle ----------------------------------------------------------------------
    def _log_path(self, task: Task) -> str:
        return os.path.join(self.log_dir, f"{task.type}-{task.index}.log")

    def _check_can_start(self) -> None:
        """Every check that can fail before any process starts: none is left half-started."""
        if not self.command:
            raise LaunchError("command", "empty")
        check_command(self.command, self.base_env, self.cwd)
        reads = Reads(command_files(self.command))
        try:
            os.makedirs(self.log_dir, exist_ok=True)
            for task in self.layout.tasks():
                # appended to, never replaced: still never a file the command runs, nor a device or FIFO
                output_file("--log-dir", self._log_path(task), reads, stdout_ok=False)
                open(self._log_path(task), "ab").close()
        except (OSError, ValueError) as err:  # ValueError: a NUL byte in the path
            raise LaunchError("--log-dir", f"cannot write logs in {self.log_dir!r}: {reason(err)}") from None

    def start_task(self, task: Task) -> TaskProcess:
        """(Re)start one task with its TF_CONFIG; its log file is appended to across restarts."""
        if self._watchdog is None:
            if self.subreaper and self._was_subreaper is None:
                self._was_subreaper = _subreaper(True)
            self._watchdog = _Watchdog(self._mark, own_all=self._was_subreaper is not None)
        marks = ":".join(filter(None, [self.base_env.get(MARKS), self._mark]))  # a launcher run by a task: both
        env = dict(self.base_env, TF_CONFIG=self.configs[task], PYTHONUNBUFFERED="1", **{MARKS: marks})
        proc = TaskProcess(task, self.command, env, self._log_path(task), self.echo, self.cwd)
        self._watchdog.watch(proc.group)
        self.tasks[task] = proc
        self._started.append(proc)  # a restarted task's earlier group may still hold its children
        return proc

    def start(self) -> "LocalCluster":
        self._check_can_start()
        try:
            for task in self.layout.tasks():
                self.start_task(task)
        except BaseException:
            self.stop()
            raise
        return self

    def __enter__(self) -> "LocalCluster":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self, grace: float = 5.0) -> None:
        """SIGTERM every task's group, SIGKILL what is left of them after `grace` seconds, then the
        same for every other descendant of the tasks (the watchdog's job, with its own grace)."""
        self.signal_all(signal.SIGTERM)
        self._wait_groups(grace)
        self.signal_all(signal.SIGKILL)
        for proc in self._started:
            proc.wait()
        if self._watchdog is not None:
            # SIGKILL reached every member of each group at once, and the tasks are reaped: their
            # pids may be reused, so the watchdog no longer signals their groups. What left the
            # groups is still the watchdog's to find and stop, at its end of file.
            for proc in self._started:
                self._watchdog.forget(proc.group)
            self._reap(self._watchdog.close())
            self._watchdog = None
        if self._was_subreaper is not None:
            _subreaper(self._was_subreaper)
            self._was_subreaper = None

    def _own_children(self) -> set[int]:
        watchdog = [] if self._watchdog is None else [self._watchdog.process.pid]
        return {proc.process.pid for proc in self._started} | set(watchdog)

    def _reap(self, pids: Sequence[int] = (), within: float = 1.0) -> None:
        """Reap the orphans this subreaper adopted that have ended, and wait up to `within` seconds
        for those of `pids` (just killed) to end: a zombie would keep its process group alive."""
        if self._was_subreaper is None:
            return
        own, me = self._own_children(), os.getpid()
        deadline = time.monotonic() + within
        waiting = set(pids) - own
        while True:
            adopted = {pid: zombie for pid, (parent, _, zombie) in process_table().items() if parent == me}
            waiting &= set(adopted)  # the others are gone (or were never ours)
            for pid, zombie in adopted.items():
                if pid not in own and (zombie or pid in waiting):
                    try:
                        if os.waitpid(pid, os.WNOHANG)[0] == pid:
                            waiting.discard(pid)
                    except ChildProcessError:
                        waiting.discard(pid)
            if not waiting or time.monotonic() >= deadline:
                return
            time.sleep(0.02)

    def _wait_groups(self, timeout: float, poll: float = 0.05) -> bool:
        """Wait up to `timeout` seconds for every task's group to be empty; True if all are."""
        end = time.monotonic() + timeout
        while True:
            self._reap()
            if not any(proc.group_alive() for proc in self._started):
                return True
            if time.monotonic() >= end:
                return False
            time.sleep(poll)

    def signal_all(self, signum: int) -> None:
        for proc in list(self._started):
            proc.signal(signum)

    def interrupt(self, signum: int) -> None:
        """A signal handler: forward the first SIGINT/SIGTERM to every task, SIGKILL them on the next one.

        `wait` then raises `Interrupted`; tasks that handle the signal get to save and exit.
        """
        if self.interrupted is None:
            self.interrupted = signum
            self.signal_all(signum)
        else:
            self.signal_all(signal.SIGKILL)

    def kill(self, task: Task, signum: int = signal.SIGKILL) -> int:
        self.tasks[task].signal(signum)
        return self.tasks[task].wait()

    # -- the job's outcome ----------------------------------------------------------------
    @property
    def chief_task(self) -> Task:
        job = "chief" if self.layout.chief else "worker"
        return next(task for task in self.tasks if task.type == job and task.index == 0)

    def wait(self, timeout: float | None = None, poll: float = 0.2, grace: float = 10.0) -> int:
        """Wait for the chief; return the job's exit status.

        The status is the chief's, or that of the first other task that fails before the
        chief ends (unless `keep_going`, for jobs that survive losing a worker). When the chief
        ends, tasks still running get `grace` seconds (MultiWorkerMirrored workers finish with
        it), then the rest (servers that only join(): ps, PS-strategy workers) are stopped.
        Raises `Interrupted` once `interrupt` was called, `TimeoutError` after `timeout` seconds.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        chief = self.tasks[self.chief_task]
        while chief.poll() is None:
            if self.interrupted is not None:
                raise Interrupted(self.interrupted)
            if not self.keep_going:
                for proc in self.tasks.values():
                    code = proc.poll()
                    if proc is not chief and code not in (None, 0):
                        return exit_status(code)
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"the chief ({self.chief_task}) did not finish within {timeout:g} s")
            self._reap()
            time.sleep(poll)
        status = exit_status(chief.wait())
        self.wait_all(grace, poll)
        return status

    def wait_all(self, timeout: float, poll: float = 0.2) -> bool:
        """Wait up to `timeout` seconds for every task to end by itself; True if all did."""
        end = time.monotonic() + timeout
        while any(p.poll() is None for p in self.tasks.values()):
            if time.monotonic() >= end:
                return False
            self._reap()
            time.sleep(poll)
        return True

    def logs(self) -> dict[Task, str]:
        """{task: text of its log file so far}."""
        out = {}
        for task, proc in self.tasks.items():
            with open(proc.log_path, "rb") as log:
                out[task] = log.read().decode(errors="replace")
        return out
