"""``python -m capsa.tables``: the same as ``capsa tables``."""

import sys

from capsa.cli import main

raise SystemExit(main(["tables", *sys.argv[1:]]))
