/*
 * Wayfinder Demo Store: all page behaviour in one small script (no frameworks, no network beyond this site).
 *
 * State lives in localStorage so it survives navigation the way a real shop's cookies would:
 *   wf-cookie-consent  "all" | "essential" once the consent banner was answered
 *   wf-user            the signed-in username
 *   wf-cart            JSON list of {id, qty}
 * Each page sets <body data-page="..."> and gets its init function from PAGES below. DOM is built with
 * textContent only, never innerHTML, so catalog or query text can't inject markup.
 */
(function () {
  "use strict";

  var KEYS = { consent: "wf-cookie-consent", user: "wf-user", cart: "wf-cart" };
  var DEMO_USER = { username: "demo", password: "wayfinder", name: "Demo User", email: "demo@example.com" };
  var LAST_ORDER = {
    number: "WF-10428",
    placed: "14 May 2025",
    status: "Delivered",
    shipping: 4.95,
    lines: [
      { id: 1, name: "Trail Coffee Mug", qty: 2, price: 12.99 },
      { id: 16, name: "Dot-Grid Notebook A5", qty: 1, price: 13.9 },
      { id: 11, name: "Wool Hiking Socks", qty: 1, price: 14.5 }
    ]
  };
  var TOPICS = {
    order: "Order status",
    returns: "Returns and refunds",
    product: "Product question",
    feedback: "Website feedback"
  };

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

  function initials(name) {
    return name.split(/\s+/).filter(function (w) { return /^[A-Za-z]/.test(w); })
      .slice(0, 2).map(function (w) { return w[0].toUpperCase(); }).join("");
  }

  function sku(product) {
    return "WF-" + String(product.id).padStart(4, "0");
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

  // ---------------------------------------------------------------------------------------------- products

  function ratingText(product) {
    return "Rated " + product.rating.toFixed(1) + " out of 5 (" + product.reviews + " reviews)";
  }

  function stockNode(product) {
    if (product.in_stock === 0) return el("p", { className: "stock-out", text: "Out of stock" });
    if (product.in_stock <= 5) return el("p", { className: "stock-low", text: "Only " + product.in_stock + " left" });
    return el("p", { className: "muted", text: "In stock" });
  }

  function productCard(product) {
    var status = el("p", { className: "muted", role: "status", "aria-live": "polite" });
    var button = el("button", {
      type: "button", className: "button", text: "Add to cart",
      "aria-label": "Add " + product.name + " to cart", disabled: product.in_stock === 0,
      onclick: function () {
        addToCart(product.id, 1);
        status.textContent = "Added " + product.name + " to your cart.";
      }
    });
    return el("li", { className: "product-card", "data-product-id": product.id },
      el("div", { className: "thumb cat-" + product.category, "aria-hidden": "true", text: initials(product.name) }),
      el("h3", {}, el("a", { href: "product.html?id=" + product.id, text: product.name })),
      el("p", { className: "category", text: product.category }),
      el("p", { className: "price", text: money(product.price) }),
      el("p", { className: "rating", text: ratingText(product) }),
      stockNode(product),
      button,
      status
    );
  }

  function renderGrid(list, products) {
    list.replaceChildren.apply(list, products.map(productCard));
  }

  var PRICE_FILTERS = {
    "": function () { return true; },
    "under-20": function (p) { return p.price < 20; },
    "20-50": function (p) { return p.price >= 20 && p.price <= 50; },
    "over-50": function (p) { return p.price > 50; }
  };
  var SORTS = {
    featured: function (a, b) { return (b.featured - a.featured) || (a.id - b.id); },
    "price-asc": function (a, b) { return a.price - b.price; },
    "price-desc": function (a, b) { return b.price - a.price; },
    rating: function (a, b) { return b.rating - a.rating || b.reviews - a.reviews; },
    name: function (a, b) { return a.name.localeCompare(b.name); }
  };

  function showLoadError(container, error) {
    container.replaceChildren(el("p", { className: "error", role: "alert",
      text: "The product catalog could not be loaded (" + error.message + ")." }));
  }

  // ---------------------------------------------------------------------------------------------- pages

  var PAGES = {};

  PAGES.home = function () {
    var featured = byId("featured-products");
    loadCatalog().then(function (products) {
      renderGrid(featured, products.filter(function (p) { return p.featured; }));
    }).catch(function (error) { showLoadError(featured, error); });

    var form = byId("newsletter-form");
    var message = byId("newsletter-message");
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var email = byId("newsletter-email").value.trim();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
        message.className = "error";
        message.setAttribute("role", "alert");
        message.textContent = "Please enter a valid email address, like name@example.com.";
        return;
      }
      form.hidden = true;
      message.className = "success";
      message.setAttribute("role", "status");
      message.textContent = "Thanks for subscribing! We'll send the next issue to " + email + ".";
    });
  };

  PAGES.products = function () {
    var form = byId("filters");
    var list = byId("product-list");
    var count = byId("result-count");
    var heading = byId("products-heading");
    var query = params();
    ["category", "price", "sort"].forEach(function (name) {
      var value = query.get(name);
      if (value !== null && form.elements[name].querySelector('option[value="' + CSS.escape(value) + '"]')) {
        form.elements[name].value = value;
      }
    });

    loadCatalog().then(function (products) {
      function apply() {
        var category = form.elements.category.value;
        var price = form.elements.price.value;
        var sort = form.elements.sort.value;
        var shown = products
          .filter(function (p) { return !category || p.category === category; })
          .filter(PRICE_FILTERS[price] || PRICE_FILTERS[""])
          .slice()
          .sort(SORTS[sort] || SORTS.featured);
        heading.textContent = category ? category : "All products";
        count.textContent = "Showing " + shown.length + " of " + products.length + " products";
        renderGrid(list, shown);
        var next = new URLSearchParams();
        if (category) next.set("category", category);
        if (price) next.set("price", price);
        if (sort !== "featured") next.set("sort", sort);
        var search = next.toString();
        window.history.replaceState(null, "", "products.html" + (search ? "?" + search : ""));
        document.title = (category || "All products") + " – Wayfinder Demo Store";
      }
      form.addEventListener("change", apply);
      form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
      apply();
    }).catch(function (error) { showLoadError(list, error); });
  };

  PAGES.product = function () {
    var root = byId("product-detail");
    var id = parseInt(params().get("id") || "", 10);
    loadCatalog().then(function (products) {
      var product = products.filter(function (p) { return p.id === id; })[0];
      if (!product) {
        document.title = "Product not found – Wayfinder Demo Store";
        root.replaceChildren(
          el("h1", { text: "Product not found" }),
          el("p", {}, "There is no product with that number. ", el("a", { href: "products.html", text: "Browse all products" }), ".")
        );
        return;
      }
      document.title = product.name + " – Wayfinder Demo Store";
      var status = el("p", { id: "cart-status", role: "status", "aria-live": "polite" });
      var qty = el("input", { id: "quantity", name: "quantity", type: "number", min: 1, max: 10, value: 1, className: "qty" });
      var form = el("form", { className: "form", id: "add-to-cart-form", "aria-label": "Add to cart" },
        el("div", {}, el("label", { for: "quantity", text: "Quantity" }), qty),
        el("div", {}, el("button", { type: "submit", className: "button", text: "Add to cart", disabled: product.in_stock === 0 }))
      );
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var n = parseInt(qty.value, 10);
        if (!(n >= 1 && n <= 10)) {
          status.className = "error";
          status.textContent = "Choose a quantity from 1 to 10.";
          return;
        }
        addToCart(product.id, n);
        status.className = "success";
        status.replaceChildren("Added " + n + " × " + product.name + " to your cart. ",
          el("a", { href: "cart.html", text: "View cart" }));
      });
      var related = products.filter(function (p) { return p.category === product.category && p.id !== product.id; }).slice(0, 3);
      var relatedList = el("ul", { className: "product-grid" });
      renderGrid(relatedList, related);
      root.replaceChildren(
        el("nav", { className: "breadcrumbs", "aria-label": "Breadcrumb" },
          el("a", { href: "index.html", text: "Home" }), " / ",
          el("a", { href: "products.html", text: "Products" }), " / ",
          el("a", { href: "products.html?category=" + encodeURIComponent(product.category), text: product.category })
        ),
        el("div", { className: "detail" },
          el("div", { className: "thumb large cat-" + product.category, "aria-hidden": "true", text: initials(product.name) }),
          el("div", {},
            el("h1", { text: product.name }),
            el("p", { className: "price", text: money(product.price) }),
            el("p", { className: "rating", text: ratingText(product) }),
            el("p", { text: product.description }),
            el("dl", { className: "facts" },
              el("dt", { text: "Category" }), el("dd", { text: product.category }),
              el("dt", { text: "Product number" }), el("dd", { text: sku(product) }),
              el("dt", { text: "Availability" }), el("dd", {}, stockNode(product))
            ),
            form,
            status
          )
        ),
        el("h2", { text: "More in " + product.category }),
        relatedList
      );
    }).catch(function (error) { showLoadError(root, error); });
  };

  /** A term matches if it appears in the name, category or description; "mugs" also matches "mug". */
  function matches(product, terms) {
    var hay = (product.name + " " + product.category + " " + product.description).toLowerCase();
    return terms.every(function (term) {
      return hay.indexOf(term) >= 0 || (term.length > 3 && term.slice(-1) === "s" && hay.indexOf(term.slice(0, -1)) >= 0);
    });
  }

  PAGES.search = function () {
    var q = (params().get("q") || "").trim();
    var heading = byId("search-heading");
    var count = byId("search-count");
    var list = byId("search-results");
    if (!q) {
      heading.textContent = "Search";
      count.textContent = "Type a product name or category in the search box above.";
      return;
    }
    heading.textContent = "Search results for “" + q + "”";
    document.title = "Search: " + q + " – Wayfinder Demo Store";
    var terms = q.toLowerCase().split(/\s+/).filter(Boolean);
    loadCatalog().then(function (products) {
      var found = products.filter(function (p) { return matches(p, terms); });
      if (!found.length) {
        count.replaceChildren("No products match “" + q + "”. ", el("a", { href: "products.html", text: "Browse all products" }), ".");
        list.replaceChildren();
        return;
      }
      count.textContent = found.length === 1 ? "1 product found" : found.length + " products found";
      renderGrid(list, found);
    }).catch(function (error) { showLoadError(list, error); });
  };

  function safeNext(value) {
    return value && /^[a-z-]+\.html(\?[A-Za-z0-9=&%_.-]*)?$/.test(value) ? value : "account.html";
  }

  PAGES.login = function () {
    var form = byId("login-form");
    var error = byId("login-error");
    var signedIn = byId("signed-in");
    var user = currentUser();
    if (user) {
      form.hidden = true;
      byId("demo-credentials").hidden = true;
      signedIn.hidden = false;
      byId("signed-in-name").textContent = user;
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var username = byId("username").value.trim();
      var password = byId("password").value;
      if (!username || !password) {
        error.textContent = "Enter your username and password.";
        return;
      }
      if (username.toLowerCase() !== DEMO_USER.username || password !== DEMO_USER.password) {
        error.textContent = "Wrong username or password. Please try again.";
        byId("password").value = "";
        byId("password").focus();
        return;
      }
      store.set(KEYS.user, DEMO_USER.username);
      window.location.href = safeNext(params().get("next"));
    });
  };

  PAGES.account = function () {
    var root = byId("account-content");
    var user = currentUser();
    if (!user) {
      root.replaceChildren(
        el("h1", { text: "Your account" }),
        el("p", { className: "notice" }, "Please ", el("a", { href: "login.html?next=account.html", text: "log in" }),
          " to see your orders and account details.")
      );
      return;
    }
    var subtotal = LAST_ORDER.lines.reduce(function (sum, l) { return sum + l.qty * l.price; }, 0);
    var total = Math.round((subtotal + LAST_ORDER.shipping) * 100) / 100;
    var rows = LAST_ORDER.lines.map(function (l) {
      return el("tr", {},
        el("td", {}, el("a", { href: "product.html?id=" + l.id, text: l.name })),
        el("td", { className: "num", text: String(l.qty) }),
        el("td", { className: "num", text: money(l.price) }),
        el("td", { className: "num", text: money(l.qty * l.price) })
      );
    });
    root.replaceChildren(
      el("h1", { text: "Welcome, " + user }),
      el("p", { className: "lead", text: "Here are your latest order and your account details." }),
      el("section", { "aria-labelledby": "last-order-title", id: "last-order" },
        el("h2", { id: "last-order-title", text: "Last order" }),
        el("dl", { className: "facts" },
          el("dt", { text: "Order number" }), el("dd", { text: LAST_ORDER.number }),
          el("dt", { text: "Placed on" }), el("dd", { text: LAST_ORDER.placed }),
          el("dt", { text: "Status" }), el("dd", { text: LAST_ORDER.status }),
          el("dt", { text: "Order total" }), el("dd", { id: "last-order-total", text: money(total) })
        ),
        el("table", { className: "lines" },
          el("caption", { className: "sr-only", text: "Items in order " + LAST_ORDER.number }),
          el("thead", {}, el("tr", {},
            el("th", { scope: "col", text: "Item" }), el("th", { scope: "col", className: "num", text: "Qty" }),
            el("th", { scope: "col", className: "num", text: "Price" }), el("th", { scope: "col", className: "num", text: "Amount" })
          )),
          el.apply(null, ["tbody", {}].concat(rows)),
          el("tfoot", {},
            el("tr", {}, el("td", { colspan: 3, text: "Shipping" }), el("td", { className: "num", text: money(LAST_ORDER.shipping) })),
            el("tr", {}, el("th", { scope: "row", colspan: 3, text: "Total" }), el("td", { className: "num", text: money(total) }))
          )
        )
      ),
      el("section", { "aria-labelledby": "details-title" },
        el("h2", { id: "details-title", text: "Account details" }),
        el("dl", { className: "facts" },
          el("dt", { text: "Username" }), el("dd", { text: user }),
          el("dt", { text: "Name" }), el("dd", { text: DEMO_USER.name }),
          el("dt", { text: "Email" }), el("dd", { text: DEMO_USER.email }),
          el("dt", { text: "Member since" }), el("dd", { text: "March 2023" })
        )
      )
    );
  };

  PAGES.cart = function () {
    var root = byId("cart-content");
    var message = byId("cart-message");
    loadCatalog().then(function (products) {
      function render() {
        var items = readCart().map(function (item) {
          var product = products.filter(function (p) { return p.id === item.id; })[0];
          return product ? { product: product, qty: item.qty } : null;
        }).filter(Boolean);
        if (!items.length) {
          root.replaceChildren(el("p", {}, "Your cart is empty. ", el("a", { href: "products.html", text: "Browse products" }), "."));
          return;
        }
        var total = items.reduce(function (sum, i) { return sum + i.qty * i.product.price; }, 0);
        var rows = items.map(function (i) {
          return el("tr", {},
            el("td", {}, el("a", { href: "product.html?id=" + i.product.id, text: i.product.name })),
            el("td", { className: "num", text: money(i.product.price) }),
            el("td", { className: "num", text: String(i.qty) }),
            el("td", { className: "num", text: money(i.qty * i.product.price) }),
            el("td", {}, el("button", {
              type: "button", className: "button secondary", text: "Remove",
              "aria-label": "Remove " + i.product.name + " from cart",
              onclick: function () {
                writeCart(readCart().filter(function (c) { return c.id !== i.product.id; }));
                render();
              }
            }))
          );
        });
        root.replaceChildren(
          el("table", { className: "lines" },
            el("caption", { className: "sr-only", text: "Items in your cart" }),
            el("thead", {}, el("tr", {},
              el("th", { scope: "col", text: "Product" }), el("th", { scope: "col", className: "num", text: "Price" }),
              el("th", { scope: "col", className: "num", text: "Quantity" }), el("th", { scope: "col", className: "num", text: "Amount" }),
              el("th", { scope: "col" }, el("span", { className: "sr-only", text: "Actions" }))
            )),
            el.apply(null, ["tbody", {}].concat(rows)),
            el("tfoot", {}, el("tr", {},
              el("th", { scope: "row", colspan: 3, text: "Cart total" }),
              el("td", { className: "num", id: "cart-total", text: money(total) }), el("td", {})
            ))
          ),
          el("p", {}, el("button", {
            type: "button", className: "button", text: "Check out",
            onclick: function () {
              message.className = "notice";
              message.textContent = "This is a demo store: checkout is switched off and nothing was ordered.";
            }
          }))
        );
      }
      render();
    }).catch(function (error) { showLoadError(root, error); });
  };

  /** A short, stable reference for a message, so the same input always gets the same confirmation. */
  function reference(text) {
    var hash = 0;
    for (var i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) >>> 0;
    return "C-" + String(hash % 100000).padStart(5, "0");
  }

  PAGES.contact = function () {
    var form = byId("contact-form");
    var errors = byId("contact-errors");
    var done = byId("contact-done");
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var name = form.elements.name.value.trim();
      var email = form.elements.email.value.trim();
      var topic = form.elements.topic.value;
      var message = form.elements.message.value.trim();
      var problems = [];
      if (!name) problems.push("Enter your name.");
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) problems.push("Enter a valid email address.");
      if (!TOPICS[topic]) problems.push("Choose a topic.");
      if (!message) problems.push("Write a message.");
      if (!form.elements.privacy.checked) problems.push("Tick “I agree to the privacy policy” to send your message.");
      if (problems.length) {
        errors.hidden = false;
        errors.replaceChildren(
          el("p", { text: "Please fix " + (problems.length === 1 ? "this problem" : "these problems") + ":" }),
          el.apply(null, ["ul", {}].concat(problems.map(function (p) { return el("li", { text: p }); })))
        );
        return;
      }
      errors.hidden = true;
      form.hidden = true;
      done.hidden = false;
      var copy = form.elements.copy.checked ? " A copy of your message was sent to " + email + "." : "";
      done.replaceChildren(
        el("h2", { text: "Message sent" }),
        el("p", { text: "Thanks, " + name + "! We received your message about “" + TOPICS[topic] +
          "” and will reply to " + email + " within 2 business days." + copy }),
        el("p", { text: "Your reference number is " + reference(name + email + topic + message) + "." })
      );
    });
  };

  // ---------------------------------------------------------------------------------------------- start

  function start() {
    renderAccountArea();
    updateCartCount();
    fillSearchBox();
    var init = PAGES[document.body.dataset.page];
    if (init) init();
    showConsentBanner();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
