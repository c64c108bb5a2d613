"""`compat.hparams.HParams`: tf.contrib.training.HParams, which TensorFlow 2 removed.

Named hyper-parameters whose types are fixed when they are declared: built from keyword
arguments, read as attributes, overridden from a command-line string (`"lr=0.1,sizes=[2,2]"`),
a dict or JSON. Every override is cast to the declared type, so an int parameter refuses "0.5"
and a float one takes "1" - what scripts that parsed `--hparams` relied on.
"""

import json
import re
from collections.abc import Mapping
from typing import Any

from compat.errors import HParamsError

_SCALARS = (bool, int, float, str)
# one `name=value` or `name=[v, ...]` of a comma-separated override string
_ASSIGNMENT = re.compile(r"\s*(\w+)\s*=\s*(\[[^\]]*\]|[^,\[\]]*?)\s*(?:,|$)")


def _cast_scalar(name: str, kind: type, value: Any) -> Any:
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
            return value.lower() in ("true", "1")
    elif kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and re.fullmatch(r"[+-]?\d+", value.strip()):
            return int(value)
    elif kind is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                pass
    elif kind is str and isinstance(value, str):
        return value
    raise HParamsError(f"hyper-parameter {name!r} is {kind.__name__}: cannot take {value!r}")


def _cast(name: str, declared: Any, value: Any) -> Any:
    """`value` as the type `name` was declared with (None declares no type)."""
    if declared is None:
        return value
    if isinstance(declared, list):
        if not isinstance(value, (list, tuple)):
            raise HParamsError(f"hyper-parameter {name!r} is a list: cannot take {value!r}")
        return [_cast_scalar(name, type(declared[0]), v) for v in value] if declared else list(value)
    if isinstance(value, (list, tuple)):
        raise HParamsError(f"hyper-parameter {name!r} is {type(declared).__name__}: cannot take the list {value!r}")
    return _cast_scalar(name, type(declared), value)


def _split(text: str) -> dict[str, str | list[str]]:
    """{name: str or [str, ...]} from `"a=1,b=[1,2],c=x"`."""
    found: dict[str, str | list[str]] = {}
    pos, text = 0, text.strip()
    while pos < len(text):
        match = _ASSIGNMENT.match(text, pos)
        if match is None or match.end() == pos:
            raise HParamsError(f"cannot parse hyper-parameters at {text[pos:]!r}: expected name=value[,name=value...]")
        name, raw = match.groups()
        if name in found:
            raise HParamsError(f"hyper-parameter {name!r} is given twice in {text!r}")
        found[name] = [v.strip() for v in raw[1:-1].split(",") if v.strip()] if raw.startswith("[") else raw
        pos = match.end()
    return found


class HParams:
    """Hyper-parameters as attributes, with the API of tf.contrib.training.HParams."""

    def __init__(self, hparam_def: object = None, model_structure: object = None, **kwargs: Any) -> None:
        if hparam_def is not None:
            raise HParamsError(
                "HParams(hparam_def=...) (a protocol buffer) is not supported: pass the values as keyword arguments"
            )
        self._declared: dict[str, Any] = {}
        self._model_structure = model_structure
        for name, value in kwargs.items():
            self.add_hparam(name, value)

    def add_hparam(self, name: str, value: Any) -> None:
        if name in self._declared or hasattr(HParams, name) or name.startswith("_"):
            raise HParamsError(f"hyper-parameter {name!r} already exists, names an HParams method or starts with _")
        if isinstance(value, (list, tuple)):
            if len({type(v) for v in value}) > 1 or not all(isinstance(v, _SCALARS) for v in value):
                raise HParamsError(f"hyper-parameter {name!r}: a list must hold values of one of bool/int/float/str")
            value = list(value)
        elif value is not None and not isinstance(value, _SCALARS):
            raise HParamsError(f"hyper-parameter {name!r}: {type(value).__name__} is not bool/int/float/str or a list")
        self._declared[name] = value
        setattr(self, name, value)

    def _checked(self, name: str, value: Any) -> Any:
        if name not in self._declared:
            raise HParamsError(f"unknown hyper-parameter {name!r}; known: {', '.join(sorted(self._declared))}")
        return _cast(name, self._declared[name], value)

    def set_hparam(self, name: str, value: Any) -> None:
        setattr(self, name, self._checked(name, value))

    def del_hparam(self, name: str) -> None:
        if name in self._declared:
            delattr(self, name)
            del self._declared[name]

    def parse(self, values: str) -> "HParams":
        """Override from `"name=value,name=[v1,v2]"` (the --hparams flag); returns self."""
        return self.override_from_dict(_split(values))

    def override_from_dict(self, values_dict: Mapping[str, Any]) -> "HParams":
        """All or nothing: one bad value leaves every hyper-parameter as it was."""
        checked = {name: self._checked(name, value) for name, value in values_dict.items()}
        for name, value in checked.items():
            setattr(self, name, value)
        return self

    def parse_json(self, values_json: str) -> "HParams":
        return self.override_from_dict(json.loads(values_json))

    def values(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self._declared}

    def to_json(
        self, indent: int | str | None = None, separators: tuple[str, str] | None = None, sort_keys: bool = False
    ) -> str:
        return json.dumps(self.values(), indent=indent, separators=separators, sort_keys=sort_keys)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key) if key in self._declared else default

    def get_model_structure(self) -> object:
        return self._model_structure

    def __contains__(self, key: object) -> bool:
        return key in self._declared

    def __str__(self) -> str:
        return str(sorted(self.values().items()))

    def __repr__(self) -> str:
        return f"HParams({self.values()!r})"
