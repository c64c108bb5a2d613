"""native-session's summaries: v1 scalar/histogram summaries collected by merge_all, FileWriter and
add_summary, written as tf.summary v2 under a default writer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import libcst as cst

from codemods.rules._native_names import SUMMARIES
from codemods.rules._native_scopes import Scopes
from codemods.rules._native_syntax import Refused, arguments, leading, names_in, single, source_of


class Summaries(Scopes):
    """v1 summaries and the FileWriter."""

    def summary(self, stmt: cst.BaseStatement, call: cst.Call) -> bool:
        """`tf.summary.scalar("tag", tensor)`: the tensor becomes part of merge_all's value, written by add_summary."""
        kind = SUMMARIES[cast(str, self.rule.is_call(call, SUMMARIES))]
        updated = cast(cst.Call, cast(cst.Expr, single(cast(cst.BaseStatement, self.up(stmt)))).value)
        args = arguments(updated, ("name", "tensor" if kind == "scalar" else "values"), stmt, f"tf.summary.{kind}")
        tag = args["name"].value if "name" in args else None
        if not isinstance(tag, cst.SimpleString) or len(args) != 2:
            raise Refused(stmt, f"tf.summary.{kind} without a literal tag and its tensor")
        tags = [t for _, t, _ in self.unmerged] + [t for s in self.merged.values() for _, t, _ in s]
        if str(tag.evaluated_value) in tags:
            raise Refused(stmt, f"two summaries tagged {tag.evaluated_value!r}: TF1 would have renamed one")
        tensor = args["tensor" if kind == "scalar" else "values"].value
        reads = set(names_in(tensor).names)
        for read in sorted(reads - self.graph - self.rule._aliases):  # noqa: SLF001
            self.host_reads.setdefault(read, stmt)
        code = source_of(tensor)
        if isinstance(tensor, cst.Name) and tensor.value in self.variables:
            code = f"{self.alias}.identity({code})"  # its value when summarized (TF1: in the run), not a variable
        self.unmerged.append((kind, str(tag.evaluated_value), code))
        self.depends.setdefault("<summaries>", set()).update(reads & self.graph)
        self.replacements[id(stmt)] = []
        return True

    def merge_all(self, stmt: cst.BaseStatement, name: str) -> bool:
        """`merged = tf.summary.merge_all()` -> `merged = {"tag": tensor, ...}` in model(): the summaries' values."""
        if not self.unmerged or self.merged:
            raise Refused(stmt, "tf.summary.merge_all with no summary before it, or twice")
        self.merged[name] = self.unmerged
        self.unmerged = []
        values = ", ".join(f"{tag!r}: {tensor}".replace("'", '"', 2) for _, tag, tensor in self.merged[name])
        line = cast(cst.SimpleStatementLine, cst.parse_statement(f"{name} = {{{values}}}\n"))
        self.merge_lines[id(stmt)] = line.with_changes(leading_lines=leading(stmt))
        self.computes.append(cast(cst.SimpleStatementLine, stmt))
        self.depends[name] = self.depends.pop("<summaries>", set())
        self.graph.add(name)
        self.replacements[id(stmt)] = []
        return True

    def file_writer(self, stmt: cst.BaseStatement, name: str) -> bool:
        """`writer = tf.summary.FileWriter(logdir)` -> `writer = tf.summary.create_file_writer(logdir)`."""
        if self.writer is not None:
            raise Refused(stmt, "two tf.summary.FileWriter")
        args = self.file_writer_arguments(stmt, self.updated_call(stmt))
        if "logdir" not in args or set(names_in(args["logdir"].value).names) & self.graph:
            raise Refused(stmt, "tf.summary.FileWriter without a logdir, or with one the graph computes")
        self.writer = name
        code = f"{name} = {self.alias}.summary.create_file_writer({source_of(args['logdir'].value)})\n"
        self.replacements[id(stmt)] = [cst.parse_statement(code)]
        return False

    def file_writer_arguments(self, stmt: cst.CSTNode, call: cst.Call) -> dict[str, cst.Arg]:
        """A FileWriter's arguments; Refused for a graph given to it (TF1 wrote the GraphDef into the event file,
        create_file_writer writes no graph, and the port's tf.function graphs are not TF1's)."""
        args = arguments(call, ("logdir", "graph"), stmt, "tf.summary.FileWriter")
        if "graph" in args:
            raise Refused(
                stmt,
                "tf.summary.FileWriter given the graph: TF1 wrote the graph into the event file, TF 2's "
                "tf.summary.create_file_writer writes none",
            )
        return args

    def writer_method(self, call: cst.Call) -> str | None:
        func = call.func
        if self.writer and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            return func.attr.value if func.value.value == self.writer else None
        return None

    def record_summaries(
        self, line: cst.CSTNode, small: cst.BaseSmallStatement | None, run: cst.Call, fetches: list[str], listed: bool
    ) -> None:
        """A fetched merge_all's value must go into a name (that add_summary writes): record which."""
        merged = [i for i, name in enumerate(fetches) if name in self.merged]
        if not merged or (isinstance(small, cst.Expr) and small.value is run):
            return  # (a run whose values are dropped: no summary is written, in TF1 either)
        target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else None
        if not isinstance(small, cst.Assign) or small.value is not run:
            target = None
        if listed and isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == len(fetches):
            found = [target.elements[i].value for i in merged]
        else:
            found = [target] if not listed and target is not None else []
        if not found or not all(isinstance(n, cst.Name) for n in found):
            raise Refused(line, "a fetched merge_all that is not unpacked into a name")
        for index, node in zip(merged, found):
            self.summary_values[cast(cst.Name, node).value] = fetches[index]
            self.summary_uses.add(id(node))

    def add_summary(self, line: cst.SimpleStatementLine, call: cst.Call, updated: cst.Call) -> cst.BaseStatement:
        """`writer.add_summary(summary, step)` -> the summaries written with tf.summary v2 to the writer as default."""
        args = arguments(call, ("summary", "global_step"), line, f"{self.writer}.add_summary")
        value = args["summary"].value if "summary" in args else None
        if not isinstance(value, cst.Name) or value.value not in self.summary_values or "global_step" not in args:
            raise Refused(
                line, f"{self.writer}.add_summary of something other than a fetched merge_all, or without a step"
            )
        self.summary_uses.add(id(value))
        step = source_of(arguments(updated, ("summary", "global_step"), line, "add_summary")["global_step"].value)
        if set(names_in(args["global_step"].value).names) & self.watched():
            raise Refused(line, "a summary step computed from the graph")
        written = "".join(
            f'    {self.alias}.summary.{kind}("{tag}", {value.value}["{tag}"])\n'
            for kind, tag, _ in self.merged[self.summary_values[value.value]]
        )
        new = cst.parse_statement(f"with {self.writer}.as_default(step={step}):\n{written}")
        return new.with_changes(leading_lines=leading(line))

    def check_summary_values(self, area: Sequence[cst.BaseStatement]) -> None:
        """The names holding a fetched merge_all hold nothing else and go only to add_summary (their value is
        no longer TF1's serialized Summary)."""
        for stmt in area:
            for node in names_in(stmt).nodes:  # (not an attribute's name: the `summary` of tf.summary.FileWriter)
                if node.value in self.summary_values and id(node) not in self.summary_uses:
                    raise Refused(stmt, f"`{node.value}`, a fetched summary, is used besides by add_summary")
