"""Alias of the platform SDK's package name, so unmodified scripts run on `compat`.

`from uaitrain.arch.tensorflow import uflag` registers the platform flags (compat.flags);
`from uaitrain.arch.tensorflow import uai_dist` gives the `uai_dist` classes (compat.dist).
"""
