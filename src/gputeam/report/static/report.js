(function () {
  "use strict";
  var body = document.body;
  var divs = Array.prototype.slice.call(document.querySelectorAll("[data-chart]"));
  if (!divs.length) { body.setAttribute("data-charts-ready", "0"); return; }
  if (typeof window.Plotly === "undefined") {
    body.setAttribute("data-charts-failed", "Plotly.js is missing");
    throw new Error("gputeam report: Plotly.js is missing");
  }
  var config = { displaylogo: false, responsive: true, typesetMath: false };
  var failed = [];
  // The PDF report names the font its charts use: they are drawn once it has loaded, so that
  // Plotly measures their text in it (Hangul included).
  var font = body.getAttribute("data-chart-font");

  function draw(div) {
    var id = div.getAttribute("data-chart");
    var spec;
    try {
      spec = JSON.parse(document.getElementById("chart-" + id + "-spec").textContent);
    } catch (err) {
      failed.push(id);
      div.setAttribute("data-chart-ready", "error");
      return Promise.resolve();
    }
    if (font) {
      spec.layout.font = Object.assign({}, spec.layout.font, { family: '"' + font + '", sans-serif' });
    }
    return window.Plotly.newPlot(div, spec.data, spec.layout, config).then(function () {
      div.setAttribute("data-chart-ready", "true");
    }, function (err) {
      failed.push(id);
      div.setAttribute("data-chart-ready", "error");
      console.error("gputeam report: chart " + id + " failed: " + err);
    });
  }

  function drawAll() {
    Promise.all(divs.map(draw)).then(function () {
      if (failed.length) { body.setAttribute("data-charts-failed", failed.join(" ")); }
      body.setAttribute("data-charts-ready", String(divs.length - failed.length));
    });
  }

  if (!font) { drawAll(); return; }
  Promise.all(["400", "700"].map(function (weight) {
    return document.fonts.load(weight + ' 12px "' + font + '"', "A\u00e9\u20a9\uac00");
  })).then(drawAll, drawAll);
})();
