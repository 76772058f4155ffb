// What an element action needs to know first: visible, disabled, editable, pinned (fixed/sticky), a label.
(el) => {
  const tag = el.tagName.toLowerCase();
  const style = getComputedStyle(el);
  const r = el.getBoundingClientRect();
  let visible = r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
  if (visible && el.checkVisibility) visible = el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const disabled = (el.matches && el.matches(':disabled')) || el.getAttribute('aria-disabled') === 'true';
  const editable = el.isContentEditable ||
    ((tag === 'input' || tag === 'textarea') && !el.readOnly && !el.disabled);
  const label = (el.getAttribute('aria-label') || el.innerText || el.value || el.getAttribute('placeholder') ||
                 el.getAttribute('title') || '').trim().replace(/\s+/g, ' ').slice(0, 80);
  let fixed = false;
  for (let n = el; n && n.nodeType === 1; n = n.parentElement || (n.getRootNode() && n.getRootNode().host)) {
    const p = getComputedStyle(n).position;
    if (p === 'fixed' || p === 'sticky') { fixed = true; break; }
  }
  return { tag, type: (el.getAttribute('type') || '').toLowerCase(), visible, disabled, editable, fixed,
           readonly: !!el.readOnly, contenteditable: !!el.isContentEditable, label,
           role: el.getAttribute('role') || '' };
}
