"""docs/contrib.md, the decision for each tf.contrib package of TF 1.15, is what its generator writes from the tables
both tools read (codemods/tables/gen_contrib_doc.py): the page cannot drift from them."""

import pathlib

from codemods.tables import gen_contrib_doc


def test_the_committed_page_is_what_its_generator_writes():
    committed = pathlib.Path(gen_contrib_doc.OUT).read_text(encoding="utf-8")
    assert committed == gen_contrib_doc.build(), "run python -m codemods.tables.gen_contrib_doc"


def test_every_contrib_package_of_tf115_has_a_row_and_a_decision():
    rows = [line for line in gen_contrib_doc.build().splitlines() if line.startswith("| `tf.contrib.")]
    assert len(rows) >= 70
    # each row says what both tools give and, for the names they do not give, the manual step
    assert all(row.count(" | ") == 3 and "tf.contrib was removed in TensorFlow 2" in row for row in rows)
    losses = next(row for row in rows if row.startswith("| `tf.contrib.losses`"))
    assert "compat.contrib_losses" in losses
