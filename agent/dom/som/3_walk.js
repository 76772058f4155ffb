    // --- part 3 of the marking pass: the walk over the flat tree (shadow roots, slots, same-origin frames)
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
          // preformatted text keeps its lines (a .txt file's lines are its blocks)
          pt(/\n/.test(s) && /^(pre|pre-wrap|pre-line|break-spaces)$/.test((st && st.whiteSpace) || '') ? s.split('\n').map(collapse).join('\n') : c);
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
      try { installWatch(win); snapDocs.push({ el, doc }); } catch (e) { snapOk = false; }
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

    // Where the walk is, in top-document pixels from the top of the page (for "stopped at y=...").
    function pageY(el, ctx) {
      try { return Math.round(el.getBoundingClientRect().top + ctx.oy + ctx.sy); } catch (e) { return 0; }
    }
    function stopWalk(reason, el, ctx) {
      truncated = true;
      if (!stop) stop = { reason, y: pageY(el, ctx), at_candidate: counts.candidates };
    }
    // An element skipped as invisible, with everything inside it (counted, never marked).
    function hide(el) {
      let n = 1;
      try { n += el.getElementsByTagName('*').length; } catch (e) { /* foreign node */ }
      counts.hidden += n;
      return '';
    }

    // A child context: one object literal of a fixed shape (Object.assign of ~25 keys cost an eighth of the walk).
    function derive(c) {
      return {
        doc: c.doc, win: c.win, root: c.root, ox: c.ox, oy: c.oy, clip: c.clip, framePath: c.framePath,
        frameCounter: c.frameCounter, chain: c.chain, zone: c.zone, sectioning: c.sectioning, fixed: c.fixed,
        fixedPos: c.fixedPos, inInter: c.inInter, inInfo: c.inInfo, hclip: c.hclip, hclipStatic: c.hclipStatic,
        bg: c.bg, sx: c.sx, sy: c.sy, crossOrigin: c.crossOrigin, vw: c.vw, vh: c.vh,
      };
    }

    function walkEl(el, ctx, pcursor) {
      const tag = el.localName;
      if (tag === 'br') { ptBreak(); return ' '; } // a line break is no join: 'course<br>Order' is two lines
      if (SKIP.has(tag)) {
        if (tag === 'object' && /pdf/i.test(el.getAttribute('type') || '')) stats.pdf = true;
        return '';
      }
      if (++visited > A.maxNodes) { stopWalk('node limit ' + A.maxNodes, el, ctx); return ''; }
      if ((visited & 127) === 0 && A.timeBudgetMs > 0 && performance.now() - T0 > A.timeBudgetMs) {
        stopWalk('time budget ' + Math.round(A.timeBudgetMs) + ' ms', el, ctx);
        return '';
      }
      if (el.getAttribute('aria-hidden') === 'true') return hide(el);
      let st;
      try { st = ctx.win.getComputedStyle(el); } catch (e) { return ''; }
      // Each computed-style read costs ~1 µs through the bindings: read each property once.
      const display = st.display;
      if (display === 'none') return hide(el);
      const opacity = st.opacity;
      if (opacity !== '1' && parseFloat(opacity) < 0.1) return hide(el);
      const pos = st.position;
      const ovx = st.overflowX;
      const ovy = st.overflowY;
      const contents = display === 'contents';
      if (ovx !== 'visible' || ovy !== 'visible') snapScrollers.push(el); // scrolled without an event seen yet
      if (st.contentVisibility === 'hidden') return hide(el); // hidden="until-found": contents not rendered
      const r = el.getBoundingClientRect();
      let hclip = ctx.hclip;
      if (!contents) {
        const clips = ovx !== 'visible' || ovy !== 'visible';
        if (clips && (r.width < 3 || r.height < 3)) return hide(el);
        if ((pos === 'absolute' || pos === 'fixed') && clipIsZero(st.clip)) return hide(el);
        const cp = st.clipPath;
        if (cp !== 'none' && cp && RX_CLIPPATH.test(cp)) return hide(el);
        if (pos === 'fixed') hclip = null;
        else if (pos === 'absolute' && ctx.hclipStatic) hclip = null;
        if (r.width > 0 || r.height > 0) {
          if (pos === 'fixed' || ctx.fixedPos) {
            if (r.right <= 0 || r.bottom <= 0) return hide(el);
          } else if (r.right + ctx.sx <= 0 || r.bottom + ctx.sy <= 0) {
            return hide(el);
          }
          if (hclip && r.width > 0 && r.height > 0) {
            const ix = intersect(hclip, [r.left, r.top, r.width, r.height]);
            if (ix[2] <= 0 || ix[3] <= 0) return hide(el);
          }
        } else if (typeof el.checkVisibility === 'function' && !el.checkVisibility()) {
          return hide(el);
        }
      }
      const myOrder = order++;
      const role = explicitRole(el);
      const visibility = st.visibility;

      // Derive the child context only when something changes (most elements change nothing).
      let c = ctx;
      const zone = zoneOf(el, tag, role, pos, ctx);
      if (zone !== ctx.zone) { c = derive(ctx); c.zone = zone; }
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
        if (c === ctx) c = derive(ctx);
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

      if ((tag === 'input' || tag === 'select' || tag === 'textarea') && el.getRootNode() !== ctx.doc) snapControls.push(el);
      const visibleSelf = !contents && visibility === 'visible' && r.width >= 2 && r.height >= 2;
      const cursor = st.cursor;
      let kind = 0; // 1 interactive, 2 informative
      let proxy = null;
      if (visibleSelf) {
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
          proxy = standInSelect(el); // a custom dropdown drawn over a hidden <select>: it stands for the select
        }
      }
      if (kind === 1 && !c.inInter) {
        if (c === ctx) c = derive(ctx);
        c.inInter = true;
      }
      const block = blockish(display);
      if (block === 1) ptBreak(); else if (block === 2) pt(' ');
      const recStart = records.length;
      const overStart = counts.over_cap + counts.info_over_cap;
      let text = '';
      if (!NO_CHILD_TEXT.has(tag)) {
        // children of a label or heading never become informative elements of their own
        if (kind === 0 && !c.inInfo && (tag === 'label' || HEADING_TAGS.has(tag) || INFO_ROLES.has(role))) {
          if (c === ctx) c = derive(ctx);
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
      if (kind === 0 && scrollable) kind = 3;
      let prose = false;
      if (kind === 0 && visibleSelf && text && !ctx.inInter && !ctx.inInfo) {
        // the walk's text is collapsed node by node already: trimming is all ``informative`` needs
        const bare = records.length === recStart && counts.over_cap + counts.info_over_cap === overStart;
        const info = informative(el, tag, role || implicitRole(el, tag), text.trim(), ctx, display, bare);
        if (info && infoCount >= A.maxInfo && !el.hasAttribute(ATTR)) {
          counts.candidates += 1;
          counts.info_over_cap += 1;
          if (counts.info_cap_y === undefined) counts.info_cap_y = pageY(el, ctx);
        } else if (info) {
          kind = 2;
          prose = info === 'prose';
          infoCount += 1;
        }
      }
      if (tag === 'label') labelText.set(el, clean(text, TEXT_LIM));
      if (tag === 'h1' && stats.h1.length < 3 && text.trim()) stats.h1.push(clean(text, 120));
      if (kind !== 0) counts.candidates += 1;
      if (kind !== 0 && records.length >= A.maxElements) {
        counts.over_cap += 1;
        if (counts.cap_y === undefined) counts.cap_y = pageY(el, c);
      } else if (kind !== 0) {
        records.push({ el, tag, role, kind, proxy, order: myOrder, rect: r, ctx: c, zone: c.zone, text, scrollable, prose });
        if (kind === 1 && (tag === 'input' || tag === 'textarea' || el.isContentEditable)) {
          const t = (el.type || '').toLowerCase();
          if (tag !== 'input' || TEXTLIKE_INPUTS.has(t)) stats.editable += 1;
          if (t === 'search' || role === 'searchbox' ||
              /^(q|query|search|s|k|keyword|keywords)$/i.test(el.getAttribute('name') || '')) {
            stats.search_inputs += 1;
          }
        }
      }
      // The small block around marked elements (card, row, list item, label and value): the largest ancestor
      // whose text is short. Post-order, so an outer block that still qualifies overwrites an inner one.
      const marked = records.length - recStart;
      if (marked > 0 && marked <= 16 && block !== 0 && text.length <= A.blockChars * 1.5 && tag !== 'html' &&
          tag !== 'body' && tag !== 'main') {
        const blockText = clean(text, A.blockChars + 1);
        if (blockText && blockText.length <= A.blockChars) {
          for (let i = recStart; i < records.length; i++) records[i].block = myOrder;
          blocks[myOrder] = blockText;
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

