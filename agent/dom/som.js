// Set-of-Mark marking pass. Evaluated by agent/dom/observe.py as `frame.evaluate(SOM_JS, args)`, once per
// reachable frame (the top document, plus each cross-origin frame Playwright can enter).
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
    maxInfo: 800,        // informative (non-interactive) elements marked per pass
    maxElements: 5000,   // hard cap on marked elements per pass
    maxNodes: 80000,     // hard cap on visited elements (bounds time on giant DOMs)
    textChars: 160,      // visible text kept per element
    pageTextChars: 20000,
  }, args || {});

  const ATTR = 'data-agent-id';
  const FATTR = 'data-agent-frame';
  const TEXT_LIM = 400;
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
  function collapse(s) { return s.replace(/\s+/g, ' '); }
  function clean(s, n) {
    s = collapse(s || '').trim();
    return s.length > n ? s.slice(0, n - 1).trimEnd() + '…' : s;
  }
  function parseRgb(s) {
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

    const records = [];
    const frames = [];
    const labelText = new Map();
    const pageText = [];
    let pageTextLen = 0;
    let order = 0;
    let visited = 0;
    let infoCount = 0;
    let truncated = false;
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

    function clipIsZero(clip) {
      if (!clip || clip === 'auto') return false;
      const n = (clip.match(/-?[\d.]+/g) || []).map(parseFloat);
      if (n.length !== 4) return false;
      return (n[2] - n[0]) < 3 || (n[1] - n[3]) < 3;
    }

    function implicitRole(el, tag) {
      switch (tag) {
        case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
        case 'button': return 'button';
        case 'input': {
          const t = (el.type || 'text').toLowerCase();
          if (t === 'checkbox') return 'checkbox';
          if (t === 'radio') return 'radio';
          if (t === 'range') return 'slider';
          if (t === 'number') return 'spinbutton';
          if (t === 'search') return el.list ? 'combobox' : 'searchbox';
          if (t === 'button' || t === 'submit' || t === 'reset' || t === 'image' || t === 'file' || t === 'color') return 'button';
          return el.list ? 'combobox' : 'textbox';
        }
        case 'select': return (el.multiple || el.size > 1) ? 'listbox' : 'combobox';
        case 'textarea': return 'textbox';
        case 'summary': return 'button';
        case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
        case 'img': return el.getAttribute('alt') === '' ? 'presentation' : 'img';
        case 'li': return 'listitem';
        case 'td': return 'cell';
        case 'th': return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
        case 'dt': return 'term';
        case 'dd': return 'definition';
        case 'output': return 'status';
        case 'option': return 'option';
        case 'dialog': return 'dialog';
        case 'progress': return 'progressbar';
        case 'meter': return 'meter';
        default:
          return el.isContentEditable ? 'textbox' : '';
      }
    }
    function explicitRole(el) {
      const r = (el.getAttribute('role') || '').trim().toLowerCase();
      return r ? r.split(/\s+/)[0] : '';
    }

    function isNativeInteractive(el, tag) {
      switch (tag) {
        case 'a': return el.hasAttribute('href');
        case 'button': case 'select': case 'textarea': return true;
        case 'input': return (el.type || '').toLowerCase() !== 'hidden';
        case 'summary': return !!el.parentElement && el.parentElement.localName === 'details';
        default:
          // only the root of an editing host (the attribute is inherited by everything inside it)
          return el.hasAttribute('contenteditable') && el.isContentEditable &&
            !(el.parentElement && el.parentElement.isContentEditable);
      }
    }

    function controlShown(ctl) {
      try {
        const w = ctl.ownerDocument.defaultView;
        const s = w.getComputedStyle(ctl);
        if (s.display === 'none' || s.visibility !== 'visible' || parseFloat(s.opacity) < 0.1) return false;
        const r = ctl.getBoundingClientRect();
        if (r.width < 3 || r.height < 3) return false;
        if ((s.position === 'absolute' || s.position === 'fixed') && clipIsZero(s.clip)) return false;
        return true;
      } catch (e) {
        return false;
      }
    }

    function zoneOf(el, tag, role, pos, ctx) {
      if (ctx.zone === 'dialog') return 'dialog';
      if ((tag === 'dialog' && el.open) || role === 'dialog' || role === 'alertdialog' ||
          el.getAttribute('aria-modal') === 'true') return 'dialog';
      if (pos === 'fixed' && RX_DIALOG_HINT.test((el.id || '') + ' ' + (el.getAttribute('class') || ''))) {
        return 'dialog';
      }
      if (tag === 'nav' || role === 'navigation') return 'nav';
      if (tag === 'aside' || role === 'complementary') return ctx.zone === 'nav' ? 'nav' : 'aside';
      if (tag === 'main' || role === 'main') return 'main';
      if ((tag === 'header' && !ctx.sectioning) || role === 'banner') return ctx.zone === 'nav' ? 'nav' : 'header';
      if ((tag === 'footer' && !ctx.sectioning) || role === 'contentinfo') return 'footer';
      return ctx.zone;
    }

    function ownText(el) {
      let s = '';
      for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 3) s += n.data;
      return collapse(s).trim();
    }

    function informative(el, tag, role, text, ctx) {
      if (!text) return false;
      if (role === 'heading' || /^h[1-6]$/.test(tag)) return text.length <= 300;
      if (INFO_ROLES.has(role)) return text.length <= 300;
      if (tag === 'label') return !el.control && text.length <= 200; // a control's label is its name already
      if (tag === 'legend' || tag === 'caption' || tag === 'figcaption' || tag === 'dt' ||
          tag === 'th') return text.length <= 200;
      if (tag === 'td' || tag === 'dd' || tag === 'li') {
        const own = ownText(el);
        return own.length > 0 && text.length <= 200;
      }
      if (text.length <= 40) {
        const own = ownText(el);
        if (own && RX_PRICE.test(own)) return true;
      }
      if (text.length <= 80) {
        const hint = (el.id || '') + ' ' + (el.getAttribute('class') || '') + ' ' + (el.getAttribute('itemprop') || '');
        if (hint.length > 1 && RX_INFO_HINT.test(hint) && !ctx.inInfo) return true;
      }
      return false;
    }

    function heuristicClickable(el, tag, cursor, pcursor, r, ctx) {
      if (tag === 'html' || tag === 'body' || tag === 'label' || tag === 'iframe') return false;
      if (r.width * r.height > 0.5 * ctx.vw * ctx.vh) return false;
      if (el.hasAttribute('onclick') || typeof el.onclick === 'function') return true;
      const ti = el.getAttribute('tabindex');
      if (ti !== null && parseInt(ti, 10) >= 0 && !/^(?:div|section|main|article|ul|ol|table|form)$/.test(tag)) return true;
      if (cursor === 'pointer' && pcursor !== 'pointer') return true;
      return false;
    }

    function textHidden(el, st, ctx) {
      if (st.visibility !== 'visible') return true;
      if (parseFloat(st.fontSize) < 4) return true;
      if (parseFloat(st.textIndent) < -500) return true;
      const c = parseRgb(st.color);
      if (c) {
        if (c[3] < 0.1) return true;
        if (ctx.bg && Math.abs(c[0] - ctx.bg[0]) + Math.abs(c[1] - ctx.bg[1]) + Math.abs(c[2] - ctx.bg[2]) < 30) {
          return true;
        }
      }
      return false;
    }

    function blockish(display) {
      if (!display || display === 'contents') return 0;
      if (display === 'table-cell' || display === 'inline-block' || display === 'inline-flex' ||
          display === 'inline-grid' || display === 'inline-table') return 2;
      if (display.startsWith('inline') || display === 'ruby' || display === 'ruby-text') return 0;
      return 1;
    }

    function childNodesOf(node) {
      if (node.localName === 'details' && !node.open) {
        // a closed <details> renders only its summary (the rest sits under content-visibility: hidden)
        for (let k = node.firstElementChild; k; k = k.nextElementSibling) if (k.localName === 'summary') return [k];
        return [];
      }
      if (node.localName === 'slot' && typeof node.assignedNodes === 'function') {
        const a = node.assignedNodes({ flatten: true });
        if (a.length) return a;
      }
      if (node.shadowRoot) return node.shadowRoot.childNodes;
      return node.childNodes;
    }

    function walkChildren(node, ctx, st, el, cursor) {
      let out = '';
      let hid = null;
      const kids = childNodesOf(node);
      for (let i = 0; i < kids.length; i++) {
        if (truncated) break;
        const k = kids[i];
        if (k.nodeType === 3) {
          const s = k.data;
          if (!s) continue;
          if (hid === null) hid = textHidden(el, st, ctx);
          if (hid) continue;
          const c = collapse(s);
          pt(c);
          if (out.length < TEXT_LIM) out += c;
        } else if (k.nodeType === 1) {
          const t = walkEl(k, ctx, cursor);
          if (t && out.length < TEXT_LIM) out += t;
        }
      }
      return out;
    }

    function enterFrame(el, st, r, ctx) {
      const path = ctx.framePath ? ctx.framePath + '/' + ctx.frameCounter.n : String(ctx.frameCounter.n);
      ctx.frameCounter.n += 1;
      try { el.setAttribute(FATTR, path); } catch (e) { /* read-only DOM */ }
      const left = r.left + el.clientLeft + (parseFloat(st.paddingLeft) || 0);
      const top = r.top + el.clientTop + (parseFloat(st.paddingTop) || 0);
      const ox = ctx.ox + left;
      const oy = ctx.oy + top;
      const clip = intersect(ctx.clip, [ox, oy, el.clientWidth, el.clientHeight]);
      let doc = null;
      try { doc = el.contentDocument; } catch (e) { doc = null; }
      let url = '';
      try { url = doc ? doc.URL : (el.src || el.getAttribute('src') || ''); } catch (e) { url = el.src || ''; }
      const entry = {
        path, url, cross_origin: !doc, reached: false, offset: [r1(ox), r1(oy)], clip: clip.map(r1),
        name: el.getAttribute('name') || el.getAttribute('title') || '', zone: ctx.zone, fixed: !!ctx.fixed,
        bg: ctx.bg, at: order,
      };
      frames.push(entry);
      if (!doc || !doc.documentElement) return '';
      entry.reached = true;
      const win = doc.defaultView;
      if (!win) return '';
      const sub = {
        doc, win, root: doc, ox, oy, clip, framePath: path, frameCounter: { n: 0 },
        chain: ctx.chain.concat([{ iframe: el, win: ctx.win, root: el.getRootNode(), ox: ctx.ox, oy: ctx.oy }]),
        zone: ctx.zone, sectioning: false, fixed: ctx.fixed, fixedPos: false, inInter: false, inInfo: false,
        hclip: null, hclipStatic: false, bg: ctx.bg, sx: win.scrollX, sy: win.scrollY, crossOrigin: ctx.crossOrigin,
        vw: win.innerWidth || 1, vh: win.innerHeight || 1,
      };
      ptBreak();
      walkEl(doc.documentElement, sub, '');
      ptBreak();
      return '';
    }

    function walkEl(el, ctx, pcursor) {
      const tag = el.localName;
      if (SKIP.has(tag)) {
        if (tag === 'object' && /pdf/i.test(el.getAttribute('type') || '')) stats.pdf = true;
        return '';
      }
      if (++visited > A.maxNodes) { truncated = true; return ''; }
      if (el.getAttribute('aria-hidden') === 'true') return '';
      let st;
      try { st = ctx.win.getComputedStyle(el); } catch (e) { return ''; }
      // Each computed-style read costs ~1 µs through the bindings: read each property once.
      const display = st.display;
      if (display === 'none') return '';
      const opacity = st.opacity;
      if (opacity !== '1' && parseFloat(opacity) < 0.1) return '';
      const pos = st.position;
      const ovx = st.overflowX;
      const ovy = st.overflowY;
      const contents = display === 'contents';
      if (st.contentVisibility === 'hidden') return ''; // hidden="until-found" and friends: contents not rendered
      const r = el.getBoundingClientRect();
      let hclip = ctx.hclip;
      if (!contents) {
        const clips = ovx !== 'visible' || ovy !== 'visible';
        if (clips && (r.width < 3 || r.height < 3)) return '';
        if ((pos === 'absolute' || pos === 'fixed') && clipIsZero(st.clip)) return '';
        const cp = st.clipPath;
        if (cp !== 'none' && cp && RX_CLIPPATH.test(cp)) return '';
        if (pos === 'fixed') hclip = null;
        else if (pos === 'absolute' && ctx.hclipStatic) hclip = null;
        if (r.width > 0 || r.height > 0) {
          if (pos === 'fixed' || ctx.fixedPos) {
            if (r.right <= 0 || r.bottom <= 0) return '';
          } else if (r.right + ctx.sx <= 0 || r.bottom + ctx.sy <= 0) {
            return '';
          }
          if (hclip && r.width > 0 && r.height > 0) {
            const ix = intersect(hclip, [r.left, r.top, r.width, r.height]);
            if (ix[2] <= 0 || ix[3] <= 0) return '';
          }
        } else if (typeof el.checkVisibility === 'function' && !el.checkVisibility()) {
          return '';
        }
      }
      const myOrder = order++;
      const role = explicitRole(el);
      const visibility = st.visibility;

      // Derive the child context only when something changes (most elements change nothing).
      let c = ctx;
      const zone = zoneOf(el, tag, role, pos, ctx);
      if (zone !== ctx.zone) { c = Object.assign({}, ctx); c.zone = zone; }
      const fixedHere = pos === 'fixed' || pos === 'sticky';
      const sectioning = !ctx.sectioning && (tag === 'article' || tag === 'aside' || tag === 'main' ||
          tag === 'nav' || tag === 'section' || role === 'main' || role === 'navigation' ||
          role === 'complementary' || role === 'article' || role === 'region');
      const hidesOverflow = !contents && (ovx === 'hidden' || ovx === 'clip' || ovy === 'hidden' || ovy === 'clip') &&
          tag !== 'html' && tag !== 'body';
      // Background behind the text, for the same-colour check. Unknown (null) under background images and
      // inside positioned boxes with a transparent background (a positioned sibling may paint beneath).
      let bg = ctx.bg;
      const bgc = st.backgroundColor;
      const bgi = st.backgroundImage;
      if (bgi !== 'none' && bgi) bg = null;
      else if (bgc !== 'rgba(0, 0, 0, 0)') {
        const p = parseRgb(bgc);
        if (p && p[3] >= 0.95) bg = p;
        else if (pos !== 'static') bg = null;
      } else if (pos !== 'static') bg = null;
      if ((fixedHere && !ctx.fixed) || (pos === 'fixed' && !ctx.fixedPos) || sectioning || hclip !== ctx.hclip ||
          hidesOverflow || bg !== ctx.bg) {
        if (c === ctx) c = Object.assign({}, ctx);
        if (fixedHere) c.fixed = true;
        if (pos === 'fixed') c.fixedPos = true;
        if (sectioning) c.sectioning = true;
        c.hclip = hclip;
        if (hidesOverflow) {
          c.hclip = intersect(hclip, [r.left, r.top, r.width, r.height]);
          c.hclipStatic = pos === 'static' && st.transform === 'none';
        }
        c.bg = bg;
      }

      if (tag === 'iframe' || tag === 'frame') {
        if (r.width < 3 || r.height < 3 || visibility !== 'visible') return '';
        return enterFrame(el, st, r, c);
      }
      if (tag === 'embed' && (el.getAttribute('type') || '').toLowerCase() === 'application/pdf') stats.pdf = true;

      // Statistics for the page-type heuristic.
      if (tag === 'article' || role === 'article') stats.articles += 1;
      else if (tag === 'li') stats.list_items += 1;
      else if (tag === 'tr') stats.table_rows += 1;
      else if (tag === 'form') stats.forms += 1;

      const visibleSelf = !contents && visibility === 'visible' && r.width >= 2 && r.height >= 2;
      const cursor = st.cursor;
      let kind = 0; // 1 interactive, 2 informative
      let proxy = null;
      if (visibleSelf && records.length < A.maxElements) {
        if (isNativeInteractive(el, tag) || INTERACTIVE_ROLES.has(role)) {
          kind = 1;
        } else if (tag === 'label') {
          const ctl = el.control;
          if (ctl && ctl.localName === 'input' && /^(checkbox|radio|file)$/.test((ctl.type || '').toLowerCase()) &&
              !controlShown(ctl)) {
            kind = 1;
            proxy = ctl;
          }
        } else if (!ctx.inInter && heuristicClickable(el, tag, cursor, pcursor, r, ctx)) {
          kind = 1;
        }
      }
      if (kind === 1 && !c.inInter) {
        if (c === ctx) c = Object.assign({}, ctx);
        c.inInter = true;
      }
      const block = blockish(display);
      if (block === 1) ptBreak(); else if (block === 2) pt(' ');
      let text = '';
      if (!NO_CHILD_TEXT.has(tag)) {
        // children of a label or heading never become informative elements of their own
        if (kind === 0 && !c.inInfo && (tag === 'label' || HEADING_TAGS.has(tag) || INFO_ROLES.has(role))) {
          if (c === ctx) c = Object.assign({}, ctx);
          c.inInfo = true;
        }
        text = walkChildren(el, c, st, el, cursor);
      }
      if (block === 1) ptBreak(); else if (block === 2) pt(' ');
      if (tag === 'p') {
        stats.paragraphs += 1;
        if (text.length >= 80 && collapse(text).trim().length >= 80) stats.long_paragraphs += 1;
      }
      // Scroll containers are actionable ("scroll inside [N]") but do not hide their children's roles.
      let scrollable = '';
      if (visibleSelf && tag !== 'html' && tag !== 'body' && r.width >= 30 && r.height >= 30 &&
          (ovy === 'auto' || ovy === 'scroll' || ovx === 'auto' || ovx === 'scroll')) {
        if ((ovy === 'auto' || ovy === 'scroll') && el.scrollHeight > el.clientHeight + 4) scrollable += 'y';
        if ((ovx === 'auto' || ovx === 'scroll') && el.scrollWidth > el.clientWidth + 4) scrollable += 'x';
        if (scrollable.includes('y') && ctx.doc === document && !ctx.crossOrigin &&
            el.scrollHeight > el.clientHeight + 20 && el.clientHeight > 100) {
          stats.scrollers.push(el);
        }
      }
      if (kind === 0 && scrollable && records.length < A.maxElements) kind = 3;
      if (kind === 0 && visibleSelf && text && !ctx.inInter && !ctx.inInfo && records.length < A.maxElements &&
          (infoCount < A.maxInfo || el.hasAttribute(ATTR))) {
        const textClean = clean(text, TEXT_LIM);
        if (informative(el, tag, role || implicitRole(el, tag), textClean, ctx)) {
          kind = 2;
          infoCount += 1;
        }
      }
      if (tag === 'label') labelText.set(el, clean(text, TEXT_LIM));
      if (tag === 'h1' && stats.h1.length < 3 && text.trim()) stats.h1.push(clean(text, 120));
      if (kind !== 0) {
        records.push({ el, tag, role, kind, proxy, order: myOrder, rect: r, ctx: c, zone: c.zone, text, scrollable });
        if (kind === 1 && (tag === 'input' || tag === 'textarea' || el.isContentEditable)) {
          const t = (el.type || '').toLowerCase();
          if (tag !== 'input' || TEXTLIKE_INPUTS.has(t)) stats.editable += 1;
          if (t === 'search' || role === 'searchbox' ||
              /^(q|query|search|s|k|keyword|keywords)$/i.test(el.getAttribute('name') || '')) {
            stats.search_inputs += 1;
          }
        }
      }
      return block ? ' ' + text + ' ' : text;
    }

    // ---------------------------------------------------------------------------------------------------
    // Walk
    const topCtx = {
      doc: document, win: window, root: document, ox: A.offset[0], oy: A.offset[1],
      clip: A.clip || [A.offset[0], A.offset[1], window.innerWidth, window.innerHeight],
      framePath: A.framePath, frameCounter: { n: 0 }, chain: [], zone: 'main', sectioning: false, fixed: false,
      fixedPos: false, inInter: false, inInfo: false, hclip: null, hclipStatic: false, bg: A.bg,
      sx: window.scrollX, sy: window.scrollY, crossOrigin: !!A.crossOrigin,
      vw: window.innerWidth || 1, vh: window.innerHeight || 1,
    };
    if (document.documentElement) walkEl(document.documentElement, topCtx, '');
    const T_WALK = performance.now();

    // ---------------------------------------------------------------------------------------------------
    // Ids: reuse the attribute when it is ours and unique in this pass; otherwise take the next counter value.
    records.sort((a, b) => a.order - b.order);
    const used = new Set();
    const fresh = [];
    for (const rec of records) {
      const v = rec.el.getAttribute(ATTR);
      const n = v && /^\d{1,9}$/.test(v) ? parseInt(v, 10) : NaN;
      if (!Number.isNaN(n) && n > 0 && !used.has(n)) {
        rec.id = n;
        used.add(n);
        if (n >= state.next && n < A.base + 100000) state.next = n + 1;
      } else {
        fresh.push(rec);
      }
    }
    for (const rec of fresh) {
      let n = state.next++;
      while (used.has(n)) n = state.next++;
      rec.el.setAttribute(ATTR, String(n));
      rec.id = n;
      used.add(n);
    }

    // ---------------------------------------------------------------------------------------------------
    // Describe each marked element.
    function refText(root, id) {
      let t = null;
      try { t = (root.getElementById ? root.getElementById(id) : null) || document.getElementById(id); } catch (e) { t = null; }
      if (!t) return '';
      if (labelText.has(t)) return labelText.get(t);
      return clean(t.textContent || '', 200);
    }

    function accName(rec, ctl, role) {
      const el = rec.el;
      const root = el.getRootNode();
      const lb = el.getAttribute('aria-labelledby');
      if (lb) {
        const s = clean(lb.split(/\s+/).map((id) => refText(root, id)).join(' '), 100);
        if (s) return s;
      }
      const al = el.getAttribute('aria-label');
      if (al && al.trim()) return clean(al, 100);
      if (rec.kind === 3) return clean(el.getAttribute('title') || '', 100); // a scroller is not named by its content
      const ctag = ctl.localName;
      if (ctl !== el) return clean(rec.text, 100) || clean(ctl.getAttribute('aria-label') || '', 100);
      if (ctag === 'input' || ctag === 'select' || ctag === 'textarea') {
        const t = (ctl.type || '').toLowerCase();
        if (ctag === 'input' && (t === 'button' || t === 'submit' || t === 'reset')) {
          return clean(ctl.value || (t === 'submit' ? 'Submit' : t === 'reset' ? 'Reset' : ''), 100);
        }
        if (ctag === 'input' && t === 'image') return clean(ctl.getAttribute('alt') || ctl.value || 'Submit', 100);
        const parts = [];
        if (ctl.labels) {
          for (const l of ctl.labels) {
            const s = labelText.has(l) ? labelText.get(l) : clean(l.textContent || '', 100);
            if (s) parts.push(s);
          }
        }
        const s = clean(parts.join(' '), 100);
        if (s) return s;
        return clean(ctl.getAttribute('title') || ctl.getAttribute('placeholder') ||
          ctl.getAttribute('aria-placeholder') || '', 100);
      }
      if (ctag === 'img') return clean(ctl.getAttribute('alt') || ctl.getAttribute('title') || '', 100);
      const own = clean(rec.text, 100);
      if (own) return own;
      // icon-only controls: an image's alt, an svg <title>, a labelled descendant
      try {
        const img = el.querySelector('img[alt]:not([alt=""]), [aria-label], svg title');
        if (img) {
          const s = img.localName === 'title' ? img.textContent : (img.getAttribute('aria-label') || img.getAttribute('alt'));
          if (s && s.trim()) return clean(s, 100);
        }
      } catch (e) { /* ignore */ }
      return clean(el.getAttribute('title') || '', 100);
    }

    function attrsOf(el) {
      const out = {};
      const at = el.attributes;
      for (let i = 0; i < at.length && i < 60; i++) {
        const n = at[i].name;
        if (n === 'name' || n === 'id' || n === 'title' || n === 'alt' || n === 'role' || n === 'for' ||
            n === 'action' || n === 'target' || n === 'download' || n === 'data-testid' || n === 'itemprop' ||
            n === 'autocomplete' || n === 'maxlength' || n === 'min' || n === 'max' || n === 'pattern' ||
            n === 'required' || n === 'readonly' || (n.startsWith('aria-') && n !== 'aria-hidden')) {
          out[n] = clean(at[i].value, 120);
        }
      }
      if (el.hasAttribute('href')) {
        const h = typeof el.href === 'string' ? el.href : el.getAttribute('href');
        out.href = (h || '').slice(0, 500);
      }
      return out;
    }

    function occludedAt(rec, bbox, clip) {
      const vis = intersect(clip, bbox);
      if (vis[2] <= 0 || vis[3] <= 0) return false;
      const px = vis[0] + vis[2] / 2;
      const py = vis[1] + vis[3] / 2;
      const el = rec.el;
      const root = el.getRootNode();
      const lx = px - rec.ctx.ox;
      const ly = py - rec.ctx.oy;
      let hit = null;
      try {
        hit = typeof root.elementFromPoint === 'function' ? root.elementFromPoint(lx, ly) : rec.ctx.doc.elementFromPoint(lx, ly);
      } catch (e) { hit = null; }
      if (hit && hit !== el && !el.contains(hit) && !hit.contains(el)) {
        const ctl = rec.proxy || el;
        const ok = (hit.localName === 'label' && hit.control === ctl) || (rec.proxy && hit === rec.proxy);
        if (!ok) return true;
      }
      // Inside same-origin iframes: the iframe itself must be what the parent document shows at that point.
      for (const link of rec.ctx.chain) {
        let h = null;
        try {
          const rr = link.root;
          h = typeof rr.elementFromPoint === 'function' ? rr.elementFromPoint(px - link.ox, py - link.oy) : null;
        } catch (e) { h = null; }
        if (h && h !== link.iframe) return true;
      }
      return false;
    }

    const elements = [];
    const orders = [];
    for (const rec of records) {
      try {
        const el = rec.el;
        const ctl = rec.proxy || el;
        const ctag = ctl.localName;
        const role = rec.proxy ? implicitRole(ctl, ctag) : (rec.role || implicitRole(el, rec.tag));
        const itype = ctag === 'input' ? (ctl.type || 'text').toLowerCase() : '';
        const r = rec.rect;
        const bbox = [r1(r.left + rec.ctx.ox), r1(r.top + rec.ctx.oy), r1(r.width), r1(r.height)];
        const clip = rec.ctx.clip;
        const vis = intersect(clip, bbox);
        const inView = vis[2] > 0 && vis[3] > 0;
        let value = '';
        let options;
        if (ctag === 'select') {
          const opts = Array.from(ctl.options || []);
          options = opts.slice(0, 100).map((o) => clean(o.label || o.text || '', 80));
          value = clean(opts.filter((o) => o.selected).map((o) => o.label || o.text).join(', '), 200);
        } else if (ctag === 'textarea') {
          value = clean(ctl.value || '', 200);
        } else if (ctag === 'input' && !/^(checkbox|radio|button|submit|reset|image|file)$/.test(itype)) {
          value = ctl.value || '';
          const ac = (ctl.getAttribute('autocomplete') || '').toLowerCase();
          if (itype === 'password' || ac === 'cc-number' || ac === 'cc-csc' || ac === 'current-password' ||
              ac === 'new-password') {
            value = value ? '********' : '';
          } else {
            value = clean(value, 200);
          }
        } else if (ctag === 'input' && itype === 'file') {
          value = clean(Array.from(ctl.files || []).map((f) => f.name).join(', '), 200);
        }
        let disabled = false;
        try { disabled = ctl.matches(':disabled'); } catch (e) { disabled = false; }
        if (!disabled && el.closest && el.closest('[aria-disabled="true"]')) disabled = true;
        let checked = null;
        if (ctag === 'input' && (itype === 'checkbox' || itype === 'radio')) checked = !!ctl.checked;
        else if (el.hasAttribute('aria-checked')) checked = el.getAttribute('aria-checked') !== 'false';
        else if (el.hasAttribute('aria-pressed')) checked = el.getAttribute('aria-pressed') !== 'false';
        let selected = null;
        if (el.hasAttribute('aria-selected')) selected = el.getAttribute('aria-selected') === 'true';
        else if (ctag === 'option') selected = !!ctl.selected;
        let editable = false;
        if (!disabled) {
          if (ctag === 'textarea') editable = !ctl.readOnly;
          else if (ctag === 'input') editable = TEXTLIKE_INPUTS.has(itype) && !ctl.readOnly;
          else if (el.isContentEditable) editable = true;
        }
        const isText = ctag === 'input' || ctag === 'select' || ctag === 'textarea';
        const out = {
          id: rec.id,
          tag: rec.tag,
          role,
          name: accName(rec, ctl, role),
          text: isText ? '' : clean(rec.text, A.textChars),
          value,
          placeholder: clean(ctl.getAttribute('placeholder') || ctl.getAttribute('aria-placeholder') || '', 100),
          input_type: itype,
          attrs: attrsOf(el),
          bbox,
          zone: rec.zone,
          fixed: !!rec.ctx.fixed,
          in_viewport: inView,
          occluded: inView ? occludedAt(rec, bbox, clip) : false,
          disabled,
          checked,
          selected,
          editable,
          interactive: rec.kind === 1 || rec.kind === 3,
          frame: rec.ctx.framePath,
          cross_origin: !!rec.ctx.crossOrigin,
        };
        if (options) out.options = options;
        if (rec.scrollable) out.attrs.scrollable = rec.scrollable;
        elements.push(out);
        orders.push(rec.order);
      } catch (e) {
        // one odd element must not cost the whole observation
      }
    }

    // Where each frame's own elements belong in this pass's list (document order), for frames marked later.
    for (const f of frames) {
      let i = 0;
      while (i < orders.length && orders[i] < f.at) i++;
      f.index = i;
      delete f.at;
    }

    // ---------------------------------------------------------------------------------------------------
    // Scroll position: the document, or the largest inner scroller when the document itself does not scroll.
    const se = document.scrollingElement || document.documentElement;
    let scroll = {
      y: r1(window.scrollY), height: r1(se ? se.scrollHeight : 0), viewport_height: r1(window.innerHeight),
    };
    if (scroll.height <= scroll.viewport_height + 2 && stats.scrollers.length) {
      let best = null;
      let area = 0;
      for (const s of stats.scrollers) {
        const a = s.clientWidth * s.clientHeight;
        if (a > area) { area = a; best = s; }
      }
      if (best) scroll = { y: r1(best.scrollTop), height: r1(best.scrollHeight), viewport_height: r1(best.clientHeight) };
    }
    scroll.above_px = r1(Math.max(0, scroll.y));
    scroll.below_px = r1(Math.max(0, scroll.height - scroll.y - scroll.viewport_height));
    delete stats.scrollers;

    let pageTextOut = pageText.join('').replace(/[ \t\u00a0]+/g, ' ').replace(/ ?\n[\s]*/g, '\n').trim();
    if (pageTextOut.length > A.pageTextChars) pageTextOut = pageTextOut.slice(0, A.pageTextChars);
    return JSON.stringify({
      ok: true,
      document_id: state.doc,
      url: location.href,
      title: clean(document.title || '', 200),
      ready_state: document.readyState,
      elements,
      frames,
      page_text: pageTextOut,
      stats,
      scroll,
      truncated,
      visited,
      ms: Math.round(performance.now() - T0),
      t_walk: Math.round(T_WALK - T0),
      t_describe: Math.round(performance.now() - T_WALK),
    });
  } catch (e) {
    return JSON.stringify({ ok: false, error: String((e && e.message) || e), url: String(location.href), ms: Math.round(performance.now() - T0) });
  }
}
