// Part of quote.js (included at its top level, after its helpers): a plain-text document (a .txt file the
// browser shows in one <pre>) has no elements to tell its parts apart, so its lines are its blocks. A line that
// names the subject with words added, where another line names it without them, is a look-alike ('Harbour lamp
// Pro: £79.00' below 'Harbour lamp'); a line under a heading line of other items ('You may also like') in a
// document about the subject is a side block; a line naming nothing is read under its nearest heading line.
// null when the element is no plain-text document's, or no line of it holds the quote.
const SIDE_LINE = /^(?:you (?:may|might) also (?:like|need)|related\b|see also|similar\b|customers (?:also|who)|people (?:also|who)|recommended|more from|other (?:products|items|models)|also available|compare with|sponsored|advert)/;
const LABEL_WORDS = /^(?:price|prices|cost|costs|now|only|was|sale|offer|rrp|total|fee|rate|each|per|from|inc|incl|vat|is|are|a|an)$/;
// The few words a line gives before the quote, when they name the subject ('Harbour lamp Pro: £79.00', 'Harbour
// lamp Pro £79.00'): the line's item's name, as written, up to a bracket or a comma ('Harbour lamp (large)' is
// the lamp); '' for a sentence, which says more than a name.
const lineName = (line) => {
  const text = norm(line), at = low(line).search(bounded);
  if (at < 0) return "";
  const core = text.slice(0, at).split(/[(,]/)[0];
  const named = /[:|–—-]\s*$/.test(text.slice(0, at)) ||
    (tokens(core).length <= 4 && !tokens(low(line).slice(at).replace(bounded, " ")).length);
  return named && tokens(core).length <= 6 && holds(core) ? core : "";
};
// The words a name adds to the subject; in the subject's own part of the page (under its heading) only a model's
// name counts ('Harbour lamp Pro', 'XL'), not what is said of the lamp itself ('Harbour lamp in stock', 'weight').
const addedWords = (name, ownPart) => extraWords(name).filter((w) => /^\p{L}{2,}$/u.test(w) && !LABEL_WORDS.test(w) &&
  (!ownPart || ((m) => !!m && m[1] !== m[1].toLowerCase())(name.match(new RegExp(`(?<![\\p{L}\\p{N}])(${w})`, "iu")))));
// Under the page's own heading (no other heading between it and the element)?
const underH1 = (el) => {
  const heads = [...document.querySelectorAll("h1,h2,h3,h4,h5,h6")].filter((h) => !h.contains(el) &&
    (h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING));
  return !heads.length || heads[heads.length - 1].tagName === "H1";
};
// A block that is no list's item, whose line names a look-alike of the page's own subject (the heading names
// it bare, or a paragraph does without those words): 'Harbour lamp Pro: £79.00' on the Harbour lamp's page.
const lineLookAlike = (start) => {
  const line = (start.innerText || "").split("\n").find((l) => hasQ(l)) || "";
  const extra = addedWords(lineName(line), underH1(start));
  const h1 = document.querySelector("h1");
  const alone = (el) => !el.contains(start) && !start.contains(el) && holds(el.innerText || "") &&
    !extra.some((w) => low(el.innerText || "").includes(w));
  return extra.length > 0 && ((h1 && !h1.contains(start) && bareName(h1.innerText)) ||
    [...document.querySelectorAll("main p, article p, [role=main] p")].some(alone));
};
const headingLine = (l) => !!l && l.length <= 80 && /\p{L}/u.test(l) && !/[.!?,;]$/.test(l) && !/:\s*\S/.test(l) &&
  !/^[-*•]/.test(l) && !shapeOf(l);
const textVerdict = (el) => {
  if (el.tagName !== "PRE" || !/^text\/plain/.test(document.contentType || "") || !words.length) return null;
  const lines = (el.innerText || "").split("\n").map(norm);
  const first = lines.find(Boolean) || "";
  const lineVerdict = (i) => {
    const line = lines[i];
    const at = { block: `line ${i + 1}`, block_text: line.slice(0, 300) };
    let head = -1;
    for (let j = i - 1; j >= 0 && head < 0; j--) if (headingLine(lines[j])) head = j;
    if (head >= 0 && SIDE_LINE.test(low(lines[head])) && holds(first) && lines.indexOf(first) < head) {
      return { ok: false, ...at, why: `it sits under '${lines[head].slice(0, 60)}', a block of other items, in a document about the subject` };
    }
    // the line's own name (the few words before the value), or else its heading line's, must name the subject and
    // add no words to it that another line leaves out (a sentence naming it says more than a name: no look-alike)
    const own = holds(line);
    if (own && !lineName(line)) return { ok: true, ...at };
    const name = own ? lineName(line) : head >= 0 && holds(lines[head]) ? lines[head] : null;
    if (name === null) {
      return head > 0 || (head === 0 && lines.indexOf(first) !== head)
        ? { ok: false, ...at, why: `it sits under a heading line that does not name the subject ('${lines[head].slice(0, 60)}')` }
        : null;
    }
    const extra = addedWords(name, head < 0 || lines.indexOf(first) === head);  // (the document's own part)
    const alone = extra.length > 0 && lines.some((l, k) => k !== i && (own || k !== head) && holds(l) && !extra.some((w) => low(l).includes(w)));
    return alone ? { ok: false, ...at, why: LOOK_ALIKE } : { ok: true, ...at };
  };
  const verdicts = lines.map((l, i) => (hasQ(l) ? lineVerdict(i) : undefined)).filter((v) => v !== undefined);
  if (!verdicts.length || verdicts.every((v) => v === null)) return null;
  return verdicts.find((v) => v && v.ok) || verdicts.find((v) => v) || null;
};
