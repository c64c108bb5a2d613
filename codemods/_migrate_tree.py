"""A whole run: discover, read and hash, take what the cache has, migrate the rest in parallel, write.

Nothing is written until every file has been migrated; then each file is replaced only if it is
still what was read, and only with a migration that parses wherever the original parsed.

A file's migration may depend on the rest of the tree (an entry script importing a TF1 graph
library, ...: codemods/engine/tree.py): it gets what the tree tells it, which is part of its cache
key. The files that cannot be entry scripts are migrated first, alone; then the entry scripts, once,
with what the others' Facts tell them; then the files that may read tf2.enabled(), with the answer of
the programs that run them; then again only the files the whole tree tells otherwise.
"""

import ast
import dataclasses
import hashlib
import multiprocessing
import multiprocessing.pool
import os
import signal
import stat
import sys
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Protocol

from codemods import _diff, _interrupts, _out_folder, _source, files
from codemods._cache import Cache
from codemods._discover import Item, discover
from codemods._report import CONFLICT, IO, PARSE, Entry, FileResult, Outcome, Report
from codemods._write import copy_into
from codemods.engine import tree as _tree
from compat import reports
from compat.files import atomic_write

if TYPE_CHECKING:
    from codemods._options import Options

MB = 1 << 20
# (kind, bytes, options, what the tree tells the file, (the cache, the file's key) or None): one file for a worker to
# migrate, check and store
_Job = tuple[str, bytes, "Options", _tree.Context | None, tuple[Cache, str] | None]


@dataclasses.dataclass
class RunConfig:
    paths: list[str]
    options: "Options"
    mode: str = "diff"  # diff | write | out | check
    out: str | None = None  # the folder of mode "out"
    jobs: int = 1
    cache_dir: str | None = None  # None: no cache
    progress: bool = False
    max_file_size: int = 16 * MB
    file_rules: tuple = files.RULE_IDS  # the Dockerfile/requirements rules selected: other such files are only copied
    code_rules: bool = True  # some code rule is selected: else Python files and notebooks are only copied

    def __post_init__(self) -> None:
        if (self.mode == "out") != (self.out is not None):
            raise ValueError(
                f"RunConfig: mode {self.mode!r} with out={self.out!r}: out is the folder of mode 'out' only"
            )


class Interrupted(Exception):
    """Ctrl-C or SIGTERM while files were written: `report` lists the files finished before it came
    (`written` of them were replaced)."""

    def __init__(self, written: int, signum: int, report: Report) -> None:
        super().__init__(written, signum)
        self.written, self.signum, self.report = written, signum, report


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """What a file was when it was read: checked again right before it is replaced."""

    size: int
    mtime_ns: int
    inode: int
    sha256: str
    mode: int  # (its permission bits: --out's copy takes them)

    @classmethod
    def of(cls, info: os.stat_result, data: bytes) -> "Snapshot":
        return cls(info.st_size, info.st_mtime_ns, info.st_ino, hashlib.sha256(data).hexdigest(), info.st_mode & 0o7777)


# (item, kind, bytes, Snapshot, cache key, what the tree tells the file): a file to migrate
_Pending = tuple[Item, str, bytes, Snapshot, str | None, _tree.Context | None]


def _migrate_one(job: _Job) -> Outcome:
    """The checked outcome of one file, stored in the cache: in the worker, so the parse check and the record's
    writing run in parallel (in the main process, beside the workers, they were a serial 1.1 s of CPU of a 2-core
    first run of migrate_bench's tree)."""
    from codemods._migrate_file import migrate  # workers import libcst; a fully cached run never does

    kind, data, options, context, store = job
    # stored checked, so a hit is served as it is (parsing every port again was a third of a warm re-run)
    checked = _checked(kind, data, migrate(kind, data, options, context))
    if store is not None:
        cache, key = store
        cache.put(key, checked)
    return checked


def _worker_init(parent: int) -> None:
    """Pool workers die with the main process, however it ends, and leave Ctrl-C to it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # Pool.terminate stops workers with it
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


class Progress(Protocol):
    """What `run` tells of its progress: `step()` once per file migrated."""

    def step(self) -> None: ...


class _Progress:
    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.done, self.enabled = total, 0, enabled

    def shrink(self, by: int) -> None:
        """`by` of the files counted were found in the cache after all."""
        self.total -= by
        if by and self.done and self.done == self.total and self.enabled and self.total > 1:
            sys.stderr.write("\n")
            sys.stderr.flush()

    def step(self) -> None:
        self.done += 1
        if self.enabled and self.total > 1:
            width = 30
            filled = width * self.done // self.total
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}")
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


class _Workers:
    """The worker processes of a run, made at its first round of files to migrate in parallel and kept
    for the tree pass's later rounds: a pool per round forked its workers again, each building again
    the tables and caches its first files fill (about 0.8 s of CPU a run on the realworld dense set)."""

    def __init__(self, n_workers: int, most: int) -> None:
        self.n_workers, self.size = n_workers, min(n_workers, most)  # `most`: the files the run may migrate
        self._pool: multiprocessing.pool.Pool | None = None

    def __enter__(self) -> "_Workers":
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            # multiprocessing.Pool, not ProcessPoolExecutor: terminate stops the workers at once, where an
            # interrupted executor would first finish every queued file (or die noisily)
            self._pool.terminate()

    def outcomes(self, jobs: list[_Job], progress: Progress) -> Iterator[Outcome]:
        """Outcomes of `jobs` in order; in-process for one worker, or for one job while no worker is made."""
        if self.size <= 1 or (len(jobs) <= 1 and self._pool is None):
            for job in jobs:
                yield _migrate_one(job)
                progress.step()
            return
        if self._pool is None:
            # the workers share the migration's modules (libcst, the rules) by fork, rather than each import them
            import codemods._migrate_file  # noqa: F401

            self._pool = multiprocessing.Pool(self.size, _worker_init, (os.getpid(),))
        # small chunks (~32 per worker): at the end no worker idles long while another finishes a big one
        for outcome in self._pool.imap(_migrate_one, jobs, chunksize=max(1, len(jobs) // (self.n_workers * 32))):
            yield outcome
            progress.step()


def _read(item: Item, max_size: int) -> tuple[bytes, Snapshot] | Entry:
    """(bytes, Snapshot), or the entry saying why not. Only regular files, never blocking."""
    try:
        fd = os.open(item.real, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as err:
        return Entry(rule=IO, severity="error", message=f"cannot read: {err.strerror}")
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return Entry(rule=IO, severity="warning", message="not a regular file: skipped")
        if info.st_size > max_size:
            limit = max_size / MB
            return Entry(rule=IO, severity="warning", message=f"larger than --max-file-size ({limit:g} MB): skipped")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read()
        return data, Snapshot.of(info, data)
    except OSError as err:
        return Entry(rule=IO, severity="error", message=f"cannot read: {err.strerror}")
    finally:
        os.close(fd)


def _still_as_read(path: str, snapshot: Snapshot) -> bool:
    try:
        info = os.stat(path)
        if (info.st_size, info.st_mtime_ns, info.st_ino) != (snapshot.size, snapshot.mtime_ns, snapshot.inode):
            return False
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest() == snapshot.sha256
    except OSError:
        return False


def _parses(kind: str, data: bytes) -> bool:
    try:
        if kind in files.KINDS:  # read back with the parser that migrated it
            return files.parses(kind, data)
        if kind == "notebook":
            notebook = _source.load_notebook(data)
            texts = [_source.cell_text(c) for c in notebook["cells"] if c.get("cell_type") == "code"]
            for text in texts:
                if not _source.is_cell_magic(text):
                    ast.parse(_source.mask_magics(text)[0])
        else:
            ast.parse(_source.decode(data)[0])
        return True
    except (SyntaxError, ValueError, RecursionError, MemoryError, _source.SourceError):
        return False


def _checked(kind: str, data: bytes, outcome: Outcome) -> Outcome:
    """The outcome, or an error outcome if its migration does not parse where the original did."""
    if outcome.new is None or _parses(kind, outcome.new) or not _parses(kind, data):
        return outcome
    problem = Entry(
        rule=PARSE,
        severity="error",
        message="the migration does not parse: file left as it is",
        manual="please report this file to the uai-compat maintainers",
    )
    return Outcome(None, [*outcome.entries, problem], skipped=True)


def _migrated(item: Item, config: RunConfig) -> bool:
    """Is `item` migrated (else, under --out, only copied)?"""
    if item.kind in files.KINDS:
        return files.KINDS[item.kind].ID in config.file_rules
    return bool(item.kind) and config.code_rules


def run(
    config: RunConfig,
    progress: Progress | None = None,
    found: tuple[list[Item], list[Entry]] | None = None,
) -> Report:
    """Migrate what `config` names. `progress` (an object with `step()`, called once per file
    migrated) defaults to a progress bar on stderr when `config.progress` is set; `found` is
    `discover`'s result when the caller has already discovered the files."""
    items, notes = found if found is not None else discover(config.paths, out=config.out)
    owned = _out_folder.check_owned(config.out) if config.out is not None else {}
    report = Report(mode=config.mode, level=config.options.level, entries=notes)
    cache = Cache(config.cache_dir, config.options) if config.cache_dir else None
    # item -> (its bytes, its Snapshot, its Outcome, from the cache?); bytes and Snapshot are None if unread
    outcomes: dict[Item, tuple[bytes | None, Snapshot | None, Outcome, bool]] = {}
    # The tree pass without migrating every program twice: the files that cannot be entry scripts
    # first; then the entry scripts, each once with the Context `plan` predicts for it from the
    # others' Facts; then the files that may read tf2.enabled(), with the answer of the programs
    # now known; then, again, each file whose Context the whole tree's Facts change (a program with
    # graph code of its own, which gets none; a file naming tf2 that reads no tf2.enabled()). A
    # file's Facts are a function of its bytes, whatever Context it was migrated with: the last
    # plan is the one of the files' Facts alone.
    read: list[tuple[Item, bytes, Snapshot]] = []
    for item in (item for item in items if _migrated(item, config)):
        got = _read(item, config.max_file_size)
        if isinstance(got, Entry):
            outcomes[item] = (None, None, Outcome(None, [got], skipped=True), False)
        else:
            read.append((item, *got))
    # (a cheap look: what holds no `if __name__ == "__main__":` block gets no entry script's Context)
    scripts = {item: data for item, data, _ in read if item.kind == "python" and b"__main__" in data}
    # (and a file naming `tf2` and `enabled` may read tf2.enabled(): migrated after the entry scripts, with the
    # answer of a program of theirs that runs it, as if it read it; the last plan still decides)
    probes = {
        item: data
        for item, data, _ in read
        if item.kind == "python" and item not in scripts and b"tf2" in data and b"enabled" in data
    }
    given: dict[Item, _tree.Context] = {}  # the Context each file was migrated with, if any
    first = _looked_up([entry for entry in read if entry[0] not in scripts | probes.keys()], given, cache, outcomes)
    bar = _Progress(len(first) + len(scripts) + len(probes), config.progress)
    steps = progress if progress is not None else bar
    with _Workers(config.jobs, len(read)) as workers:
        _migrate_pending(first, config, workers, cache, steps, outcomes)
        parsed = _Parsed(cache)
        predicted = _tree_contexts(outcomes, parsed, {**scripts, **probes}, probes)
        given.update((item, context) for item, context in predicted.items() if item in scripts)
        second = _looked_up([entry for entry in read if entry[0] in scripts], given, cache, outcomes)
        bar.shrink(len(scripts) - len(second))
        _migrate_pending(second, config, workers, cache, steps, outcomes)
        given.update(_tree_contexts(outcomes, parsed, probes, probes))
        third = _looked_up([entry for entry in read if entry[0] in probes], given, cache, outcomes)
        bar.shrink(len(probes) - len(third))
        _migrate_pending(third, config, workers, cache, steps, outcomes)
        final = _tree_contexts(outcomes, parsed)
        changed = [entry for entry in read if final.get(entry[0]) != given.get(entry[0])]
        _migrate_pending(
            _looked_up(changed, final, cache, outcomes), config, workers, cache, _Progress(0, False), outcomes
        )
    if config.out is not None:
        os.makedirs(config.out, exist_ok=True)
        # Until every file is written, each may hold its old or its new content.
        planned = {item.rel: _planned(item, outcomes) for item in items}
        _out_folder.record(config.out, _merged(owned, {rel: {p} for rel, p in planned.items() if p}))
    written = 0
    try:
        for item in items:
            if _migrated(item, config):
                old, as_read, outcome, cached = outcomes[item]
                with _interrupts.deferred():  # a file written is a file reported
                    result = _finish(item, old, as_read, outcome, config, cached)
                    written += result.status == "changed" and config.mode in ("write", "out")
                    report.files.append(result)
            elif config.out is not None:
                _copy(item, config.out, report)
    except KeyboardInterrupt as stop:
        signum = stop.args[0] if stop.args and isinstance(stop.args[0], int) else signal.SIGINT
        raise Interrupted(written, signum, report) from None
    finally:
        if config.out is not None:
            # What is there now: the new content, or the old where the run stopped or a write failed.
            done = {rel: _out_folder.fingerprint_of(os.path.join(config.out, rel)) for rel in planned}
            _out_folder.record(config.out, {**owned, **{rel: {p} for rel, p in done.items() if p}})
    return report


def _migrate_pending(
    pending: list[_Pending],
    config: RunConfig,
    workers: _Workers,
    cache: Cache | None,
    progress: Progress,
    outcomes: dict,
) -> None:
    """Migrate `pending` (by `workers`, config.jobs of them), into `outcomes` and the cache."""
    # largest first: the workers end together instead of one finishing a big file while the others idle
    pending.sort(key=lambda job: len(job[2]), reverse=True)
    jobs: list[_Job] = [
        (kind, data, config.options, context, (cache, key) if cache and key else None)
        for _, kind, data, _, key, context in pending
    ]
    for (item, _, data, snapshot, _, _), outcome in zip(pending, workers.outcomes(jobs, progress)):
        outcomes[item] = (data, snapshot, outcome, False)


# the cache's kind for the Facts of a file's parse (its imports and main block), kept apart from its migrations
_PARSED = "python-parsed"


class _Parsed:
    """The Facts of Python files not migrated, or not yet, from their parse: once a run, kept in the cache
    (a re-run on an unchanged tree parses none)."""

    def __init__(self, cache: Cache | None) -> None:
        self.cache, self.known = cache, dict[Item, _tree.Facts | None]()

    def __call__(self, item: Item, data: bytes) -> _tree.Facts | None:
        if item not in self.known:
            key = self.cache.key(f"{_PARSED}-{item.kind}", data) if self.cache else None
            hit = self.cache.get(key) if self.cache and key else None
            if hit is not None:
                self.known[item] = hit.facts
            else:
                self.known[item] = _parse_facts(item.kind, data)
                if self.cache and key:
                    self.cache.put(key, Outcome(None, [], facts=self.known[item]))
        return self.known[item]


_UNPARSED = (SyntaxError, ValueError, RecursionError, MemoryError, _source.SourceError)


def _parse_facts(kind: str | None, data: bytes) -> _tree.Facts | None:
    """The Facts of a Python file's parse, or of a notebook's code cells (their IPython lines masked; a cell that
    does not parse is left out): a notebook imports the tree's modules as a script does, but is no entry script."""
    if kind != "notebook":
        try:
            return _tree.facts_of(ast.parse(_source.decode(data)[0]))
        except _UNPARSED:
            return None
    try:
        cells = [_source.cell_text(c) for c in _source.load_notebook(data)["cells"] if c.get("cell_type") == "code"]
    except _UNPARSED:
        return None
    body: list[ast.stmt] = []
    for text in cells:
        try:
            body.extend(ast.parse(_source.mask_magics(text)[0]).body if not _source.is_cell_magic(text) else ())
        except _UNPARSED:
            continue
    return dataclasses.replace(_tree.facts_of(ast.Module(body=body, type_ignores=[])), entry=False)


def _looked_up(
    read: list[tuple[Item, bytes, Snapshot]], given: dict[Item, _tree.Context], cache: Cache | None, outcomes: dict
) -> list[_Pending]:
    """Into `outcomes`, what the cache has of `read` (each with its Context in `given`); the rest, to migrate."""
    pending: list[_Pending] = []
    for item, data, snapshot in read:
        assert item.kind is not None  # _migrated() is False for a file of no kind (only copied)
        context = given.get(item)
        key = cache.key(item.kind, data, context) if cache else None
        hit = cache.get(key) if cache and key else None
        if hit is not None:
            outcomes[item] = (data, snapshot, hit, True)
        else:
            pending.append((item, item.kind, data, snapshot, key, context))
    return pending


def _tree_contexts(
    outcomes: dict, parsed: _Parsed, waiting: Mapping[Item, bytes] | None = None, probes: Iterable[Item] = ()
) -> dict[Item, _tree.Context]:
    """The Python files read whose migration depends on the rest of the tree, with what it tells them.
    `waiting`: the files not migrated yet, {item: bytes}: then their Contexts only, from their imports
    and main block (as if no rule signalled anything of their own code but a tf2.enabled() read of
    the `probes`)."""
    data = {
        item: found[0]
        for item, found in outcomes.items()
        if item.kind in ("python", "notebook") and found[0] is not None
    }
    data.update(waiting or {})
    by_rel = {item.rel.replace(os.sep, "/"): item for item in data}
    # (a notebook's Facts come from `fill`: its migration, one program or cell by cell, records none)
    facts = {
        rel: outcomes[item][2].facts if item in outcomes and item.kind == "python" else None
        for rel, item in by_rel.items()
    }
    for item in probes:
        found = None if item in outcomes else parsed(item, data[item])
        if found is not None:
            facts[item.rel.replace(os.sep, "/")] = dataclasses.replace(found, signals=found.signals | {_tree.TF2_PROBE})

    def fill(rel: str) -> _tree.Facts | None:
        """A file the first pass did not parse (it mentions no TensorFlow), or not yet, or a notebook: its imports and
        main block."""
        return parsed(by_rel[rel], data[by_rel[rel]])

    planned = {by_rel[rel]: context for rel, context in _tree.plan(facts, fill).items()}
    return planned if waiting is None else {item: planned[item] for item in waiting if item in planned}


def _planned(item: Item, outcomes: dict) -> str | None:
    """The fingerprint `item`'s file in --out will have, or None if it is not written."""
    if item not in outcomes:
        return _out_folder.fingerprint_of(item.path)  # copied as it is (a symlink stays one)
    data, _, outcome, _ = outcomes[item]
    if data is None:
        return None
    return _out_folder.fingerprint(outcome.new if outcome.new is not None else data)


def _merged(owned: dict[str, set[str]], new: dict[str, set[str]]) -> dict[str, set[str]]:
    return {rel: owned.get(rel, set()) | new.get(rel, set()) for rel in owned.keys() | new.keys()}


def _finish(
    item: Item, data: bytes | None, snapshot: Snapshot | None, outcome: Outcome, config: RunConfig, cached: bool
) -> FileResult:
    entries = [dataclasses.replace(e, path=item.path) for e in outcome.entries]
    status = "skipped" if outcome.skipped else "changed" if outcome.new is not None else "unchanged"
    if data is None:
        status = "error" if any(e.severity == "error" for e in entries) else "skipped"
    diff = ""
    if config.mode in ("diff", "check") and outcome.new is not None:
        assert item.kind is not None and data is not None  # a migration: of a file of a kind, read
        parts = _diff.diffs_of(item.kind, data, outcome.new)
        shown = reports.shown(item.path)
        diff = "".join(f"--- {shown}{part}\n+++ {shown}{part}\n{body}" for part, body in parts)
    result = FileResult(item.path, status, entries, diff, cached)
    try:
        if config.mode == "write" and outcome.new is not None:
            assert snapshot is not None  # a migration: of a file read
            if not _still_as_read(item.real, snapshot):
                result.status = "error"
                result.entries.append(
                    Entry(
                        rule=CONFLICT,
                        severity="error",
                        path=item.path,
                        message="changed since it was read: left as it is",
                        manual="run uai-migrate again on this file",
                    )
                )
                return result
            atomic_write(item.real, outcome.new)
        elif config.mode == "out" and data is not None:
            assert config.out is not None and snapshot is not None  # RunConfig: mode "out" has its folder; a file read
            dest = os.path.join(config.out, item.rel)
            os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
            if outcome.new is None and _still_as_read(item.real, snapshot):
                copy_into(item.real, dest)
            else:  # (what the report says of the file as it was read: deleted or changed since, it is that copy)
                atomic_write(dest, data if outcome.new is None else outcome.new, mode=snapshot.mode)
                if outcome.new is None:
                    os.utime(dest, ns=(snapshot.mtime_ns, snapshot.mtime_ns))
    except OSError as err:
        result.status = "error"
        result.entries.append(Entry(rule=IO, severity="error", message=f"cannot write: {err}", path=item.path))
    return result


def _copy(item: Item, out: str, report: Report) -> None:
    try:
        copy_into(item.path, os.path.join(out, item.rel))
    except OSError as err:
        report.entries.append(Entry(rule=IO, severity="error", message=f"cannot copy: {err}", path=item.path))
