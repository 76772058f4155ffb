// Remove the screenshot badges again.
() => { const o = document.querySelectorAll('[data-agent-overlay]'); o.forEach((n) => n.remove()); }
