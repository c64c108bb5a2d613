"""`tf.contrib.opt.LazyAdamOptimizer`: TF 1.x's Adam that updates only the embedding rows a step touched.

TF 2 has no home for it (tf.compat.v1.train has Adam only; tensorflow-addons' LazyAdam is a Keras
optimizer, with other arguments and variables). TF1-era programs take it as their default Adam
(tensor2tensor's `adam` optimizer), so it is written here on TF 2's ops, as TF 1.15 behaved:

- a dense gradient is plain `tf.compat.v1.train.AdamOptimizer` (the same slots `m`/`v`, named
  `<var>/Adam` and `<var>/Adam_1`, and the same `beta1_power`/`beta2_power` accumulators, so TF 1
  checkpoints restore);
- a sparse gradient (`IndexedSlices`, from `tf.gather` or an embedding lookup) moves m, v and the
  variable at its rows only; every other row, and its m and v, stays as it was. The step size is
  Adam's bias-corrected `lr * sqrt(1 - beta2^t) / (1 - beta1^t)`. Repeated rows are summed first
  (the v1 optimizer's `_apply_sparse_duplicate_indices` does that before calling these methods).

tests/common/test_lazy_adam.py compares a few steps with real TF 1.15's values.
"""

from typing import Any

import tensorflow as tf

v1 = tf.compat.v1


class LazyAdamOptimizer(tf.compat.v1.train.AdamOptimizer):
    """Adam whose sparse updates touch only the rows in the gradient (TF 1.x's tf.contrib.opt one)."""

    def _apply_sparse(self, grad: Any, var: Any) -> Any:
        return self._apply_rows(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any) -> Any:
        return self._apply_rows(grad, var, indices)

    def _apply_rows(self, values: Any, var: Any, indices: Any) -> Any:
        """m, v and `var` updated at `indices` (unique) from the gradient rows `values`."""
        dtype = var.dtype.base_dtype
        beta1_power, beta2_power = (tf.cast(power, dtype) for power in self._get_beta_accumulators())
        lr, beta1, beta2, epsilon = (
            tf.cast(hyper, dtype) for hyper in (self._lr_t, self._beta1_t, self._beta2_t, self._epsilon_t)
        )
        step_size = lr * tf.sqrt(1 - beta2_power) / (1 - beta1_power)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_rows = beta1 * tf.gather(m, indices) + (1 - beta1) * values
        v_rows = beta2 * tf.gather(v, indices) + (1 - beta2) * tf.square(values)
        var_rows = step_size * m_rows / (tf.sqrt(v_rows) + epsilon)
        # each update reads only rows computed above: no order between the three scatters is needed
        return tf.group(
            v1.scatter_sub(var, indices, var_rows, use_locking=self._use_locking),
            v1.scatter_update(m, indices, m_rows, use_locking=self._use_locking),
            v1.scatter_update(v, indices, v_rows, use_locking=self._use_locking),
        )
