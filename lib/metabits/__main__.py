"""``python -m metabits``: the command line (:mod:`metabits._cli`)."""

import sys

from metabits._cli import main

sys.exit(main())
