"""Finding an observed element by id: lives in :mod:`agent.util.elements` (browser needs it too, and sits below
dom). Re-exported here for the modules that still import it from dom (``agent.planning.offline``)."""

from __future__ import annotations

from agent.util.elements import element_by_id as element_by_id
