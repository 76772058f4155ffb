// Where the top document's visible frames are, as its marking pass will report them (agent/dom/speculate.py):
// for each <iframe>/<frame> of the document its address and whether it is shown, and for a shown one the path the
// pass gives it (its place among the shown frames) and its offset and clip in viewport pixels, by the same
// arithmetic as the pass's enterFrame (som/3_walk.js). A guess the caller checks against the pass: a frame it got wrong is marked after
// the pass as before.
() => {
  function r1(v) { return Math.round(v * 10) / 10; }
  function intersect(a, b) {
    const x = Math.max(a[0], b[0]);
    const y = Math.max(a[1], b[1]);
    const w = Math.min(a[0] + a[2], b[0] + b[2]) - x;
    const h = Math.min(a[1] + a[3], b[1] + b[3]) - y;
    return [x, y, Math.max(0, w), Math.max(0, h)];
  }
  const out = [];
  const view = [0, 0, window.innerWidth, window.innerHeight];
  let n = 0;
  for (const el of document.querySelectorAll('iframe,frame')) {
    const r = el.getBoundingClientRect();
    const st = getComputedStyle(el);
    let url = '';
    try { url = el.contentDocument ? '' : (el.src || el.getAttribute('src') || ''); } catch (e) { url = el.src || ''; }
    // 'hidden': the pass never enters it; 'unsure': it may not (the caller stops guessing there)
    if (r.width < 3 || r.height < 3 || st.visibility !== 'visible') { out.push({ url, seen: 'hidden' }); continue; }
    if ((typeof el.checkVisibility === 'function' && !el.checkVisibility({ opacityProperty: true })) ||
        el.closest('[aria-hidden="true"]') || r.right + window.scrollX <= 0 || r.bottom + window.scrollY <= 0) {
      out.push({ url, seen: 'unsure' });
      continue;
    }
    const ox = 0 + (r.left + el.clientLeft + (parseFloat(st.paddingLeft) || 0));
    const oy = 0 + (r.top + el.clientTop + (parseFloat(st.paddingTop) || 0));
    const clip = intersect(view, [ox, oy, el.clientWidth, el.clientHeight]);
    out.push({ url, seen: 'shown', path: String(n), offset: [r1(ox), r1(oy)], clip: clip.map(r1) });
    n += 1;
  }
  return out;
}
