// JS fallback of `type`: set the value (or append to it) and fire input + change like a user would.
(el, [text, clear]) => {
  el.focus();
  const value = clear ? text : (el.value || '') + text;
  if (el.isContentEditable) { el.textContent = value; }
  else {
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    const setter = Object.getOwnPropertyDescriptor(proto, 'value').set;
    setter.call(el, value);
  }
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
}
