"""Migrate one file's bytes: the work a worker process does. Pure: bytes in, outcome out."""

import ast
import codecs
import contextlib
import dataclasses
import functools
import gc
import re
from collections.abc import Callable, Iterator
from typing import cast

import libcst as cst

from codemods import _cells, _python2, _source, _tf2_code, files
from codemods._report import PARSE, TF2_CODE, Entry, Outcome
from codemods.engine import names as _names
from codemods.engine import tree as _tree
from codemods.engine.apply import apply_rules, claims_of
from codemods.rules import select, tf1_api
from compat import library_names
from compat.python2 import is_python2

# A file that mentions none of these cannot use anything a rule rewrites: skip it unparsed (the
# libraries of compat.library_names too: a TensorFlow-free module reads `np.bool` or `collections.Mapping`).
PREFILTER = re.compile(
    "|".join(
        ["tensorflow", "uaitrain", "uflag", "uai_dist", *sorted({m.split(".")[0] for m in library_names.RENAMED})]
    ).encode()
)
_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)
PY2_MANUAL = "port this file to Python 3, then run uai-migrate again"


@dataclasses.dataclass(frozen=True)
class Options:
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    level: str = "safe"


def _syntax_entry(err: SyntaxError, what: str = "file") -> Entry:
    text = err.msg or "invalid syntax"
    py2 = is_python2(err)
    reason = "Python 2 source" if py2 else "does not parse as Python 3"
    return Entry(
        rule=PARSE,
        severity="error",
        message=f"{what} skipped: {reason}: {text}",
        line=err.lineno or 0,
        col=err.offset or 0,
        manual=PY2_MANUAL if py2 else "fix the syntax error, then run uai-migrate again",
    )


def _transform(
    text: str, tree: ast.Module, table: _names.NameTable, options: Options, context: _tree.Context | None = None
) -> tuple[str, list[Entry], frozenset[str]]:
    """(the new text, the entries, what the rules signalled to the tree pass)"""
    rules = select(options.select, options.ignore, options.level)
    if not rules:
        return text, [], frozenset()
    instances = [rule(options.level) for rule in rules]
    module = cst.parse_module(text)
    applied = apply_rules(module, instances, claims_of(rules), table, tree, text, tree_context=context)
    return applied.module.code, applied.entries, applied.signals


def _python2_port(text: str, options: Options) -> tuple[str, list[Entry]] | None:
    """A Python 2 file ported to Python 3 when the py2-port rule is selected, or None: rules parse Python 3 only."""
    if _python2.ID not in {rule.ID for rule in select(options.select, options.ignore, options.level)}:
        return None
    return _python2.port(text)


def _wide_encoding(data: bytes) -> str | None:
    """A reason Python cannot read these bytes as source at all (UTF-16/32, NUL bytes), or None."""
    for bom, name in _WIDE_BOMS:
        if data.startswith(bom):
            return f"{name} encoded; Python reads source only as UTF-8 or a PEP 263 encoding"
    if b"\0" in data:
        return "contains NUL bytes (UTF-16 without a byte order mark, or not text)"
    return None


def _tf2_options(
    trees: list[ast.Module], text: str, options: Options, cells: list[int] | None = None
) -> tuple[Options, list[Entry]]:
    """The options for the modules of one namespace (a file, or a notebook's cells of these indexes), and the
    tf2-code entry where they are TF 2 code: their TensorFlow names keep their TF 2 reading, without tf1-api, whose
    renames read them as TF1's; what TF 2 code may still need runs (compat's tf.estimator, an Estimator strategy's
    graph mode, NumPy's names)."""
    tf2 = _tf2_code.evidence(trees, text)
    if tf2 is None:
        return options, []
    name, line, index = tf2
    message = f"TF 2 code: its tf names left as written ({name} is TF 2's, and it names nothing TF 2 lacks)"
    entry = Entry(
        rule=TF2_CODE, severity="info", message=message, line=line, cell=None if cells is None else cells[index]
    )
    return dataclasses.replace(options, ignore=(*options.ignore, tf1_api.Tf1ApiRule.ID)), [entry]


def migrate_python(data: bytes, options: Options, context: _tree.Context | None = None) -> Outcome:
    wide = _wide_encoding(data)
    if wide:  # the TensorFlow prefilter cannot see through it either: never report such a file as unchanged
        return Outcome(
            None,
            [
                Entry(
                    rule=PARSE,
                    severity="error",
                    message=f"file skipped: {wide}",
                    manual="save the file as UTF-8, then run uai-migrate again",
                )
            ],
            skipped=True,
        )
    if not PREFILTER.search(data) and context is None:
        return Outcome(None, [])
    try:
        text, encoding = _source.decode(data)
    except _source.SourceError as err:
        return Outcome(None, [Entry(rule=PARSE, severity="error", message=str(err))], skipped=True)
    source = text
    ported: list[Entry] = []
    try:
        tree = ast.parse(text)
    except SyntaxError as err:
        port = _python2_port(text, options)
        if port is None:
            return Outcome(None, [_syntax_entry(err)], skipped=True)
        (source, ported), tree = port, ast.parse(port[0])
    except ValueError as err:  # e.g. null bytes
        return Outcome(None, [Entry(rule=PARSE, severity="error", message=f"file skipped: {err}")], skipped=True)
    options, tf2 = _tf2_options([tree], source, options)
    ported += tf2
    try:
        new_text, entries, signals = _transform(source, tree, _names.scan([tree]), options, context)
        entries = ported + entries
    except cst.ParserSyntaxError as err:
        entry = Entry(rule=PARSE, severity="error", message=f"file skipped: libcst cannot parse it: {err.message}")
        entry.line, entry.col = err.raw_line, err.raw_column + 1
        return Outcome(None, [entry], skipped=True)
    facts = _tree.facts_of(tree, signals)
    if new_text == text:
        return Outcome(None, entries, facts=facts)
    return Outcome(_source.encode(new_text, encoding), entries, facts=facts)


def _parse_cell(text: str) -> tuple[ast.Module, str, list[str]]:
    """(tree, masked text, saved magic lines) or raises SyntaxError."""
    try:
        return ast.parse(text), text, []
    except SyntaxError:
        masked, saved = _source.mask_magics(text)
        if not saved:
            raise
        return ast.parse(masked), masked, saved


def migrate_notebook(data: bytes, options: Options) -> Outcome:
    try:
        notebook = _source.load_notebook(data)
    except _source.SourceError as err:
        return Outcome(None, [Entry(rule=PARSE, severity="error", message=str(err))], skipped=True)
    if not PREFILTER.search(data):
        return Outcome(None, [])
    cells, entries = [], []
    for index, cell in enumerate(notebook["cells"]):
        text = _source.cell_text(cell)
        if cell.get("cell_type") != "code" or _source.is_cell_magic(text):
            continue
        try:
            cells.append((index, cell, text, *_parse_cell(text)))
        except SyntaxError as err:
            entries.append(dataclasses.replace(_syntax_entry(err, what="cell"), cell=index))
    # Cells share one namespace: `import tensorflow as tf` in one cell names `tf` in the others.
    trees = [tree for _, _, _, tree, _, _ in cells]
    table = _names.scan(trees)
    options, tf2 = _tf2_options(trees, "\n".join(c[4] for c in cells), options, [c[0] for c in cells])
    entries += tf2
    if options.level == "native" and len(cells) > 1:  # (native rules prove things of the whole program)
        outcome = _cells.migrate_as_one(
            notebook, data, cells, lambda text, tree: _transform(text, tree, _names.scan([tree]), options)[:2]
        )
        if outcome is not None:
            outcome.entries[:0] = entries
            return outcome
    changed = False
    for index, cell, text, tree, masked, saved in cells:
        new_masked, cell_entries, _ = _transform(masked, tree, table, options)
        entries.extend(dataclasses.replace(e, cell=index) for e in cell_entries)
        new_text = _source.unmask_magics(new_masked, saved)
        if new_text != text:
            _source.set_cell_text(cell, new_text)
            changed = True
    if not changed:
        return Outcome(None, entries)
    return Outcome(_source.dump_notebook(notebook, data), entries)


@contextlib.contextmanager
def _without_cyclic_gc() -> Iterator[None]:
    """The cyclic garbage collector off, then as it was. Its passes over the heap a large file's
    libcst tree fills made the time per line grow with the file's size (394 us/line at 1k lines,
    518 at 20k; 305 and 314 without them), and a migration frees its trees by reference counting
    (it makes no cycles but a few in scope analysis, which the collector frees when it runs again)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def migrate(kind: str, data: bytes, options: Options, context: _tree.Context | None = None) -> Outcome:
    """The Outcome for one file: never raises, so one odd file cannot stop a whole tree. `context`:
    what the rest of its tree tells a Python file (codemods/engine/tree.py; None: as if alone)."""
    try:
        with _without_cyclic_gc():
            code = migrate_notebook if kind == "notebook" else functools.partial(migrate_python, context=context)
            # (files.migrator types the options as object: it passes them through)
            default = cast("Callable[[bytes, object], Outcome]", code)
            return files.migrator(kind, default)(data, options)
    except RecursionError:
        # valid Python nested deeper than the parser or a tree walk can follow
        message = "file skipped: nested too deeply to migrate"
        manual = "split the deeply nested expression, then run uai-migrate again"
    except Exception as err:  # noqa: BLE001 - reported with the file instead of aborting the run
        message = f"file skipped: uai-migrate failed on it ({type(err).__name__}: {err})"
        manual = "please report this file to the uai-compat maintainers"
    return Outcome(None, [Entry(rule=PARSE, severity="error", message=message, manual=manual)], skipped=True)
