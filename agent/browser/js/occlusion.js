// What covers the element's centre, and whether that cover is a page-sized overlay (cookie wall, modal).
(el) => {
  const r = el.getBoundingClientRect();
  const w = innerWidth, h = innerHeight;
  const cx = Math.min(Math.max(r.left + r.width / 2, 0), w - 1);
  const cy = Math.min(Math.max(r.top + r.height / 2, 0), h - 1);
  const root = el.getRootNode();
  const hit = (root.elementFromPoint ? root : document).elementFromPoint(cx, cy);
  if (!hit || hit === el || el.contains(hit) || (hit.shadowRoot && hit.contains(el))) return { occluded: false };
  let top = hit;
  while (top.parentElement && !top.parentElement.contains(el)) top = top.parentElement;
  const o = top.getBoundingClientRect();
  const area = (Math.max(0, Math.min(o.right, w) - Math.max(o.left, 0)) *
                Math.max(0, Math.min(o.bottom, h) - Math.max(o.top, 0))) / (w * h);
  const text = (top.innerText || '').trim().replace(/\s+/g, ' ').slice(0, 120);
  return { occluded: true, overlay: area >= 0.5, area, tag: top.tagName.toLowerCase(), text };
}
