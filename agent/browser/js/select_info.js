// Tag, multiple flag and options of a <select> (empty options for anything else).
(el) => ({
  tag: el.tagName.toLowerCase(),
  multiple: !!el.multiple,
  options: el.tagName === 'SELECT'
    ? [...el.options].map((o) => ({ value: o.value, label: (o.label || o.textContent || '').trim(), disabled: o.disabled }))
    : [],
})
