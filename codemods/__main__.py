"""`python -m codemods` is `uai-migrate`."""

import sys

from codemods.cli import main

sys.exit(main())
