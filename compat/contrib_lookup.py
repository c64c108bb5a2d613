"""tf.contrib.lookup's index tables, which TF 2 keeps in tensorflow.python.ops.lookup_ops but exports under no
public name: uai-migrate's ports call them here (the objects uai-run serves for them). Their TF1 keyword
`mapping=` is TF 2's `vocabulary_list=` (compat.tf1_names.CALL_KEYWORDS: uai-migrate rewrites the calls)."""

from tensorflow.python.ops.lookup_ops import (
    index_table_from_file,
    index_table_from_tensor,
    index_to_string_table_from_tensor,
)

__all__ = ["index_table_from_file", "index_table_from_tensor", "index_to_string_table_from_tensor"]
