// Change tracking, one per document: a generation counter that every change which can alter an observation
// bumps (DOM mutations, form input, focus, hover, scrolling, loads, animations, resizes). The marking pass
// (agent/dom/som) reuses its last result only while the counter stands still; the DOM watcher (dom_watch.js)
// hangs its "something changed" notification on the same MutationObserver. An expression: `(win) => tracker`,
// included by both (`/*@include*/`), installed once per document whichever runs first.
((win) => {
  const doc = win.document;
  const have = doc.__wayfinderWatch;
  if (have && typeof have.gen === 'number') return have;
  const ours = (node) => {
    const el = node && (node.nodeType === 1 ? node : node.parentElement);
    return !!(el && el.closest && el.closest('[data-agent-overlay]'));
  };
  // Our own writes (data-agent-* attributes, the screenshot overlay) are not changes of the page.
  const relevant = (r) => {
    if (r.type === 'attributes' && r.attributeName && r.attributeName.startsWith('data-agent')) return false;
    if (ours(r.target)) return false;
    if (r.type === 'childList') {
      const nodes = [...r.addedNodes, ...r.removedNodes];
      if (nodes.length && nodes.every((n) => n.nodeType === 1 && n.hasAttribute && n.hasAttribute('data-agent-overlay')))
        return false;
    }
    return true;
  };
  // The counter lives in this closure: page scripts can read it, not set it.
  let gen = 0;
  const listeners = [];
  const bump = () => { gen += 1; };
  const onRecords = (records) => {
    if (!records.some(relevant)) return;
    gen += 1;
    for (const f of listeners) { try { f(); } catch (e) { /* a listener's failure is its own */ } }
  };
  const observer = new MutationObserver(onRecords);
  const OPTS = { subtree: true, childList: true, characterData: true, attributes: true };
  observer.observe(doc, OPTS);
  // Open shadow roots are not seen by an observer of the document: the marking pass adds each one it walks.
  const roots = new WeakSet();
  const w = Object.freeze({
    get gen() { return gen; },
    // calls ``f`` after each batch of relevant mutations (the DOM watcher's notification)
    listen: (f) => { listeners.push(f); },
    watch: (root) => {
      if (roots.has(root)) return;
      roots.add(root);
      try { observer.observe(root, OPTS); } catch (e) { gen += 1; }
    },
    // Deliver pending records now (they would otherwise arrive after the caller's synchronous check).
    flush: () => { const records = observer.takeRecords(); if (records.length) onRecords(records); },
  });
  // State that changes without a mutation: typed values, focus, hover, scroll, loads, animations, popovers.
  for (const type of ['input', 'change', 'focusin', 'focusout', 'mouseover', 'mouseout', 'scroll', 'load',
    'error', 'toggle', 'invalid', 'reset', 'animationstart', 'animationend', 'animationcancel', 'transitionrun',
    'transitionend', 'transitioncancel', 'fullscreenchange']) {
    doc.addEventListener(type, bump, { capture: true, passive: true });
  }
  for (const type of ['resize', 'hashchange', 'popstate', 'pageshow']) win.addEventListener(type, bump, { passive: true });
  try { doc.fonts.addEventListener('loadingdone', bump); } catch (e) { /* no font loading API */ }
  try {
    Object.defineProperty(doc, '__wayfinderWatch', { value: w });
  } catch (e) {
    doc.__wayfinderWatch = w;
  }
  return w;
})
