// The API explorer at /api/v1/docs: Swagger UI over this server's OpenAPI document.
// Everything is served by this server (no CDN, no online validator); "Authorize" takes an
// API token (create one on the Account page) and sends it as "Authorization: Bearer ...".
window.addEventListener("DOMContentLoaded", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-openapi"),
    dom_id: "#swagger-ui",
    deepLinking: true,
    layout: "BaseLayout",
    presets: [SwaggerUIBundle.presets.apis],
    validatorUrl: null,
    persistAuthorization: false,
    tryItOutEnabled: false,
    // a session cookie would otherwise ride along: send only the token the user gave
    requestInterceptor: function (req) { req.credentials = "omit"; return req; }
  });
});
