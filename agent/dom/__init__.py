"""Observation layer (Set-of-Mark): mark the page's elements, serialize them for the model.

Import the entry points from their modules: ``from agent.dom.observe import observe, observe_page,
mark_frames``. The package does not re-export ``observe`` on purpose: a package attribute named like the
``agent.dom.observe`` submodule would shadow it (``import agent.dom.observe as m`` would yield the function).
"""

from agent.dom.options import ObserveOptions

__all__ = ["ObserveOptions"]
