"""native-session's Saver: saver.save / saver.restore -> tf.train.Checkpoint write / restore, which reads a
TF1 checkpoint by its variables' names; where the script trains, TF1's optimizer slots, which do not load by name,
go into the Keras optimizer's through compat.tf1_slots."""

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
        """saver.save(sess, path) -> saver.write(path) (it returns the path too); a whole-statement
        saver.restore(sess, path) -> saver.restore(path), which also reads a TF1 checkpoint by its names, then, where
        the script trains, compat.tf1_slots.restore_slots_when_built(optimizer, path): a TF1 checkpoint's optimizer
        slots, which the restore does not load by name, go into the Keras optimizer's when it makes them."""
        if runs or len(calls) != 1:
            raise Refused(line, "a line with a sess.run and the saver, or the saver twice")
        call, new = calls[0], updated_calls[0]
        method = self.saver_method(call)
        slots = ""
        args = arguments(call, ("sess", "save_path"), line, f"{self.saver}.{method}")
        session = args["sess"].value if "sess" in args else None
        if not (isinstance(session, cst.Name) and session.value in self.sessions) or "save_path" not in args:
            raise Refused(line, f"{self.saver}.{method} without the session and a path (global_step, ...)")
        path = arguments(new, ("sess", "save_path"), line, f"{self.saver}.{method}")["save_path"].value
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
            replacement = cst.parse_expression(f"{self.saver}.write({source_of(path)})")

        class Swap(cst.CSTTransformer):
            def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
                return replacement if original_node is new else updated_node

        converted = cast(cst.SimpleStatementLine, updated.visit(Swap()))
        return [converted, *([cst.parse_statement(slots)] if slots else [])]
