"""Graph nodes, one per module. Each is an async function ``(state, runtime) -> update``."""
