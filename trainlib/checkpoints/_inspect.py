"""`inspect`: what a checkpoint holds, as `tf.train.list_variables` sees it, with dtypes."""

from trainlib.models.names import checkpoint_reader, read_tensor


def list_variables(path: str) -> tuple:
    """(prefix, [(key, shape, dtype name)]) of the checkpoint `path` names, keys sorted. Every value
    is read once: the index alone lists the variables of a truncated data file too."""
    prefix, reader = checkpoint_reader(path, "CKPT")
    dtypes = reader.get_variable_to_dtype_map()
    shapes = reader.get_variable_to_shape_map()
    for key in sorted(shapes):
        read_tensor(reader, key, prefix)
    return prefix, [(key, list(shapes[key]), dtypes[key].name) for key in sorted(shapes)]


def describe(path: str) -> str:
    """One line per variable, `key  [shape]  dtype`, after a line naming the checkpoint read."""
    prefix, variables = list_variables(path)
    width = max((len(key) for key, _, _ in variables), default=0)
    lines = [f"{prefix}: {len(variables)} variables"]
    # Shapes without blanks: a line splits into its three fields.
    lines += [f"{key:<{width}}  [{','.join(map(str, shape))}]  {dtype}" for key, shape, dtype in variables]
    return "\n".join(lines)
