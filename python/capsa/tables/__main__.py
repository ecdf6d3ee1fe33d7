"""``python -m capsa.tables train --preset NAME``: regenerate solver tables."""

from capsa.tables import main

raise SystemExit(main())
