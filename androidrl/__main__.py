"""``python -m androidrl``: the ``androidrl`` command."""

import sys

from androidrl.cli import main

sys.exit(main())
