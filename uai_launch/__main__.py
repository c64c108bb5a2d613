import sys

from uai_launch.cli import main

sys.exit(main())
