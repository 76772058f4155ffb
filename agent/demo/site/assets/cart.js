/* Wayfinder Demo Store: the cart page (lines, total, removing, a checkout that is switched off). */
(function (WF) {
  "use strict";

  var el = WF.el, byId = WF.byId, money = WF.money, loadCatalog = WF.loadCatalog,
    showLoadError = WF.showLoadError, readCart = WF.readCart, writeCart = WF.writeCart;

  WF.pages.cart = function () {
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

})(window.WayfinderDemo);
