"""Splitting a global batch over towers (the TF1 multi-GPU path)."""

from compat.errors import DeviceError


def num_towers(num_gpus: int) -> int:
    """`--num_gpus=0` means one CPU tower (the example divided by zero here)."""
    return max(int(num_gpus), 1)


def per_tower_batch(global_batch: int, towers: int) -> int:
    if global_batch % towers:
        raise DeviceError(
            f"the global batch {global_batch} does not split evenly over {towers} towers; "
            f"use a multiple of {towers} (e.g. {global_batch - global_batch % towers or towers})"
        )
    return global_batch // towers
