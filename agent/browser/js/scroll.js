// Scroll the page, the scrollable ancestor of an element, or the largest scroller when the window cannot.
// Called as (SCRIPT)([dy, useElement], el) with dy a pixel count or 'page' / '-page'.
([dy, useElement], el) => {
  const scrollable = (n) => {
    if (!n || n.nodeType !== 1) return false;
    const s = getComputedStyle(n);
    return /(auto|scroll|overlay)/.test(s.overflowY) && n.scrollHeight > n.clientHeight + 1;
  };
  let target = null;
  if (useElement && el) {
    let n = el;
    while (n && !scrollable(n)) n = n.parentElement || (n.getRootNode() && n.getRootNode().host) || null;
    target = n;
  }
  const doc = document.scrollingElement || document.documentElement;
  if (!target) {
    const before = doc.scrollTop;
    const amount = dy === 'page' ? Math.round(innerHeight * 0.85) : dy === '-page' ? -Math.round(innerHeight * 0.85) : dy;
    window.scrollBy({ top: amount, behavior: 'instant' });
    if (Math.abs(doc.scrollTop - before) >= 1 || useElement) {
      return { moved: doc.scrollTop - before, y: doc.scrollTop, below: doc.scrollHeight - doc.scrollTop - innerHeight,
               target: 'page' };
    }
    // The window does not scroll: find the largest scrollable container (app layouts scroll a <main>).
    let best = null, bestArea = 0;
    for (const n of document.querySelectorAll('body *')) {
      if (!scrollable(n)) continue;
      const r = n.getBoundingClientRect();
      const area = r.width * r.height;
      if (area > bestArea) { best = n; bestArea = area; }
    }
    if (!best) return { moved: 0, y: doc.scrollTop, below: doc.scrollHeight - doc.scrollTop - innerHeight, target: 'page' };
    target = best;
  }
  const before = target.scrollTop;
  const amount = dy === 'page' ? Math.round(target.clientHeight * 0.85) : dy === '-page' ? -Math.round(target.clientHeight * 0.85) : dy;
  target.scrollBy({ top: amount, behavior: 'instant' });
  return { moved: target.scrollTop - before, y: target.scrollTop,
           below: target.scrollHeight - target.scrollTop - target.clientHeight, target: target.tagName.toLowerCase() };
}
