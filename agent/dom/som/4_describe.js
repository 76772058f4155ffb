    // --- part 4 of the marking pass: stable ids and one description per marked element ---------------
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
        packHref(out, h || '');
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

    // The block around an element, sent once per block and only when it says more than the element itself.
    const blockOut = {};
    // A block whose text is its own marked element's text goes over as that element's id.
    const outByOrder = new Map();
    function addBlock(out, rec) {
      outByOrder.set(rec.order, out);
      if (rec.block === undefined) return;
      const t = blocks[rec.block];
      if (!t || t === out.text || t === out.name) return;
      const key = A.framePath + '#' + rec.block;
      out.block = key;
      const owner = outByOrder.get(rec.block);
      blockOut[key] = owner && owner.text === t ? owner.id : t;
    }

    // Shorter hand-over, restored field for field by agent/dom/wire.py: a link on this page's origin sends its
    // address without the origin (``~href``), and a name that is the element's text, or its start, is left out
    // or sent as a length (n: text[:n]; -n: text[:n] + '…'; only for text without surrogate pairs, so lengths
    // count the same in Python).
    const ORIGIN = location.origin && location.origin !== 'null' ? location.origin : '';
    function packHref(attrs, h) {
      h = h.slice(0, 500);
      if (ORIGIN && h.startsWith(ORIGIN + '/')) attrs['~href'] = h.slice(ORIGIN.length);
      else attrs.href = h;
    }
    const RX_SURROGATE = /[\uD800-\uDFFF]/;
    function packName(out, name, text) {
      if (name && text && !RX_SURROGATE.test(text)) {
        if (name === text) return;
        if (name.length < text.length && text.startsWith(name)) { out.name = name.length; return; }
        if (name.length >= 2 && name.endsWith('…') && text.startsWith(name.slice(0, -1))) {
          out.name = 1 - name.length;
          return;
        }
      }
      out.name = name;
    }

    const elements = [];
    const orders = [];
    // Past this point every remaining element gets the short description (no name computation, attributes
    // or occlusion test): all marked elements are listed, and the pass ends inside its time bound.
    const describeBy = A.timeBudgetMs > 0 ? T0 + A.timeBudgetMs * 1.2 : Infinity;
    let brief = 0;
    for (let i = 0; i < records.length; i++) {
      const rec = records[i];
      try {
        if ((i & 63) === 0 && brief === 0 && performance.now() > describeBy) brief = records.length - i;
        if (brief) throw new Error('time');
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
        // Fields at their default value ('', false, null, {}, zone 'main') are left out: the result is a third smaller to
        // hand over, and agent/dom/wire.py puts them back (ELEMENT_DEFAULTS).
        const name = accName(rec, ctl, role);
        const out = { id: rec.id, tag: rec.tag, role, bbox };
        if (rec.zone !== 'main') out.zone = rec.zone;
        if (inView) out.in_viewport = true;
        if (rec.kind === 1 || rec.kind === 3) out.interactive = true;
        const text = isText ? '' : clean(rec.text, rec.prose ? A.proseChars : A.textChars);
        packName(out, name, text);
        if (text) out.text = text;
        if (value) out.value = value;
        const placeholder = clean(ctl.getAttribute('placeholder') || ctl.getAttribute('aria-placeholder') || '', 100);
        if (placeholder) out.placeholder = placeholder;
        if (itype) out.input_type = itype;
        const attrs = attrsOf(el);
        if (rec.scrollable) attrs.scrollable = rec.scrollable;
        for (const k in attrs) { out.attrs = attrs; break; }
        if (rec.ctx.fixed) out.fixed = true;
        if (inView && occludedAt(rec, bbox, clip)) out.occluded = true;
        if (disabled) out.disabled = true;
        if (checked !== null) out.checked = checked;
        if (selected !== null) out.selected = selected;
        if (editable) out.editable = true;
        if (rec.ctx.framePath) out.frame = rec.ctx.framePath;
        if (rec.ctx.crossOrigin) out.cross_origin = true;
        if (options) out.options = options;
        if (rec.prose) out.prose = true;
        addBlock(out, rec);
        elements.push(out);
        orders.push(rec.order);
      } catch (e) {
        // Out of time, or one odd element: it keeps its id and is listed with what the walk already knows.
        const r = rec.rect;
        const bbox = [r1(r.left + rec.ctx.ox), r1(r.top + rec.ctx.oy), r1(r.width), r1(r.height)];
        const vis = intersect(rec.ctx.clip, bbox);
        const out = {
          id: rec.id, tag: rec.tag, role: rec.role || implicitRole(rec.el, rec.tag), name: clean(rec.text, 100),
          text: '', value: '', placeholder: '', input_type: '', attrs: {}, bbox, zone: rec.zone, fixed: !!rec.ctx.fixed,
          in_viewport: vis[2] > 0 && vis[3] > 0, occluded: false, disabled: false, checked: null, selected: null,
          editable: false, interactive: rec.kind === 1 || rec.kind === 3, frame: rec.ctx.framePath,
          cross_origin: !!rec.ctx.crossOrigin, brief: true,
        };
        if (rec.el.hasAttribute('href')) packHref(out.attrs, String(rec.el.href || rec.el.getAttribute('href') || ''));
        addBlock(out, rec);
        elements.push(out);
        orders.push(rec.order);
      }
    }

    // Where each frame's own elements belong in this pass's list (document order), for frames marked later.
    for (const f of frames) {
      let i = 0;
      while (i < orders.length && orders[i] < f.at) i++;
      f.index = i;
      delete f.at;
    }

