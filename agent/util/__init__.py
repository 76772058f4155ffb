"""Small shared helpers with no dependency on the graph or the browser."""
