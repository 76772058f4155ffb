/*
 * Wayfinder Demo Store: what every page shares (no frameworks, no network beyond this site). The page areas'
 * scripts (catalog.js, account.js, cart.js, contact.js) add their init functions to WayfinderDemo.pages and use
 * the helpers exported here; all are deferred, and this one runs the page's init once they are all in.
 *
 * State lives in localStorage so it survives navigation the way a real shop's cookies would:
 *   wf-cookie-consent  "all" | "essential" once the consent banner was answered
 *   wf-user            the signed-in username
 *   wf-cart            JSON list of {id, qty}
 * Each page sets <body data-page="..."> and gets its init function from WayfinderDemo.pages. DOM is built with
 * textContent only, never innerHTML, so catalog or query text can't inject markup.
 */
(function () {
  "use strict";

  var KEYS = { consent: "wf-cookie-consent", user: "wf-user", cart: "wf-cart" };

  // ---------------------------------------------------------------------------------------------- helpers

  var store = {
    get: function (key) {
      try { return window.localStorage.getItem(key); } catch (e) { return null; }
    },
    set: function (key, value) {
      try { window.localStorage.setItem(key, value); } catch (e) { /* private mode: state is per page */ }
    },
    remove: function (key) {
      try { window.localStorage.removeItem(key); } catch (e) { /* ignore */ }
    }
  };

  function money(value) {
    return "$" + value.toFixed(2);
  }

  function params() {
    return new URLSearchParams(window.location.search);
  }

  /** el("p", {className: "x", href: "..."}, "text", child, ...): attributes and text, never HTML. */
  function el(tag, attrs) {
    var node = document.createElement(tag);
    var key;
    attrs = attrs || {};
    for (key in attrs) {
      if (!Object.prototype.hasOwnProperty.call(attrs, key) || attrs[key] === null || attrs[key] === undefined) continue;
      if (key === "className") node.className = attrs[key];
      else if (key === "text") node.textContent = attrs[key];
      else if (key.slice(0, 2) === "on") node.addEventListener(key.slice(2), attrs[key]);
      else if (attrs[key] === true) node.setAttribute(key, "");
      else if (attrs[key] !== false) node.setAttribute(key, String(attrs[key]));
    }
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function byId(id) {
    return document.getElementById(id);
  }

  var catalogPromise = null;
  function loadCatalog() {
    if (!catalogPromise) {
      catalogPromise = fetch("data/catalog.json", { cache: "no-store" })
        .then(function (response) {
          if (!response.ok) throw new Error("catalog: HTTP " + response.status);
          return response.json();
        })
        .then(function (data) { return data.products; });
    }
    return catalogPromise;
  }

  function showLoadError(container, error) {
    container.replaceChildren(el("p", { className: "error", role: "alert",
      text: "The product catalog could not be loaded (" + error.message + ")." }));
  }

  // ---------------------------------------------------------------------------------------------- cart

  function readCart() {
    try {
      var items = JSON.parse(store.get(KEYS.cart) || "[]");
      return Array.isArray(items) ? items.filter(function (i) { return i && i.id && i.qty > 0; }) : [];
    } catch (e) {
      return [];
    }
  }

  function writeCart(items) {
    store.set(KEYS.cart, JSON.stringify(items));
    updateCartCount();
  }

  function addToCart(id, qty) {
    var items = readCart();
    var found = items.filter(function (i) { return i.id === id; })[0];
    if (found) found.qty = Math.min(found.qty + qty, 10);
    else items.push({ id: id, qty: qty });
    writeCart(items);
  }

  function updateCartCount() {
    var count = readCart().reduce(function (sum, i) { return sum + i.qty; }, 0);
    var nodes = document.querySelectorAll("[data-cart-count]");
    for (var i = 0; i < nodes.length; i++) nodes[i].textContent = String(count);
  }

  // ---------------------------------------------------------------------------------------------- header

  function currentUser() {
    return store.get(KEYS.user);
  }

  function renderAccountArea() {
    var area = byId("account-area");
    if (!area) return;
    var user = currentUser();
    if (user) {
      area.replaceChildren(
        el("span", { className: "welcome", text: "Welcome, " + user }),
        el("a", { href: "account.html", text: "My account" }),
        el("button", {
          type: "button", className: "link-button", text: "Log out",
          onclick: function () { store.remove(KEYS.user); window.location.href = "index.html"; }
        })
      );
    } else {
      area.replaceChildren(el("a", { href: "login.html", text: "Log in" }));
    }
  }

  function fillSearchBox() {
    var box = byId("site-search");
    var q = params().get("q");
    if (box && q && document.body.dataset.page === "search") box.value = q;
  }

  // ---------------------------------------------------------------------------------------------- consent

  function showConsentBanner() {
    if (store.get(KEYS.consent)) return;
    var backdrop = el("div", { className: "consent-backdrop", "data-consent-backdrop": true });
    var banner;
    function choose(value) {
      store.set(KEYS.consent, value);
      backdrop.remove();
      banner.remove();
    }
    banner = el("section", {
      className: "consent", role: "dialog", "aria-labelledby": "consent-title",
      "aria-describedby": "consent-text", id: "cookie-consent"
    },
      el("h2", { id: "consent-title", text: "We use cookies" }),
      el("p", {
        id: "consent-text",
        text: "We use cookies to remember your cart and your sign-in. You can allow all of them or keep " +
          "only the essential ones. Please choose to continue shopping."
      }),
      el("div", { className: "actions" },
        el("button", { type: "button", className: "button", text: "Accept all cookies",
          onclick: function () { choose("all"); } }),
        el("button", { type: "button", className: "button secondary", text: "Only essential cookies",
          onclick: function () { choose("essential"); } })
      )
    );
    document.body.appendChild(backdrop);
    document.body.appendChild(banner);
  }

  // ---------------------------------------------------------------------------------------------- start

  var PAGES = {};

  function start() {
    renderAccountArea();
    updateCartCount();
    fillSearchBox();
    var init = PAGES[document.body.dataset.page];
    if (init) init();
    showConsentBanner();
  }

  window.WayfinderDemo = {
    KEYS: KEYS, store: store, money: money, params: params, el: el, byId: byId, loadCatalog: loadCatalog,
    showLoadError: showLoadError, readCart: readCart, writeCart: writeCart, addToCart: addToCart,
    currentUser: currentUser, pages: PAGES
  };

  // Deferred scripts run in document order before DOMContentLoaded, so every page area has registered by then.
  if (document.readyState === "complete") start();
  else document.addEventListener("DOMContentLoaded", start);
})();
