"""``python -m agent.report RUN_DIR [...]``."""

from agent.report import main

raise SystemExit(main())
