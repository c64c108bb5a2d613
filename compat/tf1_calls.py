"""TF 1.x calls on TF 2: the objects TF1 names serve take the arguments TF 1 took (compat.tf1_names.CALL_KEYWORDS).

A function is served as a wrapper, a class as a subclass whose constructor adapts the call: each TF1 keyword
of the table's row becomes TF 2's spelling, a positional call binds to TF 1.15's parameters (TF1_PARAMETERS)
where TF 2 dropped or reordered them, and the wrapper's signature is TF 1.15's. A method (Dataset.map's
`num_threads=`) is adapted the same way by uai-run's face (uai_run/_tf1_modules.py). A dropped keyword given
a value that did something, or a TF 2 keyword two arguments would set, stops in one line (`TF1CallError`), as
uai-migrate's error entry does.
"""

import functools
import inspect
from collections.abc import Callable
from typing import Any

from compat import tf1_names as names
from compat.errors import CompatError

Note = Callable[[str], None] | None


class TF1CallError(CompatError, TypeError):
    """A TF1 call whose arguments TF 2 cannot take as they are: the message names the keyword and the manual step."""

    def __init__(self, name: str, problem: str, manual: str) -> None:
        self.tf1_name, self.problem, self.manual = name, problem, manual
        super().__init__(f"{_short(name)}: {problem}; {manual}")


def _short(name: str) -> str:
    return "tf" + name[len(names.TF) :] if name.startswith(names.TF + ".") else name


def mirrored_devices(num_gpus: int) -> list[str]:
    """The devices TF 1's contrib MirroredStrategy(num_gpus=n) mirrored over: n GPUs, or the CPU for none."""
    return [f"/device:GPU:{i}" for i in range(num_gpus)] or ["/device:CPU:0"]


def spelled(new: str | names.Dropped) -> str:
    """A CALL_KEYWORDS spelling as code: `num_parallel_calls=`, `.prefetch()`, `devices=f(...)`, `(dropped)`."""
    if isinstance(new, names.Dropped):
        return "(dropped)"
    if new.startswith("."):
        return f"{new}()"
    keyword, _, convert = new.partition("=")
    return f"{keyword}={_short(convert.replace(':', '.'))}(...)" if convert else f"{keyword}="


def _inert(value: object, inert: object) -> bool:
    """Is `value` what TF 1 did when the keyword was not given (a Python value, never a tensor's truth)?"""
    return value is None or (type(value) is type(inert) and value == inert)


def to_tf2(
    name: str, keywords: dict, args: tuple, kwargs: dict, note: Note = None
) -> tuple[tuple, dict, list[tuple[str, Any]]]:
    """(args, kwargs, [(method, value)] to call on the result): TF1 call `name(*args, **kwargs)` as TF 2 spells it."""
    order = names.TF1_PARAMETERS.get(name)
    if order is not None and args:
        if len(args) > len(order):
            raise TypeError(f"{_short(name)}() takes {len(order)} positional arguments but {len(args)} were given")
        for keyword, value in zip(order, args):
            if keyword in kwargs:
                raise TypeError(f"{_short(name)}() got multiple values for argument '{keyword}'")
            kwargs[keyword] = value
        args = ()
    given = {keyword: kwargs.pop(keyword) for keyword in keywords if keyword in kwargs}
    then: list[tuple[str, Any]] = []
    set_by: dict[str, str] = {}
    for keyword, value in given.items():
        new = keywords[keyword]
        if isinstance(new, names.Dropped):
            if not _inert(value, new.inert):
                raise TF1CallError(name, f"TF 2 has no {keyword}= (given {value!r})", new.manual)
            continue
        if value is None:
            continue  # TF1's default: nothing to pass
        if new.startswith("."):
            then.append((new[1:], value))
            continue
        new, _, convert = new.partition("=")
        if kwargs.get(new) is not None:  # (None: TF's default, as TF 1 read it)
            other = set_by.get(new, new)
            raise TF1CallError(name, f"both {other}= and {keyword}= are given", f"keep one of them as {new}=")
        kwargs[new] = names.resolve(convert)(value) if convert else value
        set_by[new] = keyword
    if given and note is not None:
        note(f"{_short(name)}: " + ", ".join(f"{k}= -> {spelled(keywords[k])}" for k in given))
    return args, kwargs, then


def method(name: str, function: Callable[..., Any], keywords: dict, note: Note = None) -> Callable[..., Any]:
    """The method `function` taking the TF1 keywords of CALL_KEYWORDS row `name`."""

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        if not any(keyword in kwargs for keyword in keywords):
            return function(*args, **kwargs)
        args, kwargs, then = to_tf2(name, keywords, args, kwargs, note)
        result = function(*args, **kwargs)
        for method_name, value in then:
            result = getattr(result, method_name)(value)
        return result

    call._tf1_keywords = keywords  # type: ignore[attr-defined]  # adapted once: a second face finds it done
    return call


def _tf1_signature(name: str, function: Callable[..., Any], keywords: dict) -> inspect.Signature:
    """TF 1.15's parameters of `name`: TF 2's `function`'s, renamed back, in TF 1.15's order where the table has it
    (TF 2's other parameters follow, keyword-only)."""
    tf2 = inspect.signature(function)
    renamed = {
        new: old for old, new in keywords.items() if isinstance(new, str) and not new.startswith(".") and "=" not in new
    }
    order = names.TF1_PARAMETERS.get(name)
    if order is None:
        return tf2.replace(parameters=[p.replace(name=renamed.get(p.name, p.name)) for p in tf2.parameters.values()])
    tf1_of = {renamed.get(p.name, p.name): p for p in tf2.parameters.values()}
    positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [inspect.Parameter(p, positional, default=_tf1_default(p, tf1_of, keywords)) for p in order]
    rest = [
        p.replace(kind=inspect.Parameter.KEYWORD_ONLY) if p.kind != inspect.Parameter.VAR_KEYWORD else p
        for tf1, p in tf1_of.items()
        if tf1 not in order and p.kind != inspect.Parameter.VAR_POSITIONAL
    ]
    return tf2.replace(parameters=parameters + rest)


def _tf1_default(parameter: str, tf2: dict[str, inspect.Parameter], keywords: dict) -> Any:
    """TF 1.15's default of `parameter`: TF 2's, a dropped keyword's inert value, else None (TF 1's num_gpus=)."""
    if parameter in tf2:
        return tf2[parameter].default
    spelling = keywords.get(parameter)
    return spelling.inert if isinstance(spelling, names.Dropped) else None


def callable_(name: str, value: Any, note: Note = None) -> Any:
    """`value` (TF 2's function or class for TF1 name `name`, a CALL_KEYWORDS callable) taking TF1's arguments."""
    keywords = names.CALL_KEYWORDS[name]
    if isinstance(value, type):

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            args, kwargs, _ = to_tf2(name, keywords, args, kwargs, note)
            super(adapted, self).__init__(*args, **kwargs)

        namespace = {"__init__": __init__, "__module__": value.__module__, "__doc__": value.__doc__}
        adapted: Any = type(value.__name__, (value,), namespace)
        adapted.__qualname__ = value.__qualname__
    else:

        @functools.wraps(value)
        def adapted(*args: Any, **kwargs: Any) -> Any:
            args, kwargs, then = to_tf2(name, keywords, args, kwargs, note)
            result = value(*args, **kwargs)
            for method_name, argument in then:
                result = getattr(result, method_name)(argument)
            return result

    adapted.__signature__ = _tf1_signature(name, value, keywords)
    adapted._tf1_adapts = value  # TF 2's object, which uai-migrate writes (with the call's keywords rewritten)
    return adapted


def serve(full: str, value: Any, note: Note = None) -> Any:
    """What TF1 name `full` serves: `value`, taking TF1's arguments where it is a CALL_KEYWORDS callable (or the
    object of one on TF 1.15)."""
    row = names.callable_row(full)
    return value if row is None else callable_(row, value, note)
