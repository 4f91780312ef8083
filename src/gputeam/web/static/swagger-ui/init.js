// The API explorer at /api/v1/docs: Swagger UI over this server's OpenAPI document.
// Everything is served by this server (no CDN, no online validator); "Authorize" takes an
// API token (create one on the Account page) and sends it as "Authorization: Bearer ...".
window.addEventListener("DOMContentLoaded", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-openapi"),
    dom_id: "#swagger-ui",
    // no deep links: they put a link inside each operation's button (nested controls a
    // keyboard or screen reader cannot reach apart)
    deepLinking: false,
    layout: "BaseLayout",
    presets: [SwaggerUIBundle.presets.apis],
    validatorUrl: null,
    persistAuthorization: false,
    tryItOutEnabled: false,
    // plain examples: the highlighter's colours fall below the WCAG AA contrast ratio
    syntaxHighlight: false,
    // a session cookie would otherwise ride along: send only the token the user gave
    requestInterceptor: function (req) { req.credentials = "omit"; return req; }
  });
  // Swagger UI's dialog has a close button without a name, and buttons whose name is not
  // their text ("Authorize" named "Apply credentials"): name them by what they show.
  new MutationObserver(function () {
    root.querySelectorAll("button.close-modal:not([aria-label])").forEach(function (b) {
      b.setAttribute("aria-label", "Close");
    });
    root.querySelectorAll(".modal-ux button[aria-label]").forEach(function (b) {
      var text = b.textContent.trim();
      if (text && b.getAttribute("aria-label").indexOf(text) < 0) { b.removeAttribute("aria-label"); }
    });
  }).observe(root, { childList: true, subtree: true });
});
