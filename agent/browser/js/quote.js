// Where a quoted text sits on the page: its enclosing block and whether that block (or the label of its list)
// names the goal's subject; with arg.lists, the sizes of the lists in the page's content. The answer judge's
// live-page check (agent.browser.effects.read_quote). Bounded (node caps); plain JSON comes back.
async (arg) => {
  const MAX_NODES = 4000;
  const SIDE_BLOCKS = "aside,nav,footer,[role=complementary],[role=navigation],[role=contentinfo]";
  /*@include page_basics.js*/
  // Where does `quote` sit, and does its block also name the subject?
  const words = (arg.subject || []).map((w) => low(w)).filter(Boolean);
  const need = Math.min(words.length, arg.need || words.length);
  // 'sundays' is named by a column headed 'Sunday': a plural subject word also matches its singular; a long
  // word, by another form of it at a word's start ('reopening' / 'reopens', 'published' / 'publishes')
  const stemOf = (w) => w.slice(0, w.length - 3);  // 8 letters or more: 'central' is no form of 'centre'
  const named = (t, w) => t.includes(w) || (w.includes("-") && t.replace(/-/g, " ").includes(w.replace(/-/g, " "))) || (w.length >= 4 && /[^su]s$/.test(w) && t.includes(w.slice(0, -1))) ||
    (w.length >= 8 && /^[a-z]+$/.test(w) && new RegExp("\\b" + stemOf(w)).test(t));
  const hits = (text) => { const t = low(text); return words.filter((w) => named(t, w)).length; };
  const must = (arg.must || []).map((w) => low(w)).filter((w) => words.includes(w));
  const holds = (text) => words.length === 0 || (hits(text) >= need && must.every((w) => named(low(text), w)));
  const q = low(arg.quote);
  // The quote as a whole token: "12" is not in "128 reviews", "$4.50" not in "$14.50".
  const esc = q.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const bounded = new RegExp((/^[\p{L}\p{N}]/u.test(q) ? "(?<![\\p{L}\\p{N}])" : "") + esc +
                             (/[\p{L}\p{N}]$/u.test(q) ? "(?![\\p{L}\\p{N}]|[.,]\\d)" : ""), "u");
  const hasQ = (text) => !!q && bounded.test(low(text));
  // Blocks that are never the page's content: side blocks, navigation, the site's banner and footer, dialogs
  // (a cookie notice); a block there answers only when it names the subject itself.
  const HARD = /^(ASIDE|NAV|FOOTER|DIALOG)$/, HARD_ROLE = /^(complementary|navigation|contentinfo|banner|dialog|alertdialog)$/;
  const hardBlock = (n) => HARD.test(n.tagName) || HARD_ROLE.test((n.getAttribute && n.getAttribute("role")) || "") ||
    (n.tagName === "HEADER" && !(n.parentElement && n.parentElement.closest("main,article,section")));
  const STOP = new Set(["the", "of", "and", "for", "with", "in", "on", "to", "by", "at", "an", "or", "from"]);
  const tokens = (text) => (low(text).match(/[\p{L}\p{N}]+/gu) || []).filter((t) => t.length > 1 && !STOP.has(t));
  const spanned = (row) => {
    // A row's cells include those spanning into it from rows above (rowspan): the Team plan's second row.
    const table = row.closest && row.closest("table");
    if (!table || row.tagName !== "TR") return "";
    const rows = [...table.rows], at = rows.indexOf(row), parts = [];
    for (let i = 0; i < at; i++) for (const c of rows[i].cells) if (c.rowSpan > 1 && i + c.rowSpan > at) parts.push(c.innerText || "");
    return parts.join(" ");
  };
  const itemText = (el) => (el.tagName === "TR" ? spanned(el) + " " + holidayIn(el) + " " : "") + (el.innerText || "");
  /*@include heading_part.js*/
  // A row whose dates take in the holiday the question names names it: a day of the row within a day of it, or it
  // between two of the row's days at most a month apart (pick-up and return, not the day the booking was made);
  // only when no other row of its table takes it in too
  const DAY = 864e5;
  const takesIn = (tr) => {
    const days = [...tr.cells].map((c) => dayOf(c.innerText || "")).filter((t) => t !== null).sort((a, b) => a - b);
    return (arg.holiday.days || []).map((d) => Date.parse(d)).some((h) =>
      days.some((t) => Math.abs(t - h) <= DAY) || days.some((t, i) => i > 0 && t - days[i - 1] <= 31 * DAY && days[i - 1] - DAY <= h && h <= t + DAY));
  };
  const holidayIn = (tr) => {
    const table = arg.holiday && tr.closest && tr.closest("table");
    if (!table || !takesIn(tr)) return "";
    return [...table.rows].filter((r) => r !== tr && !headerRow(r)).some(takesIn) ? "" : arg.holiday.name;
  };
  const sigOf = (c) => `${c.tagName}|${typeof c.className === "string" ? c.className : ""}`;
  const headerRow = (el) => el.tagName === "TR" && el.cells.length > 0 && [...el.cells].every((c) => c.tagName === "TH");
  // the cells of one row are parts of one item (the row), never rival items: 'Elm Street' does not compete
  // with the 'Thursday' beside it
  const likeItems = (el) => (el.parentElement ? [...el.parentElement.children].filter((c) => c !== el && sigOf(c) === sigOf(el) && !headerRow(c)) : []);
  const nameOf = (el) => {
    // An item's name: its heading, link or first cell (the text that is not the quote).
    for (const c of el.querySelectorAll("h1,h2,h3,h4,h5,h6,[itemprop=name],a,dt,th,td,strong,b")) {
      const t = norm(c.innerText);
      if (t && !hasQ(t)) return t;
    }
    return "";
  };
  const bareName = (text) => { const t = tokens(text); return t.length > 0 && holds(text) && t.every((w) => words.some((s) => named(w, s) || named(s, w))); };
  const extraWords = (text) => tokens(text).filter((w) => !words.some((s) => named(w, s) || named(s, w)));
  const rival = (item, labelled) => {
    // Another item of the same list naming more of the subject ("Team, North America" beside "Starter, North
    // America"): this item is not the one. An item named only with its list's label must also stand out: when
    // another names as much of the subject with words this one lacks (one row the plan, another the region),
    // none is proven.
    if (!words.length) return "";
    // items compete on the subject's own words ("support" is not named by a status "Supported"); a definition
    // is scored with its term
    const named = (el) => {
      const own = new Set(low(itemText(el) + " " + labelOf(el)).split(/[\s_/,;:()\-]+/).map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "")));
      return words.filter((w) => own.has(w) || own.has(w + "s") || (w.endsWith("s") && own.has(w.slice(0, -1))));
    };
    const mine = named(item);
    const others = likeItems(item).map(named);
    if (others.some((o) => o.length > mine.length)) return "another item of the same list names more of the subject";
    const apart = (o) => o.length === mine.length && o.some((w) => !mine.includes(w));
    if (labelled && mine.length > 0 && mine.length < words.length && others.some(apart)) {
      return "another item of the same list names as much of the subject, with other words";
    }
    return "";
  };
  let pageLow = null;  // the page's whole shown text, read once
  const pageText = () => pageLow === null ? (pageLow = low(document.body ? document.body.innerText : "")) : pageLow;
  const LOOK_ALIKE = "it sits in the item of a look-alike (its name adds words to the subject)";
  const lookAlike = (item) => {
    // An item whose name adds words to the subject ("Blue Widget Pro", "Trailhead 2 tent footprint") where the
    // page names the subject itself (its heading, another item called just that, or a line saying it without
    // those words: 'The Trailhead 2 tent itself is being re-weighed') is a look-alike, not the subject.
    if (!words.length) return false;
    const own = nameOf(item) || (item.tagName === "DD" ? labelOf(item) : "");
    const name = own || lineName((itemText(item).split("\n").find((l) => hasQ(l))) || "");
    // a name ending in a word the subject lacks is another thing of that name when the item says nothing of
    // what is asked of it ('Engines of the North exhibition book' for a concession ticket to the exhibition)
    const last = tokens(name).pop() || "";
    const said = low(itemText(item) + " " + document.title);
    if (own && holds(name + " " + document.title) && /^\p{L}{3,}$/u.test(last) &&
        extraWords(name).includes(last) && words.some((w) => !named(said, w) && named(pageText(), w))) return true;
    const extra = name && holds(name) ? (own ? extraWords(name) : addedWords(name, underH1(item))) : [];
    if (!extra.length) return false;
    const h1 = document.querySelector("h1");
    const alone = (el) => !el.contains(item) && !item.contains(el) && holds(el.innerText || "") &&
      !extra.some((w) => low(el.innerText || "").includes(w));
    return (h1 && bareName(h1.innerText)) || likeItems(item).some((c) => bareName(nameOf(c))) ||
      [...document.querySelectorAll("main p, article p, [role=main] p")].some(alone);
  };
  const labelOf = (el) => {
    // The text that labels a block from outside it: a caption, legend, aria label, a heading or dt before it.
    const parts = [];
    if (el.getAttribute) {
      parts.push(el.getAttribute("aria-label") || "");
      const by = el.getAttribute("aria-labelledby");
      if (by) for (const id of by.split(/\s+/)) { const l = document.getElementById(id); if (l) parts.push(l.innerText || ""); }
    }
    for (const sel of ["caption", "legend", "thead"]) { const c = el.querySelector && el.querySelector(`:scope > ${sel}`); if (c) parts.push(c.innerText || ""); }
    let prev = el.previousElementSibling;
    for (let i = 0; prev && i < 3; prev = prev.previousElementSibling, i++) {
      // a heading's wrapper, not a whole section (nor a short sibling item: Westgate's hours before Eastgate's)
      if (/^(H[1-6]|DT|TH|THEAD|LABEL|LEGEND|CAPTION|SUMMARY)$/.test(prev.tagName) ||
          (prev.querySelector("h1,h2,h3,h4,h5,h6") && (prev.innerText || "").length <= 200 &&
           !prev.querySelector("table,ul,ol,dl,form"))) {
        parts.push(prev.innerText || ""); break;
      }
    }
    return parts.join(" ");
  };
  const describe = (el) => {
    const tag = el.tagName.toLowerCase();
    const id = el.id ? `#${el.id}` : "";
    const cls = typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\s+/)[0] : "";
    return `${tag}${id}${cls}`;
  };
  const repeated = (el) => {
    const parent = el.parentElement;
    if (!parent) return false;
    if (/^(LI|TR|DD|DT)$/.test(el.tagName)) return true;
    if (/^(TD|TH)$/.test(el.tagName)) return false;  // a cell is part of its row, the row is the item
    const sig = (n) => `${n.tagName}|${typeof n.className === "string" ? n.className : ""}`;
    const mine = sig(el);
    return [...parent.children].filter((c) => c !== el && sig(c) === mine).length >= 1 && el.tagName !== "P" && el.tagName !== "SPAN";
  };
  const headerAt = (table, row, col) => {
    // The header cell above column `col`: the first other row that has header cells.
    // (a header row is all header cells, or in the thead: a row led by its own th is a row, not the header)
    const head = [...table.rows].find((r) => r !== row && r.cells.length > 1 &&
      ((r.parentElement && r.parentElement.tagName === "THEAD") || [...r.cells].every((c) => c.tagName === "TH")));
    if (!head) return null;
    let at = 0;
    for (const c of head.cells) { if (at <= col && col < at + (c.colSpan || 1)) return c; at += c.colSpan || 1; }
    return null;
  };
  const cellAt = (el) => {
    const cell = el.closest && el.closest("td,th");
    const row = cell && cell.parentElement, table = cell && cell.closest("table");
    if (!row || !table || row.tagName !== "TR") return null;
    let col = 0;
    for (const c of row.cells) { if (c === cell) break; col += c.colSpan || 1; }
    return { cell, row, table, col };
  };
  const columnHeader = (el) => {
    // A table cell is labelled by its column's header as much as by its row: the header cell above it, and
    // the header of the row's key column ('Branch' above 'Eastside' names what the row is)
    const at = cellAt(el);
    const head = at && headerAt(at.table, at.row, at.col);
    // (only for a row whose key names the subject: 'Branch' must not make every row's cell name 'branch')
    const keyCell = at && at.col > 0 ? at.row.cells[0] : null;
    const key = keyCell && hits(keyCell.innerText || "") > 0 ? headerAt(at.table, at.row, 0) : null;
    return [head, key].filter(Boolean).map((h) => h.innerText || "").join(" ");
  };
  // Values of one kind side by side in a row ('£28' for 3 months, '£95' for 12 months) are told apart only by
  // their columns' headers: the reader must know which column the question means.
  const shapeOf = (t) => {
    const s = norm(t);
    if (/[£$€¥₹]\s?\d|\d\s?(?:usd|eur|gbp|chf)\b/i.test(s)) return "money";
    if (/\b\d{1,2}[:.]\d\d\b|\b\d{1,2}\s?(?:am|pm)\b/i.test(s)) return "time";
    if (/^\W*\d[\d.,\s]*%?\W*$/.test(s)) return "number";
    if (/\b\d{4}-\d\d-\d\d\b|\b\d{1,2}\s+[a-z]{3,9}\.?\s+\d{4}\b|\b[a-z]{3,9}\.?\s+\d{1,2},\s+\d{4}\b/i.test(s)) return "date";
    return "";
  };
  const columnOf = (el) => {
    const at = cellAt(el);
    if (!at) return {};
    const head = headerAt(at.table, at.row, at.col);
    const shape = shapeOf(at.cell.innerText);
    if (!head || !shape) return head ? { column: norm(head.innerText).slice(0, 80) } : {};
    const rivals = [], keys = [];
    let col = 0;
    for (const c of at.row.cells) {
      const here = col;
      col += c.colSpan || 1;
      if (c !== at.cell && !shapeOf(c.innerText)) keys.push(norm(c.innerText).slice(0, 80));
      if (c === at.cell || c.tagName === "TH" || shapeOf(c.innerText) !== shape) continue;
      const other = headerAt(at.table, at.row, here);
      if (other && other !== head) rivals.push(norm(other.innerText).slice(0, 80));
    }
    return { column: norm(head.innerText).slice(0, 80), rival_columns: rivals.slice(0, 8), row_key: keys.join(" ").slice(0, 200) };
  };
  const sheetOf = (el) => {
    // A record's property sheet (rows led by their own label: 'Owned by: | bob', <dt>Reporter</dt><dd>..</dd>)
    // is one item, named by what heads it, not a list: unless one of its rows names the subject (then the
    // rows are items and the quote's row must name it itself).
    const box = el.closest && el.closest("table,dl");
    if (!box) return null;
    const rows = box.tagName === "DL" ? [...box.querySelectorAll(":scope > dt, :scope > div > dt")]
      : [...box.rows];
    if (!rows.length || box.querySelector("thead")) return null;
    const labelled = rows.every((r) => r.tagName === "DT" ? !r.querySelector("a") && (r.innerText || "").length <= 40
      : r.cells.length >= 2 && r.cells[0].tagName === "TH" && [...r.cells].some((c) => c.tagName === "TD")
        && [...r.cells].filter((c) => c.tagName === "TH").every((c) => (c.innerText || "").length <= 40));
    if (!labelled) return null;
    const rowText = (r) => r.tagName === "DT" ? (r.innerText || "") + " " + ((r.nextElementSibling || {}).innerText || "")
      : r.innerText || "";
    return rows.some((r) => hits(rowText(r)) > 0 && holds(rowText(r))) ? null : box;
  };
  const apartFromOtherItems = (n, start) => {
    // The text of n but for the items in it (cards, rows, list items) that do not hold the quote: an intro
    // line above a list of branches is not about the one branch a card further down names.
    const parts = [];
    let budget = MAX_NODES;
    const visit = (el) => {
      for (const c of el.childNodes) {
        if (--budget < 0) return;
        if (c.nodeType === 3) { parts.push(c.nodeValue || ""); continue; }
        if (c.nodeType !== 1 || /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(c.tagName)) continue;
        if (!c.contains(start) && repeated(c)) continue;
        visit(c);
      }
    };
    visit(n);
    return parts.join(" ");
  };
  const rowNamedOtherwise = (row, start) => {
    // A table row is named by its first cell (with a cell spanning into it from above): when that names none of
    // the subject, the subject is only mentioned in the row (a note 'replaces order 1043' in order 1042's row).
    if (row.tagName !== "TR" || !words.length || row.cells.length < 2) return "";
    const first = [...row.cells].find((c) => norm(c.innerText));
    const key = norm(spanned(row) + " " + (first ? first.innerText : ""));
    if (!key || hits(key) > 0 || (first && first.contains(start))) return "";  // (the quote names the row itself)
    // a row placed by a cell of subject words only ('Riverside' in a councillor's row), not by a note ('Replaces order 1043')
    // (a day of the month and 'to' join the words of a period: '1 October 2025 to 31 March 2026')
    const placed = (c) => { const t = tokens(c.innerText || "").filter((w) => !/^(?:\d{1,2}|to|until|till|and)$/.test(w)); return t.length > 0 && t.length <= 4 && t.every((w) => words.some((s) => named(w, s))); };
    if ([...row.cells].some(placed)) return "";
    return `the row is named by its first cell (${key.slice(0, 60)}), which does not name the subject`;
  };
  // A table's summary row (in its foot, or header cells after its data rows: 'Total', 'Left to pay') speaks
  // for the whole table, which the page's heading names: it is no item of the table's list.
  const summaryRow = (tr) => tr.tagName === "TR" && (
    (tr.parentElement && tr.parentElement.tagName === "TFOOT") ||
    ([...tr.cells].every((c) => c.tagName === "TH") && (() => {
      for (let r = tr.previousElementSibling; r; r = r.previousElementSibling) if (r.tagName === "TR" && [...r.cells].some((c) => c.tagName === "TD")) return true;
      return false;
    })()));
  const withHeading = (foreign, column, start) => {
    // A table row (no links, not a list item: a colleague's entry names another) under the page's heading, out of
    // side blocks, naming what the heading leaves out ('Child' on the Deep Time exhibition's page): together they name the subject.
    const first = document.querySelector("h1");
    if (foreign.el.tagName !== "TR" || foreign.el.querySelector("a[href]") || !first ||
        !(first.compareDocumentPosition(start) & Node.DOCUMENT_POSITION_FOLLOWING) ||
        start.closest("aside,nav,footer,[role=complementary],[role=navigation],[role=contentinfo]")) return false;
    const page = low(document.title + " " + [...document.querySelectorAll("h1")].map((h) => h.innerText).join(" "));
    const row = low(foreign.text + " " + column);
    const together = holds(page + " " + row) && words.some((w) => named(row, w) && !named(page, w));
    return (together || (holds(page) && (onlySummary(foreign.el) || latestRow(foreign.el, start) || soonestRow(foreign.el)))) &&
      !rival(foreign.el, true);
  };
  // The tables of the page's own content; of them, the one a summary row or the latest row is read in must be
  // the only one of its kind: two tables with totals (a plan and a savings account) leave which one unsaid.
  const contentTables = () => [...document.querySelectorAll("table")].filter((t) => !t.closest(SIDE_BLOCKS));
  const hasSummary = (t) => [...t.rows].some(summaryRow);
  const onlySummary = (tr) => summaryRow(tr) && contentTables().filter(hasSummary).length === 1;
  // The row of the latest date in its table ('her last weigh-in' on the pet's page): the question picks it.
  const dayOf = (text) => {
    const m = norm(text).match(/\b(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})\b|\b(\d{4})-(\d\d)-(\d\d)\b/);
    if (!m) return null;
    const t = m[1] ? Date.parse(`${m[1]} ${m[2].slice(0, 3)} ${m[3]}`) : Date.parse(`${m[4]}-${m[5]}-${m[6]}`);
    return Number.isNaN(t) ? null : t;
  };
  // arg.latest: the words of what is asked ('weight'); the row answers in the one dated table whose header names
  // them, in the column they name
  const latestWords = Array.isArray(arg.latest) ? arg.latest.map(low).filter(Boolean) : [];
  const datedRows = (table) => {
    const dated = [...table.rows].filter((r) => !headerRow(r)).map((r) => [r, dayOf(r.cells[0] ? r.cells[0].innerText : "")]);
    return dated.length >= 2 && dated.every(([, t]) => t !== null) ? dated : null;  // every row dated in its first cell
  };
  const namesAsked = (text) => latestWords.some((w) => named(low(text), w));
  const askedTable = (table) => !!datedRows(table) && [...table.rows].some((r) => headerRow(r) && namesAsked(r.innerText));
  const latestRow = (tr, start) => {
    const table = latestWords.length && tr.tagName === "TR" && tr.closest("table");
    if (!table || !askedTable(table) || contentTables().filter(askedTable).length !== 1) return false;
    if (!namesAsked(columnHeader(start))) return false;  // ('4.6 kg' under 'Weight', not a date or a note)
    const days = datedRows(table);
    const mine = days.find(([r]) => r === tr);
    return !!mine && days.every(([r, t]) => r === tr || t < mine[1]);
  };
  // arg.soonest ('my next invoice': the words beside the thing, which may tell rows apart): the row of the soonest
  // day from today on, in the one content table with a column of days still to come, answers (of the rows naming
  // those words when only some do; a day shared by two rows leaves which one unsaid)
  const today = new Date().setHours(0, 0, 0, 0);
  const dayColumn = (table) => {
    const rows = [...table.rows].filter((r) => !headerRow(r));
    const width = rows.length >= 2 ? Math.min(...rows.map((r) => r.cells.length)) : 0;
    for (let c = 0; c < width; c++) {
      const days = rows.map((r) => dayOf(r.cells[c].innerText));
      if (days.every((t) => t !== null) && days.some((t) => t >= today)) return c;
    }
    return -1;
  };
  const soonestRow = (tr) => {
    const table = Array.isArray(arg.soonest) && tr.tagName === "TR" && tr.closest("table");
    const dated = table ? contentTables().filter((t) => dayColumn(t) >= 0) : [];
    if (dated.length !== 1 || dated[0] !== table) return false;
    const col = dayColumn(table);
    const rows = [...table.rows].filter((r) => !headerRow(r));
    const naming = rows.filter((r) => arg.soonest.some((w) => named(low(r.innerText), low(w))));
    const coming = (naming.length && naming.length < rows.length ? naming : rows)
      .map((r) => [r, dayOf(r.cells[col].innerText)]).filter(([, t]) => t >= today);
    const soonest = Math.min(...coming.map(([, t]) => t));
    const first = coming.filter(([, t]) => t === soonest);
    return first.length === 1 && first[0][0] === tr;
  };
  // A price box beside the box holding the page's heading (the item's details in one column, its prices in
  // the other) is the page's own content, not a rival item: when it is headed by a price word, holds no list
  // and no link at the quote, names none of the subject (a box naming items tells them apart by name), and
  // the quote's line says only a period or a price word ('7 days: £408.00', not 'Estate: £50.00').
  const PRICE_HEAD = /^(prices?|pricing|rates?|fees?|costs?|charges?|tariffs?|fares?|price list|our prices|how much)$/;
  const PERIOD_WORDS = /^(days?|weeks?|nights?|months?|years?|hours?|hrs?|mins?|minutes?|per|a|an|from|to|up|each|only|price|cost|total|fee|rate|plus|vat|inc|incl|including)$/;
  const priceCompanion = (n, start) => {
    const first = document.querySelector("h1");
    if (!first || n.contains(first) || hardBlock(n)) return false;
    const like = likeItems(n);
    if (like.length !== 1 || !like[0].contains(first)) return false;
    const head = n.querySelector("h2,h3,h4,h5,h6");
    if (!head || !PRICE_HEAD.test(low(head.innerText).replace(/[:.]$/, ""))) return false;
    if (n.querySelector("li,tr,article,table") || start.closest("a[href]") || start.querySelector("a[href]")) return false;
    if (words.some((w) => named(low(n.innerText), w))) return false;
    const line = (start.innerText || "").split("\n").find((l) => hasQ(l));
    if (!line) return false;
    const label = low(line).replace(bounded, " ");
    return tokens(label).every((t) => /^\d+$/.test(t) || PERIOD_WORDS.test(t));
  };
  const judge = (start) => {
    let foreign = null;
    const column = columnHeader(start);
    const sheet = sheetOf(start);
    for (let n = start, depth = 0; n && depth < 30; n = parentOf(n), depth++) {
      if (n === document.body || n === document.documentElement) break;
      const part = n === start ? null : headingPart(n, start);
      const own = (part === null ? itemText(n) : part) + " " + labelOf(n) + " " + column;
      // a block that names the subject only in another of its items says nothing of it where the quote is
      const byOthers = () => n !== start && !repeated(n) &&
        !holds(apartFromOtherItems(n, start) + " " + labelOf(start) + " " + labelOf(n) + " " + column);  // (with the quote's own term: 'Friday')
      if (!foreign && holds(own) && !byOthers()) {
        // A side block (aside, nav, footer) naming the subject on a page whose heading names it too speaks of
        // a look-alike ("Blue Widget Pro" beside "Blue Widget"): the page's own content is what answers.
        const side = n.closest && n.closest("aside,nav,footer,[role=complementary],[role=navigation],[role=contentinfo]");
        const heading = document.title + " " + [...document.querySelectorAll("h1")].map((h) => h.innerText).join(" ");
        // (also when the heading names the item's name and the side block's line adds a word to it: 'Lumo X Lite
        // 128GB' beside the 'Lumo X' page; a buy box saying just what is asked is the page's own)
        const aside = side && tokens((start.closest("p,li,tr,dd,div") || start).innerText || "").filter((t) => !hasQ(t));
        if (side && (holds(heading) || (must.some((w) => /^[a-z]{3,}$/.test(w) && named(low(heading), w)) &&
            extraWords(aside.join(" ")).some((t) => /^\p{L}{3,}$/u.test(t))))) {
          return { ok: false, block: describe(n), block_text: norm(n.innerText).slice(0, 300),
                   why: "it sits in a side block of a page about the subject (a look-alike item)" };
        }
        // named by a label inside an item of a list (the price under the 'Blue Widget Pro' heading of its card):
        // that item must not be a look-alike either
        for (let up = parentOf(n), k = 0; up && up !== document.body && k < 8 && !repeated(n); up = parentOf(up), k++) {
          if (repeated(up) && up.parentElement) {
            if (lookAlike(up)) {
              return { ok: false, block: describe(up), block_text: norm(up.innerText).slice(0, 300),
                       why: LOOK_ALIKE };
            }
            break;
          }
        }
        if (repeated(n) && n.parentElement) {
          // (a row that names only part of the subject must stand out from rows naming as much with other words:
          // the Enterprise row is not the Enterprise plan 'in Europe' when other rows are Europe's)
          const why = lookAlike(n) ? LOOK_ALIKE
            : rowNamedOtherwise(n, start) || rival(n, true);
          if (why) return { ok: false, block: describe(n), block_text: norm(n.innerText).slice(0, 300), why };
        } else if (lineLookAlike(start)) return { ok: false, block: describe(n), block_text: norm(n.innerText).slice(0, 300), why: LOOK_ALIKE };
        return { ok: true, block: describe(n), block_text: norm(n.innerText).slice(0, 300) };
      }
      const role = (n.getAttribute && n.getAttribute("role")) || "";
      if (hardBlock(n)) {
        return { ok: false, block: describe(n), block_text: norm(n.innerText).slice(0, 300),
                 why: `it sits in a ${n.tagName.toLowerCase()}${role ? " (" + role + ")" : ""} block that does not name the subject` };
      }
      if (!foreign && sheet && n !== sheet && sheet.contains(n)) continue; // a cell or row of a property sheet
      if (foreign) {
        // inside an item that does not name the subject: only a label of its list may name it
        // the item's own text with its list's label (a caption, a table's header row, a heading before it)
        const label = labelOf(n) + " " + column;
        if (holds(label + " " + foreign.text)) {
          const why = (lookAlike(foreign.el) && LOOK_ALIKE) || rival(foreign.el, true);
          if (why) return { ok: false, block: foreign.block, block_text: foreign.text, why };
          return { ok: true, block: describe(n), block_text: norm(label + " " + foreign.text).slice(0, 300) };
        }
        if (n.parentElement && repeated(n)) { foreign = { el: n, block: describe(n), text: norm(itemText(n)).slice(0, 300) }; continue; }
        if (withHeading(foreign, column, start)) return lookAlike(foreign.el) ? { ok: false, block: foreign.block, block_text: foreign.text, why: LOOK_ALIKE }
          : { ok: true, block: foreign.block, block_text: norm(foreign.text).slice(0, 300) };
        return { ok: false, block: foreign.block, block_text: foreign.text, why: "it sits in an item that does not name the subject" };
      }
      if (repeated(n) && n.parentElement && !priceCompanion(n, start)) {
        if (words.length && likeItems(n).some((c) => holds(itemText(c)))) {
          return { ok: false, block: describe(n), block_text: norm(n.innerText).slice(0, 300),
                   why: "it belongs to another item than the one the goal names" };
        }
        foreign = { el: n, block: describe(n), text: norm(itemText(n)).slice(0, 300) };
      }
    }
    const page = document.title + " " + [...document.querySelectorAll("h1")].map((h) => h.innerText).join(" ");
    // The page's heading speaks for what follows it, not for a promotion bar above it.
    const first = document.querySelector("h1");
    const under = !first || first.contains(start) || !!(first.compareDocumentPosition(start) & Node.DOCUMENT_POSITION_FOLLOWING);
    if (!foreign && !under && holds(page)) {
      return { ok: false, block: "page", block_text: norm(start.innerText).slice(0, 300),
               why: "it comes before the page's heading, which names the subject" };
    }
    if (!foreign && holds(page + (sheet ? " " + sheet.innerText : ""))) return { ok: true, block: "page", block_text: norm(page).slice(0, 300) };
    if (foreign && withHeading(foreign, column, start)) return lookAlike(foreign.el) ? { ok: false, block: foreign.block, block_text: foreign.text, why: LOOK_ALIKE }
      : { ok: true, block: foreign.block, block_text: norm(page + " " + foreign.text).slice(0, 300) };
    return { ok: false, block: foreign ? foreign.block : "page", block_text: foreign ? foreign.text : "",
             why: "nothing around it names the subject" };
  };
  // 'my next invoice' is answered in a dated table only by its soonest row from today (with two dated tables, by none)
  const judgeDay = (el) => {
    const verdict = judge(el);
    const tr = Array.isArray(arg.soonest) && verdict.ok && el.closest("tr");
    const table = tr && !headerRow(tr) && tr.closest("table");
    if (!table || dayColumn(table) < 0 || soonestRow(tr)) return verdict;
    return { ...verdict, ok: false, why: "it sits in a row of another day than the next one" };
  };
  /*@include text_lines.js*/
  const SIDE = "aside,nav,footer,header,dialog,[role=complementary],[role=navigation],[role=contentinfo],[role=banner],[role=dialog]";
  const found = [];
  if (q) {
    const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_ELEMENT);
    let visited = 0;
    for (let el = walker.nextNode(); el && visited < MAX_NODES * 3 && found.length < 24; el = walker.nextNode()) {
      visited++;
      if (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|HEAD)$/.test(el.tagName)) continue;
      if (!hasQ(el.textContent)) continue;
      if ([...el.children].some((c) => hasQ(c.textContent))) continue; // a smaller element has it
      if (!visible(el) || !hasQ(el.innerText)) continue;
      const side = arg.main_only && el.closest(SIDE);  // the site's own name left out: only its own content speaks
      // its line (a former price is struck out, or said 'Was £65.00') and the line's own block
      const line = el.closest("p,li,tr,dd,dt,td,th,h1,h2,h3,h4,h5,h6,label,figcaption") || el;
      const struck = !!el.closest("del,s,strike") || /line-through/.test(getComputedStyle(el).textDecorationLine || "");
      found.push({ element: describe(el), text: norm(el.innerText).slice(0, 200), label: norm(labelOf(el)).slice(0, 200),
                   line: norm(line.innerText).slice(0, 300), struck,
                   ...(side ? { ok: false, block: describe(side), why: "it sits outside the page's main content" } : textVerdict(el) || judgeDay(el)), ...columnOf(el) });
    }
  }
  const lists = [];
  if (arg.lists) {
    // How many items each list of the page's content holds (lists, table bodies, runs of alike cards): what a
    // count may be checked against. Side blocks, navigation, banners and dialogs are not the content.
    const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_ELEMENT);
    let visited = 0;
    for (let el = walker.nextNode(); el && visited < MAX_NODES * 3 && lists.length < 200; el = walker.nextNode()) {
      visited++;
      if (el.children.length < 1 || /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|HEAD|SELECT)$/.test(el.tagName)) continue;
      if (el.closest("aside,nav,footer,dialog,[role=complementary],[role=navigation],[role=contentinfo],[role=dialog]")) continue;
      const groups = new Map();
      for (const c of el.children) if (visible(c)) groups.set(sigOf(c), (groups.get(sigOf(c)) || 0) + 1);
      for (const [sig, size] of groups) if (size >= 2 || /^(UL|OL|TBODY|DL)$/.test(el.tagName) || /^(LI|TR)\|/.test(sig)) lists.push(size);
    }
  }
  const h1 = document.querySelector("h1");
  return { url: location.href, title: document.title, status: navStatus(),
           heading: h1 ? norm(h1.innerText).slice(0, 200) : "", found, lists: [...new Set(lists)].sort((x, y) => x - y) };
}
