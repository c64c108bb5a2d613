"""Properties of compat.tf_config over generated clusters and generated junk."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from compat import tf_config
from compat.errors import TFConfigError

hosts = st.from_regex(r"[a-z][a-z0-9-]{0,10}(\.[a-z0-9]{1,6}){0,2}", fullmatch=True)
ports = st.integers(min_value=1, max_value=65535)
addresses = st.builds(lambda h, p: f"{h}:{p}", hosts, ports)


@st.composite
def clusters(draw):
    """A valid TF_CONFIG dict in the master or chief dialect, with a task drawn from its jobs."""
    dialect = draw(st.sampled_from(["master", "chief"]))
    sizes = {
        dialect: draw(st.integers(0, 1)),
        "worker": draw(st.integers(0, 4)),
        "ps": draw(st.integers(0, 3)),
    }
    if dialect == "chief":
        sizes["evaluator"] = draw(st.integers(0, 1))
    if sizes[dialect] + sizes["worker"] == 0:
        sizes["worker"] = 1
    pool = draw(st.lists(addresses, min_size=sum(sizes.values()), max_size=sum(sizes.values()), unique=True))
    cluster, start = {}, 0
    for job, size in sizes.items():
        if size:
            cluster[job] = pool[start : start + size]
            start += size
    raw = {"cluster": cluster}
    job = draw(st.sampled_from(sorted(cluster)))
    raw["task"] = {"type": job, "index": draw(st.integers(0, len(cluster[job]) - 1))}
    if draw(st.booleans()):
        raw["environment"] = "cloud"
    return raw


@settings(max_examples=300, deadline=None)
@given(clusters())
def test_render_of_parse_round_trips(raw):
    config = tf_config.from_string(json.dumps(raw))
    assert tf_config.to_dict(config) == raw
    # Through the other dialect and back, nothing is lost.
    other = "chief" if config.dialect == "master" else "master"
    if not (other == "master" and ("evaluator" in raw["cluster"])):
        assert tf_config.from_dict(tf_config.to_dict(config, other)).cluster == config.cluster
    # Global worker ids number the chief first, then workers: they are a permutation of 0..n-1.
    ids = []
    for job in ("chief", "worker"):
        for i in range(config.num_tasks(job)):
            ids.append(config.replace(task=tf_config.Task(job, i)).global_worker_id)
    assert sorted(ids) == list(range(config.num_workers))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8) | addresses,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["cluster", "task", "type", "index", "master", "chief", "worker", "ps", "evaluator", "environment", "x"]
            ),
            children,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@settings(max_examples=500, deadline=None)
@given(st.one_of(json_values.map(json.dumps), st.text(max_size=40)))
def test_junk_only_ever_raises_the_compat_error(text):
    try:
        config = tf_config.from_string(text)
    except TFConfigError as err:
        assert str(err) and "\n" not in str(err)
    else:
        assert isinstance(config, tf_config.ClusterConfig)
        for dialect in tf_config.DIALECTS:
            try:
                tf_config.to_dict(config, dialect)
            except TFConfigError:
                pass
