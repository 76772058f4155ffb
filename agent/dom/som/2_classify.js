    // --- part 2 of the marking pass (agent/dom/som/*.js, joined in order): what an element is -----------
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

    // The one <select> a clickable custom dropdown stands for: inside it or beside it (up to two levels up),
    // and kept out of sight (hidden itself, or clipped by a zero-size wrapper). null for anything else.
    function standInSelect(el) {
      let scope = el;
      for (let up = 0; up < 3 && scope; up += 1, scope = scope.parentElement) {
        const selects = scope.querySelectorAll('select');
        if (selects.length > 1) return null;
        if (selects.length === 1) return selectKeptOutOfSight(selects[0]) ? selects[0] : null;
      }
      return null;
    }

    function selectKeptOutOfSight(sel) {
      if (!controlShown(sel)) return true;
      for (let a = sel.parentElement, n = 0; a && n < 3; a = a.parentElement, n += 1) {
        const s = a.ownerDocument.defaultView.getComputedStyle(a);
        const r = a.getBoundingClientRect();
        if ((s.overflowX !== 'visible' || s.overflowY !== 'visible') && (r.width < 3 || r.height < 3)) return true;
      }
      return false;
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

    // '' (not informative), 'info' (a short fact: heading, label, price, status) or 'prose' (text that can hold
    // an answer: a paragraph, list item, cell, definition, a block with text of its own). ``bare``: no marked
    // element inside, so the element's text would reach the model through nothing else.
    function informative(el, tag, role, text, ctx, display, bare) {
      if (!text) return '';
      if (role === 'heading' || /^h[1-6]$/.test(tag)) return text.length <= 300 ? 'info' : 'prose';
      if (INFO_ROLES.has(role)) return text.length <= 300 ? 'info' : 'prose';
      if (tag === 'label') return !el.control && text.length <= 200 ? 'info' : ''; // a control's label names it
      if (tag === 'legend' || tag === 'caption' || tag === 'figcaption' || tag === 'dt' ||
          tag === 'th') return text.length <= 200 ? 'info' : 'prose';
      const own = ownText(el);
      if (PROSE_TAGS.has(tag)) {
        if (own.length > 0 || bare) return 'prose';
      } else if (own.length >= 25 && blockish(display) === 1) {
        return 'prose'; // a block of its own text: plain-text documents, JSON, text in divs
      }
      if (text.length <= 40 && own && RX_PRICE.test(own)) return 'info';
      if (text.length <= 80) {
        const hint = (el.id || '') + ' ' + (el.getAttribute('class') || '') + ' ' + (el.getAttribute('itemprop') || '');
        if (hint.length > 1 && RX_INFO_HINT.test(hint) && !ctx.inInfo) return 'info';
      }
      return '';
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
      if (node.shadowRoot) {
        const tracker = node.ownerDocument.__wayfinderWatch;
        if (tracker && typeof tracker.watch === 'function') tracker.watch(node.shadowRoot);
        return node.shadowRoot.childNodes;
      }
      if (node.localName.indexOf('-') > 0) snapHosts.push(node); // a closed shadow root may lay it out anew
      return node.childNodes;
    }

