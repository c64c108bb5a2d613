"""The ResNet sizes and their block layout: the one list of sizes, TensorFlow-free (flags read it).

Sizes 18/34 use basic blocks, 50/101/152/200 bottleneck blocks (ImageNet stem); sizes 8/14/20
(6n+2) are the CIFAR-size nets for 32x32 images (three stages of 16/32/64 filters).
"""

IMAGENET_LAYOUT = {
    18: ("basic", (2, 2, 2, 2)),
    34: ("basic", (3, 4, 6, 3)),
    50: ("bottleneck", (3, 4, 6, 3)),
    101: ("bottleneck", (3, 4, 23, 3)),
    152: ("bottleneck", (3, 8, 36, 3)),
    200: ("bottleneck", (3, 24, 36, 3)),
}
CIFAR_SIZES = (8, 14, 20)
SIZES = tuple(sorted(set(IMAGENET_LAYOUT) | set(CIFAR_SIZES)))


def layout(resnet_size: int) -> tuple[str, tuple[int, ...], int, bool]:
    """(block kind, blocks per stage, filters of the first stage, ImageNet stem?) for a size."""
    if resnet_size in IMAGENET_LAYOUT:
        kind, blocks = IMAGENET_LAYOUT[resnet_size]
        return kind, blocks, 64, True
    if resnet_size in CIFAR_SIZES:
        return "basic", ((resnet_size - 2) // 6,) * 3, 16, False
    raise ValueError(f"resnet_size must be one of {SIZES}, got {resnet_size}")
