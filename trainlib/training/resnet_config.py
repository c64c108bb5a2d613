"""The ResNet program's configuration, once: `ResNetConfig`, built from the flags by both runtimes.

    config = ResNetConfig.from_flags(FLAGS)      # after flag parsing
    model = config.build_model()                 # the shared Keras ResNet
    params = config.as_params()                  # a plain dict, for an Estimator's `params`

Its field defaults are the flags' defaults (`trainlib.training.resnet_flags` reads them from
here). TensorFlow-free until `build_model`: flag parsing must not pay for TensorFlow.
"""

import dataclasses
from typing import TYPE_CHECKING, Any

from trainlib.training import schedule

if TYPE_CHECKING:
    from trainlib.models.resnet import ResNet


@dataclasses.dataclass(frozen=True)
class ResNetConfig:
    """The network and its optimisation: what both runtimes build from the same flags."""

    resnet_size: int = 50
    resnet_version: int = 2
    num_classes: int = 1001
    data_format: str | None = None
    batch_norm_decay: float = 0.997
    batch_norm_epsilon: float = 1e-5
    image_size: int = 224
    weight_decay: float = 1e-4
    momentum: float = 0.9
    learning_rate: float = 0.1
    # Steps of one epoch of the global batch: the learning-rate schedule's unit.
    batches_per_epoch: int = 1

    @classmethod
    def from_flags(cls, values: Any) -> "ResNetConfig":
        """From parsed `trainlib.training.resnet_flags` (FLAGS or any object with those attributes).

        Every field but the derived `batches_per_epoch` is the flag of the same name.
        """
        derived: dict[str, Any] = {
            "batches_per_epoch": schedule.steps_per_epoch(values.train_images, values.train_batch_size)
        }
        named = {
            field.name: getattr(values, field.name) for field in dataclasses.fields(cls) if field.name not in derived
        }
        return cls(**dict(named, resnet_version=int(named["resnet_version"])), **derived)

    @classmethod
    def from_params(cls, params: dict) -> "ResNetConfig":
        """The config inside an Estimator `params` dict (other keys, such as the deployment's, are left)."""
        return cls(**{field.name: params[field.name] for field in dataclasses.fields(cls)})

    def as_params(self, **extra: Any) -> dict:
        """The config as a dict (what an Estimator takes as `params`), with `extra` keys added."""
        return {**dataclasses.asdict(self), **extra}

    def build_model(self, name: str = "resnet") -> "ResNet":
        """The shared Keras ResNet (`trainlib.models.resnet.ResNet`) of this config, variables not yet created."""
        from trainlib.models.resnet import ResNet

        return ResNet(
            resnet_size=self.resnet_size,
            num_classes=self.num_classes,
            version=self.resnet_version,
            data_format=self.data_format,
            batch_norm_decay=self.batch_norm_decay,
            batch_norm_epsilon=self.batch_norm_epsilon,
            name=name,
        )
