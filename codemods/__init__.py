"""uai-migrate: libcst codemods that port TF1-era user code to current TensorFlow, with a report.

    uai-migrate path/to/code            # diff + report, changes nothing
    python -m codemods --write path     # in place

Layout: `cli` (the command), `_runner` (a run over a tree), `_engine` (one file's bytes),
`_apply` (one libcst pass applying every rule), `_names` (what a name is, cheaply),
`_rule` (the rule base class), `rules/` (one rule per module + the registry),
`_source` (encodings, notebooks), `_write` (atomic writes), `_cache`, `_discover`, `_report`.
"""
