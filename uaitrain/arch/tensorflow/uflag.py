"""`uflag`: importing it registers the platform flags, as the SDK's module did."""

from compat.flags import *  # noqa: F401,F403 - the SDK module's whole surface
from compat.flags import FLAGS  # noqa: F401
