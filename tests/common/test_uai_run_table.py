"""compat.tf1_names, the table uai-run aliases from: its lookups over families of TF1 names (in-process, no TensorFlow)."""

from hypothesis import given
from hypothesis import strategies as st

from compat import tf1_names as names
from compat.run import _face

PART = st.from_regex(r"[a-z][a-z0-9_]{0,11}", fullmatch=True)
SUFFIX = st.lists(PART, min_size=1, max_size=4).map(".".join)


@given(package=st.sampled_from(sorted(names.PACKAGES)), suffix=SUFFIX)
def test_a_module_below_a_moved_package_moves_below_its_longest_match(package, suffix):
    name = f"{package}.{suffix}"
    longest = max((key for key in names.PACKAGES if name.startswith(key + ".")), key=len)
    assert names.move_package(name) == f"{names.PACKAGES[longest]}.{name[len(longest) + 1 :]}"
    assert not names.is_removed_module(name) and _face.needs_face(name)


@given(suffix=SUFFIX)
def test_a_contrib_name_nothing_provides_is_removed_with_uai_migrates_manual_step(suffix):
    name = f"tensorflow.contrib.zz_{suffix}"  # `zz_`: no table entry starts so
    assert names.is_removed_module(name) and _face.targets_of(name) == ()
    assert names.manual_for(name).startswith("tf.contrib was removed in TensorFlow 2")
    assert f"tf.contrib.zz_{suffix}" in names.manual_for(name)
    assert names.rule_for(name) == "contrib-equivalents"


@given(suffix=SUFFIX)
def test_any_other_tensorflow_name_is_looked_up_in_tf_compat_v1_then_in_tf(suffix):
    name = f"tensorflow.zz_{suffix}"
    assert _face.targets_of(name) == (f"tensorflow.compat.v1:zz_{suffix}", name)
    assert names.rule_for(name) == "tf1-api" and not names.is_removed_module(name)


@given(prefix=st.sampled_from(names.PASS_THROUGH), suffix=SUFFIX)
def test_tensorflows_own_modules_pass_through_unless_the_table_names_something_below(prefix, suffix):
    name = f"{prefix}.zz_{suffix}"
    assert not _face.needs_face(name)
    assert _face.needs_face("tensorflow.python.platform")  # its `flags` moved to compat.flags


def test_every_symbol_and_module_target_is_spelled_module_or_module_colon_attributes():
    targets = [*names.SYMBOLS.values(), *(t for ts in names.MODULES.values() for t in ts), *names.PACKAGES.values()]
    for target in targets:
        module, _, path = target.partition(":")
        assert module and all(part.isidentifier() for part in module.split(".")), target
        assert all(part.isidentifier() for part in filter(None, path.split("."))), target
