// Set-of-Mark marking pass, part 1 of 5: arguments, constants, small helpers, per-document state.
// agent/dom/pass_script.py joins agent/dom/som/1_setup.js .. 5_result.js in order, once, into one function
// (SOM_JS), installs it in each new document of the context, and agent/dom/observe.py calls it with `args` once per
// reachable frame (the top document, plus each cross-origin frame Playwright can enter). The parts are not valid JavaScript on their own.
//
// One walk over the flat tree (open shadow roots, slots, same-origin iframes) that at the same time:
//   * skips invisible subtrees (display:none, visibility:hidden, opacity ~0, aria-hidden, 1px clip boxes,
//     off-page positioning, same-colour text): hidden text must never reach the model,
//   * marks interactive and (bounded) informative elements with a `data-agent-id` that is reused on later
//     passes, so ids stay stable for the same element within one document,
//   * collects the visible text of the page in reading order (page_text) and a few page statistics.
// Returns one JSON string (far cheaper to transfer than a structured object) and never throws: any failure
// comes back as {ok: false, error}.
(args) => {
  'use strict';
  const T0 = performance.now();
  const A = Object.assign({
    base: 0,             // id base for this frame's counter (0 for the top document, 100000*k for frames)
    framePath: '',       // frame path of the document this pass starts in
    offset: [0, 0],      // viewport offset of this document inside the top viewport
    clip: null,          // visible part of this document in top-viewport coordinates [x, y, w, h]
    crossOrigin: false,  // this pass runs in a cross-origin frame
    bg: [255, 255, 255], // background colour behind the document (null: unknown)
    maxInfo: 800,        // informative (non-interactive) elements marked per pass (the rest are counted)
    maxElements: 5000,   // hard cap on marked elements per pass (the rest are counted, with where marking stopped)
    maxNodes: 80000,     // hard cap on visited elements (bounds time on giant DOMs)
    timeBudgetMs: 0,     // stop walking after this long (0: no bound); the result says where it stopped
    textChars: 160,      // visible text kept per element
    proseChars: 600,     // visible text kept per paragraph-like element (the answer may sit in its third sentence)
    blockChars: 300,     // a marked element's block (card, row, list item) is its largest ancestor this short
    pageTextChars: 20000,
    force: false,        // walk even when nothing changed since the last pass (the caller lost that result)
    have: null,          // [document id, pass number] of the result the caller keeps (elements handed over by difference)
  }, args || {});

  const ATTR = 'data-agent-id';
  const FATTR = 'data-agent-frame';
  const TEXT_LIM = 700;
  const PROSE_TAGS = new Set(['p', 'blockquote', 'pre', 'li', 'td', 'dd', 'address']);
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'base',
    'svg', 'math', 'canvas', 'video', 'audio', 'object', 'picture', 'source', 'track', 'map', 'param', 'br', 'wbr',
    'datalist']);
  const NO_CHILD_TEXT = new Set(['select', 'textarea', 'option', 'optgroup', 'input']);
  const INTERACTIVE_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'switch', 'textbox', 'combobox', 'searchbox', 'slider', 'spinbutton', 'treeitem']);
  const INFO_ROLES = new Set(['heading', 'alert', 'status']);
  const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
  const TEXTLIKE_INPUTS = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date',
    'datetime-local', 'month', 'week', 'time']);
  const RX_PRICE = /(?:[$€£¥₹₽]\s?\d|\d(?:[\d.,\s]*\d)?\s?(?:€|\$|£|zł|kr|Kč|USD|EUR|GBP|PLN|CHF|JPY)(?![a-z]))/i;
  const RX_INFO_HINT = /(?:^|[\s_-])(price|prices|cost|amount|total|subtotal|rating|stars|stock|availability|sku|status|badge|error|errors|alert|warning|notice|result-count|results-count)(?=$|[\s_-])/i;
  const RX_DIALOG_HINT = /cookie|consent|gdpr|modal|popup|lightbox|dialog|interstitial/i;
  const RX_CLIPPATH = /inset\(\s*(?:4\d|50|[5-9]\d|100)(?:\.\d+)?%/;

  function rand() {
    return Math.random().toString(36).slice(2, 10) + Math.floor(performance.timeOrigin).toString(36);
  }
  // Whitespace other than a single space: without any, collapsing changes nothing (most text of most pages),
  // and the test is far cheaper than a replace that matches every space.
  const RX_UNCOLLAPSED = /[^\S ]| {2}/;
  function collapse(s) { return RX_UNCOLLAPSED.test(s) ? s.replace(/\s+/g, ' ') : s; }
  function clean(s, n) {
    s = collapse(s || '').trim();
    return s.length > n ? s.slice(0, n - 1).trimEnd() + '…' : s;
  }
  // Parsed colours by their computed string: a page uses a few dozen, read on almost every element (the same
  // array back for the same colour also spares a child context per element with an opaque background).
  const RGB = new Map();
  function parseRgb(s) {
    let v = RGB.get(s);
    if (v === undefined) { v = parseRgbNew(s); RGB.set(s, v); }
    return v;
  }
  function parseRgbNew(s) {
    const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(s || '');
    if (!m) return null;
    let a = 1;
    if (m[4] !== undefined) a = m[4].endsWith('%') ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
    return [parseFloat(m[1]), parseFloat(m[2]), parseFloat(m[3]), a];
  }
  function intersect(a, b) {
    if (!a) return b;
    if (!b) return a;
    const x = Math.max(a[0], b[0]);
    const y = Math.max(a[1], b[1]);
    const w = Math.min(a[0] + a[2], b[0] + b[2]) - x;
    const h = Math.min(a[1] + a[3], b[1] + b[3]) - y;
    return [x, y, Math.max(0, w), Math.max(0, h)];
  }
  function r1(v) { return Math.round(v * 10) / 10; }

  try {
    // Per-document state lives on the document object (a new document always means a new object; a Window
    // can be reused across a navigation from the initial about:blank).
    let state = document.__wayfinderSom;
    if (!state || typeof state.next !== 'number' || typeof state.doc !== 'string') {
      state = { next: A.base + 1, doc: rand() };
      try {
        Object.defineProperty(document, '__wayfinderSom', { value: state, writable: true, configurable: true });
      } catch (e) {
        document.__wayfinderSom = state;
      }
    }

    // Incremental re-observation. A full pass leaves a snapshot: the change trackers' counters
    // (agent/browser/js/change_watch.js) and a signature of what changes without an event (scroll offsets, form
    // values, sizes, style sheets, element count, running animations). While both stand still nothing the pass
    // reads can differ, so it answers "unchanged" with the number of the pass whose result the caller keeps.
    const installWatch = (/*@include ../../browser/js/change_watch.js*/);
    const W = installWatch(window);
    const KEY = JSON.stringify([A.base, A.framePath, A.offset, A.clip, A.crossOrigin, A.bg, A.maxInfo,
      A.maxElements, A.maxNodes, A.textChars, A.proseChars, A.blockChars, A.pageTextChars]);
    const SHEET_RULES = 3000;
    function controlSig(c) {
      if (c.localName === 'select') return 's' + Array.from(c.options || []).map((o) => (o.selected ? 1 : 0)).join('');
      return (c.value || '') + '|' + (c.checked ? 1 : 0) + (c.indeterminate ? 1 : 0) + (c.disabled ? 1 : 0);
    }
    function docSig(doc) {
      const win = doc.defaultView;
      if (!win) return null;
      try {
        for (const a of doc.getAnimations()) if (a.pending || a.playState === 'running') return null; // moving
      } catch (e) { return null; }
      const tracker = doc.__wayfinderWatch;
      if (!tracker || typeof tracker.flush !== 'function') return null;
      tracker.flush();
      const se = doc.scrollingElement || doc.documentElement;
      const parts = ['g' + tracker.gen, doc.URL, doc.title, doc.readyState, win.innerWidth, win.innerHeight,
        win.scrollX, win.scrollY, win.devicePixelRatio, doc.getElementsByTagName('*').length,
        se ? se.scrollWidth + 'x' + se.scrollHeight : ''];
      try { parts.push(doc.fonts.status); } catch (e) { /* no font loading API */ }
      // The rules' text: a script may edit a rule in place (CSSOM), which no observer reports. Serializing costs
      // ~8 µs a rule: past SHEET_RULES rules the document is never "unchanged" (always read in full).
      const sheets = [];
      let rules = 0;
      for (const sh of Array.from(doc.styleSheets).concat(Array.from(doc.adoptedStyleSheets || []))) {
        let list = null;
        try { list = sh.cssRules; } catch (e) { list = null; } // cross-origin: the page cannot edit it either
        if (list) for (const r of list) rules += 1 + (r.cssRules ? r.cssRules.length : 0);
        sheets.push([sh, list]);
      }
      if (rules > SHEET_RULES) return null;
      for (const [sh, list] of sheets) {
        parts.push((sh.disabled ? 'd' : 's') + (list ? Array.from(list, (r) => r.cssText).join('\n') : 'x'));
      }
      for (const c of doc.querySelectorAll('input,select,textarea')) parts.push(controlSig(c));
      return parts.join('|');
    }
    // The signature of a snapshot's documents, scrollers, custom-element hosts and shadow-root controls.
    function snapSig(snap) {
      const parts = [];
      for (const d of snap.docs) {
        if (d.el) {
          let now = null;
          try { now = d.el.isConnected ? d.el.contentDocument : null; } catch (e) { now = null; }
          if (now !== d.doc) return null;
        }
        const s = docSig(d.doc);
        if (s === null) return null;
        parts.push(s);
      }
      for (const el of snap.scrollers) parts.push(el.isConnected ? el.scrollTop + ',' + el.scrollLeft : 'x');
      for (const el of snap.hosts) {
        const r = el.getBoundingClientRect();
        parts.push(r.left + ',' + r.top + ',' + r.width + ',' + r.height);
      }
      for (const c of snap.controls) parts.push(c.isConnected ? controlSig(c) : 'x');
      return parts.join('\n');
    }
    if (!A.force && state.snap && state.snap.key === KEY) {
      const sig = snapSig(state.snap);
      if (sig !== null && sig === state.snap.sig) {
        return JSON.stringify({ ok: true, unchanged: true, pass: state.snap.pass, document_id: state.doc,
          url: location.href, ms: Math.round(performance.now() - T0) });
      }
    }
    state.snap = null;
    state.pass = (state.pass || 0) + 1;
    // What the next pass checks besides the documents (filled by the walk).
    const snapDocs = [{ el: null, doc: document }];
    const snapScrollers = [];
    const snapHosts = [];
    const snapControls = [];
    let snapOk = true;

    const records = [];
    const frames = [];
    const labelText = new Map();
    const pageText = [];
    let pageTextLen = 0;
    let order = 0;
    let visited = 0;
    let infoCount = 0;
    let truncated = false;
    // True counts of what the pass saw and why it did not mark something (no silent cap).
    const counts = {
      hidden: 0,          // elements skipped as invisible (hidden subtrees included) or placed off the page
      candidates: 0,      // elements that qualify to be marked (interactive, informative, prose, scrollers)
      over_cap: 0,        // candidates not marked because the pass reached maxElements (from cap_y down)
      info_over_cap: 0,   // informative/prose candidates not marked because the pass reached maxInfo (info_cap_y)
    };
    let stop = null;      // where and why the walk stopped early (time, node limit): {reason, y, at_candidate}
    const blocks = {};    // block order -> text of the small block (card, row, list item) around marked elements
    const stats = {
      paragraphs: 0, long_paragraphs: 0, articles: 0, list_items: 0, table_rows: 0, forms: 0, editable: 0,
      search_inputs: 0, h1: [], pdf: false, content_type: document.contentType || '', scrollers: [],
    };

    function pt(s) {
      if (pageTextLen >= A.pageTextChars) return;
      pageText.push(s);
      pageTextLen += s.length;
    }
    function ptBreak() {
      if (pageText.length && pageText[pageText.length - 1] !== '\n') pt('\n');
    }

