"""A stand-in for the platform SDK's `uaitrain` package on TF 1.15 (bench/reference.py only).

The real SDK is not installable next to TF 1.15 here, and the project's own alias (`uaitrain/`) runs on
`compat`, which needs Python >= 3.9. These modules give the samples what they import from the SDK:
the platform flags defined through `tf.app.flags`, and a one-process `uai_dist` parser.
"""
