// Pixels of the document left below the viewport.
() => { const d = document.scrollingElement || document.documentElement; return d.scrollHeight - d.scrollTop - innerHeight; }
