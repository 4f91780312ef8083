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
  var jobs = divs.map(function (div) {
    var id = div.getAttribute("data-chart");
    var spec;
    try {
      spec = JSON.parse(document.getElementById("chart-" + id + "-spec").textContent);
    } catch (err) {
      failed.push(id);
      div.setAttribute("data-chart-ready", "error");
      return Promise.resolve();
    }
    return window.Plotly.newPlot(div, spec.data, spec.layout, config).then(function () {
      div.setAttribute("data-chart-ready", "true");
    }, function (err) {
      failed.push(id);
      div.setAttribute("data-chart-ready", "error");
      console.error("gputeam report: chart " + id + " failed: " + err);
    });
  });
  Promise.all(jobs).then(function () {
    if (failed.length) { body.setAttribute("data-charts-failed", failed.join(" ")); }
    body.setAttribute("data-charts-ready", String(divs.length - failed.length));
  });
})();
