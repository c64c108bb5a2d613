"""Adversarial TF_CONFIG documents: only `TFConfigError` in-process, one line and exit 2 at the CLI.

The generators aim at what broke before: digits `str.isdigit()` accepts but `int()` or a
socket does not (superscripts, other scripts), blanks and non-ASCII in hosts, deep nesting.
"""

import json
import re
import subprocess
import sys

from hypothesis import example, given, settings
from hypothesis import strategies as st

from compat import tf_config
from compat.errors import TFConfigError
from compat.tf_config._address import check_address
from tests.support.processes import REPO, assert_one_line_error, python_env

# Decimal digits of other scripts, superscripts and fractions: the characters that slipped through.
odd_digits = st.sampled_from(["\u00b2", "\u0660", "\u0662", "\u06f3", "\u0967", "\uff11", "\u2155", "\U0001d7ce"])
digits = st.text(st.sampled_from("0123456789"), min_size=1, max_size=6)
numberish = st.one_of(
    digits,
    st.lists(st.one_of(odd_digits, st.sampled_from("0123456789 +-_.")), min_size=1, max_size=6).map("".join),
    st.text(max_size=6),
)
hostish = st.one_of(
    st.from_regex(r"[a-z][a-z0-9-]{0,8}(\.[a-z0-9]{1,4}){0,2}", fullmatch=True),
    st.from_regex(r"\[[0-9a-f:]{2,12}\]", fullmatch=True),
    st.text(max_size=8),
)
addressish = st.one_of(st.builds(lambda h, p: f"{h}:{p}", hostish, numberish), st.text(max_size=10), st.integers())
job_names = st.one_of(
    st.sampled_from(["master", "chief", "worker", "ps", "evaluator", "workerpool0", "workerpool1", "gpu", ""]),
    st.text(max_size=4),
)
# str.isdigit() minus what Python's int() reads as ASCII: the accepted grammar of a port or index.
ASCII_DIGITS = re.compile(r"[0-9]+")
HOST = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*|\[[0-9A-Fa-f:.]+(%[A-Za-z0-9_.-]+)?\]")


@st.composite
def documents(draw):
    """A TF_CONFIG-shaped dict whose names, addresses and index are often, but not always, valid."""
    cluster = draw(st.dictionaries(job_names, st.lists(addressish, max_size=3) | addressish, max_size=4))
    doc = {"cluster": cluster}
    if draw(st.booleans()):
        doc["task"] = {"type": draw(job_names), "index": draw(st.one_of(st.integers(-2, 4), numberish, st.none()))}
    if draw(st.booleans()):
        doc["environment"] = draw(st.one_of(st.just("cloud"), st.integers()))
    return doc


def _parse_or_error(text):
    try:
        return tf_config.from_string(text)
    except TFConfigError as err:
        assert len(str(err).splitlines()) == 1
        return None


@settings(max_examples=400, deadline=None)
@given(st.one_of(documents().map(json.dumps), st.text(max_size=30)))
@example('{"cluster": {"worker": ["w:2222"]}, "task": {"type": "worker", "index": "\u00b2"}}')
@example('{"cluster": {"worker": ["w:\u00b2"]}}')
@example("[" * 100000 + "]" * 100000)
@example('{"a":' * 50000 + "1" + "}" * 50000)
@example('{"cluster": {"w\\u2028x": ["w:1"]}}')
def test_documents_raise_only_the_compat_error_and_render_in_every_dialect(text):
    config = _parse_or_error(text)
    if config is None:
        return
    for name in tf_config.DIALECTS:
        try:
            json.loads(tf_config.to_json(config, name))
        except TFConfigError as err:
            assert len(str(err).splitlines()) == 1


@settings(max_examples=300, deadline=None)
@given(hostish, numberish)
@example(" w ", "2222")
@example("w", "\u0662\u0662\u0662\u0662")
@example("w", "9" * 5000)
def test_an_accepted_address_is_an_ascii_host_and_port(host, port):
    try:
        check_address("f", f"{host}:{port}")
    except TFConfigError as err:
        assert err.field == "f"
    else:
        assert HOST.fullmatch(host) and ASCII_DIGITS.fullmatch(port) and 0 < int(port) < 65536, (host, port)


@settings(max_examples=300, deadline=None)
@given(st.one_of(numberish, st.integers(), st.floats(), st.booleans(), st.none()))
@example("\u00b2")
@example("9" * 5000)
@example(10**5000)
def test_an_accepted_task_index_is_a_whole_number_in_range(index):
    doc = {"cluster": {"worker": ["w1:1", "w2:2"]}, "task": {"type": "worker", "index": index}}
    try:
        config = tf_config.from_dict(doc)
    except TFConfigError as err:
        assert err.field == "TF_CONFIG.task.index"
    else:
        as_text = index.strip() if isinstance(index, str) else None
        assert isinstance(index, int) or ASCII_DIGITS.fullmatch(as_text), index
        assert config.task_index == int(index) < 2


def _cli(text, *args):
    return subprocess.run(
        [sys.executable, "-m", "compat.tf_config", "--config", "-", *args],
        input=text,
        capture_output=True,
        text=True,
        env=python_env(),
        cwd=REPO,
        timeout=60,
    )


@settings(max_examples=3, deadline=None)
@given(documents().map(json.dumps), st.sampled_from([(), ("--to", "chief"), ("--to", "uai")]))
@example('{"cluster": {"worker": ["w:2222"]}, "task": {"type": "worker", "index": "\u00b2"}}', ())
@example("[" * 20000 + "]" * 20000, ("--to", "master"))
def test_cli_exits_0_or_one_line_with_2(text, args):
    result = _cli(text, *args)
    assert result.returncode in (0, 2), result.stderr
    if result.returncode:
        assert_one_line_error(result, "python -m compat.tf_config: error: ")
    else:
        assert "Traceback" not in result.stderr and result.stdout.strip()
