// After pointing at an item: wait up to `ms` for the submenu it opens to show. Menus that open on hover often
// wait a moment first (to tell a pointer resting on the item from one passing by), so the page is quiet until
// then. The submenu is what aria-controls names, else a hidden list or menu inside the item or its list item.
// Returns 'opened', 'none' (nothing hidden to open: at once) or 'closed' (still hidden after `ms`).
async (el, ms) => {
  const POPUPS = ':scope > ul, :scope > ol, :scope > [role=menu], :scope > [role=listbox], :scope > [role=group]';
  const shown = (n) => n.getClientRects().length > 0 && n.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const found = new Set();
  for (const id of (el.getAttribute('aria-controls') || '').split(/\s+/)) {
    const target = id && document.getElementById(id);
    if (target) found.add(target);
  }
  for (const scope of [el, el.closest('li')]) {
    if (scope) for (const n of scope.querySelectorAll(POPUPS)) found.add(n);
  }
  const hidden = [...found].filter((n) => !shown(n));
  if (!hidden.length || hidden.length < found.size) return 'none';
  const until = performance.now() + ms;
  while (performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 40));
    if (hidden.some(shown)) return 'opened';
  }
  return 'closed';
}
