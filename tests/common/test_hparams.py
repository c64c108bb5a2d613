"""compat.hparams.HParams: tf.contrib.training.HParams for TF 2 (declared types, parse, dict and JSON)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compat.errors import HParamsError
from compat.hparams import HParams


def test_overrides_are_cast_to_the_declared_types():
    hparams = HParams(learning_rate=0.1, batch_size=32, use_bn=True, optimizer="sgd", sizes=[2, 2], decay=None)
    assert (
        hparams.parse("learning_rate=1, batch_size=64,use_bn=false,optimizer=adam,sizes=[3, 4, 6],decay=x") is hparams
    )
    assert hparams.values() == {
        "learning_rate": 1.0,
        "batch_size": 64,
        "use_bn": False,
        "optimizer": "adam",
        "sizes": [3, 4, 6],
        "decay": "x",
    }
    assert isinstance(hparams.learning_rate, float)
    hparams.set_hparam("batch_size", "16")
    hparams.override_from_dict({"learning_rate": 2, "sizes": (1,)})
    assert (hparams.batch_size, hparams.learning_rate, hparams.sizes) == (16, 2.0, [1])


@pytest.mark.parametrize(
    "override, named",
    [
        ("batch_size=0.5", "'batch_size' is int"),
        ("use_bn=maybe", "'use_bn' is bool"),
        ("sizes=3", "'sizes' is a list"),
        ("batch_size=[1,2]", "'batch_size' is int: cannot take the list"),
        ("sizes=[1,a]", "'sizes' is int"),
        ("depth=3", "unknown hyper-parameter 'depth'"),
        ("batch_size=1,batch_size=2", "given twice"),
        ("batch_size", "expected name=value"),
        ("batch_size=64,use_bn=maybe", "'use_bn' is bool"),
    ],
)
def test_bad_overrides_raise_one_typed_error_naming_the_parameter(override, named):
    hparams = HParams(batch_size=32, use_bn=True, sizes=[2, 2])
    with pytest.raises(HParamsError, match=named.replace("[", r"\[")):
        hparams.parse(override)
    assert hparams.values() == {"batch_size": 32, "use_bn": True, "sizes": [2, 2]}  # all or nothing
    assert issubclass(HParamsError, ValueError)  # what contrib's HParams raised: old `except` clauses still work


def test_declaring_twice_a_method_name_or_an_unsupported_type_is_refused():
    hparams = HParams(lr=0.1)
    for name, value in (("lr", 0.2), ("parse", 1), ("_declared", 1), ("shape", (1, "a")), ("table", {"a": 1})):
        with pytest.raises(HParamsError):
            hparams.add_hparam(name, value)
    with pytest.raises(HParamsError, match="hparam_def"):
        HParams(hparam_def=object())


def test_dict_like_access_and_deletion():
    hparams = HParams(lr=0.1, model_structure=None)
    assert "lr" in hparams and "depth" not in hparams
    assert hparams.get("lr") == 0.1 and hparams.get("depth", 7) == 7
    hparams.add_hparam("depth", 50)
    hparams.del_hparam("lr")
    assert hparams.values() == {"depth": 50} and not hasattr(hparams, "lr")
    assert str(hparams) == "[('depth', 50)]"


VALUES = st.dictionaries(
    st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True).filter(lambda n: not hasattr(HParams, n)),
    st.one_of(
        st.booleans(),
        st.integers(-(10**6), 10**6),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text("abc xyz", min_size=1).map(str.strip).filter(bool),
        st.lists(st.integers(0, 99), min_size=1),
    ),
    max_size=6,
)


@given(VALUES)
def test_json_and_parse_strings_round_trip(values):
    hparams = HParams(**values)
    assert HParams(**values).parse_json(hparams.to_json()).values() == values
    assert json.loads(hparams.to_json(sort_keys=True)) == values
    text = ",".join(
        f"{n}=[{','.join(map(str, v))}]" if isinstance(v, list) else f"{n}={v!r}".replace("'", "")
        for n, v in values.items()
    )
    assert HParams(**values).parse(text).values() == values
