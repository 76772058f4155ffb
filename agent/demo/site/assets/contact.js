/* Wayfinder Demo Store: the contact form (validation, a confirmation with a stable reference). */
(function (WF) {
  "use strict";

  var el = WF.el, byId = WF.byId;

  var TOPICS = {
    order: "Order status",
    returns: "Returns and refunds",
    product: "Product question",
    feedback: "Website feedback"
  };

  /** A short, stable reference for a message, so the same input always gets the same confirmation. */
  function reference(text) {
    var hash = 0;
    for (var i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) >>> 0;
    return "C-" + String(hash % 100000).padStart(5, "0");
  }

  WF.pages.contact = function () {
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
})(window.WayfinderDemo);
