"""native-session's recurrent networks: `tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32)` over TF1's
BasicLSTMCell (alone or in a DropoutWrapper whose keep probabilities are all 1; or a MultiRNNCell of such cells, a list
of them or `[<cell> for _ in range(<integer>)]`) -> a Keras RNN made once, of a cell written once that keeps TF1's
variables and gates (CELL_CODE below), a MultiRNNCell's cells in a StackedRNNCells.

Keras's LSTMCell would not load a TF1 checkpoint: it holds a kernel and a recurrent kernel, its gates in the
order i, f, c, o, and its forget bias in the bias's initial value. TF1's BasicLSTMCell (tensorflow/python/ops/
rnn_cell_impl.py of 1.15) holds one kernel [input depth + units, 4 * units] and a bias [4 * units], splits
matmul(concat([inputs, h], 1), kernel) + bias into i, j (the new input), f, o, and adds forget_bias to f on
every step. The cell written computes that with the same ops, and is named as TF1 named it under dynamic_rnn's
scope (`rnn/basic_lstm_cell`; `rnn/multi_rnn_cell/cell_<i>/basic_lstm_cell`, the StackedRNNCells named multi_rnn_cell
and its cells cell_<i>/basic_lstm_cell), so its variables keep the checkpoint names `.../kernel` and `.../bias`
(tests/common/golden/tf115_basic_lstm_layout.json: 1.15's names and values, one cell and a stack of two).

dynamic_rnn without sequence lengths runs the cell over every step from a zero state and returns the outputs
[batch, time, units]: Keras's RNN with return_sequences does. The final state it returns (a tuple of
LSTMStateTuple) is not proven: a script reading it stays at the safe level, as one with other cells, another
cell argument, sequence lengths, an initial state or time-major inputs. A MultiRNNCell's cells feed each other in
order on every step, from their own states, as StackedRNNCells' do.
"""

from __future__ import annotations

import dataclasses
from typing import cast

import libcst as cst

from codemods.rules._native_lookup import Lookup
from codemods.rules._native_names import PREFIXES
from codemods.rules._native_state import Layer, NativeSessionRule
from codemods.rules._native_syntax import Block, Refused, arguments, names_in, single, source_of

_HOMES = ("contrib.rnn.", "nn.rnn_cell.")
BASIC_LSTM = frozenset(p + h + "BasicLSTMCell" for h in _HOMES for p in PREFIXES)
DROPOUT = frozenset(p + h + "DropoutWrapper" for h in _HOMES for p in PREFIXES)
MULTI = frozenset(p + h + "MultiRNNCell" for h in _HOMES for p in PREFIXES)
DYNAMIC_RNN = frozenset(p + "nn.dynamic_rnn" for p in PREFIXES)
DYNAMIC_RNN_PARAMS = ("cell", "inputs", "sequence_length", "initial_state", "dtype")
DROPOUT_PARAMS = ("cell", "input_keep_prob", "output_keep_prob", "state_keep_prob")
CELL_NAMES = ("BasicLSTMCell", "TF1BasicLSTMCell")  # the class written, under the first name the module leaves free
# TF1's BasicLSTMCell as a Keras RNN cell: `{cls}` the class's name, `{tf}` the module's TensorFlow name
CELL_CODE = (
    "\nclass {cls}({tf}.keras.layers.Layer):\n"
    '    """TF1\'s BasicLSTMCell: one kernel [input depth + units, 4 * units] and a bias, gates i, j, f, o, forget_bias\n'
    '    added to f, so that a TF1 checkpoint loads into it by name and it computes what TF1 computed."""\n'
    "\n"
    "    def __init__(self, units, forget_bias=1.0, **kwargs):\n"
    "        super().__init__(**kwargs)\n"
    "        self.units, self.forget_bias = units, forget_bias\n"
    "        self.state_size = [units, units]  # (c, h), as TF1's LSTMStateTuple\n"
    "        self.output_size = units\n"
    "\n"
    "    def build(self, input_shape):\n"
    "        depth = input_shape[-1] + self.units\n"
    '        self.kernel = self.add_weight("kernel", [depth, 4 * self.units], initializer="glorot_uniform")\n'
    '        self.bias = self.add_weight("bias", [4 * self.units], initializer="zeros")\n'
    "\n"
    "    def call(self, inputs, states):\n"
    "        c, h = states\n"
    "        gates = {tf}.nn.bias_add({tf}.matmul({tf}.concat([inputs, h], 1), self.kernel), self.bias)\n"
    "        i, j, f, o = {tf}.split(gates, 4, axis=1)\n"
    "        new_c = c * {tf}.sigmoid(f + self.forget_bias) + {tf}.sigmoid(i) * {tf}.tanh(j)\n"
    "        new_h = {tf}.tanh(new_c) * {tf}.sigmoid(o)\n"
    "        return new_h, [new_c, new_h]\n"
)


@dataclasses.dataclass
class Cell:
    """A TF1 cell expression the rule proves: its BasicLSTMCells' arguments, and whether a MultiRNNCell stacks them."""

    lstms: list[tuple[str, str]]  # each BasicLSTMCell's (num_units, forget_bias) as code ("": TF1's default, 1.0)
    multi: bool  # in a MultiRNNCell (scoped multi_rnn_cell/cell_<i>/basic_lstm_cell; else basic_lstm_cell)
    said: str  # the TF1 expression, for the report


class Recurrent(Lookup):
    """dynamic_rnn over a BasicLSTMCell, and the dispatch of the objects native-session makes once (a lookup
    table, the RNN's cell) and the static shapes it writes out (_native_lookup, _native_shapes)."""

    def __init__(self, rule: NativeSessionRule, block: Block) -> None:
        super().__init__(rule, block)
        self.cells: dict[str, Cell] = {}  # a name bound to a cell expression -> the cell
        self.recurrent_layers: list[Layer] = []  # the Keras RNN of each dynamic_rnn
        self.cell_class = ""  # the name of the cell class written (once), "" before any
        self.rnn_said: list[str] = []  # what each dynamic_rnn became, for the report

    def made_once(self, stmt: cst.BaseStatement) -> bool | None:
        """A statement before the session that one of these converts: True / False as graph_statement returns
        (replaced as part of the graph, or a host statement), None: not one of them."""
        for convert in (self.lookup_table, self.static_read, self.cell_statement, self.dynamic_rnn):
            found = convert(stmt)
            if found is not None:
                return found
        return None

    def cell(self, node: cst.BaseExpression, stmt: cst.CSTNode) -> Cell | None:
        """The cell of a TF1 cell expression (None: not a cell class the rule reads); Refused if not proven."""
        if not isinstance(node, cst.Call):
            return None
        said = source_of(node)
        if self.rule.is_call(node, MULTI) is None:
            found = self.lstm(node, stmt)
            return None if found is None else Cell([found], False, said)
        args = arguments(node, ("cells", "state_is_tuple"), stmt, "MultiRNNCell")
        if set(args) != {"cells"}:
            raise Refused(stmt, "a MultiRNNCell with other arguments than its list of cells")
        lstms = [self.lstm(element, stmt) for element in self.stacked(args["cells"].value, stmt)]
        if not lstms or None in lstms:
            raise Refused(stmt, f"`{_short(said)}`: a MultiRNNCell of cells other than TF1's BasicLSTMCell")
        return Cell(cast(list[tuple[str, str]], lstms), True, said)

    def stacked(self, cells: cst.BaseExpression, stmt: cst.CSTNode) -> list[cst.BaseExpression]:
        """A MultiRNNCell's cells: a list literal's, or `[<cell> for _ in range(<int>)]`'s (that many, alike)."""
        if isinstance(cells, (cst.List, cst.Tuple)) and not any(
            isinstance(e, cst.StarredElement) for e in cells.elements
        ):
            return [e.value for e in cells.elements]
        loop = cells.for_in if isinstance(cells, cst.ListComp) else None
        count = loop.iter if loop is not None and loop.inner_for_in is None and not loop.ifs else None
        if (
            loop is not None
            and isinstance(count, cst.Call)
            and isinstance(count.func, cst.Name)
            and count.func.value == "range"
        ):
            limit = count.args[0].value if len(count.args) == 1 else None
            repeated = cast(cst.ListComp, cells).elt
            if isinstance(limit, cst.Integer) and not set(names_in(repeated).names) & set(names_in(loop.target).names):
                return [repeated] * int(limit.value)
        raise Refused(stmt, "a MultiRNNCell of other than a list of cells or [<cell> for _ in range(<integer>)]")

    def lstm(self, node: cst.BaseExpression, stmt: cst.CSTNode) -> tuple[str, str] | None:
        """(num_units, forget_bias) of a BasicLSTMCell, alone or in a DropoutWrapper keeping everything; None: not a
        cell class the rule reads; Refused if not proven."""
        said = source_of(node)
        if isinstance(node, cst.Call) and self.rule.is_call(node, DROPOUT):
            args = arguments(node, DROPOUT_PARAMS, stmt, "DropoutWrapper")
            for keep in DROPOUT_PARAMS[1:]:
                value = args[keep].value if keep in args else cst.Float("1.0")
                literal = value.evaluated_value if isinstance(value, (cst.Float, cst.Integer)) else None
                if literal != 1:
                    raise Refused(
                        stmt, f"a DropoutWrapper whose {keep} is not the literal 1 (dropout draws other masks)"
                    )
            node = args["cell"].value if "cell" in args else node
        if not (isinstance(node, cst.Call) and self.rule.is_call(node, BASIC_LSTM)):
            if said != source_of(node):
                raise Refused(stmt, f"`{_short(said)}`: a cell other than TF1's BasicLSTMCell")
            return None
        args = arguments(node, ("num_units", "forget_bias"), stmt, "BasicLSTMCell")
        if "num_units" not in args:
            raise Refused(stmt, "BasicLSTMCell without its num_units")
        reads = set(names_in(node).names) & self.graph
        if reads:
            raise Refused(stmt, f"a BasicLSTMCell of the graph's tensors (`{min(reads)}`)")
        bias = source_of(args["forget_bias"].value) if "forget_bias" in args else ""
        return source_of(args["num_units"].value), bias

    def cell_code(self, cell: Cell, cls: str) -> tuple[str, list[str]]:
        """The Keras cell of a proven TF1 cell, as code, and the scopes of its variables under `rnn/`."""

        def one(units: str, bias: str, name: str) -> str:
            return f'{cls}({units}{f", forget_bias={bias}" if bias else ""}, name="{name}")'

        if not cell.multi:
            return one(*cell.lstms[0], "basic_lstm_cell"), ["basic_lstm_cell"]
        # (TF1 scoped a MultiRNNCell's cells cell_0, cell_1 ... under multi_rnn_cell: StackedRNNCells so named does)
        cells = [one(units, bias, f"cell_{i}/basic_lstm_cell") for i, (units, bias) in enumerate(cell.lstms)]
        code = f'{self.alias}.keras.layers.StackedRNNCells([{", ".join(cells)}], name="multi_rnn_cell")'
        return code, [f"multi_rnn_cell/cell_{i}/basic_lstm_cell" for i in range(len(cells))]

    def cell_statement(self, stmt: cst.BaseStatement) -> bool | None:
        """`cells = <a cell>`: made once, with the RNN of the dynamic_rnn reading it (the name goes)."""
        small = single(stmt)
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1):
            return None
        target = small.targets[0].target
        found = self.cell(small.value, stmt) if isinstance(target, cst.Name) else None
        if found is None:
            return None
        name = cast(cst.Name, target).value
        if self.rule.module_names().get(name) != 2:
            raise Refused(stmt, f"the cell `{name}` is used besides by one dynamic_rnn")
        self.cells[name] = found
        self.graph.add(name)  # (any other read of it is refused as a graph name's)
        self.replacements[id(stmt)] = []
        return True

    def dynamic_rnn(self, stmt: cst.BaseStatement) -> bool | None:
        """`outputs, state = tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32)` -> `outputs = rnn(inputs)` in model(),
        `rnn` a Keras RNN of the cell made once; None: not a dynamic_rnn statement."""
        small = single(stmt)
        value = small.value if isinstance(small, cst.Assign) else None
        if not (isinstance(value, cst.Call) and self.rule.is_call(value, DYNAMIC_RNN)):
            return None
        assign = cast(cst.Assign, small)
        target = assign.targets[0].target if len(assign.targets) == 1 else None
        names = [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else []
        if len(names) != 2 or not all(isinstance(n, cst.Name) for n in names):
            raise Refused(stmt, "a dynamic_rnn whose result is not unpacked into outputs and state")
        outputs, state = (cast(cst.Name, n).value for n in names)
        if state != "_" and self.rule.module_names().get(state) != 1:
            raise Refused(stmt, f"the RNN's final state `{state}` is read (TF1's tuple of LSTMStateTuple)")
        if self.recurrent_layers:
            raise Refused(stmt, "a second dynamic_rnn (TF1 scoped its variables by the calls' order)")
        args = arguments(value, DYNAMIC_RNN_PARAMS, stmt, "tf.nn.dynamic_rnn")
        if set(args) != {"cell", "inputs", "dtype"}:
            raise Refused(stmt, "a dynamic_rnn with other arguments than its cell, inputs and dtype=tf.float32")
        dtype = args["dtype"].value
        if not (
            isinstance(dtype, cst.Attribute) and dtype.attr.value == "float32" and not self.rule.shadowed_tf(dtype)
        ):
            raise Refused(stmt, "a dynamic_rnn whose dtype is not tf.float32")
        given = args["cell"].value
        if isinstance(given, cst.Name) and given.value in self.cells:
            cell = self.cells[given.value]
        else:
            found = self.cell(given, stmt)
            if found is None:
                raise Refused(stmt, f"a dynamic_rnn of `{_short(source_of(given))}`, not a cell the rule reads")
            cell = found
        updated = single(cast(cst.BaseStatement, self.up(stmt)))
        if not (isinstance(updated, cst.Assign) and isinstance(updated.value, cst.Call)):
            raise Refused(stmt, "the statement changed shape in the safe pass")
        inputs = arguments(updated.value, DYNAMIC_RNN_PARAMS, stmt, "dynamic_rnn")["inputs"].value
        reads = set(names_in(inputs).names)
        self.take_name("rnn", stmt)
        var = self.layer_var("rnn", self.recurrent_layers, stmt)
        cls = self.written_cell(stmt)
        code, scopes = self.cell_code(cell, cls)
        self.recurrent_layers.append(Layer(var, "RNN", [code, "return_sequences=True", 'name="rnn"'], "rnn"))
        variables = ", ".join(f"rnn/{scope}/kernel, bias" for scope in scopes)
        self.rnn_said.append(f"{cell.said} + dynamic_rnn -> {var}, a Keras RNN of {cls} ({variables})")
        line = cst.parse_statement(f"{outputs} = {var}({source_of(inputs)})\n")
        self.merge_lines[id(stmt)] = cast(cst.SimpleStatementLine, line).with_changes(
            leading_lines=getattr(stmt, "leading_lines", ())
        )
        for read in sorted(reads - self.graph - self.rule._aliases):  # noqa: SLF001
            self.host_reads.setdefault(read, stmt)
        self.computes.append(cast(cst.SimpleStatementLine, stmt))
        sources = reads & self.graph
        self.depends[outputs] = sources.union(*(self.depends.get(r, {r}) for r in sources))
        self.graph.add(outputs)
        self.replacements[id(stmt)] = []
        return True

    def written_cell(self, stmt: cst.CSTNode) -> str:
        """The name of the cell class written for the block (the first free of CELL_NAMES)."""
        if not self.cell_class:
            free = [n for n in CELL_NAMES if n not in self.rule.module_names()]
            if not free:
                raise Refused(stmt, f"no free name for the cell class ({', '.join(CELL_NAMES)} are used)")
            self.cell_class = free[0]
        return self.cell_class

    def recurrent_code(self) -> list[str]:
        """The cell class, where a dynamic_rnn converted (written before the layers)."""
        return [CELL_CODE.format(cls=self.cell_class, tf=self.alias) + "\n\n"] if self.cell_class else []

    def made_once_said(self) -> list[str]:
        """The report's parts for the tables, RNNs and static shapes."""
        parts = (
            [
                f"lookup table {', '.join(sorted(self.tables))} -> tf.lookup.StaticHashTable made once (filled when made: "
                "tables_initializer runs deleted)"
            ]
            if self.tables
            else []
        )
        parts += self.rnn_said
        if self.shape_reads:
            parts += [f"static shapes read from the graph written out ({', '.join(self.shape_reads)})"]
        return parts


def _short(code: str) -> str:
    return code if len(code) <= 60 else code[:57] + "..."
