/* Wayfinder Demo Store: the catalog pages (home, products with filters and sort, one product, search results). */
(function (WF) {
  "use strict";

  var el = WF.el, byId = WF.byId, params = WF.params, money = WF.money, loadCatalog = WF.loadCatalog,
    showLoadError = WF.showLoadError, addToCart = WF.addToCart;

  function initials(name) {
    return name.split(/\s+/).filter(function (w) { return /^[A-Za-z]/.test(w); })
      .slice(0, 2).map(function (w) { return w[0].toUpperCase(); }).join("");
  }

  function sku(product) {
    return "WF-" + String(product.id).padStart(4, "0");
  }

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

  WF.pages.home = function () {
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

  WF.pages.products = function () {
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

  WF.pages.product = function () {
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

  WF.pages.search = function () {
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
})(window.WayfinderDemo);
