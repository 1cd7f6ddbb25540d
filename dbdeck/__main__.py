"""``python -m dbdeck`` runs the command line."""

import sys

from dbdeck.cli import main

sys.exit(main())
