// Small helpers shared by effects.js and quote.js (each includes this file at the top of its function): the
// page's text squeezed and lower-cased, whether an element shows, its parent across shadow roots, and the
// HTTP status of the document's own response (0 when the browser does not say).
const norm = (s) => (s || "").replace(/\s+/g, " ").trim();
const low = (s) => norm(s).toLowerCase();
const visible = (el) => {
  if (!el || !el.getClientRects || el.getClientRects().length === 0) return false;
  if (el.checkVisibility) return el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const st = getComputedStyle(el);
  return st.visibility !== "hidden" && st.display !== "none";
};
const parentOf = (el) => el.parentElement || (el.getRootNode && el.getRootNode().host) || null;
const navStatus = () => {
  try {
    const nav = performance.getEntriesByType("navigation")[0];
    return nav && nav.responseStatus ? nav.responseStatus : 0;
  } catch (e) {
    return 0;
  }
};
