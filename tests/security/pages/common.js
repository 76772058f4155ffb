// The attacker's address on these pages: the same loopback server under another host name.
function other(path) { return 'http://localhost:' + location.port + path; }
document.querySelectorAll('[data-other-href]').forEach((a) => { a.href = other(a.dataset.otherHref); });
document.querySelectorAll('[data-other-src]').forEach((f) => { f.src = other(f.dataset.otherSrc); });
document.querySelectorAll('[data-other-action]').forEach((f) => { f.action = other(f.dataset.otherAction); });
document.querySelectorAll('[data-other-text]').forEach((e) => {
  e.textContent = e.dataset.otherText.replace('OTHER', other(''));
});
