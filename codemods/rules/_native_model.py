"""native-session's model: tf.layers calls as Keras layers made once, v1 losses, the optimizer's minimize, and
the code written for them (model(), the tf.function train step, evaluate, the Checkpoint)."""

from __future__ import annotations

import keyword
from typing import cast

import libcst as cst

from codemods.rules import _native_monitored as monitored
from codemods.rules import _native_tables as tables
from codemods.rules import _tf
from codemods.rules._native_devices import under_devices
from codemods.rules._native_in_top_k import tf2_in_top_k
from codemods.rules._native_names import (
    CONTROL_DEPENDENCIES,
    GET_COLLECTION,
    LAYERS,
    LOSSES,
    OPTIMIZERS,
    SLIM_FUNCTIONS,
    UPDATE_OPS,
    unrun_updates,
)
from codemods.rules._native_rnn import Recurrent
from codemods.rules._native_scopes import evaluation_order
from codemods.rules._native_slim import layer_code
from codemods.rules._native_state import Layer
from codemods.rules._native_syntax import (
    EQUAL,
    Refused,
    arguments,
    assigned,
    comments_only,
    names_in,
    single,
    source_of,
)


class Model(Recurrent):
    """Layers, losses, the train op, and the code written for the graph."""

    updates_run = False  # does the train op run the layers' updates (its minimize under UPDATE_OPS)?
    updates_name: str | None = None  # `update_ops` of `update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)`

    def updates_first(self, stmt: cst.With) -> bool:
        """`with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)): train_op = opt.minimize(loss)`:
        the layers' updates (batch norm's moving statistics) before the step, which Keras layers run in their call."""
        if len(stmt.items) != 1 or stmt.items[0].asname is not None or not isinstance(stmt.body, cst.IndentedBlock):
            return False
        call = stmt.items[0].item
        if not (isinstance(call, cst.Call) and self.rule.is_call(call, CONTROL_DEPENDENCIES) and len(call.args) == 1):
            return False
        collection = call.args[0].value
        named = isinstance(collection, cst.Name) and collection.value == self.updates_name
        if not (named or self.updates_collection(collection)) or len(stmt.body.body) != 1:
            return False
        name, value = assigned(single(stmt.body.body[0]))
        func = value.func if isinstance(value, cst.Call) else None
        return name is not None and isinstance(func, cst.Attribute) and func.attr.value == "minimize"

    def statements_after(self, stmt: cst.BaseStatement) -> list[cst.BaseStatement]:
        """The statements of the block after `stmt` (none where it is not one of them)."""
        statements = list(self.block.original)
        return statements[next((i for i, s in enumerate(statements) if s is stmt), len(statements)) + 1 :]

    def updates_collection(self, value: cst.BaseExpression) -> bool:
        """Is `value` `tf.get_collection(tf.GraphKeys.UPDATE_OPS)`?"""
        if not (isinstance(value, cst.Call) and self.rule.is_call(value, GET_COLLECTION) and len(value.args) == 1):
            return False
        return self.rule.qualified_in(value.args[0].value, UPDATE_OPS)

    def updates_read(self, stmt: cst.BaseStatement, name: str, value: cst.BaseExpression) -> bool:
        """`update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)` whose one other use is a later updates_first
        statement's (the TF docs' shape): read as that statement's collection (the statement goes)."""
        if not self.updates_collection(value) or self.rule.module_names().get(name) != 2:
            return False
        later = self.statements_after(stmt)
        self.updates_name = name
        if not any(isinstance(s, cst.With) and self.updates_first(s) for s in later):
            self.updates_name = None
            return False
        self.replacements[id(stmt)] = []
        return True

    def minimize(
        self,
        stmt: cst.BaseStatement,
        name: str,
        call: cst.Call,
        statement: cst.BaseStatement | None = None,
        helper: tuple[str, tuple[cst.Call, cst.BaseExpression]] | None = None,
    ) -> bool:
        """`name = <optimizer>.minimize(loss)`; `helper`: a train helper's minimize (_native_train_helper), the loss
        its call passes and the optimizer (as written, as the pass left it with the call's arguments in)."""
        if self.train_op is not None:
            raise Refused(stmt, "a second train op")
        self.step_counter = monitored.minimize_step(self, stmt, call) if len(call.args) == 2 else None
        if len(call.args) != 1 + bool(self.step_counter):
            raise Refused(stmt, "minimize() with arguments besides the loss (global_step, var_list ...)")
        keyword = call.args[0].keyword
        if keyword is not None and keyword.value == "loss":
            raise Refused(stmt, "minimize(loss=...): the loss given by keyword")
        if keyword is not None:
            raise Refused(stmt, "minimize() with arguments besides the loss (global_step, var_list ...)")
        if not isinstance(call.args[0].value, cst.Name):
            raise Refused(
                stmt, f"minimize() of an expression (`{source_of(call.args[0].value)}`), not of a name the graph binds"
            )
        loss = call.args[0].value.value if helper is None else helper[0]
        if loss not in self.graph or loss in self.placeholders or loss in self.variables:
            raise Refused(stmt, f"minimize({loss}) of a name the graph does not compute")
        made = cast(cst.Attribute, call.func).value
        if helper is not None:
            self.keras_optimizer(stmt, *helper[1])
        elif isinstance(made, cst.Name) and made.value in self.optimizers:  # (`opt = tf.train.<Name>Optimizer(...)`)
            self.keras_optimizer(stmt, *self.optimizers[made.value])
        else:
            updated = cast(cst.Attribute, self.updated_call(stmt).func).value
            self.keras_optimizer(stmt, made, updated)
        self.train_op, self.loss = name, loss
        self.updates_run = statement is not None  # (updates_first's with statement)
        self.graph.add(name)
        self.replacements[id(statement or stmt)] = []
        return True

    def named_optimizer(self, stmt: cst.BaseStatement, name: str, call: cst.Call) -> bool:
        """`opt = tf.train.<Name>Optimizer(...)` whose one other use is a later `opt.minimize(...)` of the block (TF 1.x's
        Getting Started shape): the Keras optimizer that minimize writes (the statement goes). False for another."""
        later = self.statements_after(stmt)
        minimized = any(
            isinstance(c.func, cst.Attribute)
            and c.func.attr.value == "minimize"
            and isinstance(c.func.value, cst.Name)
            and c.func.value.value == name
            for s in later
            for c in names_in(s).calls
        )
        if not minimized:
            return False
        if self.rule.module_names().get(name) != 2:
            raise Refused(stmt, f"`{name}`, the optimizer, is used besides its minimize")
        self.optimizers[name] = (call, assigned(single(cast(cst.BaseStatement, self.up(stmt))))[1])
        self.replacements[id(stmt)] = []
        return True

    def keras_optimizer(
        self, stmt: cst.CSTNode, original: cst.BaseExpression, updated: cst.BaseExpression | None
    ) -> None:
        """The Keras optimizer (its code and what the entry says of it) for a `tf.train.<Name>Optimizer(...)` call,
        `original` as written, `updated` as the safe pass left it."""
        optimizer = self.rule.is_call(original, OPTIMIZERS)
        if optimizer is None or not isinstance(updated, cst.Call):
            raise Refused(stmt, f"{_tf.full_name(original)}: not a tf.train optimizer the rule knows")
        kind = OPTIMIZERS[optimizer]
        row = tables.OPTIMIZERS[kind]
        args = arguments(updated, row.params, stmt, f"tf.train.{kind}")
        if "use_locking" in args:
            raise Refused(stmt, f"tf.train.{kind}(use_locking=...)")
        self.host_arguments(stmt, kind, cast(cst.Call, original))
        values = {p: source_of(a.value) for p, a in args.items()}
        renamed = tables.renamed_slots(kind, values)
        if renamed is not None:
            raise Refused(stmt, renamed)
        self.optimizer_code, self.optimizer_said = tables.keras_optimizer(self.alias, kind, values)

    def host_arguments(self, stmt: cst.CSTNode, kind: str, optimizer: cst.Call) -> None:
        """The optimizer's arguments are host values: the Keras optimizer is made once, at the place of the graph,
        out of model() and the train step, where no placeholder is fed and no tensor of the graph computed, and it
        reads a variable's value once."""
        for arg in optimizer.args:
            held = set(names_in(arg.value).names) & self.variables
            if held:  # (tf-keras's optimizer makes its own learning_rate variable from the value given)
                raise Refused(
                    stmt,
                    f"tf.train.{kind} of the variable `{min(held)}`, which TF1 read at each step (a Keras optimizer "
                    "copies its value once: an assign or restore of it would not reach the optimizer)",
                )
            computed = set(names_in(arg.value).names) & (self.graph - self.variables)
            if computed or self.rule.tf_calls(arg.value):
                raise Refused(
                    stmt,
                    f"tf.train.{kind} of `{min(computed) if computed else source_of(arg.value)}`, a value the graph "
                    "computes (a placeholder or a tensor: the Keras optimizer is made once, out of the graph's function)",
                )

    def generate(self) -> list[cst.BaseStatement]:
        alias, names = self.alias, self.names
        layers: list[Layer] = []
        calls = [
            c
            for stmt in self.computes
            for c in names_in(stmt).calls
            if self.rule.is_call(c, {**LAYERS, **LOSSES}) or self.slim_kind(c)
        ]
        self.losses = 0
        body = [
            self.total_loss(s, layers)
            if id(s) in self.total_losses
            else self.layer_calls(s, self.merge_lines.get(id(s)) or cast(cst.SimpleStatementLine, self.up(s)), layers)
            for s in self.computes
        ]
        if len(layers) + self.losses != len(calls):
            raise Refused(self.computes[0], "a tf.layers or tf.losses call the safe pass wrote in another form")
        for index, (stmt, line) in enumerate(zip(self.computes, body)):
            written, count = tf2_in_top_k(line, alias, stmt)  # (tf.compat.v1.nn.in_top_k: TF 2's, _native_in_top_k)
            if count:
                body[index], self.in_top_k = cast(cst.SimpleStatementLine, written), True
        layers += self.recurrent_layers  # (the RNN of a dynamic_rnn: _native_rnn)
        outputs = list(
            dict.fromkeys([*([self.loss] if self.loss else []), *(self.train_outputs or []), *self.eval_outputs])
        )
        elements = self.inputs[1] if self.inputs else []
        params = ", ".join([*elements, *self.placeholders])
        specs = [f"{alias}.TensorSpec({shape}, {dtype})" for dtype, shape in self.placeholders.values()]
        if self.inputs is not None:
            dataset, _, single = self.inputs
            specs.insert(0, f"{'' if single else '*'}{dataset}.element_spec")
        signature = ", ".join(specs)
        classes = list(dict.fromkeys(layer.cls for layer in layers if layer.cls))
        lines = [layer_code(cls, alias) + "\n\n" for cls in classes]
        lines += self.recurrent_code()
        lines += [
            f"{layer.var} = {layer.cls or f'{alias}.keras.layers.{layer.keras}'}({', '.join(layer.keywords)})\n"
            for layer in layers
        ]
        lines += [f"{var} = {alias}.keras.metrics.{keras}()\n" for var, keras, _ in self.metric_objects]
        returned = ", ".join(f'"{o}": {o}' for o in outputs)
        modelled = bool(outputs or body)  # (a script of variables and assign ops only has no model())
        if modelled:
            lines.append(f"\ndef {names['model']}({params}):\n    return {{{returned}}}\n")
        train = ", ".join(f'outputs["{o}"]' for o in self.train_outputs or [])
        if self.train_op is not None:
            lines.append(f"\n{names['optimizer']} = {self.optimizer_code}\n")
            lines.append(
                f"\n@{alias}.function(input_signature=[{signature}])\n"
                f"def {names['train_step']}({params}):\n"
                f"    with {alias}.GradientTape() as tape:\n"
                f"        outputs = {names['model']}({params})\n"
                "    variables = tape.watched_variables()\n"
                f'    {names["optimizer"]}.apply_gradients(zip(tape.gradient(outputs["{self.loss}"], variables), variables))\n'
                + (f"    {self.step_counter}.assign_add(1)\n" if self.step_counter else "")
                + (f"    return {self.checked(train)}\n" if train else "")
            )
        if self.eval_outputs:
            lines.append(f"\n{names['evaluate']} = {alias}.function({names['model']}, input_signature=[{signature}])\n")
        if self.saver:
            tracked = [layer.var for layer in layers] + sorted(self.variables)
            tracked += [names["optimizer"]] if self.train_op is not None else []
            objects = ", ".join(f"{name}={name}" for name in tracked)
            lines.append(f"\n{self.saver} = {alias}.train.Checkpoint({objects})\n")
        self.layers = layers
        self.scope_code()
        devices = [self.devices.get(id(s)) for s in self.computes]
        # (a first line so that the blank lines before the defs stay theirs, not the module header's)
        generated = list(cst.parse_module("pass\n" + "".join(lines)).body)[1:]
        if modelled:
            index = len(layers) + len(self.metric_objects) + len(classes)
            index += len(self.recurrent_code())
            model = cast(cst.FunctionDef, generated[index])
            block = cast(cst.IndentedBlock, model.body)
            generated[index] = model.with_changes(
                body=block.with_changes(body=[*under_devices([*map(comments_only, body)], devices, alias), *block.body])
            )
        # a blank line before each def, not indented where the block is a function body
        return [
            s.with_changes(leading_lines=[cst.EmptyLine(indent=False)] if s.leading_lines else []) for s in generated
        ]

    def collected_loss(self, stmt: cst.SimpleStatementLine, small: cst.BaseSmallStatement) -> str | None:
        """A `tf.losses.<loss>(...)` statement of its own, whose value TF1 kept only in its loss collection: the name
        model() binds it to (a free one), else None."""
        if not (isinstance(small, cst.Expr) and self.rule.is_call(small.value, LOSSES)):
            return None
        taken = set(self.rule.module_names()) | self.graph
        name = next(n for n in ("loss", *(f"loss_{i}" for i in range(1, 100)), "") if n not in taken)
        if not name:
            raise Refused(stmt, "no free name for a loss of its own statement")
        updated = cast(cst.SimpleStatementLine, self.up(stmt))
        value = cast(cst.Expr, updated.body[0]).value
        self.merge_lines[id(stmt)] = updated.with_changes(
            body=[cst.Assign(targets=[cst.AssignTarget(cst.Name(name))], value=value)]
        )
        return name

    def note_losses(self, stmt: cst.SimpleStatementLine, small: cst.BaseSmallStatement, targets: list[str]) -> None:
        """The tf.losses losses a graph statement adds to TF1's loss collection: by the name holding each (a loss
        inside an expression has none, and get_total_loss is then refused)."""
        losses = [c for c in names_in(stmt).calls if self.rule.is_call(c, LOSSES)]
        value = getattr(small, "value", None)
        if len(losses) == 1 and len(targets) == 1 and value is losses[0]:
            self.collected_losses.append(targets[0])
        elif losses and self.unnamed_loss is None:
            self.unnamed_loss = stmt

    def get_total_loss(self, stmt: cst.BaseStatement, name: str, call: cst.Call) -> bool:
        """`total = tf.losses.get_total_loss()`: the losses made so far, summed in model() (total_loss)."""
        if call.args:
            raise Refused(stmt, "tf.losses.get_total_loss with arguments (the rule adds the regularization losses)")
        if self.unnamed_loss is not None:
            raise Refused(stmt, "tf.losses.get_total_loss over a loss computed inside an expression")
        if not self.collected_losses:
            raise Refused(stmt, "tf.losses.get_total_loss of no tf.losses loss the rule converts")
        if self.scope_helpers or self.recurrent_layers:
            raise Refused(stmt, "tf.losses.get_total_loss with variables made at the first step by helpers or RNNs")
        if name in self.graph:
            raise Refused(stmt, f"`{name}` (the total loss) is re-bound")
        self.total_losses[id(stmt)] = list(self.collected_losses)
        self.computes.append(cast(cst.SimpleStatementLine, stmt))
        self.depends[name] = set(self.collected_losses).union(
            *(self.depends.get(n, {n}) for n in self.collected_losses)
        )
        self.graph.add(name)
        self.replacements[id(stmt)] = []
        return True

    def total_loss(self, stmt: cst.SimpleStatementLine, layers: list[Layer]) -> cst.SimpleStatementLine:
        """`total = tf.losses.get_total_loss()` -> the sum of the tf.losses losses made before it and of the
        regularization losses of the layers made before it (TF1's LOSSES and REGULARIZATION_LOSSES collections
        then; a Keras layer keeps its regularizers' losses in `.losses`)."""
        name = assigned(single(stmt))[0]
        terms = [*self.total_losses[id(stmt)]]
        terms += [f"*{layer.var}.losses" for layer in layers if any("regularizer=" in k for k in layer.keywords)]
        line = cst.parse_statement(f"{name} = {self.alias}.add_n([{', '.join(terms)}])\n")
        original = cast(cst.SimpleStatementLine, self.up(stmt))
        return cast(cst.SimpleStatementLine, line).with_changes(leading_lines=original.leading_lines)

    def checked(self, value: str) -> str:
        """The train step's value, checked as tf-slim's create_train_op checked it (an error on inf or nan)."""
        if not self.checked_loss:
            return value
        return f'{self.alias}.debugging.check_numerics({value}, "LossTensor is inf or nan")'

    def layer_calls(
        self, original: cst.SimpleStatementLine, line: cst.SimpleStatementLine, layers: list[Layer]
    ) -> cst.SimpleStatementLine:
        """`tf.layers.dense(x, 3)` (or its safe form tf.compat.v1.layers.dense) -> `dense(x)`, the layer made once."""
        converter = self
        # tf-slim's layer calls of the statement, in the order the transformer leaves them (the safe pass spells
        # them otherwise: slim.fully_connected)
        slim = [c for c in reversed(evaluation_order(original)) if self.slim_kind(c)]
        spellings = {f"{self.alias}.{p}layers.{n}": n for n in tables.LAYERS for p in ("", "compat.v1.")}
        losses = {f"{self.alias}.{p}losses.{n}": n for n in tables.LOSSES for p in ("", "compat.v1.")}

        class Calls(cst.CSTTransformer):
            def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
                name = _tf.full_name(updated_node.func)
                if name in losses:
                    return converter.loss_call(original, losses[name], updated_node)
                if name not in spellings and name.rpartition(".")[2] in SLIM_FUNCTIONS and slim:
                    return converter.slim_layer(original, slim.pop(), updated_node, layers)
                function = spellings.get(name)
                if function is None:
                    return updated_node
                return converter.layer(original, function, updated_node, layers)

        return cast(cst.SimpleStatementLine, line.visit(Calls()))

    def loss_call(self, line: cst.CSTNode, function: str, call: cst.Call) -> cst.BaseExpression:
        """`tf.losses.<function>(...)` -> the TF 2 expression computing the same mean."""
        params, template = tables.LOSSES[function]
        args = arguments(call, params, line, f"tf.losses.{function}")
        if set(args) != set(params):
            raise Refused(line, f"tf.losses.{function} without its {' and '.join(params)}")
        self.losses += 1
        values = {p: source_of(a.value) for p, a in args.items()}
        return cst.parse_expression(template.format(tf=self.alias, **values))

    def layer(self, line: cst.CSTNode, function: str, call: cst.Call, layers: list[Layer]) -> cst.BaseExpression:
        keras, params, call_keywords = tables.LAYERS[function]
        args = arguments(call, ("inputs", *params, "name"), line, f"tf.layers.{function}")
        if "inputs" not in args:
            raise Refused(line, f"tf.layers.{function} without its inputs")
        self.float32_inputs(line, f"tf.layers.{function}", args["inputs"].value)
        training = args["training"].value if "training" in args else None
        # (tf-slim's create_train_op runs UPDATE_OPS itself: _native_slim_loops)
        updated = self.updates_run or bool(self.created_train_op)
        if keras == "BatchNormalization" and training is not None and not updated:
            if not (isinstance(training, cst.Name) and training.value == "False"):
                literal = args["name"].value if "name" in args else None
                named = literal.evaluated_value if isinstance(literal, cst.SimpleString) else None
                raise Refused(line, unrun_updates(str(named or self.tf1_name(function))))
        if "name" in args:
            literal = args["name"].value
            if not isinstance(literal, cst.SimpleString):
                raise Refused(line, f"tf.layers.{function} with a computed name")
            name = str(literal.evaluated_value)
            self.take_name(name, line)
        else:
            name = self.tf1_name(function)
        var = self.layer_var(name, layers, line)
        keywords = [
            f"{p}={self.layer_initializer(a.value, line) or source_of(a.value)}"
            for p, a in args.items()
            if p not in ("inputs", "name", *call_keywords)
        ]
        layers.append(Layer(var, keras, [*keywords, f'name="{name}"'], name))
        call_args = [cst.Arg(args["inputs"].value)] + [
            cst.Arg(args[k].value, keyword=cst.Name(k), equal=EQUAL) for k in call_keywords if k in args
        ]
        return cst.Call(func=cst.Name(var), args=call_args)

    def layer_var(self, name: str, layers: list[Layer], line: cst.CSTNode) -> str:
        """The Python name of the layer object TF1 named `name` (the name itself where it is free)."""
        var = name if name.isidentifier() and not keyword.iskeyword(name) else f"layer_{len(layers)}"
        if var in self.rule.module_names() or var in {layer.var for layer in layers} or var in self.names.values():
            var = f"{var}_layer"
            if var in self.rule.module_names():
                raise Refused(line, f"no free name for the layer {name!r}")
        return var
