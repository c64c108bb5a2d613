"""compat.tf1_names, the table uai-run aliases from: its lookups over families of TF1 names (in-process, no TensorFlow)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from compat import tf1_names as names
from uai_run import _tf1_modules

PART = st.from_regex(r"[a-z][a-z0-9_]{0,11}", fullmatch=True)
SUFFIX = st.lists(PART, min_size=1, max_size=4).map(".".join)
PURE = settings(deadline=None)  # pure lookups: a machine loaded by other tests must not fail them on time


@PURE
@given(package=st.sampled_from(sorted(names.PACKAGES)), suffix=SUFFIX)
def test_a_module_below_a_moved_package_moves_below_its_longest_match(package, suffix):
    name = f"{package}.{suffix}"
    longest = max((key for key in names.PACKAGES if f"{name}.".startswith(key + ".")), key=len)
    assert names.move_package(name) == names.PACKAGES[longest] + name[len(longest) :]
    assert not names.is_removed_module(name) and _tf1_modules.needs_face(name)


@PURE
@given(package=st.sampled_from(sorted(names.PACKAGES)))
def test_a_moved_package_itself_is_its_new_package(package):
    # `from tensorflow.contrib.slim.python.slim import nets` reads tf_slim's `nets`, as uai-migrate writes it
    assert names.move_package(package) == names.PACKAGES[package]
    assert _tf1_modules.targets_of(package) == names.MODULES.get(package, (names.PACKAGES[package],))


@PURE
@given(suffix=SUFFIX)
def test_a_contrib_name_nothing_provides_is_removed_with_uai_migrates_manual_step(suffix):
    name = f"tensorflow.contrib.zz_{suffix}"  # `zz_`: no table entry starts so
    assert names.is_removed_module(name) and _tf1_modules.targets_of(name) == ()
    assert names.manual_for(name).startswith("tf.contrib was removed in TensorFlow 2")
    assert f"tf.contrib.zz_{suffix}" in names.manual_for(name)
    assert names.rule_for(name) == "contrib-equivalents"


@PURE
@given(suffix=SUFFIX)
def test_any_other_tensorflow_name_is_looked_up_in_tf_compat_v1_then_in_tf(suffix):
    name = f"tensorflow.zz_{suffix}"
    assert _tf1_modules.targets_of(name) == (f"tensorflow.compat.v1:zz_{suffix}", name)
    assert names.rule_for(name) == "tf1-api" and not names.is_removed_module(name)


@PURE
@given(prefix=st.sampled_from(names.PASS_THROUGH), suffix=SUFFIX)
def test_tensorflows_own_modules_pass_through_unless_the_table_names_something_below(prefix, suffix):
    name = f"{prefix}.zz_{suffix}"
    assert not _tf1_modules.needs_face(name)
    assert _tf1_modules.needs_face("tensorflow.python.platform")  # its `flags` moved to compat.flags


def test_every_symbol_and_module_target_is_spelled_module_or_module_colon_attributes():
    targets = [*names.SYMBOLS.values(), *(t for ts in names.MODULES.values() for t in ts), *names.PACKAGES.values()]
    for target in targets:
        module, _, path = target.partition(":")
        assert module and all(part.isidentifier() for part in module.split(".")), target
        assert all(part.isidentifier() for part in filter(None, path.split("."))), target


@PURE
@given(suffix=SUFFIX)
def test_a_tf1_name_and_its_tf_compat_v1_spelling_are_one_name(suffix):
    name = f"tensorflow.contrib.{suffix}"
    twin = names.v1_twin(name)
    assert twin == f"tensorflow.compat.v1.contrib.{suffix}" and names.tf1_name(twin) == name
    assert names.with_v1_twins({name: "home"}) == {name: "home", twin: "home"}


@PURE
@given(prefix=st.sampled_from((*names.PASS_THROUGH, "tensorflow.examples")), suffix=SUFFIX)
def test_tensorflows_own_modules_have_no_tf_compat_v1_spelling(prefix, suffix):
    name = f"{prefix}.{suffix}"
    assert names.v1_twin(name) is None and names.tf1_name(name) == name
    assert names.tf1_name(f"{names.V1}.{name[len(names.TF) + 1 :]}") == f"{names.V1}.{name[len(names.TF) + 1 :]}"


def test_a_library_a_compat_module_extends_is_the_home_of_table_names():
    homes = {names.split(target)[0] for target in names.SYMBOLS.values()}
    assert names.LIBRARIES.keys() <= homes
