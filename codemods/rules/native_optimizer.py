"""native-optimizer: `tf.train.<Name>Optimizer` in eager code -> `tf.keras.optimizers.<Name>` (--level native).

Where: a file proven eager (codemods/rules/_native_eager.py: no graph-mode code, and a program). What:
each optimizer whose every use the rule reads, which are the uses where TF1's eager optimizer and the
Keras one do the same:

- `opt.apply_gradients(grads_and_vars)`, its value unused;
- `opt.minimize(loss, var_list=variables)`, its value unused, in a file whose tf.keras is Keras 2 (it
  imports compat: Keras 3, tf.keras on TF >= 2.16 otherwise, has no minimize; TF1's eager minimize takes
  a callable loss; without var_list TF1 trains what the loss watched, Keras needs the list);
- either with a `global_step` (a name, an attribute, `tf.train.get_or_create_global_step()`): the
  Keras optimizer counts its own iterations, so `step.assign_add(1)` follows on the next line, as TF1
  incremented the step after the update;
- `model.compile(optimizer=opt)` (TF1's tf.keras wrapped the TF1 optimizer; the Keras one is native);

with the optimizer bound once to a name (`opt = tf.train.AdamOptimizer(...)`), or written in place of
`opt` in one of those uses. Any other use (a Checkpoint of it, get_slot, compute_gradients, a parameter,
a learning rate TensorFlow computes) leaves it at the safe level with an info entry naming the use.
The Keras constructor is written from codemods/rules/_native_tables.py (OPTIMIZERS), as native-session
writes a Session script's optimizer. The rule adds no `import compat`: the optimizer is the program's
tf.keras's (Keras 2, or Keras 3 on TF >= 2.16 without compat), and both compute TF1's update.
"""

from __future__ import annotations

import libcst as cst

from codemods.engine.rule import FileState
from codemods.rule_description import Example
from codemods.rules import _native_tables as tables
from codemods.rules import _tf
from codemods.rules._native_eager import EagerRewrite, keras_2
from codemods.rules._native_syntax import Refused, arguments, descendants, names_in, source_of

_OPTIMIZER = ("tensorflow.train.", "tensorflow.compat.v1.train.")
# the TF1 methods the rule reads, with the parameters it takes (in TF1's positional order)
_METHODS = {"apply_gradients": ("grads_and_vars", "global_step"), "minimize": ("loss", "global_step", "var_list")}
_STEPS = frozenset(
    f"tensorflow.{p}train.{n}" for n in ("get_or_create_global_step", "get_global_step") for p in ("", "compat.v1.")
)
_EQUAL = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))


class NativeOptimizerRule(EagerRewrite):
    ID = "native-optimizer"
    DESCRIPTION = (
        "tf.train GradientDescent, Momentum, Adam and Adagrad optimizers in eager code (apply_gradients, "
        "minimize with var_list, Keras compile) -> tf.keras.optimizers."
    )
    LEVEL = "native"
    ORDER = 195  # after native-session: an optimizer it wrote into a converted Session script is not read again
    EXAMPLE = Example(
        "TF1's tf.train optimizers live on in TF 2 only as tf.compat.v1.train; eager TF 2 code uses the Keras "
        "optimizers. Only in a file proven eager (no graph-mode code, a program), and only for an optimizer used "
        "by apply_gradients(grads_and_vars), minimize(loss, var_list=...) or Keras compile; a global_step argument "
        "becomes `step.assign_add(1)` on the next line, as TF1 incremented it after the update. What may change: the "
        "update is the same formula (GradientDescent exactly; Adam with epsilon pinned to TF1's 1e-08, Keras's "
        "default being 1e-07: both apply it as epsilon-hat, outside the bias correction; Adagrad with epsilon "
        "pinned to 0, which TF1 does not add and Keras 3 adds inside the square root; Momentum is rearranged as v = m*v - lr*g, var += v against TF1's "
        "a = m*a + g, var -= lr*a: equal for a constant learning rate), computed by other kernels, so the losses "
        "agree up to float rounding (measured below 1e-6 relative). The optimizer's own state differs: Keras "
        "counts `iterations` (TF1's Adam kept beta1_power and beta2_power) and names its slots otherwise, so a "
        "checkpoint of the TF1 optimizer does not restore into it (the rule refuses an optimizer put in a "
        "Checkpoint); on a GPU Keras may compile the update with XLA. RMSProp is left: Keras's starts its mean "
        "square at 0 (TF1's at 1) and adds epsilon outside the square root.",
        "import tensorflow as tf\n"
        "\n"
        "tf.enable_eager_execution()\n"
        "w = tf.Variable(1.0)\n"
        "optimizer = tf.train.AdamOptimizer(0.1)\n"
        "with tf.GradientTape() as tape:\n"
        "    loss = w * w\n"
        "optimizer.apply_gradients(zip(tape.gradient(loss, [w]), [w]))\n",
        "import tensorflow as tf\n"
        "\n"
        "tf.enable_eager_execution()\n"
        "w = tf.Variable(1.0)\n"
        "optimizer = tf.keras.optimizers.Adam(learning_rate=0.1, epsilon=1e-08)\n"
        "with tf.GradientTape() as tape:\n"
        "    loss = w * w\n"
        "optimizer.apply_gradients(zip(tape.gradient(loss, [w]), [w]))\n",
    )
    CLAIMS = ()  # it rewrites the safe pass's result (tf.compat.v1.train.<Name>Optimizer), which tf1-api writes
    WORDS = frozenset()  # it acts on TensorFlow's names; the optimizer's uses are read from the whole module

    def candidate(self, names: frozenset[str]) -> str | None:
        homes = [n.rsplit(".", 1) for n in names if "." in n]  # (not `tensorflow` itself, bound and called)
        kinds = {kind for home, kind in homes if home + "." in _OPTIMIZER and kind.endswith("Optimizer")}
        return f"tf.train.{min(kinds)}" if kinds else None

    def convert(
        self, call: cst.Call, what: str, updated: cst.Call, module: cst.Module, parent: dict[int, cst.CSTNode]
    ) -> tuple[cst.BaseExpression | None, str]:
        code, said = self._keras(call, what.removeprefix("tf.train."), updated)
        self._pending: list[tuple[cst.Call, str]] = []  # (a use with a global step, its method)
        uses = self._uses(module, call, parent)
        for use, method in self._pending:  # (only now: every use of the optimizer is one the rule reads)
            self._step_apart(use, method)
        return cst.parse_expression(code), f"{said}; used by {uses}"

    def _keras(self, call: cst.Call, kind: str, updated: cst.Call) -> tuple[str, str]:
        """The Keras constructor, as code, and what the report says of it; Refused for what it cannot prove."""
        if kind not in tables.OPTIMIZERS:
            why = tables.DIFFERENT.get(kind, "no Keras optimizer the rule proves equal to it")
            raise Refused(call, why)
        row = tables.OPTIMIZERS[kind]
        args = arguments(updated, row.params, call, f"tf.train.{kind}")
        if "use_locking" in args:
            raise Refused(call, f"tf.train.{kind}(use_locking=...)")
        for arg in call.args:
            computed = [c for c in descendants(arg) if id(c) in self._tf_calls]
            if computed or any(isinstance(n, cst.Lambda) for n in descendants(arg)):
                raise Refused(call, "a hyper-parameter TensorFlow computes or a callable (Keras keeps a number)")
        alias = _tf.tf_alias(self, call.func)
        return tables.keras_optimizer(alias, kind, {p: source_of(a.value) for p, a in args.items()})

    def _uses(self, module: cst.Module, call: cst.Call, parent: dict[int, cst.CSTNode]) -> str:
        """What uses the optimizer `call` makes (for the report); Refused for a use the rule does not read."""
        above = parent.get(id(call))
        if isinstance(above, cst.Attribute) and above.value is call:
            return self._method(above, parent, call)
        if isinstance(above, cst.Arg) and _compile_argument(above, parent):
            return "Keras compile"
        if isinstance(above, cst.Assign) and len(above.targets) == 1 and isinstance(above.targets[0].target, cst.Name):
            return self._name_uses(module, above.targets[0].target, parent)
        if isinstance(above, cst.Return):
            raise Refused(call, "returned by a function: its uses are its callers', which the rule does not follow")
        raise Refused(
            call, "an optimizer neither bound to a name nor used in place by apply_gradients, minimize or compile"
        )

    def _name_uses(self, module: cst.Module, bound: cst.Name, parent: dict[int, cst.CSTNode]) -> str:
        said: list[str] = []
        for name in names_in(module).nodes:
            if name.value != bound.value or name is bound:
                continue
            above = parent.get(id(name))
            if isinstance(above, cst.Attribute) and above.value is name:
                said.append(self._method(above, parent, name))
            elif isinstance(above, cst.Arg) and _compile_argument(above, parent):
                said.append("Keras compile")
            else:
                raise Refused(name, f"`{name.value}` {_use(above, parent)}")
        if not said:
            raise Refused(bound, f"`{bound.value}` is not used by apply_gradients, minimize or compile")
        return ", ".join(dict.fromkeys(said))

    def _method(self, attribute: cst.Attribute, parent: dict[int, cst.CSTNode], node: cst.CSTNode) -> str:
        method = attribute.attr.value
        call = parent.get(id(attribute))
        if method not in _METHODS or not (isinstance(call, cst.Call) and call.func is attribute):
            raise Refused(node, f".{method}, which the Keras optimizer does not have as TF1's")
        statement = parent.get(id(call))
        if not isinstance(statement, cst.Expr):
            raise Refused(node, f"the value of {method}() is used (TF1's and Keras's return different things)")
        args = arguments(call, _METHODS[method], node, f"{method}")
        if method == "minimize" and "var_list" not in args:
            raise Refused(node, "minimize() without var_list (TF1 trains what the loss reads, Keras needs the list)")
        if method == "minimize" and not keras_2(self):
            raise Refused(
                node, "minimize() where tf.keras may be Keras 3 (TF >= 2.16 without import compat): no minimize"
            )
        step = args.get("global_step")
        if step is not None:
            line = parent.get(id(statement))
            if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1):
                raise Refused(node, f"{method}(global_step=...) sharing its line with other statements")
            if not (isinstance(step.value, (cst.Name, cst.Attribute)) or self._is_step_call(step.value)):
                raise Refused(node, f"{method}(global_step=...) of an expression the rule cannot evaluate apart")
            self._pending.append((call, method))
            return f"{method}() (its global step incremented after it, as TF1 did)"
        return f"{method}()"

    def _is_step_call(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Call) and id(node) in self._tf_calls and bool(self.match(node.func, _STEPS))

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        func = original_node.func
        if isinstance(func, cst.Attribute) and func.attr.value in _METHODS:
            self._uses_updated[id(original_node)] = updated_node
        return super().leave_Call(original_node, updated_node)

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._uses_updated: dict[
            int, cst.Call
        ] = {}  # id(original apply_gradients/minimize call) -> as the pass left it

    def _step_apart(self, use: cst.Call, method: str) -> None:
        """`opt.apply_gradients(pairs, step)` -> `opt.apply_gradients(pairs)` and, on the next line,
        `step.assign_add(1)`: what TF1's update did after applying the gradients (Keras counts its own)."""
        updated = self._uses_updated.get(id(use), use)  # (a statement the engine skipped is as written)
        args = arguments(updated, _METHODS[method], use, method)
        kept = [cst.Arg(args[_METHODS[method][0]].value)]
        if "var_list" in args:
            kept.append(cst.Arg(args["var_list"].value, keyword=cst.Name("var_list"), equal=_EQUAL))
        step = source_of(args["global_step"].value)
        self._edits[id(updated)] = (
            updated.with_changes(args=kept),
            [cst.parse_statement(f"{step}.assign_add(1)\n")],
        )


def _compile_argument(arg: cst.Arg, parent: dict[int, cst.CSTNode]) -> bool:
    """Is `arg` the optimizer argument of a `<model>.compile(...)` call (keyword `optimizer` or first positional)?"""
    call = parent.get(id(arg))
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "compile"):
        return False
    if arg.keyword is not None:
        return arg.keyword.value == "optimizer"
    return not arg.star and call.args[0] is arg


def _use(node: cst.CSTNode | None, parent: dict[int, cst.CSTNode]) -> str:
    """What a use of the optimizer's name the rule does not read is (for the info entry)."""
    if isinstance(node, cst.Arg):
        call = parent.get(id(node))
        callee = _tf.full_name(call.func) if isinstance(call, cst.Call) else ""
        if callee.endswith("Checkpoint"):
            return f"is put in {callee}: the Keras optimizer's variables have other names than TF1's"
        return f"is passed to {callee or 'a call'}(), which may read TF1's optimizer"
    if isinstance(node, (cst.AssignTarget, cst.Param, cst.For, cst.AsName, cst.NameItem, cst.AugAssign)):
        return "is bound again"
    return "is used otherwise than by apply_gradients, minimize or compile"
