// Numbered Set-of-Mark badges for a screenshot, in a closed shadow root marked data-agent-overlay.
(items) => {
  const old = document.querySelector('[data-agent-overlay]');
  if (old) old.remove();
  const host = document.createElement('div');
  host.setAttribute('data-agent-overlay', '1');
  host.style.cssText = 'position:fixed;inset:0;z-index:2147483647;pointer-events:none;';
  const root = host.attachShadow({ mode: 'closed' });
  const colors = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#008080', '#9a6324', '#800000'];
  for (const it of items) {
    const c = colors[it.id % colors.length];
    const box = document.createElement('div');
    box.style.cssText = `position:absolute;left:${it.x}px;top:${it.y}px;width:${it.w}px;height:${it.h}px;` +
      `outline:2px solid ${c};box-sizing:border-box;`;
    const tag = document.createElement('div');
    tag.textContent = String(it.id);
    tag.style.cssText = `position:absolute;left:${it.x}px;top:${Math.max(0, it.y - 14)}px;background:${c};` +
      'color:#fff;font:bold 11px/13px monospace;padding:0 3px;border-radius:2px;';
    root.append(box, tag);
  }
  (document.body || document.documentElement).appendChild(host);
  return items.length;
}
