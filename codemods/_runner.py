"""A whole run: discover, read and hash, take what the cache has, migrate the rest in parallel, write."""

import concurrent.futures
import dataclasses
import os
import sys

from codemods._cache import Cache
from codemods._discover import discover
from codemods._report import IO, Entry, FileResult, Outcome, Report
from codemods._write import atomic_write, copy_into


@dataclasses.dataclass
class RunConfig:
    paths: list
    mode: str = "diff"  # diff | write | out | check
    out: str | None = None
    options: object = None  # codemods._engine.Options
    jobs: int = 1
    cache_dir: str | None = None  # None: no cache
    progress: bool = False


def _migrate_one(job):
    from codemods._engine import migrate  # workers import libcst; a fully cached run never does

    kind, data, options = job
    return migrate(kind, data, options)


class _Progress:
    def __init__(self, total, enabled):
        self.total, self.done, self.enabled = total, 0, enabled and total > 1

    def step(self):
        self.done += 1
        if self.enabled:
            width = 30
            filled = width * self.done // self.total
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}")
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


def _compute(jobs, n_workers, progress):
    """Outcomes of `jobs` in order; in-process for one worker or one job."""
    if n_workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield _migrate_one(job)
            progress.step()
        return
    # small chunks (~32 per worker): at the end no worker idles long while another finishes a big one
    with concurrent.futures.ProcessPoolExecutor(max_workers=min(n_workers, len(jobs))) as pool:
        for outcome in pool.map(_migrate_one, jobs, chunksize=max(1, len(jobs) // (n_workers * 32))):
            yield outcome
            progress.step()


def _read(item):
    try:
        with open(item.real, "rb") as handle:
            return handle.read(), None
    except OSError as err:
        return None, Entry(rule=IO, severity="error", message=f"cannot read: {err.strerror}")


def run(config):
    items, notes = discover(config.paths, out=config.out)
    report = Report(mode=config.mode, level=config.options.level, entries=notes)
    cache = Cache(config.cache_dir, config.options) if config.cache_dir else None
    sources = [item for item in items if item.kind]
    outcomes, pending = {}, []
    for item in sources:
        data, problem = _read(item)
        if problem is not None:
            outcomes[item] = (None, Outcome(None, [problem], skipped=True), None)
            continue
        key = cache.key(item.kind, data) if cache else None
        cached = cache.get(key) if cache else None
        if cached is not None:
            outcomes[item] = (data, cached, "cached")
        else:
            pending.append((item, data, key))
    progress = _Progress(len(pending), config.progress)
    jobs = [(item.kind, data, config.options) for item, data, _ in pending]
    for (item, data, key), outcome in zip(pending, _compute(jobs, config.jobs, progress)):
        if cache:
            cache.put(key, outcome)
        outcomes[item] = (data, outcome, None)
    for item in items:
        if item.kind:
            data, outcome, cached = outcomes[item]
            report.files.append(_finish(item, data, outcome, config, cached == "cached"))
        elif config.mode == "out":
            _copy(item, config.out, report)
    return report


def _finish(item, data, outcome, config, cached):
    entries = [dataclasses.replace(e, path=item.path) for e in outcome.entries]
    status = "skipped" if outcome.skipped else "changed" if outcome.new is not None else "unchanged"
    if data is None:
        status = "error"
    diff = "".join(f"--- {item.path}{part}\n+++ {item.path}{part}\n{body}" for part, body in outcome.diffs)
    result = FileResult(item.path, status, entries, diff, cached)
    try:
        if config.mode == "write" and outcome.new is not None:
            atomic_write(item.real, outcome.new)
        elif config.mode == "out" and data is not None:
            dest = os.path.join(config.out, item.rel)
            os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
            if outcome.new is None:
                copy_into(item.real, dest)
            else:
                atomic_write(dest, outcome.new, mode=os.stat(item.real).st_mode & 0o7777)
    except OSError as err:
        result.entries.append(Entry(rule=IO, severity="error", message=f"cannot write: {err}", path=item.path))
    return result


def _copy(item, out, report):
    try:
        copy_into(item.path, os.path.join(out, item.rel))
    except OSError as err:
        report.entries.append(Entry(rule=IO, severity="error", message=f"cannot copy: {err}", path=item.path))
