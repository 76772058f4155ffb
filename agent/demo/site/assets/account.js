/* Wayfinder Demo Store: signing in and the account page (the demo user and their last order). */
(function (WF) {
  "use strict";

  var KEYS = WF.KEYS, store = WF.store, el = WF.el, byId = WF.byId, params = WF.params, money = WF.money,
    currentUser = WF.currentUser;

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

  function safeNext(value) {
    return value && /^[a-z-]+\.html(\?[A-Za-z0-9=&%_.-]*)?$/.test(value) ? value : "account.html";
  }

  WF.pages.login = function () {
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

  WF.pages.account = function () {
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
})(window.WayfinderDemo);
