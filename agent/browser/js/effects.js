// Reads what an action did, from the page itself. One function, two operations (arg.op):
//   "before": remember the target element and start watching the page (mutations, `invalid` events);
//   "after":  wait briefly for the DOM to go quiet, then report URL/title, the target's state and text blocks;
// (Where a quoted text sits is quote.js.)
// Everything is bounded (node and text caps) and plain JSON comes back.
async (arg) => {
  const MAX_NODES = 4000, MAX_TEXTS = 400, TEXT_CAP = 200;
  /*@include page_basics.js*/
  const deepFind = (selector) => {
    const stack = [document];
    while (stack.length) {
      const root = stack.pop();
      const hit = root.querySelector(selector);
      if (hit) return hit;
      for (const el of root.querySelectorAll("*")) if (el.shadowRoot) stack.push(el.shadowRoot);
    }
    return null;
  };
  const announced = (el) => {
    for (let n = el, i = 0; n && i < 8; n = parentOf(n), i++) {
      const role = (n.getAttribute && n.getAttribute("role")) || "";
      if (/^(alert|status|alertdialog|dialog)$/.test(role) || n.tagName === "DIALOG") return true;
      if (n.getAttribute && n.getAttribute("aria-live") && n.getAttribute("aria-live") !== "off") return true;
    }
    return false;
  };
  const targetState = (el) => {
    if (!el) return { found: false };
    let subject = el;
    if (el.tagName === "LABEL" && el.control) subject = el.control;
    else if (!/^(INPUT|SELECT|TEXTAREA|BUTTON|A)$/.test(el.tagName) && el.querySelectorAll) {
      const inner = el.querySelectorAll("select"); // a custom dropdown holding the hidden select it stands for
      if (inner.length === 1) subject = inner[0];
    }
    const tag = subject.tagName.toLowerCase();
    const type = (subject.getAttribute("type") || "").toLowerCase();
    const state = {
      found: true,
      connected: el.isConnected,
      visible: el.isConnected && visible(el),
      tag,
      type,
      role: subject.getAttribute("role") || "",
      name: norm(subject.getAttribute("aria-label") || subject.getAttribute("name") || subject.id || "").slice(0, 80),
      text: norm(el.innerText || el.textContent || "").slice(0, 120),
      disabled: !!subject.disabled || subject.getAttribute("aria-disabled") === "true",
    };
    if ("value" in subject && (tag === "input" || tag === "textarea" || tag === "select")) {
      const value = String(subject.value || "");
      state.secret = type === "password";
      state.value = state.secret ? "\u2022".repeat(Math.min(value.length, 24)) : value.slice(0, 200);
      state.value_len = value.length;
    } else if (subject.isContentEditable) {
      state.value = norm(subject.innerText).slice(0, 200);
    }
    if (type === "checkbox" || type === "radio") state.checked = !!subject.checked;
    else if (subject.hasAttribute("aria-checked")) state.checked = subject.getAttribute("aria-checked") === "true";
    if (tag === "select") state.selected = [...subject.selectedOptions].map((o) => norm(o.text)).slice(0, 10);
    else if (subject.hasAttribute("aria-selected")) state.selected = [String(subject.getAttribute("aria-selected") === "true")];
    if (subject.hasAttribute("aria-expanded")) state.expanded = subject.getAttribute("aria-expanded") === "true";
    if (subject.hasAttribute("aria-pressed")) state.pressed = subject.getAttribute("aria-pressed") === "true";
    if (subject.getAttribute("aria-invalid") === "true" || (subject.validity && !subject.validity.valid && subject.matches(":user-invalid"))) {
      state.invalid = norm(subject.validationMessage || "invalid").slice(0, 160);
    }
    return state;
  };
  const textBlocks = () => {
    const out = [], seen = new Set();
    const roots = [document.body || document.documentElement];
    let visited = 0;
    while (roots.length && out.length < MAX_TEXTS && visited < MAX_NODES) {
      const root = roots.pop();
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node && out.length < MAX_TEXTS && visited < MAX_NODES; node = walker.nextNode()) {
        visited++;
        if (node.nodeType === 1) {
          if (node.shadowRoot) roots.push(node.shadowRoot);
          continue;
        }
        const text = norm(node.nodeValue);
        if (text.length < 2) continue;
        const el = node.parentElement;
        if (!el || /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|OPTION)$/.test(el.tagName)) continue;
        const block = norm(el.innerText || text).slice(0, TEXT_CAP);
        if (!block || seen.has(el) || !visible(el)) continue;
        seen.add(el);
        const r = el.getBoundingClientRect();
        out.push({ t: block, y: Math.round(r.top + window.scrollY), x: Math.round(r.left), a: announced(el),
                   h: !!el.closest("h1,h2,h3,[role=heading]") });
      }
    }
    return out;
  };
  const rectOf = (el) => {
    if (!el || !el.isConnected) return null;
    const r = el.getBoundingClientRect();
    return [Math.round(r.left), Math.round(r.top + window.scrollY), Math.round(r.width), Math.round(r.height)];
  };

  if (arg.op === "before") {
    const el = arg.id == null ? null : deepFind(`[data-agent-id="${arg.id}"]`);
    window.__wfTarget = el;
    window.__wfToken = Math.random().toString(36).slice(2);
    window.__wfInvalid = [];
    window.__wfLastMutation = performance.now();
    if (!window.__wfWatching) {
      window.__wfWatching = true;
      document.addEventListener("invalid", (e) => {
        const t = e.target;
        (window.__wfInvalid = window.__wfInvalid || []).push(
          norm(((t && (t.labels && t.labels[0] ? t.labels[0].innerText + ": " : "")) || "") + (t && t.validationMessage || "invalid value")).slice(0, 160));
      }, true);
      new MutationObserver(() => { window.__wfLastMutation = performance.now(); })
        .observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    }
    return { token: window.__wfToken, url: location.href, title: document.title, target: targetState(el),
             rect: rectOf(el), texts: textBlocks(), status: navStatus() };
  }

  if (arg.op === "after") {
    const started = performance.now();
    const quiet = arg.quiet_ms || 120, cap = arg.max_wait_ms || 500;
    let settled = false;
    if (window.__wfLastMutation !== undefined) {
      while (performance.now() - started < cap) {
        if (performance.now() - window.__wfLastMutation >= quiet) { settled = true; break; }
        await new Promise((r) => setTimeout(r, 30));
      }
    } else {
      settled = document.readyState !== "loading";
    }
    const same = window.__wfToken !== undefined && window.__wfToken === arg.token;
    let el = same ? window.__wfTarget : null;
    if ((!el || !el.isConnected) && arg.id != null) {
      const again = deepFind(`[data-agent-id="${arg.id}"]`);
      if (again && same) el = again;
    }
    return { same_document: same, url: location.href, title: document.title,
             target: same && window.__wfTarget ? targetState(el) : { found: false },
             rect: same ? rectOf(el) : null, texts: textBlocks(), invalid: same ? (window.__wfInvalid || []).slice(0, 5) : [],
             settled: settled && document.readyState === "complete", status: navStatus() };
  }

  return null;
}
