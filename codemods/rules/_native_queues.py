"""native-session's queue-runner input: `tf.train.string_input_producer(files)`, a `tf.TFRecordReader`'s read of it,
the statements computing from the record, and `tf.train.shuffle_batch` / `tf.train.batch` of them, with the
Coordinator and `start_queue_runners` of the run region -> the tf.data pipeline TF1's deprecation notes name:

    def parse_record(raw):  # the record's statements, as written
        ...
        return image, label
    dataset = tf.data.TFRecordDataset(tf.data.Dataset.from_tensor_slices(files).shuffle(len(files)).repeat())
    dataset = dataset.map(parse_record).shuffle(min_after_dequeue).batch(batch_size)
    iterator = iter(dataset)

Each sess.run fetching a batch took one from the queue, as each step or evaluation call takes `iterator.get_next()`.
What changes is the order of the batches: TF1's threads fill a RandomShuffleQueue, tf.data shuffles with a buffer
of min_after_dequeue elements (the same distribution, other draws; TF1 did not repeat itself either), and
`tf.train.batch` with one thread keeps the records' order in both. Proven: one producer of a Python list of file
names (default epochs), one TFRecordReader without options reading it once, record statements that read no other
graph tensor, draw no random numbers and make no variables, a batch of two or more tensors unpacked into as many
names, its queue runners started before the first run and stopped after the last."""

from __future__ import annotations

import textwrap
from typing import cast

import libcst as cst

from codemods.rules import _tf
from codemods.rules._native_names import PREFIXES, tf1_names
from codemods.rules._native_pipeline import FILES, Pipelines
from codemods.rules._native_state import NativeSessionRule
from codemods.rules._native_syntax import (
    Block,
    Refused,
    arguments,
    assigned,
    names_in,
    single,
    source_of,
    target_names,
)

PRODUCER = tf1_names("train.string_input_producer")
READER = tf1_names("TFRecordReader")
SHUFFLE_BATCH = tf1_names("train.shuffle_batch")
BATCH = tf1_names("train.batch")
COORDINATOR = tf1_names("train.Coordinator")
START = tf1_names("train.start_queue_runners")
# (parameter, the default the conversion keeps): a producer's or batch's other parameters, when given, are refused
PRODUCER_PARAMS = ("string_tensor", "num_epochs", "shuffle", "seed", "capacity", "shared_name", "name", "cancel_op")
SHUFFLE_PARAMS = ("tensors", "batch_size", "capacity", "min_after_dequeue", "num_threads", "seed", "enqueue_many")
BATCH_PARAMS = ("tensors", "batch_size", "num_threads", "capacity", "enqueue_many")
KEPT = {"string_tensor", "shuffle", "seed", "capacity", "name", "tensors", "batch_size", "min_after_dequeue"}
KEPT |= {"num_threads"}  # (threads fill the queue in no set order: the order is the named change)


class Queues(Pipelines):
    """A queue-runner input read as a tf.data pipeline."""

    def __init__(self, rule: NativeSessionRule, block: Block) -> None:
        super().__init__(rule, block)
        # (the queue's name, the files as code, their number as code, the shuffle's seed argument as code)
        self.producer: tuple[str, str, str, str] | None = None
        self.shuffle_files = True
        self.readers: set[str] = set()  # `reader = tf.TFRecordReader()`
        self.record: str | None = None  # `_, raw = reader.read(queue)`: raw
        self.record_lines: list[cst.SimpleStatementLine] = []  # the statements computing from the record
        self.records: set[str] = set()  # the record and the names those statements bind
        self.queue_batch: cst.BaseStatement | None = None  # the (shuffle_)batch statement
        self.coordination: set[str] = set()  # the Coordinator's and the threads' names (deleted)
        self.runners = "not started"  # "started" by start_queue_runners, "stopped" by request_stop
        self.queue_shuffled = self.queue_ordered = False  # shuffle_batch; the records' order kept (one thread)
        self.queue_calls: set[int] = set()  # id() of the graph-mode calls of the run region's deleted lines

    def watched(self) -> set[str]:
        queue = {n for n in (self.producer[0] if self.producer else None, self.record) if n}
        return super().watched() | self.readers | self.records | self.coordination | queue

    # -- the graph
    def queue_statement(self, stmt: cst.BaseStatement) -> bool | None:
        """A statement of the queue input (True: converted), or None: not one."""
        small = single(stmt)
        reads = set(names_in(stmt).names)
        if self.queue_batch is not None and reads & self.records:
            raise Refused(stmt, f"`{min(reads & self.records)}`, a record before batching, is read after the batch")
        name, value = assigned(small)
        value = small.value if isinstance(small, cst.Assign) else None
        if name is not None and value is not None and name in self.file_lists() and self.listing(value):
            return False  # (host code: a list of file names, as TF1 read it when the graph was built)
        if isinstance(value, cst.Call) and self.rule.is_call(value, PRODUCER):
            return self.producer_statement(stmt, name, value)
        if isinstance(value, cst.Call) and self.rule.is_call(value, READER):
            if name is None or value.args:
                raise Refused(stmt, "a tf.TFRecordReader with options, or not bound to a name")
            self.readers.add(name)
            self.replacements[id(stmt)] = []
            return True
        if isinstance(value, cst.Call) and self.read_call(value):
            return self.read_statement(stmt, cast(cst.Assign, small), value)
        if isinstance(value, cst.Call) and self.rule.is_call(value, SHUFFLE_BATCH | BATCH) and self.record is not None:
            return self.batch_statement(stmt, cast(cst.Assign, small), value)
        if self.record is not None and self.queue_batch is None and reads & self.records:
            return self.record_statement(stmt, small)
        return None

    def file_lists(self) -> set[str]:
        """The names the block's file-name queues read (`string_input_producer(files)`: files)."""
        found = set()
        for stmt in self.block.original:
            for call in names_in(stmt).calls:
                first = call.args[0].value if call.args and call.args[0].keyword is None else None
                if self.rule.is_call(call, PRODUCER) and isinstance(first, cst.Name):
                    found.add(first.value)
        return found

    def listing(self, value: cst.BaseExpression) -> bool:
        """Does `value` call TensorFlow's file functions only (tf.io.gfile.glob: a Python list, no op)?"""
        calls = self.rule.tf_calls(value)
        homes = tuple(f"{p}{f}" for p in PREFIXES for f in FILES)
        return bool(calls) and all(all(n.startswith(homes) for n in self.rule.tf_names(c)) for c in calls)

    def producer_statement(self, stmt: cst.BaseStatement, name: str | None, call: cst.Call) -> bool:
        what = "tf.train.string_input_producer"
        if name is None or self.producer is not None:
            raise Refused(stmt, f"a second {what}, or one not bound to a name")
        args = arguments(call, PRODUCER_PARAMS, stmt, what)
        other = sorted(p for p in args if p not in KEPT)
        if other:
            raise Refused(stmt, f"{what}({other[0]}=...): the rule converts the default epochs (no epoch counter)")
        files = args["string_tensor"].value if "string_tensor" in args else None
        if isinstance(files, cst.Name) and files.value not in self.graph:
            length = f"len({files.value})"
            self.host_reads.setdefault(files.value, stmt)
        elif isinstance(files, (cst.List, cst.Tuple)) and files.elements and not self.rule.tf_calls(files):
            length = str(len(files.elements))
        else:
            raise Refused(stmt, f"{what} of something other than a Python list of file names")
        shuffle = args["shuffle"].value if "shuffle" in args else cst.Name("True")
        if not (isinstance(shuffle, cst.Name) and shuffle.value in ("True", "False")):
            raise Refused(stmt, f"{what} with a computed shuffle flag")
        self.shuffle_files = shuffle.value == "True"
        self.producer = (name, source_of(files), length, self.seed_of(args, stmt))
        self.replacements[id(stmt)] = []
        return True

    def seed_of(self, args: dict[str, cst.Arg], stmt: cst.BaseStatement) -> str:
        """`, seed=<literal>` (an op seed, drawn otherwise by tf.data), or ""."""
        seed = args["seed"].value if "seed" in args else None
        if seed is None or (isinstance(seed, cst.Name) and seed.value == "None"):
            return ""
        if not isinstance(seed, cst.Integer):
            raise Refused(stmt, "a queue input with a computed seed")
        return f", seed={seed.value}"

    def read_call(self, value: cst.Call) -> bool:
        """Is `value` `reader.read(...)` of a TFRecordReader (named, or made in place)?"""
        func = value.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "read"):
            return False
        reader = func.value
        named = isinstance(reader, cst.Name) and reader.value in self.readers
        return named or (isinstance(reader, cst.Call) and self.rule.is_call(reader, READER) is not None)

    def read_statement(self, stmt: cst.BaseStatement, small: cst.Assign, call: cst.Call) -> bool:
        reader = cast(cst.Attribute, call.func).value
        if isinstance(reader, cst.Call) and reader.args:
            raise Refused(stmt, "a tf.TFRecordReader with options")
        queue = call.args[0].value if len(call.args) == 1 and call.args[0].keyword is None else None
        if self.producer is None or not (isinstance(queue, cst.Name) and queue.value == self.producer[0]):
            raise Refused(stmt, "a reader's read of something other than the file-name queue")
        if self.record is not None:
            raise Refused(stmt, "a second read of the file-name queue (each takes its own records)")
        target = small.targets[0].target if len(small.targets) == 1 else None
        elements = target.elements if isinstance(target, cst.Tuple) else ()
        names = [e.value.value for e in elements if isinstance(e.value, cst.Name)]
        if len(names) != 2 or len(elements) != 2:
            raise Refused(stmt, "a reader's read not unpacked into a key and a value")
        key, self.record = names
        if key != "_" and key in self.rule.module_names():
            uses = self.rule.module_names()[key]
            if uses > 1:
                raise Refused(stmt, f"`{key}`, the record's key, is read (tf.data's TFRecordDataset gives none)")
        self.records.add(self.record)
        self.replacements[id(stmt)] = []
        return True

    def record_statement(self, stmt: cst.BaseStatement, small: cst.BaseSmallStatement | None) -> bool:
        """A statement computing from the record: it moves into the function the dataset maps."""
        targets = target_names(small) if small is not None and isinstance(stmt, cst.SimpleStatementLine) else None
        if targets is None or not isinstance(small, cst.Assign):
            raise Refused(stmt, "a statement reading the record that is not an assignment to names")
        reads = set(names_in(stmt).names)
        other = reads & (self.graph | self.readers)
        if other:
            raise Refused(stmt, f"the record computed with `{min(other)}`, a tensor of the graph")
        for call in names_in(stmt).calls:
            self.traced_call(call, stmt, "a record's statement")
            if self.rule.tf_names(call) & (PRODUCER | READER | SHUFFLE_BATCH | BATCH):
                raise Refused(stmt, f"{_tf.full_name(call.func)} inside a record's statement")
        for read in sorted(reads - self.records - self.rule._aliases):  # noqa: SLF001
            self.host_reads.setdefault(read, stmt)
        self.record_lines.append(cast(cst.SimpleStatementLine, stmt))
        self.records.update(targets)
        self.replacements[id(stmt)] = []
        return True

    def batch_statement(self, stmt: cst.BaseStatement, small: cst.Assign, call: cst.Call) -> bool:
        shuffled = self.rule.is_call(call, SHUFFLE_BATCH) is not None
        what = "tf.train.shuffle_batch" if shuffled else "tf.train.batch"
        if self.queue_batch is not None:
            raise Refused(stmt, f"a second {what} of the record")
        updated = single(cast(cst.BaseStatement, self.up(stmt)))
        if not (isinstance(updated, cst.Assign) and isinstance(updated.value, cst.Call)):
            raise Refused(stmt, "the statement changed shape in the safe pass")
        args = arguments(updated.value, SHUFFLE_PARAMS if shuffled else BATCH_PARAMS, stmt, what)
        other = sorted(p for p in args if p not in KEPT)
        if other or "batch_size" not in args or (shuffled and "min_after_dequeue" not in args):
            raise Refused(stmt, f"{what}({(other or ['...'])[0]}=...), which the rule does not convert")
        original = arguments(call, SHUFFLE_PARAMS if shuffled else BATCH_PARAMS, stmt, what)
        tensors = original["tensors"].value if "tensors" in original else None
        targets = target_names(small)
        target = small.targets[0].target if len(small.targets) == 1 else None
        elements = tensors.elements if isinstance(tensors, (cst.List, cst.Tuple)) else ()
        if len(elements) < 2 or not isinstance(target, (cst.Tuple, cst.List)) or targets is None:
            raise Refused(stmt, f"{what} of other than a list of two or more tensors unpacked into names")
        if len(targets) != len(elements) or any(isinstance(e, cst.StarredElement) for e in elements):
            raise Refused(stmt, f"{what} of other than a list of two or more tensors unpacked into names")
        batched = cast(cst.BaseExpression, tensors)
        unread = set(names_in(batched).names) & (self.graph | self.readers)
        if unread:
            raise Refused(stmt, f"{what} of `{min(unread)}`, a tensor not computed from the record")
        for call_ in names_in(batched).calls:
            self.traced_call(call_, stmt, what)
        self.queue_batch, self.queue_shuffled = stmt, shuffled
        threads = args["num_threads"].value if "num_threads" in args else cst.Integer("1")
        self.queue_ordered = not (shuffled or self.shuffle_files) and source_of(threads) == "1"
        self.inputs = (self.pipeline_names(), targets, False)
        self.graph.update(targets)
        self.replacements[id(stmt)] = self.pipeline(stmt, args, args["tensors"].value, shuffled)
        return True

    def pipeline_names(self) -> str:
        """The dataset's name (and the parse function's, the iterator's): names the module does not use."""
        taken = self.rule.module_names()
        for wanted in ("dataset", "parse_record"):
            if wanted not in self.names:
                self.names[wanted] = next(n for n in (wanted, f"{wanted}_fn", f"queue_{wanted}") if n not in taken)
        return self.names["dataset"]

    def pipeline(
        self, stmt: cst.BaseStatement, args: dict[str, cst.Arg], tensors: cst.BaseExpression, shuffled: bool
    ) -> list[cst.BaseStatement]:
        tf, (_, files, length, seed) = self.alias, cast(tuple[str, str, str, str], self.producer)
        dataset, parse, record = self.names["dataset"], self.names["parse_record"], cast(str, self.record)
        lines = [source_of(cast(cst.BaseStatement, self.tf2_names(self.up(s), s))) for s in self.record_lines]
        if not isinstance(tensors, (cst.List, cst.Tuple)):
            raise Refused(stmt, "the batch's tensors changed shape in the safe pass")
        returned = ", ".join(source_of(e.value) for e in tensors.elements)
        body = "".join(textwrap.indent(line.strip("\n") + "\n", "    ") for line in lines)
        body += f"    return {returned}\n"
        names = f"{tf}.data.Dataset.from_tensor_slices({files})"
        if self.shuffle_files:
            names += f".shuffle({length}{seed})"
        chain = f"{dataset}.map({parse})"
        if shuffled:
            chain += f".shuffle({source_of(args['min_after_dequeue'].value)}{self.seed_of(args, stmt)})"
        chain += f".batch({source_of(args['batch_size'].value)})"
        code = (
            f"def {parse}({record}):\n{body}\n"
            f"{dataset} = {tf}.data.TFRecordDataset({names}.repeat())\n"
            f"{dataset} = {chain}\n"
            f"{self.names_iterator()} = iter({dataset})\n"
        )
        made = list[cst.BaseStatement](cst.parse_module("pass\n" + code).body[1:])
        made[0] = made[0].with_changes(leading_lines=[cst.EmptyLine(indent=False)])
        made[1] = made[1].with_changes(leading_lines=[cst.EmptyLine(indent=False)])
        return made

    def queue_said(self) -> list[str]:
        """The report's words for the conversion."""
        order = (
            "the batches in the records' order, as one thread filled TF1's queues"
            if self.queue_ordered
            else "the batches in another order: tf.data's shuffle buffer draws them, not TF1's queue threads"
        )
        batch = ".shuffle(min_after_dequeue).batch(batch_size)" if self.queue_shuffled else ".batch(batch_size)"
        files = f"from_tensor_slices(files){'.shuffle(len(files))' if self.shuffle_files else ''}.repeat()"
        return [
            f"queue-runner input -> a tf.data pipeline ({self.names['dataset']}: string_input_producer -> {files}, "
            f"TFRecordReader -> TFRecordDataset, the record's statements -> {self.names['parse_record']}(), mapped; "
            f"{'shuffle_batch' if self.queue_shuffled else 'batch'} -> {batch}), iter({self.names['dataset']}), a batch "
            f"per run; the Coordinator and queue runners deleted ({order})"
        ]

    def draws_input(self, fetches: list[str]) -> bool:
        """Does every fetch read the batch (then the run takes one from the queue, as the call takes one element)?"""
        elements = set(self.inputs[1]) if self.inputs else set()
        return all(self.depends.get(f, {f}) & elements for f in fetches)

    # -- the run region
    def queue_line(self, line: cst.SimpleStatementLine) -> list[cst.BaseStatement] | None:
        """The Coordinator, start_queue_runners, request_stop and join lines (deleted: no thread fills a
        tf.data pipeline); a sess.run taking a batch before the runners start or after they stop is Refused."""
        if self.queue_batch is None:
            return None
        small = single(line)
        name, value = assigned(small)
        value = small.value if isinstance(small, cst.Expr) else value
        if isinstance(value, cst.Call) and self.rule.is_call(value, COORDINATOR) and not value.args and name:
            self.coordination.add(name)
            return []
        if isinstance(value, cst.Call) and self.rule.is_call(value, START):
            args = arguments(value, ("sess", "coord", "daemon", "start", "collection"), line, "start_queue_runners")
            sess, coord = args.get("sess"), args.get("coord")
            if set(args) - {"sess", "coord"} or not (sess and isinstance(sess.value, cst.Name)):
                raise Refused(line, "start_queue_runners with arguments besides the session and the coordinator")
            if sess.value.value not in self.sessions or (
                coord and not (isinstance(coord.value, cst.Name) and coord.value.value in self.coordination)
            ):
                raise Refused(line, "start_queue_runners of another session or coordinator")
            if self.runners != "not started":
                raise Refused(line, "start_queue_runners run twice")
            self.runners = "started"
            self.queue_calls.add(id(value))
            self.coordination |= {name} if name else set()
            return []
        method = value.func if isinstance(value, cst.Call) and isinstance(small, cst.Expr) else None
        if isinstance(method, cst.Attribute) and isinstance(method.value, cst.Name):
            if method.value.value in self.coordination and method.attr.value in ("request_stop", "join"):
                joined = {n for a in cast(cst.Call, value).args for n in names_in(a).names}
                if joined - self.coordination or id(line) in self.looped:
                    raise Refused(line, f"coordinator.{method.attr.value}() of other threads, or in a loop")
                self.runners = "stopped"
                return []
        return None

    def element_args(self) -> list[str]:
        if self.queue_batch is not None and self.runners != "started":
            raise Refused(
                self.queue_batch,
                f"a sess.run taking a batch with the queue runners {self.runners} (TF1 waits for the queue forever)",
            )
        return super().element_args()
