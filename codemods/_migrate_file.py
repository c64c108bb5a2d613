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
from codemods._options import Options
from codemods._report import PARSE, TF2_CODE, Entry, Outcome
from codemods.engine import names as _names
from codemods.engine import tree as _tree
from codemods.engine.apply import apply_rules, claims_of
from codemods.rules import device, select, softmax_labels, tf1_api
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
# the rules that read TensorFlow's names as TF1's: left out of TF 2 code (tf.device takes a function in TF1 alone,
# TF 2's softmax_cross_entropy_with_logits back-propagates into the labels on purpose)
TF1_READINGS = (tf1_api.Tf1ApiRule.ID, device.DeviceRule.ID, softmax_labels.SoftmaxLabelsRule.ID)


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
) -> tuple[str, list[Entry], frozenset[str], bool]:
    """(the new text, the entries, what the rules signalled to the tree pass, did a native rule convert something)"""
    rules = select(options.select, options.ignore, options.level)
    if not rules:
        return text, [], frozenset(), False
    instances = [rule(options.level) for rule in rules]
    module = cst.parse_module(text)
    applied = apply_rules(module, instances, claims_of(rules), table, tree, text, tree_context=context)
    return applied.module.code, applied.entries, applied.signals, applied.native


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
    trees: list[ast.Module], text: str, options: Options, cells: list[int] | None = None, first: str | None = None
) -> tuple[Options, list[Entry]]:
    """The options for the modules of one namespace (a file, or a notebook's cells of these indexes, `first` the
    first one's text), and the tf2-code entry where they are TF 2 code: their TensorFlow names keep their TF 2
    reading, without the rules reading them as TF1's; what TF 2 code may still need runs (compat's tf.estimator, an
    Estimator strategy's graph mode, NumPy's names). A pragma naming TF 2 code that names what TF 2 lacks: a
    warning, and the rules as for TF1 code."""
    tf2_code = dataclasses.replace(options, ignore=(*options.ignore, *TF1_READINGS))
    pragma = _tf2_code.pragma_line(text if first is None else first)
    if pragma is not None:
        tf1 = _tf2_code.tf1_name(trees)
        cell = None if cells is None else cells[0]
        if tf1 is None:
            message = f"TF 2 code by its `{_tf2_code.PRAGMA}` line: its tf names left as written (read as TF 2's)"
            return tf2_code, [Entry(rule=TF2_CODE, severity="info", message=message, line=pragma, cell=cell)]
        name, line, index = tf1
        message = (
            f"`{_tf2_code.PRAGMA}` (line {pragma}{'' if cells is None else ' of the first code cell'}) is wrong: "
            f"{name} is TF1's, which TF 2's tf lacks; migrated as TF1 code"
        )
        manual = f"port the TF1 names to TF 2 by hand, or delete the `{_tf2_code.PRAGMA}` line"
        return options, [
            Entry(
                rule=TF2_CODE,
                severity="warning",
                message=message,
                line=line,
                cell=None if cells is None else cells[index],
                manual=manual,
            )
        ]
    tf2 = _tf2_code.evidence(trees, text)
    if tf2 is None:
        return options, []
    name, line, index = tf2
    message = f"TF 2 code: its tf names left as written ({name} is TF 2's, and it names nothing TF 2 lacks)"
    entry = Entry(
        rule=TF2_CODE, severity="info", message=message, line=line, cell=None if cells is None else cells[index]
    )
    return tf2_code, [entry]


def _pragma_entry(line: int, cell: int | None = None) -> Entry:
    message = (
        f"native port fully TF 2: `{_tf2_code.PRAGMA}` written, so uai-migrate (the pre-commit hook's --check "
        "included) leaves its tf names as TF 2's"
    )
    return Entry(rule=TF2_CODE, severity="info", message=message, line=line, cell=cell)


def _marks(text: str, native: bool, options: Options, tf2_code: bool) -> bool:
    """May the native port of `text` get the pragma: a native rule converted something, the text holds none yet,
    and its names were read as TF1's (every rule reading them so ran: with `--select` or `--ignore` one may not
    have, and a bare `tf.Variable` left is TF1's) or it is TF 2 code already? (Then it must be fully TF 2.)"""
    if options.level != "native" or not native or _tf2_code.pragma_line(text) is not None:
        return False
    return tf2_code or set(TF1_READINGS) <= {rule.ID for rule in select(options.select, options.ignore, options.level)}


def _marked(text: str, new_text: str, native: bool, options: Options, tf2_code: bool) -> tuple[str, list[Entry]]:
    """The native port with the pragma where it may get it (`_marks`) and is fully TF 2, and the entry saying so;
    else as it is."""
    if new_text == text or not _marks(text, native, options, tf2_code):
        return new_text, []
    try:
        if not _tf2_code.fully_tf2([ast.parse(new_text)]):
            return new_text, []
    except SyntaxError:  # (reported where the tree pass checks that the port parses)
        return new_text, []
    marked, line = _tf2_code.with_pragma(new_text)
    return marked, [_pragma_entry(line)]


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
    given = options
    options, tf2 = _tf2_options([tree], source, options)
    ported += tf2
    try:
        new_text, entries, signals, native = _transform(source, tree, _names.scan([tree]), options, context)
        new_text, marked = _marked(source, new_text, native, given, options != given)
        entries = ported + entries + marked
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
    first = cells[0][2] if cells else ""
    given = options
    options, tf2 = _tf2_options(trees, "\n".join(c[4] for c in cells), options, [c[0] for c in cells], first)
    entries += tf2
    native: list[bool] = []  # did a native rule convert something, per transform

    def transform(text: str, tree: ast.Module, names: _names.NameTable | None = None) -> tuple[str, list[Entry]]:
        new, found, _, converted = _transform(text, tree, _names.scan([tree]) if names is None else names, options)
        native.append(converted)
        return new, found

    if options.level == "native" and len(cells) > 1:  # (native rules prove things of the whole program)
        outcome = _cells.migrate_as_one(notebook, data, cells, transform)
        if outcome is not None:
            outcome.entries[:0] = entries
            return _marked_notebook(notebook, data, cells, outcome, any(native), given, options != given)
    native.clear()
    changed = False
    for index, cell, text, tree, masked, saved in cells:
        new_masked, cell_entries = transform(masked, tree, table)
        entries.extend(dataclasses.replace(e, cell=index) for e in cell_entries)
        new_text = _source.unmask_magics(new_masked, saved)
        if new_text != text:
            _source.set_cell_text(cell, new_text)
            changed = True
    outcome = Outcome(_source.dump_notebook(notebook, data) if changed else None, entries)
    return _marked_notebook(notebook, data, cells, outcome, any(native), given, options != given)


def _marked_notebook(
    notebook: dict,
    data: bytes,
    cells: list[_cells.Cell],
    outcome: Outcome,
    native: bool,
    options: Options,
    tf2_code: bool,
) -> Outcome:
    """The notebook's native port with the pragma in its first code cell where it may get it (`_marks`) and its
    cells are fully TF 2 (every code cell migrated: none skipped as a cell magic or unparsed)."""
    if outcome.new is None or not cells or not _marks(cells[0][2], native, options, tf2_code):
        return outcome
    if len(cells) != sum(c.get("cell_type") == "code" for c in notebook["cells"]):
        return outcome
    try:
        trees = [_parse_cell(_source.cell_text(cell))[0] for _, cell, _, _, _, _ in cells]
    except SyntaxError:
        return outcome
    if not _tf2_code.fully_tf2(trees):
        return outcome
    index, cell = cells[0][:2]
    text, line = _tf2_code.with_pragma(_source.cell_text(cell))
    _source.set_cell_text(cell, text)
    return Outcome(_source.dump_notebook(notebook, data), [*outcome.entries, _pragma_entry(line, index)])


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
