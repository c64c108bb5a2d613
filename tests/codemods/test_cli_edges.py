"""uai-migrate's options at their edges, found by a hostile pass (helper-76): one line and exit 2 where a run cannot
do what it was asked, before any file is written."""

from tests.support.sources import TF1, write_tree


def test_a_cache_inside_out_is_refused_before_the_run(tmp_path, cli):
    # the first run wrote its cache records into --out, and every later run into that folder stopped on them (--out
    # OUT: cache/...json changed since uai-migrate wrote it (or was put there by hand))
    tree = write_tree(tmp_path / "src", {"train.py": TF1})
    out = tmp_path / "out"
    code, _, err = cli("--out", out, "--cache-dir", out / "cache", tree)
    assert code == 2 and err.count("\n") == 1 and "--cache-dir" in err and "--out" in err, err
    assert not out.exists()
