"""`uai_dist`: the SDK's cluster-config classes."""

from compat.dist import *  # noqa: F401,F403
