"""native-session's Saver: saver.save -> compat.tf1_saver.save of the tf.train.Checkpoint standing for it (written as
TF1's Saver wrote, its state file too: tf.train.latest_checkpoint finds it), saver.restore -> the Checkpoint's restore,
which reads a TF1 checkpoint by its variables' names; where the script trains, TF1's optimizer slots, which do not
load by name, go into the Keras optimizer's through compat.tf1_slots."""

from __future__ import annotations

from typing import cast

import libcst as cst

from codemods.engine.rule import Rule
from codemods.rules._native_metrics import Metrics
from codemods.rules._native_syntax import Refused, arguments, names_in, source_of

# calls a restore's path may make twice (they read the path, change nothing)
_PURE_PATHS = ("os.path.join", "train.latest_checkpoint", "os.environ.get", "os.getcwd")


class Checkpoints(Metrics):
    """The Saver."""

    def saver_method(self, call: cst.CSTNode) -> str | None:
        """`save` / `restore` of `saver.save(sess, path)` / `saver.restore(sess, path)`, else None."""
        if self.saver and isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute):
            func = call.func
            if isinstance(func.value, cst.Name) and func.value.value == self.saver:
                return func.attr.value if func.attr.value in ("save", "restore") else None
        return None

    def is_restore(self, call: cst.CSTNode) -> bool:
        return self.saver_method(call) == "restore"

    def checkpoint_line(
        self,
        line: cst.SimpleStatementLine,
        small: cst.BaseSmallStatement | None,
        calls: list[cst.Call],
        updated: cst.SimpleStatementLine,
        updated_calls: list[cst.Call],
        runs: bool,
    ) -> list[cst.BaseStatement]:
        """saver.save(sess, path, global_step) -> compat.tf1_saver.save(saver, path, global_step=global_step), which
        returns the path too and keeps the Saver's state file and its 5 last checkpoints; a whole-statement
        saver.restore(sess, path) -> saver.restore(path), which also reads a TF1 checkpoint by its names, then, where
        the script trains, compat.tf1_slots.restore_slots_when_built(optimizer, path): a TF1 checkpoint's optimizer
        slots, which the restore does not load by name, go into the Keras optimizer's when it makes them."""
        if runs or len(calls) != 1:
            raise Refused(line, "a line with a sess.run and the saver, or the saver twice")
        call, new = calls[0], updated_calls[0]
        method = self.saver_method(call)
        slots = ""
        params = ("sess", "save_path", *(("global_step",) if method == "save" else ()))
        args = arguments(call, params, line, f"{self.saver}.{method}")
        session = args["sess"].value if "sess" in args else None
        if not (isinstance(session, cst.Name) and session.value in self.sessions) or "save_path" not in args:
            raise Refused(line, f"{self.saver}.{method} without the session and a path")
        new_args = arguments(new, params, line, f"{self.saver}.{method}")
        path = new_args["save_path"].value
        if method == "restore":
            if not (isinstance(small, cst.Expr) and small.value is call):
                raise Refused(line, f"the value of {self.saver}.restore (None in TF1) is used")
            replacement = cst.parse_expression(f"{self.saver}.restore({source_of(path)})")
            if self.train_op is not None:
                rerun = [c for c in names_in(path).calls if not source_of(c.func).endswith(_PURE_PATHS)]
                if rerun:
                    raise Refused(
                        line,
                        f"{self.saver}.restore of a path computed by {source_of(rerun[0].func)}(), which the port would "
                        "call twice: to restore, and to load TF1's optimizer slots (compat.tf1_slots)",
                    )
                cast(Rule, self.rule).add_needed_import("compat.tf1_slots")  # (the rule is a Rule)
                slots = f"compat.tf1_slots.restore_slots_when_built({self.names['optimizer']}, {source_of(path)})\n"
        else:
            if self.layers_pending and not self.steps_seen:
                raise Refused(line, "a save before any step: the Keras layers have no variables yet")
            step = ""
            if "global_step" in args:
                # (a Python value, or a variable of the port: int() reads it, as TF1's Saver evaluated the tensor)
                held = self.variables | {self.step_counter}
                read = sorted(set(names_in(args["global_step"].value).names) & (self.graph - held))
                if read:
                    raise Refused(
                        line,
                        f"{self.saver}.save's global_step computed from the graph ({', '.join(read)}), which the port "
                        "does not hold outside its functions",
                    )
                step = f", global_step={source_of(new_args['global_step'].value)}"
            cast(Rule, self.rule).add_needed_import("compat.tf1_saver")
            replacement = cst.parse_expression(f"compat.tf1_saver.save({self.saver}, {source_of(path)}{step})")

        class Swap(cst.CSTTransformer):
            def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
                return replacement if original_node is new else updated_node

        converted = cast(cst.SimpleStatementLine, updated.visit(Swap()))
        return [converted, *([cst.parse_statement(slots)] if slots else [])]
