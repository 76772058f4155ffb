    // --- part 5 of the marking pass: scroll position and the JSON result ------------------------------
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

    // The snapshot the next pass compares against (never after a pass cut short by time: the next may read more).
    if (snapOk && !brief && !(stop && /^time/.test(stop.reason)) && snapHosts.length <= 500) {
      const snap = { key: KEY, pass: state.pass, docs: snapDocs, scrollers: snapScrollers, hosts: snapHosts,
        controls: snapControls };
      snap.sig = snapSig(snap);
      if (snap.sig !== null) state.snap = snap;
    }

    let pageTextOut = pageText.join('').replace(/[ \t\u00a0]+/g, ' ').replace(/ ?\n[\s]*/g, '\n').trim();
    if (pageTextOut.length > A.pageTextChars) pageTextOut = pageTextOut.slice(0, A.pageTextChars);
    // Hand-over by difference: an element described exactly as in the pass the caller kept (``A.have``: its
    // document and pass number) goes over as its id alone, and the caller takes its kept description.
    const before = state.out;
    const diff = !!(before && Array.isArray(A.have) && A.have[0] === state.doc && A.have[1] === before.pass);
    const described = new Map();
    const parts = new Array(elements.length);
    for (let i = 0; i < elements.length; i++) {
      const json = JSON.stringify(elements[i]);
      described.set(elements[i].id, json);
      parts[i] = diff && before.byId.get(elements[i].id) === json ? String(elements[i].id) : json;
    }
    state.out = { pass: state.pass, byId: described };
    const head = JSON.stringify({
      ok: true,
      document_id: state.doc,
      pass: state.pass,
      origin: ORIGIN,
      url: location.href,
      title: clean(document.title || '', 200),
      ready_state: document.readyState,
      frames,
      page_text: pageTextOut,
      stats,
      scroll,
      truncated,
      visited,
      blocks: blockOut,
      counts: Object.assign(counts, {
        document: document.getElementsByTagName('*').length, visited, marked: elements.length, stop, brief,
        max_elements: A.maxElements, max_info: A.maxInfo,
      }),
      ms: Math.round(performance.now() - T0),
      t_walk: Math.round(T_WALK - T0),
      t_describe: Math.round(performance.now() - T_WALK),
    });
    return head.slice(0, -1) + ',"elements":[' + parts.join(',') + ']}';
  } catch (e) {
    return JSON.stringify({ ok: false, error: String((e && e.message) || e), url: String(location.href), ms: Math.round(performance.now() - T0) });
  }
}
