// Numbered Set-of-Mark badges for a screenshot, in a closed shadow root marked data-agent-overlay.
// Each label goes to the first free spot around its box (above, inside, below, beside, left or right aligned)
// that stays in the viewport and overlaps no label placed before it; returns the label rectangles.
(items) => {
  const old = document.querySelector('[data-agent-overlay]');
  if (old) old.remove();
  const host = document.createElement('div');
  host.setAttribute('data-agent-overlay', '1');
  host.style.cssText = 'position:fixed;inset:0;z-index:2147483647;pointer-events:none;';
  const root = host.attachShadow({ mode: 'closed' });
  const colors = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#008080', '#9a6324', '#800000'];
  const vw = innerWidth, vh = innerHeight;
  const H = 13;
  const placed = [];
  const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  const inView = (r) => r.x >= 0 && r.y >= 0 && r.x + r.w <= vw && r.y + r.h <= vh;
  const spot = (it, w) => {
    const right = it.x + it.w - w;
    const tries = [
      [it.x, it.y - H], [it.x, it.y], [right, it.y - H], [right, it.y], [it.x, it.y + it.h],
      [right, it.y + it.h], [it.x - w, it.y], [it.x + it.w, it.y], [it.x, it.y + it.h - H],
    ];
    for (const [x, y] of tries) {
      const r = { x, y, w, h: H };
      if (inView(r) && !placed.some((p) => overlaps(p, r))) return r;
    }
    // no free spot: the first one kept in the viewport (shifted down past the labels it would cover)
    const r = { x: Math.min(Math.max(0, it.x), Math.max(0, vw - w)), y: Math.min(Math.max(0, it.y - H), vh - H), w, h: H };
    while (placed.some((p) => overlaps(p, r)) && r.y + 2 * H <= vh) r.y += H;
    return r;
  };
  for (const it of items) {
    const c = colors[it.id % colors.length];
    const box = document.createElement('div');
    box.style.cssText = `position:absolute;left:${it.x}px;top:${it.y}px;width:${it.w}px;height:${it.h}px;` +
      `outline:2px solid ${c};box-sizing:border-box;`;
    const label = String(it.id);
    const r = spot(it, label.length * 7 + 6);
    placed.push(r);
    const tag = document.createElement('div');
    tag.textContent = label;
    tag.style.cssText = `position:absolute;left:${r.x}px;top:${r.y}px;width:${r.w}px;height:${H}px;` +
      `background:${c};color:#fff;font:bold 11px/13px monospace;text-align:center;border-radius:2px;` +
      'box-sizing:border-box;';
    root.append(box, tag);
  }
  (document.body || document.documentElement).appendChild(host);
  return placed.map((r, i) => ({ id: items[i].id, ...r }));
}
