"""Wayfinder benchmarks: rerunnable measurements that write what they measured.

- :mod:`benchmarks.observe` - observation cost (time, elements, characters, approximate tokens, memory) on the
  bundled demo site, the test fixture site and generated listings;
- :mod:`benchmarks.miniwob` - the agent with the offline rules planner on MiniWoB++ tasks served from the
  ``miniwob`` PyPI package on loopback;
- ``python -m benchmarks`` runs both default sets into one ``bench-results/<timestamp>/`` directory.

Nothing here changes the agent: the harness starts episodes and reads rewards, the agent only gets the goal.
See docs/BENCHMARKS.md.
"""
