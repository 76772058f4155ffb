// Part of quote.js (included at its top level, after page_basics.js): the part of a block a quote belongs to.
// A block of several headings (a flat page: 'Plus' ... 'Plus Family' ...) speaks of the quote only in its own
// heading's part: the text before the first heading, each heading above the quote with its lead (each level's
// last), and the text from the deepest of them to the next heading as high. Read from the shown text (hidden
// text is no part); null when the block holds fewer than two shown headings or its text does not show them.
const level = (h) => Number(h.tagName[1]);
const headingPart = (n, start) => {
  const heads = n.querySelectorAll ? [...n.querySelectorAll("h1,h2,h3,h4,h5,h6")].filter(visible) : [];
  if (heads.length < 2 || heads.some((h) => h.contains(start))) return null;
  const lines = (n.innerText || "").split("\n").map(norm).filter(Boolean);
  const at = [];
  for (const h of heads) {
    const i = lines.indexOf(norm(h.innerText), at.length ? at[at.length - 1] + 1 : 0);
    if (i < 0) return null;
    at.push(i);
  }
  const k = heads.map((h) => !!(h.compareDocumentPosition(start) & Node.DOCUMENT_POSITION_FOLLOWING)).lastIndexOf(true);
  let chain = [];
  for (let i = 0; i <= k; i++) chain = chain.filter((c) => level(heads[c]) < level(heads[i])).concat([i]);
  const lead = (i) => lines.slice(at[i], i + 1 < heads.length ? at[i + 1] : lines.length).join(" ");
  const deepest = chain.length ? chain[chain.length - 1] : -1;
  const next = deepest < 0 ? 0 : heads.findIndex((h, i) => i > deepest && level(h) <= level(heads[deepest]));
  const own = deepest < 0 ? [] : lines.slice(at[deepest], next >= 0 ? at[next] : lines.length);
  return [lines.slice(0, at[0]).join(" "), ...chain.slice(0, -1).map(lead), own.join(" ")].join(" ");
};
