// The one <select> a custom dropdown stands for (inside it or up to two levels up): its options and the values
// selected now; no options when there is none or several.
(el) => {
  let scope = el;
  for (let up = 0; up < 3 && scope; up += 1, scope = scope.parentElement) {
    const selects = scope.querySelectorAll('select');
    if (selects.length > 1) break;
    if (selects.length === 1) {
      const sel = selects[0];
      return {
        options: [...sel.options].map((o) => ({ value: o.value, label: (o.label || o.textContent || '').trim(), disabled: o.disabled })),
        selected: [...sel.options].filter((o) => o.selected).map((o) => o.value),
      };
    }
  }
  return { options: [], selected: [] };
}
