"""``python -m agent``: see :mod:`agent.cli`."""

from agent.cli import main

raise SystemExit(main())
