"""``python -m shanghai.cli``: the same as the ``shanghai`` command."""

import sys

from shanghai.cli.main import main

sys.exit(main())
