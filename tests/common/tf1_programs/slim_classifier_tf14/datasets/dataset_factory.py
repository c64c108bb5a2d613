"""Picks a data set module by name."""

from datasets import tiny_shapes

datasets_map = {
    "tiny_shapes": tiny_shapes,
}


def get_dataset(name, split_name, dataset_dir, file_pattern=None, reader=None):
    """The named data set's `split_name` split, as a `slim.dataset.Dataset`."""
    if name not in datasets_map:
        raise ValueError(f"Name of dataset unknown {name}")
    return datasets_map[name].get_split(split_name, dataset_dir, file_pattern, reader)
