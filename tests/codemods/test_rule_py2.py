"""py2-port: Python 2 files ported with fissix before the rules; xrange/iteritems in parseable files."""

import subprocess
import sys

from codemods import _python2
from codemods.rules.py2 import Py2Rule
from tests.support.processes import python_env
from tests.support.rule_test import RuleTest

PY2 = """import tensorflow as tf

def main():
    for i in xrange(3):
        print "step", i
    try:
        total = 7 / 2
    except ValueError, err:
        print >>sys.stderr, err
    for k, v in {1: 2}.iteritems():
        print k, v
"""


def test_port_gives_python3_and_reports_each_integer_division():
    new, entries = _python2.port(PY2)
    compile(new, "ported", "exec")
    assert 'print("step", i)' in new and "except ValueError as err:" in new and "for i in range(3):" in new
    assert ".items()" in new
    assert [(e.severity, e.line) for e in entries] == [("info", 1), ("warning", 7)]
    assert "//" in entries[1].manual


def test_unportable_source_is_none():
    assert _python2.port("print 'a'\n  x = = 1\n") is None


def test_the_cli_ports_a_python2_file_then_applies_the_tf_rules(tmp_path):
    path = tmp_path / "old.py"
    path.write_text(PY2 + "\nsess = tf.Session()\n")
    result = subprocess.run(
        [sys.executable, "-m", "codemods", "--write", "--no-cache", str(path)],
        env=python_env({}),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1, result.stderr  # the division needs a person
    text = path.read_text()
    assert 'print("step", i)' in text and "sess = tf.compat.v1.Session()" in text
    assert "old.py:7:17: warning py2-port" in result.stdout


class TestPy2Rule(RuleTest):
    TRANSFORM = Py2Rule

    def test_parseable_python2_idioms(self):
        before = """
            for i in xrange(n):
                pass
            items = d.iteritems()
        """
        after = """
            for i in range(n):
                pass
            items = d.items()
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_own_xrange_strings_comments(self):
        source = """
            from six.moves import xrange  # xrange stays the module's own
            for i in xrange(3):
                s = "xrange(3) d.iteritems()"
            pairs = d.iteritems(sort=True)
        """
        self.assertCodemod(source, source)


class TestPy2ModulesRule(RuleTest):
    TRANSFORM = Py2Rule

    def test_python2_modules_python3_parses(self):
        before = """
            import cPickle
            import cPickle as pickle_
            from cPickle import load
            from urllib import urlopen, urlretrieve
            import urllib
            urllib.urlretrieve(url, path)
            query = urllib.urlencode({"a": 1})
        """
        after = """
            import pickle as cPickle
            import pickle as pickle_
            from pickle import load
            from urllib.request import urlopen, urlretrieve
            import urllib
            import urllib.request
            import urllib.parse

            urllib.request.urlretrieve(url, path)
            query = urllib.parse.urlencode({"a": 1})
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_python3_urllib_or_a_local_urllib(self):
        source = """
            import urllib.request
            urllib.request.urlretrieve(url, path)

            def f(urllib):
                return urllib.urlretrieve(u, p)
        """
        self.assertCodemod(source, source)
