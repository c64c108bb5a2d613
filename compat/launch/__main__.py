import sys

from compat.launch.cli import main

sys.exit(main())
