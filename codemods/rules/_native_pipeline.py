"""native-session's input functions: a function of the module that builds a tf.data pipeline and returns its
one-shot iterator's next element (`images, labels = input_fn(mode)`, as TF 1.4's cifar10_estimator wrote it),
and the functions a pipeline maps (`dataset.map(parser)`).

The input function keeps its statements and returns the dataset; the graph's one call of it becomes
`iterator = iter(input_fn(mode))`, and each training step takes `iterator.get_next()`, as each sess.run of the
train op drew one element. A mapped function stays as written: tf.data traces it into a graph function in TF1
and in TF 2 alike.

Both are written in TF 2's names: the v1 dataset classes as tf.data's (the same pipeline methods), a
`tf.compat.v1.<name>` that is the same object in TF 2 as `tf.<name>` (the API table's check, as for a file
importing tensorflow.compat.v1), and `tf.compat.v1.image.resize_images(image, size)` on a decoded image as the
op it runs with its defaults (RESIZE). Proven: the input function is called once, by the graph, reads no graph
name and builds nothing but the pipeline (its other TensorFlow calls read files); its statements are
assignments and ifs; a mapped function is used only as a converted pipeline's function, makes no variables and
draws no random numbers (graph and eager op seeds differ); no other tf.compat.v1 name is left in either."""

from __future__ import annotations

from typing import cast

import libcst as cst

from codemods.rules import _native_tables as tables
from codemods.rules import _tf
from codemods.rules._native_dtypes import FLOAT32, Element, bindings, pipeline_dtypes
from codemods.rules._native_inputs import Inputs, one_shot_element
from codemods.rules._native_names import PREFIXES, STATEFUL
from codemods.rules._native_state import NativeSessionRule
from codemods.rules._native_syntax import (
    Block,
    Refused,
    arguments,
    bound_names,
    collect,
    descendants,
    names_in,
    single,
    source_of,
    target_names,
)
from codemods.rules._native_v1_module import same_in_tf2

# the dataset methods that take a function, and the keyword naming it
MAPPING = {"map": "map_func", "flat_map": "map_func", "interleave": "map_func", "filter": "predicate"}
# TensorFlow's functions an input function may call besides tf.data's: they read files and build no op
FILES = ("io.gfile.", "gfile.")
# tf.compat.v1.image.resize_images(image, size) with its defaults is the ResizeBilinear op without half-pixel
# centres, on the image made a batch of one where it has rank 3; TF 2's tf.image.resize samples at half-pixel
# centres (other pixels). The decoders whose images have rank 3:
RESIZE = "image.resize_images"
# where TensorFlow's dataset classes and transformations live (TF 1.4's tf.contrib.data among them)
DATA = tuple(p + "data." for p in (*PREFIXES, "tensorflow.contrib."))
DECODERS = frozenset(f"{home}.{d}" for home in ("image", "io") for d in ("decode_jpeg", "decode_png", "decode_bmp"))


class Pipelines(Inputs):
    """Input functions and the functions their pipelines map."""

    def __init__(self, rule: NativeSessionRule, block: Block) -> None:
        super().__init__(rule, block)
        self.input_function: str | None = None  # the input function the graph calls (its name)
        self.pipelines: list[cst.CSTNode] = []  # the converted pipelines (input functions, dataset statements)
        self.mapped: dict[str, cst.FunctionDef] = {}  # the functions they map, by name
        self.pending: dict[str, cst.FunctionDef] = {}  # the block's defs read as input or mapped functions

    def float32_inputs(self, line: cst.CSTNode, what: str, inputs: cst.CSTNode | None = None) -> None:
        """Refused also where a layer's `inputs` (else anything of `line`) read an element of the tf.data input not
        proven float32 (numpy's arrays are float64): TF1's layers made their variables in their input's dtype, the
        rule's Keras layers are float32 (_native_dtypes says what it reads)."""
        super().float32_inputs(line, what, inputs)
        if self.inputs is None or not (self.input_function or self.inputs[0] in self.datasets):
            return  # (queue-runner input: _native_queues)
        _, targets, whole = self.inputs
        read = names_in(inputs or line).names
        reached = set(read).union(*(self.depends.get(n, set()) for n in read))
        element = self.element_dtypes()
        for index, target in enumerate(targets):
            if target not in reached:
                continue
            found = element if element is None or whole or len(element) != len(targets) else [element[index]]
            dtypes = set(found or [None]) - {FLOAT32} - {d for d in found or [] if d and not d.startswith("float")}
            if dtypes:
                known = sorted(d for d in dtypes if d is not None)
                why = f"is {known[0]}" if None not in dtypes else "the rule cannot prove float32"
                raise Refused(
                    line,
                    f"{what} reads the input pipeline's element `{target}`, whose dtype {why} (it reads astype, "
                    "tf.cast, tf.constant, numpy dtypes, output_types and FixedLenFeature): TF1's layers made their "
                    "variables in their input's dtype, the Keras layers the rule makes are float32",
                )

    def element_dtypes(self) -> list[str | None] | None:
        """The input pipeline's element dtypes (from its statements in the block or in the input function)."""
        statements = list(self.block.original)
        scope = bindings(statements)
        name = cast(tuple, self.inputs)[0]
        if self.input_function:
            fn = cast(cst.FunctionDef, self.defined(self.input_function))
            statements = list(cast(cst.IndentedBlock, fn.body).body)
            scope |= bindings(statements)
            name = cast(str, self.element_return(fn))
        found: list[cst.BaseExpression] = []
        always: list[cst.BaseExpression] = []
        for stmt in statements:
            for inner, conditional in _assignments(stmt, False):
                small = single(inner)
                if isinstance(small, cst.Assign) and target_names(small) == [name]:
                    found.append(small.value)
                    always += [] if conditional else [small.value]
        element = pipeline_dtypes(found, name, Element(scope, {}), self.defined)
        return element if element == pipeline_dtypes(always, name, Element(scope, {}), self.defined) else None

    def defined(self, name: str) -> cst.FunctionDef | None:
        """The def of `name` at the module's top level or in the block (before it is called), else None."""
        found = {id(fn): fn for _, fn in self.rule._functions if fn.name.value == name}  # noqa: SLF001
        found |= {id(s): s for s in self.block.original if isinstance(s, cst.FunctionDef) and s.name.value == name}
        return next(iter(found.values())) if len(found) == 1 else None

    def pipeline_def(self, fn: cst.FunctionDef) -> bool:
        """Is a def of the block an input function or a function the module passes to a dataset method (then it
        converts with the pipeline that reads it, or the block is refused)?"""
        if self.element_return(fn) is None and not self.mapping_calls(fn)[0]:
            return False
        self.pending[fn.name.value] = fn
        return True

    def mapping_calls(self, fn: cst.FunctionDef) -> tuple[list[cst.Call], bool]:
        """(the dataset method calls passing `fn` as their function, does the module use its name otherwise?)"""
        name = fn.name.value
        module = self.rule._module  # noqa: SLF001
        found = names_in(module)
        nodes = [n for n in found.nodes if n.value == name and n is not fn.name]
        calls: dict[int, cst.Call] = {}
        for call in found.calls:
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value in MAPPING:
                for index, arg in enumerate(call.args):
                    keyword = arg.keyword.value if arg.keyword is not None else None
                    if (index == 0 and keyword is None) or keyword == MAPPING[func.attr.value]:
                        calls[id(arg.value)] = call
        return [calls[id(n)] for n in nodes if id(n) in calls], any(id(n) not in calls for n in nodes)

    @staticmethod
    def element_return(fn: cst.FunctionDef) -> str | None:
        """`dataset` of a def ending in `return dataset.make_one_shot_iterator().get_next()`, else None."""
        body = fn.body.body if isinstance(fn.body, cst.IndentedBlock) else ()
        last = single(body[-1]) if body else None
        return one_shot_element(last.value if isinstance(last, cst.Return) else None)

    def input_call(self, value: cst.BaseExpression) -> cst.FunctionDef | None:
        """The input function `value` calls (`input_fn(mode)`), else None."""
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
            fn = self.defined(value.func.value)
            if fn is not None and self.element_return(fn) is not None:
                return fn
        return None

    def input_iterator(self, stmt: cst.BaseStatement, small: cst.Assign, fn: cst.FunctionDef) -> bool:
        """`images, labels = input_fn(mode)` -> `iterator = iter(input_fn(mode))`, the function returning its
        dataset: each step takes the next element, as each sess.run of the train op drew one."""
        name = fn.name.value
        targets = target_names(small)
        if self.inputs is not None or targets is None or len(small.targets) != 1:
            raise Refused(stmt, "a second input, or an element not unpacked into names")
        if len([n for n in names_in(self.rule._module).nodes if n.value == name]) != 2:  # noqa: SLF001
            raise Refused(stmt, f"{name}() is used elsewhere too (its one call builds the input pipeline)")
        call = cast(cst.Call, small.value)
        if self.rule.tf_calls(call) or set(names_in(call).names) & self.graph:
            raise Refused(stmt, f"{name}() called with TensorFlow ops or graph tensors")
        self.convert_input_function(fn)
        updated = self.tf2_names(cast(cst.Assign, single(cast(cst.BaseStatement, self.up(stmt)))).value, stmt)
        iterator = self.names_iterator()
        self.input_function = name
        # (the iterator is the pipeline's name in the step's input signature: it has the dataset's element_spec)
        self.inputs = (iterator, targets, isinstance(small.targets[0].target, cst.Name))
        self.graph.update(targets)
        self.replacements[id(stmt)] = [cst.parse_statement(f"{iterator} = iter({source_of(updated)})\n")]
        return True

    def convert_input_function(self, fn: cst.FunctionDef) -> None:
        name = fn.name.value
        self.plain_def(fn)
        body = cast(cst.IndentedBlock, fn.body).body
        datasets: set[str] = set()
        for stmt in body[:-1]:
            self.input_statement(stmt, datasets, name)
        returned = cast(str, self.element_return(fn))
        if returned not in datasets:
            raise Refused(
                fn, f"{name}() returns the element of `{returned}`, which is not a tf.data pipeline it builds"
            )
        self.pipelines.append(fn)
        updated = cast(cst.FunctionDef, self.up(fn))
        block = cast(cst.IndentedBlock, updated.body)
        last = cast(cst.SimpleStatementLine, block.body[-1])
        done = block.body[-1].with_changes(body=[cst.Return(value=cst.Name(returned))])
        if source_of(last).strip() != source_of(cast(cst.SimpleStatementLine, body[-1])).strip():
            raise Refused(fn, f"{name}()'s return changed in the safe pass")
        new = updated.with_changes(body=block.with_changes(body=[*block.body[:-1], done]))
        self.replacements[id(fn)] = [cast(cst.BaseStatement, self.tf2_names(new, fn))]

    def plain_def(self, fn: cst.FunctionDef) -> None:
        name = fn.name.value
        if fn.decorators or fn.asynchronous or not isinstance(fn.body, cst.IndentedBlock):
            raise Refused(fn, f"{name}() has decorators or is asynchronous")
        if self.rule.shadowed_tf(fn):
            raise Refused(fn, "a name bound to TensorFlow is something else here")
        params = {p.name.value for p in fn.params.params}
        read = (set(names_in(fn).names) - bound_names(fn) - params) & self.graph
        if read:
            raise Refused(fn, f"{name}() reads `{min(read)}`, a graph name")

    def input_statement(self, stmt: cst.BaseStatement, datasets: set[str], name: str) -> None:
        """A statement of an input function: a docstring, an assignment of host values or of the pipeline, or an
        if of those (its test host code)."""
        if isinstance(stmt, cst.If):
            self.host_code(stmt.test, stmt, name)
            for inner in [*cast(cst.IndentedBlock, stmt.body).body, *self.orelse(stmt)]:
                self.input_statement(inner, datasets, name)
            return
        small = single(stmt)
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString):
            return
        targets = target_names(small) if small is not None else None
        if targets is None:
            raise Refused(stmt, f"a statement of {name}() other than an assignment or an if")
        value = cast(cst.Assign, small).value
        if self.pipeline_head(value) or self.dataset_chain(value, datasets):
            if len(targets) != 1:
                raise Refused(stmt, f"a tf.data pipeline of {name}() not bound to one name")
            datasets.add(targets[0])
            self.pipeline_calls(value, stmt, f"{name}()")
            self.mapped_functions(stmt)
            return
        if set(targets) & datasets:
            raise Refused(stmt, f"`{min(set(targets) & datasets)}` is bound to a pipeline and to something else")
        self.host_code(value, stmt, name)

    @staticmethod
    def orelse(stmt: cst.If) -> list[cst.BaseStatement]:
        other = stmt.orelse
        if other is None:
            return []
        if isinstance(other, cst.If):
            return [other]
        return list(cast(cst.IndentedBlock, other.body).body)

    def pipeline_head(self, value: cst.BaseExpression) -> bool:
        """Is `value` a method chain on a tf.data call (TF 1.4's tf.contrib.data too: the safe pass wrote it as
        tf.compat.v1.data's)?"""
        while isinstance(value, cst.Call):
            if any(n.startswith(DATA) for n in self.rule.tf_names(value)):
                return True
            if not isinstance(value.func, cst.Attribute):
                return False
            value = value.func.value
        return False

    def pipeline_calls(self, value: cst.BaseExpression, stmt: cst.CSTNode, name: str) -> None:
        """A pipeline's calls: tf.data's, and functions it maps that make no variables and draw no random numbers
        (tf.data traces them in TF1 and TF 2 alike; graph and eager op seeds differ)."""
        for call in names_in(value).calls:
            names = self.rule.tf_names(call)
            if names and all(n.startswith(DATA) for n in names):
                continue
            self.traced_call(call, stmt, name)

    def traced_call(self, call: cst.Call, stmt: cst.CSTNode, name: str) -> None:
        what = _tf.full_name(call.func)
        if self.rule.is_call(call, STATEFUL) or self.rule.variable_library(call):
            raise Refused(stmt, f"{what} in {name}, which a pipeline traces: it makes variables")
        if any("random" in n for n in self.rule.tf_names(call)):
            raise Refused(stmt, f"{what} in {name}, which a pipeline traces: graph and eager op seeds differ")

    def dataset_chain(self, value: cst.BaseExpression, datasets: set[str]) -> bool:
        """Is `value` a method chain on a pipeline the function built (`dataset.map(parser).prefetch(8)`)?"""
        while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
            value = value.func.value
        return isinstance(value, cst.Name) and value.value in datasets

    def host_code(self, node: cst.CSTNode, stmt: cst.CSTNode, name: str) -> None:
        """No TensorFlow op in an input function's host code (its TensorFlow calls read files)."""
        for call in self.rule.tf_calls(node):
            names = self.rule.tf_names(call)
            if not any(n.startswith(tuple(p + f for p in PREFIXES for f in FILES)) for n in names):
                raise Refused(stmt, f"{_tf.full_name(call.func)} in {name}(), which builds graph state there")
        functions = {fn.name.value for _, fn in self.rule._functions}  # noqa: SLF001
        called = [c.func.value for c in names_in(node).calls if isinstance(c.func, cst.Name)]
        if set(called) & functions:
            raise Refused(stmt, f"{name}() calls {min(set(called) & functions)}() of this module")

    def mapped_functions(self, stmt: cst.CSTNode) -> None:
        """The functions a converted pipeline statement maps: they stay, in TF 2's names."""
        self.pipelines.append(stmt)
        for call in names_in(stmt).calls:
            func = call.func
            if not (isinstance(func, cst.Attribute) and func.attr.value in MAPPING):
                continue
            for index, arg in enumerate(call.args):
                keyword = arg.keyword.value if arg.keyword is not None else None
                if not ((index == 0 and keyword is None) or keyword == MAPPING[func.attr.value]):
                    continue
                fn = self.defined(arg.value.value) if isinstance(arg.value, cst.Name) else None
                if fn is not None and fn.name.value not in self.mapped:
                    self.mapped[fn.name.value] = fn

    def convert_mapped(self, fn: cst.FunctionDef) -> None:
        name = fn.name.value
        self.plain_def(fn)
        inside = {id(n) for region in self.pipelines for n in descendants(region)}
        calls, other = self.mapping_calls(fn)
        if other or any(id(call) not in inside for call in calls):
            raise Refused(fn, f"{name}() is used besides as the function of a pipeline the rule converts")
        for call in names_in(fn).calls:
            self.traced_call(call, fn, f"{name}()")
        self.replacements[id(fn)] = [cast(cst.BaseStatement, self.tf2_names(cast(cst.FunctionDef, self.up(fn)), fn))]

    def check_pipelines(self) -> None:
        """Convert the mapped functions; a def of the block read as a pipeline's is converted with one, or Refused."""
        for fn in self.mapped.values():
            self.convert_mapped(fn)
        for name, fn in self.pending.items():
            if id(fn) not in self.replacements:
                raise Refused(fn, f"{name}() builds a tf.data pipeline the rule does not convert with the graph")

    def converted_functions(self) -> list[cst.FunctionDef]:
        return [fn for fn in [*self.mapped.values(), *self.pending.values()] if id(fn) in self.replacements]

    def tf2_names(self, node: cst.CSTNode, where: cst.CSTNode) -> cst.CSTNode:
        """`node` (as the safe pass left it) in TF 2's names: the v1 dataset classes as tf.data's, a tf.compat.v1
        name as TF 2's where it is the same object there, resize_images on a decoded image as its op."""
        alias = self.alias
        v1 = f"{alias}.compat.v1."
        inner = {id(a.value) for a in collect(node, cst.Attribute)}
        calls = {id(c.func): c for c in names_in(node).calls}
        datasets = {f"data.{name}" for name in tables.DATASETS}

        class Names(cst.CSTTransformer):
            def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
                name = _tf.full_name(updated_node) if _dotted(updated_node) else ""
                if id(original_node) in inner or not name.startswith(v1):
                    return updated_node
                path = name[len(v1) :]
                if path in datasets or same_in_tf2(path, calls.get(id(original_node))):
                    return _tf.dotted(f"{alias}.{path}")
                return updated_node

            def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
                if _tf.full_name(updated_node.func) != v1 + RESIZE:
                    return updated_node
                return resize(updated_node, alias, where)

        return cast(cst.CSTNode, node.visit(Names()))


def _assignments(stmt: cst.BaseStatement, conditional: bool) -> list[tuple[cst.BaseStatement, bool]]:
    """The statement, or those of an if's branches (conditional), in order."""
    if not isinstance(stmt, cst.If):
        return [(stmt, conditional)]
    inner = [*cast(cst.IndentedBlock, stmt.body).body, *Pipelines.orelse(stmt)]
    return [found for s in inner for found in _assignments(s, True)]


def _dotted(node: cst.BaseExpression) -> bool:
    """Is `node` a dotted name (`a.b.c`: names and attributes only)?"""
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name)


def resize(call: cst.Call, alias: str, where: cst.CSTNode, decoded_name: str | None = None) -> cst.BaseExpression:
    """tf.compat.v1.image.resize_images(image, size) of a decoded image -> the ResizeBilinear op it runs (the image
    made a batch of one: the op takes rank 4), else Refused. `decoded_name`: a name the caller proved holds a
    decoded image here."""
    what = "tf.compat.v1.image.resize_images"
    args = arguments(call, ("images", "size"), where, what)
    image = args["images"].value if "images" in args else None
    size = args["size"].value if "size" in args else None
    decoded = isinstance(image, cst.Call) and _tf.full_name(image.func) in {f"{alias}.{d}" for d in DECODERS}
    decoded |= isinstance(image, cst.Name) and image.value == decoded_name
    if not decoded or not isinstance(size, (cst.List, cst.Tuple)):
        raise Refused(where, f"{what} of an image not decoded in place or to a computed size (its rank is not known)")
    code = (
        f"{alias}.raw_ops.ResizeBilinear(images={alias}.expand_dims({source_of(cast(cst.BaseExpression, image))}, 0), "
    )
    return cst.parse_expression(code + f"size={source_of(size)})[0]")
