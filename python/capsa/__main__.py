"""``python -m capsa`` runs the command line."""

import sys

from capsa.cli import main

sys.exit(main())
