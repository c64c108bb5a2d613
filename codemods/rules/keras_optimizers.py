"""`tf.keras.optimizers.SGD(lr=0.1, decay=1e-6)` (TF 1.x's Keras optimizers, called with TF 1.x's keywords) ->
`tf.keras.optimizers.legacy.SGD(learning_rate=0.1, decay=1e-6)`, with `import compat`.

TF 1.x's tf.keras optimizers were the OptimizerV2 classes, which took `lr` (the rate's old name) and `decay` (the
rate divided by 1 + decay * iterations). Since Keras 2.11 the classes of those names are other ones: measured on TF
2.15 and on tf-keras 2.21, `SGD(lr=0.5)` drops `lr` with a logged warning and trains at its default rate, 0.01 (a
silent wrong result), and `decay=` raises; Keras 3 (tf.keras on TF >= 2.16) raises on both. TF 1.x's classes are
today's `tf.keras.optimizers.legacy` ones, which only Keras 2 has: hence `import compat` (tf-keras on TF >= 2.16).
`lr=` is written `learning_rate=`, the same parameter.

Only a call passing `lr=`, `decay=` or Nadam's `schedule_decay=` (its decay) is rewritten: those keywords make it a
call of the OptimizerV2 classes, which tf.keras kept until TF 2.11 (TF 2.0-2.10 code wrote `Adam(lr=1e-3)` too, so
a file of TF 2 code gets it as well). An optimizer made without them computes the same update with either class,
and a native port makes them so (`tf.keras.optimizers.SGD(learning_rate=...)`): they stay as written. The classes
are the names TF 2 has under `optimizers.legacy` (codemods/tables/tf_api.json, from the installed TensorFlow).

A program's own optimizer, a class of these bases (`class HeavyBall(tf.keras.optimizers.Optimizer)`) whose body uses
OptimizerV2's hooks (`_set_hyper`, `_create_slots`, `_resource_apply_dense` ...), gets the legacy base: Keras 2.11+'s
Optimizer has none of them (its hooks are `build` and `update_step`), and refuses the `lr=` a TF 1.x subclass passes
on to it (measured on TF 2.21: 'Argument(s) not recognized'). A subclass using none of them is left as written.
"""

import functools
from typing import cast

import libcst as cst
import libcst.matchers as m

from codemods.engine.rule import Rule
from codemods.rule_description import Example
from codemods.rules import _shared, _tf

# TF 1.x's keywords of its Keras optimizers that TF 2.11+'s classes of the same names drop or refuse
TF1_KEYWORDS = frozenset({"lr", "decay", "schedule_decay"})  # schedule_decay: TF 1.x Nadam's decay
_HOMES = (f"{_tf.TF}.keras.optimizers", f"{_tf.TF}.compat.v1.keras.optimizers")
_LEGACY = "optimizers.legacy."
# what only TF 1.x's OptimizerV2 (today's legacy classes) has for a subclass to call or override
OPTIMIZER_V2_HOOKS = frozenset(
    {
        "_set_hyper",
        "_get_hyper",
        "_create_slots",
        "_prepare_local",
        "_resource_apply_dense",
        "_resource_apply_sparse",
        "_resource_apply_sparse_duplicate_indices",
        "_serialize_hyperparameter",
    }
)


@functools.cache
def tf1_classes() -> frozenset[str]:
    """The qualified names of TF 1.x's Keras optimizer classes that TF 2 keeps as `legacy` ones."""
    names = [name[len(_LEGACY) :] for name in _tf.api()["v2_only"] if name.startswith(_LEGACY)]
    return frozenset(f"{home}.{name}" for home in _HOMES for name in names)


def _legacy_of(rule: Rule, func: cst.BaseExpression) -> cst.BaseExpression:
    """`<...>.optimizers.SGD` -> `<...>.optimizers.legacy.SGD`; a bare `SGD` -> `<tf>.keras.optimizers.legacy.SGD`."""
    if isinstance(func, cst.Attribute):
        return func.with_changes(value=cst.Attribute(value=func.value, attr=cst.Name("legacy")))
    return _tf.dotted(f"{_tf.tf_alias(rule)}.keras.optimizers.legacy.{cast(cst.Name, func).value}")


class KerasOptimizersRule(Rule):
    ID = "keras-optimizers"
    DESCRIPTION = (
        "tf.keras.optimizers.X(lr=..., decay=...) (TF 1.x's keywords) -> tf.keras.optimizers.legacy.X(learning_rate=..., "
        "decay=...), TF 1.x's class, with import compat: TF 2.11+'s X drops lr silently and refuses decay."
    )
    ORDER = 105
    EXAMPLE = Example(
        why="TF 1.x's tf.keras optimizers took lr and decay; since Keras 2.11 the classes of those names drop lr (training "
        "at their default rate, with a logged warning only) and raise on decay, and Keras 3 raises on both. TF 1.x's "
        "classes are tf.keras.optimizers.legacy's, which Keras 2 (tf-keras through compat on TF >= 2.16) has.",
        before="import tensorflow as tf\noptimizer = tf.keras.optimizers.SGD(lr=0.01, momentum=0.9, decay=1e-6)\n",
        after="import compat\nimport tensorflow as tf\n"
        "optimizer = tf.keras.optimizers.legacy.SGD(learning_rate=0.01, momentum=0.9, decay=1e-6)\n",
    )
    WORDS = frozenset()

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef) -> cst.ClassDef:
        bases = [
            (index, name)
            for index, base in enumerate(original_node.bases)
            if base.keyword is None and (name := self.match(base.value, tf1_classes()))
        ]
        if not bases:
            return updated_node
        used = {cast(cst.Name, node).value for node in m.findall(original_node.body, m.Name())} & OPTIMIZER_V2_HOOKS
        if not used:
            return updated_node
        args = list(updated_node.bases)
        for index, name in bases:
            func = original_node.bases[index].value
            legacy = _legacy_of(self, args[index].value)
            args[index] = args[index].with_changes(value=legacy)
            if isinstance(func, cst.Name):
                self.remove_unused_import(name.rpartition(".")[0], func.value)
            self.report(
                original_node,
                f"class {original_node.name.value}({_tf.full_name(func) or name}) -> {_tf.full_name(legacy)}: its body "
                f"uses TF 1.x's OptimizerV2 ({', '.join(sorted(used))}), which Keras 2.11+'s class of that name lacks; "
                "import compat (Keras 2, which has it)",
            )
        _tf.ensure_compat(self)
        return updated_node.with_changes(bases=args)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        keywords = {keyword for arg in original_node.args if (keyword := _shared.keyword_of(arg))}
        if not keywords & TF1_KEYWORDS:
            return updated_node
        name = self.match(original_node.func, tf1_classes())
        if name is None:
            return updated_node
        old = _tf.full_name(original_node.func) or name
        func = _legacy_of(self, updated_node.func)
        rename = "learning_rate" not in keywords
        args = [
            arg.with_changes(keyword=cst.Name("learning_rate")) if rename and _shared.keyword_of(arg) == "lr" else arg
            for arg in updated_node.args
        ]
        _tf.ensure_compat(self)
        if isinstance(original_node.func, cst.Name):
            self.remove_unused_import(name.rpartition(".")[0], original_node.func.value)
        used = ", ".join(f"{keyword}=..." for keyword in sorted(keywords & TF1_KEYWORDS, reverse=True))
        self.report(
            original_node,
            f"{old}({used}) -> {_tf.full_name(func)}: TF 1.x's class (OptimizerV2), as TF 2.11+'s {old.rpartition('.')[2]} "
            "drops lr (training at its default rate) and refuses decay; import compat (Keras 2, which has it)",
        )
        return updated_node.with_changes(func=func, args=args)
