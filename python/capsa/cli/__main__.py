"""``python -m capsa.cli``: the same as ``capsa`` and ``python -m capsa``."""

import sys

from capsa.cli import main

sys.exit(main())
