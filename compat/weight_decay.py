"""`tf.contrib.opt`'s decoupled weight decay: AdamWOptimizer, MomentumWOptimizer, extend_with_decoupled_weight_decay.

TF 2 has no v1 optimizer of these (Keras' AdamW is a Keras optimizer, with other arguments and
variables); TF1-era programs train with them (tensor2tensor's `adam_w` optimizer, which some of its
Transformer hparams sets choose). Written here on TF 2's ops, as TF 1.15 behaved (Loshchilov & Hutter's
decoupled weight decay):

- each step first decays a variable, `var -= weight_decay * var` (not scaled by the learning rate), and
  then applies the base optimizer's update to it, computed from the gradient alone;
- a sparse gradient (`IndexedSlices`) decays only its rows;
- `minimize` and `apply_gradients` take `decay_var_list`: only those variables are decayed (all when None).

tests/common/test_weight_decay.py compares a few steps with real TF 1.15's values.
"""

from typing import Any

import tensorflow as tf

v1 = tf.compat.v1


class DecoupledWeightDecayExtension:
    """Mixed in before a v1 optimizer class: its updates are preceded by the decay of the variable."""

    def __init__(self, weight_decay: Any, **kwargs: Any) -> None:
        self._decay_var_list: set | None = None  # refs of the variables to decay; None: all
        self._weight_decay = weight_decay
        self._weight_decay_tensor: Any = None
        super().__init__(**kwargs)

    def minimize(
        self,
        loss: Any,
        global_step: Any = None,
        var_list: Any = None,
        gate_gradients: int = v1.train.Optimizer.GATE_OP,
        aggregation_method: Any = None,
        colocate_gradients_with_ops: bool = False,
        name: str | None = None,
        grad_loss: Any = None,
        decay_var_list: Any = None,
    ) -> Any:
        """The base optimizer's `minimize`, decaying only `decay_var_list` when it is given."""
        self._decay_only(decay_var_list)
        return super().minimize(  # type: ignore[misc]
            loss,
            global_step=global_step,
            var_list=var_list,
            gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops,
            name=name,
            grad_loss=grad_loss,
        )

    def apply_gradients(
        self, grads_and_vars: Any, global_step: Any = None, name: str | None = None, decay_var_list: Any = None
    ) -> Any:
        """The base optimizer's `apply_gradients`, decaying only `decay_var_list` when it is given."""
        self._decay_only(decay_var_list)
        return super().apply_gradients(grads_and_vars, global_step=global_step, name=name)  # type: ignore[misc]

    def _decay_only(self, decay_var_list: Any) -> None:
        # by reference: TF 2's variables are not hashable once tensor equality is on
        self._decay_var_list = {var.ref() for var in decay_var_list} if decay_var_list else None

    def _prepare(self) -> None:
        weight_decay = self._weight_decay() if callable(self._weight_decay) else self._weight_decay
        self._weight_decay_tensor = tf.convert_to_tensor(weight_decay, name="weight_decay")
        super()._prepare()  # type: ignore[misc]

    def _decays(self, var: Any) -> bool:
        return self._decay_var_list is None or var.ref() in self._decay_var_list

    def _decay_rate(self, var: Any) -> Any:
        return tf.cast(self._weight_decay_tensor, var.dtype.base_dtype)

    def _decay(self, var: Any) -> Any:
        if not self._decays(var):
            return tf.no_op()
        return tf.group(var.assign_sub(self._decay_rate(var) * var, self._use_locking))  # type: ignore[attr-defined]

    def _decay_rows(self, var: Any, indices: Any) -> Any:
        if not self._decays(var):
            return tf.no_op()
        rows = -self._decay_rate(var) * tf.gather(var, indices)
        return tf.group(v1.scatter_add(var, indices, rows, use_locking=self._use_locking))  # type: ignore[attr-defined]

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        with tf.control_dependencies([self._decay(var)]):
            return super()._apply_dense(grad, var)  # type: ignore[misc]

    def _resource_apply_dense(self, grad: Any, var: Any) -> Any:
        with tf.control_dependencies([self._decay(var)]):
            return super()._resource_apply_dense(grad, var)  # type: ignore[misc]

    def _apply_sparse(self, grad: Any, var: Any) -> Any:
        with tf.control_dependencies([self._decay_rows(var, grad.indices)]):
            return super()._apply_sparse(grad, var)  # type: ignore[misc]

    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any) -> Any:
        with tf.control_dependencies([self._decay_rows(var, indices)]):
            return super()._resource_apply_sparse(grad, var, indices)  # type: ignore[misc]


def extend_with_decoupled_weight_decay(base_optimizer: type) -> type:
    """A subclass of v1 optimizer class `base_optimizer` whose first argument is the weight decay (the
    others by keyword, as in TF 1.x) and whose updates decay the variable first
    (`extend_with_decoupled_weight_decay(AdamOptimizer)` is AdamW)."""

    class OptimizerWithDecoupledWeightDecay(DecoupledWeightDecayExtension, base_optimizer):
        """`base_optimizer` with decoupled weight decay: `(weight_decay, **the base optimizer's keywords)`."""

    return OptimizerWithDecoupledWeightDecay


class AdamWOptimizer(DecoupledWeightDecayExtension, tf.compat.v1.train.AdamOptimizer):
    """Adam with decoupled weight decay (TF 1.x's tf.contrib.opt.AdamWOptimizer)."""

    def __init__(
        self,
        weight_decay: Any,
        learning_rate: Any = 0.001,
        beta1: Any = 0.9,
        beta2: Any = 0.999,
        epsilon: Any = 1e-8,
        use_locking: bool = False,
        name: str = "AdamW",
    ) -> None:
        super().__init__(
            weight_decay,
            learning_rate=learning_rate,
            beta1=beta1,
            beta2=beta2,
            epsilon=epsilon,
            use_locking=use_locking,
            name=name,
        )


class MomentumWOptimizer(DecoupledWeightDecayExtension, tf.compat.v1.train.MomentumOptimizer):
    """Momentum with decoupled weight decay (TF 1.x's tf.contrib.opt.MomentumWOptimizer)."""

    def __init__(
        self,
        weight_decay: Any,
        learning_rate: Any,
        momentum: Any,
        use_locking: bool = False,
        name: str = "MomentumW",
        use_nesterov: bool = False,
    ) -> None:
        super().__init__(
            weight_decay,
            learning_rate=learning_rate,
            momentum=momentum,
            use_locking=use_locking,
            name=name,
            use_nesterov=use_nesterov,
        )
