// Installed in every frame of every page: a cheap MutationObserver that reports "something changed" at once,
// then at most every 150 ms, through the __wayfinderDomChanged binding. Attribute writes of our own marking pass
// (data-agent-*) are ignored so observing is not a change. It also says "popup" when a tab is about to open.
(() => {
  if (window.__wayfinderDomWatch) return;
  window.__wayfinderDomWatch = true;
  // The change tracker (change_watch.js) owns the one MutationObserver; this watcher listens to it.
  const tracker = (/*@include change_watch.js*/)(window);
  // Leading edge at once (the action that caused it is still settling), then at most every 150 ms.
  let blocked = false, dirty = false;
  const fire = () => {
    const notify = window.__wayfinderDomChanged;
    if (typeof notify === 'function') notify().catch(() => {});
  };
  const release = () => {
    if (dirty) { dirty = false; fire(); setTimeout(release, 150); } else { blocked = false; }
  };
  tracker.listen(() => {
    if (blocked) { dirty = true; return; }
    blocked = true;
    fire();
    setTimeout(release, 150);
  });
  // Say "a tab is about to open" (target=_blank link, window.open), so settling waits for the new tab.
  const popup = () => { const notify = window.__wayfinderDomChanged; if (typeof notify === 'function') notify('popup').catch(() => {}); };
  document.addEventListener('click', (event) => {
    const a = event.target && event.target.closest && event.target.closest('a[href][target]');
    if (a && !['', '_self', '_top', '_parent'].includes(a.target.toLowerCase())) popup();
  }, true);
  // A Proxy keeps window.open looking native to the page.
  window.open = new Proxy(window.open, { apply(target, self, args) { popup(); return Reflect.apply(target, self, args); } });
})();
