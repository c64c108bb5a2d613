"""The launcher's dead man's switch: when the launcher ends or dies, every process its tasks started dies too.

Run by path (`python -I -S _watchdog.py MARK LAUNCHER_PID OWN_ALL`, importing nothing from the project)
in its own session, so a signal sent to the launcher's process group does not reach it. Its stdin is a
pipe from the launcher, which writes `+PID START` when a task starts (its pid, which is also its process
group, and its start time) and `-PID` once it has reaped that task. End of file means the launcher is
done with the tasks or gone: it stopped them, exited, or was SIGKILLed and the kernel closed its end.

Then everything left is stopped (SIGTERM, then SIGKILL after GRACE_SECONDS): the tasks' process groups,
and every descendant of a task, also one that left the task's group and session (`setsid`, a daemon's
double fork), which a process group signal misses and the parent-death signal (PR_SET_PDEATHSIG, only
the direct child) cannot reach. A descendant is found three ways, because an orphan is reparented and
loses its ancestry:
- its parent chain, read from /proc, leads to a task, or to the launcher itself when OWN_ALL is 1 (the
  launcher is then a child subreaper that runs nothing else, so every orphan of a task becomes its child);
- it was seen as a descendant on an earlier look (every TICK_SECONDS while the launcher lives), identified
  by pid and start time so a reused pid is never signalled;
- its environment carries MARK in UAI_LAUNCH_MARKS, which the launcher gives every task and which is
  inherited across fork, exec and setsid.
The pids signalled are written to stdout, so a launcher that is their subreaper can reap them.
"""

import os
import select
import signal
import sys
import time

GRACE_SECONDS = 2.0
TICK_SECONDS = 0.25
MARKS = "UAI_LAUNCH_MARKS"

# {pid: (parent pid, start time in clock ticks after boot, is a zombie)}
Table = dict[int, tuple[int, int, bool]]


def _stat(pid: int) -> tuple[int, int, bool] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            data = stat.read()
    except OSError:
        return None
    fields = data.rsplit(b")", 1)[1].split()  # the command name in parentheses may hold spaces
    return int(fields[1]), int(fields[19]), fields[0] == b"Z"


def start_time(pid: int) -> int | None:
    """When `pid` started (clock ticks after boot): with the pid, what names one process for good."""
    entry = _stat(pid)
    return None if entry is None else entry[1]


def process_table() -> Table:
    """Every process of /proc (none where there is no /proc)."""
    table: Table = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if name.isdigit():
            entry = _stat(int(name))
            if entry is not None:
                table[int(name)] = entry
    return table


def carries_mark(pid: int, mark: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            data = environ.read()
    except OSError:  # another user's process, or gone
        return False
    prefix = MARKS.encode() + b"="
    for entry in data.split(b"\0"):
        if entry.startswith(prefix):
            return mark in entry[len(prefix) :].split(b":")
    return False


class Descendants:
    """What the tasks of one launcher started, as far as /proc tells."""

    def __init__(self, mark: bytes, launcher: int, own_all: bool) -> None:
        self.mark = mark
        self.launcher = (launcher, start_time(launcher))
        self.own_all = own_all
        self.groups: set[int] = set()
        self.tasks: dict[int, int] = {}  # pid: start time
        self.seen: dict[int, int] = {}  # pid: start time, every descendant found so far

    def add_task(self, pid: int, start: int) -> None:
        self.groups.add(pid)
        self.tasks[pid] = start

    def forget_task(self, pid: int) -> None:
        self.groups.discard(pid)
        self.tasks.pop(pid, None)

    def scan(self, marks: bool) -> dict[int, int]:
        """{pid: start time} of the live descendants now, remembered for later scans."""
        table = process_table()
        anchors = {
            pid for pid, start in (*self.tasks.items(), *self.seen.items()) if table.get(pid, (0, -1))[1] == start
        }
        launcher, launcher_start = self.launcher
        if self.own_all and table.get(launcher, (0, -1))[1] == launcher_start:
            anchors.add(launcher)
        memo: dict[int, bool] = {}

        def descends(pid: int) -> bool:
            chain = []
            while pid not in memo and pid not in anchors and pid in table and pid > 1:
                chain.append(pid)
                pid = table[pid][0]
            found = memo.get(pid, pid in anchors)
            for link in chain:
                memo[link] = found
            return found

        found = {}
        for pid, (_, start, zombie) in table.items():
            if zombie or pid in (os.getpid(), launcher):
                continue
            if descends(pid) or (marks and carries_mark(pid, self.mark)):
                found[pid] = start
        self.seen = {pid: start for pid, start in self.seen.items() if pid in table}
        self.seen.update(found)
        return found


def _send(pid: int, start: int, signum: int) -> None:
    """Signal `pid` only if it is still the process that started at `start` (a pidfd pins it meanwhile)."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    except (AttributeError, OSError):  # no pidfd (kernel < 5.3): the start time check alone
        pidfd = None
    try:
        if start_time(pid) != start:
            return
        if pidfd is None:
            os.kill(pid, signum)
        else:
            signal.pidfd_send_signal(pidfd, signum)
    except OSError:  # gone meanwhile, or not ours to signal
        pass
    finally:
        if pidfd is not None:
            os.close(pidfd)


def _signal_groups(groups: set[int], signum: int) -> None:
    for group in list(groups):
        try:
            os.killpg(group, signum)
        except ProcessLookupError:
            groups.discard(group)


def stop_all(descendants: Descendants) -> set[int]:
    """SIGTERM the tasks' groups and every descendant, SIGKILL what is left after GRACE_SECONDS; the pids signalled."""
    # Looked up before any signal: a task that dies reparents its children, which lose their ancestry.
    found = descendants.scan(marks=True)
    signalled = set(found)
    _signal_groups(descendants.groups, signal.SIGTERM)
    for pid, start in found.items():
        _send(pid, start, signal.SIGTERM)
    deadline = time.monotonic() + GRACE_SECONDS
    while time.monotonic() < deadline:
        time.sleep(0.05)
        found = descendants.scan(marks=True)
        _signal_groups(descendants.groups, 0)
        if not found and not descendants.groups:
            return signalled
        for pid, start in found.items():
            if pid not in signalled:  # started meanwhile: it gets the same warning
                _send(pid, start, signal.SIGTERM)
        signalled.update(found)
    _signal_groups(descendants.groups, signal.SIGKILL)
    for _ in range(10):  # a process forked between a scan and its parent's SIGKILL is found on the next
        found = descendants.scan(marks=True)
        if not found:
            break
        for pid, start in found.items():
            _send(pid, start, signal.SIGKILL)
        signalled.update(found)
        time.sleep(0.02)
    return signalled


def watch(descendants: Descendants) -> None:
    """Read the launcher's messages until end of file, looking at the descendants every TICK_SECONDS."""
    pending = b""
    last_scan = 0.0
    while True:
        if time.monotonic() - last_scan >= TICK_SECONDS:
            descendants.scan(marks=False)
            last_scan = time.monotonic()
        if select.select([0], [], [], TICK_SECONDS)[0]:
            data = os.read(0, 65536)
            if not data:
                return
            pending += data
            *lines, pending = pending.split(b"\n")
            for line in lines:
                words = line.split()
                if line.startswith(b"+"):
                    descendants.add_task(int(words[0][1:]), int(words[1]))
                elif line.startswith(b"-"):
                    descendants.forget_task(int(words[0][1:]))


def main() -> None:
    mark, launcher, own_all = sys.argv[1].encode(), int(sys.argv[2]), sys.argv[3] == "1"
    descendants = Descendants(mark, launcher, own_all)
    watch(descendants)
    signalled = stop_all(descendants)
    try:
        sys.stdout.write("".join(f"{pid}\n" for pid in sorted(signalled)))
        sys.stdout.flush()
    except OSError:  # the launcher is gone: nobody reaps them but their new parent
        pass


if __name__ == "__main__":
    main()
